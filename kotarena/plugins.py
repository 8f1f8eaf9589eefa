"""Finding and loading plugins, one at a time, so a broken one breaks nothing else.

Entry points of the ``kotarena`` group are loaded lazily (on first need, never at
import), each inside its own ``try``: a package that fails to import, implements a
misspelt hook, or raises in a hook shows up as a :class:`PluginError` (see
:func:`plugin_errors` and ``kotarena plugins``) while every other plugin keeps working.

**Trust is per distribution.** Only kotarena's own plugins and those of *trusted*
distributions are ever imported here: the distributions named in ``KOTARENA_TRUST``
(comma-separated; ``kotarena --trust DIST`` sets it for a command and the processes it
starts) and those a command trusts (a ladder's ``trusted`` bots, ``--trust NAME`` of
``play``, ``match``, ``compare`` and ``bots check``, through :func:`trust`). Every other
installed distribution with ``kotarena`` entry points is *untrusted*: listed by
:func:`untrusted` from its metadata alone, never imported; its bots are known from the
sandboxed catalogue (:mod:`kotarena.sandbox.catalogue`) and play only in the sandbox,
and its games and commands are not available (:func:`untrusted_hint` says how to trust
it). ``KOTARENA_TRACE_PLUGINS=1`` prints every hook call to stderr.
"""

from __future__ import annotations

import difflib
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import import_module
from importlib.metadata import entry_points, version
from types import ModuleType

import pluggy

from kotarena import hookspecs

ENTRY_POINT_GROUP = "kotarena"
#: Built-in plugins, registered through the same hooks as third-party ones.
DEFAULT_PLUGINS = ("kotarena.games.builtin", "kotarena.bots.builtin", "kotarena.sandbox.builtin")


@dataclass(frozen=True)
class PluginError:
    """A plugin that could not be used, and why."""

    plugin: str
    package: str
    message: str


@dataclass
class PluginInfo:
    """A loaded plugin and where it came from."""

    name: str
    package: str
    version: str
    module: object
    hooks: list[str] = field(default_factory=list)
    builtin: bool = False


class _Registry:
    """The plugin manager and what loading it found. One per process (see ``reset``)."""

    def __init__(self) -> None:
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self.plugins: list[PluginInfo] = []
        self.errors: list[PluginError] = []
        #: Installed distributions with kotarena entry points that are not trusted here
        #: (never imported), by normal name: (name as installed, version).
        self.untrusted: dict[str, tuple[str, str]] = {}
        self.loaded = False

    def load(self) -> None:
        if self.loaded:
            return
        self.loaded = True
        if os.environ.get("KOTARENA_TRACE_PLUGINS"):
            self.pm.trace.root.setwriter(sys.stderr.write)
            self.pm.enable_tracing()
        kotarena_version = _version("kotarena")
        for module_name in DEFAULT_PLUGINS:
            self._register(import_module(module_name), module_name, "kotarena", kotarena_version, builtin=True)
        allowed = trusted()
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            package = ep.dist.name if ep.dist is not None else "?"
            package_version = ep.dist.version if ep.dist is not None else "?"
            if allowed is not None and normal(package) not in allowed:
                self.untrusted.setdefault(normal(package), (package, package_version))
                continue
            if self.pm.has_plugin(ep.name):
                self.errors.append(PluginError(ep.name, package, f"a plugin named {ep.name!r} is already loaded"))
                continue
            try:
                module = ep.load()
            except KeyboardInterrupt:
                raise  # (Ctrl-C while a plugin is imported is still Ctrl-C)
            except BaseException as error:  # noqa: BLE001 - SystemExit in an import must not end kotarena
                self.errors.append(PluginError(ep.name, package, f"failed to import: {type(error).__name__}: {error}"))
                continue
            self._register(module, ep.name, package, package_version)

    def _register(self, module: object, name: str, package: str, package_version: str, builtin: bool = False) -> None:
        unknown = _unknown_hooks(module, self.pm)
        if unknown:
            self.errors.append(PluginError(name, package, "; ".join(unknown)))
            return
        try:
            self.pm.register(module, name=name)
        except Exception as error:  # noqa: BLE001 - pluggy validation errors, bad signatures
            self.errors.append(PluginError(name, package, f"cannot be registered: {error}"))
            return
        hooks = sorted(caller.name for caller in self.pm.get_hookcallers(module) or ())
        self.plugins.append(PluginInfo(name, package, package_version, module, hooks, builtin))


def _unknown_hooks(module: object, pm: pluggy.PluginManager) -> list[str]:
    """Messages for functions marked as hook implementations that match no hook."""
    known = [name for name in vars(pm.hook) if not name.startswith("_")]
    problems = []
    for attribute in dir(module):
        value = getattr(module, attribute, None)
        if callable(value) and hasattr(value, f"{hookspecs.PROJECT}_impl") and attribute not in known:
            hint = difflib.get_close_matches(attribute, known, n=1)
            suggestion = f" (did you mean {hint[0]!r}?)" if hint else ""
            problems.append(f"unknown hook {attribute!r}{suggestion}")
    return problems


#: The environment variable naming the trusted distributions (comma-separated).
TRUST_VARIABLE = "KOTARENA_TRUST"
#: Set by :func:`restrict` with ``None``: every installed distribution is trusted. Only
#: the sandbox's own host does this (it runs where the bot runs, trusted by nobody).
_TRUST_ALL = False


def trusted() -> frozenset[str] | None:
    """The trusted distributions' normal names, kotarena included (``None``: every
    installed one, in the sandbox's host only)."""
    if _TRUST_ALL:
        return None
    return frozenset({"kotarena", *(normal(name) for name in os.environ.get(TRUST_VARIABLE, "").split(",")
                                    if name.strip())})


