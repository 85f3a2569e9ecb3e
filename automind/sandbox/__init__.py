"""Run generated code in a disposable workspace with limits, containment and a clean exit.

Layout (each module's docstring says why it exists):
- `core`: `Sandbox`, which ties the parts together and turns an ending into an `ExecResult`;
- `workspace`: input/, submission/, working/ and the bootstrap folder; inputs bind-mounted or copied;
- `process`: starting the supervisor, memory (proportional set size) and time limits, the tree kill;
- `isolation`: whether kernel namespaces work here, and the one-line description of what is in force;
- `session`: the persistent interpreter for stepwise coding;
- `env`: the child's allow-listed environment; `result`: `ExecResult` and output capture;
- `child/`: code that runs on the child's side (supervisor, namespaces, session runner, guard).
docs/sandbox.md states the guarantees.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing itself is not imported: the child side starts from this package
if TYPE_CHECKING:
    from typing import Any

    from automind.sandbox.core import Sandbox
    from automind.sandbox.env import MARKER_VAR, THREAD_VARS, scrub_env
    from automind.sandbox.errors import SandboxError
    from automind.sandbox.isolation import Isolation
    from automind.sandbox.result import ExecResult, Status, truncate
    from automind.sandbox.session import Session

# Loaded on first use: the child-side modules live in this package and must start fast, without
# importing the parent side (and its pydantic task model) into every supervisor.
_EXPORTS = {
    "Sandbox": "core",
    "MARKER_VAR": "env",
    "THREAD_VARS": "env",
    "scrub_env": "env",
    "SandboxError": "errors",
    "Isolation": "isolation",
    "ExecResult": "result",
    "Status": "result",
    "truncate": "result",
    "Session": "session",
}
__all__ = [
    "MARKER_VAR",
    "THREAD_VARS",
    "ExecResult",
    "Isolation",
    "Sandbox",
    "SandboxError",
    "Session",
    "Status",
    "scrub_env",
    "truncate",
]


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module 'automind.sandbox' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"automind.sandbox.{_EXPORTS[name]}"), name)
    globals()[name] = value
    return value
