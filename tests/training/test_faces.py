"""The tile face renderer: every face in every style split renders, styles are reproducible from a seed,
the held-out split shares no font with training, and the committed tile pictures are current."""

import random

import numpy as np
import pytest
from PIL import Image

from companion.tiles import Tile
from training import render_faces
from training.synth.faces import CLEAN_STYLE, face_box, render_face, sample_style
from training.synth.fonts import HELDOUT_FONTS, TRAIN_FONTS

ALL = render_faces.ALL_TILES


def test_same_seed_same_style_and_pixels() -> None:
    a = sample_style(random.Random(5))
    b = sample_style(np.random.default_rng(0))
    assert a == sample_style(random.Random(5))
    assert b == sample_style(np.random.default_rng(0))
    im1, im2 = render_face(Tile.F7, a, (48, 64)), render_face(Tile.F7, a, (48, 64))
    assert np.array_equal(np.asarray(im1), np.asarray(im2))


@pytest.mark.parametrize("split", ["train", "heldout"])
def test_every_face_renders_rgba_of_the_asked_size(split: str) -> None:
    for i in range(3):
        style = sample_style(random.Random(100 + i), split)
        for tile in ALL:
            im = render_face(tile, style, (36, 48))
            assert im.mode == "RGBA" and im.size == (36, 48)
            a = np.asarray(im)
            assert a[0, 0, 3] < 128  # rounded corner is transparent
            assert a[24, 18, 3] == 255


def test_faces_differ_from_each_other() -> None:
    arrays = [np.asarray(render_face(t, CLEAN_STYLE, (30, 40)).convert("L"), dtype=np.int16) for t in ALL]
    for i in range(len(arrays)):
        for j in range(i + 1, len(arrays)):
            assert np.abs(arrays[i] - arrays[j]).mean() > 1.0, (ALL[i], ALL[j])


def test_heldout_styles_use_other_fonts_and_designs() -> None:
    assert not set(TRAIN_FONTS) & set(HELDOUT_FONTS)
    train = [sample_style(random.Random(i), "train") for i in range(60)]
    held = [sample_style(random.Random(i), "heldout") for i in range(60)]
    for field in ("font", "pip_design", "stick_design", "bird"):
        assert not {getattr(s, field) for s in train} & {getattr(s, field) for s in held}, field
    assert {s.seed % 2 for s in train} == {0} and {s.seed % 2 for s in held} == {1}


def test_bad_split_and_size_are_errors() -> None:
    with pytest.raises(ValueError, match="split"):
        sample_style(random.Random(0), "test")
    with pytest.raises(ValueError, match="size"):
        render_face(Tile.M1, CLEAN_STYLE, (2, 2))


def test_face_box_lies_inside_the_picture() -> None:
    style = sample_style(random.Random(3))
    x0, y0, x1, y1 = face_box(style, (90, 120))
    assert 0 <= x0 < x1 <= 90 and 0 <= y0 < y1 <= 120
    im = np.asarray(render_face(Tile.Z5, style, (90, 120)).convert("RGB"), dtype=np.int16)
    centre = im[int((y0 + y1) / 2), int(x0) + 2]
    assert np.abs(centre - np.array(style.face)).max() < 40  # face colour just inside the face's left edge


def test_committed_tile_pictures_are_current() -> None:
    assert render_faces.stale() == [], "run: python -m training.render_faces"
    im = Image.open(render_faces.ASSET_DIR / "0x.png")
    assert im.size == render_faces.ASSET_SIZE
