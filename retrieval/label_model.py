"""The fitted task labeller: two softmax-linear models (top level, subcategory) loaded from a small .npz.

Top level: p(top | x, flags) = softmax((W x + b) / T + sum_f alpha_f * flag_f * e(home(f))), where T is a
temperature fitted on cross-validated logits and each data flag (images, audio, long text, time index,
user/item ids, tables only) adds a fitted weight alpha_f to the one category it points to.
Subcategory: a softmax over all (top, sub) pairs seen in training, renormalised within a top category.
One artefact per embedder (`knowledge/labeler/<embedder>.npz`), rebuilt by
`python -m automind.retrieval.train_labeler SHARED_DIR`. Numpy only: loading takes milliseconds.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np

from automind.retrieval import label_features as lf

FORMAT = 1


class LabelModelError(RuntimeError):
    """The shipped labeller model is missing or unreadable; the message says how to rebuild it."""


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


@dataclass
class LabelModel:
    embedder: str
    tops: list[str]
    pairs: list[tuple[str, str]]  # (top, sub) per subcategory class
    w_top: np.ndarray  # (tops, features)
    b_top: np.ndarray
    w_sub: np.ndarray  # (pairs, features)
    b_sub: np.ndarray
    t_top: float = 1.0
    t_sub: float = 1.0
    alpha: np.ndarray = field(default_factory=lambda: np.zeros(len(lf.FLAGS), dtype=np.float32))
    flag_home: list[str] = field(default_factory=list)  # category each flag points to (FLAGS order)
    info: dict = field(default_factory=dict)  # how it was trained (counts, C, CV figures)

    # -- inference ---------------------------------------------------------------------------------
    def top_logits(self, x: np.ndarray, flags: np.ndarray | None = None) -> np.ndarray:
        z = (np.asarray(x, dtype=np.float32) @ self.w_top.T + self.b_top) / self.t_top
        if flags is not None:
            z = z + np.asarray(flags, dtype=np.float32) @ self._flag_matrix()
        return z

    def top_probs(self, x: np.ndarray, flags: np.ndarray | None = None) -> np.ndarray:
        """Calibrated probabilities over `tops` (rows of x when x is 2-D)."""
        return _softmax(self.top_logits(x, flags))

    def sub_probs(self, x: np.ndarray) -> np.ndarray:
        """Probabilities over `pairs` (all subcategories of all tops)."""
        return _softmax((np.asarray(x, dtype=np.float32) @ self.w_sub.T + self.b_sub) / self.t_sub)

    def subs_within(self, sub_probs: np.ndarray, top: str) -> list[tuple[str, float]]:
        """(sub, p(sub | top)) for one top category, best first; empty when none was seen in training."""
        idx = [i for i, (t, _) in enumerate(self.pairs) if t == top]
        if not idx:
            return []
        p = np.asarray(sub_probs)[idx]
        p = p / p.sum() if p.sum() > 0 else np.full(len(idx), 1.0 / len(idx))
        order = np.argsort(-p)
        return [(self.pairs[idx[i]][1], float(p[i])) for i in order]

    def _flag_matrix(self) -> np.ndarray:
        m = np.zeros((len(lf.FLAGS), len(self.tops)), dtype=np.float32)
        for i, home in enumerate(self.flag_home):
            if home in self.tops:
                m[i, self.tops.index(home)] = self.alpha[i]
        return m

    # -- persistence -------------------------------------------------------------------------------
    def save(self, path: Path) -> Path:
        """float16 weights (the artefact ships in the package); the rest as JSON metadata."""
        path.parent.mkdir(parents=True, exist_ok=True)
        meta = {
            "format": FORMAT,
            "embedder": self.embedder,
            "tops": self.tops,
            "pairs": [list(p) for p in self.pairs],
            "t_top": self.t_top,
            "t_sub": self.t_sub,
            "alpha": [float(a) for a in self.alpha],
            "flags": list(lf.FLAGS),
            "flag_home": self.flag_home,
            "cue_terms": len(lf.CUE_TERMS),
            "metric_families": list(lf.METRIC_NAMES),
            "info": self.info,
        }
        with path.open("wb") as fh:
            np.savez_compressed(
                fh,
                w_top=self.w_top.astype(np.float16),
                b_top=self.b_top.astype(np.float32),
                w_sub=self.w_sub.astype(np.float16),
                b_sub=self.b_sub.astype(np.float32),
                meta=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8),
            )
        return path

    @classmethod
    def load(cls, path: Path) -> LabelModel:
        try:
            with np.load(path) as z:
                meta = json.loads(bytes(z["meta"]).decode())
                arrays = {k: z[k].astype(np.float32) for k in ("w_top", "b_top", "w_sub", "b_sub")}
        except FileNotFoundError:
            raise LabelModelError(
                f"no labeller model at {path}; rebuild it with "
                "`python -m automind.retrieval.train_labeler SHARED_DIR` (see docs/labelling.md)"
            ) from None
        except (OSError, ValueError, KeyError) as e:
            raise LabelModelError(f"labeller model {path} is unreadable ({e}); rebuild it") from e
        if meta.get("format") != FORMAT or meta.get("flags") != list(lf.FLAGS):
            raise LabelModelError(f"labeller model {path} was built by another version; rebuild it")
        if meta.get("cue_terms") != len(lf.CUE_TERMS) or meta.get("metric_families") != list(lf.METRIC_NAMES):
            raise LabelModelError(f"labeller model {path} does not match the feature vocabulary; rebuild it")
        return cls(
            embedder=meta["embedder"],
            tops=list(meta["tops"]),
            pairs=[tuple(p) for p in meta["pairs"]],
            t_top=float(meta["t_top"]),
            t_sub=float(meta["t_sub"]),
            alpha=np.asarray(meta["alpha"], dtype=np.float32),
            flag_home=list(meta["flag_home"]),
            info=dict(meta.get("info") or {}),
            **arrays,
        )


def model_dir() -> Path:
    """Where the shipped artefacts live: knowledge/labeler/ inside the installed package."""
    return Path(str(resources.files("automind.knowledge"))) / "labeler"


def model_path(embedder_name: str, directory: Path | None = None) -> Path:
    return (directory or model_dir()) / f"{embedder_name}.npz"


@cache
def load_model(embedder_name: str) -> LabelModel:
    """The shipped model for an embedder, loaded once per process."""
    return LabelModel.load(model_path(embedder_name))
