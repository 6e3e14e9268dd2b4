"""The vision library's own refusals (crops, boxes, model files that do not describe themselves, images the
detector cannot take, a threshold out of range) say what is wrong in English and Traditional Chinese
(``English / 中文`` on one line), both halves naming the value; the English half is as it was.

The model files here are one-node ONNX graphs (Identity) carrying only the metadata each test needs: small,
built in a moment, and independent of the shipped models."""

from __future__ import annotations

import json
import math
import re
import warnings
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from companion.vision import flower
from companion.vision.backs import BackChecker, BackCheckError
from companion.vision.classify import ModelError, TileClassifier
from companion.vision.detect import Boxes, DetectorError, TileDetector
from companion.vision.orient import OrientError, TileOrienter
from companion.vision.preprocess import MEAN, STD, CropError, as_bgr, map_crops, quantised_patches

CJK = re.compile("[\u4e00-\u9fff]")


def halves(text: str, *english: str, zh: tuple[str, ...] = ()) -> tuple[str, str]:
    """``text`` split at its one `` / `` into English (holding every one of ``english``, no Chinese) and
    Traditional Chinese (some Chinese, and every one of ``zh``)."""
    parts = text.split(" / ")
    assert len(parts) == 2, text
    en, cn = parts
    for part in english:
        assert part in en, (part, text)
    assert not CJK.search(en), text
    assert CJK.search(cn), text
    for part in zh:
        assert part in cn, (part, text)
    return en, cn


