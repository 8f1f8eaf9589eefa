"""Ladder files: what a valid file means, the one-line message for each mistake, and
several mistakes reported together."""

from __future__ import annotations

from dataclasses import asdict, replace
from pathlib import Path

import pytest

from kotarena.tournament.ladder import Entrant, Ladder, LadderError, load_ladder

LADDERS = Path(__file__).resolve().parents[2] / "ladders"
INSTALLED = ["human", "random", "heuristic"]

THREE_BOTS = """
[[bots]]
name = "random"
[[bots]]
name = "heuristic"
[[bots]]
name = "random"
label = "random-2"
"""


@pytest.fixture
def ladder_file(tmp_path):
    """Write a ladder file and return its path: ``ladder_file(text, name="x.toml")``."""

    def write(text: str, name: str = "x.toml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path

    return write


def problem(ladder_file, text: str, known=INSTALLED) -> str:
    """The message of the LadderError that ``text`` raises, without the file name."""
    path = ladder_file(text)
    with pytest.raises(LadderError) as caught:
        load_ladder(path, known_bots=known)
    message = str(caught.value)
    assert "\n" not in message, "ladder errors are one line"
    assert message.startswith(f"{path}: ")
    return message[len(f"{path}: "):]


# ------------------------------------------------------------------ valid files


def test_a_minimal_file_takes_every_default(ladder_file):
    ladder = load_ladder(ladder_file("players = 3\n" + THREE_BOTS, name="friday.toml"), known_bots=INSTALLED)
    assert ladder.name == "friday"  # the file's stem
    assert (ladder.game, ladder.deck, ladder.players, ladder.games) == ("kot", "kot", (3,), 100)
    assert (ladder.time_limit, ladder.format, ladder.challenger) == (1.0, "free-for-all", None)
    assert (ladder.duplicate, ladder.seed, ladder.workers, ladder.allow_repeats) == (False, None, None, False)
    assert ladder.entrants == [
        Entrant("random", "random"), Entrant("heuristic", "heuristic"), Entrant("random-2", "random"),
    ]


def test_every_field_is_read(ladder_file):
    text = """
name = "league"
game = "classic"          # an alias of kot
deck = "none"
players = [3, 4]
games = 14
time_limit = 0.25
format = "gauntlet"
challenger = "heuristic"
duplicate = true
seed = 99
workers = 2
allow_repeats = true

[[bots]]
name = "heuristic"
trusted = false
[[bots]]
name = "mcts"
label = "quick-mcts"
params = { playouts = 40, time_ms = 250 }
"""
    ladder = load_ladder(ladder_file(text), known_bots=[*INSTALLED, "mcts"])
    assert ladder.name == "league" and ladder.game == "kot" and ladder.deck == "none"
    assert ladder.players == (3, 4) and ladder.games == 14 and ladder.time_limit == 0.25
    assert ladder.format == "gauntlet" and ladder.challenger == "heuristic"
    assert ladder.duplicate is True and ladder.seed == 99 and ladder.workers == 2 and ladder.allow_repeats
    assert ladder.entrants == [
        Entrant("heuristic", "heuristic", {}, False),
        Entrant("quick-mcts", "mcts", {"playouts": 40, "time_ms": 250}, None),
    ]
    assert ladder.labels == ["heuristic", "quick-mcts"]


def test_bots_all_means_every_installed_bot_but_the_human(ladder_file):
    ladder = load_ladder(ladder_file('allow_repeats = true\nbots = "all"'), known_bots=INSTALLED)
    assert ladder.labels == ["random", "heuristic"]


def test_bots_all_without_a_list_asks_the_registry(ladder_file):
    from kotarena.bots.registry import bot_names

    ladder = load_ladder(ladder_file('allow_repeats = true\nbots = "all"'))
    assert ladder.labels == [name for name in bot_names() if name != "human"]


def test_bot_names_alone_are_a_shorthand(ladder_file):
    ladder = load_ladder(ladder_file('players = 2\nbots = ["random", "heuristic"]'), known_bots=INSTALLED)
    assert ladder.entrants == [Entrant("random", "random"), Entrant("heuristic", "heuristic")]


def test_without_a_bot_list_names_are_not_checked(ladder_file):
    ladder = load_ladder(ladder_file('players = 2\nbots = ["not-installed", "random"]'))
    assert ladder.labels == ["not-installed", "random"]


def test_duplicate_with_mixed_table_sizes_is_fine(ladder_file):
    text = "players = [4, 6]\nduplicate = true\ngames = 20\nallow_repeats = true\n" + THREE_BOTS
    ladder = load_ladder(ladder_file(text), known_bots=INSTALLED)
    assert ladder.set_size(4) == 4 and ladder.set_size(6) == 6


def test_a_duplicate_set_size_applies_to_every_table(ladder_file):
    text = "players = [3, 4]\nduplicate = 2\ngames = 10\nallow_repeats = true\n" + THREE_BOTS
    ladder = load_ladder(ladder_file(text), known_bots=INSTALLED)
    assert ladder.set_size(3) == ladder.set_size(4) == 2
    assert replace(ladder, duplicate=False).set_size(4) == 1


@pytest.mark.parametrize("name", ["quick", "classic-4p", "tokyo-bay-6p", "origins-4p", "origins-2p"])
def test_the_shipped_ladders_load(name):
    ladder = load_ladder(LADDERS / f"{name}.toml", known_bots=["human", "random", "heuristic", "mcts"])
    assert ladder.name == name
    assert ladder.entrants


@pytest.mark.parametrize(("name", "players"), [("origins-4p", 4), ("origins-2p", 2)])
def test_the_origins_ladders_play_origins_with_its_own_deck(name, players):
    from kotarena.games import get_spec

    ladder = load_ladder(LADDERS / f"{name}.toml", known_bots=["human", "random", "heuristic", "mcts"])
    assert ladder.game == "origins" and ladder.players == (players,) and ladder.duplicate
    assert ladder.deck == get_spec("origins").deck  # "origins" once the cards package has it


def test_a_ladder_may_name_a_game_with_options(ladder_file):
    ladder = load_ladder(ladder_file('game = "origins:two-player-variant=off"\nplayers = 2\n' + THREE_BOTS),
                         known_bots=INSTALLED)
    assert ladder.game == "origins:two-player-variant=off"
    assert problem(ladder_file, 'game = "origins"\nplayers = 5\n' + THREE_BOTS) == (
        "players: King of Tokyo: Origins is for 2 to 4 players, not 5")
    assert problem(ladder_file, 'game = "origins:two-player-variant=sometimes"\nplayers = 2\n' + THREE_BOTS) == (
        "game: option 'two-player-variant' of King of Tokyo: Origins is one of on, off, not 'sometimes'")


@pytest.mark.parametrize("name", ["quick", "classic-4p", "tokyo-bay-6p", "origins-4p", "origins-2p"])
def test_the_shipped_ladders_play_sealed_nights(name):
    assert load_ladder(LADDERS / f"{name}.toml", known_bots=["human", "random", "heuristic", "mcts"]).sealed


def test_a_ladder_that_names_no_seed_cannot_be_scheduled_without_one(ladder_file):
    from kotarena.tournament.schedule import build_schedule

    ladder = load_ladder(ladder_file("players = 2\n" + THREE_BOTS), known_bots=INSTALLED)
    assert ladder.seed is None
    with pytest.raises(ValueError, match="names no seed"):
        build_schedule(ladder, ladder.labels)
    assert build_schedule(replace(ladder, seed=3), ladder.labels)


def test_the_quick_ladder_needs_only_the_random_bot():
    ladder = load_ladder(LADDERS / "quick.toml", known_bots=["human", "random"])
    assert ladder.labels == ["random"]
    assert ladder.allow_repeats and ladder.players == (4,)


def test_the_runner_can_copy_and_serialise_a_ladder(ladder_file):
    ladder = load_ladder(ladder_file("players = 2\n" + THREE_BOTS), known_bots=INSTALLED)
    assert replace(ladder, seed=5).seed == 5
    assert asdict(ladder)["entrants"][2] == {"label": "random-2", "bot": "random", "params": {}, "trusted": None}


# ------------------------------------------------------------------ several mistakes


def test_a_files_problems_are_reported_together_one_line_each(ladder_file):
    """Fixing a file one error at a time is slow: every problem that can be seen is named."""
    path = ladder_file('players = 7\ncolour = "red"\ntime_limit = "fast"\n'
                       '[[bots]]\nname = "nosuchbot"\n[[bots]]\nname = "random"\n[[bots]]\nname = "rnadom"\n')
    with pytest.raises(LadderError) as caught:
        load_ladder(path, known_bots=INSTALLED)
    lines = str(caught.value).split("\n")
    assert lines[0] == f"{path}: 5 problems:"
    assert [line.split(":")[0].strip() for line in lines[1:]] == [
        "colour", "players", "time_limit", "bots[0].name", "bots[2].name"]
    assert all(line.startswith("  ") for line in lines[1:])
    assert "known keys:" in lines[1] and "7 players" not in lines[1] and "not 7" in lines[2]
    assert "unknown bot 'nosuchbot'" in lines[4] and "unknown bot 'rnadom'" in lines[5]
    assert caught.value.problems[0][0] == "colour" and len(caught.value.problems) == 5


def test_a_check_that_depends_on_a_failed_one_is_not_made(ladder_file):
    # An unknown game leaves the deck and table size unknowable: only the game is named.
    assert problem(ladder_file, 'game = "chess"\nplayers = 9\ndeck = "tarot"\n' + THREE_BOTS).startswith("game: ")
    # A bad table size leaves the duplicate set size unknowable.
    assert problem(ladder_file, 'players = 9\nduplicate = 12\n' + THREE_BOTS).startswith("players: ")
    # Table size against entrants is checked once every key is fine on its own.
    path = ladder_file('players = 4\ngames = "many"\n' + THREE_BOTS)
    with pytest.raises(LadderError, match=r"games: must be an integer, not a string$"):
        load_ladder(path, known_bots=INSTALLED)


# ------------------------------------------------------------------ fingerprints


def test_the_fingerprint_ignores_layout_key_order_and_workers(ladder_file):
    one = load_ladder(ladder_file('games = 10\nseed = 3\nplayers = 2\nbots = ["random", "heuristic"]', "a.toml"))
    two = load_ladder(ladder_file(
        '# same night\nplayers = 2\nseed = 3\nworkers = 8\ngames = 10\n'
        '[[bots]]\nname = "random"\n[[bots]]\nname = "heuristic"\n', "a.toml"))
    assert one.fingerprint() == two.fingerprint()
    assert len(one.fingerprint()) == 64


@pytest.mark.parametrize("change", [
    {"games": 11}, {"seed": 4}, {"players": (3,)}, {"time_limit": 2.0}, {"duplicate": True},
    {"entrants": [Entrant("random", "random", {"depth": 2}), Entrant("heuristic", "heuristic")]},
    {"entrants": [Entrant("random", "random", {}, True), Entrant("heuristic", "heuristic")]},
    {"name": "b"},
])
def test_the_fingerprint_changes_with_what_a_night_plays(change):
    ladder = Ladder(name="a", entrants=[Entrant("random", "random"), Entrant("heuristic", "heuristic")],
                    players=(2,), games=10, seed=3)
    assert replace(ladder, **change).fingerprint() != ladder.fingerprint()


# ------------------------------------------------------------------ mistakes


def test_an_unknown_bot_names_the_entry_and_the_installed_bots(ladder_file):
    text = 'players = 2\nbots = ["random", "heuristic", "rnadom"]'
    assert problem(ladder_file, text, known=["random", "heuristic"]) == (
        "bots[2].name: unknown bot 'rnadom' (installed: random, heuristic)"
    )
    # The human bot is installed but cannot play in a ladder, so it is not offered.
    assert problem(ladder_file, text, known=["human", "random", "heuristic"]).endswith("(installed: random, heuristic)")


def test_a_toml_syntax_error_gives_line_and_column(ladder_file):
    assert problem(ladder_file, 'name = "x"\nplayers = = 4\n') == "line 2, column 11: not valid TOML: invalid value"


def test_a_file_cut_short_is_a_syntax_error(ladder_file):
    assert problem(ladder_file, "players =") == "end of file: not valid TOML: invalid value"


def test_a_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "latin.toml"
    path.write_bytes(b'name = "caf\xe9"\n')
    with pytest.raises(LadderError, match=r"latin\.toml: not UTF-8 text"):
        load_ladder(path)


@pytest.mark.parametrize("text, expected", [
    ("playres = 4\n" + THREE_BOTS,
     "playres: unknown key (did you mean 'players'? known keys: name, game, deck, players, games, time_limit, "
     "format, challenger, duplicate, seed, workers, allow_repeats, bots, params, trusted)"),
    ('players = 2\n[[bots]]\nname = "random"\nparam = {}\n[[bots]]\nname = "heuristic"\n',
     "bots[0].param: unknown key (did you mean 'params'? known keys: name, label, params, trusted)"),
    ("[schedule]\nrounds = 2\n" + THREE_BOTS, "schedule: unknown key (known keys: name, game, deck, players, games, "
     "time_limit, format, challenger, duplicate, seed, workers, allow_repeats, bots, params, trusted)"),
])
def test_unknown_keys_anywhere(ladder_file, text, expected):
    assert problem(ladder_file, text) == expected


@pytest.mark.parametrize("deck", ["origins", "kot-2e", "kot-2e+origins", "kot+origins:biofuel,supertower"])
def test_a_ladder_plays_a_named_deck_or_a_deck_specification(ladder_file, deck):
    ladder = load_ladder(ladder_file(f'deck = "{deck}"\nplayers = 3\n' + THREE_BOTS), known_bots=INSTALLED)
    assert ladder.deck == deck


@pytest.mark.parametrize("line, expected", [
    ('players = "4"', "players: must be an integer or an array of integers, not a string"),
    ("players = [4, 4.5]", "players[1]: must be an integer or an array of integers, not a float"),
    ("players = []", "players: must list at least one table size"),
    ("games = 2.0", "games: must be an integer, not a float"),
    ("games = true", "games: must be an integer, not a boolean"),
    ("games = 0", "games: must be between 1 and 1000000, not 0"),
    ('seed = "lucky"', "seed: must be an integer, not a string"),
    ("seed = -1", "seed: must be between 0 and 9223372036854775807, not -1"),
    ("workers = -2", "workers: must be between 0 and 1024, not -2"),
    ("name = 7", "name: must be a string, not an integer"),
    ('name = "  "', "name: must not be empty"),
    ('game = "monopoly"', "game: unknown game 'monopoly'; known games: kot (classic, king-of-tokyo), "
                          "origins (kot-origins, king-of-tokyo-origins), duel (kot-duel, king-of-tokyo-duel)"),
    ('deck = "dark"', "deck: unknown deck 'dark'; known decks: kot, kot+origins-new, kot-2e, kot-2e+origins, "
                      "kot-2e+origins-new, origins, origins-new, none (or a mix: DECK[:CARD,CARD...][+DECK[:CARD,...]...])"),
    ('deck = "kot+origins:pizza"', "deck: no card 'pizza' in deck 'origins'"),
    ('format = "swiss"', "format: unknown format 'swiss' (formats: free-for-all, gauntlet)"),
    ('allow_repeats = "yes"', "allow_repeats: must be true or false, not a string"),
    ("duplicate = 1.5", "duplicate: must be true, false or a set size, not a float"),
    ("duplicate = 1", "duplicate: a set size must be between 2 and the smallest table (3), not 1"),
    ("duplicate = 4", "duplicate: a set size must be between 2 and the smallest table (3), not 4"),
])
def test_wrong_values_name_the_key(ladder_file, line, expected):
    text = line + "\n" + ("" if line.startswith("players") else "players = 3\n") + THREE_BOTS
    assert problem(ladder_file, text) == expected


@pytest.mark.parametrize("line, expected", [
    ("time_limit = 0", "time_limit: must be between 0.001 and 3600 CPU seconds per decision, not 0"),
    ("time_limit = -1.5", "time_limit: must be between 0.001 and 3600 CPU seconds per decision, not -1.5"),
    ("time_limit = nan", "time_limit: must be between 0.001 and 3600 CPU seconds per decision, not nan"),
    ("time_limit = inf", "time_limit: must be between 0.001 and 3600 CPU seconds per decision, not inf"),
    ('time_limit = "1s"', "time_limit: must be a number of CPU seconds, not a string"),
    ("time_limit = true", "time_limit: must be a number of CPU seconds, not a boolean"),
])
def test_bad_time_limits(ladder_file, line, expected):
    assert problem(ladder_file, line + "\nplayers = 3\n" + THREE_BOTS) == expected


def test_integer_time_limits_are_seconds(ladder_file):
    ladder = load_ladder(ladder_file("time_limit = 2\nplayers = 3\n" + THREE_BOTS), known_bots=INSTALLED)
    assert ladder.time_limit == 2.0 and isinstance(ladder.time_limit, float)


@pytest.mark.parametrize("players, expected", [
    ("1", "players: King of Tokyo is for 2 to 6 players, not 1"),
    ("7", "players: King of Tokyo is for 2 to 6 players, not 7"),
    ("[4, 8]", "players[1]: King of Tokyo is for 2 to 6 players, not 8"),
    ("4", "players: a table of 4 needs 4 entrants but there are only 3 (add entrants or set allow_repeats = true)"),
])
def test_impossible_table_sizes(ladder_file, players, expected):
    assert problem(ladder_file, f"players = {players}\n" + THREE_BOTS) == expected


def test_repeats_allow_more_seats_than_entrants(ladder_file):
    ladder = load_ladder(ladder_file("players = 6\nallow_repeats = true\n" + THREE_BOTS), known_bots=INSTALLED)
    assert ladder.players == (6,) and ladder.allow_repeats


@pytest.mark.parametrize("text, expected", [
    ('format = "gauntlet"\nplayers = 3\n' + THREE_BOTS,
     'challenger: a gauntlet needs a challenger (challenger = "LABEL" of one entrant)'),
    ('format = "gauntlet"\nchallenger = "mcts"\nplayers = 3\n' + THREE_BOTS,
     "challenger: 'mcts' is not an entrant (entrants: random, heuristic, random-2)"),
    ('challenger = "random"\nplayers = 3\n' + THREE_BOTS,
     'challenger: only a gauntlet has a challenger (set format = "gauntlet")'),
    ('format = "gauntlet"\nchallenger = "random"\nplayers = 4\n' + THREE_BOTS,
     "players: a table of 4 needs 3 opponents for the challenger but there are only 2 "
     "(add entrants or set allow_repeats = true)"),
    ('format = "gauntlet"\nchallenger = "random"\nallow_repeats = true\nplayers = 2\nbots = ["random"]',
     "bots: a gauntlet needs at least one entrant besides the challenger"),
])
def test_gauntlet_mistakes(ladder_file, text, expected):
    assert problem(ladder_file, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("players = 3\ngames = 10\nduplicate = true\n" + THREE_BOTS,
     "games: 10 does not end on a whole duplicate set; use 9 or 12"),
    ("players = 3\ngames = 2\nduplicate = true\n" + THREE_BOTS,
     "games: 2 does not end on a whole duplicate set; use 3"),
    ("players = [2, 3]\ngames = 6\nduplicate = true\n" + THREE_BOTS,
     "games: 6 does not end on a whole duplicate set; use 5 or 7"),
])
def test_a_night_ends_on_a_whole_duplicate_set(ladder_file, text, expected):
    assert problem(ladder_file, text) == expected


