"""The site's HTML pieces: a page around its content, tables, links and file names.

Pages are plain HTML written with f-strings and :func:`html.escape` (a template engine
would be one more dependency for a dozen small pages). Every value that comes from the
database goes through :func:`text` or :func:`attribute`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from html import escape

from kotarena import __version__

__all__ = ["page", "slug", "table", "text"]


def text(value: object) -> str:
    """``value`` as HTML text (``None`` as nothing)."""
    return "" if value is None else escape(str(value), quote=False)


def attribute(value: object) -> str:
    return escape(str(value), quote=True)


def slug(name: str) -> str:
    """A file-name-safe form of a ladder's or an entrant's name (letters, digits, ``-``,
    ``_`` and ``.`` are kept; anything else becomes ``_``)."""
    cleaned = re.sub(r"[^A-Za-z0-9._-]", "_", name).strip(".") or "_"
    return cleaned


def table(headers: Sequence[str], rows: Iterable[Sequence[str]], *, css: str = "", caption: str = "") -> str:
    """A table; ``rows`` hold HTML already (use :func:`text` on values)."""
    head = "".join(f"<th>{text(header)}</th>" for header in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>\n" for row in rows)
    cap = f"<caption>{text(caption)}</caption>" if caption else ""
    return f'<table class="{css}">{cap}<thead><tr>{head}</tr></thead><tbody>\n{body}</tbody></table>'


def page(title: str, body: str, *, root: str = "", crumbs: Sequence[tuple[str, str]] = ()) -> str:
    """A whole page: ``root`` is the relative path to the site's top (``""`` or ``"../"``),
    ``crumbs`` the ``(href, label)`` links above the title."""
    trail = "".join(f' / <a href="{attribute(href)}">{text(label)}</a>' for href, label in crumbs)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{text(title)} · kotarena</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{root}style.css">
</head>
<body>
<nav><a href="{root}index.html">kotarena</a>{trail}</nav>
<h1>{text(title)}</h1>
{body}
<footer>Built by kotarena {text(__version__)}. Seats and places count from 1.</footer>
</body>
</html>
"""
