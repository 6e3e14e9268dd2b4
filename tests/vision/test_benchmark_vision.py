"""benchmarks/vision.py's scoring of held-out scenes and its speed comparison: their parts add up (the
targets themselves are measured by running the benchmark, not here; no timing is asserted)."""

import itertools
import sys
import time
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
    poses = got["recall_by_pose"]
    assert sum(p["visible"] for p in poses.values()) == got["tiles"]
    assert sum(p["recall"] * p["visible"] for p in poses.values()) == pytest.approx(got["recall_iou50"] * got["tiles"])
    assert set(poses) <= {"face_up", "face_down", "standing_face", "standing_outline"} and "face_down" in poses
    turns = got["faces_by_turn"]
    assert set(turns) == {"table", "photo"} and all(set(t) <= {"0", "90", "180", "270"} for t in turns.values())
    faces_found = got["recall_face_up"] * up
    assert sum(v["found"] for t in turns.values() for v in t.values()) == pytest.approx(faces_found)
    assert all(0 <= v["kinds_right"] <= 1 for t in turns.values() for v in t.values())
    assert turns["table"]["0"]["found"] > 0


def test_quarter_turns_round_to_the_nearest_and_wrap() -> None:
    from benchmarks.vision import _quarter_turns

    assert [_quarter_turns(a, 0) for a in (0, 44, 46, 90, 179, -170, -91, -10, 359)] == [0, 0, 1, 1, 2, 2, 3, 0, 0]
    assert _quarter_turns(-175, 175) == 0 and _quarter_turns(100, -170) == 3


def _fake_peer(root: Path, fail_after: int | None = None) -> Path:
    """A stand-in for PyPI mahjong-detector (which is never installed with the product): the same two calls;
    it notes the wall-clock time of each read in ``peer.log`` (returned), prints a line of its own to stdout
    (a library's chatter must not break the replies) and, with ``fail_after``, fails from that read on."""
    pkg = root / "mahjong_detector"
    pkg.mkdir()
    log = root / "peer.log"
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "preprocess.py").write_text("def preprocess_image(img):\n    return img, None\n", encoding="utf-8")
    (pkg / "predict.py").write_text(f"""import time
print("mahjong-detector stand-in loaded")
calls = [0]
def predict(img, pad):
    calls[0] += 1
    if {fail_after!r} is not None and calls[0] > {fail_after!r}:
        raise RuntimeError("no model here")
    with open({str(log)!r}, "a") as f:
        f.write(f"{{time.time()}}\\n")
    return [1, 2, 3]
""", encoding="utf-8")
    return log


class _Recording(TileReader):
    """The reader, noting the wall-clock time of each read."""

    def __init__(self) -> None:
        super().__init__(detector_threads=1, classifier_threads=1)
        self.times: list[float] = []

    def read(self, image: np.ndarray, tiled: bool = False):  # type: ignore[no-untyped-def]
        self.times.append(time.time())
        return super().read(image, tiled)


