"""The bot registry: names, descriptions, provenance, and refusing bad registrations."""

from __future__ import annotations

import pytest

from kotarena import Bot, plugins
from kotarena.bots import registry
from kotarena.bots.random_bot import RandomBot
from kotarena.bots.registry import UnknownBotError, get_bot, get_bot_class, get_bots
from kotarena.hookspecs import hookimpl


class FirstBot(Bot):
    """Takes the first legal action.

    More lines that the description leaves out.
    """

    name = "first"

    def choose(self, view):
        return view.legal[0]


class Nameless(Bot):
    def choose(self, view):
        return view.legal[0]


class Registers:
    """A plugin object whose hook registers whatever it was given."""

    def __init__(self, *calls) -> None:
        self.calls = calls

    @hookimpl
    def register_bots(self, register):
        for args, kwargs in self.calls:
            register(*args, **kwargs)


@pytest.fixture
def pm(site, monkeypatch):
    """The plugin manager with only the built-in plugin loaded."""
    monkeypatch.setenv("KOTARENA_TRUST", "")
    return plugins.get_plugin_manager()


def add(pm, name: str, *calls) -> None:
    pm.register(Registers(*calls), name=name)
    registry.reset()


def messages(plugin: str) -> list[str]:
    return [e.message for e in plugins.plugin_errors() if e.plugin == plugin]


def test_built_in_random_bot_is_registered_through_the_hook(pm):
    info = get_bot("random")

    assert info.cls is RandomBot
    assert (info.package, info.plugin, info.games) == ("kotarena", "kotarena.bots.builtin", ("*",))
    assert info.to_json()["name"] == "random"


def test_description_is_the_first_line_of_the_docstring(pm):
    add(pm, "test-plugin", ((FirstBot,), {}))

    assert get_bot("first").description == "Takes the first legal action."


def test_register_may_override_name_and_description(pm):
    add(pm, "test-plugin", ((FirstBot,), {"name": "first-v2", "description": "The second try."}))

    info = get_bot("first-v2")
    assert (info.cls, info.description) == (FirstBot, "The second try.")


def test_make_gives_a_fresh_seeded_bot_with_parameters(pm):
    add(pm, "test-plugin", ((FirstBot,), {}))

    one, two = get_bot("first").make(seed=3, depth=2), get_bot("first").make(seed=3)
    assert one is not two
    assert one.params == {"depth": 2}
    assert one.random() == two.random()


def test_built_in_bots_are_listed_first(pm):
    add(pm, "test-plugin", ((FirstBot,), {"name": "aaa"}))

    names = list(get_bots())
    assert names.index("random") < names.index("aaa")


def test_a_second_bot_with_a_taken_name_is_refused_not_renamed(pm):
    add(pm, "copycat", ((FirstBot,), {"name": "random"}))

    assert get_bot_class("random") is RandomBot
    assert messages("copycat") == ["bot name 'random' is already taken by package 'kotarena'; this one is ignored"]


def test_registering_something_that_is_not_a_bot_class_is_an_error_of_that_plugin(pm):
    add(pm, "not-a-class", ((FirstBot(),), {}))

    assert "random" in get_bots()
    assert messages("not-a-class")[0].startswith("register_bots raised TypeError: register() needs a Bot subclass")


def test_a_bot_without_a_name_is_an_error_of_that_plugin(pm):
    add(pm, "nameless", ((Nameless,), {}))

    assert "random" in get_bots()
    assert messages("nameless") == ["register_bots raised ValueError: bot class Nameless has no name"]


def test_unknown_bot_name_suggests_a_close_one(pm):
    with pytest.raises(UnknownBotError, match=r"unknown bot 'randon'\. Did you mean 'random'\?"):
        get_bot("randon")


def test_a_bot_without_a_docstring_is_not_described_by_the_bot_base_class():
    class Undocumented(Bot):
        def choose(self, view):
            return view.legal[0]

    class Inheriting(FirstBot):
        pass

    assert registry.describe(Undocumented) == ""
    assert registry.describe(Inheriting) == "Takes the first legal action."
