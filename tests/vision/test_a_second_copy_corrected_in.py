"""A tile corrected into a second copy of a flower (a set has one of each): the refusal names the flower read twice,
in both languages. A review's ``--tile 1.11=2f`` beside the photo's 2f was refused by count ("found 16 tiles ... no
way of laying out the rows"), which hid the copy the correction made."""

from __future__ import annotations

from importlib import resources

import pytest

from companion.cli import main
from companion.tiles import Tile
from companion.vision.hand_score import PhotoHandError, WayOut, score_photo
from tests.vision.test_hand_score import PROFILE, laid


def test_a_tile_corrected_into_a_second_flower_is_refused_for_the_copy_not_the_count() -> None:
    dets = laid([(100, ["345m", "67p", "234s", "22z", "8p"]), (200, ["777z", "123m"]), (300, ["26f"])])
    assert score_photo(dets, {}, PROFILE).win.win_tile == Tile.P8  # as read, a win on the 8p set apart
    with pytest.raises(PhotoHandError) as e:
        score_photo(dets.corrected({10: Tile.F2}), {}, PROFILE)
    assert str(e.value).startswith("Summer read twice; a set has one (flower 1; row 1, tile 11)"), str(e.value)
    assert e.value.zh.startswith("夏讀到 2 張，一副牌只有 1 張（花牌第 1 張；第 1 列第 11 張）"), e.value.zh
    assert e.value.way_out is WayOut.CORRECT_TILE and "no way of laying out" not in str(e.value)


@pytest.mark.parametrize(("lang", "said"), [("en", "Summer read twice; a set has one (flower 1; row 1, tile 11)"),
                                            ("zh", "夏讀到 2 張，一副牌只有 1 張（花牌第 1 張；第 1 列第 11 張）")])
def test_score_with_a_tile_corrected_into_a_second_flower_names_the_flower(capsys, lang: str, said: str) -> None:
    demo = resources.files("companion") / "assets" / "demo" / "win_hand.jpg"
    assert main(["score", str(demo), "--tile", "1.11=2f", "--lang", lang, "--no-calibration"]) != 0
    err = capsys.readouterr().err
    assert said in err and "no way of laying out" not in err and "各列怎麼分" not in err, err
