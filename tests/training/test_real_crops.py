"""Loading the dev split's labelled crops (a stand-in folder: the tests never read ../shared) with the known
wrong labels of ``training/dev_errata.json`` corrected."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.tiles import Tile
from training.real_crops import (
    RealCrop,
    copy_entries,
    crop_errata,
    iou_xyxy,
    load_copies,
    load_crops,
    split_left_out,
)


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


def _photo_folder(root: Path) -> Path:
    (root / "photos").mkdir(parents=True)
    img = np.zeros((40, 60, 3), np.uint8)
    img[:, 30:] = 255  # the right half white: a copy's pixels are the photo's at its box
    cv2.imwrite(str(root / "photos" / "9.png"), img)
    return root


def _copies(root: Path, *entries: str) -> Path:
    path = root / "copies.json"
    path.write_text('{"copies": [' + ", ".join(entries) + "]}", encoding="utf-8")
    return path


def test_the_shipped_copies_file_names_tiles_boxes_and_the_five_whole_set_photos() -> None:
    from training.dev_copies import PHOTOS

    every = copy_entries(crops_too=True)
    scored = copy_entries()
    assert len(every) == 484 and len(scored) > 350
    assert {e.photo for e in every} == set(PHOTOS)
    assert all(e.crop is None for e in scored) and all(e.crop and e.crop.startswith("crops/") for e in every
                                                       if e not in scored)
    assert len({e.crop for e in every if e.crop}) == len(every) - len(scored)  # one tile per crop
    for photo in PHOTOS:  # no tile listed twice
        boxes = [list(e.xyxy) for e in every if e.photo == photo]
        assert max(iou_xyxy(p, q) for i, p in enumerate(boxes) for q in boxes[i + 1 :]) < 0.2


def test_copies_cut_from_for_a_crop_are_left_out_unless_asked_for(tmp_path: Path) -> None:
    path = _copies(tmp_path, '{"photo": "photos/9.png", "xyxy": [1, 2, 5, 9], "tile": "5p"}',
                   '{"photo": "photos/9.png", "xyxy": [10, 2, 15, 9], "tile": "6p", "crop": "crops/3.jpg"}')
    assert [(e.tile, e.crop, e.number) for e in copy_entries(path)] == [(Tile.P5, None, 1)]
    assert [(e.tile, e.crop, e.number) for e in copy_entries(path, crops_too=True)] == [
        (Tile.P5, None, 1), (Tile.P6, "crops/3.jpg", 2)]


def test_a_copy_loads_as_its_photo_cut_at_its_box(tmp_path: Path) -> None:
    folder = _photo_folder(tmp_path)
    copies = load_copies(folder, _copies(tmp_path, '{"photo": "photos/9.png", "xyxy": [25, 5, 35, 20], "tile": "5p"}'))
    assert [(c.file, c.tile, c.set, c.image.shape) for c in copies] == [("photos/9.png#25,5", Tile.P5, "9", (15, 10, 3))]
    assert copies[0].image[:, :5].max() == 0 and copies[0].image[:, 5:].min() == 255


@pytest.mark.parametrize(("entry", "message"), [
    ('{"photo": "photos/9.png", "xyxy": [50, 5, 70, 20], "tile": "5p"}', r"copy 1: box \[50, 5, 70, 20\] is not inside photos/9.png \(60x40\)"),
    ('{"photo": "photos/9.png", "xyxy": [5, 5, 10, 20], "tile": "5q"}', "copy 1 is not a photo, an xyxy box and a tile"),
    ('{"photo": "photos/9.png", "xyxy": [5, 5], "tile": "5p"}', "copy 1 is not a photo, an xyxy box and a tile"),
    ('{"photo": "photos/8.png", "xyxy": [5, 5, 10, 20], "tile": "5p"}', "copy 1: cannot read photos/8.png"),
    ('{"photo": "photos/9.png", "xyxy": [5, 5, 5, 20], "tile": "5p"}', r"copy 1: box \[5, 5, 5, 20\] is empty"),
    ('{"photo": "photos/9.png", "xyxy": "5,5,9,9", "tile": "5p"}', "copy 1 is not a photo, an xyxy box and a tile"),
])
def test_a_bad_copy_is_refused_by_its_number(tmp_path: Path, entry: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        load_copies(_photo_folder(tmp_path), _copies(tmp_path, entry))


def test_leaving_out_a_set_that_is_not_there_is_refused_with_the_sets_named() -> None:
    crops = [RealCrop(f"c{i}.jpg", Tile.M1, s, np.zeros((4, 3, 3), np.uint8))
             for i, s in enumerate(["2", "11", "2", "9"])]
    kept, out = split_left_out(crops, "2", "DEV")
    assert [c.set for c in kept] == ["11", "9"] and [c.set for c in out] == ["2", "2"]
    assert split_left_out(crops, "", "DEV") == (crops, [])
    with pytest.raises(ValueError, match=r"--leave-out 5: DEV has no set '5' \(its sets: 2, 9, 11\)"):
        split_left_out(crops, "5", "DEV")
