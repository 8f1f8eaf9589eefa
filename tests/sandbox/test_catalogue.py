"""The catalogue: what each untrusted distribution declares, read in a sandboxed process
of its own that loads kotarena's plugins and that distribution only, so a package can
speak only for itself; cached by the distribution's identity."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from bot_packages import bot_source, bot_wheel

from kotarena import plugins
from kotarena.sandbox import catalogue
from kotarena.sandbox.catalogue import identity, read_catalogue

#: A package whose catalogue process answers for others: it replaces what the host
#: sends with claims about kotarena-heuristic, another plugin and huge text.
LIAR = bot_source("liar") + '''
import __main__
from kotarena.sandbox.protocol import encode as _encode

def _lie(message):
    if message.get("type") == "catalogue":
        message = {"type": "catalogue",
                   "bots": [{"name": "liar", "package": "kotarena-heuristic", "version": "9.9", "plugin": "liar",
                             "games": ["kot"], "description": "x" * 100000, "parameters": None, "path": ["/"]},
                            {"name": "impostor", "package": "kotarena-heuristic", "version": "9.9",
                             "plugin": "heuristic", "games": ["kot"], "description": "", "parameters": None}],
                   "plugins": [{"plugin": "heuristic", "hooks": ["register_games"]},
                               {"plugin": "liar", "hooks": ["register_bots"]}],
                   "errors": [{"plugin": "heuristic", "package": "kotarena-heuristic", "message": "framed"}]}
    return _encode(message)

__main__.encode = _lie
'''

#: A package that says, as its bot's description, which test packages its process imported.
NOSY = bot_source("nosy").replace('"""A bot', '"""{}').replace('class StoreBot', '''
import sys as _sys
StoreBot_doc = ",".join(sorted(m for m in _sys.modules if m.startswith("kotarena_cat")))

class StoreBot''').replace("    name = ", "    description = StoreBot_doc\n    name = ")


def install_here(root: Path, dist: str, version: str, source: str) -> Path:
    """``dist`` "installed" as the hostile fixtures are: a module and its ``.dist-info``
    in a directory on ``sys.path``."""
    module = dist.replace("-", "_")
    (root / f"{module}.py").write_text(source)
    info = root / f"{module}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(f"[kotarena]\n{dist.removeprefix('kotarena-cat-')} = {module}\n")
    return root / f"{module}.py"


@pytest.fixture
def here(tmp_path, monkeypatch, sandbox):
    """A directory of this environment's path for test packages, an empty cache and store."""
    root = tmp_path / "site"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("KOTARENA_BOT_STORE", str(tmp_path / "store"))
    plugins.reset()
    yield root
    plugins.reset()


def entries(found: dict, key: str, package: str) -> list[dict]:
    return [entry for entry in found[key] if entry["package"] == package]


def test_each_distribution_is_read_in_a_process_that_imports_it_alone(here):
    install_here(here, "kotarena-cat-a", "1.0", NOSY)
    install_here(here, "kotarena-cat-b", "2.0", NOSY.replace('"nosy"', '"nosy-b"'))
    found = read_catalogue()
    described = {bot["name"]: bot["description"] for bot in found["bots"]}
    assert described["nosy"] == "kotarena_cat_a"
    assert described["nosy-b"] == "kotarena_cat_b"


def test_a_package_can_only_speak_for_itself(here):
    install_here(here, "kotarena-cat-liar", "0.3", LIAR)
    found = read_catalogue()
    [liar] = entries(found, "bots", "kotarena-cat-liar")
    # Package and version are the installed metadata's, the path the referee's, the text bounded.
    assert (liar["name"], liar["version"], liar["path"]) == ("liar", "0.3", [])
    assert len(liar["description"]) <= 300
    # The bot it claimed for another plugin is not taken, and says so under its own name.
    assert "impostor" not in {bot["name"] for bot in found["bots"]}
    assert any("impostor" in e["message"] for e in entries(found, "errors", "kotarena-cat-liar"))
    # What it said about another package is filed under its own.
    assert [e for e in found["errors"] if e["message"] == "framed"] == [
        {"plugin": "liar", "package": "kotarena-cat-liar", "message": "framed"}]
    assert [p["plugin"] for p in entries(found, "plugins", "kotarena-cat-liar")] == ["liar"]
    # The package it named is read from its own process, and untouched.
    heuristic = [bot for bot in found["bots"] if bot["name"] == "heuristic"]
    assert all(bot["package"] == "kotarena-heuristic" and bot["version"] != "9.9" for bot in heuristic)


