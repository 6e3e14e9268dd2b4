"""A calibration is of one physical set: photos (or crops) of another set are not averaged into it, nor put into a
saved set, unsaid (a review: `calibrate photo mix` of three sets' pages said "came in 3 photos: their crops are
averaged" and exited 0; `photo set9 s11-1.jpg --add` replaced set 9's 22 suit faces with set 11's)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

import tests.vision.test_sheet as sheet_photos
from companion.cli import main
from companion.tiles import Tile
from companion.vision import calibration
from companion.vision.classify import TileClassifier
from companion.vision.sheet import KINDS, SAME_SET, Paper, layout, render_sheet, set_likeness

_PICTURE = sheet_photos._picture


def _other_set(code: str) -> np.ndarray:
    """The product's picture of ``code`` as another set draws it: a smaller face on a tile with a wide orange rim."""
    pic = _PICTURE(code)
    h, w = pic.shape[:2]
    out = np.zeros_like(pic)
    out[...] = (60, 140, 200, 255)
    face = cv2.resize(pic, (w * 3 // 4, h * 3 // 4), interpolation=cv2.INTER_AREA)
    a = face[..., 3:4] / 255.0
    y, x = (h - face.shape[0]) // 2, (w - face.shape[1]) // 2
    out[y:y + face.shape[0], x:x + face.shape[1], :3] = (face[..., :3] * a + 245 * (1 - a)).astype(np.uint8)
    return out


def _flat(pic: np.ndarray) -> np.ndarray:
    a = pic[..., 3:4] / 255.0
    return cv2.resize((pic[..., :3] * a + 255 * (1 - a)).astype(np.uint8), (120, 160), interpolation=cv2.INTER_AREA)


@pytest.fixture(scope="module")
def classifier() -> TileClassifier:
    return TileClassifier(threads=1)


def test_tiles_of_one_set_are_alike_and_another_sets_are_not(classifier: TileClassifier) -> None:
    kinds = KINDS[:22]
    held = [(t, _flat(_PICTURE(t.code))) for t in kinds]
    again = [(t, cv2.GaussianBlur(c, (0, 0), 2.0)) for t, c in held]  # photographed again, less sharp
    other = [(t, _flat(_other_set(t.code))) for t in kinds]
    same = set_likeness(held, again, classifier)
    unlike = set_likeness(held, other, classifier)
    assert same is not None and same >= SAME_SET
    assert unlike is not None and unlike < SAME_SET
    assert set_likeness(held[:2], other[:2], classifier) is None  # two kinds shared say nothing


def _photos(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, picture: object, number: int) -> Path:
    """A photo of A4 page ``number`` filled with ``picture``'s tiles, written as ``name``."""
    monkeypatch.setattr(sheet_photos, "_picture", picture)
    rng = np.random.default_rng(7)
    page = layout(Paper.A4)[number - 1]
    filled, _ = sheet_photos.fill(render_sheet(Paper.A4, sheet_photos.DPI)[number - 1], page, rng, empty=())
    shot, _ = sheet_photos.photo(filled, rng)
    path = tmp_path / name
    cv2.imwrite(str(path), shot)
    monkeypatch.setattr(sheet_photos, "_picture", _PICTURE)
    return path


def test_calibrate_photo_leaves_out_a_page_of_another_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    ours = _photos(tmp_path, monkeypatch, "ours-1.jpg", _PICTURE, 1)
    theirs = _photos(tmp_path, monkeypatch, "theirs-1.jpg", _other_set, 1)
    assert main(["calibrate", "photo", "mix", str(ours), str(theirs)]) == 1
    said = capsys.readouterr()
    assert "theirs-1.jpg: its tiles do not look like those of the photos before it (another tile set?): left out" in said.err
    assert "theirs-1.jpg：這張的牌和前面照片的牌看起來不像同一副" in said.err
    assert "averaged" not in said.out and "mix" not in (calibration.selected() or "")  # part of what was given
    assert len(calibration.load("mix").tiles) == len(layout(Paper.A4)[0].cells)  # our page alone, once
    # the player says they are one set: both are taken
    assert main(["calibrate", "photo", "mix2", str(ours), str(theirs), "--same-set", "--no-select"]) == 0
    assert "A4 page 1 of 2 came in 2 photos: their crops are averaged" in capsys.readouterr().out


def test_calibrate_photo_add_refuses_another_sets_page_into_a_saved_set(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    ours = [_photos(tmp_path, monkeypatch, f"ours-{n}.jpg", _PICTURE, n) for n in (1, 2)]
    theirs = _photos(tmp_path, monkeypatch, "theirs-1.jpg", _other_set, 1)
    assert main(["calibrate", "photo", "home", *map(str, ours)]) == 0
    kept = calibration.load("home")
    capsys.readouterr()
    assert main(["calibrate", "photo", "home", str(theirs), "--add"]) == 2
    err = capsys.readouterr().err
    assert "these tiles do not look like those of the saved set “home” (another tile set?): it is kept" in err
    assert "這些牌和已存的牌組「home」的牌看起來不像" in err and "--same-set" in err.split(" / ")[1]
    assert np.array_equal(calibration.load("home").crops, kept.crops)
    assert main(["calibrate", "photo", "home", str(ours[0]), "--add"]) == 0  # the set's own page again is put in
    assert "added to “home”" in capsys.readouterr().out
    assert main(["calibrate", "photo", "home", str(theirs), "--add", "--same-set"]) == 0  # as the player says
    assert Tile.M1 in calibration.load("home").tiles
