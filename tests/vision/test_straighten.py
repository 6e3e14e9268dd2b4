"""A hand photographed from the winner's side, from across the table or askew: its faces lie turned in the photo, and
the reader reads the photo again turned so that they stand (``TileReader(straighten=...)``), giving the boxes in the
photo's own pixels."""

import random
from importlib import resources

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.photo_score import compose, random_win
from companion.rules.profiles import load_profile
from companion.rules.scoring import score
from companion.tiles import Tile
from companion.vision.detect import obb_corners
from companion.vision.hand_score import score_photo
from companion.vision.read import (
    STAND_FROM,
    STRAIGHT,
    Detections,
    TileReader,
    rows_tilt,
    standing_turn,
    stood,
)

PICTURES = resources.files("companion") / "assets" / "tiles"


def dets_of(obb: list[tuple[float, float, float, float, float]], kinds: list[str] | None = None,
            size: tuple[int, int] = (640, 480)) -> Detections:
    n = len(obb)
    kind = np.array([int(Tile.from_code(k)) for k in (kinds or ["5p"] * n)], np.int16)
    return Detections(np.array(obb, np.float32).reshape(n, 5), kind, kind != int(Tile.UNKNOWN),
                      np.full(n, 0.9, np.float32), np.repeat(kind[:, None], 3, axis=1),
                      np.tile(np.array([0.9, 0.05, 0.05], np.float32), (n, 1)), size)


@given(st.lists(st.tuples(st.floats(0, 639), st.floats(0, 479), st.floats(10, 80), st.floats(10, 80),
                          st.floats(-179, 179)), min_size=1, max_size=6), st.sampled_from([1, -1]))
def test_boxes_turn_with_the_pixels_and_back(boxes: list, turn: int) -> None:
    """Each corner of a box lands where ``cv2.rotate`` puts that pixel; turning back gives the boxes again."""
    dets = dets_of(boxes)
    turned = dets.quarter_turned(turn, (480, 640))
    corners, moved = obb_corners(dets.obb), obb_corners(turned.obb)
    x, y = corners[..., 0], corners[..., 1]
    want = np.stack([y, 639 - x] if turn == 1 else [479 - y, x], axis=-1)
    # the same four points (the tile's top-left corner is where its top now points, so the same one)
    assert np.abs(moved - want).max() < 1e-2
    back = turned.quarter_turned(-turn, (640, 480))
    assert np.allclose(back.obb[:, :4], dets.obb[:, :4], atol=1e-3)
    assert np.allclose((back.obb[:, 4] - dets.obb[:, 4] + 180) % 360 - 180, 0, atol=1e-3)
    assert back.image_size == (640, 480)


def test_a_quarter_turn_that_is_none_is_refused() -> None:
    with pytest.raises(ValueError, match="quarter turn"):
        dets_of([(10, 10, 20, 30, 0)]).quarter_turned(2, (480, 640))


def laid(turn: float, angles: list[float], kinds: list[str] | None = None, across: int = 0) -> Detections:
    """A row of tiles whose faces' angles are ``angles`` (the detector's, each off its tile as it may be), the row
    and its tiles turned ``turn`` degrees counter-clockwise about the image's middle; ``across`` claimed tiles lying
    across the row, in a second row in front of it."""
    t = np.radians(turn)
    along, down = np.array([np.cos(t), -np.sin(t)]), np.array([np.sin(t), np.cos(t)])
    mid = np.array([320.0, 240.0])
    boxes = [(*(mid + (i - len(angles) / 2) * 32 * along - 30 * down), 30, 40, a + turn) for i, a in enumerate(angles)]
    boxes += [(*(mid + (i - 1) * 42 * along + 30 * down), 30, 40, 90 + turn) for i in range(across)]
    return dets_of(boxes, None if kinds is None else kinds + ["5p"] * across)


def test_the_faces_decide_the_turn() -> None:
    assert standing_turn(laid(0, [0.0] * 8)) == 0
    # tops to the left (90): the image turns clockwise; to the right (-90): counter-clockwise; a half turn
    assert standing_turn(laid(88, [0.0] * 8)) == 90 and standing_turn(laid(-93, [0.0] * 8)) == -90
    assert standing_turn(laid(179, [0.0] * 8)) == 180 and standing_turn(laid(-178, [0.0] * 8)) == 180
    # the detector's angles scatter: a straight photo's faces within STRAIGHT of up stand
    assert standing_turn(laid(0, [-4.0, 3.0, -5.0, 2.0, 5.0, -3.0, 1.0, 4.0])) == 0
    # askew: the tilt of the rows, whatever the scatter of the boxes' angles about it
    assert standing_turn(laid(30, [-2.0, 11.0, 0.0, -9.0, 3.0, -12.0, 7.0, 1.0])) == pytest.approx(30.0, abs=1e-3)
    assert standing_turn(laid(-135, [2.0, -1.0, 0.0, 12.0, 1.0, -8.0, 1.0, -1.0])) == pytest.approx(-135.0, abs=1e-3)
    # a hand upright with its claimed tiles across the row: they are few, and agree on the tilt
    assert standing_turn(laid(0, [0.0] * 8, across=3)) == 0
    assert standing_turn(laid(20, [0.0] * 8, across=3)) == pytest.approx(20.0, abs=1e-3)
    # upside down, with the way-up look's few dissenters
    assert standing_turn(laid(0, [180.0] * 6 + [0.0, 0.0])) == 180
    # backs do not vote (they have no up), nor do too few faces
    assert standing_turn(laid(90, [0.0] * 8, ["0x"] * 8)) == 0
    assert standing_turn(laid(90, [0.0] * (STAND_FROM - 1))) == 0
    assert STRAIGHT < 10


