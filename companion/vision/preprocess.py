"""Crop -> classifier input, shared by training and inference so both see identical pixels.

A crop is an upright tile face, ``HxWx3`` ``uint8`` BGR (grey ``HxW`` and BGRA are accepted). It is resized
to ``INPUT_SIZE`` (width, height) with area averaging (bilinear when enlarging), turned to RGB and
normalised with ``MEAN``/``STD`` into ``float32`` ``N x 3 x H x W``.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

__all__ = ["INPUT_SIZE", "MEAN", "STD", "CropError", "as_bgr", "prepare", "prepare_one"]

INPUT_SIZE = (60, 80)
"""(width, height) of the classifier input; the model's metadata repeats it."""
MEAN = (0.5, 0.5, 0.5)
STD = (0.25, 0.25, 0.25)


class CropError(ValueError):
    """A crop that cannot be classified (empty, wrong shape or type)."""


def as_bgr(crop: np.ndarray) -> np.ndarray:
    """``crop`` as ``HxWx3`` ``uint8`` BGR; raises :class:`CropError` naming what is wrong."""
    a = np.asarray(crop)
    if a.dtype != np.uint8:
        raise CropError(f"crop must be uint8, got {a.dtype}")
    if a.ndim == 2:
        a = cv2.cvtColor(a, cv2.COLOR_GRAY2BGR)
    elif a.ndim == 3 and a.shape[2] == 4:
        a = cv2.cvtColor(a, cv2.COLOR_BGRA2BGR)
    elif a.ndim != 3 or a.shape[2] != 3:
        raise CropError(f"crop must be HxWx3 BGR, got shape {a.shape}")
    if a.shape[0] < 2 or a.shape[1] < 2:
        raise CropError(f"crop is empty or too small: {a.shape[1]}x{a.shape[0]} pixels")
    return a


def prepare_one(crop: np.ndarray, size: tuple[int, int] = INPUT_SIZE) -> np.ndarray:
    """One crop -> ``3 x H x W`` ``float32`` normalised RGB."""
    a = as_bgr(crop)
    w, h = size
    interp = cv2.INTER_AREA if a.shape[0] > h or a.shape[1] > w else cv2.INTER_LINEAR
    small = cv2.resize(a, (w, h), interpolation=interp)
    rgb = small[:, :, ::-1].astype(np.float32) * np.float32(1.0 / 255.0)
    norm = (rgb - np.asarray(MEAN, np.float32)) / np.asarray(STD, np.float32)
    return np.ascontiguousarray(norm.transpose(2, 0, 1), dtype=np.float32)


def prepare(crops: Sequence[np.ndarray], size: tuple[int, int] = INPUT_SIZE) -> np.ndarray:
    """A batch of crops -> ``N x 3 x H x W`` ``float32``."""
    if len(crops) == 0:
        return np.zeros((0, 3, size[1], size[0]), np.float32)
    return np.stack([prepare_one(c, size) for c in crops])
