"""Download a Kaggle competition and prepare it as a gradable task.

Kaggle's own test set has no labels, so (as MLE-bench does) the competition's train file is split
90/10 with seed 0 into a new public train/test and private answers. The Kaggle API sits behind a
two-method object (`download`, `info`) so tests inject a fake and nothing here needs the network.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import zipfile
from pathlib import Path
from typing import Any, Protocol

from automind.prepare import PrepareError, prepare_task

TEST_SIZE = 0.1
SEED = 0


class FetchError(RuntimeError):
    """Fetching or preparing the competition failed; the message says what to set or pass."""


class KaggleAuthError(RuntimeError):
    """The `kaggle` client could not sign in; the message says why and what to set."""


class CompetitionAPI(Protocol):
    def download(self, slug: str, dest: Path) -> None:
        """Put the competition's files (zips are fine) into dest."""

    def info(self, slug: str) -> dict[str, Any]:
        """Optional facts: title, description, metric (Kaggle's evaluation metric name)."""

    def leaderboard(self, slug: str, dest: Path) -> None:
        """Optional: put the competition's public leaderboard (a CSV, zipped or not) into dest."""


def has_credentials(env: dict[str, str] | None = None, home: Path | None = None) -> bool:
    env = dict(os.environ) if env is None else env
    home = home or Path.home()
    if env.get("KAGGLE_API_TOKEN") or (env.get("KAGGLE_USERNAME") and env.get("KAGGLE_KEY")):
        return True
    cfg = Path(env.get("KAGGLE_CONFIG_DIR") or home / ".kaggle")
    return (cfg / "kaggle.json").is_file() or (cfg / "access_token").is_file()


NO_CREDENTIALS = (
    "no Kaggle credentials found. Set KAGGLE_USERNAME and KAGGLE_KEY (or KAGGLE_API_TOKEN), or save your API token "
    "as ~/.kaggle/kaggle.json (from https://www.kaggle.com/settings/api), then accept the competition's rules on "
    "its Kaggle page."
)


def signed_in_client() -> Any:
    """The `kaggle` package's client, authenticated. It is imported here, lazily and quietly: it prints a
    banner at import, and it exits (SystemExit) on a bad kaggle.json. Raises KaggleAuthError saying why."""
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            from kaggle.api.kaggle_api_extended import KaggleApi

            api = KaggleApi()
            api.authenticate()
    except (Exception, SystemExit) as e:  # noqa: BLE001 - it raises many kinds, and exits on a bad kaggle.json
        why = f"exit {e.code}" if isinstance(e, SystemExit) else str(e)
        raise KaggleAuthError(f"Kaggle authentication failed ({why}). {NO_CREDENTIALS}") from e
    return api


class KaggleAPI:
    """The real Kaggle client for competitions (signed in when made)."""

    def __init__(self) -> None:
        try:
            self._api = signed_in_client()
        except KaggleAuthError as e:
            raise FetchError(str(e)) from e

    def download(self, slug: str, dest: Path) -> None:
        self._api.competition_download_files(slug, path=str(dest), quiet=True)

    def leaderboard(self, slug: str, dest: Path) -> None:
        self._api.competition_leaderboard_download(slug, path=str(dest), quiet=True)

    def info(self, slug: str) -> dict[str, Any]:
        found = self._api.competitions_list(search=slug) or []
        comps = getattr(found, "competitions", found) or []
        for c in comps:
            ref = str(getattr(c, "ref", "") or "")
            if ref.rstrip("/").split("/")[-1] == slug:
                return {
                    "title": getattr(c, "title", None),
                    "description": getattr(c, "description", None),
                    "metric": getattr(c, "evaluation_metric", None) or getattr(c, "evaluationMetric", None),
                }
        return {}


def _unzip_all(raw: Path) -> None:
    """Extract every zip under raw/, and the zips those hold (older competitions ship train.csv.zip inside
    the competition's archive), each once."""
    done: set[Path] = set()
    while todo := sorted(set(raw.rglob("*.zip")) - done):
        for z in todo:
            done.add(z)
            _unzip(z, raw)


def _unzip(z: Path, raw: Path) -> None:
    with zipfile.ZipFile(z) as zf:
        for member in zf.namelist():  # refuse paths that would land outside raw/
            target = (z.parent / member).resolve()
            if not target.is_relative_to(raw.resolve()):
                raise FetchError(f"{z}: member {member!r} would extract outside {raw}; refusing.")
        zf.extractall(z.parent)


