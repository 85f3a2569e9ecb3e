"""What generated code will run on: the sandbox interpreter's libraries and the machine's hardware.

The prompts state both, so the model writes code for what is really installed and sizes the approach
to the cores, memory and GPU it has. The probe runs once per run: a subprocess of the sandbox's
python lists its installed distributions (stdlib `importlib.metadata`, well under a second), and
`nvidia-smi` reports visible GPUs when it exists. The result is cached as `environment.json` in the
run folder, so a resumed run does not probe again. Limits that come from the settings (memory limit,
threads) are applied when the text is written, so a resume with other limits states the new ones.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from automind.atomic import write_json

if TYPE_CHECKING:
    from automind.config import Settings

CACHE_NAME = "environment.json"
PROBE_SCRIPT = Path(__file__).with_name("_list_distributions.py")

# Libraries worth naming in a prompt (distribution names, normalised), in the order they are listed.
# Everything installed is kept in environment.json; the prompt names only these, to stay short.
RELEVANT = (
    "numpy", "pandas", "polars", "pyarrow", "scipy", "scikit-learn", "lightgbm", "xgboost", "catboost",
    "statsmodels", "optuna", "torch", "torchvision", "torchaudio", "tensorflow", "keras", "jax",
    "transformers", "sentence-transformers", "tokenizers", "datasets", "timm", "accelerate", "peft",
    "opencv-python", "opencv-python-headless", "pillow", "scikit-image", "albumentations", "librosa",
    "soundfile", "nltk", "spacy", "gensim", "networkx", "torch-geometric", "category-encoders",
    "imbalanced-learn", "shap", "flaml", "autogluon-tabular", "prophet", "sktime", "tsfresh",
)  # fmt: skip


@dataclass
class Gpu:
    name: str
    memory_mb: int | None = None


@dataclass
class Environment:
    """The probed facts. Built by `probe`; `hardware_text`/`library_text` phrase them for prompts."""

    python_version: str = ""
    libraries: dict[str, str] = field(default_factory=dict)  # every installed distribution
    cpus: int = 1
    machine_memory_mb: int | None = None
    gpus: list[Gpu] = field(default_factory=list)

    def relevant_libraries(self) -> list[tuple[str, str]]:
        return [(name, self.libraries[name]) for name in RELEVANT if name in self.libraries]

    def library_text(self) -> str:
        libs = self.relevant_libraries()
        listed = ", ".join(f"{n} {v}" for n, v in libs) if libs else "only the Python standard library"
        return f"Python {self.python_version}: {listed}" if self.python_version else listed

    def hardware_text(self, threads: int, memory_limit_mb: int | None) -> str:
        cores = f"{self.cpus} CPU core{'s' if self.cpus != 1 else ''} (thread pools set to {threads})"
        if memory_limit_mb:
            memory = f"memory limit {memory_limit_mb / 1024:.1f} GB"
        elif self.machine_memory_mb:
            memory = f"{self.machine_memory_mb / 1024:.1f} GB memory, no limit set"
        else:
            memory = "memory size unknown"
        if self.gpus:
            gpus = ", ".join(
                g.name + (f" ({g.memory_mb / 1024:.1f} GB)" if g.memory_mb else "") for g in self.gpus
            )
            accel = f"GPU: {gpus}"
        else:
            accel = "no GPU visible"
        return f"{cores}, {memory}, {accel}"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Environment:
        gpus = [Gpu(**g) for g in data.get("gpus") or [] if isinstance(g, dict) and g.get("name")]
        return cls(
            python_version=str(data.get("python_version") or ""),
            libraries={str(k): str(v) for k, v in (data.get("libraries") or {}).items()},
            cpus=int(data.get("cpus") or 1),
            machine_memory_mb=data.get("machine_memory_mb"),
            gpus=gpus,
        )


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _machine_memory_mb() -> int | None:
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20)
    except (AttributeError, OSError, ValueError):
        return None


def _gpus(timeout_s: float) -> list[Gpu]:
    """GPUs nvidia-smi reports (name, total memory in MiB); none when it is missing or fails."""
    exe = shutil.which("nvidia-smi")
    if exe is None:
        return []
    try:
        out = subprocess.run(
            [exe, "--query-gpu=name,memory.total", "--format=csv,noheader,nounits"],
            capture_output=True, text=True, timeout=timeout_s, check=True,
        ).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return []
    gpus = []
    for line in out.splitlines():
        name, _, mem = line.rpartition(",")
        if not name.strip():
            name, mem = mem, ""
        try:
            memory = int(float(mem.strip()))
        except ValueError:
            memory = None
        if name.strip():
            gpus.append(Gpu(name.strip(), memory))
    return gpus


def probe(python: str | None = None, timeout_s: float = 30.0) -> Environment:
    """Ask `python` (default: this interpreter, which the sandbox uses) for its distributions."""
    res = subprocess.run(
        [python or sys.executable, str(PROBE_SCRIPT)],
        capture_output=True, text=True, timeout=timeout_s, check=True, env={**os.environ, "PYTHONNOUSERSITE": "1"},
    )  # fmt: skip
    data = json.loads(res.stdout)
    return Environment(
        python_version=str(data.get("python") or ""),
        libraries=dict(data.get("distributions") or {}),
        cpus=_cpus(),
        machine_memory_mb=_machine_memory_mb(),
        gpus=_gpus(timeout_s),
    )


def for_run(run_dir: Path, fallbacks: list[str]) -> Environment | None:
    """The run's environment: environment.json when present, else probed now and cached there.

    A failed probe is a fallback note (the prompts then name no libraries or hardware), never an error.
    """
    path = run_dir / CACHE_NAME
    if path.is_file():
        try:
            return Environment.from_json(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, TypeError) as e:
            fallbacks.append(f"environment: cannot read {path} ({e}); probing again")
    try:
        env = probe()
    except (OSError, subprocess.SubprocessError, ValueError) as e:
        fallbacks.append(
            f"environment probe failed ({type(e).__name__}: {e}); prompts do not list libraries or hardware"
        )
        return None
    write_json(path, env.to_json(), indent=2)
    return env


def prompt_facts(env: Environment | None, settings: Settings) -> dict[str, str]:
    """The `libraries` and `hardware` lines the prompts state (empty when the probe failed)."""
    if env is None:
        return {}
    limit = settings.sandbox.memory_mb or None
    return {
        "libraries": env.library_text(),
        "hardware": env.hardware_text(settings.sandbox.threads, limit),
    }
