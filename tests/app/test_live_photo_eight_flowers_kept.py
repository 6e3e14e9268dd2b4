"""The Live tab's win form filled from a photo of 16 tiles and all eight flowers, for a win the table recorded as
self-drawn: the table says how the hand was won, so the photo is no 八仙過海 (a review's was taken as Eight flowers,
won on the eighth flower, because the Score tab infers that where nothing says otherwise). The form is filled with
the tiles read, the tile drawn left for the player."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from companion.app.live_photo import HandFill, fill_from_photo
from companion.app.photo_model import ReadPhoto
from companion.tiles import Tile, parse_tiles
from companion.vision.read import Detections
from tests.app.test_live_photo import at_a_win, chance_of


def _rows_photo(rows: list[list[str]]) -> ReadPhoto:
    """A photo read as rows of face-up groups (a tile's width between groups, a row's height between rows), each tile
    sure."""
    obb, kind = [], []
    for r, groups in enumerate(rows):
        x = 60.0
        for g in groups:
            for t in parse_tiles(g, check=False):
                obb.append([x, 100.0 + 80 * r, 30.0, 40.0, 0.0])
                kind.append(int(t))
                x += 32
            x += 32
    n = len(kind)
    top3 = np.array([[k, int(Tile.P9 if k != Tile.P9 else Tile.P8), int(Tile.Z7 if k != Tile.Z7 else Tile.Z6)]
                     for k in kind], np.int16)
    dets = Detections(np.array(obb, np.float32), np.array(kind, np.int16), np.ones(n, bool),
                      np.full(n, 0.98, np.float32), top3, np.tile(np.array([0.98, 0.01, 0.005], np.float32), (n, 1)),
                      (900, 100 + 80 * len(rows)))
    return ReadPhoto("hand.jpg", np.full((100 + 80 * len(rows), 900, 3), 90, np.uint8), dets)


def test_sixteen_tiles_and_eight_flowers_on_a_recorded_self_draw_keep_the_self_draw(tmp_path: Path) -> None:
    game, won, _ = at_a_win(tmp_path, 9)
    try:
        assert won.kind.value == "self_draw" and len(won.concealed) == 7  # and three melds: 16 between turns
        photo = _rows_photo([["4456p333z"], ["111z", "456m", "222s"], ["12345678f"]])
        got = fill_from_photo(photo, game.state, chance_of(game, won))
        assert isinstance(got, HandFill), got
        assert got.concealed == "4456p333z" and got.drawn == ""  # the tile drawn is not in the photo: left to type
        assert not any("Eight flowers" in n.en or "八仙過海" in n.zh for n in got.notes), got.notes
    finally:
        game.close()
