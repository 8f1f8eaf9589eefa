"""A bot's bytes can only hurt the bot: whatever a line holds, the referee's decoder gives
back a message or a ProtocolError, and a seat fed any answer gives back an action or
the seat's forfeit (BotFailure), nothing else (no RecursionError, no UnicodeError, no
TypeError that would stop a night).

Hypothesis draws the lines: random bytes, JSON of any nesting (deeper than the referee
would ever parse), numbers of any size, other encodings, and real messages with a
field changed.
"""

from __future__ import annotations

import json
import socket
import threading

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kotarena import forfeits
from kotarena.engine.actions import Action
from kotarena.forfeits import BODY_LIMIT, REASON_LIMIT, BotFailure, action_of, clean_detail
from kotarena.games import new_game
from kotarena.sandbox.protocol import MAX_DEPTH, MAX_LINE, PROTOCOL, ProtocolError, decode
from kotarena.sandbox.seat import SandboxedSeat

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ---------------------------------------------------------------- lines

scalars = (st.none() | st.booleans() | st.integers() | st.integers(min_value=-(2 ** 200), max_value=2 ** 200)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text() | st.text(alphabet="[]{}\"\\,:u0123"))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=40)


@st.composite
def nested(draw) -> bytes:
    """A value wrapped in arrays and objects, as deep as hypothesis likes (up to 100000)."""
    depth = draw(st.integers(min_value=0, max_value=100_000) | st.integers(min_value=MAX_DEPTH - 2, max_value=MAX_DEPTH + 2))
    inner = json.dumps(draw(json_values)).encode()
    opener, closer = draw(st.sampled_from([(b"[", b"]"), (b'{"a":', b"}"), (b'{"type":"action","x":[', b"]}")]))
    closed = draw(st.booleans())
    return opener * depth + inner + (closer * depth if closed else b"")


@st.composite
def messages(draw) -> bytes:
    """A message the referee could receive, with any of its fields any JSON value."""
    message = {"type": draw(st.sampled_from(["action", "ready", "bye", "error", "bot"]) | json_values)}
    for field in draw(st.sets(st.sampled_from(["action", "message", "kind", "protocol", "extra"]))):
        message[field] = draw(st.sampled_from(["stop", "reroll 1 4", "memory"]) | json_values)
    return json.dumps(message, ensure_ascii=draw(st.booleans())).encode()


@st.composite
def other_encodings(draw) -> bytes:
    text = draw(st.sampled_from(['{"type":"action","action":"stop"}', '{"type":"error","message":"été"}']))
    return text.encode(draw(st.sampled_from(["utf-16", "utf-32", "latin-1", "cp1252", "utf-8-sig", "utf-7"])))


lines = (st.binary(max_size=300) | nested() | messages() | other_encodings()
         | json_values.map(lambda value: json.dumps(value).encode())
         | st.builds(lambda sign, digits, tail: b'{"type":"action","x":' + sign + b"9" * digits + tail + b"}",
                     st.sampled_from([b"", b"-"]), st.integers(0, 20_000), st.sampled_from([b"", b".5", b"e9", b"e999"])))


@FUZZ
@given(lines)
def test_the_decoder_gives_a_message_or_a_protocol_error(line):
    try:
        message = decode(line)
    except ProtocolError as error:
        reason = str(error)
        assert reason and "\n" not in reason and len(reason) < 300
        return
    assert isinstance(message, dict) and type(message["type"]) is str
    for field in ("action", "message", "kind"):
        assert message.get(field) is None or type(message[field]) is str
    json.dumps(message).encode()  # (every text in it is Unicode: it can be stored)


@FUZZ
@given(st.text(alphabet="[]{}", max_size=200) | st.integers(0, 40).map(lambda depth: "[" * depth + "]" * depth))
def test_the_depth_check_refuses_what_is_deeper_than_the_limit_and_only_that(brackets):
    depth = deepest = lowest = 0
    for char in brackets:
        depth += 1 if char in "[{" else -1
        deepest, lowest = max(deepest, depth), min(lowest, depth)
    try:
        decode(brackets.encode())
    except ProtocolError as error:
        reason = str(error)
    else:
        raise AssertionError("brackets alone are no message")
    if deepest > MAX_DEPTH:
        assert "deep" in reason or "not JSON" in reason  # (a closing bracket first: the parser stops there)
    if deepest <= MAX_DEPTH and depth == lowest == 0:  # (balanced: measured exactly)
        assert "deep" not in reason


