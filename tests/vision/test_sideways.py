"""Tiles lying across their row in a photo (a meld's claimed tile): the geometry of the second look, and the reader
with it on a photo composed from the packaged tile pictures."""

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
from companion.rules.win import Win
from companion.tiles import Tile
from companion.vision import hand_search
from companion.vision.hand_score import PhotoHandError, score_photo
from companion.vision.read import TileReader
from companion.vision.sideways import (
    ALMOST,
    DECIDE,
    EDGE,
    JOIN,
    MARGIN,
    SHORT,
    UNSURE,
    RowFrame,
    across_views,
    choose,
    common_turn,
    half_turned,
    inside,
    proposals,
    row_sizes,
    tile_size,
    ways_up,
)

W, D = 30.0, 40.0


def row(boxes: list[tuple[float, float, float, float]], turn: float = 0.0) -> np.ndarray:
    """Oriented boxes ``(along, w, h, angle)`` of one row at y 100, the whole row turned by ``turn`` degrees
    (counter-clockwise) about the origin."""
    t = np.radians(turn)
    right, down = np.array([np.cos(t), -np.sin(t)]), np.array([np.sin(t), np.cos(t)])
    out = []
    for a, w, h, angle in boxes:
        x, y = a * right + 100.0 * down
        out.append((x, y, w, h, angle + turn))
    return np.array(out, np.float32)


def upright(n: int, start: float = 0.0) -> list[tuple[float, float, float, float]]:
    return [(start + k * (W + 1), W, D, 0.0) for k in range(n)]


@given(st.floats(-80, 80), st.sampled_from([0.0, 180.0]))
def test_the_rows_common_turn_ignores_which_way_up_and_the_few_tiles_across(turn: float, flip: float) -> None:
    boxes = row([*upright(6), (6 * (W + 1) + 5, W, D, 90.0), (7 * (W + 1) + 10, W, D, flip)], turn)
    got = np.degrees(common_turn(boxes[:, 4]))
    assert abs((got - turn + 90) % 180 - 90) < 1e-3
    frame = RowFrame.of(boxes)
    assert frame.sideways.tolist() == [False] * 6 + [True, False]
    assert np.allclose(frame.depth, [D] * 6 + [W, D]) and np.allclose(frame.extent, [W] * 6 + [D, W])
    assert np.allclose(frame.across, 100.0, atol=1e-3)


def test_only_boxes_less_deep_than_a_tile_get_sideways_boxes_around_them() -> None:
    boxes = row([*upright(5), (5 * (W + 1) + 10, 22, W, 0.0)])
    frame = RowFrame.of(boxes)
    props = proposals(frame, boxes, np.ones(len(boxes), bool))
    assert props is not None and props.parts.tolist() == [False] * 5 + [True]
    assert (props.owner == 5).all() and len(props.obb) == 10  # five places along, turned each way
    assert np.allclose(props.obb[:, 2:4], [W, D]) and set(np.round(props.obb[:, 4]).tolist()) == {90.0, -90.0}
    assert np.allclose(props.obb[:, 1], 100.0)
    # a box as deep as SHORT of a tile's height is upright; face-down boxes and too few tiles to measure: none
    assert proposals(RowFrame.of(b := row([*upright(5), (200, W, SHORT * D, 0.0)])), b, np.ones(6, bool)) is None
    assert proposals(frame, boxes, np.array([True] * 5 + [False])) is None
    two = row([*upright(1), (100, 22, W, 0.0)])
    assert proposals(RowFrame.of(two), two, np.ones(2, bool)) is None