@pytest.mark.parametrize("text, expected", [
    ("players = 2", 'bots: missing: list the entrants as [[bots]] tables, or write bots = "all"'),
    ("players = 2\nbots = []", "bots: lists no entrants"),
    ('players = 2\nbots = "some"', 'bots: must be an array of [[bots]] tables or "all", not a string'),
    ("players = 2\nbots = [3]", "bots[0]: must be a table with a name, or a bot name, not an integer"),
    ('players = 2\n[[bots]]\nlabel = "x"\n', "bots[0].name: missing: which installed bot plays this entrant"),
    ('players = 2\nbots = ["random", "random"]',
     "bots[1].name: entrant 'random' is already bots[0]; give one of them a different label"),
    ('players = 2\n[[bots]]\nname = "random"\n[[bots]]\nname = "heuristic"\nlabel = "random"\n',
     "bots[1].label: entrant 'random' is already bots[0]; give one of them a different label"),
    ('players = 2\nbots = ["random", "human"]',
     "bots[1].name: the human bot needs a person at a terminal and cannot play in a ladder"),
    ('players = 2\nbots = ["random", {name = "heuristic", params = 3}]',
     "bots[1].params: must be a table of bot parameters, not an integer"),
    ('players = 2\nbots = ["random", {name = "heuristic", trusted = "yes"}]',
     "bots[1].trusted: must be true or false, not a string"),
    ('players = 2\nbots = ["random", {name = "heuristic", label = 5}]',
     "bots[1].label: must be a string, not an integer"),
])
def test_entrant_mistakes(ladder_file, text, expected):
    assert problem(ladder_file, text) == expected