def is_trusted(package: str) -> bool:
    """Whether the distribution ``package`` is trusted here."""
    allowed = trusted()
    return allowed is None or normal(package) in allowed


def trust(packages: Iterable[str]) -> None:
    """Trust the distributions ``packages`` too, from now on: in this process (their
    plugins load on next use) and in the processes it starts (through
    ``KOTARENA_TRUST``)."""
    wanted = {normal(name) for name in packages if name.strip()} - {"kotarena"}
    allowed = trusted()
    if allowed is None or wanted <= allowed:
        return
    _set_trusted((allowed | wanted) - {"kotarena"})


def restrict(packages: set[str] | None) -> None:
    """Trust exactly the distributions ``packages`` (kotarena's own always), in this
    process and the processes it starts; ``None`` trusts every installed distribution,
    which only the sandbox's host may do (it imports the bot it serves, in the sandbox).
    Plugins loaded already are forgotten; the modules they imported stay imported."""
    global _TRUST_ALL
    if packages is None:
        _TRUST_ALL = True
        reset()
        return
    _TRUST_ALL = False
    _set_trusted({normal(name) for name in packages} - {"kotarena"})


def _set_trusted(packages: set[str]) -> None:
    if packages:
        os.environ[TRUST_VARIABLE] = ",".join(sorted(packages))
    else:
        os.environ.pop(TRUST_VARIABLE, None)
    reset()


def untrusted() -> dict[str, tuple[str, str]]:
    """The installed distributions with kotarena entry points that are not trusted here,
    by normal name: their name as installed and their version (read from their
    metadata: none of them is imported)."""
    return dict(registry().untrusted)


def untrusted_hint() -> str:
    """A sentence naming the installed distributions that are not trusted (so their
    games and commands are not loaded) and how to trust one; empty if there are none."""
    names = sorted(name for name, _ in registry().untrusted.values())
    if not names:
        return ""
    return (f"installed but not trusted, so their games and commands are not loaded: {', '.join(names)} "
            f"(trust one with 'kotarena --trust {names[0]} ...' or {TRUST_VARIABLE}={names[0]})")


def with_hint(message: str) -> str:
    """``message`` (a game or command not found), followed by :func:`untrusted_hint`'s
    sentence if some installed package is not trusted."""
    hint = untrusted_hint()
    return f"{message}; {hint}" if hint else message


def normal(package: str) -> str:
    """A distribution's name as compared: lower case, ``-`` for ``_`` and ``.``."""
    return package.strip().lower().replace("_", "-").replace(".", "-")


def _version(package: str) -> str:
    try:
        return version(package)
    except Exception:  # noqa: BLE001
        return "?"


_REGISTRY: _Registry | None = None


def registry() -> _Registry:
    """The process's plugin registry, loaded on first use."""
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = _Registry()
    _REGISTRY.load()
    return _REGISTRY


def reset() -> None:
    """Forget loaded plugins (the next use loads them again); for tests and long-lived hosts."""
    global _REGISTRY
    _REGISTRY = None
    for forget in _ON_RESET:
        forget()


#: What the registries built on the plugins forget when they are reset (see :func:`on_reset`).
_ON_RESET: list[Callable[[], None]] = []


def on_reset(forget: Callable[[], None]) -> None:
    """Have :func:`reset` call ``forget`` too: a registry built from the plugins' hooks
    (bots, games) registers its own reset here, so this module imports none of them."""
    if forget not in _ON_RESET:
        _ON_RESET.append(forget)


def get_plugin_manager() -> pluggy.PluginManager:
    """The loaded plugin manager."""
    return registry().pm


def plugins() -> list[PluginInfo]:
    """The loaded plugins, built-in ones first."""
    return list(registry().plugins)


def plugin_errors() -> list[PluginError]:
    """Every problem met while loading plugins or calling their hooks."""
    return list(registry().errors)


def add_error(error: PluginError) -> None:
    registry().errors.append(error)


def plugin_module(name: str) -> ModuleType | object | None:
    return registry().pm.get_plugin(name)


def call_each(hook_name: str, kwargs_for: Callable[[str, PluginInfo | None], dict[str, object]]) -> None:
    """Call every plugin's implementation of ``hook_name``, each on its own, with the
    keyword arguments ``kwargs_for(plugin_name, info)`` gives it (``info`` is ``None``
    for a plugin registered without an entry point). A plugin whose hook raises loses
    only what it had not yet done, and the error is recorded as its own."""
    loaded = registry()
    by_module = {id(p.module): p for p in loaded.plugins}
    for impl in getattr(loaded.pm.hook, hook_name).get_hookimpls():
        info = by_module.get(id(impl.plugin))
        try:
            call_plugin_hook(hook_name, impl.plugin, **kwargs_for(impl.plugin_name, info))
        except Exception as error:  # noqa: BLE001 - a raising plugin costs only itself
            add_error(PluginError(impl.plugin_name, info.package if info else "?",
                                  f"{hook_name} raised {type(error).__name__}: {error}"))


def call_plugin_hook(hook_name: str, plugin: object, **kwargs: object) -> list:
    """Call one plugin's implementation of a hook, and nobody else's.

    Callers use it to keep each plugin's failure to itself. The call goes through
    pluggy, so the implementation gets only the arguments it accepts and
    ``KOTARENA_TRACE_PLUGINS=1`` shows it.
    """
    pm = registry().pm
    others = [other for other in pm.get_plugins() if other is not plugin]
    return pm.subset_hook_caller(hook_name, remove_plugins=others)(**kwargs)
