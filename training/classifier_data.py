"""Training data for the tile classifier: a bank of rendered faces, photo-like augmentation and
non-tile negatives (dice, chips, coins, fingers, bare table), all from seeds.

Class ``i < 43`` is ``Tile(i)`` (``42`` = ``0x``, the back); class ``43`` (``NONE``) is "not a tile".
"""

from __future__ import annotations

import math
import multiprocessing
import multiprocessing.pool
import random

import cv2
import numpy as np

from companion.tiles import Tile
from companion.vision.augment import LOW_RES
from companion.vision.augment import crop_quad as _crop_quad
from companion.vision.augment import out_size as _out_size
from companion.vision.augment import photometric as _photometric
from companion.vision.preprocess import prepare
from training.progress import Progress
from training.synth.faces import FaceStyle, face_box, render_face, sample_style

__all__ = ["NUM_CLASSES", "NONE", "CLASS_NAMES", "Bank", "fork_pool", "render_bank", "augment", "negative", "make_batch", "TRAIN_LOW_RES"]

NONE = 43
NUM_CLASSES = 44
CLASS_NAMES: tuple[str, ...] = (*(Tile(i).code for i in range(43)), "unknown")
BANK_SIZE = (84, 112)
TRAIN_LOW_RES = 0.35
"""Share of training crops (rendered, real and negatives) drawn 0.3-0.6x the input size. More than the
measure's :data:`companion.vision.augment.LOW_RES` (0.2): on the three validation seeds the base trained with
0.35 read held-out styles 98.31% against 97.93% with 0.2, the packaged 8-bit files 97.91% against 97.73%,
the gain mostly on the small crops (models/README.md)."""


class Bank:
    """Rendered tiles: ``images`` ``N x H x W x 4`` RGBA, ``labels`` ``N``, face ``boxes`` ``N x 4``."""

    def __init__(self, images: np.ndarray, labels: np.ndarray, boxes: np.ndarray) -> None:
        self.images, self.labels, self.boxes = images, labels, boxes

    def __len__(self) -> int:
        return len(self.labels)


def fork_pool(workers: int) -> multiprocessing.pool.Pool:
    """A pool of ``workers`` forked processes (they share this one's memory: the bank). OpenCV is made
    single-threaded while they are forked: a child of a process whose OpenCV thread pool runs inherits the pool's
    books but not its threads, and hangs on its first change of the thread count (as in a test suite)."""
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        return multiprocessing.get_context("fork").Pool(workers)
    finally:
        cv2.setNumThreads(threads)


def _render_style(job: tuple[FaceStyle, tuple[int, int], range]) -> tuple[list[np.ndarray], tuple[float, ...]]:
    style, size, kinds = job
    return [np.asarray(render_face(Tile(t), style, size)) for t in kinds], face_box(style, size)


def render_bank(n_styles: int, split: str, seed: int, size: tuple[int, int] = BANK_SIZE,
                progress: bool = True, kinds: range = range(43), workers: int = 0) -> Bank:
    """All 43 faces (or ``kinds``) in ``n_styles`` styles of ``split`` drawn from ``seed``; with ``workers``,
    the styles (drawn in order, so the same ones) are painted in that many processes."""
    rng = random.Random(seed)
    jobs = [(sample_style(rng, split), size, kinds) for _ in range(n_styles)]
    images, labels, boxes = [], [], []
    if workers > 0:
        with fork_pool(workers) as pool:
            done = list(Progress(pool.imap(_render_style, jobs), n_styles, f"render {split}", progress))
    else:
        done = [_render_style(j) for j in Progress(jobs, n_styles, f"render {split}", progress)]
    for faces, box in done:
        images += faces
        labels += list(kinds)
        boxes += [box] * len(faces)
    return Bank(np.stack(images), np.asarray(labels, np.int64), np.asarray(boxes, np.float32))


# --- photo-like augmentation -----------------------------------------------------------------------------


def _background(h: int, w: int, r: np.random.Generator) -> np.ndarray:
    base = r.integers(0, 256, 3) if r.random() < 0.5 else np.array(
        [(40, 110, 50), (120, 60, 30), (60, 60, 140), (200, 200, 200), (30, 30, 30)][r.integers(5)])
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    img += r.normal(0, r.uniform(2, 20), (h, w, 1)).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def _composite(rgba: np.ndarray, pad: int, r: np.random.Generator) -> np.ndarray:
    """The tile (RGBA -> BGR) on a random table background with ``pad`` pixels around it."""
    h, w = rgba.shape[:2]
    bg = _background(h + 2 * pad, w + 2 * pad, r)
    a = rgba[:, :, 3:4].astype(np.float32) / 255.0
    tile = rgba[:, :, 2::-1].astype(np.float32)
    region = bg[pad:pad + h, pad:pad + w].astype(np.float32)
    bg[pad:pad + h, pad:pad + w] = (tile * a + region * (1 - a)).astype(np.uint8)
    return bg


