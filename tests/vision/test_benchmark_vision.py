"""benchmarks/vision.py's scoring of held-out scenes and its speed comparison: their parts add up (the
targets themselves are measured by running the benchmark, not here; no timing is asserted)."""

import sys
from pathlib import Path

import numpy as np
import pytest

from benchmarks.vision import corrected_label, load_errata, speed, synthetic
from companion.vision.read import TileReader


def test_synthetic_scores_split_recall_and_false_boxes_consistently() -> None:
    reader = TileReader(detector_threads=1, classifier_threads=1)
    got = synthetic(reader, 4, 2024)  # three table frames and a photo
    assert got["scenes"] == 4 and got["tiles"] > 0 and 0 < got["tiles_face_down"] < got["tiles"]
    up = got["tiles"] - got["tiles_face_down"]
    found = got["recall_face_up"] * up + got["recall_face_down"] * got["tiles_face_down"]
    assert found == pytest.approx(got["recall_iou50"] * got["tiles"])
    assert 0 < got["recall_iou50"] <= 1 and 0 < got["kinds_right"] <= 1
    parts = got["distractors_read_as_tiles"] + got["false_boxes_on_a_tile"] + got["false_boxes_on_bare_table"]
    assert min(got["false_boxes_on_a_tile"], got["false_boxes_on_bare_table"]) >= 0 and parts == got["false_boxes"]


def _fake_peer(root: Path, fail: bool = False) -> None:
    """A stand-in for PyPI mahjong-detector (which is never installed with the product): same two calls."""
    pkg = root / "mahjong_detector"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "preprocess.py").write_text("def preprocess_image(img):\n    return img, None\n", encoding="utf-8")
    body = "raise RuntimeError('no model here')" if fail else "return [1, 2, 3]"
    (pkg / "predict.py").write_text(f"def predict(img, pad):\n    {body}\n", encoding="utf-8")


def test_speed_interleaves_the_peer_in_blocks_and_reports_the_ratio(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_peer(tmp_path)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    reader = TileReader(detector_threads=1, classifier_threads=1)
    frame = np.full((720, 1280, 3), 90, np.uint8)
    got = speed(reader, frame, runs=7, peer_python=sys.executable, block=3)
    assert got["mahjong_detector"]["tiles_found"] == 3  # type: ignore[index]
    blocks = got["times_faster_per_block"]
    assert blocks["blocks"] == 3 and blocks["block_runs"] == 3  # type: ignore[index]
    assert blocks["min"] <= blocks["median"] <= blocks["max"]  # type: ignore[index]
    ours, theirs = got["ours"]["read_ms_median"], got["mahjong_detector"]["read_ms_median"]  # type: ignore[index]
    assert got["times_faster"] == pytest.approx(theirs / ours)


def test_speed_reports_a_failing_peer_and_still_times_ours(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_peer(tmp_path, fail=True)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    reader = TileReader(detector_threads=1, classifier_threads=1)
    got = speed(reader, np.full((720, 1280, 3), 90, np.uint8), runs=2, peer_python=sys.executable)
    assert "no model here" in str(got["mahjong_detector"]) and got["ours"]["read_ms_median"] > 0  # type: ignore[index]
    assert "times_faster" not in got


def test_dev_errata_name_real_tiles_and_correct_only_their_own_box(tmp_path: Path) -> None:
    errata = load_errata()
    assert errata and all(isinstance(v, str) for v in errata.values())
    (photo, box), shows = next(iter(errata.items()))
    assert corrected_label(photo, {"tile": "1m", "xyxy": list(box)}, errata) == shows
    assert corrected_label(photo, {"tile": "1m", "xyxy": [v + 1 for v in box]}, errata) == "1m"
    assert corrected_label("other.jpg", {"tile": "1m", "xyxy": list(box)}, errata) == "1m"
    bad = tmp_path / "errata.json"
    bad.write_text('{"errata": [{"photo": "p.jpg", "xyxy": [0, 0, 1, 1], "labelled": "9m", "shows": "9x"}]}',
                   encoding="utf-8")
    with pytest.raises(ValueError, match="9x"):
        load_errata(bad)
