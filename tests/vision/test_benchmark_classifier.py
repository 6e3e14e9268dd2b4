"""``benchmarks/classifier.copies_scores``: calibration scored on other copies of a set's kinds (a stand-in
photo of the packaged tile pictures: the tests never read ../shared)."""

from pathlib import Path

import cv2

from benchmarks.classifier import copies_scores
from companion.tiles import Tile
from companion.vision.classify import TileClassifier
from tests.training.test_dev_copies import _grid
from training.real_crops import RealCrop


def test_copies_of_calibrated_kinds_only_are_scored_with_the_sets_model(tmp_path: Path) -> None:
    tiles = _grid(tmp_path, "photos/9.png")
    photo = cv2.imread(str(tmp_path / "photos/9.png"))

    def crop(i: int) -> RealCrop:
        kind, (x0, y0, x1, y1) = tiles[i]
        return RealCrop(f"{i}", Tile.from_code(kind), "9", photo[y0:y1, x0:x1].copy())

    calibration = [crop(i) for i in range(0, len(tiles), 4)][:-1]  # the last kind left uncalibrated
    copies = [crop(i) for i in range(len(tiles)) if i % 4]
    out = copies_scores({"9": TileClassifier()}, calibration, copies)
    assert out["calibration_copies_n"] == 3 * (len(calibration))  # the uncalibrated kind's copies left out
    assert out["calibration_copies_top1"] >= 14 / 15
    assert out["calibration_copies_uncalibrated_top1"] >= 14 / 15
