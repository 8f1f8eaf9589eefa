"""Every event of a game of Duel reads as a sentence: monsters, cards and hype tokens by
name, never a raw event, an id or a seat counted from 0; JSON output counts seats from 1."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner

from kotarena.cli import cli
from kotarena.games.duel.cards import BY_ID, CARDS
from kotarena.games.duel.events import KINDS, describe_event, event_data, event_lines, event_text
from kotarena.games.duel.monsters import MONSTERS
from kotarena.games.duel.track import HYPE_TOKENS
from kotarena.testing import random_game

NAMES = ["Gigazaur", "The King"]
IDS = {*BY_ID, *HYPE_TOKENS, *(m.id for m in MONSTERS if "_" in m.id)}
_WORD = re.compile(r"[A-Za-z_]+")


def card_buyer(state, rng):
    """Plays to get every card into play: even seeds save up for the market's dearest
    card (so the costly ones are bought too), odd ones buy and use cards at random."""
    legal = state.legal
    buys = [a for a in legal if a.kind == "buy"]
    if state.seed % 2 == 0 and state.kind == "buy":
        dearest = max((BY_ID[card].cost for card in state.market if card), default=0)
        wanted = [a for a in buys if BY_ID[state.market[a.args[0] - 1]].cost == dearest]
        return wanted[0] if wanted else next((a for a in legal if a.kind == "done"), rng.choice(legal))
    card_actions = [a for a in legal if a.kind in ("buy", "use")]
    if card_actions and rng.random() < 0.85:
        return rng.choice(card_actions)
    return rng.choice(legal)


def unreadable(line: str, event: tuple) -> list[str]:
    """What in a line is not for people: ids (of cards, hype tokens, monsters), a card
    the event names missing by its name, a seat by number."""
    problems = [word for word in _WORD.findall(line) if word in IDS]
    fields = [*event[1:], *(event[2].split()[1:] if event[0] == "act" else ())]
    problems += [field for field in fields if isinstance(field, str) and field in BY_ID
                 and BY_ID[field].name not in line]
    problems += re.findall(r"\bseat \d+", line)
    return problems


def test_every_event_of_random_duels_with_every_card_and_monster_reads_as_a_sentence():
    bought, kinds, monsters, chosen = set(), set(), set(), 0
    for seed in range(120):
        game = "duel:monsters=choice" if seed % 4 == 1 else "duel"
        state = random_game(seed, 2, "default", game=game, policy=card_buyer, record=True, check=None)
        chosen += game != "duel"
        for event in state.log:
            line = describe_event(event, state.names)
            assert line is not None, f"no sentence for {event!r} (seed {seed})"
            assert not unreadable(line, event), (line, event)
            kinds.add(event[0])
            if event[0] == "buy":
                bought.add(event[2])
        monsters |= {monster.id for monster in state.monsters}
    assert bought == {card.id for card in CARDS}
    assert monsters == {monster.id for monster in MONSTERS}
    # Every kind the game logs was seen but the roll-off, which is not logged (start.roll_off).
    assert kinds == set(KINDS) - {"roll_off"}
    assert chosen == 30


def test_card_and_track_events_name_monsters_cards_and_tokens():
    assert event_text(("hype", 0, "dragon_energy_smash_heal", "hype fame 5 3"), NAMES) == (
        "Gigazaur places the Dragon hype token (energy, smash, heal) on the fame track, spaces 5 to 3")
    assert event_text(("block", 1, 2, "destruction", -3), NAMES) == (
        "The King places its blocking token 2 on the destruction track, space -3")
    assert event_text(("act", 0, "use tesla_impulse unstable_dna"), NAMES) == "Gigazaur uses Tesla Impulse: Unstable DNA"
    assert event_text(("act", 1, "use alien_metabolism 2"), NAMES) == "The King uses Alien Metabolism: slot 2"
    assert event_text(("pick", 1, "the_king"), NAMES) == "The second seat picks The King"
    assert event_text(("end", 1, "spotlight"), NAMES) == (
        "Game over: The King wins (both markers stand in its spotlight zone)")
    assert event_text(("end", -1, "all_eliminated"), NAMES) == (
        "Game over: both monsters are knocked out at once, a draw")
    assert event_text(("roll_off", (2, 1)), NAMES) == "Roll for the first turn: 2 claws to 1"


def test_event_data_counts_seats_from_1_and_keeps_the_other_fields():
    assert event_data(("damage", 1, 3, "claws")) == ["damage", 2, 3, "claws"]
    assert event_data(("end", -1, "all_eliminated")) == ["end", None, "all_eliminated"]
    assert event_data(("pick", 0, "gigazaur")) == ["pick", 1, "gigazaur"]
    assert event_data(("sweep", 0, ("energize", "frenzy", ""))) == ["sweep", 1, ["energize", "frenzy", ""]]
    assert event_data(("market", ("energize", "frenzy", "cannonball"))) == [
        "market", ["energize", "frenzy", "cannonball"]]
    assert event_data(("reshuffle", 12)) == ["reshuffle", 12]


def test_narration_skips_actions_whose_effect_has_its_own_line():
    lines = event_lines([("act", 0, "reroll 1 4"), ("act", 0, "spend 0"), ("act", 0, "spend 1"),
                         ("act", 1, "buy 2"), ("act", 1, "done")], NAMES)
    assert lines == ["Gigazaur spends no dice tokens", "The King ends the buy step"]


def test_match_verbose_and_replay_json_show_seats_from_1(tmp_path):
    runner = CliRunner()
    path = tmp_path / "duel.replay"
    played = runner.invoke(cli, ["match", "--game", "duel", "--bot", "random", "--bot", "random", "--seed", "4",
                                 "-v", "--replay", str(path)], catch_exceptions=False)
    assert played.exit_code == 0
    narration, _, summary = played.stdout.partition("\nwinner: ")
    assert "-- turn 1: " in narration and not re.search(r"\bseat \d", narration)
    assert not [line for line in narration.splitlines() if unreadable(line, ("line",))]
    assert re.match(r"[\w ]+ \(seat [12], random\)", summary)
    shown = json.loads(runner.invoke(cli, ["replay", "--json", str(path)], catch_exceptions=False).stdout)
    seats = {event[1] for event in shown["events"] if event[0] in ("turn", "roll", "act", "damage")}
    assert seats == {1, 2}
    assert len(shown["lines"]) == len(shown["events"])
    assert not [line for line in shown["lines"] if unreadable(line, ("line",))]
    # The seats' names in the header are the monsters the sentences name.
    assert shown["lines"][1] == f"-- turn 1: {shown['header']['players'][shown['events'][1][1] - 1]}"
