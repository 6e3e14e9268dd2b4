"""8-bit quantisation keeps the model's metadata and, on the same inputs, nearly the same answers."""

import json
from pathlib import Path

import numpy as np
import onnx
import pytest

from companion.vision.classify import TileClassifier
from training import quantize, train_classifier


def test_quantized_smoke_model_keeps_metadata_and_answers(tmp_path: Path) -> None:
    src, dst = tmp_path / "f.onnx", tmp_path / "q.onnx"
    assert train_classifier.main(["--smoke", "--quiet", "--out", str(src)]) == 0
    x = quantize.calibration_inputs(64, seed=2)
    quantize.quantize(src, dst, inputs=x)
    meta = {p.key: p.value for p in onnx.load(str(dst)).metadata_props}
    assert json.loads(meta["quantized"])["calibration_images"] == 64
    assert meta["class_names"] == {p.key: p.value for p in onnx.load(str(src)).metadata_props}["class_names"]
    a, b = TileClassifier(src, flower_look=False), TileClassifier(dst, flower_look=False)
    la, _ = a.session.run(None, {"input": x})
    lb, _ = b.session.run(None, {"input": x})
    assert lb.shape == la.shape and np.abs(la - lb).mean() < 0.1 * np.abs(la).mean() + 0.05
    assert dst.stat().st_size < src.stat().st_size
    with pytest.raises(ValueError, match="already quantised"):
        quantize.quantize(dst, tmp_path / "qq.onnx", inputs=x)
