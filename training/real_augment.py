"""Augmentation of real crops (already tight tile faces): small perspective/rotation jitter of the crop
window plus the same photometric changes as the rendered faces."""

from __future__ import annotations

import cv2
import numpy as np

from training.classifier_data import _crop_quad, _out_size, _photometric

__all__ = ["augment_real"]


def augment_real(img: np.ndarray, r: np.random.Generator) -> np.ndarray:
    h, w = img.shape[:2]
    pad = h // 4
    canvas = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    ow, oh = _out_size(r)
    dst = np.array([[0, 0], [ow, 0], [ow, oh], [0, oh]], np.float32)
    box = np.array([0, 0, w, h], np.float32)
    m = cv2.getPerspectiveTransform(_crop_quad(box, pad, r), dst)
    crop = cv2.warpPerspective(canvas, m, (ow, oh), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REFLECT)
    return _photometric(crop, r)
