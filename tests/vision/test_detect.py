"""The tile detector: letterboxing, decoding, box geometry, matching, and the packaged model on a scene."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.vision.detect import (
    Boxes,
    DetectorError,
    TileDetector,
    angle_between,
    decode,
    default_model_path,
    letterbox,
    match_boxes,
    obb_corners,
    obb_iou,
    obb_xyxy,
)


def test_letterbox_scales_the_long_side_and_pads_to_32() -> None:
    img = np.zeros((720, 1280, 3), np.uint8)
    out, scale = letterbox(img, 640)
    assert out.shape == (384, 640, 3) and scale == pytest.approx(0.5)
    out, scale = letterbox(np.zeros((101, 774, 3), np.uint8), 640)
    assert out.shape[1] == 640 and out.shape[0] % 32 == 0 and out.shape[0] >= 84


def test_decode_reads_peaks_and_regressions() -> None:
    peaks = np.zeros((2, 10, 12), np.float32)
    reg = np.zeros((6, 10, 12), np.float32)
    peaks[0, 3, 4] = 0.9  # face up at cell (4, 3)
    reg[:, 3, 4] = (0.5, 0.25, np.log(5.0), np.log(7.0), 0.0, 1.0)  # 90 degrees
    peaks[1, 8, 10] = 0.6  # face down
    reg[:, 8, 10] = (0.0, 0.0, np.log(4.0), np.log(6.0), 1.0, 0.0)
    peaks[0, 6, 6] = 0.1  # below the threshold
    b = decode(peaks, reg, stride=4, threshold=0.3)
    assert len(b) == 2
    up = int(np.flatnonzero(b.face_up)[0])
    assert b.obb[up] == pytest.approx([18.0, 13.0, 20.0, 28.0, 90.0], abs=1e-4)
    assert b.score[up] == pytest.approx(0.9)
    assert not b.face_up[1 - up]


def test_one_tile_found_as_up_and_down_is_kept_once() -> None:
    peaks = np.zeros((2, 10, 10), np.float32)
    reg = np.zeros((6, 10, 10), np.float32)
    reg[2:4] = np.log(6.0)
    reg[4] = 1.0
    peaks[0, 5, 5], peaks[1, 5, 5] = 0.8, 0.5
    b = decode(peaks, reg, 4, 0.3)
    assert len(b) == 1 and b.face_up[0]


def test_box_geometry() -> None:
    obb = np.array([[100, 50, 20, 30, 0], [100, 50, 20, 30, 90]], np.float32)
    c = obb_corners(obb)
    assert c[0, 0] == pytest.approx([90, 35])  # top-left of an upright tile
    assert c[1, 0] == pytest.approx([85, 60])  # turned 90 degrees counter-clockwise: its top points left
    assert obb_xyxy(obb)[1] == pytest.approx([85, 40, 115, 60])
    assert obb_iou(obb[0], obb[0]) == pytest.approx(1.0, abs=1e-3)
    assert obb_iou(obb[0], obb[1]) == pytest.approx(400 / 800, abs=1e-2)
    assert angle_between(170, -170) == pytest.approx(20)


def test_match_boxes_counts_hits_and_false_boxes() -> None:
    truth = np.array([[100, 50, 20, 30, 0, 1, 1.0], [200, 50, 20, 30, 0, 0, 1.0], [300, 50, 20, 30, 0, 1, 0.1]],
                     np.float32)
    det = Boxes(np.array([[101, 51, 20, 30, 3], [200, 50, 20, 30, 0], [400, 50, 20, 30, 0]], np.float32),
                np.array([True, True, True]), np.array([0.9, 0.8, 0.7], np.float32))
    hits, false = match_boxes(det, truth, positive=0.6)
    # the second detection says face up where the tile lies face down: not a hit, and a false box
    assert (hits, false) == (1, 2)


def test_boxes_are_validated() -> None:
    with pytest.raises(ValueError, match="disagree"):
        Boxes(np.zeros((2, 5), np.float32), np.zeros(1, bool), np.zeros(2, np.float32))
    with pytest.raises(ValueError, match="bool"):
        Boxes(np.zeros((1, 5), np.float32), np.zeros(1, np.int8), np.zeros(1, np.float32))


def test_missing_model_and_bad_images_are_refused(tmp_path) -> None:
    with pytest.raises(DetectorError, match="not found"):
        TileDetector(tmp_path / "none.onnx")
    det = TileDetector(default_model_path(), threads=1)
    with pytest.raises(DetectorError, match="HxWx3"):
        det.detect(np.zeros((100, 100), np.uint8))
    with pytest.raises(DetectorError, match=r"too small to hold a tile \(12x5 pixels"):
        det.detect(np.zeros((5, 12, 3), np.uint8))
    assert len(det.detect(np.full((64, 64, 3), 80, np.uint8))) == 0


def test_packaged_model_describes_itself() -> None:
    det = TileDetector(threads=1)
    assert det.classes == ("tile_up", "tile_down") and det.stride == 4 and det.long_side == 640
    meta = det.session.get_modelmeta().custom_metadata_map
    assert {"normalisation", "training_commit", "input"} <= set(meta)


def _table(distance: float) -> tuple[np.ndarray, np.ndarray]:
    from companion.tiles import Tile
    from training.synth.faces import CLEAN_STYLE
    from training.synth.scene import Camera, Lighting, PlacedTile, Pose, SceneStyle, render_table

    tiles = [PlacedTile(Tile(i), (i % 8 - 3.5) * 29.0, (i // 8) * 40.0 - 40, 0, 0) for i in range(24)]
    tiles += [PlacedTile(Tile.UNKNOWN, (i - 3.5) * 28.0, -110.0, 0, 0, Pose.FACE_DOWN) for i in range(8)]
    tiles += [PlacedTile(Tile.S5, 180.0, 60.0, 0, 37.0)]
    cam = Camera(target=(0.0, 0.0), distance=distance, tilt=20.0, focal=900.0, size=(1280, 720))
    frame, labels = render_table(tiles, cam, SceneStyle(CLEAN_STYLE), Lighting(), (), seed=5)
    return frame, np.array([[*lab.obb(), float(lab.face_up), lab.visible] for lab in labels], np.float32)


def test_packaged_model_finds_the_tiles_of_a_rendered_table() -> None:
    frame, truth = _table(500.0)  # tiles about 50 px wide in the 1280x720 frame
    boxes = TileDetector(threads=1).detect(frame)
    hits, false = match_boxes(boxes, truth, positive=0.6)
    assert hits >= 0.9 * int((truth[:, 6] >= 0.6).sum()) and false <= 3


def test_detect_read_gives_detects_boxes_and_each_face_up_box_its_own_row() -> None:
    """The face-up boxes' work runs on a second thread: the boxes are detect()'s, each face-up box gets the row
    read_faces gave its own box (oriented, in image pixels), a face-down box zeros; a bad answer or a failure
    of read_faces is an error, and the detector reads the next frame as before."""
    frame, _ = _table(500.0)
    det = TileDetector(threads=1, check_threads=1)
    ref = det.detect(frame)
    seen: list[np.ndarray] = []

    def twice(obb: np.ndarray) -> np.ndarray:
        seen.append(obb.copy())
        return obb * 2

    boxes, rows = det.detect_read(frame, twice, 5)
    up = boxes.face_up
    assert up.sum() >= 20 and (~up).sum() >= 6
    assert np.array_equal(boxes.face_up, ref.face_up) and np.array_equal(boxes.score, ref.score)
    np.testing.assert_allclose(boxes.obb, ref.obb, atol=1e-4)
    np.testing.assert_allclose(rows[up], 2 * boxes.obb[up], rtol=1e-6)
    assert rows.dtype == np.float32 and np.all(rows[~up] == 0)
    assert len(seen) == 1 and len(seen[0]) >= up.sum()  # every face-up proposal, once
    with pytest.raises(DetectorError, match="read_faces answered"):
        det.detect_read(frame, lambda obb: obb[:, :3], 5)

    def fail(obb: np.ndarray) -> np.ndarray:
        raise RuntimeError("the classifier failed")

    with pytest.raises(RuntimeError, match="the classifier failed"):
        det.detect_read(frame, fail, 5)
    again, _ = det.detect_read(frame, lambda obb: obb, 5)
    np.testing.assert_allclose(again.obb, boxes.obb)
    empty, none = det.detect_read(np.full((720, 1280, 3), 120, np.uint8), fail, 7)
    assert len(empty) == 0 and none.shape == (0, 7)  # no face-up box: read_faces is not asked


def test_detect_read_matches_rows_to_the_face_up_boxes_that_stay(monkeypatch: pytest.MonkeyPatch) -> None:
    """Face-up proposals that do not stay were read for nothing; every kept face-up box gets its own row. Here
    a face-down box the check drops comes before the faces, a weak face yields to a back, one of two boxes of
    one tile is suppressed, and a hole in a row of backs is filled (a box of no proposal, at the end)."""
    det = TileDetector(threads=1, orient=False, weak=0.4)
    rows = [(50, 50, False, 0.9),    # 0: dropped by the check
            (150, 150, True, 0.42),  # 1: weak face, yields to the back under it (2)
            (151, 151, False, 0.9),  # 2: a back the check passes
            (250, 50, True, 0.6),    # 3: suppressed by its surer twin (4)
            (251, 51, True, 0.8),    # 4: stays
            (350, 50, False, 0.9),   # 5: a row of backs at a pitch of 30 with a hole at 410 ...
            (380, 50, False, 0.9),   # 6
            (440, 50, False, 0.9),   # 7
            (550, 50, True, 0.7)]    # 8: stays
    proposals = Boxes(np.array([[x, y, 28, 40, 0] for x, y, _, _ in rows], np.float32),
                      np.array([up for *_, up, _ in rows]), np.array([sc for *_, sc in rows], np.float32))
    check = _FixedCheck({(151.0, 151.0): 0.95, (350.0, 50.0): 0.95, (380.0, 50.0): 0.95, (440.0, 50.0): 0.95,
                         (410.0, 50.0): 0.95})
    det.backs, det.down_threshold = check, check.candidates  # type: ignore[assignment]
    monkeypatch.setattr(det, "_proposals", lambda net_in, valid: (proposals, net_in[:valid[0], :valid[1]]))
    image = np.zeros((320, 640, 3), np.uint8)  # letterboxed at 640: scale 1
    boxes, got = det.detect_read(image, lambda obb: np.arange(len(obb), dtype=np.float32)[:, None] + 10, 1)
    assert sorted(zip(boxes.obb[:, 0].round().tolist(), boxes.face_up.tolist(), got[:, 0].tolist(), strict=True)) == [
        (151, False, 0), (251, True, 12), (350, False, 0), (380, False, 0), (410, False, 0), (440, False, 0),
        (550, True, 13)]  # the face-up proposals were 1, 3, 4, 8: rows 10-13 of read_faces's answer
    serial = det.detect(image)
    assert np.array_equal(serial.obb, boxes.obb) and np.array_equal(serial.face_up, boxes.face_up)


def test_a_reader_used_before_a_fork_reads_in_the_child() -> None:
    """The faces' thread does not survive a fork; the child gets its own instead of waiting for ever."""
    import multiprocessing

    frame, _ = _table(500.0)
    det = TileDetector(threads=1, check_threads=1)
    n = len(det.detect_read(frame, lambda obb: obb, 5)[0])
    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    child = ctx.Process(target=lambda: out.put(len(det.detect_read(frame, lambda obb: obb, 5)[0])))
    child.start()
    child.join(60)
    if child.is_alive():
        child.kill()
    assert child.exitcode == 0 and out.get(timeout=5) == n