def test_an_unsure_or_nearly_short_upright_box_is_looked_at_across_its_row_but_never_replaced() -> None:
    # a claimed tile across the meld row boxed as an upright tile of a tile's size (a real 3m read as 中 at 0.14),
    # or just over SHORT of a tile deep (a 4m read as 中 at 0.81)
    x = 4 * (W + 1)
    for depth, p in ((D, UNSURE - 0.01), (0.9 * D, 0.99)):
        boxes = row([*upright(4), (x + D / 2, W, depth, 0.0), *upright(2, x + D + 1 + W / 2)])
        frame = RowFrame.of(boxes)
        face_up = np.ones(len(boxes), bool)
        assert proposals(frame, boxes, face_up) is None  # no part of a tile
        read = np.full(len(boxes), 0.99)
        read[4] = p
        props = proposals(frame, boxes, face_up, read=read)
        assert props is not None and not props.parts.any() and (props.owner == 4).all() and len(props.obb) == 10
        assert set(np.round(props.obb[:, 4]).tolist()) == {90.0, -90.0} and np.allclose(props.obb[:, 2:4], [W, D])
        old, old_kind = np.full(len(boxes), 0.2), np.full(len(boxes), P2)
        assert not choose(frame, props, np.full(len(props.obb), 0.99), _kinds(props), old, old_kind)
        face_up[4] = False  # face down: not looked at so
        assert proposals(frame, boxes, face_up, read=read) is None
    # a tile as deep as its row read surely enough, and one lying across the row already: not looked at so
    boxes = row([*upright(4), (x + D / 2, W, (ALMOST + 0.01) * D, 0.0), *upright(2, x + D + 1 + W / 2)])
    assert proposals(RowFrame.of(boxes), boxes, np.ones(7, bool), read=np.full(7, UNSURE)) is None
    boxes = row([*upright(4), (x + D / 2, W, D, 90.0), *upright(2, x + D + 1 + W / 2)])
    assert proposals(RowFrame.of(boxes), boxes, np.ones(7, bool), read=np.full(7, 0.1)) is not None  # (the others)
    assert 4 not in proposals(RowFrame.of(boxes), boxes, np.ones(7, bool), read=np.full(7, 0.1)).owner


def _split(gap: float = 1.0) -> np.ndarray:
    """Four upright tiles, then one tile lying across the row boxed as two narrow halves, then two more upright."""
    x = 4 * (W + 1)
    half = [(x + D / 4, D / 2 - gap, W, 0.0), (x + 3 * D / 4, D / 2 - gap, W, 0.0)]
    return row([*upright(4), *half, *upright(2, x + D + 1 + W / 2)])


def _sure(props, best: float, others: float = 0.3) -> np.ndarray:  # type: ignore[no-untyped-def]
    """Each proposal's best probability: ``best`` for the one centred on the split tile, ``others`` elsewhere."""
    centre = 4 * (W + 1) + D / 2  # along the row, which lies along x (unturned)
    return np.where(np.abs(props.obb[:, 0] - centre) < 1.0, best, others)


P4, P2 = int(Tile.P4), int(Tile.P2)


def _kinds(props, kind: int = P4) -> np.ndarray:  # type: ignore[no-untyped-def]
    return np.full(len(props.obb), kind)


def test_a_tile_boxed_as_two_narrow_halves_is_taken_whole_even_when_the_halves_read_surely() -> None:
    boxes = _split()
    frame = RowFrame.of(boxes)
    props = proposals(frame, boxes, np.ones(len(boxes), bool))
    assert props is not None and props.parts.tolist() == [False] * 4 + [True, True] + [False] * 2
    old, old_kind = np.full(len(boxes), 0.95), np.full(len(boxes), P2)
    taken = choose(frame, props, _sure(props, 0.9), _kinds(props), old, old_kind)
    assert len(taken) == 1 and taken[0][1].tolist() == [4, 5]  # one whole tile, taken once (not once per half)
    assert not choose(frame, props, _sure(props, JOIN - 0.01), _kinds(props), old, old_kind)  # sure enough to join


