"""Random table scenes built on :func:`training.synth.scene.render_table`.

Two kinds of scene:

- ``table``: the overhead camera's view of a game: each seat's concealed row (standing, lying face down
  or laid open), melds and flowers in front of it, the wall (two levels, face down), a discard pool
  (neat rows or scattered and rotated), dice, chips, coins, phones, cups and hands passing over;
  tiles 12-30 px wide at 640x360 (25-60 px in a 1280x720 frame).
- ``photo``: a phone photo of tiles lying face up on a plain surface, packed in rows or a grid,
  near-vertical, tiles 22-110 px wide.

``split`` picks face styles and table surfaces: ``"heldout"`` ones are never used for training.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import cast

import numpy as np

from companion.tiles import Tile

from .scene import Finish, Lighting, SceneStyle
from .scene_geometry import Camera, PlacedTile, Pose, TileSize
from .scene_props import Occluder, PropKind, sample_occluder

__all__ = ["Scene", "random_scene", "table_layout", "photo_layout", "sample_scene_style", "sample_lighting"]

FACES = [Tile(i) for i in range(42)]


@dataclass(frozen=True, slots=True)
class Scene:
    """Everything ``render_table`` needs."""

    layout: tuple[PlacedTile, ...]
    camera: Camera
    style: SceneStyle
    lighting: Lighting
    occluders: tuple[Occluder, ...]
    seed: int


def _kinds(rng: np.random.Generator, n: int) -> list[Tile]:
    return [FACES[int(i)] for i in rng.integers(0, 42, n)]


def _seat(tiles: list[PlacedTile], seat_deg: float) -> list[PlacedTile]:
    """Turn tiles placed in a seat's frame (player at -y) to the table frame."""
    a = math.radians(seat_deg)
    c, s = math.cos(a), math.sin(a)
    return [PlacedTile(t.kind, c * t.x - s * t.y, s * t.x + c * t.y, t.level, t.rotation + seat_deg, t.pose)
            for t in tiles]


def _row(rng: np.random.Generator, size: TileSize, y: float, n: int, pose: Pose, x0: float | None = None,
         gap: float = 0.6) -> list[PlacedTile]:
    step = size.width + gap
    x0 = -step * (n - 1) / 2 if x0 is None else x0
    jitter = 0.8 if pose is Pose.STANDING else 0.4
    kinds = _kinds(rng, n)
    return [PlacedTile(kinds[i], x0 + i * step + rng.normal(0, 0.3), y + rng.normal(0, jitter), 0,
                       float(rng.normal(0, 1.5)), pose) for i in range(n)]


def _melds(rng: np.random.Generator, size: TileSize, y: float, x0: float) -> list[PlacedTile]:
    out: list[PlacedTile] = []
    x = x0
    for _ in range(int(rng.integers(0, 4))):
        n = 4 if rng.random() < 0.2 else 3
        sideways = int(rng.integers(-1, n)) if rng.random() < 0.6 else -1
        for i in range(n):
            pose = Pose.FACE_DOWN if n == 4 and i in (0, 3) and rng.random() < 0.3 else Pose.FACE_UP
            kind = _kinds(rng, 1)[0]
            if i == sideways:
                out.append(PlacedTile(kind, x + size.height / 2, y - (size.height - size.width) / 2, 0,
                                      90.0 + float(rng.normal(0, 1)), pose))
                x += size.height + 0.6
            else:
                out.append(PlacedTile(kind, x + size.width / 2, y, 0, float(rng.normal(0, 1)), pose))
                x += size.width + 0.6
        x += rng.uniform(4, 15)
    return out