def test_speed_interleaves_the_peer_in_blocks_and_reports_the_ratio(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    log = _fake_peer(tmp_path)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    reader = _Recording()
    got = speed(reader, np.full((720, 1280, 3), 90, np.uint8), runs=7, peer_python=sys.executable, block=3)
    assert got["mahjong_detector"]["tiles_found"] == 3  # type: ignore[index]
    blocks = got["times_faster_per_block"]
    assert blocks["blocks"] == 3 and blocks["block_runs"] == 3  # type: ignore[index]
    assert blocks["min"] <= blocks["median"] <= blocks["max"]  # type: ignore[index]
    events = sorted([(t, "ours") for t in reader.times] +
                    [(float(t), "peer") for t in log.read_text(encoding="utf-8").split()])
    runs = [(who, len(list(g))) for who, g in itertools.groupby(who for _, who in events)]
    # 3 warm-up reads of ours, the peer's 3 warm-up reads, then blocks of 3, 3 and 1 each, taking turns
    assert runs == [("ours", 3), ("peer", 3), ("ours", 3), ("peer", 3), ("ours", 3), ("peer", 3), ("ours", 1),
                    ("peer", 1)]


def test_a_peer_failing_at_start_or_midway_is_reported_and_ours_still_timed(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    frame = np.full((720, 1280, 3), 90, np.uint8)
    reader = _Recording()
    for fail_after in (0, 5):  # in its warm-up; in its second block
        root = tmp_path / str(fail_after)
        root.mkdir()
        _fake_peer(root, fail_after)
        monkeypatch.setenv("PYTHONPATH", str(root))
        reader.times.clear()
        got = speed(reader, frame, runs=6, peer_python=sys.executable, block=2)
        assert "no model here" in str(got["mahjong_detector"]) and "times_faster" not in got
        assert got["ours"]["read_ms_median"] > 0 and len(reader.times) == 3 + 6  # type: ignore[index]
    with pytest.raises(ValueError, match="at least 1"):
        speed(reader, frame, runs=0)
    got = speed(reader, frame, runs=2, peer_python=str(tmp_path / "no-such-python"), block=2)  # a wrong path
    assert "cannot start" in str(got["mahjong_detector"]) and got["ours"]["read_ms_median"] > 0  # type: ignore[index]


def test_bad_arguments_are_refused_before_any_scene_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    import benchmarks.vision as bv

    monkeypatch.setattr(bv, "synthetic", lambda *a, **k: pytest.fail("scenes were read"))
    for argv, says in [(["--runs", "0"], "--runs must be at least 1"), (["--scenes", "0"], "--scenes must be"),
                       (["--threads", "0"], "--threads must be"), (["--long-side", "-5"], "--long-side must be"),
                       (["--dev", str(tmp_path)], "no photo_boxes.json"),
                       (["--backs", str(tmp_path / "none.onnx")], "cannot load the reader's models"),
                       (["--turns", "3"], "cannot load the reader's models")]:
        with pytest.raises(SystemExit) as e:
            bv.main(argv)
        assert e.value.code == 2 and says in capsys.readouterr().err, argv


def test_dev_errata_name_real_tiles_and_correct_only_their_own_box(tmp_path: Path) -> None:
    errata = load_errata()
    assert len(errata) == 2
    (photo, box), (labelled, shows) = next(iter(errata.items()))
    assert corrected_label(photo, {"tile": labelled, "xyxy": list(box)}, errata) == shows
    assert corrected_label(photo, {"tile": "1m", "xyxy": [v + 1 for v in box]}, errata) == "1m"
    assert corrected_label("other.jpg", {"tile": "1m", "xyxy": list(box)}, errata) == "1m"
    with pytest.raises(ValueError, match="corrects the label"):  # the dev data changed under the erratum
        corrected_label(photo, {"tile": shows, "xyxy": list(box)}, errata)
    bad = tmp_path / "errata.json"
    for entry, why in (('{"photo": "p.jpg", "xyxy": [0, 0, 1, 1], "labelled": "9m", "shows": "9x"}', "9x"),
                       ('{"photo": "p.jpg", "labelled": "9m", "shows": "5m"}', "xyxy"),
                       ('{"photo": "p.jpg", "xyxy": [0, 0, 1, 1], "labelled": "9m", "shows": "9m"}', "the same")):
        bad.write_text('{"photo_boxes": [' + entry + "]}", encoding="utf-8")
        with pytest.raises(ValueError, match=why):
            load_errata(bad)


def test_a_distractor_counts_only_where_it_shows_not_under_tiles_or_as_a_hand() -> None:
    """A box is read "on a distractor" where a prop other than a hand shows; a wall built over a phone is tiles
    there (the box is a false box on a tile)."""
    from types import SimpleNamespace

    from benchmarks.vision import _distractor_mask
    from training.synth.scene_props import Occluder, PropKind

    props = [Occluder(PropKind.PHONE, 0, 0, 150), Occluder(PropKind.COIN, 50, 0, 25),
             Occluder(PropKind.HAND, 0, 0, 170, height=60)]
    from training.synth.scene import SIDE_ID, prop_id

    # phone, hand, coin, a tile's side / a tile, table, a tile over the phone, another tile's side
    ids = np.array([[prop_id(0), prop_id(2), prop_id(1), SIDE_ID], [1, 0, 7, SIDE_ID]], np.int32)
    mask = _distractor_mask(SimpleNamespace(occluders=props), ids)  # type: ignore[arg-type]
    assert mask.tolist() == [[1, 0, 1, 0], [0, 0, 0, 0]]


def test_dev_photos_score_labelled_tiles_and_copies_uncalibrated_and_calibrated(tmp_path: Path,
                                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in dev folder: a photo of the packaged tile pictures in a grid (four copies of six kinds, the
    first row labelled, the rest copies), crops.csv holding the labelled tiles' crops but the last kind's (so
    its copies are not scored calibrated), and the packaged classifier standing in for the set's left-out
    model."""
    import json
    import shutil

    import cv2

    import companion.vision.calibration as calibration
    from benchmarks.vision import dev_photos
    from companion.vision.classify import default_model_path
    from tests.training.test_dev_copies import KINDS, _grid

    tiles = _grid(tmp_path, "photos/9.png")
    labelled, copies = tiles[::4], [t for i, t in enumerate(tiles) if i % 4]
    (tmp_path / "crops").mkdir()
    photo = cv2.imread(str(tmp_path / "photos/9.png"))
    rows = ["file,tile,source_photo"]
    for i, (kind, (x0, y0, x1, y1)) in enumerate(labelled[:-1]):
        cv2.imwrite(str(tmp_path / "crops" / f"{i}.png"), cv2.resize(photo[y0:y1, x0:x1], (60, 80)))
        rows.append(f"crops/{i}.png,{kind},9.png")
    (tmp_path / "crops.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    entries = [{"photo": "photos/9.png", "xyxy": box, "tile": kind} for kind, box in copies]
    entries[0]["crop"] = "crops/0.png"  # as if crops.csv's 1m had been cut from this copy: never scored
    copies_file = tmp_path / "copies.json"
    copies_file.write_text(json.dumps({"copies": entries}), encoding="utf-8")
    loso = tmp_path / "loso"
    loso.mkdir()
    shutil.copy(default_model_path(), loso / "tile_classifier_minus_9.onnx")
    made: list[tuple[str, list[str]]] = []
    real = calibration.Calibration.from_crops.__func__  # type: ignore[attr-defined]

    def spy(cls: type, name: str, samples: list) -> calibration.Calibration:
        made.append((name, sorted(t.code for t, _ in samples)))
        return real(cls, name, samples)  # type: ignore[no-any-return]

    monkeypatch.setattr(calibration.Calibration, "from_crops", classmethod(spy))
    out = dev_photos(TileReader(), tmp_path, (loso, None, None), copies_file)
    assert made == [("set9", sorted(KINDS[:-1]))]  # one calibration: set 9's crops
    assert out["labelled"] == len(KINDS) and out["copies"] == 3 * len(KINDS) - 1
    assert out["copies_of_calibrated_kinds"] == 3 * (len(KINDS) - 1) - 1
    per = out["per_photo"]["photos/9.png"]
    assert per["labelled"] == len(KINDS) and per["copies"] == 3 * len(KINDS) - 1
    assert float(out["found"]) >= 5 / 6 and float(out["copies_found"]) >= 15 / 17
    # the packaged pictures are clean renders of trained styles: read right, calibrated or not
    assert float(out["copies_read_right"]) >= 15 / 17
    assert float(out["copies_of_calibrated_kinds_read_right_uncalibrated"]) >= 13 / 14
    assert float(out["copies_read_right_calibrated"]) >= 13 / 14
    entries[1]["photo"] = "photos/8.png"
    copies_file.write_text(json.dumps({"copies": entries}), encoding="utf-8")
    with pytest.raises(ValueError, match="copy 2 names photos/8.png"):
        dev_photos(TileReader(), tmp_path, (loso, None, None), copies_file)


def test_row_holes_takes_the_middle_standing_tile_out_and_counts_boxes_put_there() -> None:
    from benchmarks.row_holes import _holes, holes_left
    from training.synth.faces import sample_style
    from training.synth.scene_geometry import Pose
    from training.synth.scene_layouts import random_scene

    rng = np.random.default_rng([1, 1])  # the second scene of seed 1: three standing rows of 5 or more shown
    scene = random_scene(rng, sample_style(rng, "heldout"), "heldout", "table", (1280, 720), None)
    holed, boxes = _holes(scene)
    assert len(boxes) == 3 and len(holed.layout) == len(scene.layout) - len(boxes)
    gone = [t for t in scene.layout if t not in holed.layout]
    assert all(t.pose is Pose.STANDING for t in gone)
    reader = TileReader()
    out = holes_left(reader, 2, 1)
    assert out["holes"] >= len(boxes)
    assert 0 <= out["filled_with_holes_off"] <= out["holes"] and 0 <= out["filled_with_holes_on"] <= out["holes"]
    assert reader.detector.holes  # restored


def test_row_holes_counts_a_hole_as_filled_where_the_reader_puts_a_box_on_it(monkeypatch) -> None:
    import benchmarks.row_holes as rh

    hole = np.array([200.0, 100.0, 20.0, 28.0, 0.0], np.float32)
    monkeypatch.setattr(rh, "_holes", lambda scene: (scene, [hole]))
    monkeypatch.setattr(rh, "_render", lambda scene: (np.zeros((8, 8, 3), np.uint8), []))

    class Reader:  # puts a box on the hole only with filling on, and the box of a neighbour always
        def __init__(self) -> None:
            self.detector = type("D", (), {"holes": True})()

        def read(self, frame: np.ndarray) -> object:
            boxes = [hole + [21.0, 0, 0, 0, 0]] + ([hole] if self.detector.holes else [])
            return type("R", (), {"obb": np.array(boxes, np.float32)})()

    reader = Reader()
    out = rh.holes_left(reader, 3, 1)  # type: ignore[arg-type]
    assert (out["holes"], out["filled_with_holes_on"], out["filled_with_holes_off"]) == (3, 3, 0)
    assert reader.detector.holes
