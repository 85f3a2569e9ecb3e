"""HTML to Markdown for write-ups: BeautifulSoup drops the page furniture, markdownify (a maintained
converter built on it) keeps the structure the chunker splits on (headings, nested lists, fenced code,
tables, line breaks, decoded entities)."""

from __future__ import annotations

import re

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
_FURNITURE = '[role="navigation"], [class*="sidebar"], [class*="cookie"], [id*="comments"]'


def _code_language(el) -> str | None:
    """`<pre><code class="language-python">` -> python (fenced code keeps its language)."""
    code = el.find("code") if el.name == "pre" else None
    for cls in (code.get("class") if code is not None else None) or el.get("class") or []:
        if cls.startswith(("language-", "lang-")):
            return cls.split("-", 1)[1]
    return None


def fragment_to_markdown(html: str) -> str:
    """Markdown of an HTML fragment (a forum message): structure kept, scripts and styles dropped."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    for tag in soup(("script", "style", "noscript", "svg", "iframe", "button")):
        tag.decompose()
    return _convert(soup)


def _convert(node) -> str:
    from markdownify import MarkdownConverter

    text = MarkdownConverter(
        heading_style="ATX", bullets="-", code_language_callback=_code_language, escape_misc=False
    ).convert_soup(node)
    text = text.replace("\xa0", " ")
    text = re.sub(r"[ \t]+\n", "\n", text)
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def html_to_markdown(html: str) -> tuple[str, str, str]:
    """(title, markdown, canonical url) of an HTML page: navigation, scripts and footers dropped."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    title = soup.title.get_text(" ", strip=True) if soup.title else ""
    canon = soup.find("link", rel="canonical") or soup.find("meta", property="og:url")
    link = (canon.get("href") or canon.get("content")) if canon else None
    url = link if isinstance(link, str) else ""  # both are single-valued attributes: a str when present
    for tag in soup(_DROP_TAGS):
        tag.decompose()
    for tag in soup.select(_FURNITURE):
        tag.decompose()
    root = soup.find("article") or soup.find("main") or soup.body or soup
    md = _convert(root)
    if not title:
        m = re.search(r"^#{1,3}\s+(.+)$", md, re.M)
        title = m.group(1).strip() if m else ""
    return title, md, url
