"""`companion calibrate`'s words, a calibration review: a box in doubt said as a box (not a checkbox) in both
languages, with no raw score, and the back's box asking for the face-down tile; the kinds without a crop said as
fully in Chinese as in English."""

from __future__ import annotations

import cv2
import pytest

from companion.commands import calibrate
from companion.tiles import Tile
from companion.vision import sheet
from companion.vision.sheet import Misplaced


def test_a_box_in_doubt_is_said_as_the_box_for_its_kind_in_both_languages(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sheet, "misplaced", lambda samples, classifier: [Misplaced(Tile.M2, Tile.P5, 0.96),
                                                                          Misplaced(Tile.UNKNOWN, Tile.Z5, 0.93)])
    assert calibrate._check_boxes([], None, {Tile.M2}) == {Tile.UNKNOWN}
    lines = capsys.readouterr().out.splitlines()
    two, back = lines
    assert "check box" not in two and "0.96" not in two and "0.93" not in back
    en, zh = two.split(" / ")
    assert en.strip().startswith("the box for 2m (") and "looks like 5p (" in en and "kept, as --keep says" in en
    assert zh.startswith("2m 二萬那一格：裡面的牌看起來像五筒；依 --keep 照用")
    en, zh = back.split(" / ")
    assert "put the face-down tile in it" in en and "0x in its box" not in en
    assert "把背面朝上的牌放進去" in zh and "看起來像白板" in zh


def test_the_kinds_without_a_crop_are_said_in_both_languages(tmp_path: object, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    from pathlib import Path

    crop = cv2.imread(str(Path(__file__).parents[2] / "companion" / "assets" / "tiles" / "5p.png"))
    calibrate._save("home", [(Tile(i), crop) for i in range(42)], False)  # all but the back
    line = capsys.readouterr().out.splitlines()[-1]
    assert line == ("kinds without a crop, read by the trained model alone: 0x face-down tile / "
                    "沒有校正的牌（只用內建的模型讀）：0x 暗牌")


def test_a_plant_without_a_crop_is_said_by_code_and_printed_number_in_both_languages(
        tmp_path: object, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The English said codes only and the Chinese names only, a plant by its picture, which sets print under
    either number (a change review)."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    from pathlib import Path

    crop = cv2.imread(str(Path(__file__).parents[2] / "companion" / "assets" / "tiles" / "5p.png"))
    calibrate._save("home", [(Tile(i), crop) for i in range(42) if Tile(i).code != "7f"], False)
    line = capsys.readouterr().out.splitlines()[-1]
    assert line == ("kinds without a crop, read by the trained model alone: 7f plant printed 3, 0x face-down tile / "
                    "沒有校正的牌（只用內建的模型讀）：7f 印 3 的花、0x 暗牌")
