"""Hand history for teaching: the passed wins (過水) a log shows once the hands are known (§2.12)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.game import events as ev
from companion.game.check import stored_step
from companion.game.state import Phase, TableState
from companion.game.winning import completes
from companion.tiles import Tile

__all__ = ["PassedChance", "passed_wins"]


@dataclass(frozen=True, slots=True)
class PassedChance:
    """At log position ``index`` ``seat`` could have won on ``tile`` (given by ``giver``) and did not."""

    index: int
    seat: int
    giver: int
    tile: Tile
    robbed_kong: bool
    declared: bool  # the log holds the PassedWin (過水) event for it
    ready: bool = False  # he had declared ready, and so might not pass it (§2.11: the tracker flags it)


def passed_wins(events: Iterable[ev.Event]) -> list[PassedChance]:
    """Every win passed up on a discard or an added kong by a seat whose hand the log knows."""
    out: list[PassedChance] = []
    state = TableState()
    window: tuple[int, TableState] | None = None  # (index of the offer, state at the offer)
    claimed: set[int] = set()
    declared: set[int] = set()
    for i, e in enumerate(events):
        if isinstance(e, ev.Retracted):
            state = stored_step(state, e)
            if state.phase not in (Phase.CLAIM, Phase.ROB) or state.claim_rank:
                window = None  # the offer itself was withdrawn
            continue
        if window is not None and not _same_window(e):
            out += _missed(window, claimed, declared)
            window = None
        state = stored_step(state, e)
        if isinstance(e, ev.Won):
            claimed.add(e.seat)
        elif isinstance(e, ev.PassedWin):
            declared.add(e.seat)
        if state.phase in (Phase.CLAIM, Phase.ROB) and isinstance(e, ev.Discarded | ev.AddedKong):
            window, claimed, declared = (i, state), set(), set()
    if window is not None:
        out += _missed(window, claimed, declared)
    return out


def _same_window(e: ev.Event) -> bool:
    """Events that may come while the tile is still on offer."""
    return isinstance(e, ev.Won | ev.PassedWin | ev.Chowed | ev.Punged | ev.ExposedKong | ev.HandKnown | ev.FalseWin
                      | ev.StakesChanged | ev.WinCorrected)  # (the last two: between two winners on the tile)


def _missed(window: tuple[int, TableState], claimed: set[int], declared: set[int]) -> list[PassedChance]:
    index, s = window
    tile = s.offer
    assert tile is not None
    found = []
    for seat in range(4):
        st = s.seats[seat]
        if seat == s.turn or seat in claimed or not st.fully_known or st.barred or st.dead or st.no_win:
            continue
        if completes(st.concealed, st.melds, tile):
            found.append(PassedChance(index, seat, s.turn, tile, s.phase is Phase.ROB, seat in declared,
                                      st.ready is not None))
    return found