def test_windows_cover_the_image_with_overlap() -> None:
    from companion.vision.detect import _windows

    for shape in [(720, 1280), (640, 640), (500, 300), (1500, 2000)]:
        wins = _windows(shape, 640, 160)
        covered = np.zeros(shape, bool)
        for y, x in wins:
            assert y >= 0 and x >= 0
            covered[y:y + 640, x:x + 640] = True
        assert covered.all(), shape
        xs = sorted({x for _, x in wins})
        assert all(b - a <= 480 for a, b in zip(xs, xs[1:], strict=False))


def test_boxes_cut_by_an_inner_window_edge_are_left_to_the_neighbour() -> None:
    from companion.vision.detect import _touches_inner_edge

    obb = np.array([[5, 100, 20, 30, 0], [100, 100, 20, 30, 0], [630, 100, 30, 30, 0]], np.float32)
    # a window in the middle of a wide image: both side edges are inner edges
    assert _touches_inner_edge(obb, (0, 400), (640, 640), (640, 1600)).tolist() == [True, False, True]
    # the image's own left edge is no cut
    assert _touches_inner_edge(obb, (0, 0), (640, 640), (640, 1600)).tolist() == [False, False, True]


def test_tiled_pass_finds_small_tiles_a_single_pass_misses() -> None:
    frame, truth = _table(1100.0)  # tiles about 23 px wide in the 1280x720 frame: 11 px at the model's scale
    det = TileDetector(threads=1)
    n = int((truth[:, 6] >= 0.6).sum())
    single, _ = match_boxes(det.detect(frame), truth, positive=0.6)
    tiled, false = match_boxes(det.detect_tiled(frame), truth, positive=0.6)
    assert tiled >= 0.9 * n and tiled > single and false <= 8