def test_one_short_box_is_replaced_only_by_another_kind_read_surer_that_covers_no_upright_tile() -> None:
    x = 4 * (W + 1)
    boxes = row([*upright(4), (x + D / 2, W * 0.8, W, 0.0), *upright(2, x + D + 1 + W / 2)])
    frame = RowFrame.of(boxes)
    props = proposals(frame, boxes, np.ones(len(boxes), bool))
    assert props is not None
    old, old_kind = np.full(len(boxes), 0.7), np.full(len(boxes), P2)
    taken = choose(frame, props, _sure(props, 0.9), _kinds(props), old, old_kind)
    assert [c.tolist() for _, c in taken] == [[4]]
    assert not choose(frame, props, _sure(props, 0.7 + MARGIN - 0.01), _kinds(props), old, old_kind)  # not surer
    assert not choose(frame, props, _sure(props, 0.99), _kinds(props, P2), old, old_kind)  # the same kind: left
    # the same short box where an upright tile lies too close: a tile across the row would lie on top of it
    tight = row([*upright(4), (x + D / 2, W * 0.8, W, 0.0), *upright(2, x + W * 0.4 + 1 + W / 2)])
    frame = RowFrame.of(tight)
    props = proposals(frame, tight, np.ones(len(tight), bool))
    assert props is not None and not choose(frame, props, np.full(len(props.obb), 0.99), _kinds(props), old, old_kind)


def test_a_row_of_smaller_tiles_is_measured_by_its_own_tiles_not_the_photos() -> None:
    """A review: a row farther from the camera (tiles 0.8 the size) was all short against the photo's tiles, and two
    of its 2p read surely were joined into one 4p lying across it."""
    near = row(upright(8))
    far = row([(a * 0.8, W * 0.8, D * 0.8, 0.0) for a, *_ in upright(6)])
    far[:, 1] += 2 * D
    boxes = np.concatenate([near, far])
    frame = RowFrame.of(boxes)
    assert proposals(frame, boxes, np.ones(len(boxes), bool)) is None
    sizes = row_sizes(frame, boxes, np.ones(len(boxes), bool))
    assert sizes is not None and np.allclose(sizes[0], [W] * 8 + [W * 0.8] * 6)
    assert np.allclose(sizes[1], [D] * 8 + [D * 0.8] * 6)


def test_a_box_at_the_images_edge_is_left_as_it_is() -> None:
    """A review: the winning tile cut by the photo's top edge looked short, and a sideways box reaching out of the
    image (its pixels the edge's repeated) read as another tile."""
    x = 4 * (W + 1)
    boxes = row([*upright(4), (x + D / 2, W * 0.8, W, 0.0), *upright(2, x + D + 1 + W / 2)])
    frame = RowFrame.of(boxes)
    cut = boxes.copy()
    cut[:, 1] -= 100.0 - W / 2  # the short box's top on the image's top edge
    assert proposals(RowFrame.of(cut), cut, np.ones(len(cut), bool), (400, 200)) is None
    props = proposals(frame, boxes, np.ones(len(boxes), bool), (400, 200))
    assert props is not None and inside(props.obb, (400, 200), -EDGE).all()
    assert inside(np.array([[10, 10, 10, 10, 0.0], [10, 20, 30, 10, 90.0], [12, 12, 20, 20, 45.0]]), (100, 100)).tolist() \
        == [True, True, False]