def test_bots_all_with_nothing_installed(ladder_file):
    assert problem(ladder_file, 'allow_repeats = true\nbots = "all"', known=["human"]) == (
        'bots: "all" found no installed bots that can play King of Tokyo in a ladder'
    )


def test_a_missing_file_is_an_os_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_ladder(tmp_path / "nowhere.toml")


def test_params_tables_tune_installed_bots_of_an_all_ladder():
    from kotarena.tournament.ladder import parse_ladder

    text = 'players = 2\nallow_repeats = true\nbots = "all"\n[params.mcts]\nplayouts = 3\n[params.absent]\nx = 1\n'
    ladder = parse_ladder(text, source="p.toml", known_bots=["mcts", "human"])
    assert [(e.label, e.params) for e in ladder.entrants] == [("mcts", {"playouts": 3})]


def test_params_tables_need_an_all_ladder():
    from kotarena.tournament.ladder import LadderError, parse_ladder

    text = 'players = 2\nbots = ["random", "random2"]\n[params.random]\nlevel = 3\n'
    with pytest.raises(LadderError, match="params"):
        parse_ladder(text, source="p.toml", known_bots=["random", "random2"])


@pytest.mark.parametrize(
    "bots, problem",
    [
        ('[{name = "mcts", params = { playout = 50 }}]',
         "bots[0].params.playout: the mcts bot has no such parameter (its parameters: horizon, playouts, time_ms)"),
        ('[{name = "mcts", params = { playouts = "many" }}]',
         "bots[0].params.playouts: must be an integer, not a string"),
        ('[{name = "mcts", params = { horizon = true }}]', "bots[0].params.horizon: must be an integer, not a boolean"),
        ('[{name = "mcts", params = { time_ms = "fast" }}]', "bots[0].params.time_ms: must be a number, not a string"),
        ('["mcts", {name = "random", params = { level = 3 }}]',
         "bots[1].params.level: the random bot has no such parameter (its parameters: none)"),
        ('"all"\n[params.mcts]\nplayout = 50', "params.mcts.playout: the mcts bot has no such parameter"),
    ],
    ids=["misspelt", "text-for-integer", "boolean-for-integer", "text-for-number", "bot-without-parameters",
         "params-table"],
)
def test_a_parameter_the_bot_does_not_take_is_refused_when_the_ladder_is_loaded(bots, problem, monkeypatch):
    """Bots declare their parameters: a misspelt one, or a value of the wrong type, would
    otherwise leave the bot on its default, or forfeit every game it plays."""
    from kotarena import plugins
    from kotarena.tournament.ladder import LadderError, parse_ladder

    pytest.importorskip("kotarena_mcts")
    monkeypatch.setenv("KOTARENA_TRUST", "kotarena-mcts")  # (its declaration read here; a night reads it sandboxed)
    plugins.reset()
    text = f"players = 2\nallow_repeats = true\nbots = {bots}\n"
    with pytest.raises(LadderError) as error:
        parse_ladder(text, source="p.toml", known_bots=["mcts", "random"])
    assert str(error.value).startswith(f"p.toml: {problem}")