def augment(rgba: np.ndarray, box: np.ndarray, r: np.random.Generator, low_res: float = LOW_RES) -> np.ndarray:
    """A photo-like BGR crop of the tile face in ``rgba`` (face box ``box``); ``low_res`` the share of small crops."""
    pad = rgba.shape[0] // 3
    canvas = _composite(rgba, pad, r)
    ow, oh = _out_size(r, low_res)
    dst = np.array([[0, 0], [ow, 0], [ow, oh], [0, oh]], np.float32)
    m = cv2.getPerspectiveTransform(_crop_quad(box, pad, r), dst)
    crop = cv2.warpPerspective(canvas, m, (ow, oh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    return _photometric(crop, r)


# --- negatives: things on a table that are not tiles ------------------------------------------------------


def negative(r: np.random.Generator, low_res: float = LOW_RES) -> np.ndarray:
    """A BGR crop of something that is not a tile: a die, a chip, a coin, a finger, clutter or bare table."""
    ow, oh = _out_size(r, low_res)
    img = _background(oh, ow, r)
    kind = int(r.integers(6))
    cx, cy, s = ow * r.uniform(0.3, 0.7), oh * r.uniform(0.3, 0.7), min(ow, oh) * r.uniform(0.3, 0.6)
    col = tuple(int(v) for v in r.integers(0, 256, 3))
    if kind == 0:  # die
        body = (235, 235, 240) if r.random() < 0.7 else col
        cv2.rectangle(img, (int(cx - s), int(cy - s)), (int(cx + s), int(cy + s)), body, -1)
        n = int(r.integers(1, 7))
        for k in range(n):
            a = 2 * math.pi * k / n
            px, py = cx + (0 if n == 1 else math.cos(a) * s * 0.55), cy + (0 if n == 1 else math.sin(a) * s * 0.55)
            cv2.circle(img, (int(px), int(py)), max(1, int(s * 0.15)), (30, 30, 200) if n == 1 else (20, 20, 20), -1)
    elif kind == 1:  # chip
        cv2.circle(img, (int(cx), int(cy)), int(s), col, -1)
        for k in range(8):
            a = 2 * math.pi * k / 8
            cv2.circle(img, (int(cx + math.cos(a) * s * 0.85), int(cy + math.sin(a) * s * 0.85)), max(1, int(s * 0.12)),
                       (250, 250, 250), -1)
        cv2.circle(img, (int(cx), int(cy)), int(s * 0.55), (240, 240, 240), max(1, int(s * 0.08)))
    elif kind == 2:  # coin
        metal = (60, 170, 210) if r.random() < 0.5 else (190, 190, 190)
        cv2.circle(img, (int(cx), int(cy)), int(s), metal, -1)
        cv2.circle(img, (int(cx), int(cy)), int(s * 0.8), tuple(v - 40 for v in metal), max(1, int(s * 0.06)))
    elif kind == 3:  # finger
        skin = (int(r.integers(90, 180)), int(r.integers(120, 200)), int(r.integers(170, 240)))
        cv2.ellipse(img, (int(cx), int(cy)), (int(s * 0.45), int(oh)), float(r.uniform(-40, 40)), 0, 360, skin, -1)
    elif kind == 4:  # clutter
        for _ in range(int(r.integers(2, 9))):
            c = tuple(int(v) for v in r.integers(0, 256, 3))
            p = r.integers(0, max(ow, oh), 4)
            cv2.line(img, (int(p[0]), int(p[1])), (int(p[2]), int(p[3])), c, int(r.integers(1, 6)))
    return _photometric(img, r)


def make_batch(bank: Bank, idx: np.ndarray, r: np.random.Generator, neg_frac: float = 0.04,
               low_res: float = LOW_RES) -> tuple[np.ndarray, np.ndarray]:
    """Augmented input ``N x 3 x H x W`` and labels for bank rows ``idx`` (a fraction become negatives;
    ``low_res`` the share of small crops: the measure's by default, :data:`TRAIN_LOW_RES` in training)."""
    crops, labels = [], []
    for i in idx:
        if r.random() < neg_frac:
            crops.append(negative(r, low_res))
            labels.append(NONE)
        else:
            crops.append(augment(bank.images[i], bank.boxes[i], r, low_res))
            labels.append(int(bank.labels[i]))
    return prepare(crops), np.asarray(labels, np.int64)
