"""The game tracker: an event-sourced table that follows the wall, claims, dealer streaks and sessions.

- :mod:`~companion.game.events`: one frozen dataclass per thing that happens, JSON lines with a schema version.
- :mod:`~companion.game.wall`: 72 stacks, the break, the live and replacement ends, the kept-back tiles.
- :mod:`~companion.game.check` / :mod:`~companion.game.evolve`: ``check`` refuses with a reason (zh/en) and
  evidence, ``evolve`` never fails, ``replay`` rebuilds any state; ``step`` = check + evolve.
- :mod:`~companion.game.view`: what each seat may see, unseen copies per kind, the table printout.
- :mod:`~companion.game.session`: the ledger, money per player, fewest transfers, CSV/JSON.
- :mod:`~companion.game.service`: :class:`TableService`, the single writer of a table's SQLite log.
- :mod:`~companion.game.simulator`: bots that play legal hands from a seed.

Readings where the spec and the seed texts leave the procedure open (the default's; a rules review listed them):

- Under ``reserve_rule = plus_one_per_kong`` a kong with one live tile left is refused: the tile it keeps back
  would leave none to replace it with (§2.7 bars only a kong after the last tile).
- A flower drawn as a discard kong's replacement keeps the replacement a discard kong's: under
  ``discard_kong_replacement_win = forbidden`` no win on the flower's replacement either; under ``kong_bloom`` it
  scores 槓上開花 (§2.6 and §2.10 meet there, and seed 000 says both).
- The discarder's own false win (詐胡) under ``false_win_after = void_hand`` ends the hand: nobody wins on his
  discard. The hand played again counts as the next hand of the round.
- ``multi_win = three_is_draw``: three wins on one discard end the hand as an exhaustive draw (流局): no money
  moves, and the deal follows ``draw_keeps_deal``.
- Replacement tiles come from stack 72 backwards, as the spec and seed 003 say (seed 000's "clockwise" reads the
  other way).
"""

from companion.game.check import IllegalEvent, check, replay, step
from companion.game.evolve import evolve
from companion.game.service import Accepted, Choice, Question, Refused, TableService
from companion.game.state import Phase, TableState
from companion.game.switches import Switches
from companion.game.text import Msg

__all__ = ["Accepted", "Choice", "IllegalEvent", "Msg", "Phase", "Question", "Refused", "Switches", "TableService",
           "TableState", "check", "evolve", "replay", "step"]