def test_an_import_error_is_shown_word_for_word(here):
    install_here(here, "kotarena-cat-broken", "0.1", "raise ImportError('needs the moon to be full')\n")
    found = read_catalogue()
    [error] = entries(found, "errors", "kotarena-cat-broken")
    assert error["plugin"] == "broken"
    assert "ImportError: needs the moon to be full" in error["message"]


def test_a_package_whose_process_dies_costs_only_itself(here):
    install_here(here, "kotarena-cat-dying", "0.1", "import os\nos._exit(3)\n")
    install_here(here, "kotarena-cat-a", "1.0", NOSY)
    found = read_catalogue()
    assert "nosy" in {bot["name"] for bot in found["bots"]}
    [error] = entries(found, "errors", "kotarena-cat-dying")
    assert error["message"].startswith("its bots could not be read")


def test_the_hooks_each_plugin_implements_are_listed(here):
    install_here(here, "kotarena-cat-a", "1.0", NOSY)
    found = read_catalogue()
    assert entries(found, "plugins", "kotarena-cat-a") == [
        {"plugin": "a", "package": "kotarena-cat-a", "version": "1.0", "hooks": ["register_bots"], "path": []}]


def test_a_warm_catalogue_starts_no_process_until_a_package_changes(here, monkeypatch):
    module = install_here(here, "kotarena-cat-a", "1.0", NOSY)
    first = read_catalogue()
    asked = []
    real = catalogue._ask
    monkeypatch.setattr(catalogue, "_ask", lambda candidate, jailed: asked.append(candidate.name) or
                        real(candidate, jailed))
    assert read_catalogue() == first
    assert asked == []
    later = module.stat().st_mtime_ns + 10**9
    os.utime(module, ns=(later, later))
    assert read_catalogue() == first
    assert asked == ["kotarena-cat-a"]


def test_a_trusted_distribution_can_be_left_out(here):
    install_here(here, "kotarena-cat-a", "1.0", NOSY)
    found = read_catalogue(skip=["kotarena_cat_a"])
    assert "nosy" not in {bot["name"] for bot in found["bots"]}


def test_an_editable_install_is_read_again_when_its_source_changes(here, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    (project / "kotarena_cat_e.py").write_text(NOSY)
    info = here / "kotarena_cat_e-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: kotarena-cat-e\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[kotarena]\ne = kotarena_cat_e\n")
    (info / "direct_url.json").write_text(json.dumps({"url": project.as_uri(), "dir_info": {"editable": True}}))
    [candidate] = [c for c in catalogue.candidates_here() if c.name == "kotarena-cat-e"]
    before = identity(candidate)
    (project / "helper.py").write_text("X = 1\n")
    [candidate] = [c for c in catalogue.candidates_here() if c.name == "kotarena-cat-e"]
    assert identity(candidate) != before


def test_a_stored_bot_is_read_with_its_store_directory_on_its_path(here, tmp_path):
    from kotarena.sandbox.botinstall import install

    install(str(bot_wheel(tmp_path / "wheels", "kotarena-cat-stored", bot="stored")), no_index=True)
    found = read_catalogue()
    [bot] = entries(found, "bots", "kotarena-cat-stored")
    directory = tmp_path / "store" / "kotarena-cat-stored-0.1"
    assert bot["path"] == [str(directory)]
    # The referee's own path never gets it.
    assert str(directory) not in sys.path
    with pytest.raises(Exception):  # noqa: B017 - importlib's PackageNotFoundError
        __import__("importlib.metadata").metadata.distribution("kotarena-cat-stored")