def test_declared_parameters_of_the_right_type_pass_and_undeclared_bots_take_anything(failbots):
    from kotarena.tournament.ladder import parse_ladder

    pytest.importorskip("kotarena_mcts")
    text = ('players = 2\nbots = [{name = "mcts", params = { playouts = 8, horizon = 0, time_ms = 5 }},'
            ' {name = "fail-raise", params = { fail_on = 1, anything = "goes" }}]\n')
    ladder = parse_ladder(text, source="p.toml", known_bots=["mcts", "fail-raise"])
    assert [e.params for e in ladder.entrants] == [{"playouts": 8, "horizon": 0, "time_ms": 5},
                                                   {"fail_on": 1, "anything": "goes"}]


def test_an_all_bots_ladder_trusts_the_bots_its_trusted_list_names_and_sandboxes_the_rest(tmp_path):
    path = tmp_path / "all.toml"
    path.write_text('name = "all"\nplayers = 3\nbots = "all"\ntrusted = ["heuristic", "not-installed"]\n')
    ladder = load_ladder(path, known_bots=["random", "heuristic", "mcts"])
    trusted = {entrant.bot: entrant.trusted for entrant in ladder.entrants}
    assert trusted == {"random": None, "heuristic": True, "mcts": None}


@pytest.mark.parametrize(("text", "words"), [
    ('bots = "all"\ntrusted = "heuristic"\n', "must be a list of bot names"),
    ('bots = ["random"]\ntrusted = ["random"]\n', 'only a ladder with bots = "all" takes a trusted list'),
])
def test_a_bad_trusted_list_is_refused(tmp_path, text, words):
    path = tmp_path / "bad.toml"
    path.write_text('name = "bad"\n' + text)
    with pytest.raises(LadderError) as error:
        load_ladder(path, known_bots=["random", "heuristic"])
    assert words in str(error.value)
