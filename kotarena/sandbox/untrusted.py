"""The untrusted distributions' bots, for a command: read in the sandbox, trusted by a
bot's name, and found to be seated.

The registry (:mod:`kotarena.bots.registry`) imports only trusted plugins; it knows an
untrusted distribution's bots once it is sealed with the catalogue they declared in the
sandbox (:mod:`kotarena.sandbox.catalogue`), which is what :func:`know_untrusted` does.
"""

from __future__ import annotations

from collections.abc import Iterable

from kotarena import plugins
from kotarena.bots import registry

__all__ = ["find_bot", "know_untrusted", "trust_names"]


def know_untrusted() -> dict | None:
    """Read the untrusted distributions' bots in the sandbox and seal the registry with
    them (:func:`~kotarena.bots.registry.seal`), unless done already or none is
    installed; returns the catalogue.

    Where the sandbox cannot be had, nothing untrusted is read (that would run the
    distributions' code outside the sandbox): each is reported as a plugin error saying
    so, and its bots stay unknown.
    """
    if registry.catalogue() is not None:
        return registry.catalogue()
    from kotarena.sandbox.botstore import stored

    untrusted = plugins.untrusted()
    # (the bot store's bots are untrusted too, wherever nothing of this environment is)
    if not untrusted and not stored():
        return None
    from kotarena.sandbox.jail import sandbox_problem

    problem = sandbox_problem()
    if problem is not None:
        known = {(error.package, error.message) for error in plugins.plugin_errors()}
        for name, _ in untrusted.values():
            message = (f"not trusted, and its bots cannot be read without the sandbox ({problem}); "
                       f"trust it with --trust {name}")
            if (name, message) not in known:
                plugins.add_error(plugins.PluginError("?", name, message))
        return None
    from kotarena.sandbox.catalogue import read_catalogue

    found = read_catalogue(jailed=True)
    registry.seal(found)
    return found


def trust_names(names: Iterable[str]) -> set[str]:
    """Trust the distributions of ``names`` (each a distribution, a bot or ``DIST:NAME``)
    from now on, here and in the processes started from here; returns their names.

    A bot's distribution is found without importing it (the catalogue, read in the
    sandbox if need be: :func:`know_untrusted`).
    """
    wanted = [name.strip() for name in names if name.strip()]
    if not wanted:
        return set()
    installed = {plugins.normal(info.package) for info in plugins.plugins()} | set(plugins.untrusted())
    dists: set[str] = set()
    for name in wanted:
        if ":" in name:
            dists.add(plugins.normal(name.split(":", 1)[0]))
        elif plugins.normal(name) in installed:
            dists.add(plugins.normal(name))
        else:
            know_untrusted()
            dists.add(plugins.normal(registry.get_bot(name).package))
    dists.discard("kotarena")
    if not all(plugins.is_trusted(dist) for dist in dists):
        kept = registry.catalogue()
        plugins.trust(dists)
        if kept is not None:
            registry.seal(kept)
    return dists


def find_bot(name: str) -> registry.BotInfo:
    """The bot ``name``, for a command that seats it: one of kotarena's own at once;
    any other once the untrusted bots are known too (:func:`know_untrusted`), so that
    a plain name two distributions register is refused whichever of them is trusted."""
    try:
        info = registry.get_bot(name)
    except registry.UnknownBotError:
        info = None
    if info is None or plugins.normal(info.package) != "kotarena":
        know_untrusted()
        info = registry.get_bot(name)
    return info
