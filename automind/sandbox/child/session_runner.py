"""The persistent interpreter behind `Sandbox.session()`: cells share one namespace, like a notebook.

usage: python .../session_runner.py CMD_FD RESULT_FD   (run by path, so no automind import is needed)

Reads length-prefixed UTF-8 cells from CMD_FD and runs each in the shared namespace; after each cell it
writes one JSON line to RESULT_FD: exit_code, exc_type, traceback (the cell's frames only, `<cell N>`
line numbers). A raising cell does not end the session; EOF on CMD_FD does.
"""

from __future__ import annotations

import json
import linecache
import os
import sys
import traceback
from typing import Any, BinaryIO


def run_cell(code: str, name: str, namespace: dict[str, Any]) -> dict[str, Any]:
    """Run one cell; its uncaught exception is printed to stderr and summarised for the parent."""
    linecache.cache[name] = (len(code), None, code.splitlines(True), name)
    out: dict[str, Any] = {"exit_code": 0, "exc_type": None, "traceback": None}
    try:
        exec(compile(code, name, "exec"), namespace)
    except SystemExit as e:
        c = e.code
        out["exit_code"] = c if isinstance(c, int) else (0 if c is None else 1)
        if out["exit_code"]:
            out["exc_type"] = "SystemExit"
    except BaseException as e:  # noqa: BLE001 - a cell's failure is reported, never fatal
        tb = e.__traceback__.tb_next if e.__traceback__ is not None else None
        text = "".join(traceback.format_exception(type(e), e, tb))
        sys.stderr.write(text)
        out.update(exit_code=1, exc_type=type(e).__name__, traceback=text[-20000:])
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:  # noqa: BLE001 - a closed stream must not kill the session
            pass
    return out


def serve(commands: BinaryIO, results: BinaryIO) -> None:
    namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": __builtins__}
    n = 0
    while True:
        header = commands.readline()
        if not header:
            return
        code = commands.read(int(header)).decode("utf-8")
        n += 1
        results.write((json.dumps(run_cell(code, f"<cell {n}>", namespace)) + "\n").encode())


def main() -> None:
    commands = os.fdopen(int(sys.argv[1]), "rb")
    results = os.fdopen(int(sys.argv[2]), "wb", buffering=0)
    sys.argv = ["session"]
    sys.path[0] = os.getcwd()  # cells import from the workspace, as a script there would
    sys.stdin = open(os.devnull)  # noqa: SIM115 - lives as long as the interpreter
    serve(commands, results)


if __name__ == "__main__":
    main()