def _wall(rng: np.random.Generator, size: TileSize, y: float, n: int) -> list[PlacedTile]:
    out = []
    start = int(rng.integers(0, n // 2)) if rng.random() < 0.5 else 0  # part of the wall already drawn
    for i in range(start, n):
        x = (i - (n - 1) / 2) * (size.width + 0.3)
        levels = 2 if rng.random() < 0.92 else 1
        for lv in range(levels):
            out.append(PlacedTile(Tile.UNKNOWN, x + rng.normal(0, 0.3), y + rng.normal(0, 0.5), lv,
                                  float(rng.normal(0, 1)), Pose.FACE_DOWN))
    return out


def _pool(rng: np.random.Generator, size: TileSize, n: int, scattered: bool) -> list[PlacedTile]:
    out: list[PlacedTile] = []
    if not scattered:
        for seat in range(4):
            k = n // 4
            rows = [_row(rng, size, -size.height * 0.7 - r * (size.height + 1), min(6, k - 6 * r), Pose.FACE_UP,
                         -3 * (size.width + 0.6)) for r in range((k + 5) // 6)]
            out += _seat([t for row in rows for t in row], 90.0 * seat)
        return out
    placed: list[tuple[float, float]] = []
    r_min = size.height * rng.uniform(1.0, 1.3)
    for _ in range(n * 6):
        if len(out) >= n:
            break
        x, y = rng.uniform(-230, 230, 2)
        if any((x - a) ** 2 + (y - b) ** 2 < r_min**2 for a, b in placed):
            continue
        placed.append((x, y))
        pose = Pose.FACE_DOWN if rng.random() < 0.1 else Pose.FACE_UP
        out.append(PlacedTile(_kinds(rng, 1)[0], x, y, 0, float(rng.uniform(0, 360)), pose))
    return out


def table_layout(rng: np.random.Generator, size: TileSize) -> list[PlacedTile]:
    """A game in progress: four seats' rows, melds, walls and a discard pool (table centre at 0, 0)."""
    tiles: list[PlacedTile] = []
    half = 9 * size.width + 60
    for seat in range(4):
        own: list[PlacedTile] = []
        row_pose = [Pose.STANDING, Pose.FACE_DOWN, Pose.FACE_UP][int(rng.choice(3, p=[0.6, 0.15, 0.25]))]
        n_row = int(rng.integers(4, 18))
        row_y = -half - 70 - (size.depth if row_pose is Pose.STANDING else size.height) / 2
        own += _row(rng, size, row_y, n_row, row_pose)
        own += _melds(rng, size, row_y + size.height + 8, -half + rng.uniform(0, 60))
        if rng.random() < 0.85:
            own += _wall(rng, size, -half, int(rng.integers(8, 19)))
        tiles += _seat(own, 90.0 * seat)
    tiles += _pool(rng, size, int(rng.integers(0, 60)), scattered=bool(rng.random() < 0.5))
    return tiles


def photo_layout(rng: np.random.Generator, size: TileSize) -> list[PlacedTile]:
    """Tiles face up in rows (a grid or a player's laid-out hand), packed with small gaps."""
    rows, cols = (int(rng.integers(1, 9)), int(rng.integers(3, 14))) if rng.random() < 0.7 else (1, 17)
    gap_x, gap_y = rng.uniform(0, 3), rng.uniform(0, 6)
    turn = float(rng.normal(0, 4)) if rng.random() < 0.7 else float(rng.uniform(-180, 180))
    a = math.radians(turn)
    out = []
    kinds = _kinds(rng, rows * cols)
    for r in range(rows):
        for c in range(cols):
            x = (c - (cols - 1) / 2) * (size.width + gap_x)
            y = ((rows - 1) / 2 - r) * (size.height + gap_y)
            out.append(PlacedTile(kinds[r * cols + c], math.cos(a) * x - math.sin(a) * y,
                                  math.sin(a) * x + math.cos(a) * y, 0, turn + float(rng.normal(0, 0.7)),
                                  Pose.FACE_UP))
    return out


_TRAIN_TABLES = [("felt", (0.20, 0.45, 0.10), (0.12, 0.12, 0.1)), ("felt", (0.45, 0.30, 0.10), (0.1, 0.1, 0.1)),
                 ("wood", (0.20, 0.35, 0.55), (0.08, 0.1, 0.12)), ("plain", (0.85, 0.85, 0.85), (0.1, 0.1, 0.1)),
                 ("felt", (0.30, 0.30, 0.30), (0.1, 0.1, 0.1))]
_HELDOUT_TABLES = [("cloth", (0.6, 0.5, 0.4), (0.2, 0.2, 0.2)), ("felt", (0.15, 0.12, 0.45), (0.08, 0.05, 0.1)),
                   ("wood", (0.12, 0.18, 0.28), (0.05, 0.05, 0.05))]


WIDE_TABLES = 0.5
"""Share of training scenes on a table of any colour (:func:`_wide_table`) rather than one of the five
training tables: with five table colours only, the detector and the back check took plain cloth of an unseen
colour for backs."""
HELDOUT_SIGMAS = 3.0
"""Every colour of a wide training table (its base, after jitter, and a striped cloth's second colour) is
more than this many of a held-out table's spreads from that table's colour (per channel, then the length)."""
WIDE_KINDS = ("felt", "wood", "plain", "stripes")
"""Table surfaces of wide training tables; the held-out checked cloth is not among them."""


def near_heldout(colour: np.ndarray) -> bool:
    """Whether an RGB colour (0-1) lies within :data:`HELDOUT_SIGMAS` spreads of a held-out table's colour."""
    return any(float(np.linalg.norm((np.asarray(colour) - np.array(c)) / np.array(s))) <= HELDOUT_SIGMAS
               for _, c, s in _HELDOUT_TABLES)


def _wide_table(rng: np.random.Generator) -> tuple[str, tuple[float, float, float], tuple[float, float, float]]:
    """A training table of a random surface, colour and second colour (the stripes'), away from the held-out
    tables' colours."""
    kind = WIDE_KINDS[int(rng.integers(len(WIDE_KINDS)))]
    while True:
        col = np.clip(rng.uniform(0.03, 0.95, 3) + rng.normal(0, 0.03, 3), 0.02, 0.98)
        other = np.clip(col * rng.uniform(0.4, 1.6, 3), 0.0, 1.0)
        if not near_heldout(col) and not near_heldout(other):
            return kind, (float(col[0]), float(col[1]), float(col[2])), (float(other[0]), float(other[1]), float(other[2]))


def sample_scene_style(rng: np.random.Generator, face: object, split: str, wide: bool = False) -> SceneStyle:
    """Table, tile size and camera finish of a scene. ``heldout`` tables are never drawn for ``train``;
    ``wide`` (``train`` only) puts :data:`WIDE_TABLES` of the scenes on a table of any other colour."""
    tables = _HELDOUT_TABLES if split == "heldout" else _TRAIN_TABLES
    second = None
    if wide and split != "heldout" and rng.random() < WIDE_TABLES:
        kind, col, second = _wide_table(rng)
    else:
        kind, colour, spread = tables[int(rng.integers(len(tables)))]
        col = cast(tuple[float, float, float],  # colour and spread are BGR triples
                   tuple(float(np.clip(c + rng.normal(0, s), 0.02, 0.98)) for c, s in zip(colour, spread, strict=True)))
    w = float(rng.uniform(24, 31))
    size = TileSize(w, w * float(rng.uniform(1.28, 1.42)), w * float(rng.uniform(0.6, 0.85)),
                    float(rng.uniform(0.3, 0.6)))
    fin = Finish(blur=float(rng.choice([0, rng.uniform(0.3, 1.3)], p=[0.5, 0.5])),
                 motion=float(rng.uniform(2, 6)) if rng.random() < 0.15 else 0.0,
                 noise=float(rng.uniform(0, 0.03)), jpeg=int(rng.integers(35, 95)) if rng.random() < 0.6 else None)
    return SceneStyle(face, size, kind, col, fin, second)


def sample_lighting(rng: np.random.Generator) -> Lighting:
    tint = np.clip(1 + rng.normal(0, 0.07, 3), 0.8, 1.2)
    return Lighting(float(rng.uniform(0, 360)), float(rng.uniform(25, 85)), float(rng.uniform(0.45, 0.85)),
                    float(rng.uniform(0, 0.45)), float(rng.uniform(0, 0.55)), (float(tint[0]), float(tint[1]), float(tint[2])))


def _occluders(rng: np.random.Generator, extent: float, hands: float) -> tuple[Occluder, ...]:
    out = []
    kinds = [PropKind.DIE, PropKind.CHIP, PropKind.COIN, PropKind.PHONE, PropKind.CUP]
    for _ in range(int(rng.integers(0, 7))):
        kind = kinds[int(rng.integers(len(kinds)))]
        x, y = rng.uniform(-extent, extent, 2)
        out.append(sample_occluder(rng, kind, float(x), float(y)))
    if rng.random() < hands:
        x, y = rng.uniform(-extent * 0.8, extent * 0.8, 2)
        out.append(sample_occluder(rng, PropKind.HAND, float(x), float(y)))
    return tuple(out)


def random_scene(rng: np.random.Generator, face: object, split: str = "train", kind: str = "table",
                 size: tuple[int, int] = (640, 360), tile_px: tuple[float, float] | None = None,
                 wide: bool = False) -> Scene:
    """A random scene of ``kind`` (``table`` or ``photo``) for a frame of ``size`` pixels; ``tile_px`` is
    the range of tile widths on screen (defaults: 12-30 px per 640 px of width for a table, 22-110 px
    for a photo); ``wide``: tables of many colours (:func:`sample_scene_style`)."""
    style = sample_scene_style(rng, face, split, wide)
    scale = size[0] / 640
    if kind == "table":
        lo, hi = tile_px or (12 * scale, 30 * scale)
        layout = table_layout(rng, style.tile)
        reach = 9 * style.tile.width + 140
        near = layout[int(rng.integers(len(layout)))] if layout else PlacedTile(Tile.UNKNOWN, 0, 0)
        target = (near.x + float(rng.normal(0, 80)), near.y + float(rng.normal(0, 80)))
        tilt, occ = float(rng.uniform(0, 35)), _occluders(rng, reach, 0.35)
        yaw = float(rng.uniform(0, 360))
    else:
        lo, hi = tile_px or (22 * scale, 110 * scale)
        layout = photo_layout(rng, style.tile)
        pts = np.array([[t.x, t.y] for t in layout])
        mid = pts.mean(axis=0) + rng.normal(0, 20, 2)
        target = (float(mid[0]), float(mid[1]))
        tilt, occ = float(rng.uniform(0, 20)), _occluders(rng, 200, 0.15) if rng.random() < 0.3 else ()
        yaw = float(rng.normal(0, 8))
        if style.table != "plain" and rng.random() < 0.5:
            grey = rng.uniform(0.5, 1, 3)
            style = SceneStyle(style.face, style.tile, "plain", (float(grey[0]), float(grey[1]), float(grey[2])),
                               style.finish)
    px = math.exp(rng.uniform(math.log(lo), math.log(hi)))
    focal = 800.0 * scale
    distance = focal * style.tile.width / px
    cam = Camera(target, distance, tilt, yaw, float(rng.normal(0, 2)), focal, size)
    return Scene(tuple(layout), cam, style, sample_lighting(rng), occ, int(rng.integers(2**31)))
