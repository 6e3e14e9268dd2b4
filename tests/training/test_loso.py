"""The leave-one-set-out drivers (training/loso.py, training/loso_orient.py) share one loop."""

from pathlib import Path

import pytest
from conftest import write_dev_crops

from training import loso, train_classifier
from training.loso import leave_each_out


def test_each_set_is_left_out_once_and_the_final_model_sees_all(tmp_path: Path) -> None:
    calls: list[list[str]] = []
    leave_each_out(lambda argv: calls.append(argv) or 0, ["--steps", "5"], ["2", "9"], tmp_path, "tile_orient",
                   tmp_path / "all.onnx")
    assert calls == [["--steps", "5", "--leave-out", "2", "--out", str(tmp_path / "tile_orient_minus_2.onnx")],
                     ["--steps", "5", "--leave-out", "9", "--out", str(tmp_path / "tile_orient_minus_9.onnx")],
                     ["--steps", "5", "--out", str(tmp_path / "all.onnx")]]
    calls.clear()
    leave_each_out(lambda argv: calls.append(argv) or 0, [], ["4"], tmp_path, "tile_classifier", None)
    assert calls == [["--leave-out", "4", "--out", str(tmp_path / "tile_classifier_minus_4.onnx")]]


def test_the_classifier_driver_can_swap_the_recipes_rendered_styles(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    write_dev_crops(tmp_path, [("1m", "2-1.jpg"), ("5p", "9.jpg")])
    calls: list[list[str]] = []
    monkeypatch.setattr(train_classifier, "main", lambda argv: calls.append(argv) or 0)
    base = ["--base", "b.pt", "--out-dir", str(tmp_path / "out")]
    assert loso.main([str(tmp_path), *base]) == 0
    assert len(calls) == 2 and all(c.count("--styles") == 1 for c in calls)  # the recipe's own
    assert train_classifier.parse_args(calls[0]).styles == 150
    calls.clear()
    assert loso.main([str(tmp_path), *base, "--styles", "500", "--only", "9"]) == 0
    assert len(calls) == 1 and train_classifier.parse_args(calls[0]).styles == 500
    assert calls[0].count("--styles") == 1  # the recipe's value replaced, not overridden by a second flag
    assert calls[0][calls[0].index("--leave-out") + 1] == "9"


def test_the_classifier_driver_passes_the_share_of_the_way_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_dev_crops(tmp_path, [("1m", "2-1.jpg"), ("5p", "9.jpg")])
    calls: list[list[str]] = []
    monkeypatch.setattr(train_classifier, "main", lambda argv: calls.append(argv) or 0)
    base = [str(tmp_path), "--base", "b.pt", "--out-dir", str(tmp_path / "out")]
    assert loso.main([*base, "--wise", "0.6"]) == 0
    assert [train_classifier.parse_args(c).wise for c in calls] == [0.6, 0.6]
    calls.clear()
    assert loso.main(base) == 0
    assert all("--wise" not in c for c in calls)
