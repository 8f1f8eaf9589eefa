"""The replay viewer's drawn table and decisions, as frames.py gives them to the page:
each frame's monsters, Tokyo, dice and Duel's tracks as the engine had them when the
turn ended, every decision with its legal actions and the action chosen, and the texts
of the cards and superpowers the table shows."""

from __future__ import annotations

import random

import pytest

from kotarena.games import get_game, new_game
from kotarena.games.duel.monsters import MONSTERS
from kotarena.replay import Replay
from kotarena.site.frames import LEGAL_SHOWN, game_frames, viewer_data


def played(game: str, players: int, seed: int) -> Replay:
    """A finished game of random moves, as the league stores it (actions only)."""
    state = new_game(game, players, seed=seed, record=False)
    choose = random.Random(seed)
    while not state.is_over:
        state.apply(choose.choice(state.legal))
    return Replay.actions_only(state, first_player=None)


def replayed(replay: Replay):
    """The engine's state as each turn of ``replay`` ends (a copy each), and every
    decision asked on the way as (seat, legal action texts, chosen text)."""
    state = new_game(replay.game, list(replay.players), seed=replay.seed, deck=replay.deck, record=True)
    state.pause_between_turns = True
    ends, asked = [], []
    for _, action in replay.actions:
        if state.between_turns:
            ends.append(state.clone())
            state.next_turn()
        asked.append((state.decision.player, [legal.text for legal in state.legal], action))
        state.apply(action)
    return ends + [state], asked


def text(replay: Replay) -> str:
    return "\n".join(replay.text_lines())


@pytest.mark.parametrize(("game", "players", "seed"), [("kot", 4, 11), ("kot", 6, 12), ("origins", 2, 13)])
def test_the_drawn_table_shows_each_monster_tokyo_and_the_dice_as_the_engine_had_them_after_each_turn(
        game, players, seed):
    replay = played(game, players, seed)
    frames, _, problem = game_frames(replay)
    ends, _ = replayed(replay)
    assert problem is None and len(frames) - 1 == len(ends)
    for frame, state in zip(frames[1:], ends):
        board = frame["board"]
        assert board["kind"] == "kot"
        assert [seat["health"] for seat in board["seats"]] == list(state.health)
        assert [seat["stars"] for seat in board["seats"]] == list(state.stars)
        assert [seat["energy"] for seat in board["seats"]] == list(state.energy)
        assert [seat["cards"] for seat in board["seats"]] == [[state.cards_info[card].id for card in owned]
                                                              for owned in state.owned]
        assert board["city"] == (state.city if state.city >= 0 else None)
        assert board["bay"] == (state.bay if state.bay >= 0 else None) and board["bay_open"] == state.bay_open
        assert board["dice"] == list(state.dice)
    if players >= 5:  # Tokyo Bay is open at five and six (until only four are left)
        assert frames[0]["board"]["bay_open"] and any(frame["board"]["bay"] is not None for frame in frames)


def test_a_duel_frame_draws_both_tracks_with_their_markers_and_the_spotlight_zones():
    from kotarena.games.duel.track import in_zone

    replay = played("duel:monsters=choice", 2, 15)
    frames, _, problem = game_frames(replay)
    ends, _ = replayed(replay)
    assert problem is None
    for frame, state in zip(frames[1:], ends):
        board = frame["board"]
        assert [seat["health"] for seat in board["seats"]] == list(state.health)
        assert [seat["monster"] for seat in board["seats"]] == [f"monster:{m.id}" for m in state.monsters]
        assert [track["marker"] for track in board["tracks"]] == [state.board.index(0), state.board.index(1)]
        for number, track in enumerate(board["tracks"]):
            spaces = state.board.spaces(number)
            assert len(track["marks"]) == len(track["zones"]) == len(spaces)
            assert track["marks"][track["marker"]] == "@"
            assert [zone for zone, (token, _) in zip(track["zones"], spaces) if not token] == \
                [next((seat for seat in (0, 1) if in_zone(cell, seat)), None) for token, cell in spaces if not token]
        assert board["dice"] == list(state.dice)
    # Each seat's spotlight zone lies at its own end: the first seat's on the left.
    zones = frames[0]["board"]["tracks"][0]["zones"]
    assert zones.index(0) < len(zones) // 2 < zones.index(1)


@pytest.mark.parametrize(("game", "players"), [("kot", 4), ("origins", 2), ("duel", 2), ("duel:monsters=choice", 2)])
def test_the_setup_shows_no_dice_before_anyone_rolled(game, players):
    replay = played(game, players, 21)
    frames, _, _ = game_frames(replay)
    assert frames[0]["board"]["dice"] == [] and "dice" not in frames[0]["state"]["table"]
    assert frames[1]["board"]["dice"] and "dice" in frames[1]["state"]["table"]  # the first turn rolled


@pytest.mark.parametrize(("game", "players", "seed"), [("kot", 4, 31), ("origins", 2, 32), ("duel:monsters=choice", 2, 33)])
def test_every_decision_is_shown_with_the_seat_asked_its_legal_actions_and_its_choice(game, players, seed):
    replay = played(game, players, seed)
    frames, _, _ = game_frames(replay)
    _, asked = replayed(replay)
    shown = [decision for frame in frames for decision in frame["decisions"]]
    assert [(d["seat"], d["choice"]) for d in shown] == [(seat, choice) for seat, _, choice in asked]
    for decision, (_, legal, choice) in zip(shown, asked):
        assert decision["legal"] == legal[:LEGAL_SHOWN] and decision["more"] == max(0, len(legal) - LEGAL_SHOWN)
        assert choice in legal
    if game.startswith("duel"):  # the monster choices come before the first turn: the setup's
        assert [d["kind"] for d in frames[0]["decisions"]] == ["monster", "monster"]
    # A turn's decisions are its player's, or answers to it (yielding Tokyo) by another seat.
    assert all(frame["decisions"] for frame in frames[1:])


