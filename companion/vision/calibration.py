"""Calibration to one physical tile set: a few crops of each kind, stored per set in the user's data folder.

A :class:`Calibration` keeps the crops themselves (small, ``uint8`` BGR), not model features, so it stays
valid when the packaged model changes. The classifier embeds each crop in a few jittered views
(:func:`views`: shifted, scaled, turned a little, lit and blurred differently, as a second photograph would
be) into class prototypes. With a cosine-head model (metadata ``logit_scale``) the prototypes start class
weights that are then fitted on many harsher views of the crops (:func:`photo_views`: size down to a table
camera's, glare, blur, JPEG; :func:`fit_weights`), and a calibrated class's logit becomes mostly the cosine
to that weight (:func:`blend_logits`, weight imprinting); older models blend probabilities (:func:`blend`).
A calibration crop must be at least :data:`MIN_CROP`. Which plant carries the
printed 3 or 4 differs between sets; calibrating by printed number settles it for that set.

Sets live in ``<data>/calibration/<name>.npz`` where ``<data>`` is ``$COMPANION_DATA_DIR``, else
``%APPDATA%\\companion`` on Windows, else ``$XDG_DATA_HOME/companion`` (``~/.local/share/companion``);
``current.txt`` there names the selected set.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
import time
import unicodedata
import zipfile
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion import names
from companion.files import make_folder, whole_file
from companion.tiles import Tile
from companion.vision.augment import photo_view
from companion.vision.preprocess import INPUT_SIZE, as_bgr

__all__ = ["Calibration", "CalibrationError", "DamagedCalibration", "UnreadableCalibration", "blend", "blend_logits", "calibrated_probs", "nearest_weight", "views", "photo_views",
           "fit_weights", "big_enough", "check_crop", "calibration_dir", "save", "load", "list_sets", "select", "deselect", "selected", "delete", "valid_name", "reserved_name", "write_atomic", "saving", "rename", "fit_files", "STORE_SIZE",
           "MIN_CROP", "WEIGHT", "TEMPERATURE", "IMPRINT", "VIEWS", "PHOTO_VIEWS", "FIT_STEPS", "FITTED", "TRUST", "FIT_VERSION",
           "LIKE", "likeness", "by_share"]

STORE_SIZE = (INPUT_SIZE[0] * 2, INPUT_SIZE[1] * 2)
WEIGHT = 0.7
"""Share of the prototype vote in the blended score."""
TEMPERATURE = 0.05
IMPRINT = 0.7
"""Share of the prototype's cosine in a calibrated class's logit (cosine-head models)."""
VIEWS = 8
"""Views of each calibration crop (the crop itself and jittered copies) averaged into its prototype."""
PHOTO_VIEWS = 56
"""Harsher views of each calibration crop (:func:`photo_views`) on which, with the :data:`VIEWS`, the
calibrated classes' weights are fitted (:func:`fit_weights`)."""
FIT_STEPS = 400
FIT_VERSION = 2
"""Raise when the fitting changes in a way the cache key cannot see (preprocessing, views, optimiser)."""
FITTED = 0.85
"""Share of the fitted weights' cosine in a calibrated class's logit (the rest is the trained head's)."""
TRUST = 0.8
"""Cosine to a calibrated class's fitted weight from which a crop counts as a tile of the player's set that
the calibration has seen: :func:`calibrated_probs` then lets the calibrated classes outvote the trained head
on every class, not only among themselves. Crops of kinds a calibration lacks come that close to none of its
weights (chosen on rendered held-out styles; see models/README.md)."""
LIKE = (0.70, 0.80)
"""Cosines of a crop's embedding to the nearest prototype of the set (the mean of a calibrated kind's mild
:func:`views`) between which the calibration's say in its reading grows from none to all (:func:`likeness`): a
crop of another set, which looks like no tile of the calibrated one, is read as without the calibration (a
review: set 11's calibration read other sets' tiles 191 -> 180 of 193 right, some with no unsure mark, and
turned the demo's winning hand into another). Chosen on the dev photos' labelled boxes; see models/README.md,
which also measures the likeness to the fitted weights and to the set's photo views: none covered the set's own
glare views much better (2 of 198 boxes) without misreading another set's tile again."""
MIN_CROP = (36, 48)
"""Smallest calibration crop (width, height in px, 0.6x the classifier's input): a tile photographed smaller
is too blurred to stand for its kind, and every later reading would be measured against it."""
log = logging.getLogger(__name__)
_NAME = re.compile(r"[^\W_](?:[\w\-() ]{0,62}[\w\-()])?")
"""A set's name is its file's name: letters of any script (阿嬤的牌), digits, spaces, ``_``, ``-`` and brackets ``( )``,
at most 64, beginning with a letter or digit and not ending with a space (``Home set (old)``; a review's names with a
space were refused). Nothing a file name forbids on Windows, a Mac or Linux, nor a glob's ``[ ] * ?``."""
_DAMAGED = "的校正檔已損壞：請重新校正這副牌，或先不用它（companion calibrate none，或加 --no-calibration）"
"""The Chinese half of the message for a stored calibration that cannot be read, after the set's name and file."""
_CARRY_ON = "calibrate the set again, or read without it (companion calibrate none, or --no-calibration)"