def test_a_stored_package_that_implements_more_than_bots_offers_none(here, tmp_path):
    from kotarena.sandbox.botstore import store_dir

    # (one that was let in some other way: installed by hand in the store)
    wheel = bot_wheel(tmp_path / "wheels", "kotarena-cat-games", bot="gamer",
                      extra="from kotarena.hookspecs import hookimpl as _h\n\n@_h\ndef register_games(register):\n"
                            "    pass\n")
    target = store_dir() / "kotarena-cat-games-0.1"
    import zipfile

    zipfile.ZipFile(wheel).extractall(target)
    found = read_catalogue()
    assert entries(found, "bots", "kotarena-cat-games") == []
    [error] = entries(found, "errors", "kotarena-cat-games")
    assert "may only register bots" in error["message"] and "register_games" in error["message"]


def test_a_command_line_bot_is_declared_as_a_program(here):
    install_here(here, "kotarena-cat-prog", "0.1", '''
from kotarena.bots.command import CommandBot
from kotarena.hookspecs import hookimpl


class Shell(CommandBot):
    name = "shell-bot"
    command = ("/bin/sh", "-c", "exit 0")


@hookimpl
def register_bots(register):
    register(Shell)
''')
    install_here(here, "kotarena-cat-a", "1.0", NOSY)
    programs = {bot["name"]: bot["program"] for bot in read_catalogue()["bots"]}
    assert (programs["shell-bot"], programs["nosy"]) == (True, False)


def test_two_packages_that_register_one_name_are_both_reported_under_their_own_names(here):
    # (each process sees only its own package, so neither is "first": the registry
    # decides what to do with the clash, knowing both)
    install_here(here, "kotarena-cat-one", "1.0", bot_source("twin"))
    install_here(here, "kotarena-cat-two", "2.0", bot_source("twin"))
    twins = [(bot["package"], bot["version"]) for bot in read_catalogue()["bots"] if bot["name"] == "twin"]
    assert sorted(twins) == [("kotarena-cat-one", "1.0"), ("kotarena-cat-two", "2.0")]


def test_a_package_that_takes_a_name_of_kotarenas_own_is_refused_in_its_own_process(here):
    install_here(here, "kotarena-cat-copy", "1.0", bot_source("random"))
    found = read_catalogue()
    assert entries(found, "bots", "kotarena-cat-copy") == []
    assert any("'random' is already taken by package 'kotarena'" in e["message"]
               for e in entries(found, "errors", "kotarena-cat-copy"))


def test_what_a_package_declares_reaches_no_terminal_as_control_characters():
    # A catalogue process speaks for its own package only, but its words are printed by
    # 'kotarena bots', 'bots list' and 'plugins': terminal escapes (set the title, clear
    # the screen), a bidirectional override or a line break in a bot's name (a forged
    # row of the table) were printed as they came.
    from kotarena.sandbox.catalogue import Candidate, _checked

    candidate = Candidate("kotarena-term", "0.1", ("term",), "/nowhere")
    raw = {"type": "catalogue",
           "bots": [{"name": "ok\x1b[31mred", "plugin": "term"},
                    {"name": "two\nlines", "plugin": "term"},
                    {"name": "fine", "plugin": "term", "games": ["kot", "k\x1b[2Jot"],
                     "description": "\x1b]0;pwned\x07\x1b[2J\u202eevil\nsecond line",
                     "parameters": {"\x1b[5mp": "int\x07"}}],
           "plugins": [{"plugin": "term", "hooks": ["register_bots", "x\x1b[2J"]}],
           "errors": [{"plugin": "term", "message": "Traceback\n\x1b[2Jcleared\r\x07"}]}
    part = _checked(candidate, raw)
    assert [bot["name"] for bot in part["bots"]] == ["fine"]
    [bot] = part["bots"]
    assert bot["games"] == ["kot"]
    assert bot["description"] == "evil second line"
    assert bot["parameters"] == {"p": "int"}
    texts = json.dumps(part, ensure_ascii=False)
    assert not any(ch in texts for ch in "\x1b\x07\r\u202e")
    assert [error["message"] for error in part["errors"]][1:] == [
        "declared a bot the referee cannot take: 'okred'", "declared a bot the referee cannot take: 'two lines'"]


