"""The Ledger tab's model: every finished hand of the session so far, the running balances, who pays whom.

Plain Python (no flet), on the tracker's own ledger (:func:`companion.game.session.ledger_of`: scoring and
settlement by the rules, never here): one row per hand (the round, the dealer and his streak, the result, each
winner's tai, the payments), the balances after it, and the balances netted into the fewest payments.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.app.words import Words, ui
from companion.game import events as ev
from companion.game.session import ledger_of
from companion.game.state import TableState
from companion.game.text import WIND_EN, WIND_ZH

__all__ = ["LedgerRow", "LedgerPanel", "ledger_panel"]


@dataclass(frozen=True, slots=True)
class LedgerRow:
    number: int
    setting: Words  # round, dealer, streak
    result: Words
    lines: tuple[Words, ...]  # each winner (or false win) and the tai
    transfers: tuple[Words, ...]
    balances: tuple[tuple[str, int], ...]  # after this hand


@dataclass(frozen=True, slots=True)
class LedgerPanel:
    players: tuple[str, ...]
    stakes: Words
    rows: tuple[LedgerRow, ...]
    balances: tuple[tuple[str, int], ...]
    settle_up: tuple[Words, ...]


def _kind(code: str) -> Words:
    kind = next((k for k in ev.WinKind if k.value == code), None)
    return Words(kind.zh, kind.en) if kind is not None else ui("false_win")


def ledger_panel(state: TableState) -> LedgerPanel | None:
    """The ledger of the session at ``state`` (the hand just finished included); None before anyone is seated."""
    if not state.players:
        return None
    ledger = ledger_of(state)
    rows = []
    for entry in ledger.entries:
        r = entry.result
        w = min(r.round_wind, 3)
        setting = ui("ledger_setting", round=WIND_ZH[w], round_en=WIND_EN[w], dealer=r.players[r.dealer],
                     streak=r.streak)
        lines = tuple(ui("ledger_line", player=x.player, kind=_kind(x.kind).zh, kind_en=_kind(x.kind).en,
                         tai=x.capped_tai) for x in entry.lines)
        transfers = tuple(ui("pays", payer=t.payer, payee=t.payee, amount=t.amount) for t in entry.transfers)
        rows.append(LedgerRow(r.number, setting, Words(r.outcome.kind.zh, r.outcome.kind.en), lines, transfers,
                              entry.balances))
    settle = tuple(ui("pays", payer=t.payer, payee=t.payee, amount=t.amount) for t in ledger.settle_up())
    stakes = ui("ledger_stakes", base=ledger.stakes.base, per_tai=ledger.stakes.per_tai, profile=ledger.profile)
    return LedgerPanel(ledger.players, stakes, tuple(rows), tuple(ledger.balances.items()), settle)
