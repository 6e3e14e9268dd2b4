"""A tile set's file that cannot be read now but is not broken (no permission, a disk's error, a tile this version does
not know) is not called damaged nor to be deleted: it says it cannot be read, and why, in a player's words (a change
review: the app called every unreadable set file damaged and told the player to delete it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.app import tileset_model
from companion.cli import main
from companion.tiles import Tile
from companion.vision import calibration

PICTURES = Path(__file__).parents[2] / "companion" / "assets" / "tiles"


@pytest.fixture(autouse=True)
def sets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    crops = [(t, cv2.imread(str(PICTURES / f"{t.code}.png"))) for t in (Tile.M1, Tile.P5, Tile.S9)]
    calibration.save(calibration.Calibration.from_crops("home", crops))
    calibration.select("home")
    return calibration.calibration_dir()


def _newer(path: Path) -> None:
    """A set file as a later version might write it: a kind this one does not know."""
    np.savez_compressed(path, tiles=np.array(["1m", "9z"]), crops=np.zeros((2, 80, 60, 3), np.uint8))


def _row(name: str) -> tileset_model.TileSetRow:
    return next(r for r in tileset_model.tile_sets() if r.name == name)


def test_a_broken_file_is_said_damaged_to_be_deleted(sets: Path) -> None:
    (sets / "home.npz").write_bytes(b"garbage")
    row = _row("home")
    assert row.damaged and row.problem is not None and "damaged" in row.problem.en and "delete it" in row.problem.en


def test_a_file_of_a_newer_version_is_said_unreadable_not_damaged(sets: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _newer(sets / "home.npz")
    row = _row("home")
    assert not row.damaged and row.problem is not None
    assert row.problem.en == ("Its file “home.npz” cannot be read now (it holds a tile this version does not know, maybe "
                              "saved by a newer version): it is kept, and can be used once that is mended; or calibrate "
                              "the set again")
    assert "不認得的牌" in row.problem.zh and "刪除" not in row.problem.zh and "損壞" not in row.problem.zh
    assert main(["calibrate", "list"]) == 0
    listed = capsys.readouterr().out
    assert "home  (cannot be read now: it holds a tile" in listed and "damaged" not in listed


def test_a_file_without_permission_is_said_unreadable_with_why(sets: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def denied(*args: Any, **kwargs: Any) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(calibration.np, "load", denied)
    with pytest.raises(calibration.UnreadableCalibration) as bad:
        calibration.load("home")
    assert "cannot be read: Permission denied" in str(bad.value) and "damaged" not in str(bad.value)
    row = _row("home")
    assert not row.damaged and row.problem is not None
    assert "(Permission denied)" in row.problem.en and "delete" not in row.problem.en and "damaged" not in row.problem.en
    assert "Permission" not in row.problem.zh and "刪除" not in row.problem.zh


def test_a_failed_look_at_the_file_is_said_unreadable() -> None:
    said = tileset_model.set_problem(OSError(5, "Input/output error"), "home.npz")
    assert "cannot be read now (Input/output error)" in said.en and "delete" not in said.en


def test_the_photo_says_the_selected_set_cannot_be_read_or_is_damaged(sets: Path) -> None:
    from companion.app.server import PhotoReader

    reader = PhotoReader()
    _newer(sets / "home.npz")
    assert reader._tiles()[1:] == (None, "home", True)
    (sets / "home.npz").write_bytes(b"garbage")
    assert reader._tiles()[1:] == (None, "home", False)


def test_the_settings_tab_says_the_selected_set_cannot_be_read_not_damaged(sets: Path) -> None:
    from companion.app.tileset_model import SheetDraft
    from companion.app.words import ui
    from tests.app.test_tileset_one_set import _tab, _texts

    _newer(sets / "home.npz")
    said = _texts(_tab(SheetDraft()).build())
    assert ui("set_current_unreadable", name="home").en in said
    assert ui("set_current_damaged", name="home").en not in said