def tiny_model(path: Path, meta: dict[str, str], shape: tuple[int | str, ...] = ("N", 3, 8, 8)) -> Path:
    """A one-node ONNX model (its input passed through) of float input ``shape``, with ``meta``."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, list(shape))
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, list(shape))
    graph = helper.make_graph([helper.make_node("Identity", ["x"], ["y"])], "tiny", [x], [y])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    helper.set_model_props(model, meta)
    onnx.save(model, str(path))
    return path


DETECTOR_META = {"long_side": "64", "stride": "4", "classes": json.dumps(["tile_up", "tile_down"]),
                 "threshold": "0.3"}
SQUARE_META = {"input_size": "8", "span": "1.25", "normalisation": json.dumps({"mean": 128.0, "std": 64.0})}
CLASSIFIER_META = {"class_names": json.dumps(["1m", "2m", "unknown"]), "input_size": json.dumps({"width": 8,
                   "height": 8}), "mean": json.dumps(MEAN), "std": json.dumps(STD)}


@pytest.fixture
def detector(tmp_path: Path) -> TileDetector:
    """A detector (no orientation network, no back check) whose network is never run."""
    return TileDetector(tiny_model(tmp_path / "det.onnx", DETECTOR_META), threads=1, orient=False, backs=False)


# --- crops ----------------------------------------------------------------------------------------------


def test_crop_refusals_are_in_both_languages_naming_the_value() -> None:
    with pytest.raises(CropError) as e:
        as_bgr(np.zeros((8, 8, 3), np.float32))
    halves(str(e.value), "crop must be uint8, got float32", zh=("uint8", "float32"))
    with pytest.raises(CropError) as e:
        as_bgr(np.zeros((8, 8, 2), np.uint8))
    halves(str(e.value), "crop must be HxWx3 BGR, got shape (8, 8, 2)", zh=("HxWx3", "(8, 8, 2)"))
    with pytest.raises(CropError) as e:
        as_bgr(np.zeros((1, 5, 3), np.uint8))
    halves(str(e.value), "crop is empty or too small: 5x1 pixels", zh=("5x1 像素",))
    with pytest.raises(CropError) as e:
        map_crops(as_bgr, [])
    halves(str(e.value), "no crops to prepare")
    with pytest.raises(CropError) as e:
        quantised_patches(np.zeros((1, 8, 6, 3), np.uint8), np.arange(256, dtype=np.uint8), 4)
    halves(str(e.value), "cannot cut 6x8x3 crops into 4x4 patches with a (256,) uint8 table",
           zh=("6x8x3", "4x4", "(256,) uint8"))


# --- boxes and the detector -----------------------------------------------------------------------------


def test_boxes_that_disagree_are_refused_in_both_languages() -> None:
    with pytest.raises(ValueError) as e:
        Boxes(np.zeros((2, 5), np.float32), np.zeros(1, bool), np.zeros(2, np.float32))
    halves(str(e.value), "box arrays disagree: obb (2, 5), face_up (1,), score (2,)", zh=("(2, 5)", "(1,)", "(2,)"))
    with pytest.raises(ValueError) as e:
        Boxes(np.zeros((1, 5), np.float32), np.zeros(1, np.int8), np.zeros(1, np.float32))
    halves(str(e.value), "face_up must be bool, got int8", zh=("face_up", "int8"))


@pytest.mark.parametrize("value", [0.0, -0.5, 1.01, 2.0, math.nan, math.inf, -math.inf])
def test_the_detector_refuses_a_threshold_outside_0_to_1_naming_it(tmp_path: Path, value: float) -> None:
    with pytest.raises(DetectorError) as e:  # refused before any model is loaded: the path need not exist
        TileDetector(tmp_path / "none.onnx", threads=1, threshold=value, orient=False, backs=False)
    assert isinstance(e.value, ValueError)
    halves(str(e.value), "threshold must be above 0 and at most 1", f"got {value}",
           zh=("threshold", "須大於 0 且不超過 1", str(value)))


@pytest.mark.parametrize("value", [1.0, 0.5, 1e-6])
def test_the_detector_takes_a_threshold_above_0_up_to_1(tmp_path: Path, value: float) -> None:
    det = TileDetector(tiny_model(tmp_path / "det.onnx", DETECTOR_META), threads=1, threshold=value,
                       orient=False, backs=False)
    assert det.threshold == value


def test_a_detector_without_its_metadata_is_refused_in_both_languages(tmp_path: Path) -> None:
    bare = tiny_model(tmp_path / "bare.onnx", {})
    with pytest.raises(DetectorError) as e:
        TileDetector(bare, threads=1, orient=False, backs=False)
    halves(str(e.value), "bare.onnx lacks detector metadata ('long_side')", zh=("bare.onnx", "'long_side'"))
    odd = tiny_model(tmp_path / "odd.onnx", {**DETECTOR_META, "classes": "5"})  # JSON, but not a list
    with pytest.raises(DetectorError) as e:
        TileDetector(odd, threads=1, orient=False, backs=False)
    halves(str(e.value), "odd.onnx lacks detector metadata", zh=("odd.onnx",))
    rewritten = tiny_model(tmp_path / "rw.onnx", {**DETECTOR_META, "graph_rewrite": "[1]"})
    det = TileDetector(rewritten, threads=1, orient=False, backs=False)
    with pytest.raises(DetectorError) as e:
        det.sha256s()
    halves(str(e.value), "rw.onnx has unreadable graph_rewrite metadata", zh=("rw.onnx", "graph_rewrite"))


def test_images_the_detector_cannot_take_are_refused_in_both_languages(detector: TileDetector) -> None:
    with pytest.raises(DetectorError) as e:
        detector.detect(np.zeros((100, 100), np.uint8))
    halves(str(e.value), "expected an HxWx3 uint8 BGR image, got (100, 100) uint8", zh=("HxWx3", "(100, 100) uint8"))
    with pytest.raises(DetectorError) as e:
        detector.detect(np.zeros((5, 12, 3), np.uint8))
    halves(str(e.value), "image too small to hold a tile (12x5 pixels; at least 8x8)", zh=("12x5", "8x8"))
    with pytest.raises(DetectorError) as e:
        detector._run(np.zeros((360, 640, 3), np.uint8), (360, 640))
    halves(str(e.value), "multiples of 32, got 640x360", zh=("32", "640x360"))


def test_a_caller_answering_the_wrong_shape_is_told_in_both_languages(
        detector: TileDetector, monkeypatch: pytest.MonkeyPatch) -> None:
    one = Boxes(np.array([[32, 32, 12, 16, 0]], np.float32), np.array([True]), np.array([0.9], np.float32))
    monkeypatch.setattr(detector, "_proposals", lambda net_in, valid: (one, net_in[:valid[0], :valid[1]]))
    with pytest.raises(DetectorError) as e:
        detector.detect_read(np.zeros((64, 64, 3), np.uint8), lambda obb: np.zeros((len(obb), 3)), 5)
    halves(str(e.value), "read_faces answered (1, 3) for 1 face-up boxes, not 1 x 5", zh=("(1, 3)", "1 x 5"))


def test_a_back_check_for_another_detector_is_warned_of_in_both_languages(tmp_path: Path) -> None:
    det = tiny_model(tmp_path / "det.onnx", DETECTOR_META)
    backs = tiny_model(tmp_path / "backs.onnx", {**SQUARE_META, "threshold": "0.5", "candidates": "0.2",
                                                 "detector_sha256": "0123456789abcdef"})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        TileDetector(det, threads=1, orient=False, backs=backs)
    texts = [str(w.message) for w in caught if "another detector" in str(w.message)]
    assert len(texts) == 1
    halves(texts[0], "the back check backs.onnx was trained on another detector's boxes than det.onnx",
           zh=("backs.onnx", "det.onnx", "門檻"))


# --- the square models: orientation and back check ------------------------------------------------------


def test_square_models_without_their_metadata_are_refused_in_both_languages(tmp_path: Path) -> None:
    with pytest.raises(OrientError) as e:
        TileOrienter(tiny_model(tmp_path / "turn.onnx", {}), threads=1)
    halves(str(e.value), "turn.onnx lacks tile orientation model metadata ('input_size')",
           zh=("turn.onnx", "牌面方向模型", "'input_size'"))
    with pytest.raises(BackCheckError) as b:
        BackChecker(tiny_model(tmp_path / "noback.onnx", {}))
    halves(str(b.value), "noback.onnx lacks back-check model metadata ('input_size')",
           zh=("noback.onnx", "牌背檢查模型", "'input_size'"))
    with pytest.raises(BackCheckError) as b:
        BackChecker(tiny_model(tmp_path / "back.onnx", SQUARE_META))
    halves(str(b.value), "back.onnx lacks back-check metadata ('threshold')",
           zh=("back.onnx", "牌背檢查模型", "'threshold'"))


# --- the classifier and the flowers' strip model --------------------------------------------------------


def test_a_model_that_is_not_a_tile_classifier_is_refused_in_both_languages(tmp_path: Path) -> None:
    with pytest.raises(ModelError) as e:
        TileClassifier(tiny_model(tmp_path / "bare.onnx", {}), flower_look=False)
    halves(str(e.value), "bare.onnx: not a tile classifier (metadata 'class_names' missing or bad)",
           zh=("'class_names'",))
    odd = {**CLASSIFIER_META, "input_size": "[8, 8]"}  # JSON, but not {"width", "height"}
    with pytest.raises(ModelError) as e:
        TileClassifier(tiny_model(tmp_path / "odd.onnx", odd), flower_look=False)
    halves(str(e.value), "odd.onnx: not a tile classifier", zh=("不是牌面分類模型",))
    other = {**CLASSIFIER_META, "mean": "[0.4, 0.4, 0.4]"}
    with pytest.raises(ModelError) as e:
        TileClassifier(tiny_model(tmp_path / "other.onnx", other), flower_look=False)
    halves(str(e.value), "other.onnx: normalisation (0.4, 0.4, 0.4)/(0.25, 0.25, 0.25) differs from preprocess",
           zh=("(0.4, 0.4, 0.4)/(0.25, 0.25, 0.25)", f"{MEAN}/{STD}"))
    alien = {**CLASSIFIER_META, "class_names": json.dumps(["1m", "zz"])}
    with pytest.raises(ModelError) as e:
        TileClassifier(tiny_model(tmp_path / "alien.onnx", alien), flower_look=False)
    halves(str(e.value), 'alien.onnx: not a tile classifier (class "zz" is not a tile)', zh=('"zz"',))


def _strip_model(path: Path, changed: dict[str, str] | None = None) -> Path:
    """A model of the strip model's input with its metadata (``changed``: these entries otherwise; ``{}``:
    none at all)."""
    w, h = flower.STRIP_SIZE
    good = {"class_names": json.dumps(list(flower.FLOWERS)), "input_size": json.dumps({"width": w, "height": h}),
            "strip_top": str(flower.STRIP_TOP), "mean": json.dumps(MEAN), "std": json.dumps(STD)}
    meta = good if changed is None else {**good, **changed} if changed else {}
    return tiny_model(path, meta, ("N", 3, h, w))


def test_a_classifier_without_the_flowers_for_the_second_look_is_refused_in_both_languages(tmp_path: Path) -> None:
    main = tiny_model(tmp_path / "main.onnx", CLASSIFIER_META)
    strips = _strip_model(tmp_path / "strips.onnx")
    assert flower.FlowerReader(strips).path == strips
    with pytest.raises(ModelError) as e:
        TileClassifier(main, flower_model=strips)
    halves(str(e.value), "main.onnx: no classes ['1f', ", "for the flowers' second look", zh=("['1f', ", "花牌"))


@pytest.mark.parametrize("meta", [{}, {"class_names": "{{not json"}, {"input_size": "[96, 48]"},
                                  {"strip_top": "top"}, {"logit_scale": "{"}],
                         ids=["none", "not-json", "not-a-dict", "not-a-number", "bad-logit-scale"])
def test_a_model_that_is_not_a_strip_model_is_refused_in_both_languages(tmp_path: Path, meta: dict[str, str]) -> None:
    with pytest.raises(flower.FlowerModelError) as e:
        flower.FlowerReader(_strip_model(tmp_path / "s.onnx", meta))
    halves(str(e.value), "s.onnx: not a flower-strip model for (96, 48) strips of the top 0.42 normalised with",
           zh=("花牌", "(96, 48)", "0.42", f"{MEAN}/{STD}"))
