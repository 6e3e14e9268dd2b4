"""Settlement (spec §6): payers, dealer tai per payment, cap before D, stakes, the 詐胡 penalty."""

from __future__ import annotations

import pytest

from companion.rules.profiles import Profile, parse_profile
from companion.rules.scoring import FalseWin, score
from companion.rules.settlement import Stakes, settle, settle_false_win
from companion.rules.win import WINDS, Win, WinInputError
from companion.tiles import Tile

E, S, W, N = WINDS


def _discard_kong_win(seat: str, dealer: str = "E", streak: int = 1) -> Win:
    from companion.rules.win import Replacement

    return Win.of("123m456p789s23s55z", "4s", "self_draw", melds=["kong:9999m@O"], seat_wind=seat,
                  round_wind="E", dealer=dealer, streak=streak, replacement=Replacement.KONG)


def _house(**switches: object) -> Profile:
    return parse_profile({"id": "t", "inherits": "atawmj_2009", "switches": switches}, "test")


def test_false_win_penalty_example_of_the_spec() -> None:
    """§6.6: 30/10, a non-dealer offender, N = 1: the dealer gets 140, each non-dealer 110, 360 in all."""
    win = _discard_kong_win("S")
    with pytest.raises(FalseWin):
        score(win)
    st = settle_false_win(win, Stakes(30, 10))
    assert st.false_win and st.total == 360
    assert {p.payee: p.amount for p in st.payments} == {W: 110, N: 110, E: 140}
    assert st.received(S) == -360 and sum(st.received(x) for x in WINDS) == 0


def test_false_win_by_the_dealer_pays_dealer_tai_to_everyone() -> None:
    st = settle_false_win(_discard_kong_win("E"), Stakes(30, 10))
    assert [p.amount for p in st.payments] == [140, 140, 140] and st.received(E) == -420


def test_false_win_limit_is_split_among_the_three() -> None:
    """§6.6 ``limit``: 底 + 台 × tai_cap (16 here) = 190, split 64/63/63 in turn order."""
    st = settle_false_win(_discard_kong_win("W"), Stakes(30, 10), _house(false_win_penalty="limit", tai_cap=16))
    assert [(p.payee, p.amount) for p in st.payments] == [(N, 64), (E, 63), (S, 63)]
    assert st.total == 190


def test_without_stakes_only_tai() -> None:
    win = Win.of("123m456m234p678p45s88s", "3s", "discard", seat_wind="W", round_wind="S", discarder="E")
    st = settle(score(win), win)
    assert [(p.payer, p.tai, p.dealer_tai, p.amount) for p in st.payments] == [(E, 4, 1, None)]
    assert st.total is None


def test_several_winners_on_one_discard_are_settled_separately() -> None:
    """§6.3: each winner with the discarder; dealer tai in each payment that involves the dealer."""
    a = Win.of("123m456m234p678p45s88s", "3s", "discard", seat_wind="E", round_wind="E", discarder="S",
               dealer="E", streak=2)
    b = Win.of("123p456p789p12s66z", "3s", "discard", melds=["pung:555z@R"], seat_wind="W", round_wind="E",
               discarder="S", dealer="E", streak=2)
    pays = [settle(score(w), w, Stakes(100, 20)).payments[0] for w in (a, b)]
    assert [(p.payer, p.payee, p.dealer_tai) for p in pays] == [(S, E, 5), (S, W, 0)]
    assert pays[0].amount == 100 + 20 * (3 + 5)  # 門清 + 平胡, dealer tai 1 + 2×2


def test_cap_applies_before_dealer_tai() -> None:
    """§6.4: cap first (24 -> 16), then D per payment."""
    win = Win.of("33z456p99p", "3z", "self_draw", melds=["pung:111z@O", "pung:222z@L", "kong:4444z@R"],
                 flowers="1234f", seat_wind="S", round_wind="E", dealer="E", streak=1)
    s = score(win, _house(tai_cap=16))
    assert (s.hand_tai, s.capped_tai) == (24, 16)
    st = settle(s, win, Stakes(30, 10))
    assert {p.payer: p.tai for p in st.payments} == {W: 16, N: 16, E: 19}


@pytest.mark.parametrize("bad", [{"base": -1, "per_tai": 10}, {"base": 30}, {"base": "30", "per_tai": 10},
                                 {"base": 30, "per_tai": 10, "x": 1}, [30, 10]])
def test_stakes_validation(bad: object) -> None:
    with pytest.raises(WinInputError) as info:
        Stakes.from_dict(bad)
    assert info.value.field.startswith("stakes")


def test_payment_serialisation() -> None:
    win = Win.of("123m456m234p678p45s88s", "3s", "self_draw", seat_wind="E", round_wind="S", dealer="E")
    d = settle(score(win), win, Stakes(30, 10)).to_dict()
    assert d["total"] == 3 * (30 + 10 * (3 + 1))
    assert {p["payer"] for p in d["payments"]} == {"S", "W", "N"}
    assert all(p["payee"] == "E" and p["dealer_tai"] == 1 for p in d["payments"])
    assert Tile.Z4 == N


def test_claimed_tai_penalty_uses_the_claimed_score() -> None:
    """§6.6 ``claimed_tai``: the offender claimed 自摸 1 (no 槓上開花 after a discard kong): 30 + 10 × 1."""
    win = _discard_kong_win("S", streak=0)
    with pytest.raises(FalseWin) as info:
        score(win, "wikibooks_base")
    claimed = info.value.claimed
    assert claimed is not None and [i.id for i in claimed.items] == ["zimo"]
    st = settle_false_win(win, Stakes(30, 10), "wikibooks_base", claimed.hand_tai)
    assert [(p.payee, p.amount) for p in st.payments] == [(W, 40), (N, 40), (E, 50)]
