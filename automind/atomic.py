"""One atomic file writer for every file a kill must never leave half-written (journals, run.json, caches).

The content goes to a uniquely named temporary file in the target's own folder (same filesystem, so
the rename is atomic), is flushed to disk, then `os.replace`s the target. A crash or kill at any
point leaves either the old file or the new one, never a mix; two writers never share a temporary
name; and a failed write removes its temporary file. The new file gets the mode the old one had (or
the umask's default), not the private 0600 of a temporary file.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import IO, Any


@cache
def _default_mode() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def write_with(
    path: str | Path, write: Callable[[IO[Any]], object], *, encoding: str = "utf-8", binary: bool = False
) -> Path:
    """Create `path` atomically from whatever `write(f)` writes to a text (or, `binary`, a bytes) file object."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = path.stat().st_mode & 0o777
    except OSError:
        mode = _default_mode()
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding=encoding) as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def write_text(path: str | Path, text: str, *, encoding: str = "utf-8") -> Path:
    """Atomic `Path.write_text`."""
    return write_with(path, lambda f: f.write(text), encoding=encoding)


def write_json(path: str | Path, data: Any, *, indent: int | None = 1) -> Path:
    """Atomic JSON dump; values JSON cannot encode (paths, dates) are written as strings."""
    return write_with(path, lambda f: json.dump(data, f, indent=indent, default=str))
