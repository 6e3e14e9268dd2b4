"""The leave-one-set-out drivers (training/loso.py, training/loso_orient.py) share one loop."""

from pathlib import Path

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
