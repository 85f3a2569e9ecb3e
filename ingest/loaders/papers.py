"""Papers: JSON extractions (meta_info + latex_extraction, as in AutoMind's corpus), PDFs and Markdown.

A paper is stored as its summary, its abstract and its method sections only (at most
`MAX_METHOD_CHARS`): introductions, experiments and related work made papers 90 % of all chunks and
crowded out the write-ups, while what a solver can reuse is the method.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from automind.ingest.loaders.base import (
    Document,
    Loader,
    LoadError,
    LoadOptions,
    first_heading,
    read_json,
    read_text,
    split_front_matter,
)

KIND = "papers"
EXTENSIONS = (".pdf", ".json", ".md", ".markdown", ".txt")
MAX_METHOD_CHARS = 8000  # about seven chunks of method per paper
FALLBACK_CHARS = 3000  # a paper without recognisable method headings keeps this much of its body

_METHOD = re.compile(
    r"method|approach|model|architecture|framework|propos|algorithm|technique|design|formulation|"
    r"pipeline|our |system|network|learning objective|training (procedure|strategy)",
    re.I,
)
_NOT_METHOD = re.compile(
    r"introduction|related|background|experiment|result|evaluation|conclusion|discussion|limitation|"
    r"appendix|acknowledg|reference|dataset|benchmark|ablation|future work|preliminar",
    re.I,
)


def is_method_section(name: str) -> bool:
    """A section worth keeping: named like a method, and not like the parts around it."""
    return bool(_METHOD.search(name)) and not _NOT_METHOD.search(name)


def cap_paper_text(text: str) -> str:
    """The method sections of a Markdown/plain paper body, or its opening when it has no such headings."""
    sections = re.split(r"(?m)^(?=#{1,4}\s)", text)
    kept, keep_level = [], 0
    for sec in sections:
        m = re.match(r"(#{1,4})\s+(.+)", sec)
        if not m:
            continue
        level, name = len(m.group(1)), m.group(2).strip()
        if keep_level and level > keep_level:
            kept.append(sec.strip())
        elif is_method_section(name):
            keep_level = level
            kept.append(sec.strip())
        else:
            keep_level = 0
    if kept:
        return "\n\n".join(kept)[:MAX_METHOD_CHARS]
    plain = re.sub(r"(?m)^#{1,4}\s+.*$", "", text).strip()
    return plain[:FALLBACK_CHARS]


_SKIP_SECTIONS = re.compile(r"related work|acknowledg|references|bibliograph|author contributions", re.I)
_LATEX_DROP = [
    (re.compile(r"(?<!\\)%[^\n]*"), ""),  # comments
    (re.compile(r"\\begin\{(figure|table|equation|align|algorithm)\*?\}.*?\\end\{\1\*?\}", re.S), " "),
    (
        re.compile(
            r"\\(label|ref|eqref|cite[pt]?|citep|citet|vspace|hspace|footnote|url)\*?(\[[^\]]*\])?\{[^}]*\}"
        ),
        "",
    ),
    (re.compile(r"\\(textbf|textit|emph|texttt|underline|mathrm|text|textsc)\{([^{}]*)\}"), r"\2"),
    (re.compile(r"\\(begin|end)\{[^}]*\}"), ""),
    (re.compile(r"\\item\s*"), "- "),
    (re.compile(r"\\paragraph\{([^}]*)\}"), r"\1: "),
    (re.compile(r"\\[a-zA-Z]+\*?"), ""),
    (re.compile(r"[{}~]"), " "),
    (re.compile(r"[ \t]+"), " "),
    (re.compile(r"\n\s*\n\s*\n+"), "\n\n"),
]


def clean_latex(text: str) -> str:
    for pattern, repl in _LATEX_DROP:
        text = pattern.sub(repl, text)
    return text.strip()


def _sections(content: dict[str, Any], depth: int = 2) -> Iterator[tuple[int, str, str]]:
    """(heading level, name, cleaned text) for each section/subsection, in order."""
    for key, sec in content.items():
        if not isinstance(sec, dict):
            continue
        name = clean_latex(str(sec.get("name", key))).replace("\n", " ")
        if _SKIP_SECTIONS.search(name):
            continue
        yield depth, name, clean_latex(str(sec.get("content") or ""))
        children = {k: v for k, v in sec.items() if isinstance(v, dict) and k.lower().startswith("sub")}
        yield from _sections(children, depth + 1)


@lru_cache(maxsize=16)
def _analysis_file(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def _paper_analysis(path: Path) -> dict[str, Any]:
    """The entry for this paper in a `paper_analysis.json` above it (keys relative to extraction/)."""
    path = path.resolve()
    for up in list(path.parents)[:4]:
        index = up / "paper_analysis.json"
        if not index.is_file():
            continue
        table = _analysis_file(index)
        for base in (up / "extraction", up):
            try:
                rel = path.relative_to(base).as_posix()
            except ValueError:
                continue
            llm_rel = str(Path(rel).with_name("llm_" + Path(rel).name))
            plain_rel = str(Path(rel).with_name(Path(rel).name.removeprefix("llm_")))
            for key in (rel, plain_rel, llm_rel):
                if isinstance(table.get(key), dict):
                    return table[key]
    return {}


_DATA_TYPES = {
    "graph": r"\bgraphs?\b|\bnodes?\b|\bedges?\b",
    "image": r"\bimages?\b|\bpixels?\b|\bvisual\b",
    "text": r"\btext\b|\blanguage\b|\btokens?\b|\bsentences?\b",
    "time series": r"time[- ]series|\btemporal\b|forecast",
    "tabular": r"\btabular\b|\bfeatures? table\b",
    "audio": r"\baudio\b|\bspeech\b|\bsound\b",
    "point cloud / 3D": r"point clouds?|lidar|\b3d\b",
    "molecules": r"\bmolecul|\bdrug|\bprotein",
}


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[.!?])\s+", re.sub(r"\s+", " ", text)) if len(s.strip()) > 20]


def extractive_summary(
    title: str, abstract: str, section_names: list[str], datasets: list[str]
) -> dict[str, str]:
    """A summary along AutoMind's paper axes from title, abstract and section names only (no LLM)."""
    sents = _sentences(abstract)
    blob = f"{title} {abstract}".lower()
    types = [name for name, pat in _DATA_TYPES.items() if re.search(pat, blob)]
    contrib = next(
        (s for s in sents if re.search(r"\bwe (propose|present|introduce|develop)|this paper", s, re.I)), ""
    )
    task = next(
        (s for s in sents if re.search(r"\btask|predict|classif|detect|forecast|recommend", s, re.I)), ""
    )
    dataset = ", ".join(datasets) or next((s for s in sents if re.search(r"dataset|benchmark", s, re.I)), "")
    return {
        "Data type": ", ".join(types) or "unspecified",
        "Domain": next((s for s in sents if re.search(r"real-world|domain|application", s, re.I)), "") or "-",
        "Dataset": dataset or "-",
        "Task": task or (sents[0] if sents else title),
        "Techniques / ML phase": "; ".join(section_names[:12]) or "-",
        "Key contribution": contrib or (sents[-1] if sents else "-"),
    }


