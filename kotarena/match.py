"""Playing one game between bots: the loop every command and the runner share."""

from __future__ import annotations

from collections.abc import Sequence

from kotarena.bots.base import Bot
from kotarena.engine.game import GameState
from kotarena.engine.outcome import IllegalActionError
from kotarena.seeds import bot_seed

__all__ = ["BotMoveError", "bot_seed", "play"]  # bot_seed: a bot's seed, see kotarena.seeds


class BotMoveError(IllegalActionError):
    """A bot answered with something that is not a legal action."""

    def __init__(self, seat: int, bot: Bot, answer: object, message: str) -> None:
        super().__init__(message)
        self.seat = seat
        self.bot = bot
        self.answer = answer


def play(state: GameState, bots: Sequence[Bot]) -> GameState:
    """Ask each deciding seat's bot until the game is over; returns ``state``.

    A bot's answer is checked by the engine: anything not in the legal list raises
    :class:`BotMoveError` naming the seat, the bot and the answer.
    """
    if len(bots) != state.n:
        raise ValueError(f"{len(bots)} bots for {state.n} seats")
    for seat, bot in enumerate(bots):
        bot.start(state.view(seat))
    while state.outcome is None:
        seat = state.to_move
        if seat < 0:  # paused between turns
            state.next_turn()
            continue
        bot = bots[seat]
        answer = bot.choose(state.view(seat))
        try:
            state.apply(answer)
        except (IllegalActionError, ValueError) as error:
            raise BotMoveError(seat, bot, answer, f"bot {bot.name or type(bot).__name__!r} at seat {seat + 1} "
                               f"({state.names[seat]}): {error}") from error
    for seat, bot in enumerate(bots):
        bot.finish(state.view(seat))
    return state

