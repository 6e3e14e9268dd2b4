"""Table scenes: ``render_table(layout, camera, style, lighting, occluders, seed) -> (frame, labels)``.

A layout is a tuple of :class:`PlacedTile` (kind, position in mm, stack level, rotation, pose). Tiles are
cuboids whose front is painted with :func:`training.synth.faces.render_face`, back with the face-down
picture (``Tile.UNKNOWN``), sides in body and back colour; a pinhole camera projects them; objects are
painted far to near, then light, shadows and camera artefacts are applied. Each tile that shows its
front or back to the camera gets a :class:`TileLabel`: its kind (``0x`` when the back shows), the four
image corners of that face as it is read, and how much of it is visible. A standing tile seen too flat to
read its face is labelled by its whole visible outline as ``0x`` (:data:`READABLE`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from companion.tiles import Tile

from .scene_geometry import Camera, Face, PlacedTile, Pose, TileSize, tile_faces
from .scene_paint import fill_quad, finish, light_field, paint_quad, table_texture
from .scene_props import Occluder, PropKind, prop_polygons

__all__ = ["SceneStyle", "Lighting", "Finish", "TileLabel", "render_table", "render_table_ids", "prop_id", "SIDE_ID",
           "PROP_ID", "Camera", "PlacedTile", "Pose",
           "TileSize", "Occluder", "PropKind", "FaceSource"]

FaceSource = Callable[[Tile, Any, tuple[int, int]], Any]
"""``render_face(tile, face_style, size=(w, h)) -> PIL RGBA`` (the face renderer's signature)."""


@dataclass(frozen=True, slots=True)
class Finish:
    """Camera artefacts: defocus blur sigma (px), motion blur length (px), noise sigma (0-1), JPEG quality."""

    blur: float = 0.0
    motion: float = 0.0
    noise: float = 0.0
    jpeg: int | None = None


@dataclass(frozen=True, slots=True)
class SceneStyle:
    """How things look: the tiles' face style (the face renderer's ``FaceStyle``), their size, the table
    surface (``felt`` ``wood`` ``cloth`` ``plain``) and its BGR colour (0-1), and the camera finish."""

    face: Any
    tile: TileSize = field(default_factory=TileSize)
    table: str = "felt"
    table_colour: tuple[float, float, float] = (0.25, 0.45, 0.15)
    finish: Finish = field(default_factory=Finish)
    table_second: tuple[float, float, float] | None = None  # a striped cloth's second colour

    def __post_init__(self) -> None:
        if self.table not in ("felt", "wood", "cloth", "stripes", "plain"):
            raise ValueError(f"unknown table surface {self.table!r}")


@dataclass(frozen=True, slots=True)
class Lighting:
    """Main light direction (azimuth, elevation in degrees), ambient share, unevenness of the light over
    the frame, shadow darkness, and a BGR colour cast."""

    azimuth: float = 45.0
    elevation: float = 60.0
    ambient: float = 0.55
    uneven: float = 0.2
    shadow: float = 0.35
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)

    def direction(self) -> np.ndarray:
        a, e = math.radians(self.azimuth), math.radians(self.elevation)
        return np.array([math.cos(e) * math.cos(a), math.cos(e) * math.sin(a), math.sin(e)])


