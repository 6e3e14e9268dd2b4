"""`companion calibrate rename OLD NEW`: the set's file, its selection and its fitted weights go with it."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from companion.cli import main
from companion.tiles import Tile
from companion.vision import calibration

PICTURES = Path(__file__).parents[2] / "companion" / "assets" / "tiles"


@pytest.fixture(autouse=True)
def sets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    crops = [(t, cv2.imread(str(PICTURES / f"{t.code}.png"))) for t in (Tile.M1, Tile.P5)]
    for name in ("home", "club"):
        calibration.save(calibration.Calibration.from_crops(name, crops))
    calibration.select("home")
    return calibration.calibration_dir()


def test_a_renamed_set_keeps_its_selection_and_fitted_weights(sets: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (sets / "home.fit-abc-123.npz").write_bytes(b"weights")
    before = calibration.load("home").crops
    assert main(["calibrate", "rename", "home", "阿嬤的牌"]) == 0
    assert capsys.readouterr().out.strip() == ("renamed “home” to “阿嬤的牌” (still the selected set) / "
                                               "已把「home」改名為「阿嬤的牌」（仍是選用的牌組）")
    assert calibration.list_sets() == ["club", "阿嬤的牌"] and calibration.selected() == "阿嬤的牌"
    assert (calibration.load("阿嬤的牌").crops == before).all()
    assert (sets / "阿嬤的牌.fit-abc-123.npz").read_bytes() == b"weights" and not (sets / "home.fit-abc-123.npz").exists()
    assert main(["calibrate", "rename", "club", "garden"]) == 0
    assert "still the selected" not in capsys.readouterr().out and calibration.selected() == "阿嬤的牌"


@pytest.mark.parametrize(("old", "new", "said"), [
    ("home", "club", "a set named “club” is saved already"),
    ("home", "CLUB", "a set named “club” is saved already"),
    ("garden", "yard", "no calibration named “garden”"),
    ("home", "none", "tile-set name “none”"),
    ("home", "a/b", "tile-set name “a/b”"),
])
def test_a_rename_that_cannot_be_had_is_refused_naming_it(old: str, new: str, said: str,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate", "rename", old, new]) == 2
    err = capsys.readouterr().err
    assert said in err and " / " in err
    assert calibration.list_sets() == ["club", "home"] and calibration.selected() == "home"


def test_a_set_renamed_in_case_only_is_renamed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calibrate", "rename", "home", "Home"]) == 0
    assert calibration.list_sets() == ["Home", "club"] and calibration.selected() == "Home"


def test_a_selected_set_whose_file_is_damaged_is_renamed_and_stays_selected(sets: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Its file was moved, then the rename was said failed ("calibration “Mine2” at /… is damaged (BadZipFile)") and
    current.txt kept the old name (a change review)."""
    (sets / "home.npz").write_bytes(b"not a zip")
    assert main(["calibrate", "rename", "home", "Mine2"]) == 0
    out = capsys.readouterr()
    assert "renamed “home” to “Mine2” (still the selected set)" in out.out and out.err == ""
    assert calibration.list_sets() == ["Mine2", "club"] and calibration.selected() == "Mine2"
    assert (sets / "Mine2.npz").read_bytes() == b"not a zip"


def test_a_set_renamed_to_its_own_name_is_said_so_called(capsys: pytest.CaptureFixture[str]) -> None:
    """It was refused as "a set named “mine” is saved already: rename or delete it first" (a change review)."""
    assert main(["calibrate", "rename", "home", "home"]) == 0
    out = capsys.readouterr()
    assert out.out.strip() == ("the set “home” is already called that: nothing changed / "
                               "牌組「home」本來就叫這個名稱：沒有改變") and out.err == ""
    assert calibration.list_sets() == ["club", "home"] and calibration.selected() == "home"
