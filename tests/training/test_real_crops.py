"""Loading the dev split's labelled crops (a stand-in folder: the tests never read ../shared) with the known
wrong labels of ``training/dev_errata.json`` corrected."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.tiles import Tile
from training.real_crops import crop_errata, load_crops


def _folder(root: Path, label_350: str) -> Path:
    (root / "crops").mkdir(parents=True)
    for name in ("350.jpg", "351.jpg"):
        cv2.imwrite(str(root / "crops" / name), np.full((32, 24, 3), 200, np.uint8))
    (root / "crops.csv").write_text(f"file,tile,source_photo\ncrops/350.jpg,{label_350},7.jpg\n"
                                    "crops/351.jpg,3s,2-1.jpg\n", encoding="utf-8")
    return root


def test_a_crop_with_a_known_wrong_label_loads_as_the_tile_it_shows(tmp_path: Path) -> None:
    assert crop_errata()["crops/350.jpg"] == ("8p", "9p")
    folder = _folder(tmp_path, "8p")
    crops = load_crops(folder)
    assert [(c.file, c.tile, c.set) for c in crops] == [("crops/350.jpg", Tile.P9, "7"), ("crops/351.jpg", Tile.S3, "2")]
    assert [c.tile for c in load_crops(folder, errata=None)] == [Tile.P8, Tile.S3]  # as the csv says


def test_an_erratum_for_a_label_the_csv_no_longer_has_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="350.jpg is labelled 7p, the erratum corrects 8p"):
        load_crops(_folder(tmp_path, "7p"))
    bad = tmp_path / "errata.json"
    bad.write_text('{"crops": [{"file": "crops/1.jpg", "labelled": "8p"}]}', encoding="utf-8")
    with pytest.raises(ValueError, match="crops erratum 0"):
        crop_errata(bad)
