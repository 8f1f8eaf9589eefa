"""kotarena: an arena for King of Tokyo bots.

The public API for bot authors: the engine's vocabulary and the :class:`Bot` base.
:class:`State` and :class:`View` are King of Tokyo's (and Origins'): one game in
progress and what one seat sees of it (:mod:`kotarena.games.kot`); another game's are in
its own package (Duel's in :mod:`kotarena.games.duel`), and any game's view arrives in
``Bot.choose``. ``Action``, ``parse_action``, ``Outcome`` and ``Termination`` belong to
no game.

Each name is imported when it is first used (:pep:`562`): the league's database
commands import ``kotarena.storage`` without loading the game engine and its cards,
which cost them more CPU time than the query they run (``benchmarks/startup.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kotarena.bots.base import Bot
    from kotarena.engine import Action, Decision, IllegalActionError, Outcome, Termination, parse_action
    from kotarena.games import new_game
    from kotarena.games.kot import State, View

#: Where each public name lives.
_PUBLIC = {
    "Action": "kotarena.engine", "Bot": "kotarena.bots.base", "Decision": "kotarena.engine",
    "IllegalActionError": "kotarena.engine", "Outcome": "kotarena.engine", "State": "kotarena.games.kot",
    "Termination": "kotarena.engine", "View": "kotarena.games.kot", "new_game": "kotarena.games",
    "parse_action": "kotarena.engine",
}

__all__ = [
    "Action", "Bot", "Decision", "IllegalActionError", "Outcome", "State", "Termination",
    "View", "new_game", "parse_action", "__version__",
]


def __getattr__(name: str):
    import importlib

    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("kotarena")
        except PackageNotFoundError:  # running from a source tree that was never installed
            value = "0.0.0"
    elif name in _PUBLIC:
        value = getattr(importlib.import_module(_PUBLIC[name]), name)
    else:
        raise AttributeError(f"module 'kotarena' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
