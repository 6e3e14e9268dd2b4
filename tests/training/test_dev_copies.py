"""``training/dev_copies``: the unlabelled tiles of a whole-set photo get the label of the labelled tile they
match (a stand-in photo of the packaged tile pictures in a grid: the tests never read ../shared)."""

import json
from pathlib import Path

import cv2
import numpy as np

from companion.vision.read import TileReader
from training.dev_copies import crop_sources, labelled_boxes, montage, propose

ASSETS = Path(__file__).resolve().parents[2] / "companion" / "assets" / "tiles"
KINDS = ("1m", "4p", "5p", "3s", "1z", "7z")


def _grid(root: Path, photo: str) -> list[tuple[str, list[int]]]:
    """A photo of 4 copies of each kind in columns (4 rows x 6 columns, tiles 60x80 px with 4 px gaps); the
    first row labelled. Returns every tile's (kind, xyxy)."""
    img = np.full((4 * 84 + 40, 6 * 64 + 40, 3), (70, 110, 60), np.uint8)  # a green table
    rng = np.random.default_rng(5)  # each copy its own grain, as physical tiles differ
    tiles, labelled = [], []
    for col, kind in enumerate(KINDS):
        rgba = cv2.resize(cv2.imread(str(ASSETS / f"{kind}.png"), cv2.IMREAD_UNCHANGED), (60, 80),
                          interpolation=cv2.INTER_AREA)
        alpha = rgba[:, :, 3:4] / 255.0
        for row in range(4):
            x, y = 20 + col * 64, 20 + row * 84
            patch = img[y : y + 80, x : x + 60]
            grain = rng.normal(0, 8, (80, 60, 1))
            patch[:] = np.clip(alpha * rgba[:, :, :3] + (1 - alpha) * patch + grain, 0, 255).astype(np.uint8)
            tiles.append((kind, [x, y, x + 60, y + 80]))
            if row == 0:
                labelled.append({"tile": kind, "xyxy": [x, y, x + 60, y + 80]})
    (root / "photos").mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(root / photo), img)
    (root / "photo_boxes.json").write_text(json.dumps({photo: labelled}), encoding="utf-8")
    return tiles


def test_each_unlabelled_copy_gets_the_label_of_the_tile_it_matches(tmp_path: Path) -> None:
    tiles = _grid(tmp_path, "photos/9.png")
    rows = propose(tmp_path, "photos/9.png", TileReader())
    assert len(rows) >= 15  # of the 18 unlabelled tiles (the reader may miss one at the edge)
    for r in rows:
        assert r["photo"] == "photos/9.png" and r["match"] >= 0.75
        kind, box = min(tiles, key=lambda t: abs(t[1][0] - r["xyxy"][0]) + abs(t[1][1] - r["xyxy"][1]))
        assert abs(box[0] - r["xyxy"][0]) <= 6 and abs(box[1] - r["xyxy"][1]) <= 6  # snapped onto the tile
        assert r["tile"] == kind
        assert box[1] > 20  # never a labelled tile of the first row again
    picture = montage(tmp_path, "photos/9.png", rows)
    assert picture.shape[0] == 6 * 178  # one line per labelled tile


def test_a_copy_that_a_crop_was_cut_from_is_tagged_with_the_crop(tmp_path: Path) -> None:
    tiles = _grid(tmp_path, "photos/9.png")
    photo = cv2.imread(str(tmp_path / "photos/9.png"))
    (tmp_path / "crops").mkdir()
    cut = {"crops/a.png": tiles[2], "crops/b.png": tiles[4]}  # 1m's third copy; 4p's labelled tile
    for name, (_, (x0, y0, x1, y1)) in cut.items():
        cv2.imwrite(str(tmp_path / name), cv2.resize(photo[y0:y1, x0:x1], (240, 320), interpolation=cv2.INTER_CUBIC))
    (tmp_path / "crops.csv").write_text("file,tile,source_photo\ncrops/a.png,1m,9.png\ncrops/b.png,4p,9.png\n",
                                        encoding="utf-8")
    rows = [{"photo": "photos/9.png", "xyxy": box, "tile": kind} for i, (kind, box) in enumerate(tiles) if i % 4]
    crop_sources(tmp_path, "photos/9.png", rows, labelled_boxes(tmp_path, "photos/9.png"))
    tagged = [(r["xyxy"], r["crop"]) for r in rows if "crop" in r]
    assert tagged == [(tiles[2][1], "crops/a.png")]  # b was cut from a labelled box: no copy is it


def test_a_photo_without_labelled_boxes_is_refused_by_name(tmp_path: Path) -> None:
    import pytest

    _grid(tmp_path, "photos/9.png")
    with pytest.raises(ValueError, match="no boxes for photos/8.png"):
        labelled_boxes(tmp_path, "photos/8.png")
