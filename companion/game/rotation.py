"""Dealer continuation, 連莊 count, rotation, round wind and the end of 一將 (spec §2.14), and how
several claimants on one tile resolve under ``multi_win`` (§2.9)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.game.state import Outcome, OutcomeKind, WinRecord, offset
from companion.game.switches import MultiWin, Switches
from companion.rules.win import counted_streak

__all__ = ["NextDeal", "next_deal", "capped_streak", "resolve_claimants"]


@dataclass(frozen=True, slots=True)
class NextDeal:
    dealer: int
    streak: int
    round_wind: int  # 0-3; 4 means the session is over
    hand_in_round: int

    @property
    def session_over(self) -> bool:
        return self.round_wind >= 4


def resolve_claimants(claimants: tuple[WinRecord, ...], giver: int, switches: Switches) -> Outcome:
    """Winners among the players who declared a win on one discard or robbed kong (``giver``'s tile)."""
    ordered = tuple(sorted(claimants, key=lambda w: offset(w.seat, giver)))
    rule = switches.multi_win
    n = len(ordered)
    if rule is MultiWin.ALL or (rule is MultiWin.NEAREST_UNLESS_THREE and n == 3):
        winners = ordered
    elif rule is MultiWin.THREE_IS_DRAW and n == 3:
        return Outcome(OutcomeKind.DRAW, (), ordered)
    else:
        winners = ordered[:1]
    kind = OutcomeKind.MULTI_WIN if len(winners) > 1 else OutcomeKind.WIN
    return Outcome(kind, winners, ordered)


def capped_streak(streak: int, switches: Switches) -> int:
    """N as ``switches`` count it: a streak cap lowered between hands counts from the next hand on."""
    return counted_streak(streak, switches.streak_cap)


def next_deal(dealer: int, streak: int, round_wind: int, hand_in_round: int, first_dealer: int,
              outcome: Outcome, switches: Switches) -> NextDeal:
    """The next hand's dealer, N and round wind, derived from the result (never typed in)."""
    keep = NextDeal(dealer, capped_streak(streak + 1, switches), round_wind, hand_in_round + 1)
    if outcome.kind is OutcomeKind.FALSE_WIN:
        return NextDeal(dealer, streak, round_wind, hand_in_round + 1)
    if outcome.kind in (OutcomeKind.DRAW, OutcomeKind.DECLINED):
        if switches.draw_keeps_deal:
            return keep
        return _pass_deal(dealer, round_wind, hand_in_round, first_dealer)
    if any(w.seat == dealer for w in outcome.winners):
        return keep
    return _pass_deal(dealer, round_wind, hand_in_round, first_dealer)


def _pass_deal(dealer: int, round_wind: int, hand_in_round: int, first_dealer: int) -> NextDeal:
    new = (dealer + 1) % 4
    if new == first_dealer:
        return NextDeal(new, 0, round_wind + 1, 1)
    return NextDeal(new, 0, round_wind, hand_in_round + 1)
