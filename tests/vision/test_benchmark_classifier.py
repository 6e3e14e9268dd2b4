"""``benchmarks/classifier.copies_scores``: calibration scored on other copies of a set's kinds (a stand-in
photo of the packaged tile pictures: the tests never read ../shared)."""

from pathlib import Path

import cv2
import numpy as np
import pytest

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


def test_the_trust_sweep_changes_only_crops_that_reach_each_threshold() -> None:
    """``benchmarks/calibration_trust``: two rendered held-out styles, half their kinds calibrated. A threshold
    reads the crops whose best cosine to a calibrated weight reaches it as the blended logits over every class
    do; below it every crop reads as with no trust at all (the last threshold, above any cosine)."""
    from benchmarks.calibration_trust import THRESHOLDS, measure
    from companion.vision.classify import default_model_path

    m = measure(default_model_path(), styles=2, seed=3, share=0.5, tests=1)
    assert m["right"].shape == (86, len(THRESHOLDS)) and m["calibrated"].sum() == 44
    assert np.all(np.abs(m["best"]) <= 1.0 + 1e-5)
    never = m["right"][:, -1]
    for j, t in enumerate(THRESHOLDS[:-1]):
        below = m["best"] < t
        assert np.array_equal(m["right"][below, j], never[below])
        assert np.array_equal(m["pred"][below, j], m["pred"][below, -1])
        assert np.array_equal(m["pred"][~below, j], m["blended"][~below])
    trusted = m["best"] >= THRESHOLDS[0]
    assert (m["blended"] != m["pred"][:, -1])[trusted].any()  # somewhere the rule changes a reading
    assert m["right"][m["calibrated"]].mean() >= 0.9


def test_bad_arguments_are_refused_before_any_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks import classifier

    (tmp_path / "crops.csv").write_text("file,tile,source_photo\n", encoding="utf-8")
    for argv, says in [([str(tmp_path / "none")], "no crops.csv there"),
                       ([str(tmp_path), "--styles", "0"], "must be at least 1"),
                       ([str(tmp_path), "--flower-loso-dir", str(tmp_path)], "goes with --loso-dir"),
                       ([str(tmp_path), "--model", str(tmp_path / "none.onnx")], "not found at")]:
        with pytest.raises(SystemExit) as e:
            classifier.main(argv)
        assert e.value.code == 2 and says in capsys.readouterr().err, argv
