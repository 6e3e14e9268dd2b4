"""A winning hand laid down on the table, as a player photographs it for scoring (``companion score``).

:func:`laid_hand` places a :class:`companion.rules.win.Win`'s tiles the way a winner lays them down: the concealed
tiles in one row, the winning tile a little apart at its right end (or in the row, ``apart=False``), the melds in
a row in front (each apart from the next; a concealed kong with its two end tiles face down; with ``sideways``
the claimed tile of a chow or pung turned across the row, as some players do: at a Taiwanese table melds usually
lie straight), the flowers at the right of the melds. :func:`hand_photo` renders it as a phone
photo (camera nearly overhead) and returns the frame and labels of :func:`training.synth.scene.render_table`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from companion.hand import MeldKind
from companion.rules.win import Win
from companion.tiles import Tile

from .scene import Lighting, SceneStyle, TileLabel, render_table
from .scene_geometry import Camera, PlacedTile, Pose, TileSize

GAP = 0.8
"""mm between tiles side by side."""
APART = 0.6
"""The gap that sets a group apart, in tile widths."""


def _place(tiles: Sequence[tuple[Tile, bool, Pose]], x0: float, y: float, size: TileSize) -> tuple[list[PlacedTile], float]:
    """Tiles (kind, sideways, pose) side by side from ``x0`` along a row at ``y``; returns them and the x
    after the last."""
    out, x = [], x0
    for kind, sideways, pose in tiles:
        across = size.height if sideways else size.width
        out.append(PlacedTile(kind, x + across / 2, y - (size.height - size.width) / 2 * sideways, 0,
                              90.0 if sideways else 0.0, pose))
        x += across + GAP
    return out, x


def laid_hand(win: Win, size: TileSize | None = None, apart: bool = True,
              sideways: bool = False) -> list[PlacedTile]:
    """The tiles of ``win`` laid down (see the module's text), centred on the origin, in mm."""
    size = size or TileSize()
    row = [(t, False, Pose.FACE_UP) for t in win.concealed]
    out, x = _place(row, 0.0, 0.0, size)
    if win.win_tile is not None:
        more, _ = _place([(win.win_tile, False, Pose.FACE_UP)], x + APART * size.width if apart else x, 0.0, size)
        out += more
    front = -(size.height + 14.0)
    x = 0.0
    for m in win.melds:
        if m.kind is MeldKind.CKONG:
            tiles = [(t, False, Pose.FACE_DOWN if k in (0, 3) else Pose.FACE_UP) for k, t in enumerate(m.tiles)]
        else:
            turn = {"L": 0, "O": 1, "R": len(m.tiles) - 1}.get(m.source.value if m.source and sideways else "", -1)
            tiles = [(t, k == turn, Pose.FACE_UP) for k, t in enumerate(m.tiles)]
        more, x = _place(tiles, x, front, size)
        out += more
        x += APART * size.width
    more, _ = _place([(t, False, Pose.FACE_UP) for t in win.flowers], x + APART * size.width, front, size)
    out += more
    xs = np.array([t.x for t in out])
    ys = np.array([t.y for t in out])
    cx, cy = float((xs.min() + xs.max()) / 2), float((ys.min() + ys.max()) / 2)
    return [PlacedTile(t.kind, t.x - cx, t.y - cy, t.level, t.rotation, t.pose) for t in out]


def widest_tile_px(win: Win, size: TileSize, frame_width: int, margin: float = 0.1) -> float:
    """The widest a tile may be drawn (px) for ``win`` laid down to fit across a frame ``frame_width`` px wide,
    ``margin`` of it left free (a camera turned a little, and the tiles' own depth)."""
    layout = laid_hand(win, size)
    xs = np.array([t.x for t in layout])
    span = float(xs.max() - xs.min()) / size.width + 1.0  # in tile widths
    return frame_width * (1.0 - margin) / span


def hand_photo(win: Win, style: SceneStyle, size: tuple[int, int] = (1600, 1200), tile_px: float = 70.0,
               tilt: float = 8.0, yaw: float = 0.0, seed: int = 0, apart: bool = True,
               lighting: Lighting | None = None, sideways: bool = False) -> tuple[np.ndarray, list[TileLabel]]:
    """A phone photo of ``win`` laid down: tiles about ``tile_px`` wide, the camera ``tilt`` degrees from
    overhead. Returns ``render_table``'s frame (BGR) and labels."""
    layout = laid_hand(win, style.tile, apart, sideways)
    focal = 1.25 * size[0]
    cam = Camera((0.0, 0.0), focal * style.tile.width / tile_px, tilt, yaw, 0.0, focal, size)
    return render_table(layout, cam, style, lighting or Lighting(uneven=0.1), (), seed=seed)
