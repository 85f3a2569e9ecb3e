"""The child's environment: an allow-list of what generated code needs, never the parent's secrets.

Only the variables named here (and those a task declares in task.yaml `env:`) pass from automind's
environment; everything else (API keys, database URLs, tokens under any name) stays behind. The sandbox
then sets its own: HOME and TMPDIR inside the workspace, thread caps, the guard's config and marker.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

# Passed through from the parent when set: locale, time zone, search path, identity, accelerator choice.
ALLOWED_VARS = frozenset(
    {
        "PATH",
        "LANG",
        "LANGUAGE",
        "TZ",
        "TERM",
        "USER",
        "LOGNAME",
        "LD_LIBRARY_PATH",
        "PYTHONHASHSEED",
        "CUDA_VISIBLE_DEVICES",
        "CUDA_DEVICE_ORDER",
        "CUDA_HOME",
        "CUDA_PATH",
        "NVIDIA_VISIBLE_DEVICES",
        "NVIDIA_DRIVER_CAPABILITIES",
        "HIP_VISIBLE_DEVICES",
        "ROCR_VISIBLE_DEVICES",
    }
)
ALLOWED_PREFIXES = ("LC_",)
THREAD_VARS = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "NUMEXPR_MAX_THREADS",
    "NUMEXPR_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "BLIS_NUM_THREADS",
    "TORCH_NUM_THREADS",
    "RAYON_NUM_THREADS",
    "POLARS_MAX_THREADS",
)
MARKER_VAR = "SANDBOX_RUN_ID"  # every process of one execution carries it: the final sweep finds them
GUARD_VAR = "SANDBOX_GUARD"  # path of the guard's JSON config (outside the workspace)
ROOT_PID_VAR = "SANDBOX_ROOT_PID"  # set by the guard in the first sandboxed interpreter


def scrub_env(environ: Mapping[str, str], allow: Iterable[str] = ()) -> dict[str, str]:
    """The allow-listed subset of `environ`: ALLOWED_VARS, LC_*, and the extra names in `allow`."""
    extra = set(allow)
    return {
        name: value
        for name, value in environ.items()
        if name in ALLOWED_VARS or name in extra or name.startswith(ALLOWED_PREFIXES)
    }


def child_env(
    workspace: Path, guard_config: Path, startup_dir: Path, threads: int, allow: Iterable[str] = ()
) -> dict[str, str]:
    """The full environment of a sandboxed execution (the spawner adds the marker)."""
    env = scrub_env(os.environ, allow)
    bindir = os.path.dirname(sys.executable)
    path = env.get("PATH", "/usr/local/bin:/usr/bin:/bin")
    tmp = workspace / "working" / "tmp"
    env.update(
        PATH=bindir + os.pathsep + path if bindir not in path.split(os.pathsep) else path,
        HOME=str(workspace),
        TMPDIR=str(tmp),
        JOBLIB_TEMP_FOLDER=str(tmp),
        MPLCONFIGDIR=str(tmp / "matplotlib"),
        PYTHONPATH=str(startup_dir),
        PYTHONNOUSERSITE="1",
        PYTHONDONTWRITEBYTECODE="1",
        PYTHONUNBUFFERED="1",
        PYTHONIOENCODING="utf-8",
        MPLBACKEND="Agg",
        TQDM_DISABLE="1",
        TOKENIZERS_PARALLELISM="false",
        HF_HUB_OFFLINE="1",
        **{GUARD_VAR: str(guard_config)},
    )
    env.setdefault("LANG", "C.UTF-8")
    if sys.prefix != sys.base_prefix:
        env["VIRTUAL_ENV"] = sys.prefix
    for var in THREAD_VARS:
        env[var] = str(threads)
    return env
