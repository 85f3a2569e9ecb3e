"""Each loader turns its material into clean Documents; unreadable files raise a per-file LoadError."""

from __future__ import annotations

import json

import pytest

from automind.ingest.chunking import chunk_document, guess_stage
from automind.ingest.loaders import Document, LoadError, discover, load


def _docs(kind, target):
    return [d for d in load(kind, target) if isinstance(d, Document)]


def test_html_drops_page_furniture_and_keeps_headings_and_code(corpus):
    (doc,) = _docs("posts", corpus / "posts" / "leaf.html")
    assert doc.kind == "posts"
    for junk in ("SCRIPT_SECRET", "NAV_MENU_ITEM", "FOOTER_COPYRIGHT", "color: red"):
        assert junk not in doc.text
    assert "# 1st place solution" in doc.text and "## Validation" in doc.text
    assert '```\nmodel = timm.create_model("tf_efficientnet_b4")\n```' in doc.text
    assert "- TTA with flips" in doc.text
    assert doc.metadata["url"] == "https://example.org/leaf-1st"
    assert doc.metadata["title"] == "1st place solution - Leaf Disease"


def test_markdown_front_matter_becomes_metadata(corpus):
    (doc,) = _docs("posts", corpus / "posts" / "house-prices__stacking.md")
    assert doc.metadata["competition"] == "house-prices"
    assert doc.metadata["rank"] == 3
    assert doc.metadata["url"] == "https://example.org/post"
    assert not doc.text.startswith("---") and "source_url" not in doc.text


def test_competition_folder_carries_metric_and_slug(corpus):
    (doc,) = _docs("competitions", corpus / "competitions" / "leaf-disease")
    assert doc.kind == "competitions"
    assert doc.metadata["competition"] == "leaf-disease" and doc.metadata["metric"] == "accuracy"
    assert "Classify cassava leaf images." in doc.text and "accuracy" in doc.text


def test_paper_json_sections_cleaned_related_work_dropped_and_summary(corpus):
    (doc,) = _docs("papers", corpus / "papers" / "graph.json")
    assert doc.metadata["title"] == "Graph Transformers for Molecules"
    assert "## Method" in doc.text and "### Training" in doc.text
    assert "attention over nodes" in doc.text
    assert "\\cite" not in doc.text and "a comment" not in doc.text
    assert "RELATED_WORK_TEXT" not in doc.text
    assert "Molecules are graphs" not in doc.text  # the introduction is not method: papers stay short
    assert doc.summary and "Data type:" in doc.summary and "graph" in doc.summary
    assert "We propose a graph transformer" in doc.summary  # key contribution, extracted


def test_paper_analysis_next_to_extraction_supplies_the_summary(tmp_path, corpus):
    root = tmp_path / "papers"
    (root / "extraction" / "TAG").mkdir(parents=True)
    (root / "extraction" / "TAG" / "p.json").write_text((corpus / "papers" / "graph.json").read_text())
    analysis = {
        "TAG/p.json": {
            "title": "G",
            "abs": "a",
            "Task": "TASK_X",
            "Data_type": "DT_Y",
            "Data_domain": "DOM_Z",
            "ML_phase": "PHASE_W",
        }
    }
    (root / "paper_analysis.json").write_text(json.dumps(analysis))
    items = list(discover(str(root)))
    assert items == [("papers", root / "extraction" / "TAG" / "p.json")]  # the analysis file is no document
    (doc,) = _docs(*items[0])
    for value in ("TASK_X", "DT_Y", "DOM_Z", "PHASE_W"):
        assert value in doc.summary


def test_pdf_text_is_extracted(corpus):
    (doc,) = _docs("papers", corpus / "papers" / "scan.pdf")
    assert "gradient boosting for tabular data" in doc.text
    assert doc.summary


def test_solutions_index_one_record_per_competition_without_fetching(corpus):
    docs = _docs("solutions-index", corpus / "index" / "competitions.yml")
    assert [d.metadata["competition"] for d in docs] == [
        "cassava-leaf-disease-classification",
        "tweet-sentiment-extraction",
    ]
    assert all(d.kind == "solutions" for d in docs)
    assert "discussion/221957" in docs[0].text and "Categorization Accuracy" in docs[0].text