def render_summary(title: str, fields: dict[str, str]) -> str:
    lines = [f"# Paper summary: {title}"]
    lines += [f"{k}: {' '.join(str(v).split())}" for k, v in fields.items() if str(v).strip()]
    return "\n".join(lines)


def _paper_from_json(path: Path, data: dict[str, Any], summarize: Callable | None) -> Document:
    if not isinstance(data, dict):
        raise LoadError(path, f"expected a JSON object for a paper, got {type(data).__name__}")
    analysis = _paper_analysis(path)
    if {"title", "abs"} <= set(data):  # a paper_analysis-style entry on its own
        analysis, data = data, {"meta_info": {"title": data["title"], "abstract": data["abs"]}}
    meta = data.get("meta_info") or {}
    latex = data.get("latex_extraction") or {}
    if not (meta or latex or data.get("pdf_content")):
        raise LoadError(
            path, "unrecognised paper JSON: expected meta_info/latex_extraction, pdf_content, or title+abs"
        )
    title = str(meta.get("title") or analysis.get("title") or path.stem).replace("\n", " ")
    title = re.sub(r"\s+", " ", title).strip()
    abstract = str(meta.get("abstract") or analysis.get("abs") or "").strip()
    parts = [f"# {title}"]
    if abstract:
        parts.append(f"## Abstract\n\n{abstract}")
    names: list[str] = []
    kept: list[str] = []
    keep_depth = 0  # inside a kept method section, its subsections are kept too
    for level, name, body in _sections(latex.get("content") or {}):
        names.append(name)
        if keep_depth and level > keep_depth:
            pass
        elif is_method_section(name):
            keep_depth = level
        else:
            keep_depth = 0
            continue
        kept.append(f"{'#' * level} {name}\n\n{body}" if body else f"{'#' * level} {name}")
    body_text = "\n\n".join(kept)
    if not kept and data.get("pdf_content"):
        body_text = cap_paper_text(str(data["pdf_content"]))
    if body_text:
        parts.append(body_text[:MAX_METHOD_CHARS])
    llm_ex = data.get("llm_extraction") or data.get("LLM_extraction") or {}
    datasets = [
        str(d.get("name")) for d in (llm_ex.get("dataset") or []) if isinstance(d, dict) and d.get("name")
    ]
    companion = path.with_name("llm_" + path.name)
    if not datasets and companion.is_file():
        try:
            extra = json.loads(companion.read_text(encoding="utf-8"))
            ex = extra.get("llm_extraction") or extra.get("LLM_extraction") or {}
            datasets = [
                str(d.get("name")) for d in ex.get("dataset") or [] if isinstance(d, dict) and d.get("name")
            ]
        except (OSError, ValueError, AttributeError):
            pass
    text = "\n\n".join(parts)
    if len(text) < 50:
        raise LoadError(path, "paper has no usable text (no abstract, sections or pdf_content)")
    if analysis:
        fields = {
            "Data type": analysis.get("Data_type", ""),
            "Domain": analysis.get("Data_domain", ""),
            "Dataset": ", ".join(datasets) or analysis.get("Dataset", "") or "-",
            "Task": analysis.get("Task", ""),
            "Techniques / ML phase": analysis.get("ML_phase", ""),
            "Key contribution": extractive_summary(title, abstract, names, datasets)["Key contribution"],
        }
    else:
        fields = _summarise(summarize, title, abstract, names, datasets, text)
    return Document(
        kind=KIND,
        source=str(path),
        text=text,
        metadata={
            "title": title,
            "competition": "",
            "rank": -1,
            "url": str(meta.get("link") or ""),
            "arxiv_category": ",".join(meta.get("category") or [])
            if isinstance(meta.get("category"), list)
            else "",
        },
        summary=render_summary(title, fields),
    )


