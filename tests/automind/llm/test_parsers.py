"""Parsers pick the intended piece of a messy reply and report what they could not use."""

from __future__ import annotations

import ast

import pytest

from automind.llm.parsers import (
    EditError,
    apply_search_replace,
    extract_code,
    extract_json,
    extract_plan,
    extract_score,
    extract_section,
    parse_search_replace,
    strip_think,
)

CODE = """import pandas as pd


def load():
    df = pd.read_csv("./input/train.csv")
    return df


if __name__ == "__main__":
    df = load()
    print(df.shape)
"""


def test_think_and_plan_sections():
    reply = "<think>maybe use xgboost</think>\n<plan>Use LightGBM with 5-fold CV.</plan>\nDone."
    assert strip_think(reply).startswith("<plan>")
    assert extract_plan(reply) == "Use LightGBM with 5-fold CV."
    assert extract_section("<plan>cut off here", "plan") == "cut off here"
    assert extract_plan("<think>x</think>Plain plan text.\n```python\nprint(1)\n```") == "Plain plan text."


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("rating: <score>3.5</score>", 3.5),
        ("<score> 4 </score>", 4.0),
        ("<score>2/5</score>", 2.0),
        ("<think><score>1</score></think> final <score>4.5</score>", 4.5),
        ("<score>high</score>", None),
        ("no score at all", None),
    ],
)
def test_extract_score(reply, expected):
    assert extract_score(reply) == expected


def test_extract_code_prefers_python_tag_and_longest_that_parses():
    reply = (
        "Install first:\n```bash\npip install lightgbm && echo this is a much longer block of shell text\n```\n"
        "Broken draft:\n```python\ndef f(:\n    pass\n" + "x = 1\n" * 20 + "```\n"
        "Final:\n```python\n" + CODE + "```\n"
        "Helper:\n```python\nprint('short')\n```\n"
    )
    got = extract_code(reply)
    assert got == CODE.rstrip("\n")
    ast.parse(got)


def test_extract_code_untagged_truncated_and_bare():
    assert extract_code("```\nx = 1\ny = 2\n```") == "x = 1\ny = 2"
    assert extract_code("here:\n```python\nimport os\nprint(os.getcwd())") == "import os\nprint(os.getcwd())"
    assert extract_code("import os\nprint(os.sep)") == "import os\nprint(os.sep)"
    assert extract_code("I cannot write code for this.") is None
    # Nothing parses: still return the best candidate so the caller can report the syntax error.
    assert extract_code("```python\ndef broken(:\n    pass\n```") == "def broken(:\n    pass"


def test_extract_json_variants():
    assert extract_json('```json\n{"a": 1}\n```') == {"a": 1}
    assert extract_json('{"a": [1, 2]}') == {"a": [1, 2]}
    text = 'Sure! The steps are {"decomposed steps": [{"step": "load", "details": "read {csv}"},]} ok'
    assert extract_json(text) == {"decomposed steps": [{"step": "load", "details": "read {csv}"}]}
    assert extract_json("verdict: {'is_bug': True, 'summary': 'ok'}") == {"is_bug": True, "summary": "ok"}
    assert extract_json('{"is_bug": False, "metric": None}') == {"is_bug": False, "metric": None}
    assert extract_json("no json here") is None
    assert extract_json("[1, 2, 3]") == [1, 2, 3]


def test_parse_search_replace_tolerates_marker_variants_and_drops_truncated():
    reply = (
        "```python\n<<<<<<< SEARCH\n    return df\n=======\n    return df.dropna()\n>>>>>>> REPLACE\n```\n"
        "<<<<<<<  SEARCH  \nprint(df.shape)\n=========\nprint(df.head())\n>>>>>>>>> REPLACE\n"
        "<<<<<<< SEARCH\nunfinished\n=======\nhalf"
    )
    blocks = parse_search_replace(reply)
    assert [(b.search, b.replace) for b in blocks] == [
        ("    return df", "    return df.dropna()"),
        ("print(df.shape)", "print(df.head())"),
    ]


def test_apply_exact_and_whitespace_drift():
    edits = (
        '<<<<<<< SEARCH\n    df = pd.read_csv("./input/train.csv")   \n    return df\n=======\n'
        '    df = pd.read_csv("./input/train.csv")\n    df = df.fillna(0)\n    return df\n>>>>>>> REPLACE\n'
    )
    new, unmatched = apply_search_replace(CODE, edits)
    assert unmatched == []
    assert "    df = df.fillna(0)\n    return df\n" in new
    ast.parse(new)


def test_apply_indentation_drift_reindents_replacement():
    # The model dropped the function's indentation in both SEARCH and REPLACE.
    edits = parse_search_replace(
        "<<<<<<< SEARCH\ndf = load()\nprint(df.shape)\n=======\ndf = load()\nif len(df):\n    print(df.shape)\n"
        ">>>>>>> REPLACE"
    )
    new, unmatched = apply_search_replace(CODE, edits)
    assert unmatched == []
    assert "    df = load()\n    if len(df):\n        print(df.shape)\n" in new
    ast.parse(new)


def test_apply_ignores_blank_line_differences():
    edits = parse_search_replace(
        '<<<<<<< SEARCH\n    return df\nif __name__ == "__main__":\n=======\n    return df\n\n\n'
        'def main():\n    pass\n\n\nif __name__ == "__main__":\n>>>>>>> REPLACE'
    )
    new, unmatched = apply_search_replace(CODE, edits)
    assert unmatched == []
    assert "def main():" in new
    ast.parse(new)


def test_unmatched_blocks_reported_and_others_applied():
    edits = parse_search_replace(
        "<<<<<<< SEARCH\nmodel.fit(X, y)\n=======\nmodel.fit(X, y, verbose=False)\n>>>>>>> REPLACE\n"
        "<<<<<<< SEARCH\n    print(df.shape)\n=======\n    print(len(df))\n>>>>>>> REPLACE\n"
    )
    new, unmatched = apply_search_replace(CODE, edits)
    assert len(unmatched) == 1 and unmatched[0].search == "model.fit(X, y)"
    assert "print(len(df))" in new
    with pytest.raises(EditError, match=r"model\.fit\(X, y\)"):
        apply_search_replace(CODE, edits, strict=True)


def test_empty_search_appends_and_only_first_occurrence_changes():
    code = "a = 1\na = 1\n"
    new, unmatched = apply_search_replace(
        code,
        parse_search_replace(
            "<<<<<<< SEARCH\na = 1\n=======\na = 2\n>>>>>>> REPLACE\n"
            "<<<<<<< SEARCH\n=======\nprint(a)\n>>>>>>> REPLACE\n"
        ),
    )
    assert unmatched == []
    assert new == "a = 2\na = 1\nprint(a)\n"