#: A package whose import-time code says, as its bot's description, how much address
#: space it has and how many processes it could start (of 100 tried): a memory or fork
#: bomb at import would have had the whole machine, at every 'kotarena bots'.
GREEDY = bot_source("greedy").replace('class StoreBot', '''
import os as _os
import resource as _resource
import time as _time

def _count():
    children = []
    try:
        for _ in range(100):
            pid = _os.fork()
            if pid == 0:
                _time.sleep(5)
                _os._exit(0)
            children.append(pid)
    except OSError:
        pass
    for pid in children:
        _os.kill(pid, 9)
        _os.waitpid(pid, 0)
    return len(children)

_DOC = f"as={_resource.getrlimit(_resource.RLIMIT_AS)[0]} forks={_count()}"

class StoreBot''').replace("    name = ", "    description = _DOC\n    name = ")


def test_a_package_read_in_the_sandbox_has_no_more_than_a_seats_memory_and_processes(here):
    install_here(here, "kotarena-cat-greedy", "0.1", GREEDY)
    [bot] = entries(read_catalogue(), "bots", "kotarena-cat-greedy")
    limit, forks = (int(word.split("=")[1]) for word in bot["description"].split())
    assert 0 < limit <= 2048 << 20
    assert forks < 64


def test_an_entry_point_name_with_control_characters_speaks_for_no_plugin(here):
    # The entry points' names are the package's own metadata, printed by 'kotarena
    # plugins' and in its errors.
    from kotarena.sandbox import catalogue

    install_here(here, "kotarena-cat-esc", "0.1", bot_source("esc"))
    info = here / "kotarena_cat_esc-0.1.dist-info"
    (info / "entry_points.txt").write_text("[kotarena]\nesc\x1b]0;pwned\x07 = kotarena_cat_esc\n")
    assert [c for c in catalogue.candidates_here() if c.name == "kotarena-cat-esc"] == []


def test_an_answer_whose_plugin_is_not_text_costs_only_its_package():
    # The answer is the package's to write (LIAR above replaces the host's encoder): a
    # plugin given as a list or an object raised TypeError (unhashable) in the referee,
    # and 'kotarena bots', 'league run' and every command reading the catalogue stopped.
    from kotarena.sandbox.catalogue import Candidate, _checked

    candidate = Candidate("kotarena-odd", "0.1", ("odd",), "/nowhere")
    raw = {"type": "catalogue",
           "bots": [{"name": "odd", "plugin": ["odd"]}, {"name": "fine", "plugin": "odd"}],
           "plugins": [{"plugin": {"a": 1}, "hooks": []}, {"plugin": "odd", "hooks": ["register_bots"]}],
           "errors": [{"plugin": ["x"], "message": {"m": 1}}]}
    part = _checked(candidate, raw)
    assert [bot["name"] for bot in part["bots"]] == ["fine"]
    assert [plugin["plugin"] for plugin in part["plugins"]] == ["odd"]


def test_a_package_that_hangs_costs_its_wait_once_not_in_every_command(here, monkeypatch):
    monkeypatch.setattr(catalogue, "CATALOGUE_SECONDS", 1.0)
    install_here(here, "kotarena-cat-sleeper", "0.1", "import time\ntime.sleep(60)\n")
    [error] = entries(read_catalogue(), "errors", "kotarena-cat-sleeper")
    assert "no answer within" in error["message"]
    # Read again (another command): from the cache, no process started.
    monkeypatch.setattr(catalogue, "_ask", lambda *args: pytest.fail("read again"))
    [again] = entries(read_catalogue(), "errors", "kotarena-cat-sleeper")
    assert again == error
