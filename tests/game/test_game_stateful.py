"""A hypothesis state machine: bots make random legal moves (every one must be accepted) and the
illegal generators below must each be refused with a reason, leaving the state untouched."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import seed, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from invariants import check_invariants

from companion.game import events as ev
from companion.game.check import step
from companion.game.simulator import Simulator
from companion.game.state import ActKind, Phase, TableState, next_seat
from companion.game.text import IllegalEvent
from companion.game.winning import completes
from companion.tiles import Tile


class Table(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.sim = Simulator(seed=0)
        self.refusals: dict[str, int] = {}

    @property
    def state(self) -> TableState:
        return self.sim.state

    def refuse(self, event: ev.Event) -> None:
        before = self.state
        try:
            step(before, event)
        except IllegalEvent as e:
            assert e.reason.zh and e.reason.en and e.reason.key
            self.refusals[e.reason.key] = self.refusals.get(e.reason.key, 0) + 1
        else:
            raise AssertionError(f"illegal event accepted: {event}")
        assert self.state is before

    # --- legal play -------------------------------------------------------------------------------

    @rule(seed=st.integers(0, 2**32 - 1), ticks=st.integers(1, 40))
    def play(self, seed: int, ticks: int) -> None:
        """Up to ``ticks`` bot decisions (a new hand starts after a finished one)."""
        self.sim.rng = random.Random(seed)
        if self.state.phase in (Phase.SEATING, Phase.HAND_OVER):
            self.sim.begin_hand()
            return
        for _ in range(ticks):
            self.sim.tick()
            if self.state.phase is Phase.HAND_OVER or self._winners_on_offer():
                return  # let the other rules see a finished hand or a winnable discard

    def _winners_on_offer(self) -> list[int]:
        s = self.state
        if s.phase is not Phase.CLAIM or s.claim_rank or s.offer is None:
            return []
        return [x for x in range(4) if x != s.turn and not s.seats[x].barred and not s.seats[x].dead
                and completes(s.seats[x].concealed, s.seats[x].melds, s.offer)]

    @precondition(lambda self: self.state.phase not in (Phase.SEATING, Phase.HAND_OVER))
    @rule(seed=st.integers(0, 2**32 - 1))
    def play_to_the_last_tile(self, seed: int) -> None:
        self.sim.rng = random.Random(seed)
        for _ in range(400):
            if self.state.phase is Phase.HAND_OVER:
                return
            if self.state.last_tile_drawn and self.state.phase is Phase.ACT:
                self.kong_after_the_last_tile()  # whichever rule hypothesis draws next
                return
            self.sim.tick()

    @precondition(lambda self: self.state.phase is Phase.CLAIM and self.state.claim_rank == 0)
    @rule(data=st.data())
    def pass_then_try_to_win(self, data: st.DataObject) -> None:
        s = self.state
        assert s.offer is not None
        can = self._winners_on_offer()
        if not can:
            return
        seat = data.draw(st.sampled_from(can))
        self.sim.emit(ev.PassedWin(seat=seat, tile=s.offer))
        self.refuse(ev.Won(seat=seat, kind=ev.WinKind.DISCARD, tile=s.offer,
                           concealed=self.state.seats[seat].concealed_tiles))

    # --- illegal generators -----------------------------------------------------------------------

    @precondition(lambda self: self.state.phase is Phase.CLAIM)
    @rule(data=st.data())
    def fifth_copy(self, data: st.DataObject) -> None:
        full = [Tile(i) for i in range(42) if self.state.known[i] >= Tile(i).max_copies]
        if full:
            tile = data.draw(st.sampled_from(full))
            self.refuse(ev.Drew(seat=next_seat(self.state.turn), tile=tile))

    @precondition(lambda self: self.state.phase in (Phase.CLAIM, Phase.ACT))
    @rule(offset=st.integers(1, 3), tile=st.sampled_from(list(Tile)[:34]))
    def wrong_turn(self, offset: int, tile: Tile) -> None:
        s = self.state
        if s.phase is Phase.CLAIM:
            self.refuse(ev.Drew(seat=(next_seat(s.turn) + offset) % 4, tile=Tile.UNKNOWN))
        else:
            self.refuse(ev.Discarded(seat=(s.turn + offset) % 4, tile=tile))

    @precondition(lambda self: self.state.phase is Phase.CLAIM and self.state.offer is not None
                  and self.state.offer.is_suited and self.state.offer.rank <= 7)
    @rule(offset=st.integers(2, 3))
    def chow_not_from_the_left(self, offset: int) -> None:
        s = self.state
        assert s.offer is not None
        self.refuse(ev.Chowed(seat=(s.turn + offset) % 4, tiles=(Tile(s.offer + 1), Tile(s.offer + 2)),
                              tile=s.offer))

    @precondition(lambda self: self.state.phase is Phase.ACT and self.state.act is ActKind.DRAWN)
    @rule(offset=st.integers(1, 3))
    def claim_after_its_window(self, offset: int) -> None:
        s = self.state
        prev = (s.turn - 1) % 4
        river = s.seats[prev].discards
        if river:
            self.refuse(ev.Punged(seat=(prev + offset) % 4, tile=river[-1]))

    @precondition(lambda self: self.state.phase is Phase.ACT and self.state.last_tile_drawn)
    @rule()
    def kong_after_the_last_tile(self) -> None:
        s = self.state
        hand = [t for t in s.seats[s.turn].concealed_tiles if not t.is_flower]
        self.refuse(ev.ConcealedKong(seat=s.turn, tile=hand[0]))
        self.refuse(ev.ConcealedKong(seat=s.turn, tile=Tile.UNKNOWN))

    @precondition(lambda self: self.state.phase is Phase.CLAIM and self.state.claim_rank == 0)
    @rule(offset=st.integers(1, 3))
    def win_without_shape(self, offset: int) -> None:
        s = self.state
        seat = (s.turn + offset) % 4
        st_ = s.seats[seat]
        assert s.offer is not None
        if not completes(st_.concealed, st_.melds, s.offer):
            self.refuse(ev.Won(seat=seat, kind=ev.WinKind.DISCARD, tile=s.offer, concealed=st_.concealed_tiles))

    @invariant()
    def invariants_hold(self) -> None:
        check_invariants(self.state)


SEEN: Counter[str] = Counter()
REQUIRED = {"fifth_copy", "not_turn", "chow_left", "window_closed", "last_tile_kong", "barred", "not_complete"}


# A seed of its own: derandomized, the run's examples still came out differently when the whole suite was collected
# than when this file ran alone (the same within one process), so whether a winnable discard ever came up for the
# 'barred' generator hung on the other test files (it failed in full runs only). Seeds 0-5 each fire
# every generator; 4 fires 'barred' most (28 refusals).
@seed(4)
class CountingTable(Table):
    def teardown(self) -> None:
        SEEN.update(self.refusals)


def test_random_legal_and_illegal_events() -> None:
    """Every legal event accepted, every illegal one refused with a reason; each generator fired."""
    SEEN.clear()
    run_state_machine_as_test(CountingTable, settings=settings(max_examples=40, stateful_step_count=50,
                                                               deadline=None))
    missing = REQUIRED - set(SEEN)
    assert not missing, f"illegal generators never refused: {missing} (seen {dict(SEEN)})"
