"""Finding tiles: the packaged ONNX tile detector on a frame or photo.

The image is scaled so its longer side is ``long_side`` pixels (from the model's metadata; 640: a
1280x720 table frame is read at 640x360, where its tiles are 12-30 px wide, and a phone photo's tiles of
60-400 px land in the 20-110 px the model was trained on), padded to a multiple of 32, and run once.
Each peak of the heat map is a tile: centre, width, height, angle of its "up" direction and whether it
lies face up; angles are then snapped to the tiles' edges and turned by the orientation network, and
face-down boxes are kept only where the back check finds a tile (:mod:`companion.vision.backs`). Boxes
come back in the input image's pixels. Photos can also be read in a second pass at twice the scale in
overlapping windows (:meth:`TileDetector.detect_tiled`), for tiles too small for one.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import warnings
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

from companion.vision.backs import BackChecker
from companion.vision.image_file import too_small
from companion.vision.orient import TileOrienter
from companion.vision.runtime import model_session, shipped_model

__all__ = ["Boxes", "TileDetector", "DetectorError", "decode", "letterbox", "default_model_path", "model_sha256"]

MODEL_NAME = "tile_detector.onnx"


_FACES_LOCK = threading.Lock()


def _new_faces_lock() -> None:  # a child forked while another thread held the lock would never see it freed
    global _FACES_LOCK
    _FACES_LOCK = threading.Lock()


os.register_at_fork(after_in_child=_new_faces_lock)


class DetectorError(ValueError):
    """The detector model is missing or does not describe itself, or a setting or an image it cannot take; the
    message names it and says it in English and Traditional Chinese (``English / 中文``)."""


@dataclass(frozen=True, slots=True)
class Boxes:
    """Oriented tile boxes as parallel arrays: ``obb`` N x 5 (cx, cy, w, h, angle degrees counter-
    clockwise of the tile's up from image up), ``face_up`` N bool, ``score`` N float32."""

    obb: np.ndarray
    face_up: np.ndarray
    score: np.ndarray

    def __post_init__(self) -> None:
        n = len(self.score)
        if self.obb.shape != (n, 5) or self.face_up.shape != (n,) or self.score.shape != (n,):
            raise ValueError(f"box arrays disagree: obb {self.obb.shape}, face_up {self.face_up.shape}, "
                             f"score {self.score.shape} / 方框陣列的形狀不一致：obb {self.obb.shape}、"
                             f"face_up {self.face_up.shape}、score {self.score.shape}")
        if self.face_up.dtype != np.bool_:
            raise ValueError(f"face_up must be bool, got {self.face_up.dtype} / "
                             f"face_up 須為布林值，收到 {self.face_up.dtype}")

    def __len__(self) -> int:
        return len(self.score)

    @staticmethod
    def empty() -> Boxes:
        return Boxes(np.zeros((0, 5), np.float32), np.zeros(0, bool), np.zeros(0, np.float32))


def default_model_path() -> Path:
    """The detector shipped in the package (``companion/models``), else the repository's ``models/``."""
    return shipped_model(MODEL_NAME)


def model_sha256(path: Path) -> str:
    """The first 16 hex digits of the SHA-256 of a model file (how a back check names its detector)."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


INPUT_MULTIPLE = 32
"""The detector's input sides are multiples of this (its stride 32; the shipped graph upsamples by a constant 2x
between strides, which needs it)."""


def letterbox(image: np.ndarray, long_side: int, multiple: int = INPUT_MULTIPLE,
              fill: int = 114) -> tuple[np.ndarray, float]:
    """Scale ``image`` so its longer side is ``long_side`` and pad right/bottom to a multiple of
    ``multiple``; returns the padded image and the scale (network pixels per image pixel)."""
    h, w = image.shape[:2]
    scale = long_side / max(h, w)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    small = cv2.resize(image, (nw, nh), interpolation=interp) if (nw, nh) != (w, h) else image
    ph, pw = -(-nh // multiple) * multiple, -(-nw // multiple) * multiple
    ph, pw = max(ph, 2 * multiple), max(pw, 2 * multiple)
    out = np.full((ph, pw, 3), fill, np.uint8)
    out[:nh, :nw] = small
    return out, scale


def decode(peaks: np.ndarray, reg: np.ndarray, stride: int, threshold: float | tuple[float, float],
           max_det: int = 400, suppress: bool = True) -> Boxes:
    """Peaks (2 x h x w, already max-filtered) and regressions (6 x h x w) -> boxes in network pixels.
    ``threshold``: one score for both channels, or (face up, face down). ``suppress``: drop overlapping
    boxes (:func:`_suppress_overlaps`)."""
    th = np.broadcast_to(np.asarray(threshold, np.float32), (2,))
    cls, ys, xs = np.nonzero(peaks > th[:, None, None])
    if len(ys) == 0:
        return Boxes.empty()
    score = peaks[cls, ys, xs]
    if len(score) > max_det:
        keep = np.argsort(-score)[:max_det]
        cls, ys, xs, score = cls[keep], ys[keep], xs[keep], score[keep]
    r = reg[:, ys, xs]
    cx = (xs + r[0]) * stride
    cy = (ys + r[1]) * stride
    bw = np.exp(np.clip(r[2], -3, 6)) * stride
    bh = np.exp(np.clip(r[3], -3, 6)) * stride
    angle = np.degrees(np.arctan2(r[5], r[4]))
    obb = np.stack([cx, cy, bw, bh, angle], axis=1).astype(np.float32)
    boxes = Boxes(obb, cls == 0, score.astype(np.float32))
    return _suppress_overlaps(boxes) if suppress else boxes


def _clash(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``len(a) x len(b)``: whether the centres of two boxes lie near enough to be one tile (within 0.35 of the
    smaller of the two boxes' shorter sides on both axes)."""
    r = 0.35 * np.minimum(a[:, None, 2:4].min(axis=2), b[None, :, 2:4].min(axis=2))
    return (np.abs(a[:, None, 0] - b[None, :, 0]) < r) & (np.abs(a[:, None, 1] - b[None, :, 1]) < r)