def _boxes(rows: list[tuple[float, float, float, float]]) -> "Boxes":
    from companion.vision.detect import Boxes

    obb = np.array([[x, y, s, 1.3 * s, a] for x, y, s, a in rows], np.float32)
    return Boxes(obb, np.ones(len(rows), bool), np.linspace(0.9, 0.5, len(rows)).astype(np.float32))


def test_specks_far_smaller_than_the_photos_tiles_are_dropped() -> None:
    from companion.vision.detect import _drop_specks

    first = _boxes([(100, 100, 60, 0), (170, 100, 62, 0), (240, 100, 58, 0), (900, 700, 20, 0)])
    zoomed = _boxes([(150, 300, 12, 0), (160, 310, 14, 0), (880, 690, 11, 0), (400, 100, 40, 0)])
    got = _drop_specks(zoomed, first)
    # the 12 and 14 px boxes beside 60 px tiles go; the 11 px one beside a far 20 px tile stays, as does 40 px
    assert sorted(np.round(got.obb[:, 2]).tolist()) == [11, 40]
    few = _boxes([(0, 0, 60, 0), (50, 0, 12, 0)])  # too little evidence of the tiles' size: nothing dropped
    assert len(_drop_specks(zoomed, few)) == 4


def test_passes_keep_one_box_per_tile() -> None:
    from companion.vision.detect import _merge_passes

    # one tile seen by both passes, 10 px apart and read upside down by one; and a neighbour 40 px away
    b = _boxes([(722, 323, 23, 2), (717, 332, 22, -166), (760, 323, 23, 0)])
    got = _merge_passes(b)
    assert len(got) == 2 and got.obb[:, 0].tolist() == [722, 760]


