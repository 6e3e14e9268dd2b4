"""The Ledger tab's model: the tracker's ledger up to a step, the balances, and the fewest payments."""

from __future__ import annotations

from companion.app.ledger_model import ledger_panel
from companion.app.table_model import GameReplay
from companion.game.session import ledger_of


def test_the_ledger_grows_a_row_at_each_hand_end_and_settles_to_zero() -> None:
    replay = GameReplay.demo()
    assert ledger_panel(replay.states[0]) is None
    ends = replay.hand_ends()
    for n, end in enumerate(ends, 1):
        before, at = ledger_panel(replay.states[end - 1]), ledger_panel(replay.states[end])
        assert before is not None and at is not None
        assert len(before.rows) == n - 1 and len(at.rows) == n
        ledger = ledger_of(replay.states[end])
        assert at.balances == tuple(ledger.balances.items())
        assert sum(v for _, v in at.balances) == 0
        owed = dict(at.balances)
        for t in ledger.settle_up():  # the payments shown settle every balance
            owed[t.payer] += t.amount
            owed[t.payee] -= t.amount
        assert set(owed.values()) <= {0}
        assert [w.en for w in at.settle_up] == [f"{t.payer} pays {t.payee} {t.amount}" for t in ledger.settle_up()]
        row = at.rows[-1]
        assert row.number == n and row.balances == ledger.entries[-1].balances
        assert [w.en.split(":")[0] for w in row.lines] == [x.player for x in ledger.entries[-1].lines]
