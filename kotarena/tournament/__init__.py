"""League nights: ladder files, schedules, and the runner that plays them.

:mod:`~kotarena.tournament.ladder` reads and checks ladder files,
:mod:`~kotarena.tournament.schedule` turns a ladder into the night's matches (both pure);
:mod:`~kotarena.tournament.runner` plays matches on an executor and
:mod:`~kotarena.tournament.night` runs a night, storing and rating its matches through
:mod:`kotarena.storage.store`.
"""

from kotarena.tournament.ladder import Entrant, Ladder, LadderError, load_ladder, parse_ladder
from kotarena.tournament.schedule import MatchSpec, build_schedule

__all__ = ["Entrant", "Ladder", "LadderError", "MatchSpec", "build_schedule", "load_ladder", "parse_ladder"]
