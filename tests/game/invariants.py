"""Invariants every table state must hold (used by the simulator, scenario and stateful tests)."""

from __future__ import annotations

from companion.game.state import Phase, TableState
from companion.tiles import Tile


def zone_counts(state: TableState) -> tuple[int, list[int]]:
    """(tiles outside the wall, known copies per face) from the zones themselves."""
    total = 0
    known = [0] * 43
    for st in state.seats:
        for i, k in enumerate(st.concealed):
            total += k
            if i != Tile.UNKNOWN:
                known[i] += k
        for m in st.melds:
            for t in m.tiles:
                total += 1
                known[t] += 1
        for t in st.flowers + st.discards:
            total += 1
            known[t] += 1
    known[Tile.UNKNOWN] = 0
    return total, known


def check_invariants(state: TableState) -> None:
    if state.wall is None or state.phase in (Phase.SEATING, Phase.DEALER, Phase.DICE, Phase.DEAL):
        return
    outside, known = zone_counts(state)
    # 144 tiles conserved across the wall, hands, melds, discards and flowers
    assert state.wall.count + outside == 144, (state.wall.count, outside)
    # no fifth copy, and the running count agrees with the zones
    for i in range(42):
        assert known[i] <= Tile(i).max_copies, f"{Tile(i).code}: {known[i]} copies"
    assert list(state.known[:42]) == known[:42]
    # hand sizes (structural: concealed + 3 per meld)
    if state.phase in (Phase.ACT, Phase.CLAIM, Phase.REPLACE, Phase.ROB):
        for s, st in enumerate(state.seats):
            want = 17 if state.phase is Phase.ACT and s == state.turn else 16
            assert st.size == want, (s, st.size, want, state.phase)
    assert state.wall.live >= -8  # an owed flower replacement may dip below the reserve, never far