def _turned_tiles(angle: float, size: int = 96) -> tuple[np.ndarray, np.ndarray]:
    """Light tiles with a few strokes on a dark table, all turned ``angle`` degrees (counter-clockwise);
    their true boxes."""
    import cv2

    img = np.full((2 * size, 2 * size, 3), 40, np.uint8)
    boxes = []
    for cx, cy in ((size // 2, size // 2), (3 * size // 2, size // 2), (size, 3 * size // 2)):
        box = np.array([[cx, cy, 30, 40, angle]], np.float32)
        quad = obb_corners(box)[0]
        cv2.fillConvexPoly(img, np.round(quad).astype(np.int32), (235, 235, 225), cv2.LINE_AA)
        top, bottom = quad[0] * 0.7 + quad[3] * 0.3, quad[1] * 0.7 + quad[2] * 0.3  # a stroke across the face
        cv2.line(img, tuple(np.round(top).astype(int)), tuple(np.round(bottom).astype(int)), (30, 30, 160), 2)
        boxes.append(box[0])
    return img, np.array(boxes)


@pytest.mark.parametrize("angle", [0.0, 30.0, -65.0, 120.0])
def test_snap_turns_an_angle_between_two_edges_to_the_tile_edges(angle: float) -> None:
    from companion.vision.detect import snap_angles

    img, truth = _turned_tiles(angle)
    guess = truth.copy()
    guess[:, 4] += 28.0  # the network's regression, fallen between two directions
    snapped = snap_angles(img, guess)
    assert all(angle_between(a, angle) < 4 for a in snapped[:, 4])
    assert np.array_equal(snapped[:, :4], guess[:, :4])  # only the angle moves


def test_snap_keeps_the_network_angle_without_clear_edges_or_for_a_small_turn() -> None:
    from companion.vision.detect import snap_angles

    rng = np.random.default_rng(3)
    noise = rng.integers(0, 255, (200, 200, 3), dtype=np.uint8)  # edges every way: no two directions agree
    box = np.array([[100, 100, 30, 40, 33.0]], np.float32)
    assert snap_angles(noise, box)[0, 4] == pytest.approx(33.0)
    img, truth = _turned_tiles(20.0)
    near = truth.copy()
    near[:, 4] += 6.0  # within SNAP_MIN of the edges: left as it is
    assert np.array_equal(snap_angles(img, near), near)
    assert snap_angles(img, truth[:0]).shape == (0, 5)


def _ba_tiles() -> tuple[np.ndarray, np.ndarray]:
    """Nine big upright tiles (56 x 76 px) in a grid, each with a face like 八: two strong strokes leaning 40
    degrees either way; their true boxes (angle 2: the network's, nearly right)."""
    import cv2

    w, h = 60, 80
    img = np.full((3 * h, 3 * w + 20, 3), 120, np.uint8)
    boxes = []
    for r in range(3):
        for c in range(3):
            cx, cy = 10 + w // 2 + c * w, h // 2 + r * h
            cv2.rectangle(img, (cx - w // 2 + 1, cy - h // 2 + 1), (cx + w // 2 - 2, cy + h // 2 - 2), (230, 235, 240), -1)
            for sgn in (-1, 1):
                dx, dy = 0.42 * h * np.sin(np.radians(40)) * sgn, 0.42 * h * np.cos(np.radians(40))
                cv2.line(img, (int(cx + sgn * 4 - dx / 2), int(cy - dy / 2)), (int(cx + sgn * 4 + dx / 2), int(cy + dy / 2)),
                         (60, 40, 200), 4, cv2.LINE_AA)
            boxes.append([cx, cy, w - 4, h - 4, 2.0])
    return img, np.array(boxes, np.float32)


def test_snap_does_not_turn_a_big_upright_tile_to_its_diagonal_strokes(monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.vision.detect as detect

    img, boxes = _ba_tiles()
    # without the guard the middle column's strokes win (a turn of about 43 degrees): the case it is for
    monkeypatch.setattr(detect, "SNAP_WIDE", 90.0)
    assert angle_between(detect.snap_angles(img, boxes)[1, 4], 45.0) < 3
    monkeypatch.undo()
    assert np.array_equal(detect.snap_angles(img, boxes), boxes)
    # a box under SNAP_BIG (a table frame's tile) is still turned so: there the network's angle is what is
    # often wrong
    monkeypatch.setattr(detect, "SNAP_BIG", 80.0)
    assert angle_between(detect.snap_angles(img, boxes)[1, 4], 45.0) < 3


def test_snap_still_turns_a_big_tile_far_when_its_edges_agree() -> None:
    import cv2

    from companion.vision.detect import snap_angles

    img = np.full((200, 200, 3), 40, np.uint8)
    truth = np.array([[100, 100, 60, 80, 40.0]], np.float32)
    cv2.fillConvexPoly(img, np.round(obb_corners(truth)[0]).astype(np.int32), (235, 235, 225), cv2.LINE_AA)
    guess = truth.copy()
    guess[:, 4] = 1.0  # the network 39 degrees off
    assert angle_between(snap_angles(img, guess)[0, 4], 40.0) < 3


def test_snap_leaves_a_box_with_a_non_finite_number_alone() -> None:
    from companion.vision.detect import snap_angles

    img, truth = _turned_tiles(30.0)
    guess = truth.copy()
    guess[:, 4] += 28.0
    guess[1, 2] = np.nan
    snapped = snap_angles(img, guess)
    assert snapped[1, 4] == guess[1, 4] and angle_between(snapped[0, 4], 30.0) < 4


def _suppress_by_loop(b: Boxes) -> np.ndarray:
    """The plain definition: in score order, keep a box unless its centre is within 0.35 of the smallest side
    of a kept box on both axes."""
    keep: list[int] = []
    for i in np.argsort(-b.score, kind="stable"):
        cx, cy, w, h, _ = b.obb[i]
        if not any(abs(b.obb[j, 0] - cx) < 0.35 * min(w, h, b.obb[j, 2], b.obb[j, 3])
                   and abs(b.obb[j, 1] - cy) < 0.35 * min(w, h, b.obb[j, 2], b.obb[j, 3]) for j in keep):
            keep.append(int(i))
    return np.array(sorted(keep), np.int64)


@given(st.integers(0, 60), st.integers(0, 2**31 - 1))
def test_overlap_suppression_matches_the_plain_greedy_loop(n: int, seed: int) -> None:
    from companion.vision.detect import _suppress_overlaps

    rng = np.random.default_rng(seed)
    obb = np.column_stack([rng.uniform(0, 120, n), rng.uniform(0, 80, n), rng.uniform(8, 30, n),
                           rng.uniform(8, 30, n), rng.uniform(-180, 180, n)]).astype(np.float32)
    boxes = Boxes(obb, rng.random(n) < 0.5, rng.permutation(n).astype(np.float32) / max(n, 1))
    got = _suppress_overlaps(boxes)
    want = _suppress_by_loop(boxes)
    assert np.array_equal(got.obb, obb[want]) and np.array_equal(got.score, boxes.score[want])
    assert np.array_equal(got.face_up, boxes.face_up[want])


def test_an_input_whose_sides_are_not_multiples_of_32_is_refused_by_name() -> None:
    det = TileDetector(threads=1, backs=False, orient=False)
    with pytest.raises(DetectorError, match="multiples of 32, got 640x360"):
        det._run(np.zeros((360, 640, 3), np.uint8), (360, 640))


def _shifted(box: np.ndarray, along: float, across: float) -> np.ndarray:
    """``box`` moved ``along`` of its widths along its width axis and ``across`` of its heights along its height
    axis, the axes taken from its corners (:func:`obb_corners`: top-left, top-right, bottom-right, bottom-left)."""
    c = obb_corners(box[None].astype(np.float64))[0]
    right, up = c[1] - c[0], c[0] - c[3]  # one width to the right, one height up
    out = box.copy()
    out[:2] += along * right + across * up
    return out


@given(st.floats(-180, 180), st.floats(14, 40), st.floats(1.1, 1.6))
def test_row_support_takes_the_next_tile_of_a_row_and_nothing_else(angle: float, width: float, tall: float) -> None:
    from companion.vision.detect import row_support

    kept = np.array([[300.0, 200.0, width, width * tall, angle]], np.float32)
    k = kept[0]
    cases = {
        "next tile to the right": (_shifted(k, 1.02, 0.05), True),
        "next tile to the left": (_shifted(k, -1.1, -0.1), True),
        "turned half round (a back has no up)": (_shifted(k, 1.0, 0.0) + [0, 0, 0, 0, 180], True),
        "two tiles along": (_shifted(k, 2.0, 0.0), False),
        "a standing tile's outline, wider than the row's pitch": (_shifted(k, 0.72, 0.0), True),
        "overlapping it": (_shifted(k, 0.5, 0.0), False),
        "off the line": (_shifted(k, 1.0, 0.5), False),
        "along its height": (_shifted(k, 0.0, 1.0), False),
        "half again as big": (_shifted(k, 1.2, 0.0) * [1, 1, 1.5, 1.5, 1], False),
        "turned 30 degrees": (_shifted(k, 1.0, 0.0) + [0, 0, 0, 0, 30], False),
    }
    cand = np.array([c for c, _ in cases.values()], np.float32)
    got = row_support(cand, kept)
    assert {name: bool(g) for name, g in zip(cases, got, strict=True)} == {name: want for name, (_, want) in cases.items()}
    assert row_support(cand, kept[:0]).tolist() == [False] * len(cases)
    assert row_support(cand[:0], kept).shape == (0,)


class _FixedCheck:
    """A back check that gives each box the probability of the nearest of some points (or 0)."""

    threshold, candidates = 0.9, 0.45
    detector_sha256 = ""

    def __init__(self, probs: dict[tuple[float, float], float]) -> None:
        self.probs, self.calls = probs, 0

    def probabilities(self, image: np.ndarray, obb: np.ndarray, helper: object = None) -> np.ndarray:
        self.calls += len(obb)
        return np.array([self.probs.get((float(round(o[0])), float(round(o[1]))), 0.0) for o in obb], np.float32)


def test_row_completion_grows_a_row_from_its_sure_tiles_and_takes_nothing_off_it() -> None:
    from companion.vision.detect import ROW_CHECK, ROW_FLOOR

    det = TileDetector(threads=1, orient=False)
    # a row of backs along x at a pitch of 21 px (boxes 20 x 28): two sure ones (100, 121); weak peaks the
    # check finds plausible left of them (79) and right (142; 163 at the floor and the check's bound); then
    # one the check doubts (184), and past it a weak one the check would like (205), no longer in a row
    xs = [79.0, 100.0, 121.0, 142.0, 163.0, 184.0, 205.0]
    score = [0.4, 0.9, 0.8, 0.35, ROW_FLOOR, 0.44, 0.4]
    prob = [0.7, 0.95, 0.95, 0.6, ROW_CHECK, ROW_CHECK - 0.05, 0.9]
    # and two weak peaks the check likes that lie off the row: below it, and in line but across it
    extra = [(150.0, 150.0), (100.0, 128.0)]
    obb = np.array([[x, 100.0, 20.0, 28.0, 0.0] for x in xs] + [[x, y, 20.0, 28.0, 0.0] for x, y in extra], np.float32)
    boxes = Boxes(obb, np.zeros(len(obb), bool), np.array(score + [0.4, 0.4], np.float32))
    check = _FixedCheck({(x, 100.0): p for x, p in zip(xs, prob, strict=True)} | {e: 0.9 for e in extra})
    det.backs, det.down_threshold = check, check.candidates  # type: ignore[assignment]
    got = det._checked(np.zeros((360, 640, 3), np.uint8), boxes)[0]
    assert sorted(got.obb[:, 0].round().tolist()) == xs[:5]
    assert check.calls == len(obb)  # every face-down peak once, all in the first batch
    det.rows = False
    assert sorted(det._checked(np.zeros((360, 640, 3), np.uint8), boxes)[0].obb[:, 0].round().tolist()) == xs[1:3]


def test_a_row_takes_back_a_peak_the_check_doubted_but_never_a_face_up_tiles_place() -> None:
    det = TileDetector(threads=1, orient=False)
    # backs at 100 and 121; at 142 a strong peak the check doubts (0.6 < its 0.9); at 163 a face-up tile (a
    # concealed kong's middle, say) and, on it, a weak face-down peak the check likes; at 184 a weak back
    obb = np.array([[x, 100.0, 20.0, 28.0, 0.0] for x in (100, 121, 142, 163, 163.5, 184)], np.float32)
    up = np.array([False, False, False, True, False, False])
    score = np.array([0.9, 0.9, 0.6, 0.55, 0.4, 0.4], np.float32)
    check = _FixedCheck({(100.0, 100.0): 0.95, (121.0, 100.0): 0.95, (142.0, 100.0): 0.6, (164.0, 100.0): 0.95,
                         (184.0, 100.0): 0.95})
    det.backs, det.down_threshold = check, check.candidates  # type: ignore[assignment]
    got = det._checked(np.zeros((360, 640, 3), np.uint8), Boxes(obb, up, score))[0]
    assert sorted(zip(got.obb[:, 0].round(1).tolist(), got.face_up.tolist(), strict=True)) == [
        (100.0, False), (121.0, False), (142.0, False), (163.0, True)]  # the row stops at the face


def test_a_weak_lone_peak_stays_where_the_check_is_sure_of_it() -> None:
    from companion.vision.detect import ROW_FLOOR, WEAK_BACK_SURE

    det = TileDetector(threads=1, orient=False)
    # lone weak face-down peaks, no row near any: at 100 the check is sure (kept); at 200 just under sure
    # (dropped); at 300 sure, but a kept face-up tile lies there (the face stays, the peak goes); at 400 a
    # strong peak the check doubts (dropped: sure is for weak peaks only, a strong one has its threshold)
    just_under = float(np.nextafter(np.float32(WEAK_BACK_SURE), np.float32(0)))
    obb = np.array([[x, 100.0, 20.0, 28.0, 0.0] for x in (100, 200, 300, 300.5, 400)], np.float32)
    up = np.array([False, False, False, True, False])
    score = np.array([ROW_FLOOR, 0.4, 0.4, 0.8, 0.6], np.float32)
    check = _FixedCheck({(100.0, 100.0): WEAK_BACK_SURE, (200.0, 100.0): just_under, (300.0, 100.0): 1.0,
                         (400.0, 100.0): 0.8})
    det.backs, det.down_threshold = check, check.candidates  # type: ignore[assignment]
    seen = np.zeros((360, 640, 3), np.uint8)
    got = det._checked(seen, Boxes(obb, up, score))[0]
    assert sorted(zip(got.obb[:, 0].round(1).tolist(), got.face_up.tolist(), strict=True)) == [
        (100.0, False), (300.5, True)]
    det.rows = False  # without rows the weak peaks are not asked about at all
    check.calls = 0
    got = det._checked(seen, Boxes(obb, up, score))[0]
    assert got.obb[:, 0].round(1).tolist() == [300.5] and check.calls == 1


def test_two_doubted_backs_side_by_side_start_a_row_and_a_lone_one_does_not() -> None:
    from companion.vision.detect import ROW_CHECK

    det = TileDetector(threads=1, orient=False)
    # a standing row no outline of which passes the check at 0.9: strong peaks at 100 and 121 the check gives
    # 0.6 and 0.7, a weak one at 142 it gives 0.6 (taken by the row they start); a lone strong peak at 300 it
    # gives 0.8 (dropped); and strong ones at 400 and 421 of which the check doubts the second too much
    xs = [100.0, 121.0, 142.0, 300.0, 400.0, 421.0]
    score = [0.6, 0.7, 0.35, 0.7, 0.6, 0.6]
    prob = [0.6, 0.7, 0.6, 0.8, 0.7, ROW_CHECK - 0.05]
    obb = np.array([[x, 100.0, 20.0, 28.0, 0.0] for x in xs], np.float32)
    boxes = Boxes(obb, np.zeros(len(obb), bool), np.array(score, np.float32))
    check = _FixedCheck({(x, 100.0): p for x, p in zip(xs, prob, strict=True)})
    det.backs, det.down_threshold = check, check.candidates  # type: ignore[assignment]
    seen = np.zeros((360, 640, 3), np.uint8)
    assert sorted(det._checked(seen, boxes)[0].obb[:, 0].round().tolist()) == xs[:3]
    # a face-up tile lying on the second of the pair: the first has no partner left, and nothing is kept
    on = Boxes(np.concatenate([obb, obb[1:2]]), np.array([False] * 6 + [True]), np.array([*score, 0.9], np.float32))
    assert det._checked(seen, on)[0].face_up.tolist() == [True]
    # a pair of unequal widths (20 and 25 px, 30 px apart): the narrow one's pitch takes the wide one, not the
    # other way round; both are kept all the same
    uneven = Boxes(np.array([[100.0, 100.0, 20.0, 28.0, 0.0], [130.0, 100.0, 25.0, 28.0, 0.0]], np.float32),
                   np.zeros(2, bool), np.array([0.6, 0.6], np.float32))
    det.backs = _FixedCheck({(100.0, 100.0): 0.7, (130.0, 100.0): 0.7})  # type: ignore[assignment]
    assert sorted(det._checked(seen, uneven)[0].obb[:, 0].round().tolist()) == [100.0, 130.0]
    det.backs = check  # type: ignore[assignment]
    det.rows = False
    assert len(det._checked(seen, boxes)[0]) == 0


class _FixedNet:
    """A detector session whose heat maps hold given peaks (channel, y, x, score) with boxes of 6 x 8 cells."""

    def __init__(self, peaks: list[tuple[int, int, int, float]], shape: tuple[int, int]) -> None:
        self.peaks, self.shape = peaks, shape

    def run(self, _names: object, _feed: object) -> list[np.ndarray]:
        h, w = self.shape
        heat = np.zeros((1, 2, h, w), np.float32)
        reg = np.zeros((1, 6, h, w), np.float32)
        reg[0, 2], reg[0, 3], reg[0, 4] = np.log(6.0), np.log(8.0), 1.0  # 24 x 32 px boxes, upright
        for c, y, x, s in self.peaks:
            heat[0, c, y, x] = s
        return [heat, reg]


def test_weak_face_up_peaks_are_kept_only_when_asked_and_yield_to_any_other_box() -> None:
    from companion.vision.read import WEAK_UP

    det = TileDetector(threads=1, orient=False)
    # a face-up peak over the threshold, a weak one alone, and a weak face-up peak on a back it outscores (cell
    # 100, 60 of the stride-4 map: the box at 400, 240, which the check passes)
    peaks = [(0, 20, 20, det.threshold + 0.01), (0, 20, 60, 0.45), (0, 60, 100, 0.47), (1, 60, 100, 0.46)]
    det.session = _FixedNet(peaks, (90, 160))  # type: ignore[assignment]
    check = _FixedCheck({(400.0, 240.0): 0.95})
    det.backs, det.down_threshold = check, check.candidates  # type: ignore[assignment]
    image = np.full((360, 640, 3), 90, np.uint8)
    plain = det.detect(image)
    def found(b: Boxes) -> list[tuple[bool, float]]:
        return sorted((bool(u), round(float(v), 2)) for u, v in zip(b.face_up, b.score, strict=True))

    assert found(plain) == [(False, 0.46), (True, round(det.threshold + 0.01, 2))]
    det.weak = WEAK_UP
    got = det.detect(image)
    assert found(got) == [(False, 0.46), (True, 0.45), (True, round(det.threshold + 0.01, 2))]


@given(st.floats(-180, 180), st.floats(14, 40), st.floats(1.1, 1.6))
def test_row_gaps_fill_whole_tile_holes_of_a_row_once_and_nothing_else(angle: float, width: float, tall: float) -> None:
    from companion.vision.detect import GAP_TILES, row_gaps

    k = np.array([300.0, 200.0, width, width * tall, angle], np.float32)
    pitch = 1.03  # tiles of a row lie a little more than a width apart
    # a row with a hole of one tile (at 2) and one of two (at 5, 6); a box far off the row; a row of two
    # boxes 2.5 pitches apart (no whole number of tiles between them); and two boxes too far apart to be one row
    row = [_shifted(k, pitch * i, 0.0) for i in (0, 1, 3, 4, 7)]
    off = _shifted(k, pitch * 2, 1.5)
    uneven = [_shifted(k, pitch * i, 6.0) for i in (0, 2.5)]
    far = [_shifted(k, pitch * i, -6.0) for i in (0, GAP_TILES + 1)]
    backs = np.array([*row, off, *uneven, *far], np.float32)
    new, ends = row_gaps(backs)
    want = np.array([_shifted(k, pitch * i, 0.0) for i in (2, 5, 6)], np.float32)
    assert len(new) == 3
    order = np.argsort([np.hypot(*(b[:2] - k[:2])) for b in new])
    got = new[order]
    assert np.abs(got[:, :4] - want[:, :4]).max() < 0.01 * width
    assert np.abs((got[:, 4] - want[:, 4] + 180) % 360 - 180).max() < 0.01
    assert sorted(map(sorted, ends[order].tolist())) == [[1, 2], [3, 4], [3, 4]]  # each hole between its row's ends
    assert row_gaps(backs[:1])[0].shape == (0, 5)
    assert row_gaps(backs[[0, 2]])[0].shape == (2, 5)  # the row's two ends alone: the two tiles between them


def test_a_hole_in_a_row_is_filled_where_the_check_finds_a_back_and_no_face_lies() -> None:
    det = TileDetector(threads=1, orient=False)
    # sure backs at 100, 121, 184 and 205 (20 x 28 px, pitch 21): holes at 142 and 163 the detector gave no
    # peak; the check passes a back at 142 (0.95) as it passes a lone back, and not at 163 (0.85, under its
    # 0.9). A second row at y 200: a face-up tile lies in its hole
    xs = [100.0, 121.0, 184.0, 205.0]
    obb = np.array([[x, 100.0, 20.0, 28.0, 0.0] for x in xs] + [[100.0, 200.0, 20.0, 28.0, 0.0],
                   [121.0, 200.0, 20.0, 28.0, 0.0], [142.0, 200.0, 20.0, 28.0, 0.0]], np.float32)
    up = np.array([False] * 4 + [False, True, False])
    score = np.array([0.9, 0.8, 0.7, 0.9, 0.9, 0.9, 0.9], np.float32)
    probs = {(x, 100.0): 0.95 for x in xs} | {(142.0, 100.0): 0.95, (163.0, 100.0): 0.85}
    check = _FixedCheck(probs | {(100.0, 200.0): 0.95, (121.0, 200.0): 0.95, (142.0, 200.0): 0.95})
    det.backs, det.down_threshold = check, check.candidates  # type: ignore[assignment]
    got = det._checked(np.zeros((360, 640, 3), np.uint8), Boxes(obb, up, score))[0]
    first = got.obb[:, 1] == 100.0
    # the hole at 142 filled, as sure as its row's weaker end (0.7, under the check's 0.95); 163 left empty
    assert sorted(zip(got.obb[first, 0].round().tolist(), got.score[first].astype(float).round(2).tolist(), strict=True)) == [
        (100.0, 0.9), (121.0, 0.8), (142.0, 0.7), (184.0, 0.7), (205.0, 0.9)]
    assert sorted(zip(got.obb[~first, 0].round().tolist(), got.face_up[~first].tolist(), strict=True)) == [
        (100.0, False), (121.0, True), (142.0, False)]  # the face holds its place: no back put on it
    det.rows = False
    assert len(det._checked(np.zeros((360, 640, 3), np.uint8), Boxes(obb, up, score))[0]) == 7


def test_row_gaps_count_a_hole_by_the_rows_own_pitch_and_size_and_turn_its_boxes_between_the_ends() -> None:
    from companion.vision.detect import row_gaps

    # 20 px wide boxes 24 px apart (1.2 widths): three tiles missing between 124 and 220, one between 124 and 172
    for xs, want in (([100.0, 124.0, 220.0], [148.0, 172.0, 196.0]), ([100.0, 124.0, 172.0], [148.0])):
        new, _ = row_gaps(np.array([[x, 100.0, 20.0, 28.0, 0.0] for x in xs], np.float32))
        assert sorted(new[:, 0].round(1).tolist()) == want
    # the ends 18 and 22 px wide, turned 178 and -178 degrees (a back has no up: 4 degrees apart), no neighbours:
    # the pitch is their mean width, the hole's box halfway in size and in angle (180, not 0)
    ends = np.array([[100.0, 100.0, 18.0, 28.0, 178.0], [140.0, 100.0, 22.0, 28.0, -178.0]], np.float32)
    new, which = row_gaps(ends)
    assert new.shape == (1, 5) and sorted(which[0].tolist()) == [0, 1]
    assert np.allclose(new[0, :4], [120.0, 100.0, 20.0, 28.0], atol=0.2)
    assert abs((float(new[0, 4]) - 180.0 + 180) % 360 - 180) < 0.5
    # a box of another size lying in the hole is not in line with the ends: the hole is still proposed (the
    # detector then leaves it to that box; next test)
    assert len(row_gaps(np.concatenate([ends, [[120.0, 100.0, 30.0, 40.0, 0.0]]]).astype(np.float32))[0]) == 1


def test_a_filled_hole_is_as_sure_as_its_check_when_that_is_under_its_ends_and_holes_can_be_turned_off() -> None:
    det = TileDetector(threads=1, orient=False)
    obb = np.array([[x, 100.0, 20.0, 28.0, 0.0] for x in (100.0, 121.0, 163.0, 184.0)], np.float32)
    score = np.array([0.99, 0.98, 0.97, 0.99], np.float32)
    check = _FixedCheck({(x, 100.0): 0.95 for x in (100.0, 121.0, 163.0, 184.0)} | {(142.0, 100.0): 0.92})
    det.backs, det.down_threshold = check, check.candidates  # type: ignore[assignment]
    seen = np.zeros((360, 640, 3), np.uint8)
    got = det._checked(seen, Boxes(obb, np.zeros(4, bool), score))[0]
    hole = np.nonzero(got.obb[:, 0].round() == 142.0)[0]
    assert len(got) == 5 and len(hole) == 1 and round(float(got.score[hole[0]]), 2) == 0.92
    # a face-up box lying across the hole (a wider tile, its centre 8 px off the hole's: too far for the
    # centres' clash test, but the hole's centre lies inside it) holds its place
    face = Boxes(np.concatenate([obb, [[150.0, 100.0, 30.0, 40.0, 0.0]]]).astype(np.float32),
                 np.array([False] * 4 + [True]), np.concatenate([score, [0.9]]).astype(np.float32))
    assert sorted(det._checked(seen, face)[0].obb[:, 0].round().tolist()) == [100.0, 121.0, 150.0, 163.0, 184.0]
    det.holes = False
    assert len(det._checked(seen, Boxes(obb, np.zeros(4, bool), score))[0]) == 4


def test_two_weak_backs_side_by_side_do_not_start_a_row() -> None:
    det = TileDetector(threads=1, orient=False)
    # weak peaks (under the check's candidates, 0.45) at 100 and 121 the check gives 0.6: no row of their own
    # (measured: about one false box for each tile they would find); beside a strong doubted one at 142, which
    # starts no pair alone, still nothing
    xs = [100.0, 121.0, 142.0]
    score = np.array([0.35, 0.4, 0.6], np.float32)
    obb = np.array([[x, 100.0, 20.0, 28.0, 0.0] for x in xs], np.float32)
    check = _FixedCheck({(x, 100.0): 0.6 for x in xs})
    det.backs, det.down_threshold = check, check.candidates  # type: ignore[assignment]
    assert len(det._checked(np.zeros((360, 640, 3), np.uint8), Boxes(obb, np.zeros(3, bool), score))[0]) == 0