@dataclass(frozen=True, slots=True)
class TileLabel:
    """One tile as the camera sees it. ``corners``: 4x2 image points of the visible big face, top-left,
    top-right, bottom-right, bottom-left as that face is read (for a standing tile showing its back or seen
    too flat to read, its outline: :data:`READABLE`). ``visible``: share of that face (or outline) not
    hidden."""

    index: int
    kind: Tile
    face_up: bool
    corners: np.ndarray
    visible: float

    def obb(self) -> tuple[float, float, float, float, float]:
        """Oriented box (cx, cy, w, h, angle): w across the face, h along it, angle in degrees
        counter-clockwise (as seen) of the face's up direction from image up."""
        c = self.corners
        cx, cy = c.mean(axis=0)
        w = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2
        h = (np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2
        up = (c[0] + c[1] - c[2] - c[3]) / 2
        angle = math.degrees(math.atan2(-up[0], -up[1]))
        return float(cx), float(cy), float(w), float(h), float(angle)

    def xyxy(self) -> tuple[float, float, float, float]:
        return (float(self.corners[:, 0].min()), float(self.corners[:, 1].min()),
                float(self.corners[:, 0].max()), float(self.corners[:, 1].max()))


class _Textures:
    """Top-surface pictures per kind for one face style, as float BGR arrays (rounded corners filled
    with the body colour). With the face renderer, its drawn thickness strip is cut off: the scene
    draws the thickness itself."""

    def __init__(self, source: FaceSource | None, face_style: Any, px: tuple[int, int]) -> None:
        self.source, self.style, self.px = source, face_style, px
        self.cache: dict[Tile, np.ndarray] = {}
        self.colours: dict[str, np.ndarray] = {}
        if source is None:
            from .faces import render_face  # the face renderer (issue "Reading a tile")

            self.source = render_face
            self.colours["body"] = np.asarray(face_style.face[::-1], np.float32) / 255.0
            self.colours["back"] = np.asarray(face_style.back[::-1], np.float32) / 255.0

    def _top(self, kind: Tile) -> np.ndarray:
        """The tile's top surface (face plus rim) out of the renderer's picture."""
        assert self.source is not None
        w, h = self.px
        rgba = np.asarray(self.source(kind, self.style, (w, h)).convert("RGBA"), np.float32) / 255.0
        if "body" in self.colours and "back" in self.colours and hasattr(self.style, "border"):
            from .faces import face_box

            x0, y0, _x1, y1 = face_box(self.style, (w, h))
            bottom = min(h, round(y1 + y0))
            rgba = np.asarray(cv2.resize(rgba[:bottom], (w, h), interpolation=cv2.INTER_AREA), np.float32)
        return rgba

    def get(self, kind: Tile) -> np.ndarray:
        if kind not in self.cache:
            rgba = self._top(kind)
            alpha, bgr = rgba[..., 3:4], rgba[..., 2::-1]
            fill = self.back() if kind == Tile.UNKNOWN else self.body()
            self.cache[kind] = np.ascontiguousarray(bgr * alpha + fill * (1 - alpha), dtype=np.float32)
        return self.cache[kind]

    def _median(self, name: str, kind: Tile) -> np.ndarray:
        if name not in self.colours:
            rgba = self._top(kind)
            mid = rgba[rgba.shape[0] // 3: 2 * rgba.shape[0] // 3, :, 2::-1]
            self.colours[name] = np.median(mid.reshape(-1, 3), axis=0) if name == "back" else \
                np.median(rgba[:3, rgba.shape[1] // 3: 2 * rgba.shape[1] // 3, 2::-1].reshape(-1, 3), axis=0)
        return self.colours[name]

    def body(self) -> np.ndarray:
        return self._median("body", Tile.M1)

    def back(self) -> np.ndarray:
        return self._median("back", Tile.UNKNOWN)


_TEXTURE_CACHE: dict[tuple[int, tuple[int, int]], _Textures] = {}


def textures_for(face_style: Any, source: FaceSource | None = None, px: tuple[int, int] = (96, 128)) -> _Textures:
    """The (cached) textures of one face style; the newest few styles stay cached."""
    key = (id(face_style), px)
    if key not in _TEXTURE_CACHE:
        if len(_TEXTURE_CACHE) > 8:
            _TEXTURE_CACHE.pop(next(iter(_TEXTURE_CACHE)))
        _TEXTURE_CACHE[key] = _Textures(source, face_style, px)
    return _TEXTURE_CACHE[key]


SIDE_ID = -2
"""In the id buffer (:func:`render_table_ids`): a tile's side, not counted in its label's visible share."""
PROP_ID = -1000
"""In the id buffer: occluder ``k`` is ``PROP_ID - k``."""


def prop_id(k: int) -> int:
    """The id buffer's value where ``occluders[k]`` shows."""
    return PROP_ID - k


def render_table(
    layout: Sequence[PlacedTile],
    camera: Camera,
    style: SceneStyle,
    lighting: Lighting,
    occluders: Sequence[Occluder] = (),
    seed: int = 0,
    *,
    faces: FaceSource | None = None,
) -> tuple[np.ndarray, list[TileLabel]]:
    """Render the scene: an HxWx3 uint8 BGR frame and one label per tile whose front or back faces the
    camera, or that stands (:data:`READABLE`); a tile lying seen only edge-on gets none. ``faces`` replaces
    the face renderer (tests)."""
    frame, labels, _ = render_table_ids(layout, camera, style, lighting, occluders, seed, faces=faces)
    return frame, labels


def render_table_ids(
    layout: Sequence[PlacedTile],
    camera: Camera,
    style: SceneStyle,
    lighting: Lighting,
    occluders: Sequence[Occluder] = (),
    seed: int = 0,
    *,
    faces: FaceSource | None = None,
) -> tuple[np.ndarray, list[TileLabel], np.ndarray]:
    """:func:`render_table`, and what shows at each pixel (``HxW`` ``int32``): ``i + 1`` where the labelled
    face of tile ``i`` of ``layout`` does (its front or back, or a standing tile's outline), :data:`SIDE_ID`
    where a tile's side does, ``PROP_ID - k`` (:func:`prop_id`) where ``occluders[k]`` does, 0 where the table
    does."""
    rng = np.random.default_rng(seed)
    w, h = camera.size
    tex = textures_for(style.face, faces, _texture_px(layout, camera, style.tile))
    img = _table(camera, style, rng)
    _shadows(img, layout, occluders, camera, style.tile, lighting)
    ids = np.zeros((h, w), np.int32)
    label_quads: dict[int, tuple[Tile, bool, np.ndarray]] = {}
    for _, kind, item in _paint_order(_on_screen(layout, camera, style.tile), occluders, camera, style.tile):
        if kind == "tile":
            idx, tile = item
            got = _paint_tile(img, ids, idx, tile, camera, style.tile, lighting, tex)
            if got is not None:
                label_quads[idx] = got
        else:
            k, prop = item
            for poly, colour in prop_polygons(camera, prop, rng):
                fill_quad(img, ids, poly, colour * _prop_shade(lighting), prop_id(k))
    img *= light_field((h, w), lighting.uneven, rng) * np.asarray(lighting.tint, np.float32)
    f = style.finish
    frame = finish(img, f.blur, f.motion, f.noise, f.jpeg, rng)
    return frame, _labels(label_quads, ids), ids


def _on_screen(layout: Sequence[PlacedTile], camera: Camera, size: TileSize) -> list[tuple[int, PlacedTile]]:
    """(index, tile) of the tiles that may show in the frame (the rest are skipped, unlabelled)."""
    if not layout:
        return []
    pts = np.array([[t.x, t.y, t.level * size.depth] for t in layout])
    uv, z = camera.project(pts)
    reach = camera.focal * size.height * 1.5 / np.maximum(z, 1.0)
    w, h = camera.size
    keep = (z > 1) & (uv[:, 0] > -reach) & (uv[:, 0] < w + reach) & (uv[:, 1] > -reach) & (uv[:, 1] < h + reach)
    return [(int(i), layout[int(i)]) for i in np.flatnonzero(keep)]


def _texture_px(layout: Sequence[PlacedTile], camera: Camera, size: TileSize) -> tuple[int, int]:
    """Render faces big enough for the largest tile on screen (two sizes, to keep the cache small)."""
    if not layout:
        return (96, 128)
    near = min(float(np.linalg.norm(camera.centre() - [t.x, t.y, 0])) for t in layout)
    px_h = camera.focal * size.height / max(near, 1.0)
    return (96, 128) if px_h < 110 else (192, 256)


def _table(camera: Camera, style: SceneStyle, rng: np.random.Generator) -> np.ndarray:
    """The table top warped into the frame (the texture spans 2 m around the camera target)."""
    n = 768
    tex = table_texture(style.table, np.asarray(style.table_colour, np.float32), n, rng, style.table_second)
    span = 2000.0
    tx, ty = camera.target
    # texture pixel (u, v) -> table mm: x = tx - span/2 + u*span/n, y = ty + span/2 - v*span/n
    to_mm = np.array([[span / n, 0, tx - span / 2], [0, -span / n, ty + span / 2], [0, 0, 1]])
    hmat = camera.table_homography() @ to_mm
    w, h = camera.size
    return cv2.warpPerspective(tex, hmat, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def _paint_order(layout: Sequence[tuple[int, PlacedTile]], occluders: Sequence[Occluder], camera: Camera,
                 size: TileSize) -> list[tuple[float, str, Any]]:
    centre = camera.centre()
    items: list[tuple[float, str, Any]] = []
    for i, t in layout:
        z = t.level * size.depth + (size.height if t.pose is Pose.STANDING else size.depth) / 2
        items.append((float(np.linalg.norm(centre - [t.x, t.y, z])), "tile", (i, t)))
    for k, o in enumerate(occluders):
        d = -1e9 if o.kind is PropKind.HAND else float(np.linalg.norm(centre - [o.x, o.y, o.height]))
        items.append((d, "prop", (k, o)))
    items.sort(key=lambda it: -it[0])
    return items


def _shade(normal: np.ndarray, lighting: Lighting) -> float:
    return lighting.ambient + (1 - lighting.ambient) * max(0.0, float(np.dot(normal, lighting.direction())))


def _prop_shade(lighting: Lighting) -> float:
    return _shade(np.array([0.0, 0.0, 1.0]), lighting)


READABLE = 0.45
"""A standing tile whose front is turned to the camera is labelled as that face when the cosine of the angle
between its normal and the camera's ray is at least this (seen within about 63 degrees of straight on). A
back has nothing to read: a standing tile showing its back is always labelled by its outline. Seen flatter, from above,
the face is a sliver no one can read, and what the camera sees of the tile is mostly its top edge: the
label is then the whole visible tile (top edge and face, :func:`_standing_outline`) as a tile whose face
cannot be seen (``0x``, face down), so that each tile of a standing row is still found and counted."""


def _standing_outline(tile: PlacedTile, faces: list[tuple[Face, np.ndarray, float]],
                      camera: Camera) -> tuple[int, np.ndarray] | None:
    """For a standing tile showing its back or seen too flat to read (:data:`READABLE`): (index in ``faces``
    of its top edge,
    4x2 image corners of the big face it shows with that face's top edge moved to the far side of the
    tile's top; edge-on, the top edge alone). ``None`` when the tile is not standing or shows a readable front."""
    if tile.pose is not Pose.STANDING:
        return None
    centre = camera.centre()
    big = {face: corners for face, corners, _ in faces[:2]}
    for face, other in ((Face.FRONT, Face.BACK), (Face.BACK, Face.FRONT)):
        corners = big[face]
        normal = corners.mean(axis=0) - big[other].mean(axis=0)
        ray = centre - corners.mean(axis=0)
        facing = float(np.dot(normal, ray)) / max(float(np.linalg.norm(normal) * np.linalg.norm(ray)), 1e-9)
        if facing > 0:
            break
    else:  # edge-on: only the top edge shows
        top = _top_edge(faces)
        return top, camera.project(faces[top][1])[0]
    if face is Face.FRONT and facing >= READABLE:
        return None
    far = big[other][[1, 0, 3, 2]]  # the other big face's corners in this face's reading order
    outline = corners.copy()
    outline[:2] = far[:2]  # the face's top corners -> the far corners of the tile's top edge
    return _top_edge(faces), camera.project(outline)[0]


def _top_edge(faces: list[tuple[Face, np.ndarray, float]]) -> int:
    return max(range(2, len(faces)), key=lambda i: float(faces[i][1][:, 2].mean()))


def _paint_tile(img: np.ndarray, ids: np.ndarray, idx: int, tile: PlacedTile, camera: Camera, size: TileSize,
                lighting: Lighting, tex: _Textures) -> tuple[Tile, bool, np.ndarray] | None:
    """Paint the faces of one tile that face the camera; return the label: the big face that shows, or a
    standing tile's outline (:data:`READABLE`)."""
    faces = tile_faces(tile, size)
    centre = camera.centre()
    mid = np.mean([f[1].mean(axis=0) for f in faces[:2]], axis=0)
    outline = _standing_outline(tile, faces, camera)
    label = None
    for i, (face, corners, share) in enumerate(faces):
        fc = corners.mean(axis=0)
        normal = fc - mid
        normal /= max(float(np.linalg.norm(normal)), 1e-9)
        if np.dot(normal, centre - fc) <= 0:
            continue
        uv, _ = camera.project(corners)
        shade = _shade(normal, lighting)
        if face is Face.SIDE:
            cut = 1 - share
            split = np.array([uv[0], uv[1], uv[1] + (uv[2] - uv[1]) * cut, uv[0] + (uv[3] - uv[0]) * cut])
            rest = np.array([split[3], split[2], uv[2], uv[3]])
            ident = idx + 1 if outline is not None and i == outline[0] else SIDE_ID  # a top edge in the label
            fill_quad(img, ids, split, tex.body() * shade, ident)
            fill_quad(img, ids, rest, tex.back() * shade, ident)
            continue
        kind = tile.kind if face is Face.FRONT else Tile.UNKNOWN
        paint_quad(img, ids, uv, tex.get(kind), shade, idx + 1)
        label = (kind, face is Face.FRONT, uv)
    if outline is not None:
        label = (Tile.UNKNOWN, False, outline[1])
    return label


def _labels(quads: dict[int, tuple[Tile, bool, np.ndarray]], ids: np.ndarray) -> list[TileLabel]:
    counts = np.bincount(ids[ids > 0].ravel(), minlength=max(quads, default=0) + 2)
    out = []
    for idx, (kind, up, uv) in sorted(quads.items()):
        area = abs(cv2.contourArea(uv.astype(np.float32)))
        if area < 4:
            continue
        vis = min(1.0, counts[idx + 1] / area)
        out.append(TileLabel(idx, kind, up, uv, float(vis)))
    return out


def _shadows(img: np.ndarray, layout: Sequence[PlacedTile], occluders: Sequence[Occluder], camera: Camera,
             size: TileSize, lighting: Lighting) -> None:
    """Darken the table where tiles and props cast shadows (away from the light, blurred)."""
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.float32)
    d = lighting.direction()
    shift = -d[:2] / max(d[2], 0.2)
    for t in layout:
        top = (t.level + 1) * size.depth if t.pose is not Pose.STANDING else size.height
        r = math.hypot(size.width, size.height) / 2
        foot = np.array([[t.x + r * math.cos(a), t.y + r * math.sin(a)] for a in np.linspace(0, 2 * math.pi, 8)])
        pts = np.vstack([foot, foot + shift * top])
        uv, _ = camera.project(np.column_stack([pts, np.zeros(len(pts))]))
        cv2.fillConvexPoly(mask, cv2.convexHull(uv.astype(np.float32)).astype(np.int32), 1.0)
    for o in occluders:
        r = o.size / 2
        foot = np.array([[o.x + r * math.cos(a), o.y + r * math.sin(a)] for a in np.linspace(0, 2 * math.pi, 8)])
        pts = foot + shift * (o.height + 10)
        uv, _ = camera.project(np.column_stack([pts, np.zeros(len(pts))]))
        cv2.fillConvexPoly(mask, cv2.convexHull(uv.astype(np.float32)).astype(np.int32), 0.8)
    if lighting.shadow > 0 and mask.any():
        mask = np.asarray(cv2.GaussianBlur(mask, (0, 0), max(1.0, 0.004 * w)), np.float32)
        img *= (1 - lighting.shadow * mask)[..., None]
