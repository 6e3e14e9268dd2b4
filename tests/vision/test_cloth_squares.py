"""A checked (gingham) table cloth's squares were read as tiles in a photo of a hand: backs lying in no row, and
specks read as blank faces (:func:`companion.vision.read.cloth_squares`)."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from companion.rules.win import Win
from companion.tiles import Tile
from companion.vision.read import Detections, TileReader, cloth_squares
from training.render_demo_hand import HAND, SEED
from training.synth.faces import sample_style
from training.synth.scene import Finish, Lighting, SceneStyle
from training.synth.scene_geometry import TileSize
from training.synth.scene_hand import hand_photo

TRUTH = Counter(["3m", "4m", "5m", "6p", "7p", "2s", "3s", "4s", "2z", "2z", "8p", "7z", "7z", "7z", "1m", "2m", "3m", "2f", "6f"])
"""The bundled demo hand's tiles (``training.render_demo_hand.HAND``)."""


def _dets(boxes: list[tuple[float, float, float, float, float]], kinds: list[Tile]) -> Detections:
    n = len(boxes)
    kind = np.array([int(k) for k in kinds], np.int16)
    return Detections(np.array(boxes, np.float32), kind, kind != int(Tile.UNKNOWN), np.full(n, 0.9, np.float32),
                      np.repeat(kind[:, None], 3, axis=1), np.tile(np.float32([0.9, 0.05, 0.05]), (n, 1)),
                      (2000, 1000))


def test_a_back_in_no_row_and_a_speck_are_cloth_while_a_kongs_backs_and_a_tile_set_apart_stay() -> None:
    row = [(100.0 + 70 * i, 300.0, 66.0, 88.0, 0.0) for i in range(10)]  # ten faces side by side
    kong = [(900.0 + 70 * i, 300.0, 66.0, 88.0, 0.0) for i in range(4)]  # a concealed kong: its ends face down
    apart = (1300.0, 300.0, 66.0, 88.0, 0.0)  # the winning tile set apart
    lone_back = (500.0, 150.0, 66.0, 88.0, 0.0)  # above the row, beside nothing: a square of the cloth
    speck = (700.0, 600.0, 26.0, 34.0, 0.0)
    dets = _dets(row + kong + [apart, lone_back, speck],
                 [Tile.M1] * 10 + [Tile.UNKNOWN, Tile.P5, Tile.P5, Tile.UNKNOWN, Tile.S3, Tile.UNKNOWN, Tile.Z5])
    assert np.flatnonzero(cloth_squares(dets)).tolist() == [15, 16]
    few = _dets([row[0], row[1], speck], [Tile.M1, Tile.M1, Tile.Z5])  # too few faces to judge a speck by
    assert not cloth_squares(few).any()


@pytest.mark.parametrize("seed", [13, 18])
def test_the_demo_hand_on_a_checked_cloth_reads_its_tiles_and_nothing_of_the_cloth(seed: int) -> None:
    """The demo hand's scene on a checked cloth: seed 18 read two squares as backs, seed 13 two as blank 白板."""
    colour = tuple(float(c) for c in np.random.default_rng(seed).uniform(0.2, 0.9, 3))
    style = SceneStyle(sample_style(random.Random(SEED), "heldout"), TileSize(27.0, 36.0, 20.0, 0.45), "cloth",
                       (colour[0], colour[1], colour[2]), Finish(blur=0.4, noise=0.01))
    frame, _ = hand_photo(Win.from_dict(HAND), style, size=(1280, 960), tile_px=70.0, tilt=12.0, yaw=4.0, seed=seed,
                          lighting=Lighting(azimuth=30.0, elevation=55.0, uneven=0.25, shadow=0.3))
    dets = TileReader().read(frame, tiled=True)
    assert Counter(t.code for t in dets.tiles()) == TRUTH


def test_a_kongs_back_boxed_turned_or_tilted_apart_from_its_faces_stays() -> None:
    """A concealed kong's face-down end is nearly square, and is often boxed turned 90 degrees or tilted apart from
    its neighbours, so it lies in no row: it was dropped as a square of the cloth, and the hand scored wrong."""
    row = [(100.0 + 70 * i, 300.0, 66.0, 88.0, 0.0) for i in range(10)]
    kong = [(903.0, 300.0, 84.0, 63.0, 87.0),  # its left end boxed turned (width and height swapped)
            (975.0, 300.0, 66.0, 88.0, 0.0), (1045.0, 300.0, 66.0, 88.0, 0.0),
            (1117.0, 302.0, 64.0, 86.0, -14.0)]  # its right end tilted apart
    gingham = (560.0, 208.0, 66.0, 86.0, 0.0)  # a square of the cloth just above the row, end to end with a face
    dets = _dets(row + kong + [gingham], [Tile.M1] * 10 + [Tile.UNKNOWN, Tile.P9, Tile.P9, Tile.UNKNOWN, Tile.UNKNOWN])
    assert np.flatnonzero(cloth_squares(dets)).tolist() == [14]


KONGS = {"concealed": "67p22z", "win_tile": "8p", "win_type": "discard", "discarder": "N", "seat_wind": "S",
         "round_wind": "E", "dealer": "E", "streak": 1,
         "melds": ["pung:777z@O", "chow:123m@L", "ckong:5555s", "ckong:9999p"], "flowers": "2f6f"}
"""The demo hand with two concealed kongs: four backs, at the kongs' ends."""


@pytest.mark.parametrize(("table", "seed"), [("cloth", 1), ("felt", 2)])
def test_a_hand_with_two_concealed_kongs_keeps_its_backs(table: str, seed: int) -> None:
    """On a checked cloth (seed 1) both of the 9p kong's backs were dropped and the photo refused as a false win; on
    felt (seed 2) one, and the kong was scored as a pung of 9p beside a white dragon."""
    colour = tuple(float(c) for c in np.random.default_rng(seed).uniform(0.2, 0.9, 3))
    style = SceneStyle(sample_style(random.Random(SEED), "heldout"), TileSize(27.0, 36.0, 20.0, 0.45), table,
                       (colour[0], colour[1], colour[2]), Finish(blur=0.4, noise=0.01))
    frame, labels = hand_photo(Win.from_dict(KONGS), style, size=(1600, 1200), tile_px=60.0, tilt=12.0, yaw=4.0,
                               seed=seed, lighting=Lighting(azimuth=30.0, elevation=55.0, uneven=0.25, shadow=0.3))
    got = Counter(t.code for t in TileReader().read(frame, tiled=True).tiles())
    assert len(labels) == 21 and got["0x"] == 4
    assert got == Counter(["6p", "7p", "2z", "2z", "8p", "7z", "7z", "7z", "1m", "2m", "3m", "5s", "5s", "9p", "9p", "2f", "6f", "0x", "0x", "0x", "0x"])
