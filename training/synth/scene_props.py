"""Things on the table that are not tiles: dice, chips, coins, phones, cups, and hands passing over.

Each occluder becomes a list of convex world polygons with colours, painted with the tiles in depth
order (hands last: they are above everything). Their pixels are marked ``-1`` in the id buffer, so a
tile they cover counts as partly hidden.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum

import cv2
import numpy as np

from .scene_geometry import Camera

__all__ = ["PropKind", "Occluder", "prop_polygons", "sample_occluder"]


class PropKind(Enum):
    DIE = "die"
    CHIP = "chip"
    COIN = "coin"
    PHONE = "phone"
    CUP = "cup"
    HAND = "hand"


@dataclass(frozen=True, slots=True)
class Occluder:
    """A distractor or a hand: where it is (mm), its size (mm: edge, diameter or hand length), rotation
    (degrees), colour (BGR 0-1) and height above the table (hands hover)."""

    kind: PropKind
    x: float
    y: float
    size: float
    rotation: float = 0.0
    colour: tuple[float, float, float] = (0.5, 0.5, 0.5)
    height: float = 0.0


def _circle(cx: float, cy: float, r: float, z: float, n: int = 24) -> np.ndarray:
    a = np.linspace(0, 2 * math.pi, n, endpoint=False)
    return np.column_stack([cx + r * np.cos(a), cy + r * np.sin(a), np.full(n, z)])


def _hull(cam: Camera, pts: np.ndarray) -> np.ndarray:
    uv, _ = cam.project(pts)
    return cv2.convexHull(uv.astype(np.float32)).reshape(-1, 2).astype(np.float64)


def _cuboid(cam: Camera, o: Occluder, w: float, h: float, d: float, z0: float) -> list[tuple[np.ndarray, float]]:
    """Visible faces of an axis box rotated by o.rotation: (image polygon, shade)."""
    a = math.radians(o.rotation)
    r = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    corners = []
    for sx, sy, sz in [(-1, -1, 0), (1, -1, 0), (1, 1, 0), (-1, 1, 0), (-1, -1, 1), (1, -1, 1), (1, 1, 1), (-1, 1, 1)]:
        xy = r @ np.array([sx * w / 2, sy * h / 2])
        corners.append([o.x + xy[0], o.y + xy[1], z0 + sz * d])
    c = np.array(corners)
    faces = {"top": ([4, 5, 6, 7], 1.0), "s0": ([0, 1, 5, 4], 0.75), "s1": ([1, 2, 6, 5], 0.65),
             "s2": ([2, 3, 7, 6], 0.8), "s3": ([3, 0, 4, 7], 0.7)}
    centre, out = cam.centre(), []
    box_mid = c.mean(axis=0)
    for idx, shade in faces.values():
        f = c[idx]
        normal = f.mean(axis=0) - box_mid
        if np.dot(normal, centre - f.mean(axis=0)) > 0:
            uv, _ = cam.project(f)
            out.append((uv, shade))
    return out


def prop_polygons(cam: Camera, o: Occluder, rng: np.random.Generator) -> list[tuple[np.ndarray, np.ndarray]]:
    """Image polygons (N x 2) with BGR colours, in painting order, for one occluder."""
    col = np.asarray(o.colour, np.float32)
    out: list[tuple[np.ndarray, np.ndarray]] = []
    if o.kind in (PropKind.DIE, PropKind.PHONE):
        w, h, d = (o.size, o.size, o.size) if o.kind is PropKind.DIE else (o.size * 0.48, o.size, 8.0)
        for uv, shade in _cuboid(cam, o, w, h, d, o.height):
            out.append((uv, col * shade))
        if o.kind is PropKind.DIE:
            pip = np.array([0.1, 0.1, 0.1], np.float32) if col.mean() > 0.5 else np.array([0.95] * 3, np.float32)
            n = int(rng.integers(1, 7))
            for px, py in _pip_spots(n)[:n]:
                a = math.radians(o.rotation)
                dx = (px * math.cos(a) - py * math.sin(a)) * o.size * 0.3
                dy = (px * math.sin(a) + py * math.cos(a)) * o.size * 0.3
                out.append((_hull(cam, _circle(o.x + dx, o.y + dy, o.size * 0.09, o.height + o.size, 10)), pip))
        else:
            a = math.radians(o.rotation)
            inner = Occluder(o.kind, o.x, o.y, o.size * 0.9, o.rotation, o.colour, o.height)
            for uv, _ in _cuboid(cam, inner, o.size * 0.42, o.size * 0.88, 8.2, o.height)[:1]:
                glow = np.array(rng.uniform(0.05, 0.6, 3), np.float32)
                out.append((uv, glow))
            del a
        return out
    thick = {PropKind.CHIP: 3.0, PropKind.COIN: 2.0, PropKind.CUP: o.size * 1.1}.get(o.kind, 0.0)
    if o.kind is PropKind.HAND:
        return [(p, col * s) for p, s in _hand(cam, o)]
    r = o.size / 2
    bottom, top = _circle(o.x, o.y, r, o.height), _circle(o.x, o.y, r, o.height + thick)
    out.append((_hull(cam, np.vstack([bottom, top])), col * 0.7))
    out.append((_hull(cam, top), col))
    if o.kind is PropKind.CHIP:
        ring = np.array(rng.uniform(0.3, 1.0, 3), np.float32)
        out.append((_hull(cam, _circle(o.x, o.y, r * 0.75, o.height + thick)), ring))
        out.append((_hull(cam, _circle(o.x, o.y, r * 0.55, o.height + thick)), col))
    elif o.kind is PropKind.COIN:
        out.append((_hull(cam, _circle(o.x, o.y, r * 0.8, o.height + thick)), col * 0.85))
    elif o.kind is PropKind.CUP:
        drink = np.array(rng.uniform(0.05, 0.5, 3), np.float32)
        out.append((_hull(cam, _circle(o.x, o.y, r * 0.88, o.height + thick)), drink))
    return out


def _pip_spots(n: int) -> list[tuple[float, float]]:
    spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
             4: [(-1, -1), (1, 1), (-1, 1), (1, -1)], 5: [(-1, -1), (1, 1), (-1, 1), (1, -1), (0, 0)],
             6: [(-1, -1), (1, 1), (-1, 1), (1, -1), (-1, 0), (1, 0)]}
    return [(float(x), float(y)) for x, y in spots[n]]


def _hand(cam: Camera, o: Occluder) -> list[tuple[np.ndarray, float]]:
    """An arm coming from outside the table, a palm and four fingers, hovering at ``o.height``."""
    a = math.radians(o.rotation)
    fwd, side = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    palm_w, palm_l = o.size * 0.45, o.size * 0.5
    tip = np.array([o.x, o.y])
    base = tip - fwd * palm_l
    z = o.height

    def quad(p0: np.ndarray, p1: np.ndarray, half0: float, half1: float, zz: float) -> np.ndarray:
        pts = np.array([p0 - side * half0, p0 + side * half0, p1 + side * half1, p1 - side * half1])
        return _hull(cam, np.column_stack([pts, np.full(4, zz)]))

    polys = [(quad(base - fwd * o.size * 2.5, base, palm_w * 0.42, palm_w * 0.38, z + 10), 0.85),
             (quad(base, tip, palm_w / 2, palm_w / 2, z), 1.0)]
    for i, off in enumerate((-0.36, -0.12, 0.12, 0.36)):
        root = tip + side * off * palm_w
        length = o.size * (0.35 + 0.08 * (1.5 - abs(i - 1.5)))
        polys.append((quad(root, root + fwd * length, palm_w * 0.1, palm_w * 0.08, z - 3), 0.95))
    thumb_root = base + fwd * palm_l * 0.4 + side * palm_w * 0.5
    thumb_dir = fwd * 0.6 + side * 0.8
    polys.append((quad(thumb_root, thumb_root + thumb_dir * o.size * 0.3, palm_w * 0.12, palm_w * 0.1, z), 0.9))
    return polys


_SKIN = [(0.55, 0.66, 0.85), (0.45, 0.58, 0.78), (0.30, 0.42, 0.60), (0.62, 0.74, 0.92), (0.2, 0.3, 0.45)]


def sample_occluder(rng: np.random.Generator, kind: PropKind, x: float, y: float) -> Occluder:
    """A random occluder of ``kind`` at (x, y)."""
    rot = float(rng.uniform(0, 360))
    if kind is PropKind.HAND:
        skin = np.array(_SKIN[int(rng.integers(len(_SKIN)))]) * rng.uniform(0.85, 1.1)
        return Occluder(kind, x, y, float(rng.uniform(150, 200)), rot, tuple(np.clip(skin, 0, 1)),
                        float(rng.uniform(30, 150)))
    size = {PropKind.DIE: (12, 20), PropKind.CHIP: (30, 42), PropKind.COIN: (18, 30),
            PropKind.PHONE: (130, 165), PropKind.CUP: (60, 90)}[kind]
    colour = tuple(float(c) for c in rng.uniform(0.05, 1.0, 3))
    if kind is PropKind.COIN:
        g = rng.uniform(0.45, 0.85)
        colour = (g * 0.55, g * 0.75, g) if rng.random() < 0.5 else (g, g, g)
    if kind is PropKind.PHONE:
        colour = tuple(float(c) for c in rng.uniform(0.02, 0.3, 3))
    return Occluder(kind, x, y, float(rng.uniform(*size)), rot, colour, 0.0)  # type: ignore[arg-type]
