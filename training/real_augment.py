"""Augmentation of real crops (already tight tile faces): small perspective/rotation jitter of the crop
window plus the same photometric changes as the rendered faces (:func:`companion.vision.augment.photo_view`,
which calibration uses too)."""

from __future__ import annotations

from companion.vision.augment import photo_view as augment_real

__all__ = ["augment_real"]
