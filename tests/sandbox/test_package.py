"""What a sandboxed seat's record names as its bot's package: the fork server runs the
bot's code, so its word is checked against the installed plugins' metadata."""

from __future__ import annotations

from kotarena.sandbox.seat import _installed


def test_an_installed_third_party_plugin_is_named_with_its_installed_version(hostile):
    assert _installed("kotarena-hostile") == ("kotarena-hostile", "0.1")


def test_a_server_cannot_pass_its_bot_off_as_kotarenas_own_or_as_no_plugin(hostile):
    assert _installed("kotarena") == ("?", "?")
    assert _installed("pytest") == ("?", "?")
    assert _installed({"not": "a name"}) == ("?", "?")
