"""Photo-like changes of a tile crop: how another photograph or a table camera would show the same tile.

Used by training (the classifier's augmentation, ``training/classifier_data.py``) and by calibration
(:func:`companion.vision.calibration.photo_views` fits a set's class weights on such views of its crops), so
the two agree on what "another photo" means. Everything is drawn from the ``numpy`` generator passed in.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.vision.preprocess import INPUT_SIZE

__all__ = ["LOW_RES", "crop_quad", "out_size", "photometric", "photo_view"]


def crop_quad(box: np.ndarray, pad: int, r: np.random.Generator) -> np.ndarray:
    """Corners of a crop window around ``box`` (x0, y0, x1, y1, in an image padded by ``pad``): a little
    grown or shrunk, moved, skewed in perspective and turned, as a detector's box or a hand-held photo
    frames a tile."""
    x0, y0, x1, y1 = box + pad
    w, h = x1 - x0, y1 - y0
    grow = r.uniform(-0.05, 0.12) if r.random() < 0.8 else r.uniform(0.12, 0.3)
    cx, cy = (x0 + x1) / 2 + r.normal(0, 0.03) * w, (y0 + y1) / 2 + r.normal(0, 0.03) * h
    hw, hh = w * (1 + grow) / 2, h * (1 + grow) / 2
    quad = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]], np.float32)
    quad += r.normal(0, 0.035, (4, 2)).astype(np.float32) * np.array([w, h], np.float32)  # perspective
    ang = math.radians(r.normal(0, 5) if r.random() < 0.9 else r.uniform(-15, 15))
    rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]], np.float32)
    return quad @ rot.T + np.array([cx, cy], np.float32)


def photometric(img: np.ndarray, r: np.random.Generator) -> np.ndarray:
    """Another camera and light: saturation, colour and brightness, a shading ramp, glare, blur, noise and
    JPEG artefacts (each drawn from ``r``)."""
    f = img.astype(np.float32)
    h, w = f.shape[:2]
    grey = f.mean(axis=2, keepdims=True)
    f = grey + (f - grey) * r.uniform(0.6, 1.3)  # saturation
    f = f * r.uniform(0.88, 1.12, 3).astype(np.float32) * r.uniform(0.65, 1.2) + r.uniform(-30, 30)
    if r.random() < 0.35:  # shading ramp
        ramp = np.linspace(r.uniform(0.55, 1), r.uniform(0.8, 1.1), w if r.random() < 0.5 else h, dtype=np.float32)
        f *= ramp[None, :, None] if ramp.size == w else ramp[:, None, None]
    if r.random() < 0.3:  # glare
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        gx, gy, s = r.uniform(0, w), r.uniform(0, h), r.uniform(0.1, 0.5) * max(h, w)
        f += (r.uniform(60, 220) * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * s * s)))[:, :, None]
    if r.random() < 0.4:
        f = cv2.GaussianBlur(f, (0, 0), r.uniform(0.3, 1.4))
    f += r.normal(0, r.uniform(0, 7), f.shape).astype(np.float32)
    out = np.clip(f, 0, 255).astype(np.uint8)
    if r.random() < 0.3:
        ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(r.integers(25, 90))])
        out = cv2.imdecode(enc, cv2.IMREAD_COLOR)
    return out


LOW_RES = 0.2
"""Share of crops made 0.3-0.6x the input size (18-36 px wide): a tile 25-60 px wide in a 1280x720 table
frame is read from a crop that small, and without them such crops were misread or called "not a tile".
This is the share of the measures (the held-out benchmark, the calibration views); training may draw more
small crops (``training.classifier_data.TRAIN_LOW_RES``) without changing what is measured."""


def out_size(r: np.random.Generator, low_res: float = LOW_RES) -> tuple[int, int]:
    """Width and height of a photographed crop: 0.6-2.2x the classifier's input, or (a ``low_res``
    share) 0.3-0.6x, as in a table frame."""
    s = r.uniform(0.3, 0.6) if r.random() < low_res else r.uniform(0.6, 2.2)
    return max(8, round(INPUT_SIZE[0] * s * r.uniform(0.9, 1.1))), max(10, round(INPUT_SIZE[1] * s))


def photo_view(img: np.ndarray, r: np.random.Generator, low_res: float = LOW_RES) -> np.ndarray:
    """A tight BGR tile crop as another photograph would show it: the window of :func:`crop_quad` at
    :func:`out_size` (``low_res`` the share of small crops), then :func:`photometric`."""
    h, w = img.shape[:2]
    pad = h // 4
    canvas = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    ow, oh = out_size(r, low_res)
    dst = np.array([[0, 0], [ow, 0], [ow, oh], [0, oh]], np.float32)
    box = np.array([0, 0, w, h], np.float32)
    m = cv2.getPerspectiveTransform(crop_quad(box, pad, r), dst)
    crop = cv2.warpPerspective(canvas, m, (ow, oh), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT)
    return photometric(crop, r)