def test_a_lone_tile_boxed_as_halves_lying_across_the_row_is_read_standing() -> None:
    """A lone 4p (the winning tile set apart) was boxed as two 2p lying across the row, one above the other, or as
    one of them: each reaches along the row a tile's width, not a sideways tile's length."""
    x = 8 * (W + 1)
    halves = row([*upright(6), (x, D / 2 - 1, W, 90.0), (x, D / 2 - 1, W, -90.0)])
    halves[6, 1] -= D / 4  # the upper half
    halves[7, 1] += D / 4  # the lower half
    frame = RowFrame.of(halves)
    props = proposals(frame, halves, np.ones(len(halves), bool))
    assert props is not None and props.parts.tolist() == [False] * 6 + [True, True]
    assert props.upright.all() and set(np.round(props.obb[:, 4]).tolist()) == {0.0, -180.0}
    assert np.allclose(props.obb[:, 0], x) and np.allclose(props.obb[:, 2:4], [W, D])
    centred = np.where(np.abs(props.obb[:, 1] - 100.0) < 1.0, 0.9, 0.3)
    kinds = np.full(len(halves), P2)
    taken = choose(frame, props, centred, _kinds(props), np.array([0.95] * 6 + [0.56, 0.72]), kinds)
    assert [c.tolist() for _, c in taken] == [[6, 7]]
    assert not choose(frame, props, centred, _kinds(props), np.array([0.95] * 6 + [0.56, 0.93]), kinds)  # kept
    one = halves[[0, 1, 2, 3, 4, 5, 7]]
    frame = RowFrame.of(one)
    props = proposals(frame, one, np.ones(len(one), bool))
    assert props is not None
    taken = choose(frame, props, np.where(np.abs(props.obb[:, 1] - 100.0) < 1.0, 0.9, 0.3), _kinds(props),
                   np.array([0.95] * 6 + [0.56]), kinds[:7])
    assert [c.tolist() for _, c in taken] == [[6]]
    # a tile lying across the row at its full length is a sideways tile, not part of one
    whole = row([*upright(6), (x, W, D, 90.0)])
    props = proposals(RowFrame.of(whole), whole, np.ones(len(whole), bool))
    assert props is None


def test_half_turned_boxes_keep_their_place_and_point_the_other_way() -> None:
    obb = np.array([[10, 20, 30, 40, 90.0], [1, 2, 3, 4, -90.0], [0, 0, 1, 1, 0.0], [0, 0, 1, 1, 170.0]], np.float32)
    got = half_turned(obb)
    assert np.array_equal(got[:, :4], obb[:, :4])
    assert got[:, 4].tolist() == [-90.0, 90.0, -180.0, -10.0]


def test_a_tile_across_its_row_is_read_again_half_turned_and_at_its_rows_tile_size() -> None:
    boxes = row([*upright(4), (4 * (W + 1) + 18, 26, 35, 90.0)])
    frame = RowFrame.of(boxes)
    assert tile_size(frame, boxes, np.ones(len(boxes), bool)) == (W, D)  # measured on the upright tiles only
    sizes = row_sizes(frame, boxes, np.ones(len(boxes), bool))
    assert sizes is not None
    views = across_views(boxes[4:], sizes[0][4:], sizes[1][4:])
    assert views.shape == (7, 1, 5)
    assert views[:, 0, 4].tolist() == [-90.0] + [90.0, -90.0] * 3
    assert views[:, 0, 2:4].tolist() == [[26, 35]] + [[W, D]] * 6
    assert np.array_equal(views[:3, 0, :2], np.repeat(boxes[4:, :2], 3, axis=0))
    # slid along the row (x here) to either end of where the tile may lie: the box is 35 long, the tile 40
    assert np.allclose(views[3:, 0, 0] - boxes[4, 0], [-2.5, -2.5, 2.5, 2.5]) and np.allclose(views[3:, 0, 1], 100)
    # along the row, not along the box, when the row lies turned and the box askew across it
    turned = row([*upright(4), (4 * (W + 1) + 18, 26, 35, 60.0)], turn=30.0)
    views = across_views(turned[4:], sizes[0][4:], sizes[1][4:], float(np.radians(30.0)))
    frame = RowFrame.of(turned)
    along = [frame.locate(float(x), float(y)) for x, y in views[3:, 0, :2] - turned[4, :2]]
    assert np.allclose(along, [(-2.5, 0), (-2.5, 0), (2.5, 0), (2.5, 0)], atol=1e-4)
    assert across_views(boxes[4:], None, None).shape == (1, 1, 5)  # no tile size to draw it at: half turned only
    assert tile_size(frame, boxes, np.array([True, True, False, False, True])) is None


