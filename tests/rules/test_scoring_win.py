"""The scoring input (spec §3.2) from code and JSON, and the Score it gives."""

from __future__ import annotations

from typing import Any

import pytest

from companion.rules.scoring import NotAWin, dealer_tai, score, score_all
from companion.rules.win import Replacement, Win, WinInputError, WinType
from companion.tiles import Tile, parse_tiles

EX11: dict[str, Any] = dict(melds=["ckong:7777m"], flowers="6f", seat_wind="E", round_wind="E", dealer="E", streak=2)


def test_win_from_code_with_notation_strings() -> None:
    a = Win.of("222p444s888p99s11z", "1z", "self_draw", replacement=Replacement.FLOWER, **EX11)
    b = Win(concealed="222p444s888p99s11z", win_tile="1z", win_type="self_draw",  # type: ignore[arg-type]
            replacement="flower", **EX11)  # type: ignore[arg-type]
    assert a == b and a.win_type is WinType.SELF_DRAW and a.melds[0].tile == Tile.M7
    assert a.win_source == "flower_replacement" and a.is_dealer
    assert score(a).hand_tai == 18  # spec §7 Example 11


def test_json_round_trip_and_description() -> None:
    w = Win.of("234m567m888s46p11s333z", "5p", "rob_kong", seat_wind="W", round_wind="S", discarder="E")
    assert Win.from_dict(w.to_dict()) == w
    assert w.win_source == "robbed_kong"
    assert w.describe() == "234567m46p11888s333z win=5p@O"  # West robs East: his 對家
    for discarder, source in (("S", "L"), ("N", "R")):
        assert Win.of("234m567m888s46p11s333z", "5p", "discard", seat_wind="W", round_wind="S",
                      discarder=discarder).describe().endswith(f"win=5p@{source}")


def test_not_a_win_names_the_hand() -> None:
    w = Win.of("123m456m234p678p45s88s", "9s", "discard", seat_wind="W", round_wind="S", discarder="S")
    with pytest.raises(NotAWin, match=r"123456m234678p4588s win=9s@L.*real waits: 3s and 6s"):
        score(w)
    assert isinstance(NotAWin(w, "x"), ValueError)


def test_dealer_tai_is_one_plus_two_n() -> None:
    for n in range(6):
        w = Win.of("123m456m234p678p45s88s", "3s", "self_draw", seat_wind="S", round_wind="E", streak=n)
        assert dealer_tai(w) == 1 + 2 * n == score(w).dealer_tai


def test_score_all_lists_every_interpretation_in_canonical_order() -> None:
    w = Win.of("111222333m456m78m55m", "9m", "self_draw", seat_wind="S", round_wind="W")  # spec §7 Example 5
    every = score_all(w)
    assert [s.hand_tai for s in every] == [13, 11]
    assert str(every[0].decomposition).startswith("pung:111m pung:222m pung:333m")
    assert score(w).interpretations == 2


def test_instant_win_has_no_shape() -> None:
    w = Win.of("123m456m789m234p66s78s", None, "eight_flowers", flowers="12345678f", seat_wind="S",
               round_wind="E")
    s = score(w)
    assert s.is_instant and s.waits == () and s.wait_shape is None and s.decomposition is None
    assert s.to_dict()["decomposition"] == []


def test_eight_flowers_are_a_win_on_a_replacement_except_when_dealt() -> None:
    """A hand completed holding all eight flowers was won on the eighth one's replacement: 槓上開花. The dealer's
    天胡 holding them had them replaced while dealing, which is not (spec §2.6: a replacement during play)."""
    hand = ("123m456m789m234p66s78s", "9s")
    played = score(Win.of(*hand, "self_draw", flowers="12345678f", seat_wind="S", round_wind="E"))
    dealt = score(Win.of(*hand, "self_draw", flowers="12345678f", seat_wind="E", round_wind="E", dealer="E",
                         heavenly=True))
    assert played.item("kong_bloom") is not None
    assert dealt.item("kong_bloom") is None and dealt.item("heaven_win") is not None
    assert dealt.item("eight_flowers") is not None and dealt.item("flower_kong") is not None


def test_heavenly_win_adds_no_ready_tai_where_every_self_draw_has_one() -> None:
    """star31 adds 自摸聽牌 1 to every self-draw (spec §5.3); 天胡 has no hand before the win (spec §3.5), so it is
    never ready, and it replaces the ready items (spec §4.2): 24, not 25 (a profile review)."""
    hand = ("123m456m789m234p66s78s", "9s")
    plain = score(Win.of(*hand, "self_draw", seat_wind="S", round_wind="E", profile="star31"))
    heaven = score(Win.of(*hand, "self_draw", seat_wind="E", round_wind="E", dealer="E", heavenly=True,
                          profile="star31"))
    assert plain.item("ready_on_self_draw") is not None
    assert heaven.item("ready_on_self_draw") is None and heaven.item("heaven_win") is not None


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"streak": -1}, "streak"),
    ({"seat_wind": "X"}, "seat_wind"),
    ({"replacement": "dragon"}, "replacement"),
    ({"win_type": "tsumo"}, "win_type"),
])
def test_bad_code_input_names_the_field(kwargs: dict[str, object], field: str) -> None:
    base: dict[str, object] = {"concealed": parse_tiles("123m456m234p678p45s88s"), "win_tile": Tile.S3,
                               "win_type": WinType.SELF_DRAW, "seat_wind": "S"}
    base.update(kwargs)
    with pytest.raises(WinInputError) as info:
        Win(**base)  # type: ignore[arg-type]
    assert info.value.field == field


def test_only_a_win_paid_flat_may_come_with_no_concealed_hand_not_four_kongs() -> None:
    """A change review: Win took an empty hand for every instant kind, 四槓 too, though its four kongs are part of
    the hand the winner shows (spec §4.4; the Live tab asks it); only 七搶一 and a flat 八仙過海 are paid with none."""
    kongs = ["ckong:1111m", "ckong:2222m", "kong:3333m", "kong:4444m"]
    for melds in (kongs, []):
        with pytest.raises(WinInputError) as bad:
            Win(concealed="", win_tile=None, win_type="four_kongs", melds=melds)
        assert bad.value.field == "concealed", bad.value
    assert Win(concealed="5p" * 4, win_tile=None, win_type="four_kongs", melds=kongs).win_type is WinType.FOUR_KONGS
    assert Win(concealed="", win_tile=None, win_type="seven_flowers_rob", flowers="1f2f3f4f5f6f7f8f",
               discarder="S").concealed == ()
    assert Win(concealed="", win_tile=None, win_type="eight_flowers", flowers="1f2f3f4f5f6f7f8f",
               melds=["chow:123m"]).concealed == ()
