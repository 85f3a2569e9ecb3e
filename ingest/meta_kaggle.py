"""`automind ingest meta-kaggle`: bring Kaggle's solution write-ups into the store at scale.

With a folder, the Meta Kaggle tables there are read; without one, the needed tables are downloaded
once (with the user's Kaggle credentials, through the `kaggle` package) into the automind home and
reused. The Kaggle client sits behind a one-method protocol so tests inject a fake and nothing here
needs the network. Re-running is cheap and safe: unchanged write-ups are recognised by their hash
and not embedded again, so an interrupted build resumes where it stopped.
"""

from __future__ import annotations

import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from automind.ingest.loaders.meta_kaggle import (
    DATASET,
    FORUMS,
    REQUIRED_TABLES,
    MetaKaggleOptions,
    Tables,
    iter_writeups,
)
from automind.ingest.pipeline import IngestError, IngestReport, ingest_documents, make_progress


class DatasetAPI(Protocol):
    def download_file(self, dataset: str, name: str, dest: Path) -> None:
        """Put one file of a Kaggle dataset into dest (as NAME or NAME.zip)."""


class KaggleDatasets:
    """The real Kaggle client, imported lazily (it prints a banner at import and checks credentials)."""

    def __init__(self) -> None:
        from automind.kaggle_fetch import NO_CREDENTIALS, KaggleAuthError, has_credentials, signed_in_client

        if not has_credentials():
            raise IngestError(
                f"{NO_CREDENTIALS} Or download the Meta Kaggle CSVs yourself "
                "(https://www.kaggle.com/datasets/kaggle/meta-kaggle) and run `automind ingest meta-kaggle FOLDER`."
            )
        try:
            self._api = signed_in_client()
        except KaggleAuthError as e:
            raise IngestError(str(e)) from e

    def download_file(self, dataset: str, name: str, dest: Path) -> None:
        self._api.dataset_download_file(dataset, name, path=str(dest), force=True, quiet=True)


def default_folder() -> Path:
    from automind.embedders import automind_home

    return automind_home() / "meta-kaggle"


def fetch_tables(dest: Path, api: DatasetAPI | None = None, notify: Callable[[str], None] = print) -> Path:
    """Download the tables write-ups need into dest (skipping those already there); returns dest.

    Each file arrives under a temporary name and is renamed when complete, so an interrupted download
    is retried, never mistaken for a finished one.
    """
    dest.mkdir(parents=True, exist_ok=True)
    missing = [n for n in (*REQUIRED_TABLES, FORUMS) if not (dest / n).is_file()]
    if not missing:
        return dest
    api = api or KaggleDatasets()
    for name in missing:
        notify(f"downloading {DATASET} {name} into {dest} ...")
        part = dest / f".{name}.download"
        part.mkdir(exist_ok=True)
        t0 = time.perf_counter()
        try:
            api.download_file(DATASET, name, part)
        except Exception as e:  # noqa: BLE001 - network, 403, 404: all mean "could not download"
            if name == FORUMS:  # optional table: write-ups in sub-forums are the only loss
                notify(f"note: {name} could not be downloaded ({e}); sub-forums are skipped")
                continue
            raise IngestError(
                f"downloading {name} of {DATASET} failed ({type(e).__name__}: {e}). Check the network and your "
                "Kaggle credentials, or download the CSVs yourself and pass their folder."
            ) from e
        _unpack(part, name)
        if not (part / name).is_file():
            raise IngestError(f"{DATASET}: the download of {name} did not contain {name}")
        (part / name).replace(dest / name)
        for leftover in part.iterdir():
            leftover.unlink()
        part.rmdir()
        notify(f"  {name}: {(dest / name).stat().st_size / 2**20:.0f} MB in {time.perf_counter() - t0:.0f} s")
    return dest


def _unpack(folder: Path, name: str) -> None:
    archive = folder / f"{name}.zip"
    if not archive.is_file():
        return
    with zipfile.ZipFile(archive) as zf:
        members = [m for m in zf.namelist() if Path(m).name == name]
        if members:
            with zf.open(members[0]) as src, (folder / name).open("wb") as out:
                while chunk := src.read(1 << 20):
                    out.write(chunk)
    archive.unlink()


def ingest_meta_kaggle(
    path: Path | None,
    store,
    options: MetaKaggleOptions,
    *,
    settings=None,
    api: DatasetAPI | None = None,
    progress: bool = True,
    dry_run: bool = False,
    notify: Callable[[str], None] = print,
) -> IngestReport:
    """Select, convert, chunk, label, embed and store Meta Kaggle write-ups; per-topic problems are reported."""
    from automind.ingest.loaders.base import LoadError

    t0 = time.perf_counter()
    folder = Path(path).expanduser() if path is not None else fetch_tables(default_folder(), api, notify)
    try:
        tables = Tables.find(folder)
    except LoadError as e:
        raise IngestError(f"{e.source}: {e.reason}") from e
    report = IngestReport(dry_run=dry_run)
    total = tables.size(*REQUIRED_TABLES)
    with make_progress(progress) as bar:
        read = bar.add_task("tables read", total=total, info="", unit="bytes")
        chunks = bar.add_task("chunks embedded", total=None, info="")
        docs = iter_writeups(folder, options, progress=lambda n: bar.advance(read, n))
        try:
            ingest_documents(
                docs,
                store,
                settings=settings,
                dry_run=dry_run,
                report=report,
                on_chunks=lambda n: bar.advance(chunks, n),
            )
        except LoadError as e:  # a table without the columns write-ups need
            raise IngestError(f"{e.source}: {e.reason}") from e
        bar.update(read, completed=total)
    report.seconds = round(time.perf_counter() - t0, 3)
    return report
