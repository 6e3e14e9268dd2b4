"""A hand photographed from the winner's side: its tiles lie a quarter turned in the photo, and the reader reads the
photo again turned so that they stand (``TileReader(quarter=...)``), giving the boxes in the photo's own pixels."""

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
from companion.vision.read import QUARTER_FROM, Detections, TileReader, quarter_turn

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


def test_the_faces_decide_the_turn() -> None:
    row = [(50 + 40 * i, 100, 30, 40, 0.0) for i in range(8)]
    assert quarter_turn(dets_of(row)) == 0
    # tops to the left (90): the image turns clockwise; to the right (-90): counter-clockwise
    assert quarter_turn(dets_of([(x, y, w, h, 88.0) for x, y, w, h, _ in row])) == -1
    assert quarter_turn(dets_of([(x, y, w, h, -93.0) for x, y, w, h, _ in row])) == 1
    # a hand upright with its claimed tiles across the row: they are few, nothing turns
    few = row + [(50 + 40 * i, 200, 40, 30, 90.0) for i in range(3)]
    assert quarter_turn(dets_of(few)) == 0
    # upside down is the way-up look's, not this one's
    assert quarter_turn(dets_of([(x, y, w, h, 180.0) for x, y, w, h, _ in row])) == 0
    # backs do not vote (they have no up), nor do too few faces
    backs = [(x, y, w, h, 90.0) for x, y, w, h, _ in row]
    assert quarter_turn(dets_of(backs, ["0x"] * len(backs))) == 0
    assert quarter_turn(dets_of(backs[:QUARTER_FROM - 1])) == 0


@pytest.fixture(scope="module")
def wins() -> list:
    """The first four hands composed from the packaged faces (seed 5), each with its photo turned a quarter, the odd
    ones clockwise (as taken from the winner's left), the even ones counter-clockwise."""
    pictures = {t: [cv2.imread(str(PICTURES / f"{t.code}.png"))] for t in Tile if t.is_known}
    rng = random.Random(5)
    out: list = []
    while len(out) < 4:
        if (w := random_win(rng, list(pictures))) is not None:
            photo = compose(w, pictures, rng)
            turn = cv2.ROTATE_90_CLOCKWISE if len(out) % 2 == 0 else cv2.ROTATE_90_COUNTERCLOCKWISE
            out.append((w, photo, cv2.rotate(photo, turn)))
    return out


@pytest.mark.parametrize("k", [0, 3])
def test_a_hand_photographed_from_the_winners_side_is_read_and_scored(wins: list, k: int) -> None:
    """Of those hands, the 1st (clockwise) and the 4th (counter-clockwise) read wrong without the look; with it
    every tile and the score are the truth's, and each box lies on its tile in the photo as taken (where the upright
    photo's reading, turned the same way, puts it)."""
    truth, upright, photo = wins[k]
    want = sorted([*truth.all_tiles(), truth.win_tile])
    assert sorted(TileReader(quarter=False).read(photo, tiled=True).tiles()) != want
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


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = w * h
    return float(inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter))
