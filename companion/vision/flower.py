"""The flowers' second look: read the printed corner of a flower tile at a higher resolution.

The eight flowers differ mostly in the small character and number printed in the tile's top corners (春夏秋冬
and 梅蘭菊竹 with 1-4); the painting in the middle is much alike within a set. The main classifier sees the
whole face at 60x80, where that corner is a dozen pixels. When it puts enough probability on flowers, the
top strip of the same crop (:data:`STRIP_TOP` of its height) is read again at :data:`STRIP_SIZE` by a small
model trained on that strip alone (``models/tile_flower.onnx``, ``training/train_flower.py``), and the
flower share of the main model's probability is re-divided between the eight flowers with it
(:func:`second_look`). Crops that are not flowers are untouched, so the cost is one small batch for the few
flower crops of a frame.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from companion.tiles import Tile
from companion.vision.calibration import Calibration, calibrated_probs
from companion.vision.preprocess import MEAN, STD, as_bgr, map_crops, normalise, quantised_patches, resize
from companion.vision.runtime import input_kind, model_session, shipped_model

__all__ = ["FlowerModelError", "STRIP_SIZE", "STRIP_TOP", "LOOK_ABOVE", "MIN_WIDTH", "FLOWERS", "FlowerReader", "strip", "prepare_strips",
           "second_look", "default_flower_model"]

STRIP_SIZE = (96, 48)
"""(width, height) of the strip model's input."""
STRIP_TOP = 0.42
"""The strip is the top this share of the upright crop's height."""
LOOK_ABOVE = 0.2
"""Crops whose flower probability (all eight together) reaches this get the second look."""
MIN_WIDTH = 48
"""Narrower crops have no more pixels in the corner than the main model saw: no second look."""
FLOWERS: tuple[str, ...] = tuple(Tile(i).code for i in range(34, 42))
MODEL_FILE = "tile_flower.onnx"


class FlowerModelError(ValueError):
    """The flower-strip model is missing or does not describe itself as one; the message names the file and
    says it in English and Traditional Chinese (``English / 中文``)."""


def default_flower_model() -> Path:
    """The packaged flower-strip model, or ``models/`` of a source checkout."""
    return shipped_model(MODEL_FILE)


def strip(crop: np.ndarray) -> np.ndarray:
    """The top :data:`STRIP_TOP` of an upright BGR crop at :data:`STRIP_SIZE` (``uint8`` BGR)."""
    a = as_bgr(crop)
    h = max(2, round(a.shape[0] * STRIP_TOP))
    return resize(a[:h], STRIP_SIZE)


def prepare_strips(crops: Sequence[np.ndarray], workers: int = 1) -> np.ndarray:
    """Crops -> ``N x 3 x H x W`` ``float32`` normalised RGB of their top strips (training uses this too),
    cut and resized on ``workers`` threads."""
    if len(crops) == 0:
        return np.zeros((0, 3, STRIP_SIZE[1], STRIP_SIZE[0]), np.float32)
    return normalise(map_crops(strip, crops, workers))