class CalibrationError(ValueError):
    """A calibration that cannot be built, found or read; the message names it, in English and Traditional
    Chinese (``English / 中文``)."""


class DamagedCalibration(CalibrationError):
    """A stored set whose file is broken (not a whole archive, cut short, or not the arrays a set is saved as):
    nothing can be had from it but to delete it and calibrate again."""


class UnreadableCalibration(CalibrationError):
    """A stored set whose file, not known to be broken, cannot be read now (no permission, a disk's error, a tile
    this version does not know): ``why``/``why_zh`` say why in a player's words. It is not to be deleted for that (a
    change review: the app called every such file damaged and told the player to delete it)."""

    def __init__(self, message: str, why: str, why_zh: str) -> None:
        super().__init__(message)
        self.why, self.why_zh = why, why_zh


@dataclass(frozen=True, slots=True, eq=False)
class Calibration:
    name: str
    tiles: tuple[Tile, ...]
    crops: np.ndarray  # K x H x W x 3 uint8 BGR, one row per entry of ``tiles``
    source: Path | None = None  # the file it was loaded from (fitted weights are kept beside it)

    def others(self, given: set[Tile]) -> list[tuple[Tile, np.ndarray]]:
        """Its ``(tile, crop)`` pairs of the kinds not in ``given``: what it keeps when crops of ``given`` are put
        into it (``companion calibrate add`` / ``photo --add``, the app's save under a saved set's name)."""
        return [(t, c) for t, c in zip(self.tiles, self.crops, strict=True) if t not in given]

    @classmethod
    def from_crops(cls, name: str, samples: Sequence[tuple[Tile, np.ndarray]]) -> Calibration:
        """A calibration from ``(tile, BGR crop)`` pairs; several crops of a kind are averaged."""
        check_name(name)
        if not samples:
            raise CalibrationError(f"calibration “{name}”: no crops given / 校正牌組「{name}」沒有任何牌面照片")
        tiles = tuple(t for t, _ in samples)
        for i, (t, c) in enumerate(samples):
            check_crop(c, f"calibration “{name}”: crop {i + 1} ({t.code})", f"校正牌組「{name}」的第 {i + 1} 張（{t.zh}）")
        crops = np.stack([cv2.resize(as_bgr(c), STORE_SIZE, interpolation=cv2.INTER_AREA) for _, c in samples])
        return cls(name, tiles, crops)

    def view_crops(self, n: int = VIEWS) -> tuple[list[np.ndarray], np.ndarray]:
        """``n`` views of every stored crop (always the same ones: a fixed seed) and, per view, the row of
        ``self.crops`` it comes from."""
        rng = np.random.default_rng(0)
        out: list[np.ndarray] = []
        for c in self.crops:
            out += views(c, rng, n)
        return out, np.repeat(np.arange(len(self.crops)), n)

    def fit_crops(self, mild: int = VIEWS, photo: int = PHOTO_VIEWS) -> tuple[list[np.ndarray], np.ndarray]:
        """The crops the calibrated weights are fitted on: :meth:`view_crops` (``mild`` per crop) and then
        ``photo`` :func:`photo_views` of every crop (fixed seeds), with the row each comes from."""
        crops, owner = self.view_crops(mild)
        rng = np.random.default_rng(1)
        for c in self.crops:
            crops += photo_views(c, rng, photo)
        return crops, np.concatenate([owner, np.repeat(np.arange(len(self.crops)), photo)])

    def weights(self, class_names: Sequence[str], embeddings: np.ndarray, owner: np.ndarray, scale: float,
                mild: int = VIEWS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(class indices K, unit weights K x D, unit prototypes K x D)`` for a cosine head: the prototypes of
        the first ``mild`` views of each crop (:meth:`prototypes`), and the weights they start, fitted on all the
        views' embeddings (:func:`fit_weights`), so a class's region follows the set's own tiles under blur,
        glare and size. The prototypes stay what a crop's :func:`likeness` to the set is measured against."""
        owner = np.asarray(owner)
        first = np.concatenate([np.nonzero(owner == i)[0][:mild] for i in range(len(self.tiles))])
        classes, protos = self.prototypes(class_names, embeddings[first], owner[first])
        index = {n: i for i, n in enumerate(class_names)}
        row = {c: i for i, c in enumerate(classes.tolist())}
        labels = np.array([row[index[self.tiles[o].code]] for o in owner])
        return classes, fit_weights(embeddings, labels, protos, scale), protos

    def fitted(self, class_names: Sequence[str], scale: float, embed: Callable[[list[np.ndarray]], np.ndarray],
               model_id: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """:meth:`weights` of :meth:`fit_crops` embedded by ``embed``. For a stored calibration they are kept
        beside its file, keyed by ``model_id`` (the model's digest), the crops and the fitting constants, so
        a later run with the same model skips the 1-3 s fit; a damaged or unwritable cache is ignored."""
        key = hashlib.sha256(b"|".join([
            model_id.encode(), ",".join(t.code for t in self.tiles).encode(), str(self.crops.shape).encode(),
            self.crops.tobytes(), f"{FIT_VERSION}-{VIEWS}-{PHOTO_VIEWS}-{FIT_STEPS}-{INPUT_SIZE}".encode()]))
        model = hashlib.sha256(model_id.encode()).hexdigest()[:8]
        path = (self.source.with_name(f"{self.source.stem}.fit-{model}-{key.hexdigest()[:16]}.npz")
                if self.source else None)
        if path is not None and path.is_file():
            try:
                with np.load(path, allow_pickle=False) as z:
                    classes, w, protos = z["classes"], z["weights"], z["prototypes"]
                if (classes.ndim == 1 and w.ndim == 2 and len(w) == len(classes) and protos.shape == w.shape
                        and classes.min(initial=0) >= 0 and classes.max(initial=0) < len(class_names)):
                    return classes.astype(np.int64), w.astype(np.float32), protos.astype(np.float32)
            except (OSError, KeyError, ValueError, EOFError, zipfile.BadZipFile):
                pass
        crops, owner = self.fit_crops()
        classes, w, protos = self.weights(class_names, embed(crops), owner, scale)
        if path is not None:
            # the cache is optional: a read-only or locked data folder just refits next time
            with contextlib.suppress(OSError):
                write_atomic(path, classes=classes, weights=w, prototypes=protos)
                for stale in fit_files(path.parent, path.name.split('.fit-')[0], model):
                    if stale != path:  # older fits of this model (other models keep theirs)
                        stale.unlink(missing_ok=True)
        return classes, w, protos

    def prototypes(self, class_names: Sequence[str], embeddings: np.ndarray, owner: np.ndarray | None = None
                   ) -> tuple[np.ndarray, np.ndarray]:
        """``(class indices K, unit prototypes K x D)`` from the embeddings of ``self.crops`` (or of views of
        them: ``owner[i]`` is the crop that embedding row ``i`` shows)."""
        index = {n: i for i, n in enumerate(class_names)}
        owner = np.arange(len(self.tiles)) if owner is None else np.asarray(owner)
        kind = np.array([index[t.code] for t in self.tiles])[owner]
        classes = sorted(set(kind.tolist()))
        protos = []
        for c in classes:
            v = embeddings[kind == c].mean(axis=0)
            protos.append(v / (np.linalg.norm(v) + 1e-8))
        return np.asarray(classes, np.int64), np.stack(protos).astype(np.float32)


def blend(probs: np.ndarray, emb: np.ndarray, classes: np.ndarray, protos: np.ndarray,
          weight: float = WEIGHT, temperature: float = TEMPERATURE) -> np.ndarray:
    """Re-share the head's probability *within* the calibrated classes: there the score becomes
    ``(1 - weight) * head + weight * mass * softmax(cosine / temperature)``, where ``mass`` is the head's total
    probability on calibrated classes; classes without a prototype keep the head's score. A partial
    calibration therefore cannot pull a crop of an uncalibrated kind onto a calibrated one."""
    sims = emb @ protos.T / temperature
    q = np.exp(sims - sims.max(axis=1, keepdims=True))
    q /= q.sum(axis=1, keepdims=True)
    out = probs.copy()
    mass = probs[:, classes].sum(axis=1, keepdims=True)
    out[:, classes] = (1 - weight) * probs[:, classes] + weight * mass * q
    return out


def blend_logits(logits: np.ndarray, emb: np.ndarray, classes: np.ndarray, protos: np.ndarray, scale: float,
                 weight: float = IMPRINT) -> np.ndarray:
    """Cosine-head logits with the calibrated classes' weights moved towards their prototypes:
    ``(1 - weight) * logit + weight * scale * cos(embedding, prototype)``. Both terms are scaled cosines, so
    calibrated and uncalibrated classes stay comparable and a partial calibration does not swamp the rest."""
    out = logits.astype(np.float32, copy=True)
    out[:, classes] = (1 - weight) * logits[:, classes] + weight * scale * (emb @ protos.T)
    return out


def nearest_weight(emb: np.ndarray, protos: np.ndarray) -> np.ndarray:
    """``N``: each embedding's cosine to the nearest calibrated weight (both unit length), what ``trust`` in
    :func:`calibrated_probs` is compared with."""
    return np.asarray((emb @ protos.T).max(axis=1))


def likeness(emb: np.ndarray, prototypes: np.ndarray, like: tuple[float, float] = LIKE) -> np.ndarray:
    """``N`` in 0..1: the calibration's share in each crop's reading, from the embedding's cosine to the set's
    nearest prototype (both unit length): none up to ``like[0]``, all from ``like[1]``, linear between. A tile
    of the calibrated set lies close to its kind's prototype; a tile of another set lies close to none, and
    the calibration has nothing to say about it."""
    lo, hi = like
    near = np.asarray((emb @ prototypes.T).max(axis=1)) if len(prototypes) else np.full(len(emb), -1.0)
    return np.asarray(np.clip((near - lo) / max(hi - lo, 1e-6), 0.0, 1.0), np.float32)


def calibrated_probs(logits: np.ndarray, emb: np.ndarray, classes: np.ndarray, protos: np.ndarray,
                     scale: float, weight: float = IMPRINT, trust: float | None = None,
                     share: np.ndarray | None = None) -> np.ndarray:
    """Probabilities of a cosine-head model under a calibration: the head's softmax, with the probability it
    gives the calibrated classes *together* re-shared among them by :func:`blend_logits`. Keeping that
    total means a partial calibration cannot pull a crop of a kind it lacks onto one it has (a prototype
    from the player's own set is closer to every crop of that set than the trained weights are).

    ``trust`` (e.g. :data:`TRUST`): a crop whose cosine to some calibrated weight reaches it is that close to
    a tile the calibration has seen, so its row is the softmax of :func:`blend_logits` over every class: a
    copy of a calibrated kind that the trained head alone misreads as a kind the calibration lacks is then
    read as the calibration says, instead of keeping the head's wrong share.

    ``share`` (``N``, :func:`likeness`): how much of each row is the calibrated reading; the rest is the
    head's own softmax, so a crop that looks like no tile of the set is read as without the calibration."""
    z = logits - logits.max(axis=1, keepdims=True)
    probs = np.exp(z)
    probs /= probs.sum(axis=1, keepdims=True)
    plain = probs.copy()
    mass = probs[:, classes].sum(axis=1, keepdims=True)
    blended = blend_logits(logits, emb, classes, protos, scale, weight)
    inner = blended[:, classes]
    inner = np.exp(inner - inner.max(axis=1, keepdims=True))
    probs[:, classes] = mass * inner / inner.sum(axis=1, keepdims=True)
    if trust is not None:
        sure = nearest_weight(emb, protos) >= trust
        if sure.any():
            b = np.exp(blended[sure] - blended[sure].max(axis=1, keepdims=True))
            probs[sure] = b / b.sum(axis=1, keepdims=True)
    return by_share(share, probs, plain)


def by_share(share: np.ndarray | None, calibrated: np.ndarray, plain: np.ndarray) -> np.ndarray:
    """Each row ``share`` (:func:`likeness`) of the way from ``plain`` to ``calibrated`` (``calibrated`` itself where
    no share is given)."""
    if share is None:
        return calibrated
    s = np.asarray(share, np.float32)[:, None]
    return s * calibrated + (1 - s) * plain


def views(crop: np.ndarray, rng: np.random.Generator, n: int = VIEWS) -> list[np.ndarray]:
    """The crop and ``n - 1`` copies as another photograph of the same tile might show it: shifted by up to
    5%, scaled 0.9-1.12x, turned up to 6 degrees, lighter or darker, tinted, and sometimes blurred or
    lower in resolution."""
    h, w = crop.shape[:2]
    out = [crop]
    for _ in range(n - 1):
        centre = (w / 2 + rng.uniform(-0.05, 0.05) * w, h / 2 + rng.uniform(-0.05, 0.05) * h)
        m = cv2.getRotationMatrix2D(centre, rng.uniform(-6, 6), rng.uniform(0.9, 1.12))
        v: np.ndarray = cv2.warpAffine(crop, m, (w, h), borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        v = v * rng.uniform(0.7, 1.25) * rng.uniform(0.9, 1.1, 3).astype(np.float32) + rng.uniform(-25, 25)
        if rng.random() < 0.5:
            v = cv2.GaussianBlur(v, (0, 0), rng.uniform(0.5, 1.8))
        if rng.random() < 0.3:
            k = rng.uniform(0.25, 0.6)
            v = cv2.resize(cv2.resize(v, None, fx=k, fy=k, interpolation=cv2.INTER_AREA), (w, h))
        out.append(np.clip(v, 0, 255).astype(np.uint8))
    return out


def big_enough(crop: np.ndarray) -> bool:
    """Whether a crop is at least :data:`MIN_CROP` (a calibration crop must be)."""
    return crop.ndim >= 2 and crop.shape[1] >= MIN_CROP[0] and crop.shape[0] >= MIN_CROP[1]


def check_crop(crop: np.ndarray, what: str, what_zh: str | None = None) -> None:
    """Refuse a calibration crop smaller than :data:`MIN_CROP`; ``what`` (``what_zh`` in the Chinese half, else
    ``what``: a file's name) names it in the message, and both halves give its size and the least one."""
    if not big_enough(crop):
        size = f"{crop.shape[1]}x{crop.shape[0]}" if crop.ndim >= 2 else str(crop.shape)
        raise CalibrationError(f"{what} is {size} px; a calibration crop must be at least {MIN_CROP[0]}x{MIN_CROP[1]} "
                               f"px: photograph the tile closer / {what_zh or what} 只有 {size} 像素，校正用的牌至少要 "
                               f"{MIN_CROP[0]}x{MIN_CROP[1]} 像素：請靠近一點拍")


def fit_weights(embeddings: np.ndarray, labels: np.ndarray, init: np.ndarray, scale: float,
                steps: int = FIT_STEPS, lr: float = 0.5, l2: float = 1e-3) -> np.ndarray:
    """Unit class weights ``K x D`` of a cosine softmax (``scale x cosine``) fitted by gradient descent on unit
    ``embeddings`` with ``labels`` in ``0..K-1``, starting from ``init`` (the prototypes): deterministic,
    numpy only, about a second for a full set."""
    x = np.asarray(embeddings, np.float32)
    onehot = np.eye(len(init), dtype=np.float32)[labels]
    w = np.asarray(init, np.float32).copy()
    for _ in range(steps):
        norm = np.linalg.norm(w, axis=1, keepdims=True)
        unit = w / norm
        z = scale * x @ unit.T
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        g = scale * (p - onehot).T @ x / len(x)  # gradient of the mean cross-entropy w.r.t. the unit weights
        g = (g - (g * unit).sum(axis=1, keepdims=True) * unit) / norm  # ... w.r.t. the raw weights
        w -= lr * (g + l2 * w)
    out: np.ndarray = w / np.linalg.norm(w, axis=1, keepdims=True)
    return out


def photo_views(crop: np.ndarray, rng: np.random.Generator, n: int) -> list[np.ndarray]:
    """``n`` views of a crop as another photograph or a table camera might give it
    (:func:`companion.vision.augment.photo_view`: the crop window moved, grown, skewed and turned, 0.3-2.2x
    the classifier's input size, other colour and light, glare, blur, noise and JPEG)."""
    return [photo_view(crop, rng) for _ in range(n)]


# --- storage ---------------------------------------------------------------------------------------------


def calibration_dir() -> Path:
    """``calibration/`` in the user's data folder (the house profiles' and the live table's)."""
    from companion.rules.profiles._store import data_dir

    return data_dir() / "calibration"


_RESERVED = frozenset({"none", "con", "prn", "aux", "nul", *(f"{d}{i}" for d in ("com", "lpt") for i in range(10))})
"""Names no set may take: ``none`` is the command that reads without a set (``calibrate none``, where ``calibrate use
none`` would select a set so named: a review), and the others are Windows' devices, which no file there may be named
(``CON.npz`` included)."""


def _well_formed(name: str) -> bool:
    return bool(_NAME.fullmatch(name)) and name == unicodedata.normalize("NFC", name)


def reserved_name(name: str) -> bool:
    """``name`` is one no new set may take (:data:`_RESERVED`, in any case or width)."""
    return name_key(name) in _RESERVED


def valid_name(name: str) -> bool:
    """``name`` can name a new set (and its file)."""
    return _well_formed(name) and not reserved_name(name)


def name_key(name: str) -> str:
    """What two names that look alike share (:func:`companion.names.name_key`, as rule sets and players compare
    theirs): the case and the full-width forms a Chinese keyboard types folded (``Ｈｏｍｅ`` and ``home`` are one set
    to a player; a review saved both side by side), and what shows nothing taken out."""
    return names.name_key(name)


def twin_of(name: str, saved: list[str]) -> str | None:
    """A saved set whose name looks like ``name`` without being it, or None."""
    return next((n for n in saved if n != name and name_key(n) == name_key(name)), None)


def check_name(name: str) -> None:
    if not valid_name(name):
        if _well_formed(name):  # reserved
            raise CalibrationError(f"tile-set name “{name}” is kept for the command `companion calibrate none` and for "
                                   f"Windows' devices: choose another / 牌組名稱「{name}」不能用（none 是「不用校正」的指令，"
                                   "其餘是 Windows 保留的名稱）：請換一個")
        fault = _name_fault(name)
        if fault is not None:
            raise CalibrationError(f"tile-set name “{name}”: {fault[0]} / 牌組名稱「{name}」不合用：{fault[1]}")
        raise CalibrationError(f"tile-set name “{name}”: use up to 64 letters, digits, spaces, '_', '-' or '( )', "
                               f"beginning with a letter or digit / 牌組名稱「{name}」不合用：最多 64 個字元，只能用文字、"
                               "數字、空格、_、- 或 ( )，"
                               "開頭要是文字或數字")


def _name_fault(name: str) -> tuple[str, str] | None:
    """(English, Chinese) of the one fault of a name that would be well formed without it: a space at its end or
    start (``"新組 "`` was told to "use letters, digits, spaces…", all of which it did: a review)."""
    if name.strip() and _well_formed(name.strip()):
        end = "ends" if name.rstrip() != name else "begins"
        return (f"it {end} with a space: leave the space out",
                f"名稱{'結尾' if end == 'ends' else '開頭'}有空格，請拿掉")
    return None


def _path(name: str, new: bool = False) -> Path:
    """The set's file; a reserved name (:data:`_RESERVED`) only for a set saved before names were so kept, to be
    read, selected or deleted."""
    if new or not _well_formed(name):
        check_name(name)
    return calibration_dir() / f"{name}.npz"


def write_atomic(path: Path, data: bytes | None = None, /, compress: bool = True, **arrays: np.ndarray) -> None:
    """``data``, or else ``np.savez_compressed`` of ``arrays`` (``np.savez`` without ``compress``: ten times
    quicker, for a file written often), into ``path`` whole or not at all (:func:`companion.files.whole_file`),
    its folder made first."""
    make_folder(path.parent)
    with whole_file(path) as f:
        if data is not None:
            f.write(data)
        else:
            save = np.savez_compressed if compress else np.savez
            save(f, **arrays)  # type: ignore[arg-type]  # numpy stubs read **kwds as allow_pickle


def fit_files(folder: Path, name: str, model: str | None = None) -> list[Path]:
    """The weights fitted to the set ``name`` kept in ``folder`` (:meth:`Calibration.fitted`): all of them, or those of
    the model whose digest begins ``model``. (A set's name holds none of a glob's ``[ ] * ?``.)"""
    return list(folder.glob(f"{name}.fit-{model}-*.npz" if model else f"{name}.fit-*.npz"))


def save(cal: Calibration) -> Path:
    p = _path(cal.name, new=True)
    try:
        write_atomic(p, tiles=np.array([t.code for t in cal.tiles]), crops=cal.crops)
    except OSError as e:
        from companion.rules.profiles import os_error_zh

        raise CalibrationError(f"calibration “{cal.name}”: cannot write {p}: {e} / "
                               f"無法寫入校正檔 {p}（{os_error_zh(e)}）") from e
    for old in fit_files(p.parent, cal.name):  # weights fitted to the crops this replaces
        with contextlib.suppress(OSError):
            old.unlink()
    return p


SAVE_WAIT_S = 30.0
"""How long a save waits for another save of a set to end (a save writes in a second or two)."""
STALE_SAVE_S = 600.0
"""A save lock older than this was left by a save that crashed: it is taken over (one whose process is gone is taken
over at once: :func:`_lock_left`)."""
_EMPTY_LOCK_S = 2.0
"""An empty lock younger than this may be one a save has just made and not yet written its process into."""


def _running(pid: int) -> bool:
    """The process ``pid`` is running (or cannot be told: taken as running)."""
    if pid <= 0:
        return False
    if os.name == "nt":  # (os.kill there ends the process whatever the signal)
        import ctypes

        kernel = ctypes.windll.kernel32  # type: ignore[attr-defined]
        handle = kernel.OpenProcess(0x1000, False, pid)  # PROCESS_QUERY_LIMITED_INFORMATION
        if not handle:
            return kernel.GetLastError() == 5  # access denied: another user's, running
        code = ctypes.c_ulong()
        alive = bool(kernel.GetExitCodeProcess(handle, ctypes.byref(code))) and code.value == 259  # STILL_ACTIVE
        kernel.CloseHandle(handle)
        return alive
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process
        return True
    return True


def _started(pid: int) -> str | None:
    """When the process ``pid`` started, where the system says (Linux: ``/proc/PID/stat``'s 22nd field, clock ticks
    since boot): with the pid, what tells the process from a later one given its pid. None where it cannot be read (no
    such process, another system)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    fields = stat[stat.rfind(b")") + 1 :].split()  # (after the program's name, which may hold spaces and brackets)
    return fields[19].decode("ascii") if len(fields) > 19 and fields[19].isdigit() else None


def _lock_text() -> str:
    """What a save writes into the lock: its pid, and when its process started where that can be told."""
    pid = os.getpid()
    start = _started(pid)
    return f"{pid} {start}" if start else str(pid)


def _lock_left(lock: Path) -> bool:
    """``lock`` was left by a save or rename that can no longer end it: older than :data:`STALE_SAVE_S`, naming a
    process that is not running (or one that started at another time than the one named: its pid given to another
    since), or unreadable or empty (past the moment a save takes to write its process in). A crashed save's lock had
    blocked every save and rename for ten minutes, each waiting 30 s to say another set was being saved (a change
    review), and still did where the system had given the crashed save's pid to another process."""
    try:
        st = lock.stat()
    except FileNotFoundError:
        return False  # ended meanwhile: try again
    except OSError:
        return True
    age = time.time() - st.st_mtime
    if age > STALE_SAVE_S:
        return True
    try:
        text = lock.read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return False
    except (OSError, UnicodeDecodeError):
        return True
    if not text:
        return age > _EMPTY_LOCK_S
    fields = text.split()
    if not 1 <= len(fields) <= 2 or not all(f.isdigit() for f in fields):
        return True
    pid = int(fields[0])
    if not _running(pid):
        return True
    return len(fields) == 2 and _started(pid) not in (None, fields[1])  # (None: it cannot be told: running)


@contextlib.contextmanager
def saving() -> Iterator[None]:
    """Hold the calibration folder's save lock (``.saving.lock``, made with ``O_EXCL``) while a save looks at the sets
    saved and writes its own, waiting up to :data:`SAVE_WAIT_S` for another save: two saves of one new name at once
    had both said they saved it, one silently replacing the other past ``--replace`` and the "never fewer kinds" guard
    (a calibration review). One lock for the folder: names that differ only in case or width are one file on a Mac's
    or Windows' disk."""
    folder = calibration_dir()
    make_folder(folder)
    lock = folder / ".saving.lock"
    deadline = time.monotonic() + SAVE_WAIT_S
    while True:
        try:
            fd = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            break
        except FileExistsError:
            if _lock_left(lock):  # a crashed save's
                with contextlib.suppress(OSError):
                    lock.unlink(missing_ok=True)
                    continue
            if time.monotonic() > deadline:
                raise CalibrationError("another tile set is being saved or renamed: try again in a moment / "
                                       "另一副牌組正在儲存或改名：請稍後再試") from None
            time.sleep(0.05)
    try:
        with contextlib.suppress(OSError):
            os.write(fd, _lock_text().encode())
        os.close(fd)
        yield
    finally:
        with contextlib.suppress(OSError):
            lock.unlink(missing_ok=True)


def load(name: str) -> Calibration:
    p = _path(name)
    if not p.is_file():
        known = ", ".join(list_sets())
        raise CalibrationError(f"no calibration named “{name}” (known: {known or 'none'}) / "
                               f"找不到名為「{name}」的校正牌組（現有：{known or '無'}）")
    try:
        with np.load(p, allow_pickle=False) as z:
            codes = [str(c) for c in z["tiles"]]
            crops = z["crops"]
    except OSError as e:  # the file is there but cannot be read now: not said damaged (a change review)
        from companion.rules.profiles import os_error_zh

        why, why_zh = e.strerror or type(e).__name__, os_error_zh(e)
        raise UnreadableCalibration(f"calibration “{name}” at {p} cannot be read: {why} / "
                                    f"無法讀取校正牌組「{name}」（{p}）：{why_zh}", why, why_zh) from e
    except (KeyError, ValueError, TypeError, EOFError, zipfile.BadZipFile, zlib.error) as e:
        # (not the decoder's words: numpy's told a player to load the file "unsafely" (a review))
        raise DamagedCalibration(f"calibration “{name}” at {p} is damaged ({type(e).__name__}): {_CARRY_ON} / "
                                 f"校正牌組「{name}」（{p}）{_DAMAGED}") from e
    try:
        tiles = tuple(Tile.from_code(c) for c in codes)
    except ValueError as e:  # a kind a later version knows
        why = "it holds a tile this version does not know, maybe saved by a newer version"
        why_zh = "裡面有這個版本不認得的牌，可能是較新版本存的"
        raise UnreadableCalibration(f"calibration “{name}” at {p} cannot be read: {why}: update companion, or "
                                    f"{_CARRY_ON} / 無法讀取校正牌組「{name}」（{p}）：{why_zh}：請更新程式，或重新校正這副牌",
                                    why, why_zh) from e
    if crops.dtype != np.uint8 or crops.ndim != 4 or crops.shape[3] != 3 or len(crops) != len(tiles) or not tiles:
        raise DamagedCalibration(f"calibration “{name}” at {p} is damaged (crops {crops.shape}): {_CARRY_ON} / "
                                 f"校正牌組「{name}」（{p}）{_DAMAGED}")
    return Calibration(name, tiles, crops, p)


def rename(old: str, new: str) -> bool:
    """Call the set ``old`` ``new``: its file, its fitted weights (their key is the crops and the model, not the
    name) and the selection go with it; False where ``new`` is ``old`` (nothing to do). Refused, naming it, where
    ``old`` is not saved or ``new`` cannot name a new set or names one saved (in any case or width, but ``old``
    itself). A set whose file is damaged is renamed as well: its file is not read."""
    with saving():
        saved = list_sets()
        if old not in saved:
            known = ", ".join(saved)
            raise CalibrationError(f"no calibration named “{old}” (known: {known or 'none'}) / "
                                   f"找不到名為「{old}」的校正牌組（現有：{known or '無'}）")
        if new == old:  # (it was refused as "a set named … is saved already: rename or delete it first": a review)
            return False
        check_name(new)
        twin = twin_of(new, saved)
        if new in saved or (twin is not None and twin != old):
            taken = new if new in saved else twin
            raise CalibrationError(f"a set named “{taken}” is saved already: rename or delete it first, or choose "
                                   f"another name / 已經有名為「{taken}」的牌組：請先改名或刪除它，或換一個名稱")
        was = selected()
        src, dst = _path(old), _path(new, new=True)
        try:
            os.replace(src, dst)
        except OSError as e:
            from companion.rules.profiles import os_error_zh

            raise CalibrationError(f"cannot rename “{old}”: {e.strerror or e} / 無法改名「{old}」（{os_error_zh(e)}）") from e
        for fit in fit_files(src.parent, old):  # a cache left behind is only refitted
            with contextlib.suppress(OSError):
                fit.replace(dst.with_name(new + fit.name[len(old):]))
        if was == old:  # (not select(): it reads the file, and a damaged one's rename was said failed, done)
            _write_selection(new)
    return True


def list_sets() -> list[str]:
    d = calibration_dir()
    if not d.is_dir():
        return []
    # (files only: a folder named like a set was listed, then "no calibration named" it; a Mac's disk may give the
    # names decomposed)
    names = (unicodedata.normalize("NFC", p.stem) for p in d.glob("*.npz") if p.is_file())
    return sorted(n for n in names if _NAME.fullmatch(n))


def select(name: str) -> None:
    """Make ``name`` the calibration used by default."""
    load(name)
    _write_selection(name)


def _write_selection(name: str) -> None:
    p = calibration_dir() / "current.txt"
    try:
        write_atomic(p, (name + "\n").encode("utf-8"))
    except OSError as e:
        from companion.rules.profiles import os_error_zh

        raise CalibrationError(f"cannot select “{name}”: cannot write {p}: {e.strerror or e} / "
                               f"無法選用「{name}」：無法寫入設定檔 {p}（{os_error_zh(e)}）") from e


def deselect() -> None:
    """Select no set: the trained model reads alone."""
    with contextlib.suppress(FileNotFoundError):
        (calibration_dir() / "current.txt").unlink()


def _named() -> str | None:
    """The name ``current.txt`` holds, saved set or not; None when there is none or it cannot be read (logged)."""
    p = calibration_dir() / "current.txt"
    try:
        if not p.is_file():
            return None
        return unicodedata.normalize("NFC", p.read_text(encoding="utf-8").strip()) or None
    except (OSError, UnicodeDecodeError) as bad:
        if p not in _SAID_UNREADABLE:  # once a run (the commands ask for the selection more than once)
            _SAID_UNREADABLE.add(p)
            log.warning("the selected tile set cannot be read from %s (%s): select a set again to mend it / "
                        "無法讀取選用牌組的設定檔 %s：重新選用一組牌就會修好", p, bad, p)
        return None


_SAID_UNREADABLE: set[Path] = set()
"""The ``current.txt`` files an unreadable selection was said of (a review saw the warning twice, in English only)."""


def selected() -> str | None:
    """The selected set's name; None when none is selected, or when ``current.txt`` names no saved set or cannot
    be read (a damaged or foreign file must not stop every reading: it is logged, and selecting a set mends it)."""
    name = _named()
    return name if name in list_sets() else None


def selection_gone() -> str | None:
    """The set ``current.txt`` selects when no saved set has that name (its file was removed or renamed outside
    the product: ``delete`` deselects what it deletes), so the commands and the app can say that the set the
    player chose is gone instead of only that none is selected; None otherwise."""
    name = _named()
    return name if name is not None and _NAME.fullmatch(name) and name not in list_sets() else None


def chosen(name: str | None = None, enabled: bool = True) -> Calibration | None:
    """The calibration a command should use: ``name`` if given, else the selected one; none if disabled."""
    if not enabled:
        return None
    name = name or selected()
    return load(name) if name else None


def delete(name: str) -> None:
    p = _path(name)
    if not p.is_file():
        raise CalibrationError(f"no calibration named “{name}” / 找不到名為「{name}」的校正牌組")
    try:
        p.unlink()
    except OSError as e:
        raise CalibrationError(f"cannot delete “{name}”: {p}: {e.strerror or e} / 無法刪除「{name}」") from e
    for fit in fit_files(p.parent, name):  # caches: one left behind is harmless
        with contextlib.suppress(OSError):
            fit.unlink(missing_ok=True)
    if selected() is None:
        with contextlib.suppress(OSError):
            (calibration_dir() / "current.txt").unlink(missing_ok=True)