def _summarise(summarize, title, abstract, names, datasets, text) -> dict[str, str]:
    if summarize is not None:
        try:
            out = summarize(title=title, abstract=abstract, sections=names, text=text[:12000])
            if isinstance(out, dict) and out:
                return {str(k): str(v) for k, v in out.items()}
        except Exception:  # an LLM hiccup must not lose the paper: fall back to the extractive summary
            pass
    return extractive_summary(title, abstract, names, datasets)


def load_paper(path: Path, options: LoadOptions | None = None) -> Iterator[Document]:
    """A paper: PDF (pypdf), JSON extraction (meta_info + latex_extraction), or Markdown/text."""
    summarize = (options or LoadOptions()).summarize
    suffix = path.suffix.lower()
    if suffix == ".json":
        if path.name.startswith("llm_") and path.with_name(path.name[4:]).is_file():
            read_json(path)  # the plain file carries this paper; still report a broken companion
            return
        yield _paper_from_json(path, read_json(path), summarize)
        return
    if suffix == ".pdf":
        text, title = _pdf_text(path)
    else:
        meta, text = split_front_matter(read_text(path), path)
        title = str(meta.get("title") or first_heading(text) or path.stem)
    abstract = _abstract_of(text)
    names = re.findall(r"^#{1,3}\s+(.+)$", text, re.M)
    fields = _summarise(summarize, title, abstract, names, [], text)
    body = f"# {title}\n\n## Abstract\n\n{abstract}\n\n{cap_paper_text(text)}"
    yield Document(
        kind=KIND,
        source=str(path),
        text=body,
        metadata={"title": title, "competition": "", "rank": -1, "url": ""},
        summary=render_summary(title, fields),
    )


def _abstract_of(text: str) -> str:
    m = re.search(r"abstract[\s:.#]*\n?(.{50,2000}?)(\n\s*\n|\n#|\n\d?\.?\s*introduction)", text, re.I | re.S)
    return m.group(1).strip() if m else text[:1200]


def _pdf_text(path: Path) -> tuple[str, str]:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(str(path))
        pages = [p.extract_text() or "" for p in reader.pages]
        meta = reader.metadata
        title = str(meta.get("/Title") or "") if meta else ""
    except (PdfReadError, OSError, ValueError, KeyError, TypeError) as e:
        raise LoadError(path, f"unreadable PDF: {e}") from e
    text = "\n\n".join(p.strip() for p in pages if p.strip())
    if not text.strip():
        raise LoadError(path, "PDF has no extractable text (scanned images?)")
    if not title:
        title = next((ln.strip() for ln in text.splitlines() if len(ln.strip()) > 8), path.stem)
    return text, title


def _sniff(path: Path) -> bool:
    if path.name == "paper_analysis.json":
        return False
    return path.suffix.lower() in (".pdf", ".json")


LOADER = Loader(
    kind=KIND,
    extensions=EXTENSIONS,
    load=load_paper,
    sniff=_sniff,
    order=40,
    help="papers: PDF, JSON extraction (meta_info/latex_extraction) or Markdown; summary, abstract, method",
)
