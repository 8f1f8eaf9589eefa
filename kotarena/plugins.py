"""Finding and loading plugins, one at a time, so a broken one breaks nothing else.

Entry points of the ``kotarena`` group are loaded lazily (on first need, never at
import), each inside its own ``try``: a package that fails to import, implements a
misspelt hook, or raises in a hook shows up as a :class:`PluginError` (see
:func:`plugin_errors` and ``kotarena plugins``) while every other plugin keeps working.

``KOTARENA_LOAD_PLUGINS`` limits loading to a comma-separated list of distribution
names (empty: no third-party plugin at all; the built-in plugins always load).
``KOTARENA_TRACE_PLUGINS=1`` prints every hook call to stderr.
"""

from __future__ import annotations

import difflib
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from importlib.metadata import entry_points, version
from types import ModuleType

import pluggy

from kotarena import hookspecs

ENTRY_POINT_GROUP = "kotarena"
#: Built-in plugins, registered through the same hooks as third-party ones.
DEFAULT_PLUGINS = ("kotarena.games.builtin", "kotarena.bots.builtin")


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
        allowed = _allowed_packages()
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            package = ep.dist.name if ep.dist is not None else "?"
            package_version = ep.dist.version if ep.dist is not None else "?"
            if allowed is not None and _normal(package) not in allowed:
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


def restrict(packages: set[str] | None) -> None:
    """Load only the plugins of ``packages`` from now on (``None``: every installed one),
    in this process and in the processes it starts (through ``KOTARENA_LOAD_PLUGINS``).
    Plugins loaded already are forgotten; the modules they imported stay imported."""
    if packages is None:
        os.environ.pop("KOTARENA_LOAD_PLUGINS", None)
    else:
        os.environ["KOTARENA_LOAD_PLUGINS"] = ",".join(sorted(packages))
    reset()


def _allowed_packages() -> set[str] | None:
    value = os.environ.get("KOTARENA_LOAD_PLUGINS")
    if value is None:
        return None
    return {_normal(name) for name in value.split(",") if name.strip()}


def _normal(package: str) -> str:
    return package.strip().lower().replace("_", "-")


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
