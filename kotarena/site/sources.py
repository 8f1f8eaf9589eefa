"""Fingerprints of the code that writes a built site's game files, so that the next
build into the folder knows whether what it kept would still be written the same way.

kotarena's version stays the same while it is being developed, so it cannot tell a
build that the words of an event or the form of a frame changed. The files themselves
can: a fingerprint is a hash of the names and bytes of the installed source files that
make a game's frames, computed at each build (a few milliseconds: a few hundred
kilobytes read).
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Iterable
from pathlib import Path

from kotarena.engine.game import Game

#: The kotarena package's folder, where :data:`SITE_SOURCES` are found.
PACKAGE = Path(__file__).resolve().parent.parent
#: What makes every game's frames whatever its game: the site's own modules and files
#: (frames, boards, the pages, viewer.js and the other static files), the replay reader
#: the stored games are read with, the game-neutral core they are played through, and
#: the bots' logs and decision times a frame shows. Folders count with all they hold.
SITE_SOURCES = ("site", "replay", "engine", "decision_times.py", "sandbox/botlog.py")
#: Files that are not sources: compiled bytecode, which Python rewrites as it likes.
_SKIPPED = {"__pycache__"}


def fingerprint(paths: Iterable[Path]) -> str:
    """A hash of every file under ``paths`` (files, or folders searched through), by
    path and content: any change of a byte, a new file or a removed one changes it."""
    digest = hashlib.blake2b(digest_size=16)
    for root in paths:
        files = sorted(root.rglob("*")) if root.is_dir() else [root]
        for path in files:
            if path.is_file() and not _SKIPPED.intersection(path.parts) and path.suffix != ".pyc":
                name = path.relative_to(root.parent).as_posix().encode()
                content = path.read_bytes()
                digest.update(b"%d:%s%d:" % (len(name), name, len(content)))
                digest.update(content)
    return digest.hexdigest()


def site_fingerprint() -> str:
    """The fingerprint of :data:`SITE_SOURCES`, as installed."""
    return fingerprint(PACKAGE / name for name in SITE_SOURCES)


def game_package(game: Game) -> Path:
    """The folder of the package that defines ``game`` (``kotarena/games/kot`` for King
    of Tokyo and Origins), or its module's file for a game that is a single module."""
    module = sys.modules[type(game).__module__]
    path = Path(module.__file__ or "").resolve()
    return path.parent if module.__package__ else path


def game_fingerprint(game: Game) -> str:
    """The fingerprint of the package that defines ``game``: its events' words, the
    pictures of its table, its card names and its rules are all in there."""
    return fingerprint([game_package(game)])