def test_a_line_nested_far_deeper_than_pythons_recursion_limit_is_refused_in_one_line():
    for line in (b"[" * 200_000 + b"]" * 200_000, b'{"type":"action","action":' + b"[" * 500_000,
                 b'{"a":' * 100_000 + b"1" + b"}" * 100_000):
        try:
            decode(line)
        except ProtocolError as error:
            assert str(error) == f"sent a line nested more than {MAX_DEPTH} deep"
        else:
            raise AssertionError("read")


def test_brackets_inside_texts_do_not_count_as_nesting():
    message = decode(b'{"type":"error","message":"' + b"[[[[{{{{" * 100 + b'\\"]]]\\\\"}')
    assert message["message"].startswith("[[[[{{{{")


def test_what_python_reads_but_json_is_not_is_refused():
    refusals = {
        b'{"type":"action","action":NaN}': "NaN",
        b'{"type":"action","x":-Infinity}': "-Infinity",
        b'{"type":"action","x":1e400}': "too large",
        b'{"type":"action","x":' + b"7" * 5000 + b"}": "5000 digits",
        b'{"type":"action","action":"\\udc00stop"}': "lone surrogate",
        b'{"type":"action","action":"\xff"}': "not UTF-8",
        b'{"type":7}': "type is a number",
        b'{"type":"error","message":{"text":"x"}}': "message is an object",
        b'{"type":"action","action":["stop"]}': "names no action",
        b'["type","action"]': "not a JSON object",
    }
    for line, words in refusals.items():
        try:
            decode(line)
        except ProtocolError as error:
            assert words in str(error), (line[:60], str(error))
        else:
            raise AssertionError(f"{line[:60]!r} was read")


def test_a_line_just_under_the_cap_is_read_and_one_over_is_refused():
    padding = b" " * (MAX_LINE - 40)
    line = b'{"type":"action","action":"stop"' + padding + b"}"
    assert len(line) <= MAX_LINE and decode(line)["action"] == "stop"
    try:
        decode(line + b" " * 100)
    except ProtocolError as error:
        assert "at most" in str(error)
    else:
        raise AssertionError("a line over the cap was read")


# ---------------------------------------------------------------- a seat


class ReplayingServer:
    """A fork server's stand-in for one seat: the seat's process is this test's end of a
    socket pair, which has written all its lines before the referee reads one."""

    group = None
    memory_mb = 64

    def __init__(self, answers: bytes) -> None:
        self.answers = answers
        self.peer: socket.socket | None = None

    def start_seat(self):
        ours, self.peer = socket.socketpair()
        self.writer = threading.Thread(target=self._write, daemon=True)
        self.writer.start()
        return ours, 0

    def _write(self) -> None:
        try:
            self.peer.sendall(self.answers)
            self.peer.shutdown(socket.SHUT_WR)  # (after the lines: the seat's process ended)
        except OSError:
            pass  # (the referee closed its end: it judged the seat before reading all)

    def exit_status(self, pid):
        return "gone"

    def server_alive(self) -> bool:  # (so a refused answer's seat asks it for its lines, and reads its end)
        return True


GREETING = json.dumps({"type": "bot", "protocol": PROTOCOL}).encode() + b"\n"
READY = b'{"type":"ready"}\n'


def play_first_decision(answers: bytes):
    """Seat a bot whose process sends ``answers``, and ask it for its first decision:
    what the referee makes of it (an action, or the seat's failure)."""
    state = new_game("kot", 4, seed=7)
    server = ReplayingServer(answers)
    seat = SandboxedSeat(server, 1.0, game="kot", seat=state.to_move, params={})
    try:
        seat.start(123, state.view(state.to_move))
        seat.settle()
        return seat.choose(state.view(state.to_move))
    except BotFailure as failure:
        return failure
    finally:
        seat.close()
        server.writer.join()
        server.peer.close()


def _judged(outcome) -> None:
    assert isinstance(outcome, (Action, BotFailure)), outcome
    if isinstance(outcome, BotFailure):
        first = outcome.detail.split("\n", 1)[0]
        assert first and len(first) <= 400, first[:500]
        assert clean_detail(outcome.detail).split("\n", 1)[0]  # (it can be stored)


@FUZZ
@given(lines)
def test_a_seat_answering_anything_gives_an_action_or_its_forfeit(answer):
    _judged(play_first_decision(GREETING + READY + answer + b"\n"))


