"""Low-level painting for the scene renderer: textured and flat quads, table surfaces, finishing effects.

Images are float32 BGR in 0-1 while a scene is composed; ``finish`` turns them into uint8 BGR.
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["paint_quad", "fill_quad", "table_texture", "light_field", "finish"]


def _bbox(quad: np.ndarray, shape: tuple[int, ...]) -> tuple[int, int, int, int] | None:
    x0, y0 = np.floor(quad.min(axis=0)).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, shape[1]), min(y1, shape[0])
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1, y1


def _quad_mask(quad: np.ndarray, box: tuple[int, int, int, int], aa: bool = True) -> np.ndarray:
    x0, y0, x1, y1 = box
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    pts = np.round((quad - [x0, y0]) * 16).astype(np.int32)
    cv2.fillConvexPoly(mask, pts, 255, lineType=cv2.LINE_AA if aa else cv2.LINE_8, shift=4)
    return mask


def paint_quad(
    img: np.ndarray, ids: np.ndarray, quad: np.ndarray, texture: np.ndarray, shade: float, ident: int
) -> None:
    """Warp ``texture`` (h x w x 3 float, rows top to bottom as read) onto the image quad (4x2, corners
    top-left, top-right, bottom-right, bottom-left), scaled by ``shade``; mark ``ident`` in ``ids``."""
    box = _bbox(quad, img.shape)
    if box is None:
        return
    x0, y0, x1, y1 = box
    th, tw = texture.shape[:2]
    side = float(max(np.linalg.norm(quad[1] - quad[0]), np.linalg.norm(quad[3] - quad[0])))
    if side * 1.5 < max(th, tw):  # shrink first so the warp does not alias
        f = max(side * 1.5 / max(th, tw), 4 / min(th, tw))
        texture = cv2.resize(texture, (max(2, round(tw * f)), max(2, round(th * f))), interpolation=cv2.INTER_AREA)
        th, tw = texture.shape[:2]
    src = np.array([[0, 0], [tw, 0], [tw, th], [0, th]], np.float32)
    hmat = cv2.getPerspectiveTransform(src, np.asarray(quad - [x0, y0], np.float32))
    warped = cv2.warpPerspective(texture, hmat, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE)
    mask = _quad_mask(quad, box)
    alpha = (mask.astype(np.float32) / 255.0)[..., None]
    region = img[y0:y1, x0:x1]
    region *= 1 - alpha
    region += alpha * warped * shade
    ids[y0:y1, x0:x1][mask > 127] = ident


def fill_quad(img: np.ndarray, ids: np.ndarray, quad: np.ndarray, colour: np.ndarray, ident: int) -> None:
    """A flat-coloured convex polygon (any number of corners)."""
    box = _bbox(quad, img.shape)
    if box is None:
        return
    mask = _quad_mask(quad, box)
    x0, y0, x1, y1 = box
    alpha = (mask.astype(np.float32) / 255.0)[..., None]
    region = img[y0:y1, x0:x1]
    region *= 1 - alpha
    region += alpha * np.asarray(colour, np.float32)
    ids[y0:y1, x0:x1][mask > 127] = ident


def table_texture(kind: str, colour: np.ndarray, size: int, rng: np.random.Generator,
                  second: tuple[float, float, float] | None = None) -> np.ndarray:
    """A square texture (size x size x 3 float) of the table top: felt, wood, checked or striped cloth (in
    ``colour`` and ``second``) or a plain board."""
    base = np.ones((size, size, 3), np.float32) * np.asarray(colour, np.float32)
    if kind == "felt":
        grain = rng.normal(0, 1, (size, size)).astype(np.float32)
        grain = cv2.GaussianBlur(grain, (0, 0), 0.8) * 0.05
        low = cv2.resize(rng.normal(0, 1, (6, 6)).astype(np.float32), (size, size)) * 0.05
        return np.clip(base * (1 + grain + low)[..., None], 0, 1)
    if kind == "wood":
        yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
        warp = cv2.resize(rng.normal(0, 1, (4, 8)).astype(np.float32), (size, size)) * 18
        freq = rng.uniform(0.08, 0.25)
        rings = np.sin((yy + warp) * freq + np.sin(xx * 0.01) * 3)
        streak = cv2.GaussianBlur(rng.normal(0, 1, (size, size)).astype(np.float32), (0, 0), sigmaX=9, sigmaY=0.7)
        shade = 1 + 0.10 * rings + 0.25 * streak
        img = base * shade[..., None]
        if rng.random() < 0.5:  # planks
            step = int(rng.integers(size // 6, size // 2))
            img[::step] *= 0.6
        return np.clip(img, 0, 1)
    if kind == "stripes":  # a striped cloth (training only; the held-out cloth is checked)
        yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
        a = rng.uniform(0, np.pi)
        period = rng.uniform(8, 50)
        band = ((np.cos(a) * xx + np.sin(a) * yy) / period % 1 < rng.uniform(0.2, 0.6)).astype(np.float32)
        other = np.asarray(second if second is not None else np.asarray(colour) * 0.6, np.float32)
        img = base * (1 - band[..., None]) + other * band[..., None]
        return np.clip(img * (1 + 0.04 * rng.normal(0, 1, (size, size, 1)).astype(np.float32)), 0, 1)
    if kind == "cloth":
        yy, xx = np.mgrid[0:size, 0:size].astype(np.float32)
        period = rng.uniform(10, 40)
        check = ((np.floor(xx / period) + np.floor(yy / period)) % 2).astype(np.float32)
        other = np.asarray(rng.uniform(0, 1, 3), np.float32)
        img = base * (1 - check[..., None]) + other * check[..., None]
        return np.clip(img * (1 + 0.04 * rng.normal(0, 1, (size, size, 1)).astype(np.float32)), 0, 1)
    noise = cv2.resize(rng.normal(0, 1, (4, 4)).astype(np.float32), (size, size)) * 0.04
    return np.clip(base * (1 + noise)[..., None], 0, 1)


def light_field(shape: tuple[int, int], strength: float, rng: np.random.Generator) -> np.ndarray:
    """Uneven light: a smooth multiplicative field (H x W x 1) around 1 with a bright spot and falloff."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = rng.uniform(-0.2, 1.2) * w, rng.uniform(-0.2, 1.2) * h
    r = np.hypot(xx - cx, yy - cy) / max(h, w)
    spot = np.exp(-(r**2) / rng.uniform(0.1, 0.6))
    grad = cv2.resize(rng.normal(0, 1, (3, 3)).astype(np.float32), (w, h)) * 0.5
    field = 1 + strength * (spot - 0.5 + grad)
    return np.clip(field, 0.45, 1.25)[..., None]


def finish(img: np.ndarray, blur: float, motion: float, noise: float, jpeg: int | None,
           rng: np.random.Generator) -> np.ndarray:
    """Camera artefacts: defocus blur (sigma px), motion blur (length px), sensor noise, JPEG."""
    if blur > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    if motion >= 2:
        n = int(motion) | 1
        k = np.zeros((n, n), np.float32)
        k[n // 2, :] = 1 / n
        rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
        k = np.asarray(cv2.warpAffine(k, rot, (n, n)), np.float32)
        img = cv2.filter2D(img, -1, k / max(k.sum(), 1e-6))
    if noise > 0:
        img = img + rng.normal(0, noise, img.shape).astype(np.float32)
    out = np.clip(img * 255 + 0.5, 0, 255).astype(np.uint8)
    if jpeg is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg)])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            out = np.asarray(decoded, np.uint8)
    return out