def test_the_page_keeps_each_list_of_legal_actions_once_and_each_decision_names_its_list():
    replay = played("kot", 4, 41)
    data, _ = viewer_data(1, text(replay), ["a", "b", "c", "d"])
    _, asked = replayed(replay)
    shown = [decision for frame in data["frames"] for decision in frame["decisions"]]
    assert [data["legal"][d["legal"]] for d in shown] == [legal for _, legal, _ in asked]
    assert len(data["legal"]) == len({tuple(legal) for legal in data["legal"]}) < len(shown)


@pytest.mark.parametrize(("game", "players"), [("kot", 4), ("origins", 2)])
def test_the_cards_the_table_shows_come_with_the_decks_own_text(game, players):
    replay = played(game, players, 51)
    data, _ = viewer_data(1, text(replay), ["x"] * players)
    state = new_game(replay.game, list(replay.players), seed=replay.seed, deck=replay.deck)
    infos = {info.id: info for info in state.cards_info}
    named = {card for frame in data["frames"] for card in frame["board"]["market"] if card}
    named |= {card for frame in data["frames"] for seat in frame["board"]["seats"] for card in seat["cards"]}
    assert set(data["cards"]) == named
    for card, shown in data["cards"].items():
        assert (shown["name"], shown["cost"], shown["type"], shown["text"]) == \
            (infos[card].name, infos[card].cost, infos[card].type, infos[card].text) and shown["text"]


def test_duel_shows_its_cards_texts_from_its_card_rows_and_each_monsters_superpower():
    replay = played("duel:monsters=choice", 2, 52)
    data, _ = viewer_data(1, text(replay), ["x", "y"])
    rows = {row["id"]: row for row in get_game("duel").card_rows()}
    monsters = {f"monster:{m.id}": m for m in MONSTERS}
    seated = {seat["monster"] for seat in data["frames"][-1]["board"]["seats"]}
    assert seated <= set(data["cards"])
    for key in seated:
        assert data["cards"][key]["text"] == monsters[key].text
        assert data["cards"][key]["type"] == f"superpower: {monsters[key].power}"
    cards = [key for key in data["cards"] if key in rows]
    assert cards and all(data["cards"][key]["text"].startswith(rows[key]["effect"]) for key in cards)


def test_a_duel_whose_seats_choose_their_monsters_draws_the_monsters_chosen_from_the_setup_on():
    replay = played("duel:monsters=choice", 2, 61)
    frames, _, _ = game_frames(replay)
    picks = [decision["choice"].removeprefix("pick ") for decision in frames[0]["decisions"]]
    assert [seat["monster"] for seat in frames[0]["board"]["seats"]] == [f"monster:{pick}" for pick in picks]
    assert all([seat["monster"] for seat in frame["board"]["seats"]] == [f"monster:{pick}" for pick in picks]
               for frame in frames)


def test_each_decision_gets_its_seats_stored_time_in_the_order_its_bot_answered():
    """A seat's k-th decision in the game is its bot's k-th answer: the k-th stored time."""
    from kotarena.decision_times import pack_times

    replay = played("kot", 3, 21)
    _, asked = replayed(replay)
    counts = [sum(1 for seat, _, _ in asked if seat == s) for s in range(3)]
    times = [pack_times("share", [0.001 * (s + 1) + 1e-6 * k for k in range(counts[s])]) for s in range(3)]
    data, _ = viewer_data(1, text(replay), ["a", "b", "c"], times, [None, "hello\n<b>bold</b>", None])
    decisions = [decision for frame in data["frames"] for decision in frame["decisions"]]
    seen = [0, 0, 0]
    for decision in decisions:
        seat = decision["seat"]
        assert decision["time"] == round(0.001 * (seat + 1) + 1e-6 * seen[seat], 6)
        seen[seat] += 1
    assert seen == counts and data["timing"] == ["share"] * 3
    assert data["logs"] == [None, "hello\n<b>bold</b>", None]  # (the page shows it as text, never HTML)


def test_a_forfeited_seats_decisions_after_its_bots_last_answer_have_no_time():
    """The autopilot plays a forfeited seat out: its decisions took none of the bot's time."""
    from kotarena.decision_times import pack_times

    replay = played("kot", 2, 22)
    data, _ = viewer_data(1, text(replay), ["a", "b"], [pack_times("cpu", [0.5, 0.25]), None])
    first = [decision for frame in data["frames"] for decision in frame["decisions"] if decision["seat"] == 0]
    assert [decision.get("time") for decision in first[:3]] == [0.5, 0.25, None]
    assert all("time" not in decision for frame in data["frames"] for decision in frame["decisions"]
               if decision["seat"] == 1)
    assert data["timing"] == ["cpu", None]


def test_stored_times_pack_into_one_short_text_and_back():
    from kotarena.decision_times import pack_times, unpack_times

    assert pack_times("tick", []) is None and unpack_times(None) is None
    assert unpack_times(pack_times("tick", [0.0, 0.05, 1e-6])) == ("tick", [0.0, 0.05, 1e-6])
    assert unpack_times("later:1,2") is None and unpack_times("cpu:1,x") is None
