"""The game tracker: an event-sourced table that follows the wall, claims, dealer streaks and sessions.

- :mod:`~companion.game.events`: one frozen dataclass per thing that happens, JSON lines with a schema version.
- :mod:`~companion.game.wall`: 72 stacks, the break, the live and replacement ends, the kept-back tiles.
- :mod:`~companion.game.check` / :mod:`~companion.game.evolve`: ``check`` refuses with a reason (zh/en) and
  evidence, ``evolve`` never fails, ``replay`` rebuilds any state; ``step`` = check + evolve.
- :mod:`~companion.game.view`: what each seat may see, unseen copies per kind, the table printout.
- :mod:`~companion.game.session`: the ledger, money per player, fewest transfers, CSV/JSON.
- :mod:`~companion.game.service`: :class:`TableService`, the single writer of a table's SQLite log.
- :mod:`~companion.game.simulator`: bots that play legal hands from a seed.
"""

from companion.game.check import IllegalEvent, check, replay, step
from companion.game.evolve import evolve
from companion.game.service import Accepted, Choice, Question, Refused, TableService
from companion.game.state import Phase, TableState
from companion.game.switches import Switches
from companion.game.text import Msg

__all__ = ["Accepted", "Choice", "IllegalEvent", "Msg", "Phase", "Question", "Refused", "Switches", "TableService",
           "TableState", "check", "evolve", "replay", "step"]
