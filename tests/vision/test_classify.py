"""The classifier pipeline end to end on a model from `train_classifier --smoke`: ONNX metadata, batched
inference, the CLI's per-file results and errors, calibration storage and blending."""

import json
import random
from pathlib import Path

import numpy as np
import onnx
import pytest

from companion import cli
from companion.tiles import Tile
from companion.vision import calibration
from companion.vision.classify import NOT_A_TILE, TileClassifier
from companion.vision.preprocess import INPUT_SIZE, CropError, prepare
from training import train_classifier
from training.synth.faces import face_box, render_face, sample_style


@pytest.fixture(scope="module")
def smoke_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("model") / "smoke.onnx"
    assert train_classifier.main(["--smoke", "--quiet", "--out", str(out)]) == 0
    return out


def _crops(n_tiles: int = 43, seed: int = 1) -> list[tuple[Tile, np.ndarray]]:
    style = sample_style(random.Random(seed), "heldout")
    out = []
    for i in range(n_tiles):
        im = render_face(Tile(i), style, (90, 120))
        x0, y0, x1, y1 = (round(v) for v in face_box(style, (90, 120)))
        rgb = np.asarray(im.convert("RGB"))[y0:y1, x0:x1]
        out.append((Tile(i), np.ascontiguousarray(rgb[:, :, ::-1])))
    return out


def test_model_describes_itself(smoke_model: Path) -> None:
    meta = {p.key: p.value for p in onnx.load(str(smoke_model)).metadata_props}
    names = json.loads(meta["class_names"])
    assert names[:43] == [Tile(i).code for i in range(43)] and names[43] == NOT_A_TILE
    assert json.loads(meta["input_size"]) == {"width": INPUT_SIZE[0], "height": INPUT_SIZE[1]}
    assert meta["training_commit"] and json.loads(meta["training"])["seed"] == 20261129


def test_batches_agree_with_single_crops(smoke_model: Path) -> None:
    clf = TileClassifier(smoke_model, threads=1)
    crops = [c for _, c in _crops(5)]
    together = clf.probabilities(crops)
    alone = np.concatenate([clf.probabilities([c]) for c in crops])
    assert np.allclose(together, alone, atol=1e-5)
    for p in clf.classify(crops):
        assert 0.0 <= p.score <= 1.0 and len(p.top3) == 3
        assert p.top3[0][1] >= p.top3[1][1] >= p.top3[2][1]
        assert p.label == p.top3[0][0] or p.label == NOT_A_TILE
    assert clf.classify([]) == []


def test_bad_crops_are_errors() -> None:
    with pytest.raises(CropError, match="too small"):
        prepare([np.zeros((1, 5, 3), np.uint8)])
    with pytest.raises(CropError, match="uint8"):
        prepare([np.zeros((10, 5, 3), np.float32)])


def test_cli_json_one_line_per_file_and_errors_do_not_stop_the_batch(
    smoke_model: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import cv2

    good = tmp_path / "5p.png"
    cv2.imwrite(str(good), _crops(14)[13][1])
    bad = tmp_path / "broken.jpg"
    bad.write_bytes(b"\xff\xd8\xff\xe0 truncated")
    code = cli.main(["classify", str(bad), str(good), "--json", "--model", str(smoke_model), "--no-calibration"])
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 1
    assert [o["file"] for o in out] == [str(bad), str(good)]
    assert "error" in out[0] and "broken.jpg" in out[0]["error"]
    assert set(out[1]) == {"file", "tile", "score", "top3"} and len(out[1]["top3"]) == 3


def test_calibration_roundtrip_select_and_blend(
    smoke_model: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    samples = _crops(43, seed=3)
    cal = calibration.Calibration.from_crops("my-set", samples)
    calibration.save(cal)
    calibration.select("my-set")
    assert calibration.list_sets() == ["my-set"] and calibration.selected() == "my-set"
    back = calibration.load("my-set")
    assert back.tiles == cal.tiles and np.array_equal(back.crops, cal.crops)
    clf = TileClassifier(smoke_model, calibration=back)
    probs = clf.probabilities([c for _, c in samples])
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-4)
    assert probs.shape == (43, len(clf.info.class_names)) and clf.info.logit_scale > 0
    calibration.delete("my-set")
    assert calibration.list_sets() == [] and calibration.selected() is None
    with pytest.raises(calibration.CalibrationError, match="no calibration named"):
        calibration.load("my-set")
    with pytest.raises(calibration.CalibrationError, match="name"):
        calibration.Calibration.from_crops("../evil", samples[:1])


def test_calibrate_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import cv2

    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    folder = tmp_path / "crops"
    folder.mkdir()
    for tile, crop in _crops(3):
        cv2.imwrite(str(folder / f"{tile.code}.png"), crop)
    assert cli.main(["calibrate", "add", "home", str(folder)]) == 0
    assert "3 crops of 3 kinds" in capsys.readouterr().out
    assert cli.main(["calibrate", "list"]) == 0
    assert capsys.readouterr().out.strip() == "* home"
    assert cli.main(["calibrate", "use", "nope"]) == 2


def test_blend_logits_moves_only_calibrated_classes_towards_their_prototypes() -> None:
    rng = np.random.default_rng(0)
    emb = rng.normal(size=(5, 8)).astype(np.float32)
    emb /= np.linalg.norm(emb, axis=1, keepdims=True)
    weights = rng.normal(size=(6, 8)).astype(np.float32)
    weights /= np.linalg.norm(weights, axis=1, keepdims=True)
    logits = 20.0 * emb @ weights.T
    classes = np.array([1, 4])
    protos = emb[[2, 3]]  # crop 2 is the prototype of class 1, crop 3 of class 4
    out = calibration.blend_logits(logits, emb, classes, protos, 20.0, weight=0.7)
    keep = [0, 2, 3, 5]
    assert np.array_equal(out[:, keep], logits[:, keep])
    assert np.allclose(out[:, classes], 0.3 * logits[:, classes] + 0.7 * 20.0 * emb @ protos.T, atol=1e-5)
    assert out[2, 1] == pytest.approx(0.3 * logits[2, 1] + 14.0, abs=1e-4)  # cosine 1 with its own prototype


def test_views_keep_shape_and_differ() -> None:
    crop = _crops(1, seed=5)[0][1]
    vs = calibration.views(crop, np.random.default_rng(1), 6)
    assert len(vs) == 6 and vs[0] is crop
    assert all(v.shape == crop.shape and v.dtype == np.uint8 for v in vs)
    assert all(not np.array_equal(v, crop) for v in vs[1:])