def _find(raw: Path, word: str) -> Path | None:
    hits = [p for p in raw.rglob("*.csv") if word in p.name.lower()]
    exact = [p for p in hits if p.name.lower() == f"{word}.csv"]
    if exact:
        return exact[0]
    return max(hits, key=lambda p: p.stat().st_size) if hits else None


DOWNLOADED = ".automind-download"  # in raw/: the slug of a complete download made by this command


def fetch_competition(
    slug: str,
    out_dir: str | Path,
    api: CompetitionAPI | None = None,
    metric: str | None = None,
    target: str | list[str] | None = None,
    force: bool = False,
) -> Path:
    """Download `slug` into out_dir/raw and prepare a task in out_dir from its train file.

    A complete earlier download of the same competition in out_dir/raw is reused, so a run that stopped at
    preparing (an unknown metric, an ambiguous target) is fixed by running it again with the missing flag."""
    out = Path(out_dir).expanduser().resolve()
    raw = out / "raw"
    mark = raw / DOWNLOADED
    reuse = mark.is_file() and mark.read_text(encoding="utf-8").strip() == slug
    if out.is_dir():
        _check_out(out, reuse, force)
    if api is None:
        if not has_credentials():
            raise FetchError(NO_CREDENTIALS)
        api = KaggleAPI()
    if not reuse:
        _download(api, slug, out, raw)
    kept = f" The download is kept in {raw} and reused when you run the command again."
    try:
        return _prepare_fetched(slug, out, raw, api, metric, target)
    except FetchError as e:
        raise FetchError(f"{e}{kept}") from e


def _check_out(out: Path, reuse: bool, force: bool) -> None:
    """OUT_DIR may hold this competition's earlier download; anything else needs --force, and a raw/ that
    automind did not download is never written into."""
    others = sorted(p.name for p in out.iterdir() if not (reuse and p.name == "raw"))
    if others and not force:
        raise FetchError(
            f"{out}: not empty ({', '.join(others[:5])}). Choose an empty or new OUT_DIR, or pass --force to "
            "download into OUT_DIR/raw and replace public/, private/, task.yaml and description.md there."
        )
    raw = out / "raw"
    if raw.exists() and not reuse:
        if not (raw / DOWNLOADED).is_file():
            raise FetchError(
                f"{raw}: exists and is not a download automind made; it is left alone. Move it away or choose "
                "another OUT_DIR."
            )
        shutil.rmtree(raw)  # another competition's download, made by this command


def _download(api: CompetitionAPI, slug: str, out: Path, raw: Path) -> None:
    """Download and unzip into raw/; the mark is written last, so only a complete download is reused."""
    made = out if not out.exists() else raw
    raw.mkdir(parents=True, exist_ok=True)
    try:
        api.download(slug, raw)
    except Exception as e:  # noqa: BLE001 - network, 403 (rules not accepted), 404 (bad slug)
        shutil.rmtree(made, ignore_errors=True)  # leave nothing behind, so a retry needs no --force
        if isinstance(e, FetchError):
            raise
        raise FetchError(
            f"downloading '{slug}' from Kaggle failed ({e}). Check the network, the competition name, and that you "
            f"accepted its rules at https://www.kaggle.com/c/{slug}/rules."
        ) from e
    _unzip_all(raw)
    (raw / DOWNLOADED).write_text(slug + "\n", encoding="utf-8")


def _prepare_fetched(
    slug: str,
    out: Path,
    raw: Path,
    api: CompetitionAPI,
    metric: str | None,
    target: str | list[str] | None,
) -> Path:
    """Split the downloaded train file into a task in `out` and attach the leaderboards."""
    try:
        info = api.info(slug) or {}
    except Exception:  # noqa: BLE001 - facts are optional; the files are what matter
        info = {}

    train_path = _find(raw, "train")
    if train_path is None:
        found = sorted(p.name for p in raw.rglob("*") if p.is_file())
        raise FetchError(f"'{slug}': no train CSV among the downloaded files ({', '.join(found) or 'none'}).")
    train = _read(slug, train_path)
    sample_path = _find(raw, "sample_submission") or _find(raw, "submission")
    id_col = None
    if target is None:
        if sample_path is None:
            raise FetchError(f"'{slug}': no sample submission to read the target from; pass --target COLUMN.")
        header = list(_read(slug, sample_path, nrows=0).columns)
        cols = [c for c in header[1:] if c in train.columns]
        if not cols:
            raise FetchError(
                f"'{slug}': the sample submission columns {header} are not in {train_path.name}; pass --target COLUMN "
                f"(train columns: {', '.join(map(str, train.columns))})."
            )
        target = cols[0] if len(cols) == 1 else cols
        id_col = header[0] if header[0] in train.columns else None
    metric = metric or info.get("metric")
    if not metric:
        raise FetchError(f"'{slug}': the competition's metric is unknown; pass --metric NAME.")
    title = info.get("title") or slug
    description = None
    if info.get("description"):
        description = f"# {title}\n\n{info['description']}\n\nMetric: {metric}. Target: {target}.\n"
    try:
        task_dir = prepare_task(
            train, out, target, metric, id_col=id_col, test_size=TEST_SIZE, seed=SEED,
            description=description, name=slug, force=True,
        )  # fmt: skip
    except (PrepareError, ValueError) as e:
        raise FetchError(f"'{slug}': downloaded, but preparing the task failed: {e}") from e
    add_leaderboards(slug, task_dir, api)
    return task_dir


