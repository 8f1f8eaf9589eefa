"""The PettingZoo AEC environment: any game kotarena plays, one agent per seat.

The environment knows games only through the game seam (``new_state``, ``to_move``,
``legal``, ``apply``, ``view``, ``outcome``) and an :class:`~kotarena.pettingzoo.encoder.Encoder`
found in the registry; see ``docs/pettingzoo.md`` for the spaces, rewards and seeds.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.logger import warn
from pettingzoo import AECEnv

from kotarena.engine.actions import Action, parse_action
from kotarena.engine.game import GameState
from kotarena.engine.outcome import IllegalActionError
from kotarena.games import get_game
from kotarena.pettingzoo.encoder import Encoder
from kotarena.pettingzoo.registry import encoder_for


def place_rewards(ranks: tuple[int, ...]) -> list[float]:
    """Each seat's reward for its finishing place (``Outcome.ranks``, 0 the best): the
    seats it finished ahead of less those ahead of it, over the other seats' number.

    The winner of a two-player game gets 1 and the loser -1; in any game the first gets
    1, the last -1, tied seats the same, and the rewards add up to 0.
    """
    others = len(ranks) - 1
    return [(sum(r > mine for r in ranks) - sum(r < mine for r in ranks)) / others for mine in ranks]


class KotarenaEnv(AECEnv):
    """A game of ``game`` (a name or alias, with options: ``origins:two-player-variant=off``)
    for ``players`` seats, played with ``deck`` (``"default"``: the game's; ``None``: no
    cards).

    Agents are ``player_0`` ... in seat order. ``step`` takes an index of the action
    table (``actions``), or for convenience an action or its text. Every agent stays
    in ``agents`` until the game is over (a monster knocked out simply has no more
    decisions); then all terminate together, each with :func:`place_rewards`.
    """

    metadata = {"name": "kotarena_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(self, game: str = "kot", players: int = 4, deck: str | None = "default",
                 render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {', '.join(self.metadata['render_modes'])}, not {render_mode!r}")
        self.game = get_game(game)
        self.players = players
        self.deck = deck
        self.render_mode = render_mode
        self.encoder: Encoder = encoder_for(self.game, players, deck)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        low, high = self.encoder.layout.bounds()
        size = len(self.encoder.actions)
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (size,), dtype=np.int8),
        })
        self._action_space = spaces.Discrete(size)
        self._seeds: random.Random | None = None
        self.state: GameState | None = None
        #: Views of the position as it stands, by seat (``last()`` and the info share one).
        self._views: dict[int, Any] = {}

    # -- spaces and the action table

    @property
    def actions(self) -> tuple[Action, ...]:
        """The fixed action table: index ``i`` stands for ``actions[i]``."""
        return self.encoder.actions

    def action_index(self, action: Action | str) -> int:
        """The index of an action (or its text) in the table."""
        chosen = parse_action(action, self.game.verbs) if isinstance(action, str) else action
        try:
            return self.encoder.index[chosen]
        except KeyError:
            raise IllegalActionError(f"{chosen.text!r} is not in this environment's action table") from None

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_space

    # -- the cycle

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal a new game. With ``seed`` the game is the engine's game of that seed
        (``kotarena match --seed``); without, the next of a sequence drawn from the last
        seed given (fresh entropy if none was ever given)."""
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            if self._seeds is None:
                self._seeds = random.Random()
            game_seed = self._seeds.randrange(2**63)
        self.state = self.game.new_state(self.players, seed=game_seed, deck=self.deck, record=False)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.agent_selection = self.possible_agents[self.state.to_move]
        self._refresh_infos()

    def step(self, action: int | np.integer | Action | str | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state is not None
        chosen = self._action_of(action)
        if chosen not in self.state.legal:
            legal = ", ".join(a.text for a in self.state.legal)
            raise IllegalActionError(f"{chosen.text!r} is not legal for {agent} now ({self.state.kind}); legal: {legal}")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {name: 0.0 for name in self.agents}
        self.state.apply(chosen)
        outcome = self.state.outcome
        if outcome is not None:
            for name, reward in zip(self.possible_agents, place_rewards(outcome.ranks)):
                self.rewards[name] = reward
                self.terminations[name] = True
        else:
            self.agent_selection = self.possible_agents[self.state.to_move]
        self._accumulate_rewards()
        self._refresh_infos()
        if self.render_mode == "human":
            self.render()

    def _action_of(self, action: int | np.integer | Action | str | None) -> Action:
        if isinstance(action, Action):
            return action
        if isinstance(action, str):
            return parse_action(action, self.game.verbs)
        if action is None or not 0 <= int(action) < len(self.encoder.actions):
            raise IllegalActionError(f"action {action!r} is not an index of the action table "
                                     f"(0 to {len(self.encoder.actions) - 1})")
        return self.encoder.actions[int(action)]

    def _refresh_infos(self) -> None:
        # The raw view goes to the agent about to act (all of them once the game is over):
        # building every seat's view on every step would double the cost of a step.
        assert self.state is not None
        self._views = {}
        over = self.state.outcome is not None
        self.infos = {agent: {} for agent in self.agents}
        for agent in self.agents if over else (self.agent_selection,):
            self.infos[agent] = {"view": self.view(agent)}

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation: ``observation`` (the numeric vector) and
        ``action_mask`` (1 for each legal action; all 0 unless the agent must decide)."""
        view = self.view(agent)
        return {"observation": self.encoder.encode(view), "action_mask": self.encoder.mask(view.legal)}

    def view(self, agent: str) -> Any:
        """The agent's raw view (the game's ``view_type``: what a bot is given)."""
        assert self.state is not None
        seat = self._seat[agent]
        view = self._views.get(seat)
        if view is None:
            view = self._views[seat] = self.state.view(seat)
        return view

    def render(self) -> str | None:
        if self.render_mode is None:
            warn("You are calling render without a render_mode: pass render_mode='ansi' or 'human' to the environment.")
            return None
        if self.state is None:
            return None
        text = self.encoder.render(self.state)
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self) -> None:
        self.state = None


__all__ = ["KotarenaEnv", "place_rewards"]
