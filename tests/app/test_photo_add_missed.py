"""The Score-a-photo tab's "add a tile the photo missed": the tiles the player adds are scored with the hand (a flower
with the flowers, another tile in the hand's row), each listed and removable. A review's missed flower lost its tai
silently, and the only way out was to type the whole hand."""

from __future__ import annotations

import numpy as np

from companion.app.photo_model import (
    PhotoContext,
    PhotoFailed,
    PhotoPanel,
    ReadPhoto,
    score_picked,
    with_added_tiles,
)
from companion.tiles import Tile
from tests.vision.test_hand_score import laid

ROWS = [(100.0, ["345m", "67p", "234s", "22z", "8p"]), (200.0, ["777z", "123m"]), (300.0, ["26f"])]
SOUTH = {**PhotoContext().as_context(), "seat_wind": "S"}  # 2f and 6f are South's flowers: a tai each


def _photo(rows: list[tuple[float, list[str]]], missed: str | None = None) -> ReadPhoto:
    """A photo read as ``rows``, the detector missing the first tile of kind ``missed``."""
    dets = laid(rows)
    if missed is not None:
        i = next(i for i in range(len(dets)) if Tile(int(dets.kind[i])).code == missed)
        dets = dets.take(np.array([j for j in range(len(dets)) if j != i]))
    return ReadPhoto("hand.jpg", np.full((400, 900, 3), 90, np.uint8), dets)


def test_a_missed_flower_added_is_scored_with_its_tai() -> None:
    whole = score_picked(_photo(ROWS), {}, SOUTH)
    missed = score_picked(_photo(ROWS, "6f"), {}, SOUTH)
    assert isinstance(whole, PhotoPanel) and isinstance(missed, PhotoPanel)
    assert missed.flowers == ("2f",) and missed.hand_tai == whole.hand_tai - 1  # lost, and nothing said of it
    got = score_picked(_photo(ROWS, "6f"), {}, SOUTH, added=[Tile.F6])
    assert isinstance(got, PhotoPanel), got
    assert got.flowers == ("2f", "6f") and got.hand_tai == whole.hand_tai and got.total == whole.total


def test_a_missed_tile_of_the_hand_added_makes_the_photo_a_win_and_keeps_the_picks() -> None:
    read = _photo(ROWS, "4s")
    assert isinstance(score_picked(read, {}, SOUTH), PhotoFailed)  # 16 tiles: no win
    got = score_picked(read, {}, SOUTH, added=[Tile.S4])
    whole = score_picked(_photo(ROWS), {}, SOUTH)
    assert isinstance(got, PhotoPanel) and isinstance(whole, PhotoPanel), got
    assert got.concealed == whole.concealed and got.win_tile == "8p" and got.hand_tai == whole.hand_tai
    # a tile read and picked keeps its index: the added one comes after the photo's own
    assert len(with_added_tiles(read, [Tile.S4]).dets) == len(read.dets) + 1
    nine = score_picked(read, {0: Tile.M3}, SOUTH, added=[Tile.S4])
    assert isinstance(nine, PhotoPanel) and nine.hand_tai == whole.hand_tai


def test_a_tile_added_where_the_photo_has_no_row_is_refused_in_both_languages() -> None:
    got = score_picked(_photo([(100.0, ["26f"])]), {}, SOUTH, added=[Tile.M5])
    assert isinstance(got, PhotoFailed)
    assert "5m cannot be added" in got.reason.en and "無法補上五萬" in got.reason.zh


def test_a_false_tile_is_taken_out_by_picking_the_back_key_as_the_palette_says() -> None:
    """A tile read where the hand holds none (a 9s among the hand's): the correcting palette's last key, a face-down
    tile, leaves it out, and the palette says so (a review could not tell how to take one out)."""
    from companion.app.words import ui

    rows = [(100.0, ["345m", "67p", "2349s", "22z", "8p"]), (200.0, ["777z", "123m"]), (300.0, ["26f"])]
    read = _photo(rows)
    assert isinstance(score_picked(read, {}, SOUTH), PhotoFailed)  # 18 tiles
    nine = next(i for i in range(len(read.dets)) if Tile(int(read.dets.kind[i])) is Tile.S9)
    got = score_picked(read, {nine: Tile.UNKNOWN}, SOUTH)
    whole = score_picked(_photo(ROWS), {}, SOUTH)
    assert isinstance(got, PhotoPanel) and isinstance(whole, PhotoPanel), got
    assert got.concealed == whole.concealed and got.hand_tai == whole.hand_tai
    assert any("left out" in n.en for n in got.notes)
    said = ui("photo_fix_back")
    assert "face-down" in said.en and "暗牌" in said.zh