def _read(slug: str, path: Path, **kw: Any) -> Any:
    """A downloaded CSV as a DataFrame; a file pandas cannot read is a FetchError naming it."""
    import pandas as pd

    try:
        return pd.read_csv(path, **kw)
    except Exception as e:  # noqa: BLE001 - empty, binary or ragged: the download's problem, said plainly
        raise FetchError(f"'{slug}': cannot read {path.name} from the download as CSV ({e}).") from e


def _public_board(slug: str, raw: Path, api: CompetitionAPI) -> tuple[Path | None, str]:
    """Download Kaggle's public leaderboard into raw/leaderboard/; (csv, "") or (None, why not)."""
    get = getattr(api, "leaderboard", None)
    if get is None:
        return None, "this Kaggle API object cannot download leaderboards"
    dest = raw / "leaderboard"
    dest.mkdir(parents=True, exist_ok=True)
    try:
        get(slug, dest)
        _unzip_all(dest)
    except Exception as e:  # noqa: BLE001 - network, 403, an unfinished competition: say so, keep the task
        return None, f"downloading the Kaggle leaderboard failed ({type(e).__name__}: {e})"
    found = sorted(dest.rglob("*.csv"))
    return (found[0], "") if found else (None, "the Kaggle leaderboard download held no CSV")


def _as_board(src: Path, dst: Path) -> int:
    """Kaggle's export (TeamId, TeamName, SubmissionDate, Score) as rank,score in the export's order."""
    import pandas as pd

    lb = pd.read_csv(src)
    col = next((c for c in lb.columns if str(c).strip().lower() == "score"), None)
    if col is None:
        raise ValueError(f"no Score column in {src.name} (columns: {', '.join(map(str, lb.columns))})")
    scores = pd.to_numeric(lb[col], errors="coerce").dropna()
    if scores.empty:
        raise ValueError(f"no numeric scores in {src.name}")
    pd.DataFrame({"rank": range(1, len(scores) + 1), "score": scores.to_numpy()}).to_csv(dst, index=False)
    return len(scores)


def add_leaderboards(slug: str, task_dir: Path, api: CompetitionAPI) -> dict[str, str | None]:
    """Give a fetched task its human boards, and record where they came from (fetch.json).

    leaderboard.csv: the board shipped with automind for this competition, else Kaggle's public board;
    leaderboard_public.csv: Kaggle's public board when the shipped one is there too (HumanRank then
    averages both). Without either, fetch.json says why, and grading reports it.
    """
    import gzip
    import json

    from automind.leaderboards import PROVENANCE, bundled

    record: dict[str, str | None] = {"private": None, "public": None, "note": None}
    shipped = bundled(slug)
    if shipped is not None:
        (task_dir / "leaderboard.csv").write_bytes(gzip.decompress(shipped.read_bytes()))
        record["private"] = "shipped with automind"
    public, why = _public_board(slug, task_dir / "raw", api)
    if public is not None:
        target = task_dir / ("leaderboard_public.csv" if shipped is not None else "leaderboard.csv")
        try:
            n = _as_board(public, target)
            record["public"] = f"Kaggle public leaderboard ({n} teams)"
        except (ValueError, OSError) as e:
            why = f"the Kaggle leaderboard was unusable ({e})"
    if record["private"] is None and record["public"] is None:
        record["note"] = f"{why}, and automind ships no leaderboard for '{slug}'"
    elif record["public"] is None:
        record["note"] = f"public board missing: {why}"
    (task_dir / PROVENANCE).write_text(
        json.dumps({"slug": slug, "leaderboard": record}, indent=2), encoding="utf-8"
    )
    return record
