"""Turn source files (and URLs) into `Document`s, one loader per kind of material.

Every loader takes one file, folder or URL and yields Documents; a file it cannot read raises
`LoadError` naming the file and the reason, so the pipeline can report it and carry on. Loaders that
walk many records (a solutions index with links) may also *yield* a LoadError for one bad record.
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

KINDS = ("auto", "posts", "competitions", "papers", "cards", "jsonl", "solutions-index")
USER_AGENT = "automind-ingest/0.1 (+https://github.com/)"


@dataclass
class Document:
    """One source document: `kind` is the store collection it goes to."""

    kind: str
    source: str
    text: str
    metadata: dict[str, Any] = field(default_factory=dict)
    summary: str | None = None  # papers: a structured summary, stored as its own chunk
    labels: list[tuple[str, str, float]] | None = None  # preset labels (cards), skip the labeller
    split: bool = True  # False: the whole text is one chunk


class LoadError(Exception):
    """A source could not be read; `str()` is the reason, `.source` where."""

    def __init__(self, source: str | Path, reason: str):
        super().__init__(reason)
        self.source = str(source)
        self.reason = reason


# -- small helpers -------------------------------------------------------------------------------


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as e:
        raise LoadError(path, f"cannot read file: {e.strerror or e}") from e
    if not data.strip():
        raise LoadError(path, "empty file")
    if b"\0" in data[:4096]:
        raise LoadError(path, "binary content (NUL bytes), not a text document")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise LoadError(path, f"not UTF-8 text (bad byte at offset {e.start})") from e


def _read_json(path: Path) -> Any:
    try:
        return json.loads(_read_text(path))
    except json.JSONDecodeError as e:
        raise LoadError(path, f"invalid JSON at line {e.lineno} column {e.colno}: {e.msg}") from e


_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml: ~30x faster on big indexes


def _read_yaml(path: Path) -> Any:
    try:
        return yaml.load(_read_text(path), Loader=_YAML_LOADER)
    except yaml.YAMLError as e:
        raise LoadError(path, f"invalid YAML: {str(e).splitlines()[0]}") from e


def to_rank(value: Any) -> int:
    """Leaderboard rank as int, -1 when unknown ('null', '', 'gold', None)."""
    if isinstance(value, bool):
        return -1
    if isinstance(value, int):
        return value
    m = re.match(r"\s*(\d+)", str(value or ""))
    return int(m.group(1)) if m else -1


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


_FRONT = re.compile(r"\A---\s*\n(.*?)\n---\s*(?:\n|\Z)", re.S)


def split_front_matter(text: str, source: str | Path) -> tuple[dict[str, Any], str]:
    m = _FRONT.match(text)
    if not m:
        return {}, text
    try:
        meta = yaml.safe_load(m.group(1)) or {}
    except yaml.YAMLError as e:
        raise LoadError(source, f"invalid YAML front matter: {str(e).splitlines()[0]}") from e
    if not isinstance(meta, dict):
        raise LoadError(source, "front matter must be a mapping of key: value lines")
    return meta, text[m.end() :]


def _first_heading(text: str) -> str:
    m = re.search(r"^#{1,3}\s+(.+)$", text, re.M)
    return m.group(1).strip() if m else ""


# -- HTML ----------------------------------------------------------------------------------------

_DROP_TAGS = (
    "nav",
    "script",
    "style",
    "footer",
    "header",
    "aside",
    "form",
    "noscript",
    "svg",
    "iframe",
    "button",
)


def html_to_markdown(html: str) -> tuple[str, str, str]:
    """(title, markdown, canonical url) of an HTML page: navigation and scripts dropped, headings as
    `#` lines, code blocks fenced, list items as `-` lines."""
    from bs4 import BeautifulSoup, NavigableString, Tag

    soup = BeautifulSoup(html, "html.parser")
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    canon = soup.find("link", rel="canonical") or soup.find("meta", property="og:url")
    url = (canon.get("href") or canon.get("content") or "") if canon else ""
    for tag in soup(_DROP_TAGS):
        tag.decompose()
    for tag in soup.select('[role="navigation"], [class*="sidebar"], [class*="cookie"], [id*="comments"]'):
        tag.decompose()
    root = soup.find("article") or soup.find("main") or soup.body or soup

    blocks: list[str] = []

    def inline(node) -> str:
        return re.sub(r"\s+", " ", node.get_text(" ", strip=True))

    def walk(node) -> None:
        for child in node.children:
            if isinstance(child, NavigableString):
                text = str(child).strip()
                if text and node is root:
                    blocks.append(text)
                continue
            if not isinstance(child, Tag):
                continue
            name = child.name
            if name and re.fullmatch(r"h[1-6]", name):
                text = inline(child)
                if text:
                    blocks.append("#" * int(name[1]) + " " + text)
            elif name == "pre":
                code = child.get_text().strip("\n")
                if code.strip():
                    blocks.append(f"```\n{code}\n```")
            elif name in ("p", "blockquote", "figcaption"):
                text = inline(child)
                if text:
                    blocks.append(text)
            elif name == "li":
                text = inline(child)
                if text:
                    blocks.append(f"- {text}")
            elif name == "table":
                rows = [
                    " | ".join(inline(c) for c in tr.find_all(["td", "th"])) for tr in child.find_all("tr")
                ]
                if rows:
                    blocks.append("\n".join(rows))
            else:
                walk(child)

    walk(root)
    md = "\n\n".join(blocks)
    if not title:
        title = _first_heading(md)
    return title, md, url


# -- posts ---------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def _posts_index(folder: Path) -> dict[str, dict[str, str]]:
    """INDEX.tsv next to posts (file, competition, task_type, rank, source_url), keyed by file name."""
    index = folder / "INDEX.tsv"
    if not index.is_file():
        return {}
    try:
        with index.open(encoding="utf-8", newline="") as f:
            return {row["file"]: row for row in csv.DictReader(f, delimiter="\t") if row.get("file")}
    except (OSError, KeyError, csv.Error, UnicodeDecodeError):
        return {}


def _post_document(source: str, text: str, meta: dict[str, Any], fallback_title: str) -> Document:
    if not text.strip():
        raise LoadError(source, "no text left after removing front matter / page furniture")
    title = str(meta.get("title") or _first_heading(text) or fallback_title)
    return Document(
        kind="posts",
        source=source,
        text=text.strip(),
        metadata={
            "title": title,
            "competition": str(meta.get("competition") or ""),
            "rank": to_rank(meta.get("rank")),
            "url": str(meta.get("source_url") or meta.get("url") or ""),
            "task_type": str(meta.get("task_type") or ""),
        },
    )


def load_post(path: Path) -> Iterator[Document]:
    """A write-up: HTML page, or Markdown/text with optional YAML front matter."""
    text = _read_text(path)
    if path.suffix.lower() in (".html", ".htm") or re.match(r"\s*(<!doctype html|<html)", text, re.I):
        title, body, url = html_to_markdown(text)
        meta: dict[str, Any] = {"title": title, "source_url": url}
    else:
        meta, body = split_front_matter(text, path)
    row = _posts_index(path.parent.resolve()).get(path.name, {})
    for key in ("competition", "rank", "source_url", "task_type"):
        if meta.get(key) in (None, "") and row.get(key) not in (None, "", "null"):
            meta[key] = row[key]
    if not meta.get("competition") and "__" in path.stem:
        meta["competition"] = path.stem.split("__", 1)[0]
    yield _post_document(str(path), body, meta, path.stem.replace("_", " "))


def load_url(url: str, timeout: float = 10.0) -> Iterator[Document]:
    """Fetch one web page (a write-up) and treat it as a post; failure is a LoadError, not a crash."""
    yield fetch_post(url, timeout=timeout)


def fetch_post(url: str, timeout: float = 10.0, **meta: Any) -> Document:
    import requests

    try:
        resp = requests.get(url, timeout=timeout, headers={"User-Agent": USER_AGENT})
        resp.raise_for_status()
    except requests.RequestException as e:
        raise LoadError(url, f"could not fetch: {type(e).__name__}: {str(e)[:200]}") from e
    title, body, _ = html_to_markdown(resp.text)
    return _post_document(url, body, {"title": title, "source_url": url, **meta}, url)


# -- competitions --------------------------------------------------------------------------------


def load_competition(folder: Path) -> Iterator[Document]:
    """A competition folder: description.md plus config.yaml (MLE-bench) or task.yaml (metric)."""
    desc_path = folder / "description.md"
    if not desc_path.is_file():
        raise LoadError(folder, "no description.md in this competition folder")
    description = _read_text(desc_path)
    cfg: dict[str, Any] = {}
    for name in ("task.yaml", "config.yaml"):
        if (folder / name).is_file():
            data = _read_yaml(folder / name)
            if not isinstance(data, dict):
                raise LoadError(folder / name, "expected a mapping")
            cfg = {**data, **cfg}
    metric = cfg.get("metric") or (cfg.get("grader") or {}).get("name") or ""
    if isinstance(metric, dict):
        metric = metric.get("name", "")
    slug = str(cfg.get("id") or cfg.get("slug") or folder.name)
    title = str(cfg.get("name") or _first_heading(description) or slug)
    if title.lower() in ("overview", "description"):
        title = slug.replace("-", " ").title()
    header = f"# {title}\n\nCompetition: {slug}." + (f" Evaluation metric: {metric}." if metric else "")
    yield Document(
        kind="competitions",
        source=str(folder),
        text=f"{header}\n\n{description.strip()}",
        metadata={"title": title, "competition": slug, "rank": -1, "metric": str(metric)},
    )


# -- papers --------------------------------------------------------------------------------------

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
    for level, name, body in _sections(latex.get("content") or {}):
        names.append(name)
        parts.append(f"{'#' * level} {name}\n\n{body}" if body else f"{'#' * level} {name}")
    if data.get("pdf_content"):
        parts.append(str(data["pdf_content"]))
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
        kind="papers",
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


def load_paper(path: Path, summarize: Callable | None = None) -> Iterator[Document]:
    """A paper: PDF (pypdf), JSON extraction (meta_info + latex_extraction), or Markdown/text."""
    suffix = path.suffix.lower()
    if suffix == ".json":
        if path.name.startswith("llm_") and path.with_name(path.name[4:]).is_file():
            _read_json(path)  # the plain file carries this paper; still report a broken companion
            return
        yield _paper_from_json(path, _read_json(path), summarize)
        return
    if suffix == ".pdf":
        text, title = _pdf_text(path)
    else:
        meta, text = split_front_matter(_read_text(path), path)
        title = str(meta.get("title") or _first_heading(text) or path.stem)
    abstract = _abstract_of(text)
    names = re.findall(r"^#{1,3}\s+(.+)$", text, re.M)
    fields = _summarise(summarize, title, abstract, names, [], text)
    yield Document(
        kind="papers",
        source=str(path),
        text=text if text.lstrip().startswith("#") else f"# {title}\n\n{text}",
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
        title = str((reader.metadata or {}).get("/Title") or "")
    except (PdfReadError, OSError, ValueError, KeyError, TypeError) as e:
        raise LoadError(path, f"unreadable PDF: {e}") from e
    text = "\n\n".join(p.strip() for p in pages if p.strip())
    if not text.strip():
        raise LoadError(path, "PDF has no extractable text (scanned images?)")
    if not title:
        title = next((ln.strip() for ln in text.splitlines() if len(ln.strip()) > 8), path.stem)
    return text, title


# -- solutions index and jsonl -------------------------------------------------------------------


def _kaggle_slug(link: str) -> str:
    m = re.search(r"kaggle\.com/(?:c|competitions)/([^/?#]+)", link or "")
    return m.group(1) if m else ""


def load_solutions_index(
    path: Path, fetch_links: bool = False, timeout: float = 10.0
) -> Iterator[Document | LoadError]:
    """kaggle-solutions competitions.yml: one record per competition (links listed, fetched only on request)."""
    data = _read_yaml(path)
    comps = data.get("competitions") if isinstance(data, dict) else data
    if not isinstance(comps, list):
        raise LoadError(path, "expected a `competitions:` list (title, desc, kind, metric, solutions)")
    seen: set[str] = set()
    for i, c in enumerate(comps):
        if not isinstance(c, dict) or not c.get("title"):
            yield LoadError(f"{path}#{i}", "competition entry without a title")
            continue
        slug = _kaggle_slug(str(c.get("link", ""))) or slugify(str(c["title"]))
        key = slug if slug not in seen else f"{slug}-{i}"
        seen.add(key)
        sols = [s for s in c.get("solutions") or [] if isinstance(s, dict)]
        lines = [
            f"# {c['title']}",
            str(c.get("desc") or "").strip(),
            f"Competition type: {c.get('kind', '?')}. Evaluation metric: {c.get('metric', '?')}. "
            f"Teams: {c.get('team', '?')}. Year: {c.get('year', '?')}. Prize: {c.get('prize', '?')}.",
        ]
        if sols:
            lines.append(
                "Top solutions: "
                + "; ".join(
                    f"rank {s.get('rank', '?')} ({s.get('kind', '?')}) {s.get('link', '')}" for s in sols
                )
            )
        yield Document(
            kind="solutions",
            source=f"{path}#{key}",
            text="\n\n".join(x for x in lines if x),
            metadata={
                "title": str(c["title"]),
                "competition": slug,
                "rank": -1,
                "metric": str(c.get("metric") or ""),
                "url": str(c.get("link") or ""),
                "year": to_rank(c.get("year")),
                "n_solutions": len(sols),
            },
            split=False,
        )
        if fetch_links:
            for s in sols:
                link = str(s.get("link") or "")
                if not link.startswith("http"):
                    continue
                try:
                    yield fetch_post(
                        link,
                        timeout=timeout,
                        competition=slug,
                        rank=s.get("rank"),
                        title=f"{c['title']} rank {s.get('rank')}",
                    )
                except LoadError as e:
                    yield e


def _place(name: str) -> int:
    """'1st place solution' -> 1; -1 when the name carries no place."""
    m = re.search(r"\b(\d+)(st|nd|rd|th)\b", name)
    return int(m.group(1)) if m else -1


def load_jsonl(path: Path) -> Iterator[Document | LoadError]:
    """AutoMind-style records {title, introduction, tags, solutions: {name: text}}: one document per solution."""
    text = _read_text(path)
    good = 0
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            yield LoadError(f"{path}:{n}", f"invalid JSON: {e.msg}")
            continue
        if not isinstance(rec, dict) or not rec.get("title") or not isinstance(rec.get("solutions"), dict):
            yield LoadError(f"{path}:{n}", "record needs `title` and a `solutions` mapping {name: text}")
            continue
        title = str(rec["title"])
        intro = str(rec.get("introduction") or "").strip()
        tags = rec.get("tags") or []
        tags = [str(t) for t in tags] if isinstance(tags, list) else [str(tags)]
        slug = slugify(title)
        for name, body in rec["solutions"].items():
            if not str(body or "").strip():
                continue
            intro_short = intro[:600] + ("..." if len(intro) > 600 else "")
            good += 1
            yield Document(
                kind="solutions",
                source=f"{path}#{slug}/{slugify(str(name))}",
                text=f"# {title}\n\n{intro_short}\n\n## {name}\n\n{str(body).strip()}",
                metadata={
                    "title": f"{title}: {name}",
                    "competition": str(rec.get("competition") or slug),
                    "rank": _place(str(name)),
                    "tags": ", ".join(tags),
                },
            )
    if good == 0:
        raise LoadError(
            path, "no usable records (each line: {title, introduction, tags, solutions: {name: text}})"
        )


# -- cards ---------------------------------------------------------------------------------------


def card_document(card) -> Document:
    """A trick card as one chunk; its labels come from the card itself."""
    labels = []
    for label in card.labels:
        top, _, sub = label.partition("/")
        labels.append((top, sub, 1.0))
    return Document(
        kind="cards",
        source=f"card:{card.id}",
        text=card.text(),
        metadata={
            "title": card.title,
            "competition": "",
            "rank": -1,
            "stage": card.stage,
            "card_id": card.id,
        },
        labels=labels,
        split=False,
    )


def load_cards_file(path: Path) -> Iterator[Document]:
    from automind.knowledge import KnowledgeError, _parse_cards

    try:
        cards = _parse_cards(str(path), _read_text(path))
    except KnowledgeError as e:
        raise LoadError(path, str(e)) from e
    yield from (card_document(c) for c in cards)


# -- detection -----------------------------------------------------------------------------------

_SKIP_NAMES = re.compile(r"(license|licence|copying|notice|readme)", re.I)


def _yaml_kind(path: Path) -> str | None:
    try:
        head = path.read_text(encoding="utf-8", errors="replace")[:4000]
    except OSError:
        return None
    if re.search(r"^competitions:\s*$", head, re.M):
        return "solutions-index"
    if re.search(r"^- id:", head, re.M) and re.search(r"^\s+trick:", head, re.M):
        return "cards"
    return None


def detect_kind(path: Path) -> str | None:
    """Kind of one file by extension and shape; None means "not knowledge, skip it"."""
    if path.name.startswith(".") or _SKIP_NAMES.search(path.stem):
        return None
    suffix = path.suffix.lower()
    if suffix in (".html", ".htm", ".md", ".markdown", ".txt"):
        return "posts"
    if suffix in (".pdf", ".json"):
        return None if path.name == "paper_analysis.json" else "papers"
    if suffix == ".jsonl":
        return "jsonl"
    if suffix in (".yml", ".yaml"):
        return _yaml_kind(path)
    return None


_EXTS = {
    "posts": (".html", ".htm", ".md", ".markdown", ".txt"),
    "papers": (".pdf", ".json", ".md", ".markdown", ".txt"),
    "jsonl": (".jsonl",),
    "cards": (".yaml", ".yml"),
    "solutions-index": (".yaml", ".yml"),
}


def discover(source: str, kind: str = "auto") -> Iterator[tuple[str, str | Path]]:
    """Expand one CLI source into (kind, file|folder|url) items; raises LoadError if it does not exist."""
    if re.match(r"^https?://", source):
        yield ("posts" if kind in ("auto", "posts") else kind), source
        return
    path = Path(source).expanduser()
    if not path.exists():
        raise LoadError(source, "no such file or directory")
    if path.is_file():
        k = detect_kind(path) if kind == "auto" else kind
        if k is None:
            raise LoadError(
                path, f"cannot tell what kind of knowledge this is; pass --kind ({', '.join(KINDS[1:])})"
            )
        yield k, path
        return
    yield from _walk(path, kind)


def _wanted(path: Path, kind: str) -> bool:
    ok = kind in _EXTS and path.suffix.lower() in _EXTS[kind] and not _SKIP_NAMES.search(path.stem)
    return ok and path.name != "paper_analysis.json"


def _walk(folder: Path, kind: str) -> Iterator[tuple[str, Path]]:
    if (folder / "description.md").is_file() and kind in ("auto", "competitions"):
        yield "competitions", folder
        return
    for child in sorted(folder.iterdir()):
        if child.name.startswith(".") or child.name == "__pycache__":
            continue
        if child.is_dir():
            yield from _walk(child, kind)
        elif kind == "auto":
            k = detect_kind(child)
            if k is not None:
                yield k, child
        elif _wanted(child, kind):
            yield kind, child


def load(
    kind: str,
    target: str | Path,
    *,
    summarize: Callable | None = None,
    fetch_links: bool = False,
    timeout: float = 10.0,
) -> Iterator[Document | LoadError]:
    """Run the loader for one discovered item."""
    if isinstance(target, str) and re.match(r"^https?://", target):
        yield from load_url(target, timeout=timeout)
        return
    path = Path(target)
    if kind == "posts":
        yield from load_post(path)
    elif kind == "competitions":
        yield from load_competition(path)
    elif kind == "papers":
        yield from load_paper(path, summarize)
    elif kind == "jsonl":
        yield from load_jsonl(path)
    elif kind == "solutions-index":
        yield from load_solutions_index(path, fetch_links=fetch_links, timeout=timeout)
    elif kind == "cards":
        yield from load_cards_file(path)
    else:
        raise LoadError(path, f"unknown kind {kind!r}; choose one of: {', '.join(KINDS)}")