PICTURES = resources.files("companion") / "assets" / "tiles"


@pytest.fixture(scope="module")
def pictures() -> dict[Tile, list[np.ndarray]]:
    return {t: [cv2.imread(str(PICTURES / f"{t.code}.png"))] for t in Tile if t.is_known}


def _composed(pictures: dict[Tile, list[np.ndarray]], seed: int, nth: int) -> tuple[Win, np.ndarray]:
    """The ``nth`` random winning hand of ``seed`` (from 1) composed from ``pictures`` with each meld's claimed tile
    across the row, as ``benchmarks.photo_score --sideways`` composes it, and its photo."""
    rng = random.Random(seed)
    wins = []
    while len(wins) < nth:
        if (w := random_win(rng, list(pictures))) is not None:
            wins.append((w, compose(w, pictures, rng, sideways=True)))
    return wins[-1]


def test_a_hand_with_its_claimed_tiles_turned_sideways_is_read_and_scored(pictures) -> None:  # type: ignore[no-untyped-def]
    """Of 12 hands composed from the packaged faces with each meld's claimed tile across the row (the benchmark's
    ``--sideways``; seed 5), the 9th was refused before this look: the detector boxed its sideways 2m as an upright
    tile over part of it, read unsurely as 1s. Read with it, every tile and the score are the truth's."""
    truth, photo = _composed(pictures, seed=5, nth=9)
    dets = TileReader().read(photo, tiled=True)
    assert sorted(dets.tiles()) == sorted([*truth.all_tiles(), truth.win_tile])
    got = score_photo(dets, {}, load_profile(None))
    assert got.score.hand_tai == score(truth, load_profile(None)).hand_tai
    assert sorted(str(m) for m in got.win.melds) == sorted(str(m) for m in truth.melds)