@FUZZ
@given(lines)
def test_a_seat_greeting_with_anything_gives_its_forfeit(greeting):
    outcome = play_first_decision(greeting + b"\n" + READY + b'{"type":"action","action":"stop"}\n')
    _judged(outcome)


@FUZZ
@given(lines)
def test_a_seat_answering_hello_with_anything_gives_an_action_or_its_forfeit(ready):
    _judged(play_first_decision(GREETING + ready + b"\n" + b'{"type":"action","action":"stop"}\n'))


@FUZZ
@given(st.text() | st.binary().map(lambda data: data.decode("utf-8", "surrogateescape")))
def test_a_seat_giving_up_with_any_words_forfeits_with_one_clean_line_first(words):
    line = json.dumps({"type": "error", "message": words}).encode()
    outcome = play_first_decision(GREETING + READY + line + b"\n")
    assert isinstance(outcome, BotFailure)
    if isinstance(outcome, BotFailure) and outcome.kind == "error":
        assert "\x1b" not in outcome.detail and outcome.detail.split("\n", 1)[0].isprintable()


def test_the_texts_a_bot_answers_with_do_not_grow_the_referees_memory():
    action_of("stop")
    kept = len(forfeits._ACTIONS)
    for spaces in range(1, 2000):
        assert action_of("Stop" + " " * spaces) == Action.of("stop")
    for number in range(10_000):
        action_of(f"buy {number}")
    assert len(forfeits._ACTIONS) <= max(kept, forfeits._KEPT)
    assert not any(text.endswith(" ") for text in forfeits._ACTIONS)


def test_an_honest_answer_is_its_action():
    assert play_first_decision(GREETING + READY + b'{"type":"action","action":"Stop"}\n') == Action.of("stop")


# ---------------------------------------------------------------- a bot's words, stored


@FUZZ
@given(st.text() | st.text(alphabet="\x1b[]0;\x07\r\n\t \u202e\x9bABC:") | st.binary().map(
    lambda data: data.decode("utf-8", "surrogateescape")))
def test_a_detail_is_stored_as_one_clean_bounded_line_of_reason_then_a_bounded_rest(words):
    detail = clean_detail(words)
    reason, _, rest = detail.partition("\n")
    assert reason.strip() and reason.isprintable() and len(reason) <= REASON_LIMIT
    assert len(rest) <= BODY_LIMIT and all(char == "\n" or char.isprintable() for char in rest)
    detail.encode()  # (no lone surrogate: it can be stored)
    assert clean_detail(detail) == detail


def test_a_traceback_that_comes_first_is_stored_with_its_exceptions_line_first():
    detail = clean_detail('Traceback (most recent call last):\n  File "bot.py", line 3, in choose\n    raise '
                          'KeyError(k)\nKeyError: \x1b[31m\'k\'\x1b[0m\n')
    assert detail.split("\n") == ["KeyError: 'k'", "Traceback (most recent call last):",
                                  '  File "bot.py", line 3, in choose', "    raise KeyError(k)"]


_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                     max_leaves=20)
_KEYS = st.sampled_from(["name", "plugin", "games", "description", "parameters", "hooks", "message", "program"])
_ENTRY = st.dictionaries(_KEYS, _JSON | st.sampled_from(["odd", "bot"]), max_size=6) | _JSON


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.fixed_dictionaries({"type": st.just("catalogue"), "bots": st.lists(_ENTRY, max_size=4) | _JSON,
                              "plugins": st.lists(_ENTRY, max_size=4) | _JSON,
                              "errors": st.lists(_ENTRY, max_size=4) | _JSON}))
def test_a_catalogue_answer_of_any_shape_only_ever_gives_entries_of_its_own_package(raw):
    # What a package's catalogue process answers is its to write: whatever its shape,
    # the referee keeps text entries of the package's own plugins, or nothing, and raises nothing.
    from kotarena.sandbox.catalogue import Candidate, _checked

    part = _checked(Candidate("kotarena-odd", "0.1", ("odd",), "/nowhere"), raw)
    json.dumps(part)
    for bot in part["bots"]:
        assert bot["package"] == "kotarena-odd" and bot["plugin"] == "odd" and isinstance(bot["name"], str)
        assert all(isinstance(game, str) for game in bot["games"])
    for error in part["errors"]:
        assert isinstance(error["message"], str) and error["message"].isprintable() or "\n" in error["message"]