def test_jsonl_one_document_per_solution_with_rank(corpus):
    docs = _docs("jsonl", corpus / "index" / "records.jsonl")
    assert len(docs) == 2
    assert {d.metadata["rank"] for d in docs} == {1, 5}
    assert all("Jigsaw toxic comments" in d.text for d in docs)
    assert docs[0].metadata["tags"] == "nlp, text classification"


def test_auto_discovery_routes_every_file(corpus):
    kinds = sorted(k for k, _ in discover(str(corpus)))
    assert kinds == ["competitions", "jsonl", "papers", "papers", "posts", "posts", "solutions-index"]


@pytest.mark.parametrize(
    ("name", "reason"),
    [("bad.json", "invalid JSON at line 1"), ("garbage.md", "binary"), ("empty.md", "empty file")],
)
def test_broken_files_raise_a_specific_load_error(broken, name, reason):
    kind = "papers" if name.endswith(".json") else "posts"
    with pytest.raises(LoadError) as e:
        list(load(kind, broken / name))
    assert reason in str(e.value) and e.value.source.endswith(name)


def test_missing_source_is_a_load_error(tmp_path):
    with pytest.raises(LoadError, match="no such file"):
        list(discover(str(tmp_path / "nope")))
    with pytest.raises(
        LoadError, match=r"ftp:// is not fetched: give an http\(s\) URL"
    ):  # not "no such file"
        list(discover("ftp://example.com/writeup.pdf"))


def test_chunks_keep_heading_path_and_respect_size():
    body = "\n\n".join(f"Sentence {i} about stratified folds and validation leakage." for i in range(80))
    doc = Document(
        "posts",
        "s",
        f"# Title\n\n## Validation\n\n{body}\n\n## Blending\n\nWe blend two models.",
        {"title": "Title"},
    )
    chunks = chunk_document(doc, chunk_size=400, overlap=50)
    assert len(chunks) > 3
    assert all(len(c.text) <= 400 for c in chunks)
    assert all(c.text.startswith("Title\nValidation\n\n") for c in chunks[:-1])  # title shown once
    assert chunks[-1].heading == "Blending" and chunks[-1].text.startswith("Title\nBlending")
    assert chunks[0].stage == "validation" and chunks[-1].stage == "ensembling"


def test_guess_stage_falls_back_to_general():
    assert guess_stage("", "hello world") == "general"
    assert guess_stage("Post-processing", "") == "post-processing"


def test_papers_keep_only_summary_abstract_and_method_sections(tmp_path):
    from automind.ingest.loaders.papers import MAX_METHOD_CHARS, cap_paper_text, is_method_section

    for name in ("Method", "Proposed Approach", "Model Architecture", "3.2 Our framework"):
        assert is_method_section(name), name
    for name in ("Introduction", "Experiments", "Results and discussion", "Related work", "Datasets"):
        assert not is_method_section(name), name
    text = (
        "# Title\n\n## Introduction\n\nINTRO_TEXT\n\n## Method\n\nMETHOD_TEXT\n\n### Loss\n\nLOSS_TEXT\n\n"
        "## Experiments\n\nEXPERIMENT_TEXT\n\n## Conclusion\n\nCONCLUSION_TEXT\n"
    )
    kept = cap_paper_text(text)
    assert "METHOD_TEXT" in kept and "LOSS_TEXT" in kept  # a method's subsections come along
    assert not any(w in kept for w in ("INTRO_TEXT", "EXPERIMENT_TEXT", "CONCLUSION_TEXT"))
    assert len(cap_paper_text("## Method\n\n" + "x " * 10_000)) <= MAX_METHOD_CHARS
    md = tmp_path / "paper.md"
    md.write_text(
        "# A paper\n\nAbstract: We study boosting for tabular data with many categories.\n\n" + text
    )
    (doc,) = _docs("papers", md)
    assert "## Abstract" in doc.text and "METHOD_TEXT" in doc.text and "EXPERIMENT_TEXT" not in doc.text
    assert doc.summary.startswith("# Paper summary")
