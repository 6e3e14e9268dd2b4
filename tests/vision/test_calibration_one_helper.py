"""One helper each for the "another set" test and the fitted weights' files (a change review: the test was written
twice, the glob three times, and a save put into a saved set built a second classifier while holding the save lock
though `calibrate photo` had one)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import pytest

from companion.commands import calibrate
from companion.tiles import Tile
from companion.vision import calibration, classify, sheet
from companion.vision.sheet import SAME_SET, other_set

PICTURES = Path(__file__).parents[2] / "companion" / "assets" / "tiles"


def test_other_set_is_a_likeness_under_the_bar_and_not_one_too_few_kinds_tell() -> None:
    assert other_set(SAME_SET - 0.01) and not other_set(SAME_SET) and not other_set(None)


def test_a_save_into_a_saved_set_measures_with_the_callers_classifier(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    crops = [(t, cv2.imread(str(PICTURES / f"{t.code}.png"))) for t in (Tile.M1, Tile.P5, Tile.S3, Tile.Z1)]
    calibration.save(calibration.Calibration.from_crops("home", crops))
    used: list[Any] = []

    def no_second(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a second classifier was built under the save lock")

    def likeness(held: Any, new: Any, classifier: Any) -> float:
        used.append(classifier)
        return 1.0

    monkeypatch.setattr(classify, "TileClassifier", no_second)
    monkeypatch.setattr(sheet, "set_likeness", likeness)
    mine = object()
    calibrate._save("home", crops[:3], False, add=True, classifier=mine)
    assert used == [mine]


def test_fit_files_are_the_sets_own(tmp_path: Path) -> None:
    for name in ("home.fit-aa-1.npz", "home.fit-bb-2.npz", "home2.fit-aa-1.npz", "home.npz"):
        (tmp_path / name).write_bytes(b"x")
    assert sorted(p.name for p in calibration.fit_files(tmp_path, "home")) == ["home.fit-aa-1.npz", "home.fit-bb-2.npz"]
    assert [p.name for p in calibration.fit_files(tmp_path, "home", "aa")] == ["home.fit-aa-1.npz"]
