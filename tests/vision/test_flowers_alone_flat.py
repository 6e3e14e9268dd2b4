"""A photo of the flowers alone, scored as 八仙過海 or 七搶一: both pay flat whatever the hand (spec §4.2, §4.4), and
``companion tai`` scores them with no concealed tiles, but the photo was refused: "no tile found in the photo, only 8
flowers: photograph the whole hand" (a review of ``companion score --win-type eight_flowers``)."""

from __future__ import annotations

import pytest

from companion.rules.profiles import load_profile
from companion.rules.win import WinInputError
from companion.tiles import Tile
from companion.vision.hand_score import (
    PhotoHandError,
    WayOut,
    eight_flowers_note,
    only_eight_flowers,
    score_photo,
)
from tests.vision.test_hand_score import laid

PROFILE = load_profile(None)


def test_all_eight_flowers_alone_said_eight_flowers_pay_flat() -> None:
    got = score_photo(laid([(100, ["1234f", "5678f"])]), {"win_type": "eight_flowers", "seat_wind": "S"}, PROFILE)
    assert got.score.hand_tai == 8 and [i.id for i in got.score.items] == ["eight_flowers"]
    assert got.win.concealed == () and got.win.melds == () and len(got.win.flowers) == 8 and got.win_index == -1


def test_seven_flowers_alone_said_seven_rob_one_are_paid_by_the_player_robbed() -> None:
    got = score_photo(laid([(100, ["1234f", "567f"])]),
                      {"win_type": "seven_flowers_rob", "discarder": "W", "seat_wind": "S"}, PROFILE)
    assert got.score.hand_tai == 8 and [i.id for i in got.score.items] == ["seven_rob_one"]


def test_all_eight_alone_on_a_self_draw_can_only_be_eight_flowers_and_it_is_said() -> None:
    """As all eight beside 16 tiles are: nothing else is a win on a self-draw; 七搶一 is said as the other way."""
    for context in ({}, {"win_type": "self_draw"}):
        got = score_photo(laid([(100, ["1234f", "5678f"])]), context, PROFILE)
        assert [i.id for i in got.score.items] == ["eight_flowers"] and got.win.win_type.value == "eight_flowers"
        said = [n for n in got.doubts if n.way_out is WayOut.SEVEN_ROB_ONE]
        assert len(said) == 1 and "only the eight flowers" in said[0].en and "八仙過海" in said[0].zh
        assert not any("assumed self-drawn" in n.en for n in got.doubts)


def test_flowers_alone_short_of_the_win_said_or_of_eight_on_a_self_draw_are_refused() -> None:
    with pytest.raises(PhotoHandError, match="no tile found in the photo, only 7 flowers"):
        score_photo(laid([(100, ["1234f", "567f"])]), {}, PROFILE)
    with pytest.raises(PhotoHandError, match="no tile found in the photo, only 8 flowers"):
        score_photo(laid([(100, ["1234f", "5678f"])]), {"win_type": "discard", "discarder": "N"}, PROFILE)
    with pytest.raises(PhotoHandError, match="needs 8 flowers"):
        score_photo(laid([(100, ["1234f", "567f"])]), {"win_type": "eight_flowers"}, PROFILE)


def test_the_flowers_alone_are_the_hand_printed(capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """``companion tai --explain`` (and ``companion score``, which prints the same) of a win by flowers alone: the
    hand line said "Hand:  1234567f", two spaces before the flowers, for the concealed tiles there are none of."""
    import io

    from companion.cli import main

    win = ('{"win_type": "seven_flowers_rob", "discarder": "W", "flowers": "1234567f", "concealed": "", '
           '"seat_wind": "S", "round_wind": "E"}')
    monkeypatch.setattr("sys.stdin", io.StringIO(win + "\n"))
    assert main(["tai", "--explain", "--lang", "en"]) == 0
    assert "\nHand: 1234567f\n" in capsys.readouterr().out


def test_a_winning_tile_named_beside_the_flowers_alone_is_refused_not_dropped() -> None:
    """A review: the eight flowers alone with 5m named as the winning tile were scored Eight flowers, "won on the
    eighth flower", the tile named dropped unsaid (the hand of 16 beside them was never so taken). Neither instant
    win by flowers is won on a tile, and the hand won on it is not in the photo: refused, naming the tile."""
    for context in ({}, {"win_type": "eight_flowers"}, {"win_type": "seven_flowers_rob", "discarder": "W"}):
        with pytest.raises(PhotoHandError) as bad:
            score_photo(laid([(100, ["1234f", "5678f"])]), context, PROFILE, win_tile=Tile.M5)
        assert "the winning tile named, 5 Characters, is not in the photo" in str(bad.value), context
        assert "五萬" in bad.value.zh and "photograph the whole hand" in str(bad.value)
    # nor beside 16 tiles: a tile named says the hand was won on a tile, and it is asked who discarded it
    with pytest.raises(WinInputError, match="say who discarded it"):
        score_photo(laid([(100, ["123m456m234p678p4588s"]), (200, ["12345678f"])]), {}, PROFILE, win_tile=Tile.S6)


def test_eight_flowers_are_decided_and_said_once() -> None:
    """The photo's hand of 16, its flowers alone and a typed hand ask one test (:func:`only_eight_flowers`), and say
    one note (it was written four times, 'lays' in one and 'shows' in another)."""
    eight = [Tile(int(Tile.F1) + k) for k in range(8)]
    assert only_eight_flowers({}, eight, True, None) and not only_eight_flowers({}, eight, True, Tile.M5)
    assert not only_eight_flowers({}, eight[:7], True, None) and not only_eight_flowers({}, eight, False, None)
    assert not only_eight_flowers({"discarder": "N"}, eight, True, None)
    alone = score_photo(laid([(100, ["1234f", "5678f"])]), {}, PROFILE)
    assert eight_flowers_note(alone=True) in alone.doubts
    with_hand = score_photo(laid([(100, ["123m456m234p678p4588s"]), (200, ["12345678f"])]), {}, PROFILE)
    assert eight_flowers_note(alone=False) in with_hand.doubts
    assert [n for n in with_hand.doubts if n.way_out is WayOut.SEVEN_ROB_ONE] == [eight_flowers_note(alone=False)]
