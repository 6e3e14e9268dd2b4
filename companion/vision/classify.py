"""Reading tile crops with the packaged ONNX classifier (batched, one onnxruntime session).

>>> clf = TileClassifier()                 # doctest: +SKIP
>>> clf.classify([crop_bgr])[0].label      # doctest: +SKIP
'5p'

A prediction's ``tile`` is a :class:`~companion.tiles.Tile` (``0x`` = a face-down tile) or ``None`` when the
crop is not a tile at all (dice, chips, coins, fingers): its ``label`` is then ``"unknown"``. With a
:class:`~companion.vision.calibration.Calibration` the scores blend the trained head with class weights fitted
to the player's own set. A crop read unsurely is read again in a few slightly moved views and the readings
averaged (:data:`REREAD_BELOW`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import onnxruntime as ort

from companion.rules.said import json_said
from companion.tiles import Tile
from companion.vision.calibration import (
    FITTED,
    TRUST,
    Calibration,
    blend,
    by_share,
    calibrated_probs,
    likeness,
)
from companion.vision.flower import FLOWERS, FlowerReader, default_flower_model, second_look
from companion.vision.preprocess import (
    MEAN,
    STD,
    as_bgr,
    one_cv_thread,
    prepare,
    quantised_patches,
    resize_batch,
)
from companion.vision.runtime import input_kind, model_session, shipped_model

__all__ = ["ModelError", "ModelInfo", "Prediction", "TileClassifier", "default_model_path", "moved_view", "NOT_A_TILE",
           "REJECT_BELOW", "REREAD_BELOW", "REREAD_VIEWS", "SEVERAL_TILES", "several_tiles"]

MODEL_FILE = "tile_classifier.onnx"
NOT_A_TILE = "unknown"
REJECT_BELOW = 0.15
"""A best score under this means "not a tile"."""
REREAD_BELOW = 0.7
"""A crop whose best probability is under this is read again in the :data:`REREAD_VIEWS`, and the readings
(the first one included) are averaged ..."""
REREAD_VIEWS: tuple[tuple[float, float, float], ...] = ((1.08, 0.0, 0.0), (0.93, 0.0, 0.0), (1.0, 0.04, 0.0),
                                                        (1.0, -0.04, 0.0))
"""... each ``(scale, shift x, shift y)`` about the crop's centre, shifts as shares of its width and height: the
crop a slightly different box would have given. On 1,720 crops of 40 held-out synthetic styles 6% were unsure
and top-1 rose 97.4 -> 97.8%; on the real dev crops (each set read by the model trained without it) 94.4 ->
95.7%. Two views gained half of that, six no more than four."""


SEVERAL_TILES = 1.8
"""A crop whose long side is at least this many times its short side holds several tiles, not one
(:func:`several_tiles`): a tile is about 3:4 upright and 4:3 lying (1.33; the 232 real dev crops are all 240 x 320,
1.33), two side by side 1.5, three 2.25. On crops of two, three and four dev crops side by side the classifier read
19%, 16% and 35% of them as one tile it was sure of (at least 0.5; stacked lying, 11%, 28%, 46%): a review's crop of
three tiles read a sure ``6s``. At 1.8 a close crop of one tile keeps a third of its length to spare, and a crop of
two tiles side by side (1.5) is not caught."""


def several_tiles(w: int, h: int) -> tuple[str, str] | None:
    """Why a ``w`` x ``h`` crop cannot be read as one tile (it is shaped like several side by side:
    :data:`SEVERAL_TILES`), (English, Chinese), or ``None`` when it may be one."""
    if min(w, h) <= 0 or max(w, h) < SEVERAL_TILES * min(w, h):
        return None
    ratio = max(w, h) / min(w, h)
    return (f"the image is {w}x{h}, {ratio:.1f} times as {'wide' if w > h else 'tall'} as it is "
            f"{'tall' if w > h else 'wide'}, while a tile is about 3:4 (4:3 on its side): it looks like several tiles in a "
            "row, and classify reads one tile per image; `companion read` finds and reads every tile in a photo",
            f"圖片 {w}x{h}，{'寬' if w > h else '高'}是{'高' if w > h else '寬'}的 {ratio:.1f} 倍，一張牌約 3:4（橫放 4:3）："
            "看來是一排好幾張牌，classify 每張圖只讀一張牌；照片裡有好幾張牌請用 companion read，它會找出並辨識每一張")


class ModelError(ValueError):
    """A model file that is missing or does not describe itself as a tile classifier; the message names the file
    and says it in English and Traditional Chinese (``English / 中文``)."""


@dataclass(frozen=True, slots=True)
class ModelInfo:
    class_names: tuple[str, ...]
    input_size: tuple[int, int]  # (width, height)
    training_commit: str
    logit_scale: float = 0.0  # > 0: a cosine head, logits = scale * cosine (calibration imprints weights)


@dataclass(frozen=True, slots=True)
class Prediction:
    tile: Tile | None  # None: not a tile
    score: float
    top3: tuple[tuple[str, float], ...]

    @property
    def label(self) -> str:
        return self.tile.code if self.tile is not None else NOT_A_TILE

    def to_json(self) -> dict[str, object]:
        return {"tile": self.label, "score": round(self.score, 4),
                "top3": [{"tile": t, "score": round(s, 4)} for t, s in self.top3]}


def default_model_path() -> Path:
    """The packaged model (``companion/models/``), or ``models/`` of a source checkout."""
    return shipped_model(MODEL_FILE)


def _read_info(session: ort.InferenceSession, path: Path) -> ModelInfo:
    meta = session.get_modelmeta().custom_metadata_map
    try:
        names = tuple(json.loads(meta["class_names"]))
        size = json.loads(meta["input_size"])
        mean, std = tuple(json.loads(meta["mean"])), tuple(json.loads(meta["std"]))
        scale = float(json.loads(meta.get("logit_scale", "0")))
        input_size = (int(size["width"]), int(size["height"]))
    except (KeyError, ValueError, TypeError) as e:
        raise ModelError(f"{path}: not a tile classifier (metadata {e} missing or bad) / "
                         f"不是牌面分類模型（中繼資料 {e} 缺少或有誤）") from e
    if mean != MEAN or std != STD:
        raise ModelError(f"{path}: normalisation {mean}/{std} differs from preprocess {MEAN}/{STD} / "
                         f"模型的正規化參數 {mean}/{std} 與前處理的 {MEAN}/{STD} 不同")
    for n in names:
        if n != NOT_A_TILE:
            try:
                Tile.from_code(n)
            except (ValueError, TypeError) as e:
                said, said_zh = json_said(n)  # as the metadata's JSON writes it, not Python's 'zz' (one helper)
                raise ModelError(f"{path}: not a tile classifier (class {said} is not a tile) / "
                                 f"不是牌面分類模型（類別 {said_zh} 不是牌）") from e
    return ModelInfo(names, input_size, meta.get("training_commit", "unknown"), scale)


def softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


class TileClassifier:
    """One onnxruntime session (intra-op spinning off, ``threads`` intra-op threads) over batches of crops."""

    def __init__(self, model: Path | None = None, *, threads: int = 1, calibration: Calibration | None = None,
                 reject_below: float = REJECT_BELOW, flower_model: Path | None = None,
                 flower_look: bool = True, reread: bool = True) -> None:
        """``flower_model``: the flowers' second-look model (default: the packaged one, when present);
        ``flower_look=False`` reads flowers with the main model alone. ``reread=False``: unsure crops are not
        read again (:data:`REREAD_BELOW`)."""
        self.path, self.session = model_session(model, default_model_path, threads, ModelError, "classifier model")
        self.threads = threads
        self.info = _read_info(self.session, self.path)
        self.reject_below = reject_below
        self.reread = reread
        self._input, self._patches = input_kind(self.session, self.info.input_size, self.path, ModelError)
        self._tiles = [None if n == NOT_A_TILE else Tile.from_code(n) for n in self.info.class_names]
        self.calibration = calibration
        self._protos: tuple[np.ndarray, np.ndarray] | None = None
        self._like: np.ndarray | None = None  # the set's prototypes, what a crop's likeness to it is measured by
        self.flower: FlowerReader | None = None
        if flower_look and (flower_model is not None or default_flower_model().is_file()):
            self.flower = FlowerReader(flower_model, threads=threads)
        if self.flower is not None:
            missing = [f for f in FLOWERS if f not in self.info.class_names]
            if missing:
                raise ModelError(f"{self.path}: no classes {missing} for the flowers' second look / "
                                 f"模型缺少花牌複查所需的類別 {missing}")
            self._flower_cols = np.array([self.info.class_names.index(f) for f in FLOWERS], np.int64)
        if calibration is not None:
            if self.info.logit_scale > 0:  # cosine head: class weights fitted on many views of the set's crops
                digest = hashlib.sha256(self.path.read_bytes()).hexdigest()
                classes, weights, self._like = calibration.fitted(self.info.class_names, self.info.logit_scale,
                                                                  lambda crops: self.run(crops)[1], digest)
                self._protos = classes, weights
            else:
                crops, owner = calibration.view_crops()
                _, emb = self.run(crops)
                self._protos = calibration.prototypes(self.info.class_names, emb, owner)
                self._like = self._protos[1]
            if self.flower is not None:
                self.flower.calibrate(calibration)

    @property
    def calibrated_weights(self) -> tuple[np.ndarray, np.ndarray] | None:
        """``(class indices, unit weights)`` the calibration gives the classes it covers (fitted weights for a
        cosine head, prototypes otherwise; ``None`` without a calibration): what :meth:`probabilities` blends."""
        return self._protos

    def run(self, crops: Sequence[np.ndarray], batch: int = 128) -> tuple[np.ndarray, np.ndarray]:
        """Raw ``(logits, embeddings)`` for BGR crops."""
        logits, embs = [], []
        for i in range(0, len(crops), batch):
            part = crops[i : i + batch]
            if self._patches is None:
                x = prepare(part, self.info.input_size, self.threads)
            else:
                x = quantised_patches(resize_batch(part, self.info.input_size, self.threads), *self._patches)
            lo, em = self.session.run(None, {self._input: x})
            logits.append(lo)
            embs.append(em)
        if not logits:
            n = len(self.info.class_names)
            return np.zeros((0, n), np.float32), np.zeros((0, 0), np.float32)
        return np.concatenate(logits), np.concatenate(embs)

    def probabilities(self, crops: Sequence[np.ndarray], reread: bool | None = None) -> np.ndarray:
        """Class probabilities ``N x C`` (blended with the calibration's fitted class weights when there is one;
        crops read unsurely averaged over :data:`REREAD_VIEWS` when ``reread``, default ``self.reread``)."""
        probs = self._probabilities(crops)
        if not (self.reread if reread is None else reread) or not len(probs):
            return probs
        rows = np.nonzero(probs.max(axis=1) < REREAD_BELOW)[0]
        if len(rows) == 0:
            return probs
        with one_cv_thread():
            again = [moved_view(crops[int(i)], *v) for v in REREAD_VIEWS for i in rows]
        views = self._probabilities(again).reshape(len(REREAD_VIEWS), len(rows), -1)
        out = probs.copy()
        out[rows] = (probs[rows] + views.sum(axis=0)) / (1 + len(REREAD_VIEWS))
        return out

    def _probabilities(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        logits, emb = self.run(crops)
        share = None
        if self._protos is None or self._like is None or not len(logits):
            probs = softmax(logits)
        else:  # a crop that looks like no tile of the set is read as without its calibration
            share = likeness(emb, self._like)
            if self.info.logit_scale > 0:
                probs = calibrated_probs(logits, emb, *self._protos, self.info.logit_scale, FITTED, TRUST, share)
            else:
                plain = softmax(logits)
                probs = by_share(share, blend(plain, emb, *self._protos), plain)
        if self.flower is not None and len(probs):
            probs = second_look(probs, crops, self._flower_cols, self.flower, share)
        return probs

    def classify(self, crops: Sequence[np.ndarray]) -> list[Prediction]:
        """One :class:`Prediction` per crop, in order."""
        return self.predictions(self.probabilities(crops))

    def predictions(self, probs: np.ndarray) -> list[Prediction]:
        """One :class:`Prediction` per row of class probabilities (the best three of each row, the best one
        ``None`` when it is :data:`NOT_A_TILE` or scores under ``reject_below``)."""
        if not len(probs):
            return []
        names, tiles = self.info.class_names, self._tiles
        order = np.argsort(-probs, axis=1, kind="stable")[:, :3]
        top = np.take_along_axis(probs, order, axis=1).tolist()
        out = []
        for idx, sc in zip(order.tolist(), top, strict=True):
            best = tiles[idx[0]] if sc[0] >= self.reject_below else None
            out.append(Prediction(best, sc[0], tuple((names[i], s) for i, s in zip(idx, sc, strict=True))))
        return out


def moved_view(crop: np.ndarray, scale: float, dx: float, dy: float) -> np.ndarray:
    """``crop`` (BGR, same size) magnified ``scale`` times about its centre and moved by ``dx``, ``dy`` of its
    width and height, edges repeated."""
    a = as_bgr(crop)
    h, w = a.shape[:2]
    m = np.array([[scale, 0, (1 - scale) * w / 2 + dx * w], [0, scale, (1 - scale) * h / 2 + dy * h]], np.float32)
    out: np.ndarray = cv2.warpAffine(a, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out
