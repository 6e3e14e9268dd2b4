"""8-bit quantisation keeps the model's metadata and, on the same inputs, nearly the same answers; the
quantised classifier then takes pixels and gives exactly the answers it gave on the numpy normalisation."""

import json
from pathlib import Path

import numpy as np
import onnx
import pytest

from companion.vision.classify import ModelError, TileClassifier
from training import onnx_rewrite, quantize, train_classifier


@pytest.fixture(scope="module")
def smoke(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, np.ndarray]:
    """A smoke-trained float classifier, and the same quantised with its float input kept."""
    d = tmp_path_factory.mktemp("quantize")
    src, dst = d / "f.onnx", d / "q.onnx"
    assert train_classifier.main(["--smoke", "--quiet", "--out", str(src)]) == 0
    x = quantize.calibration_inputs(64, seed=2)
    quantize.quantize(src, dst, inputs=x, pixels=False)
    return src, dst, x


def _crops(n: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.integers(0, 256, (int(rng.integers(20, 200)), int(rng.integers(20, 160)), 3), dtype=np.uint8)
            for _ in range(n)]


def test_quantized_smoke_model_keeps_metadata_and_answers(smoke, tmp_path: Path) -> None:
    src, dst, x = smoke
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


def test_the_pixel_input_gives_the_same_bits(smoke, tmp_path: Path) -> None:
    _, floats, _ = smoke
    pixels = tmp_path / "p.onnx"
    pixels.write_bytes(floats.read_bytes())
    done = onnx_rewrite.pixel_input(pixels)
    model = onnx.load(str(pixels))
    meta = {p.key: p.value for p in model.metadata_props}
    assert json.loads(meta["pixel_input"])["from_sha256"] == done["from_sha256"]
    assert meta["input_format"] == onnx_rewrite.PIXEL_INPUT_FORMAT
    assert model.graph.input[0].type.tensor_type.elem_type == onnx.TensorProto.UINT8
    a, b = TileClassifier(floats, flower_look=False), TileClassifier(pixels, flower_look=False)
    assert not a._pixels and b._pixels
    crops = _crops(40, 1)
    assert np.array_equal(a.run(crops)[0], b.run(crops)[0]) and np.array_equal(a.run(crops)[1], b.run(crops)[1])
    assert a.classify(crops) == b.classify(crops)
    assert b.classify([]) == [] and b.run([])[0].shape == (0, len(b.info.class_names))


def test_the_pixel_input_refuses_a_file_already_rewritten_or_not_a_classifier(smoke, tmp_path: Path,
                                                                              capsys) -> None:
    _, floats, _ = smoke
    pixels = tmp_path / "p.onnx"
    pixels.write_bytes(floats.read_bytes())
    assert quantize.main(["--pixel-input", str(pixels)]) == 0
    assert quantize.main(["--pixel-input", str(pixels)]) == 2
    assert "already pixels" in capsys.readouterr().err
    from companion.vision.orient import default_model_path as orient_model

    other = tmp_path / "orient.onnx"
    other.write_bytes(orient_model().read_bytes())
    with pytest.raises(ValueError, match="no mean and std"):
        onnx_rewrite.pixel_input(other)
    uneven = tmp_path / "uneven.onnx"
    m = onnx.load(str(floats))
    for p in m.metadata_props:
        if p.key == "mean":
            p.value = "[0.4, 0.5, 0.6]"
    onnx.save(m, str(uneven))
    with pytest.raises(ValueError, match="not the same on the three channels"):
        onnx_rewrite.pixel_input(uneven)


def test_a_rewrite_that_computes_otherwise_is_refused(smoke, tmp_path: Path, monkeypatch) -> None:
    """Without the channel flip the graph reads BGR as RGB: the check against the original catches it and the
    file is left as it was."""
    _, floats, _ = smoke
    pixels = tmp_path / "p.onnx"
    pixels.write_bytes(floats.read_bytes())
    monkeypatch.setattr(onnx_rewrite, "_reverse_input_channels", lambda g, name, path: None)
    with pytest.raises(ValueError, match="does not compute what the original does"):
        onnx_rewrite.pixel_input(pixels)
    assert pixels.read_bytes() == floats.read_bytes()


def test_a_model_whose_input_is_neither_pixels_nor_floats_of_its_size_is_refused(smoke, tmp_path: Path) -> None:
    _, floats, _ = smoke
    wrong = tmp_path / "wrong.onnx"
    m = onnx.load(str(floats))
    for p in m.metadata_props:
        if p.key == "input_size":
            p.value = json.dumps({"width": 61, "height": 80})
    onnx.save(m, str(wrong))
    with pytest.raises(ModelError, match="neither"):
        TileClassifier(wrong, flower_look=False)