def test_a_meld_cut_by_its_claimed_tiles_short_box_is_joined_and_scored(pictures, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Of 12 hands composed as above (seed 3), the 5th was refused before short groups of a row of melds were joined:
    a pung's claimed tile across the row, boxed short, left a gap that cut the pung (and a 2m read as 1s at 0.17,
    repaired from a second look's 2m)."""
    truth, photo = _composed(pictures, seed=3, nth=5)
    dets = TileReader().read(photo, tiled=True)
    got = score_photo(dets, {}, load_profile(None))
    assert got.win.concealed == truth.concealed and got.win.win_tile == truth.win_tile
    assert sorted(str(m) for m in got.win.melds) == sorted(str(m) for m in truth.melds)
    assert got.score.hand_tai == score(truth, load_profile(None)).hand_tai
    monkeypatch.setattr(hand_search, "joined_short", list)
    with pytest.raises(PhotoHandError):
        score_photo(dets, {}, load_profile(None))


def _ways(angles: list[float], gains: list[float], turn: float = 0.0) -> np.ndarray:
    """:func:`ways_up` on one row of standing tiles at these angles (each plus ``turn``), each tile's reading gaining
    ``gains`` (log probability) when turned."""
    obb = row([(i * 31.0, W, D, a) for i, a in enumerate(angles)], turn)
    return ways_up(RowFrame.of(obb), obb, np.ones(len(obb), bool), np.array(gains))


@given(st.floats(-180, 180))
def test_a_row_takes_the_way_up_its_readings_favour_together(turn: float) -> None:
    """A review's photo taken from across the table: the orientation network read some tiles of the upside-down row
    the right way up against the rest. The row's readings decide, whichever way most tiles were read."""
    # one tile of five the other way, reading better turned: it is turned
    assert _ways([0, 0, 180, 0, 0], [-2, -2, 2, -2, -2], turn).tolist() == [False, False, True, False, False]
    # three of five read the wrong way up (each reads better turned): those three are turned, not the other two
    assert _ways([0, 180, 0, 180, 0], [1, -1, 1, -1, 1], turn).tolist() == [True, False, True, False, True]
    # a vote closer than DECIDE turns nothing
    assert not _ways([0, 0, 180], [DECIDE / 4, DECIDE / 4, -DECIDE / 4], turn).any()
    # a tile left upside down in a row that stands right, read surer as it lies than turned: it keeps its reading
    # (a review's 3m read 3m, turned with its row and read 4f at 0.75)
    assert not _ways([0, 0, 180, 0, 0], [-2, -2, -0.3, -2, -2], turn).any()


def test_a_row_turns_only_on_a_vote_of_about_one_and_a_half() -> None:
    """:data:`DECIDE`, in numbers (the test above scales its votes with it, so that no value of it failed them, a
    review): three tiles standing the same way, each reading a little surer turned (log gains summing to 1.0), stay
    as they lie; a vote of 1.8 turns the row."""
    assert not _ways([0, 0, 0], [0.35, 0.35, 0.3]).any()
    assert _ways([0, 0, 0], [0.6, 0.6, 0.6]).all()


def test_a_short_row_follows_the_photos_tiles_and_sideways_ones_are_left() -> None:
    obb = np.concatenate([row([(i * 31.0, W, D, 180) for i in range(5)]),  # a row read upside down, surely so
                          row([(0.0, W, D, 0.0), (31.0, W, D, 0.0)])[:, :] + np.array([0, 200, 0, 0, 0]),  # a pair
                          row([(200.0, D, W, 90)])])  # a tile across its row: not this look's
    obb = np.asarray(obb, np.float32)
    standing = np.array([True] * 7 + [False])
    gain = np.array([-3.0] * 5 + [0.5, 0.5] + [5.0])
    flip = ways_up(RowFrame.of(obb), obb, standing, gain)
    assert flip.tolist() == [False] * 5 + [True, True] + [False]
    gain[5] = -3 * DECIDE  # a tile of the short row reading far worse turned (a flower laid aside askew) stays
    assert ways_up(RowFrame.of(obb), obb, standing, gain).tolist() == [False] * 5 + [False, True] + [False]


def test_a_hand_photographed_from_across_the_table_is_read_right(pictures) -> None:  # type: ignore[no-untyped-def]
    """Of 12 hands composed from the packaged faces and turned upside down (the benchmark's ``--upside-down``; seed
    5), the 8th reads wrong without this look: tiles of its row read the right way up against the rest."""
    rng = random.Random(5)
    wins = []
    while len(wins) < 8:
        if (w := random_win(rng, list(pictures))) is not None:
            wins.append((w, cv2.rotate(compose(w, pictures, rng), cv2.ROTATE_180)))
    truth, photo = wins[-1]
    want = sorted([*truth.all_tiles(), truth.win_tile])
    assert sorted(TileReader(way_up=False).read(photo, tiled=True).tiles()) != want
    dets = TileReader().read(photo, tiled=True)
    assert sorted(dets.tiles()) == want
    got = score_photo(dets, {}, load_profile(None))
    assert got.score.hand_tai == score(truth, load_profile(None)).hand_tai


def test_tiles_left_upside_down_in_a_hand_that_stands_right_keep_their_reading(pictures) -> None:  # type: ignore[no-untyped-def]
    """Players leave tiles upside down in a row: a review's hands with a 3m, a 1p and a 5p so read 3m as 4f, 1f, 3f
    and 2f (the row's way up turned each back). A hand composed from the packaged faces (seed 2), its 7m and 7p upside
    down, lost three tiles so; read right now."""
    rng = random.Random(2)
    win = None
    while win is None:
        win = random_win(rng, list(pictures))
    laid = dict(pictures)
    for kind in (Tile.from_code("7m"), Tile.from_code("7p")):
        assert kind in win.concealed
        laid[kind] = [cv2.rotate(pictures[kind][0], cv2.ROTATE_180)]
    photo = compose(win, laid, rng)
    assert sorted(TileReader().read(photo, tiled=True).tiles()) == sorted([*win.all_tiles(), win.win_tile])
