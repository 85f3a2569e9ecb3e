"""An interactive task environment (MLE-Dojo's protocol) over automind's tasks, sandbox and grading.

    from automind.env import TaskEnv
    env = TaskEnv("path/to/task")
    obs, info = env.reset()
    obs, reward, terminated, truncated, info = env.step({"action": "request_info", "kind": "metric"})

Names are loaded on first use, so importing this package does not import gymnasium. See docs/env.md.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "TaskEnv": "automind.env.core",
    "Limits": "automind.env.core",
    "ActionResult": "automind.env.actions",
    "ActionSpec": "automind.env.actions",
    "action": "automind.env.actions",
    "default_actions": "automind.env.builtin",
    "EnvView": "automind.env.view",
    "Execution": "automind.env.view",
    "PublicInfo": "automind.env.view",
    "Reward": "automind.env.reward",
}
__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'automind.env' has no attribute {name!r}")