def _clashes(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Bool mask over the boxes ``a``: those near one of ``b`` (:func:`_clash`)."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros(len(a), bool)
    return np.asarray(_clash(a, b).any(axis=1))


def _suppress_overlaps(b: Boxes) -> Boxes:
    """Drop a box whose centre lies near a higher-scoring box's centre (one tile found as face up and
    face down, or twice; :func:`_clash`). Greedy in score order, on a clash matrix (a symmetric relation, so
    marking every box a kept one clashes with is the same as checking each box against those kept before
    it)."""
    if len(b) < 2:
        return b
    idx = _survivors(b)
    return Boxes(b.obb[idx], b.face_up[idx], b.score[idx])


def _survivors(b: Boxes) -> np.ndarray:
    """The rows of ``b`` that :func:`_suppress_overlaps` keeps, in order."""
    n = len(b)
    if n < 2:
        return np.arange(n)
    order = np.argsort(-b.score, kind="stable")
    obb = b.obb[order]
    clash = _clash(obb, obb)
    dropped = np.zeros(n, bool)
    for i in range(n):
        if not dropped[i]:
            dropped[i + 1:] |= clash[i, i + 1:]
    return np.sort(order[~dropped])


def _a_score(value: float) -> bool:
    """Whether ``value`` is a number above 0 and at most 1 (a detector score a threshold can be; NaN is not)."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        return False
    return 0 < v <= 1


class TileDetector:
    """The ONNX tile detector with one thread pool whose threads spin only while a run lasts (so it shares 2
    cores well with the other models' sessions: :func:`companion.vision.runtime.cpu_session`)."""

    def __init__(self, path: str | Path | None = None, threads: int = 2, threshold: float | None = None,
                 snap: bool = True, orient: str | Path | bool | None = True,
                 backs: str | Path | bool | None = True, rows: bool = True, weak: float | None = None,
                 holes: bool = True, check_threads: int | None = None) -> None:
        """``snap``: turn each box's angle to the nearest direction of the tile's own edges
        (:func:`snap_angles`). ``orient``: then let the orientation network
        (:class:`companion.vision.orient.TileOrienter`; a path for another model, ``False`` for none) turn
        each face-up box by the quarter turns it finds missing; ``None`` as ``True``). The orientation network
        runs on one thread: it reads a few dozen 32x32 squares, and a second thread only costs waking it.
        ``backs``: the back check (:class:`companion.vision.backs.BackChecker`; a path for another model,
        ``False`` for none) drops the face-down boxes where it finds no tile; face-down peaks are then kept
        down to its ``candidates`` score whatever ``threshold`` is (the check, not the score, decides them),
        face-up ones down to ``threshold``. Without it both use ``threshold`` (``down_threshold`` holds the
        face-down one). A check trained on another detector's boxes is used with a warning. ``rows`` (with
        the check): weaker face-down peaks that continue a row of kept backs are kept too (:meth:`_checked`).
        ``weak``: face-up peaks down to this score are kept too, for a caller that asks more of them than of the
        peaks at ``threshold`` (:class:`companion.vision.read.TileReader` asks the classifier to be sure); until
        then they yield to any other box of the same tile. It is a floor of its own: with a ``threshold`` above
        it, the peaks between the two are weak ones. The check runs on
        the detector's ``threads``: its 48x48 squares (about 40 in a busy frame) took 5.8 ms on one thread and
        5.2 on two, and a busy frame's read 26.7 against 25.8 ms (interleaved, one process). ``holes`` (with
        ``rows``): whole-tile holes between backs of a row are filled where the check finds a back
        (:meth:`_gaps_filled`). ``check_threads``: the back check's threads instead (:meth:`detect_read` runs it
        beside the face-up boxes' work, one thread each). A ``threshold`` not above 0 and at most 1 (the
        scores' range: above 1 no tile is found, at 0 every peak is one) is a :class:`DetectorError`."""
        if threshold is not None and not _a_score(threshold):
            raise DetectorError(f"threshold must be above 0 and at most 1, got {threshold} / "
                                f"threshold 須大於 0 且不超過 1，收到 {threshold}")
        self.snap = snap
        self.rows = rows
        self.holes = holes
        self.weak = weak
        self.orienter = None if orient is False else \
            TileOrienter(None if orient is True or orient is None else Path(orient), threads=1)
        self.backs = None if backs is False else \
            BackChecker(None if backs is True or backs is None else Path(backs),
                        threads=threads if check_threads is None else check_threads)
        self._faces: tuple[int, ThreadPoolExecutor] | None = None  # (process id, executor): see _faces_thread
        self.path, self.session = model_session(Path(path) if path is not None else None, default_model_path,
                                                threads, DetectorError, "tile detector model", spin=threads > 1)
        meta = self.session.get_modelmeta().custom_metadata_map
        try:
            self.long_side = int(meta["long_side"])
            self.stride = int(meta["stride"])
            self.classes = tuple(json.loads(meta["classes"]))
            self.threshold = float(threshold if threshold is not None else meta["threshold"])
        except (KeyError, ValueError, TypeError) as e:
            raise DetectorError(f"{self.path} lacks detector metadata ({e}) / "
                                f"{self.path.name} 缺少偵測模型的中繼資料（{e}）") from e
        self.input_name = self.session.get_inputs()[0].name
        self.down_threshold = self.threshold if self.backs is None else self.backs.candidates
        if self.backs is not None and self.backs.detector_sha256 not in ("", *self.sha256s()):
            warnings.warn(f"the back check {self.backs.path.name} was trained on another detector's boxes than "
                          f"{self.path.name}: its threshold may not suit this one / 牌背檢查模型 "
                          f"{self.backs.path.name} 是用 {self.path.name} 以外的偵測模型找到的方框訓練的，"
                          f"它的門檻可能不適合 {self.path.name}", stacklevel=2)

    def sha256s(self) -> tuple[str, ...]:
        """The :func:`model_sha256` of this file and, for a graph rewritten to run faster (same outputs;
        ``training.train_detector.fast_graph``), of the file it was rewritten from."""
        try:
            meta = self.session.get_modelmeta().custom_metadata_map
            before = str(json.loads(meta.get("graph_rewrite", "{}")).get("from_sha256", ""))
        except (ValueError, AttributeError) as e:
            raise DetectorError(f"{self.path} has unreadable graph_rewrite metadata ({e}) / "
                                f"{self.path.name} 的 graph_rewrite 中繼資料無法讀取（{e}）") from e
        return (model_sha256(self.path), before) if before else (model_sha256(self.path),)

    def detect(self, image: np.ndarray, long_side: int | None = None) -> Boxes:
        """Tiles in an ``HxWx3`` uint8 BGR image, boxes in its pixels."""
        net_in, scale, valid = self._letterboxed(image, long_side)
        boxes = self._run(net_in, valid)
        if len(boxes) == 0:
            return boxes
        obb = boxes.obb.copy()
        obb[:, :4] /= scale
        return Boxes(obb, boxes.face_up, boxes.score)

    def _letterboxed(self, image: np.ndarray, long_side: int | None) -> tuple[np.ndarray, float, tuple[int, int]]:
        if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
            raise DetectorError(f"expected an HxWx3 uint8 BGR image, got {image.shape} {image.dtype} / "
                                f"影像須為 HxWx3 uint8 BGR，收到 {image.shape} {image.dtype}")
        small = too_small(image.shape[1], image.shape[0])
        if small:
            raise DetectorError(f"{small[0]} / {small[1]}")
        net_in, scale = letterbox(image, long_side or self.long_side)
        return net_in, scale, (max(1, round(image.shape[0] * scale)), max(1, round(image.shape[1] * scale)))

    def detect_read(self, image: np.ndarray, read_faces: Callable[[np.ndarray], np.ndarray], width: int,
                    long_side: int | None = None) -> tuple[Boxes, np.ndarray]:
        """:meth:`detect`'s boxes and, worked out at the same time on a second thread, ``read_faces`` of the
        face-up ones: it is given every face-up proposal, oriented, in the image's pixels (``M x 5``) and
        answers a row of ``width`` numbers for each (``M x width``); the back check's first batch is shared
        the other way, the second thread reading chunks of it once it is free. Returns the boxes and ``N x width``
        float32, each face-up box's row, zeros for the face-down ones. The boxes are :meth:`detect`'s; a
        face-up proposal that does not stay (a weak one yielding to another box of its tile, one of two boxes
        of the same tile) was read for nothing.

        Why: the face-up boxes' work (the orientation network, then what the caller reads in them: the
        reader's crops and classifier) and the face-down boxes' (the back check and the rows) need nothing of
        each other, and each leaves a core idle for much of its time (numpy on one thread, small networks
        that two threads barely speed up). Side by side, with the back check, the orientation network and
        the caller's model on one thread each, the busy frames of ``benchmarks/vision.py`` read in 3-16% less
        time, most where the backs are many (models/README.md, "Faces and backs side by side")."""
        net_in, scale, valid = self._letterboxed(image, long_side)
        boxes, seen = self._proposals(net_in, valid)
        up = np.nonzero(boxes.face_up)[0]

        def faces() -> tuple[np.ndarray, np.ndarray]:
            obb = boxes.obb[up]
            obb = self.orienter.turn(seen, obb, np.ones(len(up), bool)) if self.orienter is not None else obb.copy()
            obb[:, :4] /= scale
            return obb, np.asarray(read_faces(obb), np.float32)

        helper = self._faces_thread()
        job = helper.submit(faces) if len(up) else None
        try:
            kept, src = self._settled(seen, boxes, helper) if len(boxes) else \
                (boxes, np.zeros(0, np.int64))
        finally:
            if job is not None:
                wait([job])  # never left running: the next frame's work would meet it
        turned, read = job.result() if job is not None else (np.zeros((0, 5), np.float32),
                                                              np.zeros((0, width), np.float32))
        if read.shape != (len(up), width):
            raise DetectorError(f"read_faces answered {read.shape} for {len(up)} face-up boxes, not "
                                f"{len(up)} x {width} / read_faces 為 {len(up)} 個正面朝上的方框回傳了 "
                                f"{read.shape}，應為 {len(up)} x {width}")
        obb = kept.obb.copy()
        obb[:, :4] /= scale
        out = np.zeros((len(kept), width), np.float32)
        row_of = np.full(len(boxes), -1, np.int64)
        row_of[up] = np.arange(len(up))
        faces_kept = np.nonzero(kept.face_up)[0]
        rows = row_of[src[faces_kept]]
        obb[faces_kept], out[faces_kept] = turned[rows], read[rows]
        return Boxes(obb, kept.face_up, kept.score), out

    def _faces_thread(self) -> ThreadPoolExecutor:
        """The one thread :meth:`detect_read` gives the face-up boxes' work. A process forked from one that had
        it inherits the executor but not its thread (the work would wait for ever): it gets its own."""
        with _FACES_LOCK:
            if self._faces is None or self._faces[0] != os.getpid():
                self._faces = (os.getpid(), ThreadPoolExecutor(1, thread_name_prefix="faces"))
            return self._faces[1]

    def _run(self, net_in: np.ndarray, valid: tuple[int, int]) -> Boxes:
        """Boxes in ``net_in`` (letterboxed); ``valid``: the (h, w) of the image in it, without the padding,
        whose straight edge would pull snapped angles and show in the orientation network's squares."""
        boxes, seen = self._proposals(net_in, valid)
        if len(boxes) == 0:
            return boxes
        boxes, _ = self._settled(seen, boxes)
        if self.orienter is not None and len(boxes):
            boxes = Boxes(self.orienter.turn(seen, boxes.obb, boxes.face_up), boxes.face_up, boxes.score)
        return boxes

    def _proposals(self, net_in: np.ndarray, valid: tuple[int, int]) -> tuple[Boxes, np.ndarray]:
        """The network's peaks in ``net_in`` as boxes (angles snapped), before any check, and ``seen``: the
        image part of ``net_in`` (:meth:`_run`)."""
        if net_in.shape[0] % INPUT_MULTIPLE or net_in.shape[1] % INPUT_MULTIPLE:
            raise DetectorError(f"the detector's input must have sides that are multiples of {INPUT_MULTIPLE}, "
                                f"got {net_in.shape[1]}x{net_in.shape[0]} / 偵測模型輸入影像的邊長須為 "
                                f"{INPUT_MULTIPLE} 的倍數，收到 {net_in.shape[1]}x{net_in.shape[0]}")
        blob = np.empty((1, 3, *net_in.shape[:2]), np.float32)  # HWC -> NCHW by planes: half numpy's time
        for c, plane in enumerate(cv2.split(net_in)):
            blob[0, c] = plane
        peaks, reg = self.session.run(None, {self.input_name: blob})
        floor = self.down_threshold if self.backs is None or not self.rows else min(self.down_threshold, ROW_FLOOR)
        up = self.threshold if self.weak is None else min(self.threshold, self.weak)
        boxes = decode(peaks[0], reg[0], self.stride, (up, floor), suppress=False)
        seen = net_in[:valid[0], :valid[1]]
        if self.snap and len(boxes):
            boxes = Boxes(snap_angles(seen, boxes.obb), boxes.face_up, boxes.score)
        return boxes, seen

    def _settled(self, seen: np.ndarray, boxes: Boxes, helper: Executor | None = None) -> tuple[Boxes, np.ndarray]:
        """The proposals that stay once checked (:meth:`_checked`), weak ones yielding and overlaps suppressed,
        not yet oriented; and for each its row in ``boxes`` (-1: a box added where a row had a hole, always
        face down). Every face-up box that stays is a row of ``boxes`` as it was. ``helper``: a thread that
        shares the back check's first batch once it is free (:meth:`BackChecker.probabilities`)."""
        src = np.arange(len(boxes))
        if self.backs is not None and len(boxes):
            # checked before overlaps are suppressed: a face-down box the check drops must not take a face-up
            # box of the same tile with it
            boxes, src = self._checked(seen, boxes, helper)
        if self.weak is not None and len(boxes):
            # a weak face-up peak has yet to be vouched for (by the reader's classifier): it must not take
            # another box of the same tile with it
            weak = self.weak_boxes(boxes)
            keep = np.ones(len(boxes), bool)
            keep[weak] = ~_clashes(boxes.obb[weak], boxes.obb[~weak])
            boxes, src = Boxes(boxes.obb[keep], boxes.face_up[keep], boxes.score[keep]), src[keep]
        idx = _survivors(boxes)
        return Boxes(boxes.obb[idx], boxes.face_up[idx], boxes.score[idx]), src[idx]

    def weak_boxes(self, boxes: Boxes) -> np.ndarray:
        """Bool mask over ``boxes``: the face-up ones under ``threshold``, which only ``weak`` lets through."""
        return np.asarray(boxes.face_up & (boxes.score < self.threshold))

    def _checked(self, seen: np.ndarray, boxes: Boxes, helper: Executor | None = None) -> tuple[Boxes, np.ndarray]:
        """The boxes that stay: every face-up box; the face-down peaks at or above the check's ``candidates``
        score that the back check passes; and, with ``rows``, the other face-down peaks down to
        :data:`ROW_FLOOR` (weaker ones, and those the check doubted) that lie next to a kept back as the next
        tile of its row does (:func:`row_support`), that the check gives at least :data:`ROW_CHECK`, and that
        no kept face-up box claims (a face-up tile in line with backs, such as a concealed kong's middle tile,
        stays a face), in rounds, so a row grows from its surest tiles. A row may also start without a sure
        tile: two peaks at or above ``candidates`` that the check doubted (under its ``threshold``) but gives at
        least :data:`ROW_CHECK`, next to each other as the tiles of a row lie, are both kept (a standing hand
        seen from behind is such a row, and often not one of its outlines passes the check at 0.9). With
        ``holes`` too, new boxes are added for whole tiles missing between backs of a row (:meth:`_gaps_filled`).
        With ``rows``, every face-down peak is checked in the first batch, and a weak one (under ``candidates``)
        that the check gives :data:`WEAK_BACK_SURE` stays without a row (where no kept face-up box claims it).

        Why: a wall, a face-down row or a standing row is a line of equal boxes at one pitch. The detector's
        score and the check judge each box alone, and on the validation frames (seed 7) the reader left out
        more than half of the standing tiles and one wall top in eight that the detector had found. A box in
        line with a kept back, of its size and angle, one width from it, is very likely the next tile: of the
        75 boxes the reader gave on seed 7 that it had not given before, 63 lay on a tile at IoU 0.5 and 9 on a
        standing tile at IoU 0.29-0.48 (the detector draws its outline smaller than its label); 3 were squares
        of a checkered cloth the colour rule then let through (``models/README.md``, "Rows completed"). The row
        runs along the boxes' width only: along their height too, a green phone lying beside a green wall on
        seed 777 was taken for the next tile. It cost the busy frame about 1 ms when only the weak peaks a row
        supported were checked, in a second batch; all of them in the first batch (shared with the face-up
        boxes' thread) cost nothing measurable more (models/README.md, "Weak backs the check is sure of").
        The pairs: on the validation seeds 7, 11, 13 and 777, recall +0.9 / +0.9 / +0.8 / +0.7 points for
        3 / 3 / 8 / 7 more false boxes, no distractor more; a pair of doubted backs needing a third in line found
        less than half of that (models/README.md, "Rows started by a pair"); so did weak peaks (0.3-0.45) in
        pairs too, for about one false box a tile gained ("Weak pairs, measured").

        Returns the boxes that stay and, for each, its row in ``boxes`` (-1: a box added for a hole, after the
        others). ``helper``: a thread that shares the first batch of the check (:meth:`BackChecker.probabilities`)."""
        assert self.backs is not None
        strong = boxes.face_up | (boxes.score >= self.down_threshold)
        keep = np.ones(len(boxes), bool)
        prob = np.full(len(boxes), np.nan, np.float32)
        down = np.nonzero(strong & ~boxes.face_up)[0]
        # with rows, the weak face-down peaks too, in the same batch: rows and sure weak backs need them
        asked = np.nonzero(~boxes.face_up)[0] if self.rows else down
        if len(asked):
            prob[asked] = self.backs.probabilities(seen, boxes.obb[asked], helper)
            keep[down] = prob[down] >= self.backs.threshold
        keep[~strong] = False
        if not self.rows:
            return Boxes(boxes.obb[keep], boxes.face_up[keep], boxes.score[keep]), np.nonzero(keep)[0]
        sure = np.nonzero(~strong & (prob >= WEAK_BACK_SURE))[0]  # weak peaks the check is sure of
        if len(sure):
            keep[sure[~_clashes(boxes.obb[sure], boxes.obb[keep & boxes.face_up])]] = True
        doubted = down[~keep[down] & (prob[down] >= ROW_CHECK)]
        if len(doubted) >= 2:  # two doubted backs side by side start a row of their own
            doubted = doubted[~_clashes(boxes.obb[doubted], boxes.obb[keep & boxes.face_up])]
            pair = row_pairs(boxes.obb[doubted], boxes.obb[doubted])
            keep[doubted[pair.any(axis=0) | pair.any(axis=1)]] = True  # both ends, whichever way it was measured
        for _ in range(ROW_ROUNDS):
            kept_down = boxes.obb[keep & ~boxes.face_up]
            open_ = np.nonzero(~keep & ~boxes.face_up)[0]
            if len(kept_down) == 0 or len(open_) == 0:
                break
            near = open_[row_support(boxes.obb[open_], kept_down)]
            near = near[~_clashes(boxes.obb[near], boxes.obb[keep & boxes.face_up])]
            if len(near) == 0:
                break
            grow = near[prob[near] >= ROW_CHECK]
            if len(grow) == 0:
                break
            keep[grow] = True
        out = Boxes(boxes.obb[keep], boxes.face_up[keep], boxes.score[keep])
        src = np.nonzero(keep)[0]
        if not self.holes:
            return out, src
        filled = self._gaps_filled(seen, out)  # the boxes added for holes come after the kept ones
        return filled, np.concatenate([src, np.full(len(filled) - len(out), -1, src.dtype)])

    def _gaps_filled(self, seen: np.ndarray, kept: Boxes) -> Boxes:
        """``kept`` and, where two of its backs lie in a row a whole number of tiles apart
        (:func:`row_gaps`), a box for each tile between them that the back check passes as it passes a lone
        back (its ``threshold``, 0.9) and no kept box already holds; its score is the lower of the check's
        probability and its row's weaker end.

        Why: a wall or a player's row seldom has holes, but the detector gives no peak at all (not even at
        :data:`ROW_FLOOR`) to some of its tiles, most of them standing tiles seen from behind, whose outline
        is a thin sliver: on 40 validation frames (seed 7) 35 of the 162 visible standing tiles the reader
        missed lay between two it had found in their row. Filling those holes: recall +1.7 / +0.5 / +0.6 /
        +0.5 points on the validation seeds 7, 11, 13 and 777 for 2 / 1 / 0 / 3 more false boxes, no distractor
        more. A player may leave a real hole (a drawn tile set apart): with the middle standing tile taken out of
        each row of 160 held-out frames (``benchmarks/row_holes.py``), the reader put a box in 5 of the 139 holes,
        none without filling; with the check at 0.5 instead, about twice as many, for 0.3 points more recall
        (models/README.md, "Holes in a row filled")."""
        assert self.backs is not None
        down = np.nonzero(~kept.face_up)[0]
        new, ends = row_gaps(kept.obb[down])
        if len(new):
            # a weak face-up peak yields to any other box of its tile (``_run``), so it holds no place here
            held = kept.obb[~self.weak_boxes(kept)] if self.weak is not None else kept.obb
            free = ~_clashes(new, held) & ~_overlapping(new, held).any(axis=1)
            new, ends = new[free], ends[free]
        if len(new) == 0:
            return kept
        prob = self.backs.probabilities(seen, new)
        take = prob >= self.backs.threshold
        if not take.any():
            return kept
        score = np.minimum(prob[take], kept.score[down][ends[take]].min(axis=1)).astype(np.float32)
        face_up = np.concatenate([kept.face_up, np.zeros(int(take.sum()), bool)])
        return Boxes(np.concatenate([kept.obb, new[take]]), face_up, np.concatenate([kept.score, score]))

    def detect_tiled(self, image: np.ndarray, long_side: int | None = None, zoom: float = 2.0,
                     overlap: int = 160) -> Boxes:
        """Photos: the whole image at ``long_side`` (big tiles) and again at ``zoom`` times that scale
        (never above the photo's own pixels) cut into overlapping ``long_side`` windows, so tiles too small
        for the first pass are seen at a size the model knows. A box touching an inner window edge is left
        to the neighbouring window that holds it whole; where passes find the same tile, the surer box
        stays (:func:`_merge_passes`); tiny boxes of the zoomed pass are dropped (:data:`SPECK`)."""
        side = long_side or self.long_side
        first = self._with_big_tiles(image, self.detect(image, side), side)
        h, w = image.shape[:2]
        scale = min(1.0, zoom * side / max(h, w))
        if scale * max(h, w) < 1.25 * side:
            return first
        interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        big = cv2.resize(image, (round(w * scale), round(h * scale)), interpolation=interp) if scale < 1 else image
        parts = [first]
        for y0, x0 in _windows(big.shape[:2], side, overlap):
            win = big[y0:y0 + side, x0:x0 + side]
            net_in, _ = letterbox(win, max(win.shape[:2]))
            b = self._run(net_in, (win.shape[0], win.shape[1]))
            if len(b) == 0:
                continue
            edge = _touches_inner_edge(b.obb, (y0, x0), win.shape[:2], big.shape[:2])
            obb = b.obb[~edge].copy()
            obb[:, 0] += x0
            obb[:, 1] += y0
            obb[:, :4] /= scale
            parts.append(Boxes(obb, b.face_up[~edge], b.score[~edge]))
        zoomed = _drop_specks(_concat(parts[1:]), first)
        return _inside_big_dropped(_merge_passes(_concat([first, zoomed])), h, w)

    def _with_big_tiles(self, image: np.ndarray, first: Boxes, side: int) -> Boxes:
        """``first`` (the whole image at ``side``) with the tiles too big for that scale found at a third of it
        (:data:`BIG_SHRINK`): a close-up photo of one or two tiles, a tile half the photo's height or more, is
        bigger than any tile the network learnt, and at ``side`` it boxed a stroke or the dots of the face, never
        the tile (a review's 發 read as a sure 1s, a 9p as nine 5z, a 白板 not found). A box of the shrunk pass
        stays only when it is big (:data:`BIG_TILE`) and sure (the detector's threshold), and ``first`` has no
        box of that tile near its size; the boxes inside it that are much smaller go (parts of its face). Photos
        whose tiles are all smaller find no such box, and read as before; the pass costs a ninth of the first."""
        h, w = image.shape[:2]
        coarse = self.detect(image, max(INPUT_MULTIPLE, round(side * BIG_SHRINK)))
        big = (coarse.obb[:, 2:4].max(axis=1) >= BIG_TILE * max(h, w)) & (coarse.score >= self.threshold) \
            if len(coarse) else np.zeros(0, bool)
        if not big.any():
            return first
        large = _merge_passes(Boxes(coarse.obb[big], coarse.face_up[big], coarse.score[big]))  # one box a tile
        kept = [i for i in range(len(large))  # a tile the first pass boxed whole keeps its box
                if not any(_same_tile(large.obb[i], b) and max(b[2], b[3]) >= INNER * max(large.obb[i, 2:4])
                           for b in first.obb)]
        if not kept:
            return first
        idx = np.array(kept, np.int64)
        return _inside_big_dropped(_concat([first, Boxes(large.obb[idx], large.face_up[idx], large.score[idx])]),
                                   h, w)


ROW_FLOOR = 0.3
"""Row completion (:meth:`TileDetector._checked`): a face-down peak down to this score ..."""
ROW_CHECK = 0.5
"""... that the back check gives at least this probability is kept where it continues a row of kept face-down
boxes (:func:`row_support`) ..."""
ROW_ROUNDS = 3
"""... in up to this many rounds (each can extend a row by a tile at each end)."""
WEAK_BACK_SURE = 0.97
"""A face-down peak under the check's ``candidates`` score (down to :data:`ROW_FLOOR`) that no row supports is kept
where the back check gives it at least this (:meth:`TileDetector._checked`): the peak is weak, the check sure. On
the validation seeds 7, 11 and 13 (40 scenes each) 0.99 / 0.97 / 0.95 / 0.9 read 13 / 19 / 22 / 27 tiles more
right for 0 / 0 / 1 / 1 false boxes more; on 777, 31, 57 and 2024, not chosen on, 0.97 read 28 more for 3, no
distractor more (models/README.md, "Weak backs the check is sure of")."""
ROW_PITCH = (0.65, 1.25)
"""A neighbour in a row lies this many of its box widths along its width axis (less than one: a standing tile
seen at a slant is boxed by its outline, top and back, wider than the row's pitch; from 0.8 to 0.65 on the
validation seeds 7, 11, 13 and 777: +1 / +1 / +10 / +10 tiles read right for +2 / +2 / -2 / -2 false boxes,
no distractor more; on seeds 31 and 57, not chosen on, +10 / +6 for +3 / +4) ..."""
ROW_ACROSS = 0.3
"""... within this share of its height across it ..."""
ROW_SIZE = 1.33
"""... is within this ratio of the box's width and height ..."""
ROW_ANGLE = 12.0
"""... and turned the same way within this many degrees (modulo 180: a back has no up)."""


def row_support(cand: np.ndarray, kept: np.ndarray) -> np.ndarray:
    """Bool mask over ``cand`` (N x 5 boxes): those lying next to one of ``kept`` (M x 5) as the next tile of a
    row does: about one box width along the kept box's width axis, in line with it, of its size and angle.
    Walls, face-down rows and standing rows are such rows; a patch of cloth or a chip seldom sits in line
    with one at a tile's pitch."""
    return np.asarray(row_pairs(cand, kept).any(axis=1))


def row_pairs(cand: np.ndarray, kept: np.ndarray) -> np.ndarray:
    """``N x M`` bool: whether ``cand[i]`` lies next to ``kept[j]`` as :func:`row_support` asks (measured in
    ``kept[j]``'s width and axes, so not always both ways round for boxes of different sizes or angles)."""
    if len(cand) == 0 or len(kept) == 0:
        return np.zeros((len(cand), len(kept)), bool)
    line, along, _ = _in_line(cand, kept)
    x = np.abs(along)
    return np.asarray(line & (x > ROW_PITCH[0] * kept[None, :, 2]) & (x < ROW_PITCH[1] * kept[None, :, 2]))


def _in_line(cand: np.ndarray, kept: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``N x M`` each, ``cand[i]`` measured from ``kept[j]``: whether it could be a tile of ``kept[j]``'s row (its
    size within :data:`ROW_SIZE`, its angle within :data:`ROW_ANGLE` modulo 180, its centre within
    :data:`ROW_ACROSS` of ``kept[j]``'s height off the line along its width), how far along that line it lies
    (signed, in pixels), and its angle less ``kept[j]``'s (modulo 180, -90 to 90)."""
    c, k = cand[:, None, :], kept[None, :, :]
    ratio_w, ratio_h = c[..., 2] / k[..., 2], c[..., 3] / k[..., 3]
    turn = (c[..., 4] - k[..., 4] + 90) % 180 - 90
    a = np.radians(k[..., 4])
    dx, dy = c[..., 0] - k[..., 0], c[..., 1] - k[..., 1]
    along = dx * np.cos(a) - dy * np.sin(a)  # along the width axis
    across = np.abs(-dx * np.sin(a) - dy * np.cos(a))  # along the height axis
    line = ((ratio_w < ROW_SIZE) & (ratio_w > 1 / ROW_SIZE) & (ratio_h < ROW_SIZE) & (ratio_h > 1 / ROW_SIZE)
            & (np.abs(turn) <= ROW_ANGLE) & (across < ROW_ACROSS * k[..., 3]))
    return line, along, turn


GAP_TILES = 6
"""Holes in a row (:func:`row_gaps`): two backs of a row at most this many pitches apart ..."""
GAP_FIT = 0.35
"""... and within this share of a pitch of a whole number of them have their hole filled."""


def row_gaps(backs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Boxes for the tiles missing between backs of one row: for each box of ``backs`` (N x 5) and each way
    along its width axis, the nearest box in line with it (of its size and angle within :data:`ROW_SIZE` and
    :data:`ROW_ANGLE`, within :data:`ROW_ACROSS` of its height across); where that one lies ``k`` pitches away
    (``2 <= k <= GAP_TILES``, within :data:`GAP_FIT` of a whole number), ``k - 1`` boxes evenly between them,
    sized and turned between the two. The pitch is the row's own where it shows and the hole is a whole number
    of it (the mean distance from each end to its neighbour about one width away on either side); else the two
    ends' mean width. Returns the new boxes (M x 5; none two with a centre near or inside the other) and, for
    each, the indices of its two ends in ``backs`` (M x 2)."""
    n = len(backs)
    none = np.zeros((0, 5), np.float32), np.zeros((0, 2), np.int64)
    if n < 2:
        return none
    line, along, turn = _in_line(backs, backs)  # [i, j]: box i measured from box j
    width = (backs[:, None, 2] + backs[None, :, 2]) / 2
    steps = along / width
    # the row's own pitch at each box, where it has a neighbour about one width away: tiles of a row lie 0.9-1.15
    # widths apart, and over a hole of five tiles that is more than the fit allows (a standing tile's outline,
    # though, is often boxed narrower or wider than its neighbours: where the row's pitch gives no whole number
    # of tiles, the ends' width is tried)
    beside = np.where(line & (np.abs(steps) > 0.5) & (np.abs(steps) < 1.5), np.abs(along), np.inf).min(axis=0)
    pairs: list[tuple[int, int, int]] = []  # (far end i, near end j, pitches between them)
    cols = np.arange(n)
    for sign in (1.0, -1.0):
        dist = np.where(line & (sign * steps > 0.5), sign * along, np.inf)
        nearest = np.argmin(dist, axis=0)  # for each j, the nearest box in line that way
        span = dist[nearest, cols]
        measured = np.stack([beside[nearest], beside], axis=1)
        known = np.isfinite(measured)
        mean = np.where(known, measured, 0.0).sum(axis=1) / np.maximum(known.sum(axis=1), 1)
        span = np.where(np.isfinite(span), span, 0.0)  # no box in line that way: no hole
        d = np.where(known.any(axis=1), span / np.where(known.any(axis=1), mean, 1.0), 0.0)
        by_width = span / width[nearest, cols]
        # the row's own pitch where it shows and fits; else the ends' mean width
        d = np.where(known.any(axis=1) & (np.abs(d - np.round(d)) <= GAP_FIT), d, by_width)
        whole = np.round(d)
        ok = (whole >= 2) & (whole <= GAP_TILES) & (np.abs(d - whole) <= GAP_FIT)
        pairs += [(int(nearest[j]), int(j), int(whole[j])) for j in np.nonzero(ok)[0]]
    boxes, ends = [], []
    for i, j, gap in pairs:
        f = (np.arange(1, gap, dtype=np.float32) / gap)[:, None]
        b = backs[j] + f * (backs[i] - backs[j])
        b[:, 4] = backs[j, 4] + f[:, 0] * turn[i, j]
        boxes.append(b)
        ends += [(i, j)] * (gap - 1)
    new = np.concatenate(boxes).astype(np.float32) if boxes else none[0]
    if len(new) == 0:
        return none
    clash = _clash(new, new) | _overlapping(new, new)
    first = np.ones(len(new), bool)
    for m in range(1, len(new)):  # a hole seen from both of its ends is filled once
        first[m] = not (clash[m, :m] & first[:m]).any()
    return new[first], np.array(ends, np.int64)[first]


def _overlapping(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``len(a) x len(b)``: whether either box's centre lies inside the other (oriented boxes)."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)), bool)

    def inside(p: np.ndarray, box: np.ndarray) -> np.ndarray:  # p's centres (rows) in box (columns)
        t = np.radians(box[None, :, 4])
        dx, dy = p[:, None, 0] - box[None, :, 0], p[:, None, 1] - box[None, :, 1]
        x = dx * np.cos(t) - dy * np.sin(t)
        y = -dx * np.sin(t) - dy * np.cos(t)
        return np.asarray((np.abs(x) < box[None, :, 2] / 2) & (np.abs(y) < box[None, :, 3] / 2))

    return inside(a, b) | inside(b, a).T


SNAP_WINDOW = 0.6
""":func:`snap_angles` looks at a square of this share of a box's longer side either side of its centre ..."""
SNAP_SCALE = 0.5
"""... in the detector's input scaled by this (table-frame tiles of 12-30 px become 6-15 px: their edges are
still there, and the cost falls from about 4 ms to 1 ms a frame; on held-out frames it snapped as well) ..."""
SNAP_COHERENCE = 0.3
"""... and turns a box only where the gradients there agree on two perpendicular directions at least this much
(``|sum(z^4)| / sum(|z|^4)`` with ``z = gx + i gy``; 1: every edge along the two directions). On the dev photos
(hands held upright) it left all but 10 of 786 boxes within 10 degrees of the network's angle; on 30
held-out synthetic table frames it costs 3 of the 200 angles snapping fixes ..."""
SNAP_MIN = 10.0
"""... and only by at least this many degrees (smaller turns of an upright tile changed readings both ways on
the dev photos; the angles worth fixing are off by 20-70 degrees) ..."""
SNAP_WIDE = 35.0
SNAP_WIDE_COHERENCE = 0.5
SNAP_BIG = 32.0
"""... and turns a big box (shorter side at least ``SNAP_BIG`` px in the detector's input) by more than ``SNAP_WIDE``
degrees only where the gradients agree at least ``SNAP_WIDE_COHERENCE``. A turn near 45 degrees says the edges
run diagonally to the network's angle. On a small tile that is the network's error, which snapping is for; on a
big one the network's angle is mostly right (on the dev photos, all 231 labelled tiles within 15 degrees modulo
90 at the whole-photo pass), and diagonal gradients are the face's strokes: an upright 八萬 turned 38-44 degrees by
its 八, at coherence 0.30-0.36, and then read as another tile (two of the dev photos' misreads). On held-out
synthetic scenes the snaps of big boxes that helped turned them by at most 33 degrees, or had coherence
above 0.8 (``models/README.md``, "Snapping big boxes")."""


def snap_angles(image: np.ndarray, obb: np.ndarray) -> np.ndarray:
    """The boxes ``obb`` (in ``image``'s pixels: the detector's input, where table-frame tiles are 12-30 px)
    with each angle turned to the nearest of the four directions of the tile's own edges.

    A tile is a rectangle and most of its face's strokes run along its sides, so the image gradients around
    it point along two perpendicular directions: modulo 90 degrees, the angle of ``sum(z^4)`` over a window
    (``z = gx + i gy``, so strong edges count most), summed for every box at once from one integral image.
    The network's angle picks which of the four (up, left, down, right). The network regresses the angle,
    and for a small, nearly square tile it often lands between two of them: on 30 held-out table frames its
    angle was within 10 degrees for 30% of the face-up tiles it found, snapped for 57% (and for about 95%
    modulo 90 degrees). Where the edges do not agree (:data:`SNAP_COHERENCE`: pips, glare, blur) the network's
    angle stays, and so does a box with a non-finite number."""
    finite = np.isfinite(obb).all(axis=1)
    if not finite.all():
        out = obb.copy()
        out[finite] = snap_angles(image, obb[finite])
        return out
    if len(obb) == 0:
        return obb
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    gray = cv2.resize(gray, None, fx=SNAP_SCALE, fy=SNAP_SCALE, interpolation=cv2.INTER_AREA).astype(np.float32)
    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    re = cv2.subtract(cv2.multiply(gx, gx), cv2.multiply(gy, gy))  # z^2 = re + i im
    im = cv2.multiply(gx, gy, scale=2.0)
    re2, im2 = cv2.multiply(re, re), cv2.multiply(im, im)
    z4 = cv2.merge([cv2.subtract(re2, im2), cv2.multiply(re, im, scale=2.0), cv2.add(re2, im2)])  # z^4, |z|^4
    ii = cv2.integral(z4)
    h, w = gray.shape
    cx, cy = obb[:, 0] * SNAP_SCALE, obb[:, 1] * SNAP_SCALE
    r = SNAP_WINDOW * np.maximum(obb[:, 2], obb[:, 3]) * SNAP_SCALE
    x0 = np.clip(np.round(cx - r), 0, w).astype(np.int64)
    x1 = np.clip(np.round(cx + r) + 1, 0, w).astype(np.int64)
    y0 = np.clip(np.round(cy - r), 0, h).astype(np.int64)
    y1 = np.clip(np.round(cy + r) + 1, 0, h).astype(np.int64)
    sums = ii[y1, x1] - ii[y0, x1] - ii[y1, x0] + ii[y0, x0]
    c, s = sums[:, 0], sums[:, 1]
    coherence = np.hypot(c, s) / np.maximum(sums[:, 2], 1e-9)
    # gradients in image axes (y down) -> an edge direction counter-clockwise of image up, modulo 90
    edge = -np.degrees(np.arctan2(s, c)) / 4
    snapped = (edge + 90 * np.round((obb[:, 4] - edge) / 90) + 180) % 360 - 180
    keep = (coherence < SNAP_COHERENCE) | (x1 - x0 < 3) | (y1 - y0 < 3)  # no clear edges: the network's angle
    turn = angle_between(snapped, obb[:, 4])
    keep |= turn < SNAP_MIN
    keep |= (turn > SNAP_WIDE) & (coherence < SNAP_WIDE_COHERENCE) & (np.minimum(obb[:, 2], obb[:, 3]) >= SNAP_BIG)
    out = obb.copy()
    out[:, 4] = np.where(keep, obb[:, 4], snapped)
    return out


SPECK = 0.4
"""A box of the zoomed pass whose longer side is under this share both of the nearest box the whole-image
pass found and of that pass's median box is not a tile of the set: the zoomed pass otherwise reads the rim
of a cup or a chip as a row of tiny tiles. (Both, so the small far tiles of a photo taken at a slant stay.)"""


BIG_SHRINK = 1 / 3
"""The scale, against the detector's ``long_side``, of :meth:`TileDetector._with_big_tiles`' pass for big tiles ..."""
BIG_TILE = 0.19
"""... whose boxes are taken where their longer side is at least this share of the image's longer side (120 px at
640: on close-ups of tiles cut from the bundled photo and from the dev photos, the whole-image pass boxed tiles up
to about 120 px right, and missed or misread most of those over 150 px) ..."""
INNER = 0.8
"""... and which drop the boxes whose centre lies inside them and whose longer side is under this share of theirs
(a stroke, a dot, a character of the face), ..."""
INNER_MARGIN = 1.2
"""... the box grown this many times its sides for that (its rim and body, boxed as bits of a back); ..."""
BIG_SPECK = 0.25
"""... and the boxes under this share of the big boxes' median longer side that reach the photo's edge (the sliver
of a tile cut by it, boxed as bits of backs) or lie in a big box (grown by :data:`NEAR_MARGIN`: bits of its rim, side
or shadow, however sure). Only there: a change review's photo of a hand with one tile blown up beside it (or a card the pass
took for one) lost every tile of the hand when the rule held anywhere."""
NEAR_MARGIN = 1.5
"""... "lie in a big box": its centre in the big box grown this many times its sides (a close-up's side and shadow
reach further than its rim)."""
EDGE = 0.02
"""How near the photo's edge, as a share of its longer side, a box "reaches" it for :data:`BIG_SPECK`."""


def _inside_big_dropped(b: Boxes, h: int, w: int) -> Boxes:
    """``b`` without the boxes that are parts of a big box's tile: the centre inside it, the longer side under
    :data:`INNER` of its, the big box's at least :data:`BIG_TILE` of the image's ``long_side`` (only a close-up's
    tiles are that big: a photo of a table or a hand is left as it is) and at least as sure (a box around a tile
    and its shadow, less sure than the tile's own, does not take it)."""
    long_side = max(h, w)
    size = b.obb[:, 2:4].max(axis=1)
    if len(b) < 2 or not (size >= BIG_TILE * long_side).any():
        return b
    grown = b.obb.copy()
    grown[:, 2:4] *= INNER_MARGIN
    inside = _inside(b.obb[:, :2], grown)  # [i, j]: centre of i inside box j (grown)
    part = inside & (size[:, None] < INNER * size[None, :]) & (size[None, :] >= BIG_TILE * long_side) \
        & (b.score[:, None] <= b.score[None, :])
    np.fill_diagonal(part, False)
    big = size >= BIG_TILE * long_side
    reach, margin = size / 2, EDGE * long_side
    x, y = b.obb[:, 0], b.obb[:, 1]
    at_edge = (x - reach <= margin) | (y - reach <= margin) | (x + reach >= w - margin) | (y + reach >= h - margin)
    wide = b.obb.copy()
    wide[:, 2:4] *= NEAR_MARGIN
    near_big = (_inside(b.obb[:, :2], wide) & big[None, :]).any(axis=1) & ~big  # its rim, side or shadow, however sure
    drop = part.any(axis=1) | ((size < BIG_SPECK * float(np.median(size[big]))) & (at_edge | near_big))
    return Boxes(b.obb[~drop], b.face_up[~drop], b.score[~drop])


def _inside(points: np.ndarray, obb: np.ndarray) -> np.ndarray:
    """``[i, j]``: whether point ``i`` (x, y) lies inside the oriented box ``j``."""
    dx = points[:, None, 0] - obb[None, :, 0]
    dy = points[:, None, 1] - obb[None, :, 1]
    a = np.deg2rad(obb[None, :, 4])
    u = dx * np.cos(a) - dy * np.sin(a)
    v = dx * np.sin(a) + dy * np.cos(a)
    return np.asarray((np.abs(u) <= obb[None, :, 2] / 2) & (np.abs(v) <= obb[None, :, 3] / 2))


def _concat(parts: list[Boxes]) -> Boxes:
    if not parts:
        return Boxes.empty()
    return Boxes(np.concatenate([p.obb for p in parts]).astype(np.float32),
                 np.concatenate([p.face_up for p in parts]), np.concatenate([p.score for p in parts]).astype(np.float32))


def _drop_specks(b: Boxes, reference: Boxes) -> Boxes:
    if len(reference) < 3 or len(b) == 0:
        return b
    ref_size = reference.obb[:, 2:4].max(axis=1)
    dist = np.hypot(b.obb[:, None, 0] - reference.obb[None, :, 0], b.obb[:, None, 1] - reference.obb[None, :, 1])
    nearest = ref_size[dist.argmin(axis=1)]
    size = b.obb[:, 2:4].max(axis=1)
    speck = (size < SPECK * nearest) & (size < SPECK * float(np.median(ref_size)))
    return Boxes(b.obb[~speck], b.face_up[~speck], b.score[~speck])


def _same_tile(a: np.ndarray, b: np.ndarray) -> bool:
    d = float(np.hypot(a[0] - b[0], a[1] - b[1]))
    if d < 0.5 * min(a[2], a[3], b[2], b[3]):
        return True
    return d < max(a[2], a[3], b[2], b[3]) and obb_iou(a, b) > 0.3


def _merge_passes(b: Boxes) -> Boxes:
    """One box per tile across passes: the surer box stays, and a box goes when its centre lies within half
    the smaller box's short side of a kept one or the two overlap by IoU > 0.3 (passes can disagree on the
    angle and on the centre by several pixels)."""
    keep: list[int] = []
    for i in np.argsort(-b.score):
        if not any(_same_tile(b.obb[i], b.obb[j]) for j in keep):
            keep.append(int(i))
    idx = np.array(sorted(keep), np.int64)
    return Boxes(b.obb[idx], b.face_up[idx], b.score[idx])


def _windows(shape: tuple[int, int], size: int, overlap: int) -> list[tuple[int, int]]:
    """Top-left corners of ``size`` windows covering an image of ``shape`` (h, w) with ``overlap``."""
    def starts(n: int) -> list[int]:
        if n <= size:
            return [0]
        step = size - overlap
        out = list(range(0, n - size, step))
        return out + [n - size]
    return [(y, x) for y in starts(shape[0]) for x in starts(shape[1])]


def _touches_inner_edge(obb: np.ndarray, origin: tuple[int, int], win: tuple[int, int],
                        full: tuple[int, int], margin: float = 2.0) -> np.ndarray:
    """Boxes (window pixels) reaching a window edge that is not also the image's edge."""
    x = obb_xyxy(obb)
    y0, x0 = origin
    cut = np.zeros(len(obb), bool)
    if x0 > 0:
        cut |= x[:, 0] < margin
    if y0 > 0:
        cut |= x[:, 1] < margin
    if x0 + win[1] < full[1]:
        cut |= x[:, 2] > win[1] - margin
    if y0 + win[0] < full[0]:
        cut |= x[:, 3] > win[0] - margin
    return cut


def obb_corners(obb: np.ndarray) -> np.ndarray:
    """N x 4 x 2 corners (top-left, top-right, bottom-right, bottom-left as the tile is read)."""
    cx, cy, w, h, a = (obb[:, i] for i in range(5))
    t = np.radians(a)
    up = np.stack([-np.sin(t), -np.cos(t)], axis=1)  # image direction of the tile's top
    right = np.stack([np.cos(t), -np.sin(t)], axis=1)
    c = np.stack([cx, cy], axis=1)
    hw, hh = (w / 2)[:, None], (h / 2)[:, None]
    return np.stack([c + up * hh - right * hw, c + up * hh + right * hw, c - up * hh + right * hw,
                     c - up * hh - right * hw], axis=1)


def obb_xyxy(obb: np.ndarray) -> np.ndarray:
    """Axis-aligned boxes (N x 4) around oriented ones."""
    c = obb_corners(obb)
    return np.concatenate([c.min(axis=1), c.max(axis=1)], axis=1)


_Angle = TypeVar("_Angle", float, np.ndarray)


def angle_between(a: _Angle, b: _Angle) -> _Angle:
    """Smallest absolute difference of two angles in degrees (elementwise for arrays)."""
    return abs((a - b + 180) % 360 - 180)


def obb_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two oriented boxes (cx, cy, w, h, angle)."""
    ra = ((float(a[0]), float(a[1])), (float(a[2]), float(a[3])), -float(a[4]))
    rb = ((float(b[0]), float(b[1])), (float(b[2]), float(b[3])), -float(b[4]))
    kind, pts = cv2.rotatedRectangleIntersection(ra, rb)
    if kind == cv2.INTERSECT_NONE or pts is None or len(pts) < 3:
        return 0.0
    inter = float(cv2.contourArea(cv2.convexHull(pts)))
    union = float(a[2] * a[3] + b[2] * b[3]) - inter
    return inter / union if union > 0 else 0.0


def match_boxes(det: Boxes, truth: np.ndarray, positive: float, iou: float = 0.5,
                ignore: float = 0.2) -> tuple[int, int]:
    """Greedy one-to-one matching of detections (best score first) to true boxes (N x 7: obb, face_up,
    visible) at ``iou``, face up/down agreeing. Returns (true boxes with visible >= ``positive`` found,
    detections that match no true box with visible >= ``ignore``)."""
    used = np.zeros(len(truth), bool)
    hits = false = 0
    for i in np.argsort(-det.score):
        best, best_j = iou, -1
        for j in range(len(truth)):
            t = truth[j]
            if used[j] or t[6] < ignore or bool(t[5] > 0.5) != bool(det.face_up[i]):
                continue
            if abs(t[0] - det.obb[i, 0]) > t[3] or abs(t[1] - det.obb[i, 1]) > t[3]:
                continue
            v = obb_iou(det.obb[i], t[:5])
            if v >= best:
                best, best_j = v, j
        if best_j < 0:
            false += 1
            continue
        used[best_j] = True
        hits += int(truth[best_j, 6] >= positive)
    return hits, false


__all__ += ["snap_angles", "obb_corners", "obb_xyxy", "angle_between", "obb_iou", "match_boxes"]