@given(st.floats(-180, 180), st.lists(st.floats(-10, 10), min_size=3, max_size=12))
def test_the_rows_tilt_is_where_the_tiles_lie(turn: float, scatter: list[float]) -> None:
    """The tilt comes from where the tiles lie, a quarter turn apart as one, however the boxes' angles scatter."""
    got, share = rows_tilt(laid(turn, scatter, across=2).obb)
    assert abs((got - turn + 45) % 90 - 45) < 1e-3 and share == 1.0


def test_tiles_lying_every_way_are_not_turned() -> None:
    """A discard pool's tiles lie every way: their tilt and way up are noise, and the photo is read as it lies."""
    rng = np.random.default_rng(3)
    pools = [dets_of([(x, y, 30, 40, a) for (x, y), a in
                      zip(rng.uniform(0, 600, (20, 2)), rng.uniform(-180, 180, 20), strict=True)]) for _ in range(200)]
    assert np.median([rows_tilt(p.obb)[1] for p in pools]) < 0.5
    assert sum(standing_turn(p) != 0 for p in pools) <= 2  # (a rare draw lines up)


@given(st.floats(-180, 180), st.lists(st.tuples(st.floats(0.05, 0.95), st.floats(0.05, 0.95), st.floats(10, 60),
                                                st.floats(10, 60), st.floats(-179, 179)), min_size=1, max_size=5))
def test_a_stood_image_takes_its_boxes_with_it(turn: float, boxes: list) -> None:
    """Each box's corners land where the pixels under them went, and the inverse brings the boxes back."""
    image = np.zeros((120, 200, 3), np.uint8)
    image[:] = (40, 110, 30)
    turned, affine = stood(image, turn)
    assert turned.dtype == np.uint8
    dets = dets_of([(x * 200, y * 120, w, h, a) for x, y, w, h, a in boxes], size=(200, 120))
    moved = dets.mapped(affine, -turn, (turned.shape[1], turned.shape[0]))
    corners = obb_corners(dets.obb).reshape(-1, 2).astype(np.float64)
    want = (corners @ affine[:, :2].T + affine[:, 2]).reshape(-1, 4, 2)
    assert np.abs(obb_corners(moved.obb) - want).max() < 1e-2
    back = moved.mapped(cv2.invertAffineTransform(affine), turn, dets.image_size)
    assert np.allclose(back.obb[:, :4], dets.obb[:, :4], atol=1e-2)
    assert np.allclose((back.obb[:, 4] - dets.obb[:, 4] + 180) % 360 - 180, 0, atol=1e-3)
    # the whole image lies inside the canvas: its corners land in it
    h, w = image.shape[:2]
    ends = np.array([[0, 0], [w - 1, 0], [0, h - 1], [w - 1, h - 1]], np.float64) @ affine[:, :2].T + affine[:, 2]
    assert ends.min() >= -0.5 and (ends <= [turned.shape[1] - 0.5, turned.shape[0] - 0.5]).all()


def test_quarter_and_half_turns_are_exact() -> None:
    image = np.arange(6 * 4 * 3, dtype=np.uint8).reshape(4, 6, 3)
    for turn, k in ((90.0, -1), (-90.0, 1), (180.0, 2), (-180.0, 2), (270.0, 1), (-270.0, -1), (450.0, -1)):
        turned, affine = stood(image, turn)
        assert np.array_equal(turned, np.rot90(image, k))
        assert np.array_equal(turned[tuple(np.int64(affine @ [5, 1, 1])[::-1])], image[1, 5])
    same, affine = stood(image, 360.0)
    assert same is image and np.array_equal(affine, [[1, 0, 0], [0, 1, 0]])


