"""The sandbox's own failure, as opposed to a failure of the code it runs (that is an ExecResult)."""

from __future__ import annotations


class SandboxError(RuntimeError):
    """The sandbox could not be set up: bad workdir, refused inputs, isolation that was required but failed."""
