"""benchmarks/vision.py's scoring of held-out scenes: its parts add up (the targets themselves are measured
by running the benchmark, not here)."""

import pytest

from benchmarks.vision import synthetic
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
