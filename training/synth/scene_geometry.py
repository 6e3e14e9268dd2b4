"""Table geometry for the scene renderer: placed tiles as cuboids in millimetres, and a pinhole camera.

Table coordinates: ``x`` to the right, ``y`` away from the near edge of the picture, ``z`` up, in mm;
the table top is ``z = 0``. A tile's ``rotation`` (degrees, counter-clockwise seen from above) turns
its "up" direction (the top of its face) away from ``+y``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

import numpy as np

from companion.tiles import Tile

__all__ = ["Pose", "PlacedTile", "TileSize", "Camera", "tile_faces", "Face"]


class Pose(Enum):
    """How a tile lies on the table."""

    FACE_UP = "up"
    FACE_DOWN = "down"
    STANDING = "standing"  # on its bottom edge, face turned to ``rotation + 180`` (towards its owner)


@dataclass(frozen=True, slots=True)
class TileSize:
    """Physical tile size in mm: face width, face height, thickness, and the share of the thickness
    that is the coloured back layer."""

    width: float = 27.0
    height: float = 36.0
    depth: float = 20.0
    back_share: float = 0.45

    def __post_init__(self) -> None:
        if not (0 < self.width < self.height and self.depth > 0 and 0 <= self.back_share <= 1):
            raise ValueError(f"implausible tile size {self}")


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """One tile on the table: its kind (``Tile.UNKNOWN`` when its face is unknown), the centre of its
    footprint in mm, its stack level (0 on the table, 1 on top of another), rotation and pose."""

    kind: Tile
    x: float
    y: float
    level: int = 0
    rotation: float = 0.0
    pose: Pose = Pose.FACE_UP

    def __post_init__(self) -> None:
        if not isinstance(self.kind, Tile):
            raise TypeError(f"kind must be a Tile, got {self.kind!r}")
        if self.level < 0:
            raise ValueError(f"stack level {self.level} < 0")


class Face(Enum):
    FRONT = "front"
    BACK = "back"
    SIDE = "side"


def _rot(deg: float) -> np.ndarray:
    a = math.radians(deg)
    return np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])


def _to_world(t: PlacedTile, size: TileSize, local: np.ndarray) -> np.ndarray:
    """Local tile coordinates (a along the face width, b up the face, c out of the face) -> world mm."""
    a, b, c = local[:, 0], local[:, 1], local[:, 2]
    r = _rot(t.rotation)
    if t.pose is Pose.FACE_UP:
        lx, ly, z = a, b, t.level * size.depth + size.depth / 2 + c
    elif t.pose is Pose.FACE_DOWN:  # turned over sideways
        lx, ly, z = -a, b, t.level * size.depth + size.depth / 2 - c
    else:  # standing on its bottom edge, face towards local -y
        lx, ly, z = a, -c, t.level * size.depth + size.height / 2 + b
    xy = np.stack([lx, ly], axis=1) @ r.T
    return np.column_stack([xy[:, 0] + t.x, xy[:, 1] + t.y, z])


def tile_faces(t: PlacedTile, size: TileSize) -> list[tuple[Face, np.ndarray, float]]:
    """The six faces of the tile's cuboid as (kind of face, 4x3 world corners, share of back colour).

    FRONT and BACK corners run top-left, top-right, bottom-right, bottom-left *as the face is read*
    (the back as if the tile were turned over sideways). A side face's first edge lies on the front;
    its share tells how much of it, from the back, is back-coloured.
    """
    w, h, d = size.width / 2, size.height / 2, size.depth / 2
    ab = np.array([[-w, h], [w, h], [w, -h], [-w, -h]])
    front = _to_world(t, size, np.column_stack([ab, np.full(4, d)]))
    behind = _to_world(t, size, np.column_stack([ab, np.full(4, -d)]))
    back = behind[[1, 0, 3, 2]]
    faces: list[tuple[Face, np.ndarray, float]] = [(Face.FRONT, front, 0.0), (Face.BACK, back, 1.0)]
    for i in range(4):
        j = (i + 1) % 4
        faces.append((Face.SIDE, np.array([front[i], front[j], behind[j], behind[i]]), size.back_share))
    return faces


@dataclass(frozen=True, slots=True)
class Camera:
    """A pinhole camera looking at ``target`` (mm on the table) from ``distance`` mm away, tilted
    ``tilt`` degrees from vertical, from the side given by ``yaw`` (0 = from the near edge, ``-y``),
    rolled ``roll`` degrees, with focal length ``focal`` pixels and image ``size`` (w, h)."""

    target: tuple[float, float] = (0.0, 0.0)
    distance: float = 900.0
    tilt: float = 0.0
    yaw: float = 0.0
    roll: float = 0.0
    focal: float = 1000.0
    size: tuple[int, int] = (1280, 720)

    def __post_init__(self) -> None:
        if not 0 <= self.tilt < 80:
            raise ValueError(f"camera tilt {self.tilt} outside 0-80 degrees")
        if self.distance <= 0 or self.focal <= 0 or min(self.size) <= 0:
            raise ValueError(f"bad camera {self}")

    def extrinsics(self) -> tuple[np.ndarray, np.ndarray]:
        """Rotation R (world -> camera; rows are the camera's x, y, z axes) and camera centre C."""
        return _extrinsics(self)

    def project(self, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Image coordinates (N x 2) and depths (N) of world points (N x 3)."""
        rot, centre = _extrinsics(self)
        cam = (np.asarray(pts, dtype=np.float64) - centre) @ rot.T
        z = cam[:, 2]
        w, h = self.size
        uv = np.stack([self.focal * cam[:, 0] / z + w / 2, self.focal * cam[:, 1] / z + h / 2], axis=1)
        return uv, z

    def centre(self) -> np.ndarray:
        return _extrinsics(self)[1]

    def table_homography(self) -> np.ndarray:
        """3x3 map from table mm (x, y, 1) to image pixels."""
        rot, centre = self.extrinsics()
        k = np.array([[self.focal, 0, self.size[0] / 2], [0, self.focal, self.size[1] / 2], [0, 0, 1]])
        rt = np.column_stack([rot[:, 0], rot[:, 1], -rot @ centre])
        hmat: np.ndarray = k @ rt
        return hmat / hmat[2, 2]


@lru_cache(maxsize=64)
def _extrinsics(cam: Camera) -> tuple[np.ndarray, np.ndarray]:
    t, y = math.radians(cam.tilt), math.radians(cam.yaw)
    back = np.array([math.sin(t) * math.sin(y), -math.sin(t) * math.cos(y), math.cos(t)])
    centre = np.array([cam.target[0], cam.target[1], 0.0]) + cam.distance * back
    fwd = -back
    far = np.array([-math.sin(y), math.cos(y), 0.0])  # the table direction that is "up" in the image
    x_axis = np.cross(fwd, far)
    x_axis /= np.linalg.norm(x_axis)
    y_axis = np.cross(fwd, x_axis)
    rr = math.radians(cam.roll)
    xr = math.cos(rr) * x_axis + math.sin(rr) * y_axis
    yr = -math.sin(rr) * x_axis + math.cos(rr) * y_axis
    return np.stack([xr, yr, fwd]), centre
