"""改正胡牌 (``WinCorrected``, spec §6.7): a winner's shown tiles put right after the hand; the ledger works that
hand out again and every later balance with it. Checked against brute force: every one-tile change of a recorded
winning hand that still completes is accepted and settled as if it had been entered so; the rest are refused."""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.game import events as ev
from companion.game.check import replay, step
from companion.game.evolve import finish_hand, win_hand
from companion.game.session import ledger_of, settle_hand, table_profile
from companion.game.simulator import simulate
from companion.game.state import TableState
from companion.game.text import IllegalEvent
from companion.game.winning import completes
from companion.rules.profiles import load_profile
from companion.tiles import NUM_KINDS, Tile


def _session(seed: int, hands: int = 8) -> TableState:
    log, _ = simulate(seed, hands)
    seatings = [i for i, e in enumerate(log) if isinstance(e, ev.Seated)]
    return replay(log[:seatings[1]] if len(seatings) > 1 else log)


def _alternatives(state: TableState, number: int, seat: int) -> list[tuple[Tile, ...]]:
    """Every concealed part one tile away from the recorded one that completes with the winner's melds and tile
    and shows no fifth copy beside what the table saw (brute force over the 34 faces)."""
    result = state.results[number - 1]
    rec = next(w for w in result.outcome.winners if w.seat == seat)
    assert rec.tile is not None and result.known is not None
    seen = list(result.known)
    for t in win_hand(rec):
        seen[t] -= 1
    out = []
    for i, old in enumerate(rec.concealed):
        for face in range(34):
            if face == old:
                continue
            new = rec.concealed[:i] + (Tile(face),) + rec.concealed[i + 1:]
            counts = [0] * NUM_KINDS
            for t in new:
                counts[t] += 1
            shown = list(seen)
            for t in (*new, *((rec.tile,) if rec.kind is ev.WinKind.SELF_DRAW else ())):
                shown[t] += 1
            own = list(counts)
            for t in (rec.tile, *(t for m in rec.melds for t in m.tiles)):
                own[t] += 1
            if all(k <= 4 for k in shown[:34]) and all(k <= 4 for k in own[:34]) and \
                    completes(tuple(counts), rec.melds, rec.tile):
                out.append(new)
    return out


@pytest.mark.parametrize("seed", [0, 3, 8])
def test_a_corrected_win_is_settled_as_if_entered_so_and_later_balances_follow(seed: int) -> None:
    state = finish_hand(_session(seed))
    prof = table_profile(load_profile(state.profile or None), state.switches)
    tried = 0
    for result in state.results[:-1]:  # a hand with hands after it
        for rec in result.outcome.winners:
            if rec.tile is None or rec.kind not in (ev.WinKind.DISCARD, ev.WinKind.SELF_DRAW):
                continue
            for new in _alternatives(state, result.number, rec.seat)[:3]:
                fix = ev.WinCorrected(seat=rec.seat, hand=result.number, concealed=new)
                try:
                    fixed = step(state, fix)
                except IllegalEvent as bad:
                    assert bad.reason.key == "fix_below_min", bad  # a correction that is no win is refused
                    continue
                tried += 1
                before, after = ledger_of(state), ledger_of(fixed)
                k = result.number - 1
                # the corrected hand: what settling it as entered with the new tiles gives
                as_entered = replace(result, outcome=replace(result.outcome, winners=tuple(
                    replace(w, concealed=new) if w.seat == rec.seat else w for w in result.outcome.winners)))
                lines, transfers = settle_hand(as_entered, prof, before.stakes_of(before.entries[k]))
                assert list(after.entries[k].transfers) == transfers
                assert [x.items for x in after.entries[k].lines] == [x.items for x in lines]
                # every later hand pays as before; the balances carry the difference on
                delta = {p: a - b for (p, a), (_, b) in zip(after.entries[k].balances, before.entries[k].balances,
                                                            strict=True)}
                for b_e, a_e in zip(before.entries[k + 1:], after.entries[k + 1:], strict=True):
                    assert a_e.transfers == b_e.transfers and a_e.next == b_e.next
                    assert dict(a_e.balances) == {p: v + delta.get(p, 0) for p, v in b_e.balances}
                back = step(fixed, ev.Retracted(target=fixed.last_index))  # undo takes it back
                assert ledger_of(back).balances == before.balances
    assert tried >= 3


def test_a_correction_is_refused_where_it_cannot_be() -> None:
    state = finish_hand(_session(8))
    result = next(r for r in state.results if r.outcome.winners and r.outcome.winners[0].tile is not None)
    rec = result.outcome.winners[0]
    loser = next(s for s in range(4) if s not in {w.seat for w in result.outcome.winners})
    cases = [
        (ev.WinCorrected(seat=rec.seat, hand=99, concealed=rec.concealed), "fix_no_hand"),
        (ev.WinCorrected(seat=loser, hand=result.number, concealed=rec.concealed), "fix_not_winner"),
        (ev.WinCorrected(seat=rec.seat, hand=result.number, concealed=tuple(reversed(rec.concealed))), "fix_same"),
        (ev.WinCorrected(seat=rec.seat, hand=result.number, concealed=rec.concealed[1:]), "fix_size"),
        (ev.WinCorrected(seat=rec.seat, hand=result.number, concealed=rec.concealed[:-1] + (Tile.UNKNOWN,)),
         "fix_unknown"),
    ]
    if rec.kind is ev.WinKind.DISCARD:
        other = Tile((int(rec.tile) + 1) % 27) if rec.tile is not None else Tile(0)
        cases.append((ev.WinCorrected(seat=rec.seat, hand=result.number, concealed=rec.concealed, tile=other),
                      "fix_discard_tile"))
    for event, key in cases:
        with pytest.raises(IllegalEvent) as bad:
            step(state, event)
        assert bad.value.reason.key == key, (key, bad.value)
        assert bad.value.reason.zh and bad.value.reason.en
    # a hand that does not complete
    broken = (Tile(0),) * 3 + rec.concealed[3:]
    if sorted(broken) != sorted(rec.concealed):
        with pytest.raises(IllegalEvent) as bad:
            step(state, ev.WinCorrected(seat=rec.seat, hand=result.number, concealed=broken))
        assert bad.value.reason.key in ("not_complete", "fifth_copy")
    assert ev.from_dict(ev.to_dict(cases[0][0])) == cases[0][0]
