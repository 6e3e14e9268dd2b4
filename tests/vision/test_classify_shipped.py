"""The packaged classifier: present, small, self-describing, and it reads the product's own tile pictures
and refuses things that are not tiles."""

import json

import cv2
import numpy as np
from PIL import Image

from companion.tiles import Tile
from companion.vision.classify import NOT_A_TILE, TileClassifier, default_model_path
from training import render_faces
from training.synth.faces import CLEAN_STYLE, face_box


def test_packaged_model_is_small_and_self_describing() -> None:
    path = default_model_path()
    assert path.is_file(), path
    assert path.stat().st_size < 8_000_000
    clf = TileClassifier(path)
    meta = clf.session.get_modelmeta().custom_metadata_map
    assert len(clf.info.class_names) == 44 and clf.info.class_names[-1] == NOT_A_TILE
    assert len(clf.info.training_commit) >= 40
    assert json.loads(meta["training"])["seed"]


def _asset_crops() -> list[np.ndarray]:
    x0, y0, x1, y1 = (round(v) for v in face_box(CLEAN_STYLE, render_faces.ASSET_SIZE))
    out = []
    for tile in render_faces.ALL_TILES:
        im = Image.open(render_faces.ASSET_DIR / f"{tile.code}.png").convert("RGBA")
        flat = Image.new("RGB", im.size, (255, 255, 255))
        flat.paste(im, (0, 0), im)
        out.append(np.ascontiguousarray(np.asarray(flat)[y0:y1, x0:x1, ::-1]))
    return out


def test_reads_the_product_tile_pictures() -> None:
    preds = TileClassifier().classify(_asset_crops())
    assert [p.tile for p in preds] == list(render_faces.ALL_TILES)
    assert all(p.score > 0.5 for p in preds)


def test_things_that_are_not_tiles_are_unknown() -> None:
    # (A bare patch of green felt is not asked: a tight crop of a green tile back looks the same.)
    felt = np.full((120, 90, 3), (40, 110, 40), np.uint8)
    chip, finger, die = felt.copy(), felt.copy(), felt.copy()
    cv2.circle(chip, (45, 60), 40, (30, 30, 200), -1)
    cv2.circle(chip, (45, 60), 22, (240, 240, 240), 4)
    cv2.ellipse(finger, (45, 60), (25, 70), 10, 0, 360, (120, 160, 210), -1)
    cv2.rectangle(die, (15, 30), (75, 90), (235, 235, 240), -1)
    for x, y in ((30, 45), (60, 75), (45, 60)):
        cv2.circle(die, (x, y), 6, (20, 20, 20), -1)
    preds = TileClassifier().classify([chip, finger, die])
    assert [p.label for p in preds] == [NOT_A_TILE] * 3
    assert all(p.tile is None for p in preds)
    assert Tile.UNKNOWN.code == "0x"  # a face-down tile is a tile: "0x", never "unknown"


def test_calibration_to_the_product_pictures_reads_other_views_of_them() -> None:
    """Calibrate with the clean pictures, read jittered copies (shifted, scaled, tinted, blurred): the
    calibrated reading is at least as good as the plain one and reads nearly all of them."""
    from companion.vision import calibration

    crops = _asset_crops()
    cal = calibration.Calibration.from_crops("pictures", list(zip(render_faces.ALL_TILES, crops, strict=True)))
    rng = np.random.default_rng(11)
    test = [v for c in crops for v in calibration.views(c, rng, 3)[1:]]
    want = [t for t in render_faces.ALL_TILES for _ in range(2)]
    plain = [p.tile for p in TileClassifier().classify(test)]
    calibrated = [p.tile for p in TileClassifier(calibration=cal).classify(test)]
    right_plain = sum(a == b for a, b in zip(plain, want, strict=True))
    right_cal = sum(a == b for a, b in zip(calibrated, want, strict=True))
    assert right_cal >= right_plain and right_cal >= 0.97 * len(want)
