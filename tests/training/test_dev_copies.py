"""``training/dev_copies``: the unlabelled tiles of a whole-set photo get the label of the labelled tile they
match (a stand-in photo of the packaged tile pictures in a grid: the tests never read ../shared)."""

import json
from pathlib import Path

import cv2
import numpy as np

from companion.vision.read import TileReader
from training.dev_copies import montage, propose

ASSETS = Path(__file__).resolve().parents[2] / "companion" / "assets" / "tiles"
KINDS = ("1m", "4p", "5p", "3s", "1z", "7z")


def _grid(root: Path, photo: str) -> list[tuple[str, list[int]]]:
    """A photo of 4 copies of each kind in columns (4 rows x 6 columns, tiles 60x80 px with 4 px gaps); the
    first row labelled. Returns every tile's (kind, xyxy)."""
    img = np.full((4 * 84 + 40, 6 * 64 + 40, 3), (70, 110, 60), np.uint8)  # a green table
    tiles, labelled = [], []
    for col, kind in enumerate(KINDS):
        rgba = cv2.resize(cv2.imread(str(ASSETS / f"{kind}.png"), cv2.IMREAD_UNCHANGED), (60, 80),
                          interpolation=cv2.INTER_AREA)
        alpha = rgba[:, :, 3:4] / 255.0
        for row in range(4):
            x, y = 20 + col * 64, 20 + row * 84
            patch = img[y : y + 80, x : x + 60]
            patch[:] = (alpha * rgba[:, :, :3] + (1 - alpha) * patch).astype(np.uint8)
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
