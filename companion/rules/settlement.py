"""Settlement (spec §6): who pays whom, dealer tai per payment, cap before dealer tai, money from 底/台.

>>> from companion.rules.win import Win
>>> from companion.rules.scoring import score
>>> w = Win.of("678m777s12m55p", "3m", "self_draw", melds=["pung:222z@O", "chow:345p@L"], flowers="27f",
...            seat_wind="S", round_wind="E", dealer="E", streak=1)
>>> [(wind_letter(p.payer), p.tai, p.amount) for p in settle(score(w), w, Stakes(30, 10)).payments]
[('W', 4, 70), ('N', 4, 70), ('E', 7, 100)]

One payment = 底 + 台 × tai, nothing doubled (§6.1). The hand tai is capped by ``tai_cap`` first; dealer
tai D is then added to each payment whose winner or payer is the dealer, and to no other (§6.2, §6.4).
Seats are the seat winds 東南西北 (``Tile.Z1``-``Tile.Z4``); turn order runs 東 → 南 → 西 → 北.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.rules.profiles import Profile, load_profile
from companion.rules.said import json_said
from companion.rules.scoring import Score, dealer_tai
from companion.rules.win import WINDS, Win, WinInputError, wind_letter
from companion.tiles import Tile

__all__ = ["Payment", "Settlement", "Stakes", "settle", "settle_false_win", "wind_letter"]

FALSE_WIN_TAI = 8
"""The tai of the default 詐胡 penalty (spec §6.6), and of ``limit`` when there is no cap."""


STAKE_MAX = 10_000_000
"""The most 底 or 台 a table plays for: more is a slip of the finger (a review seated 10^26 without a word)."""


@dataclass(frozen=True, slots=True)
class Stakes:
    """底 (base) and 台 (per tai), e.g. 30/10."""

    base: int
    per_tai: int

    def __post_init__(self) -> None:
        for name in ("base", "per_tai"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                got, got_zh = json_said(v)  # (it said "收到 True" for true: a review)
                raise WinInputError(f"stakes.{name}", f"expected an integer >= 0, got {got}",
                                    f"{'底' if name == 'base' else '每台'}要是 0 以上的整數，收到 {got_zh}")

    def amount(self, tai: int) -> int:
        return self.base + self.per_tai * tai

    @classmethod
    def from_dict(cls, obj: Any) -> Stakes:
        if not isinstance(obj, Mapping) or set(obj) - {"base", "per_tai"} or not {"base", "per_tai"} <= set(obj):
            got, got_zh = json_said(obj)
            if isinstance(obj, Mapping):  # its keys named as JSON writes them (it said "got {'base': 30, …}": a review)
                keys = [json.dumps(str(k), ensure_ascii=False) for k in obj]
                got = f"an object with the keys {', '.join(keys)}" if keys else "an empty object {}"
                got_zh = f"鍵為 {'、'.join(keys)} 的物件" if keys else "空的物件 {}"
            raise WinInputError("stakes", f'expected {{"base": 30, "per_tai": 10}}, got {got}',
                                f'要寫成 {{"base": 30, "per_tai": 10}}（底 30、每台 10），收到 {got_zh}')
        return cls(obj["base"], obj["per_tai"]).typed("stakes")

    @classmethod
    def parse(cls, text: str, field: str) -> Stakes:
        """底/台 as a player types them, e.g. ``30/10``, the full-width slash and digits too (the app writes the
        stakes 底 30／台 10 and a Chinese keyboard types them so: a settlement review was refused "30／10"); a
        WinInputError naming ``field`` when ``text`` is not that, or the stakes are too large (:meth:`typed`)."""
        base, sep, per = text.replace("／", "/").partition("/")
        if not sep or not base.strip().isdecimal() or not per.strip().isdecimal():  # (isdigit passed ² to int)
            raise WinInputError(field, f"expected base/per tai such as 30/10, got “{text}”",
                                f"要寫成 底／台，例如 30／10，收到「{text}」")  # (one slash: a review)
        try:
            stakes = cls(int(base), int(per))
        except ValueError:  # more digits than Python reads (4300)
            raise WinInputError(field, f"a number too long to read in “{text[:40]}”…",
                                f"數字太長，無法讀取：「{text[:40]}」…") from None
        return stakes.typed(field)

    def typed(self, field: str) -> Stakes:
        """These stakes, as typed in ``field``: refused over :data:`STAKE_MAX`, as a table refuses them (a review
        scored 10^30 a tai unsaid)."""
        if max(self.base, self.per_tai) > STAKE_MAX:
            raise WinInputError(field, f"{self.base}/{self.per_tai} is too large (at most {STAKE_MAX:,})",
                                f"底或台太大：{self.base}／{self.per_tai}（最多 {STAKE_MAX:,}）")
        return self


@dataclass(frozen=True, slots=True)
class Payment:
    """``payer`` pays ``payee`` 底 + 台 × ``tai``; ``tai`` includes ``dealer_tai`` (0 unless the dealer is in it)."""

    payer: Tile
    payee: Tile
    tai: int
    dealer_tai: int
    amount: int | None

    def to_dict(self) -> dict[str, Any]:
        return {"payer": wind_letter(self.payer), "payee": wind_letter(self.payee), "tai": self.tai,
                "dealer_tai": self.dealer_tai, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class Settlement:
    """The payments of one winner (or of one 詐胡 offender: then he is every payment's payer)."""

    payments: tuple[Payment, ...]
    hand_tai: int  # after the cap
    false_win: bool = False

    def received(self, seat: Tile) -> int:
        """Net money for ``seat`` (negative: it pays); needs stakes."""
        total = 0
        for p in self.payments:
            amount = p.amount or 0
            total += amount if p.payee == seat else -amount if p.payer == seat else 0
        return total

    @property
    def dealer_tai_paid(self) -> int:
        """The dealer tai these payments carry (0 unless the dealer wins or pays: spec §4.1)."""
        return max((p.dealer_tai for p in self.payments), default=0)

    @property
    def total(self) -> int | None:
        """What the winner collects (or the offender pays) in all; ``None`` without stakes."""
        if any(p.amount is None for p in self.payments):
            return None
        return sum(p.amount or 0 for p in self.payments)

    def to_dict(self) -> dict[str, Any]:
        return {"payments": [p.to_dict() for p in self.payments], "total": self.total}


def _others(seat: Tile) -> tuple[Tile, ...]:
    """The other three seats in turn order, starting with ``seat``'s 下家."""
    i = WINDS.index(seat)
    return tuple(WINDS[(i + k) % 4] for k in (1, 2, 3))


def settle(score: Score, win: Win | None = None, stakes: Stakes | None = None) -> Settlement:
    """The payments for one winner (spec §6.2, §6.3). ``win`` defaults to ``score.win``; without
    ``stakes`` the amounts are ``None`` and only the tai per payment is given."""
    w = win if win is not None else score.win
    if w.win_type.one_payer:
        assert w.discarder is not None  # checked by Win
        payers: tuple[Tile, ...] = (w.discarder,)
    else:
        payers = _others(w.seat_wind)
    t = score.capped_tai
    payments = []
    for payer in payers:
        d = score.dealer_tai if w.dealer in (payer, w.seat_wind) else 0
        amount = stakes.amount(t + d) if stakes else None
        payments.append(Payment(payer, w.seat_wind, t + d, d, amount))
    return Settlement(tuple(payments), t)


def settle_false_win(win: Win, stakes: Stakes | None = None, profile: Profile | str | None = None,
                     claimed_tai: int | None = None) -> Settlement:
    """The 詐胡 penalty (spec §6.6) paid by ``win.seat_wind`` under switch ``false_win_penalty``.

    ``fixed8_plus_dealer``: 底 + 台 × 8 to each other player, plus D between the offender and the dealer.
    ``claimed_tai``: the same with the tai claimed (8 when the claim had no score; D likewise, and the tai as
    claimed, not capped: a reading, §6.6 says neither).
    ``limit``: one limit payment (底 + 台 × ``tai_cap``, or × 8) split among the three, remainders going
    to the first in turn order. ``none``: no payment.
    """
    if claimed_tai is not None and (isinstance(claimed_tai, bool) or not isinstance(claimed_tai, int)
                                    or claimed_tai < 0):
        got, got_zh = json_said(claimed_tai)  # (it said Python's None and 'x': a change review)
        raise WinInputError("claimed_tai", f"expected an integer >= 0 or null (no value), got {got}",
                            f"宣稱的台數要是 0 以上的整數或 null（空值），收到 {got_zh}")
    prof = load_profile(profile if profile is not None else win.profile)
    rule = prof.switch("false_win_penalty")
    offender = win.seat_wind
    d_tai = dealer_tai(win, prof)
    if rule == "none":
        return Settlement((), 0, True)
    if rule == "limit":
        cap = prof.switch("tai_cap")
        tai = FALSE_WIN_TAI if cap == "none" else int(cap)
        shares = _split3(stakes.amount(tai)) if stakes else (None, None, None)
        return Settlement(tuple(Payment(offender, p, tai, 0, s) for p, s in zip(_others(offender), shares,
                                                                                 strict=True)), tai, True)
    tai = FALSE_WIN_TAI if rule == "fixed8_plus_dealer" or claimed_tai is None else claimed_tai
    payments = []
    for payee in _others(offender):
        d = d_tai if win.dealer in (payee, offender) else 0
        payments.append(Payment(offender, payee, tai + d, d, stakes.amount(tai + d) if stakes else None))
    return Settlement(tuple(payments), tai, True)


def _split3(amount: int) -> tuple[int | None, ...]:
    q, r = divmod(amount, 3)
    return tuple(q + (1 if k < r else 0) for k in range(3))
