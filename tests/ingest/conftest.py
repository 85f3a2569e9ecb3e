"""Small source fixtures of every kind `automind ingest` reads, plus broken ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


@pytest.fixture(scope="session", autouse=True)
def _private_home(private_automind_home):
    """Every test here (tests/conftest.py: private_automind_home)."""


HTML = """<!doctype html><html><head><title>1st place solution - Leaf Disease</title>
<link rel="canonical" href="https://example.org/leaf-1st"><style>body {color: red}</style>
<script>var tracking = "SCRIPT_SECRET";</script></head>
<body><nav><a href="/">Home</a> NAV_MENU_ITEM</nav>
<article><h1>1st place solution</h1><p>We trained EfficientNet on leaf images with heavy augmentation.</p>
<h2>Validation</h2><p>Stratified 5-fold CV matched the leaderboard.</p>
<pre><code>model = timm.create_model("tf_efficientnet_b4")</code></pre>
<ul><li>TTA with flips</li></ul></article>
<footer>FOOTER_COPYRIGHT</footer></body></html>"""

POST_MD = """---
source_url: https://example.org/post
competition: house-prices
title: Stacked gradient boosting for house prices
rank: 3
---
## Features

Log-transform the skewed target and add neighbourhood aggregates.

## Models

LightGBM and CatBoost blended with ridge on the out-of-fold predictions.
"""

PAPER = {
    "meta_info": {
        "title": "Graph Transformers for Molecules",
        "abstract": "We propose a graph transformer for molecular property prediction. "
        "Nodes are atoms and edges are bonds. Experiments on QM9 show gains.",
        "author": "A. Author",
        "link": "http://arxiv.org/abs/0000.00000v1",
        "category": ["cs.LG"],
    },
    "latex_extraction": {
        "content": {
            "section 1": {"name": "Introduction", "content": "Molecules are graphs \\cite{x}. % a comment\n"},
            "section 2": {
                "name": "Method",
                "content": "We use \\textbf{attention} over nodes.",
                "subsection 2.1": {"name": "Training", "content": "Adam with a cosine schedule."},
            },
            "section 3": {"name": "Related Work", "content": "RELATED_WORK_TEXT"},
        },
        "tables": {},
    },
}


def minimal_pdf(text: str) -> bytes:
    """A one-page PDF with `text` in Helvetica, xref offsets computed so pypdf reads it cleanly."""
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    return bytes(out)


SOLUTIONS_YML = """competitions:
  - number: "1"
    title: "Leaf Disease Classification"
    desc: "Identify the type of disease on cassava leaf photos"
    kind: "Featured"
    prize: "$18,000"
    team: "3,900"
    metric: "Categorization Accuracy"
    link: "https://www.kaggle.com/c/cassava-leaf-disease-classification"
    year: "2021"
    solutions:
      - rank: "1"
        link: "https://www.kaggle.com/c/cassava-leaf-disease-classification/discussion/221957"
        kind: "description"
  - number: "2"
    title: "Tweet Sentiment Extraction"
    desc: "Extract support phrases for sentiment labels"
    kind: "Featured"
    metric: "Jaccard"
    link: "https://www.kaggle.com/c/tweet-sentiment-extraction"
    solutions: []
"""


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    """A folder with one valid source of each kind."""
    root = tmp_path / "corpus"
    (root / "posts").mkdir(parents=True)
    (root / "posts" / "leaf.html").write_text(HTML)
    (root / "posts" / "house-prices__stacking.md").write_text(POST_MD)
    comp = root / "competitions" / "leaf-disease"
    comp.mkdir(parents=True)
    (comp / "description.md").write_text(
        "# Leaf Disease\n\n## Description\n\nClassify cassava leaf images.\n"
    )
    (comp / "config.yaml").write_text("id: leaf-disease\nname: Leaf Disease\ngrader:\n  name: accuracy\n")
    (root / "papers").mkdir()
    (root / "papers" / "graph.json").write_text(json.dumps(PAPER))
    (root / "papers" / "scan.pdf").write_bytes(
        minimal_pdf("Abstract We study gradient boosting for tabular data.")
    )
    (root / "index").mkdir()
    (root / "index" / "competitions.yml").write_text(SOLUTIONS_YML)
    rec = {
        "title": "Jigsaw toxic comments",
        "introduction": "Classify toxic comments in text.",
        "tags": ["nlp", "text classification"],
        "solutions": {
            "1st place": "Pseudo-labelling and an ensemble of BERT models.",
            "5th place": "TF-IDF + NB-SVM.",
        },
    }
    (root / "index" / "records.jsonl").write_text(json.dumps(rec) + "\n")
    return root


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    root = tmp_path / "broken"
    root.mkdir()
    (root / "bad.json").write_text('{"meta_info": {"title": "x",}')
    (root / "garbage.md").write_bytes(b"\x00\x01\xff\xfe" * 50)
    (root / "empty.md").write_text("")
    return root
