"""Each crop is embedded once for :func:`~companion.vision.sheet.set_likeness`: every photo of the sheet was compared with
all the photos before it, their crops embedded again each time, so photo N embedded 22 N crops (`calibrate photo`'s
20th photo of a page took 110 ms, now 24). The likeness, and so the set calibrated, is what it was."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import pytest

import tests.vision.test_sheet as sheet_photos
from companion.cli import main
from companion.tiles import Tile
from companion.vision import calibration, sheet
from companion.vision.classify import TileClassifier
from companion.vision.sheet import Paper, layout, render_sheet, set_likeness
from tests.vision.test_sheet_one_set import _flat, _other_set, _photos


def _features_before(crops: Sequence[np.ndarray], classifier: TileClassifier) -> tuple[np.ndarray, np.ndarray]:
    """What :func:`set_likeness` measured with before: every crop given embedded, then and there."""
    _, emb = classifier.run(list(crops))
    emb = emb / (np.linalg.norm(emb, axis=1, keepdims=True) + 1e-8)
    return emb, np.stack([sheet._look(c) for c in crops])


@pytest.fixture
def classifier(monkeypatch: pytest.MonkeyPatch) -> tuple[TileClassifier, Counter[bytes]]:
    """A classifier that counts how often it embeds each crop (by its pixels)."""
    clf = TileClassifier(threads=1)
    seen: Counter[bytes] = Counter()
    run = clf.run

    def counted(crops: Sequence[np.ndarray], batch: int = 128) -> tuple[np.ndarray, np.ndarray]:
        seen.update(sheet._pixels_key(c) for c in crops)
        return run(crops, batch)

    monkeypatch.setattr(clf, "run", counted)
    return clf, seen


def _photo(rng: np.random.Generator, other: bool = False) -> list[tuple[Tile, np.ndarray]]:
    """The crops of A4 page 1 as one photo gives them (each photo's pixels a little different)."""
    out = []
    for cell in layout(Paper.A4)[0].cells:
        face = _flat((_other_set if other else sheet_photos._picture)(cell.tile.code)).astype(np.int16)
        out.append((cell.tile, np.clip(face + rng.integers(-8, 9, face.shape), 0, 255).astype(np.uint8)))
    return out


def test_each_photo_compared_with_those_before_it_embeds_its_own_crops_alone(
        classifier: tuple[TileClassifier, Counter[bytes]], monkeypatch: pytest.MonkeyPatch) -> None:
    clf, seen = classifier
    rng = np.random.default_rng(3)
    photos = [_photo(rng) for _ in range(5)] + [_photo(rng, other=True)]
    photos.insert(3, photos[1])  # a photo given again: its crops are kept already
    held: list[tuple[Tile, np.ndarray]] = []
    likes = []
    for n, photo in enumerate(photos):
        before = sum(seen.values())
        likes.append(set_likeness(held, photo, clf))
        fresh = 0 if n in (0, 3) else len(photo) * (2 if n == 1 else 1)  # (none held at first, both then)
        assert sum(seen.values()) - before == fresh, n  # the held photos' crops were embedded again: 22 n
        held += photo
    assert max(seen.values()) == 1 and len(seen) == 6 * 22  # every crop embedded once
    monkeypatch.setattr(sheet, "_features", _features_before)
    held = []
    for photo, like in zip(photos, likes, strict=True):
        assert like == pytest.approx(set_likeness(held, photo, clf), abs=1e-6)  # (equal, to the bit, here)
        held += photo
    assert likes[0] is None and min(likes[1:-1]) > sheet.SAME_SET > likes[-1]  # another set's photo still told


def test_the_crops_kept_are_bounded_and_those_let_go_embedded_again(
        classifier: tuple[TileClassifier, Counter[bytes]], monkeypatch: pytest.MonkeyPatch) -> None:
    clf, seen = classifier
    monkeypatch.setattr(sheet, "_FEATURES_KEPT", 30)
    rng = np.random.default_rng(5)
    first, second = _photo(rng), _photo(rng)
    like = set_likeness(first, second, clf)
    assert len(sheet._FEATURES[clf]) == 30 and len(seen) == 44  # the first photo's first 14 crops let go
    assert set_likeness(first, second, clf) == like
    assert seen[sheet._pixels_key(first[0][1])] == 2 and seen[sheet._pixels_key(second[-1][1])] == 1


def _shot(path: Path) -> Path:
    """Another photo of A4 page 1 of our set (``_photos`` takes every photo alike)."""
    rng = np.random.default_rng(8)
    page = layout(Paper.A4)[0]
    filled, _ = sheet_photos.fill(render_sheet(Paper.A4, sheet_photos.DPI)[0], page, rng, empty=())
    cv2.imwrite(str(path), sheet_photos.photo(filled, rng)[0])
    return path


def test_calibrate_photo_calibrates_the_same_set_as_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    ours = _photos(tmp_path, monkeypatch, "ours-1.jpg", sheet_photos._picture, 1)
    again = _shot(tmp_path / "ours-1-again.jpg")
    theirs = _photos(tmp_path, monkeypatch, "theirs-1.jpg", _other_set, 1)
    photos = [str(p) for p in (ours, again, ours, theirs)]
    assert main(["calibrate", "photo", "now", *photos, "--no-select"]) == 1  # theirs left out
    now = capsys.readouterr()
    with monkeypatch.context() as m:
        m.setattr(sheet, "_features", _features_before)
        assert main(["calibrate", "photo", "before", *photos, "--no-select"]) == 1
    was = capsys.readouterr()
    assert now.err == was.err and "theirs-1.jpg: its tiles do not look like those of the photos before it" in now.err
    assert now.out.replace("“now”", "“before”").replace("「now」", "「before」").replace("now.npz", "before.npz") == was.out
    got, expected = calibration.load("now"), calibration.load("before")
    assert got.tiles == expected.tiles and np.array_equal(got.crops, expected.crops)
