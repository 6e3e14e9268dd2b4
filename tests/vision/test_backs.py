"""The back check: the packaged network describes itself, keeps the face-down boxes on real backs and drops
those on bare table, and the detector and the reader use it."""

import json

import numpy as np
import pytest

from companion.tiles import Tile
from companion.vision.backs import BackChecker, BackCheckError
from companion.vision.detect import TileDetector, letterbox
from companion.vision.read import TileReader
from training.synth.faces import CLEAN_STYLE
from training.synth.scene import Camera, Lighting, PlacedTile, Pose, SceneStyle, render_table

FACES = [Tile.M1, Tile.M5, Tile.P4, Tile.S3, Tile.Z1, Tile.Z5]


def wall_and_cloth() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A 1280x720 frame with a wall of eight backs two high and a row of six face-up tiles; the boxes of the
    wall's top level at the detector's scale (640x360), and as many boxes of that size on bare table below
    the wall (inside the frame: the check never sees the letterbox)."""
    tiles = [PlacedTile(Tile.UNKNOWN, (i - 3.5) * 28.0, -40.0, lv, 0, Pose.FACE_DOWN) for i in range(8) for lv in (0, 1)]
    tiles += [PlacedTile(k, (i - 2.5) * 29.0, 60.0, 0, 0) for i, k in enumerate(FACES)]
    cam = Camera(target=(0.0, 0.0), distance=800.0, tilt=12.0, focal=1100.0, size=(1280, 720))
    frame, labels = render_table(tiles, cam, SceneStyle(CLEAN_STYLE), Lighting(uneven=0.1), (), seed=4)
    top = np.array([lab.obb() for lab in labels if lab.visible > 0.9 and not lab.face_up], np.float32)
    top[:, :4] /= 2  # the detector reads the frame at 640x360
    bare = top.copy()
    bare[:, 1] += 90  # well below the wall (y about 200 -> 290 of 360): only cloth there
    return frame, top, bare


def seen(frame: np.ndarray) -> np.ndarray:
    """The frame as the detector's input shows it, without the letterbox's padding."""
    return letterbox(frame, 640)[0][:360]


def test_a_missing_model_is_named(tmp_path) -> None:
    with pytest.raises(BackCheckError, match="none.onnx"):
        BackChecker(tmp_path / "none.onnx")


def test_packaged_model_describes_itself() -> None:
    check = BackChecker()
    assert check.size == 48 and check.span == 3.0 and 0 < check.threshold < 1 and 0 < check.candidates <= 0.5
    assert "threshold_choice" in check.meta and json.loads(check.meta["threshold_choice"])["shipped"] == check.threshold
    meta = check.session.get_modelmeta().custom_metadata_map
    assert {"training_commit", "training_command", "heldout_val", "detector"} <= set(meta)


def test_the_check_runs_on_the_detectors_threads() -> None:
    for threads in (1, 2):
        det = TileDetector(threads=threads)
        assert det.backs is not None
        assert det.backs.session.get_session_options().intra_op_num_threads == threads


def test_packaged_model_tells_a_wall_from_bare_table() -> None:
    frame, top, bare = wall_and_cloth()
    check = BackChecker()
    on_wall, on_cloth = check.probabilities(seen(frame), top), check.probabilities(seen(frame), bare)
    assert len(top) == 8 and on_wall.shape == (8,) and bare[:, 1].max() + bare[:, 3].max() < 360
    assert (on_wall >= check.threshold).sum() >= 6 and (on_cloth >= check.threshold).sum() <= 1
    assert check.probabilities(seen(frame), top[:0]).shape == (0,)


def test_keep_passes_every_face_up_box_and_checks_the_face_down_ones() -> None:
    frame, top, bare = wall_and_cloth()
    obb = np.concatenate([top, bare])
    up = np.zeros(len(obb), bool)
    up[bare.shape[0]:] = True  # the boxes on cloth said face up: not the check's to drop
    assert BackChecker(threshold=0.0).keep(seen(frame), obb, up).all()
    strict = BackChecker(threshold=1.01).keep(seen(frame), obb, up)
    assert not strict[:len(top)].any() and strict[len(top):].all()


def test_the_detector_drops_face_down_boxes_the_check_refuses() -> None:
    frame, _, _ = wall_and_cloth()
    plain = TileDetector(threads=1, backs=False).detect(frame)
    checked = TileDetector(threads=1)
    assert checked.backs is not None and checked.down_threshold == checked.backs.candidates
    assert (~plain.face_up).sum() >= 6 and (~checked.detect(frame).face_up).sum() >= 6
    checked.backs.threshold = 1.01  # refuses every back: the face-up tiles all stay
    checked.rows = False  # (with rows, two doubted backs side by side would start one)
    got = checked.detect(frame)
    assert (~got.face_up).sum() == 0 and got.face_up.sum() >= plain.face_up.sum() >= 5


def test_decode_takes_a_threshold_per_channel() -> None:
    from companion.vision.detect import decode

    peaks = np.zeros((2, 20, 20), np.float32)
    peaks[0, 5, 5], peaks[1, 15, 15], peaks[1, 5, 15] = 0.45, 0.35, 0.25
    reg = np.zeros((6, 20, 20), np.float32)
    reg[4] = 1.0
    assert len(decode(peaks, reg, 4, 0.5)) == 0
    got = decode(peaks, reg, 4, (0.4, 0.3))
    assert got.face_up.tolist() in ([True, False], [False, True]) and sorted(got.score.round(2)) == [0.35, 0.45]


@pytest.mark.parametrize("turns", [1, 2])
def test_checked_backs_are_read_without_the_classifier(monkeypatch: pytest.MonkeyPatch, turns: int) -> None:
    frame, _, _ = wall_and_cloth()
    reader = TileReader(detector_threads=1, classifier_threads=1, turns=turns)
    names = reader.classifier.info.class_names
    asked: list[int] = []

    def spy(crops: list[np.ndarray], reread: bool | None = None) -> np.ndarray:  # every face reads 3s
        asked.append(len(crops))
        out = np.zeros((len(crops), len(names)), np.float32)
        out[:, names.index("3s")] = 1.0
        return out

    monkeypatch.setattr(reader.classifier, "probabilities", spy)
    found = reader.detector.detect(frame)
    dets = reader.read(frame)
    # the checked backs are read 0x for sure; only the face-up boxes reach the classifier (in each turn)
    assert (~dets.face_up).sum() >= 6 and dets.face_up.sum() >= 5 and sum(asked) == turns * int(found.face_up.sum())
    assert all(Tile(int(k)) == Tile.UNKNOWN for k in dets.kind[~dets.face_up])
    assert all(Tile(int(k)) == Tile.S3 for k in dets.kind[dets.face_up])
    assert np.allclose(dets.top3_score[~dets.face_up, 0], 1.0)
    # in the detector's order
    assert np.array_equal(dets.face_up, found.face_up) and np.allclose(dets.obb[:, :2], found.obb[:, :2])


def test_the_packaged_detector_and_back_check_belong_together(tmp_path) -> None:
    """The shipped detector's graph was rewritten after the check learnt its boxes; it names the file it came
    from, so the pair loads without a warning, and a check naming any other detector is warned about."""
    import warnings

    import onnx

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        det = TileDetector(threads=1)
    assert det.backs is not None and det.backs.detector_sha256 in det.sha256s()
    other = onnx.load(str(det.backs.path))
    for p in other.metadata_props:
        if p.key == "detector_sha256":
            p.value = "0123456789abcdef"
    onnx.save(other, str(tmp_path / "backs.onnx"))
    with pytest.warns(UserWarning, match="another detector"):
        TileDetector(threads=1, backs=tmp_path / "backs.onnx")


def test_a_face_up_box_read_as_a_back_must_pass_the_check_too() -> None:
    """A grey chip reads like a plain back to the classifier; the detector called it face up, so the check had
    not seen it. Boxes read as backs face up go through the check: those it finds no tile in are dropped."""
    from companion.vision.detect import Boxes

    reader = TileReader(detector_threads=1, classifier_threads=1)
    check = reader.detector.backs
    assert check is not None
    obb = np.array([[100, 100, 30, 40, 0], [200, 100, 30, 40, 0], [300, 100, 30, 40, 0], [400, 100, 30, 40, 0]],
                   np.float32)
    boxes = Boxes(obb, np.array([True, True, True, False]), np.ones(4, np.float32))
    probs = np.full((4, len(reader._kind_of)), 0.01, np.float32)
    probs[:3, reader._back] = 0.9  # three face-up boxes read as backs
    probs[3, reader._back] = 0.9  # and a face-down one (the detector's check already passed it)
    seen = []

    def fake(image: np.ndarray, boxes_obb: np.ndarray) -> np.ndarray:
        seen.append(boxes_obb.copy())
        return np.array([0.95, 0.2, check.threshold], np.float32)[:len(boxes_obb)]

    check.probabilities = fake  # type: ignore[method-assign]
    out = reader._checked_face_up_backs(boxes, probs, np.zeros((200, 500, 3), np.uint8))
    assert len(seen) == 1 and np.array_equal(seen[0], obb[:3])  # only the face-up backs are checked
    assert out[1].argmax() == reader._unknown and out[1, reader._unknown] == 1.0  # no tile there: dropped
    assert np.array_equal(out[[0, 2, 3]], probs[[0, 2, 3]])  # passed (at the threshold too) or face down
    probs[:3, reader._back] = 0.0
    probs[:3, 5] = 0.9  # read as faces: not checked
    reader._checked_face_up_backs(boxes, probs, np.zeros((200, 500, 3), np.uint8))
    assert len(seen) == 1