class FlowerReader:
    """The strip model in one onnxruntime session (spinning off)."""

    def __init__(self, model: Path | None = None, threads: int = 1) -> None:
        self.path, self.session = model_session(model, default_flower_model, threads, FlowerModelError,
                                                "flower model")
        self.threads = threads
        meta = self.session.get_modelmeta().custom_metadata_map
        try:  # metadata that is not JSON, or JSON of the wrong kind, is a model of another kind too
            names = tuple(json.loads(meta.get("class_names", "[]")))
            size = json.loads(meta.get("input_size", "{}"))
            norm = (tuple(json.loads(meta.get("mean", "[]"))), tuple(json.loads(meta.get("std", "[]"))))
            fits = names == FLOWERS and (size.get("width"), size.get("height")) == STRIP_SIZE and \
                float(meta.get("strip_top", "nan")) == STRIP_TOP and norm == (MEAN, STD)
            self.logit_scale = float(json.loads(meta.get("logit_scale", "0")))
        except (ValueError, TypeError, AttributeError):
            fits = False
        if not fits:
            raise FlowerModelError(f"{self.path}: not a flower-strip model for {STRIP_SIZE} strips of the top "
                                   f"{STRIP_TOP} normalised with {MEAN}/{STD} / 不是花牌條帶模型（應讀取牌面上方 "
                                   f"{STRIP_TOP} 高度、縮放為 {STRIP_SIZE} 的條帶，並以 {MEAN}/{STD} 正規化）")
        self._input, self._patches = input_kind(self.session, STRIP_SIZE, self.path, FlowerModelError)

        self.prototypes: tuple[np.ndarray, np.ndarray] | None = None

    def run(self, crops: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        """Raw ``(logits N x 8, embeddings N x D)`` of the crops' top strips."""
        if self._patches is None:
            x = prepare_strips(crops, self.threads)
        else:  # an 8-bit model rewritten to take quantised patches (training/onnx_rewrite.patch_input)
            x = quantised_patches(map_crops(strip, crops, self.threads), *self._patches)
        logits, emb = self.session.run(None, {self._input: x})
        return logits, emb

    def calibrate(self, calibration: Calibration) -> None:
        """Strip prototypes of the calibration's flower crops (in jittered views), blended into the strip
        model's logits like the main model's (:func:`~companion.vision.calibration.blend_logits`)."""
        rows = [i for i, t in enumerate(calibration.tiles) if t.is_flower]
        self.prototypes = None
        if not rows or self.logit_scale <= 0:
            return
        flowers = Calibration(calibration.name, tuple(calibration.tiles[i] for i in rows), calibration.crops[rows])
        crops, owner = flowers.view_crops()
        _, emb = self.run(crops)
        self.prototypes = flowers.prototypes(FLOWERS, emb, owner)

    def probabilities(self, crops: Sequence[np.ndarray], share: np.ndarray | None = None) -> np.ndarray:
        """``N x 8`` probabilities of 1f..8f from the crops' top strips (calibrated when :meth:`calibrate`
        was given flower crops, each row by its ``share``: the main model's
        :func:`~companion.vision.calibration.likeness` of the crop to the set)."""
        logits, emb = self.run(crops)
        if self.prototypes is not None:
            return calibrated_probs(logits, emb, *self.prototypes, self.logit_scale, share=share)
        e = np.exp(logits - logits.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)


def second_look(probs: np.ndarray, crops: Sequence[np.ndarray], flower_cols: np.ndarray,
                reader: FlowerReader, share: np.ndarray | None = None) -> np.ndarray:
    """``probs`` with the flower share of every crop that reaches :data:`LOOK_ABOVE` (and is at least
    :data:`MIN_WIDTH` pixels wide) re-divided by the strip
    model: ``mass * normalise(sqrt(main) * strip)`` over the eight flowers (columns ``flower_cols``, in the
    order 1f..8f). Other rows and columns are returned unchanged. ``share``: each crop's
    :func:`~companion.vision.calibration.likeness` to the calibrated set, given to a calibrated strip reader."""
    mass = probs[:, flower_cols].sum(axis=1)
    wide = np.array([np.asarray(c).shape[1] >= MIN_WIDTH for c in crops], bool)
    rows = np.nonzero((mass >= LOOK_ABOVE) & wide)[0]
    if len(rows) == 0:
        return probs
    strips = [crops[int(i)] for i in rows]
    q = reader.probabilities(strips) if share is None else reader.probabilities(strips, share[rows])
    mix = np.sqrt(probs[np.ix_(rows, flower_cols)]) * q
    total = mix.sum(axis=1, keepdims=True)
    main = probs[np.ix_(rows, flower_cols)]
    mix = np.where(total > 1e-30, mix / np.maximum(total, 1e-30), main / mass[rows, None])
    out = probs.copy()
    out[np.ix_(rows, flower_cols)] = mass[rows, None] * mix
    return out