def test_a_canvas_too_large_is_shrunk_and_the_boxes_with_it(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.vision import read

    monkeypatch.setattr(read, "STAND_PIXELS", 10_000)
    image = np.full((120, 200, 3), 90, np.uint8)
    turned, affine = stood(image, 45.0)
    assert turned.shape[0] * turned.shape[1] <= 10_000 * 1.05
    dets = dets_of([(100, 60, 30, 40, 45.0)], size=(200, 120))
    moved = dets.mapped(affine, -45.0, (turned.shape[1], turned.shape[0]))
    k = np.sqrt(abs(np.linalg.det(affine[:, :2])))
    assert k < 1 and np.allclose(moved.obb[0, 2:4], [30 * k, 40 * k], atol=1e-3)
    back = moved.mapped(cv2.invertAffineTransform(affine), 45.0, (200, 120))
    assert np.allclose(back.obb, dets.obb, atol=1e-2)


def composed(n: int, turn: float) -> list:
    """The first ``n`` hands composed from the packaged faces (seed 5): each ``(win, upright photo, the photo turned
    by turn degrees)``, the odd ones turned clockwise (as taken from the winner's left), the even ones
    counter-clockwise."""
    from benchmarks.photo_score import _as_taken

    pictures = {t: [cv2.imread(str(PICTURES / f"{t.code}.png"))] for t in Tile if t.is_known}
    rng = random.Random(5)
    out: list = []
    while len(out) < n:
        if (w := random_win(rng, list(pictures))) is not None:
            photo = compose(w, pictures, rng)
            k = len(out) + 1
            quarter, rest = abs(turn) >= 90, abs(turn) % 90
            out.append((w, photo, _as_taken(photo, False, quarter, k, rest)))
    return out


@pytest.mark.parametrize("k", [0, 3])
def test_a_hand_photographed_from_the_winners_side_is_read_and_scored(k: int) -> None:
    """Of those hands turned a quarter, the 1st (clockwise) and the 4th (counter-clockwise) read wrong without the
    look; with it every tile and the score are the truth's, and each box lies on its tile in the photo as taken
    (where the upright photo's reading, turned the same way, puts it)."""
    truth, upright, photo = composed(4, 90)[k]
    want = sorted([*truth.all_tiles(), truth.win_tile])
    assert sorted(TileReader(straighten=False).read(photo, tiled=True).tiles()) != want
    dets = TileReader().read(photo, tiled=True)
    assert sorted(dets.tiles()) == want
    assert dets.image_size == (photo.shape[1], photo.shape[0])
    got = score_photo(dets, {}, load_profile(None))
    assert got.score.hand_tai == score(truth, load_profile(None)).hand_tai
    assert sorted(str(m) for m in got.win.melds) == sorted(str(m) for m in truth.melds)
    plain = TileReader().read(upright, tiled=True).quarter_turned(-1 if k % 2 == 0 else 1, dets.image_size)
    for box, kind in zip(dets.xyxy, dets.kind, strict=True):
        iou = [_iou(box, b) for b in plain.xyxy]
        j = int(np.argmax(iou))
        assert iou[j] > 0.9 and plain.kind[j] == kind


def test_a_hand_photographed_from_its_side_is_listed_along_its_rows() -> None:
    """``companion read`` lists tiles in reading order: for a hand photographed from its side, along its rows as the
    photo turned to stand them shows, the same order as the straight photo's (a review found the two rows
    interleaved)."""
    reader = TileReader()
    for k, (_, upright, photo) in enumerate(composed(2, 90)):
        want = [str(t) for t in reader.read(upright, tiled=True).in_reading_order().tiles()]
        assert [str(t) for t in reader.read(photo, tiled=True).in_reading_order().tiles()] == want, k


@pytest.mark.parametrize("k", [4, 7])
def test_a_hand_photographed_askew_is_read_as_if_straight(k: int) -> None:
    """Of those hands photographed 45 degrees askew (from a corner of the table), the 5th (clockwise) and the 8th
    (counter-clockwise) read wrong as they lie; read straightened, their tiles and score are the truth's, each box
    tilted with its tile."""
    truth, _, photo = composed(k + 1, 45)[k]
    want = sorted([*truth.all_tiles(), truth.win_tile])
    assert sorted(TileReader(straighten=False).read(photo, tiled=True).tiles()) != want
    dets = TileReader().read(photo, tiled=True)
    assert sorted(dets.tiles()) == want
    assert dets.image_size == (photo.shape[1], photo.shape[0])
    faces = dets.face_up & (dets.kind != int(Tile.UNKNOWN))
    assert np.all(np.abs((dets.obb[faces, 4] + 45 + 45) % 90 - 45) < 8)  # clockwise 45: each box's angle -45 (+90k)
    got = score_photo(dets, {}, load_profile(None))
    assert got.score.hand_tai == score(truth, load_profile(None)).hand_tai


def test_an_upside_down_hand_reads_as_the_straight_one() -> None:
    """Turned a half turn, a photo is read again turned back, so it reads exactly as the straight photo does."""
    truth, upright, _ = composed(2, 0)[1]
    straight = TileReader().read(upright, tiled=True)
    turned = TileReader().read(cv2.rotate(upright, cv2.ROTATE_180), tiled=True)
    assert sorted(turned.tiles()) == sorted(straight.tiles())
    back = turned.quarter_turned(1, (upright.shape[0], upright.shape[1])).quarter_turned(1, turned.image_size)
    assert np.allclose(np.sort(back.obb[:, 0]), np.sort(straight.obb[:, 0]), atol=0.01)


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = w * h
    return float(inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter))
