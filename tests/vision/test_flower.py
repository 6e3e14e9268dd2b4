"""The flowers' second look: the strip cut, the re-division of the flower share, and the training pipeline
end to end (a smoke model read through FlowerReader and TileClassifier)."""

from pathlib import Path

import numpy as np
import pytest

from companion.vision import flower
from companion.vision.classify import TileClassifier
from training import train_classifier, train_flower


def test_strip_is_the_top_of_the_crop() -> None:
    crop = np.zeros((200, 150, 3), np.uint8)
    crop[: int(200 * flower.STRIP_TOP)] = (0, 0, 255)  # red top
    crop[int(200 * flower.STRIP_TOP):] = (255, 0, 0)
    s = flower.strip(crop)
    assert s.shape == (flower.STRIP_SIZE[1], flower.STRIP_SIZE[0], 3)
    assert s[..., 2].min() >= 250 and s[..., 0].max() <= 5
    x = flower.prepare_strips([crop, crop[:40, :30]])
    assert x.shape == (2, 3, flower.STRIP_SIZE[1], flower.STRIP_SIZE[0]) and x.dtype == np.float32


class _Reader:
    """Says 3f for every strip it is shown, and records how many it saw."""

    def __init__(self) -> None:
        self.seen = 0

    def probabilities(self, crops: list[np.ndarray]) -> np.ndarray:
        self.seen += len(crops)
        q = np.full((len(crops), 8), 0.01)
        q[:, 2] = 0.93
        return q


def test_second_look_redivides_only_the_flower_share_of_flower_like_crops() -> None:
    cols = np.arange(34, 42)
    probs = np.full((3, 44), 0.0)
    probs[0, 34:42] = [0.05, 0.05, 0.1, 0.5, 0.05, 0.05, 0.05, 0.05]  # a flower, main model says 4f
    probs[0, 0] = 0.1
    probs[1, 5] = 0.95  # a suit tile with a little flower probability: no second look
    probs[1, 34] = 0.05
    probs[2, 34:42] = 0.1  # evenly unsure between flowers
    probs[2, 43] = 0.2
    reader = _Reader()
    crops = [np.zeros((80, 60, 3), np.uint8)] * 3
    out = flower.second_look(probs, crops, cols, reader)  # type: ignore[arg-type]
    assert reader.seen == 2
    small = flower.second_look(probs, [np.zeros((40, 30, 3), np.uint8)] * 3, cols, reader)  # type: ignore[arg-type]
    assert np.array_equal(small, probs) and reader.seen == 2  # too few pixels for a second look
    assert np.array_equal(out[1], probs[1])
    assert np.allclose(out.sum(axis=1), probs.sum(axis=1))
    assert np.allclose(out[:, cols].sum(axis=1), probs[:, cols].sum(axis=1))
    assert out[0, 36] > out[0, 37] and out[2, 36] == out[2, cols].max()
    assert out[0, 0] == probs[0, 0] and out[2, 43] == probs[2, 43]


@pytest.fixture(scope="module")
def smoke_models(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    d = tmp_path_factory.mktemp("flower")
    assert train_flower.main(["--smoke", "--quiet", "--out", str(d / "flower.onnx")]) == 0
    assert train_classifier.main(["--smoke", "--quiet", "--out", str(d / "main.onnx")]) == 0
    return d / "main.onnx", d / "flower.onnx"


def test_smoke_flower_model_runs_inside_the_classifier(smoke_models: tuple[Path, Path]) -> None:
    main, strip_model = smoke_models
    reader = flower.FlowerReader(strip_model)
    q = reader.probabilities([np.full((120, 90, 3), 200, np.uint8)] * 3)
    assert q.shape == (3, 8) and np.allclose(q.sum(axis=1), 1, atol=1e-5)
    clf = TileClassifier(main, flower_model=strip_model)
    assert clf.flower is not None
    probs = clf.probabilities([np.full((120, 90, 3), v, np.uint8) for v in (30, 200)])
    assert probs.shape == (2, 44) and np.allclose(probs.sum(axis=1), 1, atol=1e-4)
    assert TileClassifier(main, flower_look=False).flower is None
    # the second look with the real (smoke) strip model: the flower share is kept and re-divided by it
    probs = np.zeros((1, 44))
    probs[0, 34:42] = 0.06
    probs[0, 3] = 0.52
    out = flower.second_look(probs, [np.full((120, 90, 3), 180, np.uint8)], np.arange(34, 42), reader)
    q = reader.probabilities([np.full((120, 90, 3), 180, np.uint8)])[0]
    assert out[0, 3] == probs[0, 3] and np.isclose(out[0, 34:42].sum(), 0.48)
    mix = np.sqrt(probs[0, 34:42]) * q
    assert np.allclose(out[0, 34:42], 0.48 * mix / mix.sum(), atol=1e-6)


def test_a_model_that_is_not_a_strip_model_is_refused(smoke_models: tuple[Path, Path]) -> None:
    main, _ = smoke_models
    with pytest.raises(flower.FlowerModelError, match="not a flower-strip model"):
        flower.FlowerReader(main)
    with pytest.raises(flower.FlowerModelError, match="not found"):
        flower.FlowerReader(main.parent / "missing.onnx")


def test_calibration_gives_the_strip_model_flower_prototypes(smoke_models: tuple[Path, Path]) -> None:
    from companion.tiles import Tile
    from companion.vision.calibration import Calibration

    main, strip_model = smoke_models
    rng = np.random.default_rng(4)
    crops = [(Tile(k), rng.integers(0, 255, (120, 90, 3), dtype=np.uint8)) for k in (0, 35, 38, 40)]
    clf = TileClassifier(main, flower_model=strip_model, calibration=Calibration.from_crops("s", crops))
    assert clf.flower is not None and clf.flower.prototypes is not None
    classes, protos = clf.flower.prototypes
    assert classes.tolist() == [1, 4, 6] and protos.shape[0] == 3
    assert np.allclose(np.linalg.norm(protos, axis=1), 1, atol=1e-5)
    q = clf.flower.probabilities([c for _, c in crops])
    assert q.shape == (4, 8) and np.allclose(q.sum(axis=1), 1, atol=1e-5)
    no_flowers = Calibration.from_crops("t", crops[:1])
    assert TileClassifier(main, flower_model=strip_model, calibration=no_flowers).flower.prototypes is None  # type: ignore[union-attr]
