"""``benchmarks/photo_score``: its random hands are wins, its composed photos hold every tile, and its tallies
add up (on the packaged tile pictures: the tests never read ../shared)."""

import random
from importlib import resources

import cv2
import numpy as np
import pytest

from benchmarks.photo_score import compose, random_win, run_set, synthetic
from companion.rules.profiles import load_profile
from companion.rules.scoring import score
from companion.tiles import Tile
from companion.vision.read import TileReader


def test_random_hands_are_wins_of_the_kinds_given_with_kongs_where_asked() -> None:
    kinds = [t for t in Tile if t.is_known]
    kongs = 0
    for seed in range(60):
        win = random_win(random.Random(seed), kinds, kongs=0.5)
        if win is None:
            continue
        assert score(win, load_profile(None)).hand_tai > 0  # a legal win (score raises otherwise)
        kongs += sum(m.is_kong for m in win.melds)
    assert kongs > 0
    few = [*(t for t in Tile if t.is_suited and t.suit == "m"), Tile.Z5, Tile.F1]
    win = next(w for s in range(50) if (w := random_win(random.Random(s), few)) is not None)
    assert set(win.all_tiles()) <= set(few)


def test_composed_photos_hold_every_tile_and_the_tallies_add_up() -> None:
    folder = resources.files("companion") / "assets" / "tiles"
    pictures = {t: [cv2.imread(str(folder / f"{t.code}.png"))] for t in Tile if t.is_known}
    win = next(w for s in range(20) if (w := random_win(random.Random(s), list(pictures))) is not None)
    boxes: list = []
    img = compose(win, pictures, random.Random(1), boxes)
    assert len(boxes) == len(win.all_tiles()) + 1 and img.dtype == np.uint8  # (all_tiles: the flowers, not the winning tile)
    reader = TileReader()
    tally = run_set("x", pictures, reader, hands=2, seed=1, changes=3)
    assert tally["hands"] == 2 == tally.get("right", 0) + tally.get("wrong", 0) + tally.get("refused", 0)
    assert 0 < tally["tiles_read_right"] <= tally["tiles"]
    rendered = synthetic(reader, hands=1, seed=1, changes=3)
    assert rendered["hands"] == 1 and rendered["tiles"] > 0
    across = synthetic(reader, hands=1, seed=1, changes=3, sideways=True)  # the same hand, claimed tiles turned
    assert across["hands"] == 1 and across["tiles"] == rendered["tiles"]


def _straight_and_turned(hands: int, **turn: object) -> tuple[dict, dict, list[np.ndarray]]:
    """``run_set``'s tallies of ``hands`` hands straight and then turned as ``turn`` says, and the photos it read."""
    from benchmarks import photo_score

    folder = resources.files("companion") / "assets" / "tiles"
    pictures = {t: [cv2.imread(str(folder / f"{t.code}.png"))] for t in Tile if t.is_known}
    seen: list[np.ndarray] = []

    class Spy:
        def read(self, image: np.ndarray, tiled: bool = False):  # type: ignore[no-untyped-def]
            seen.append(image)
            return TileReader().read(image, tiled)

    straight = photo_score.run_set("x", pictures, Spy(), hands=hands, seed=3, changes=3)  # type: ignore[arg-type]
    turned = photo_score.run_set("x", pictures, Spy(), hands=hands, seed=3, changes=3, **turn)  # type: ignore[arg-type]
    return straight, turned, seen


def test_an_upside_down_run_reads_the_same_hands_turned() -> None:
    """``--upside-down`` turns each photo a half turn before it is read, the hands and their tiles the same."""
    straight, turned, seen = _straight_and_turned(1, upside_down=True)
    assert straight["tiles"] == turned["tiles"] and len(seen) == 2
    assert np.array_equal(seen[1], seen[0][::-1, ::-1]) and not np.array_equal(seen[1], seen[0])


def test_a_quarter_run_turns_the_hands_each_way_in_turn() -> None:
    """``--quarter`` turns the first hand's photo clockwise, the second's counter-clockwise, the hands the same."""
    straight, turned, seen = _straight_and_turned(2, quarter=True)
    assert straight["tiles"] == turned["tiles"] and len(seen) == 4
    assert np.array_equal(seen[2], np.rot90(seen[0], -1)) and np.array_equal(seen[3], np.rot90(seen[1]))
    assert turned.get("right", 0) == straight.get("right", 0)  # the look reads the turned photos as the straight


def test_a_tilted_photo_holds_the_whole_hand_on_felt() -> None:
    """``--tilt DEG`` turns each photo DEG degrees more, each way in turn, on a canvas of felt that holds all of it."""
    from benchmarks.photo_score import FELT, _as_taken

    img = np.full((100, 300, 3), 200, np.uint8)
    one, two = _as_taken(img, False, False, 1, 30.0), _as_taken(img, False, False, 2, 30.0)
    assert one.shape == two.shape and one.shape[0] > 100 and one.shape[1] > 300
    assert tuple(int(v) for v in one[0, 0]) == FELT and not np.array_equal(one, two)
    assert np.array_equal(two, one[:, ::-1])  # the two ways are mirror images of a symmetric photo
    assert (one == 200).all(axis=2).sum() == pytest.approx(100 * 300, rel=0.03)  # all of the photo, none lost
