"""Ladder names: what a ladder may be called, and a name as a part of a path.

A ladder's name names directories (its bots' logs beside the results, its pages on the
site), so it is one plain word, never a path: :func:`name_problem` is the rule that
ladder files are checked against, :func:`path_name` what any code that builds a path
from a name uses, which keeps even a name stored by an older kotarena (which did not
check) inside its directory.
"""

from __future__ import annotations

import hashlib
import re

#: What a ladder's name may be. It names directories (its bots' logs beside the results,
#: its pages on the site), so it is one plain word, never a path.
NAME_RULE = "letters, digits, '.', '_' and '-', not starting with a dot, at most 64 characters"
_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,63}")


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a ladder's name (``None`` if it can)."""
    if _NAME.fullmatch(name):
        return None
    return f"{name[:80]!r} is not a ladder name ({NAME_RULE})"


def path_name(name: str) -> str:
    """``name`` as one component of a path, which stays in its directory: the name itself
    when it is a ladder name as files are now checked (:data:`NAME_RULE`); else (a name
    stored by a kotarena that did not check) its letters, digits, ``_`` and ``-``,
    with a hash of the whole name so that two such names never share a directory."""
    if _NAME.fullmatch(name):
        return name
    kept = re.sub(r"[^A-Za-z0-9_-]+", "_", name)[:40]
    return f"{kept}-{hashlib.sha256(name.encode('utf-8', 'surrogatepass')).hexdigest()[:12]}"


__all__ = ["NAME_RULE", "name_problem", "path_name"]
