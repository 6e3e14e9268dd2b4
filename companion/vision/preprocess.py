"""Crop -> classifier input, shared by training and inference so both see identical pixels.

A crop is an upright tile face, ``HxWx3`` ``uint8`` BGR (grey ``HxW`` and BGRA are accepted). It is resized
to ``INPUT_SIZE`` (width, height): bilinear to twice that size, then 2x2 area averaging (nearly what
``INTER_AREA`` gives, several times faster on crops up to 4x the input; bigger ones, such as a whole photo of
one tile, are area-averaged all the way, since bilinear would alias them), turned to RGB and normalised with
``MEAN``/``STD`` into ``float32`` ``N x 3 x H x W`` (:func:`prepare`). The shipped classifier, rewritten to
take what its 8-bit stem reads (``training/onnx_rewrite.patch_input``), is given the resized crops
(:func:`resize_batch`) cut into patches of quantised pixel values instead (:func:`quantised_patches`): the
same numbers it computed from the normalised input.

The crops of a batch are resized with OpenCV's thread pool off (:func:`one_cv_thread`): on crop-sized images
its threads cost more than they save, and they fight the model's own threads for the table's two cores
(72 crops: 5.5 ms instead of 13 ms while another job used one core). With ``workers`` > 1 the batch is
split between that many threads instead (OpenCV releases the GIL), which on big crops (a JPEG tile photo,
240x320 and up, where reading the pixels is what costs) takes about a quarter off.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import contextmanager

import cv2
import numpy as np

__all__ = ["INPUT_SIZE", "MEAN", "STD", "CropError", "as_bgr", "resize", "resize_batch", "quantised_patches", "prepare",
           "normalise", "one_cv_thread", "map_crops"]

INPUT_SIZE = (60, 80)
"""(width, height) of the classifier input; the model's metadata repeats it."""
MEAN = (0.5, 0.5, 0.5)
STD = (0.25, 0.25, 0.25)


class CropError(ValueError):
    """A crop that cannot be classified (empty, wrong shape or type); the message says it in English and
    Traditional Chinese (``English / 中文``)."""


def as_bgr(crop: np.ndarray) -> np.ndarray:
    """``crop`` as ``HxWx3`` ``uint8`` BGR; raises :class:`CropError` naming what is wrong."""
    a = np.asarray(crop)
    if a.dtype != np.uint8:
        raise CropError(f"crop must be uint8, got {a.dtype} / 牌面裁切圖須為 uint8，收到 {a.dtype}")
    if a.ndim == 2:
        a = cv2.cvtColor(a, cv2.COLOR_GRAY2BGR)
    elif a.ndim == 3 and a.shape[2] == 4:
        a = cv2.cvtColor(a, cv2.COLOR_BGRA2BGR)
    elif a.ndim != 3 or a.shape[2] != 3:
        raise CropError(f"crop must be HxWx3 BGR, got shape {a.shape} / "
                        f"牌面裁切圖須為 HxWx3 BGR，收到形狀 {a.shape}")
    if a.shape[0] < 2 or a.shape[1] < 2:
        raise CropError(f"crop is empty or too small: {a.shape[1]}x{a.shape[0]} pixels / "
                        f"牌面裁切圖是空的或太小：{a.shape[1]}x{a.shape[0]} 像素")
    return a


def resize(crop: np.ndarray, size: tuple[int, int] = INPUT_SIZE) -> np.ndarray:
    """``crop`` (BGR) at ``size`` (width, height), still ``uint8`` BGR."""
    a = as_bgr(crop)
    w, h = size
    if a.shape[0] <= h or a.shape[1] <= w:
        return cv2.resize(a, (w, h), interpolation=cv2.INTER_LINEAR)
    if a.shape[0] > 4 * h or a.shape[1] > 4 * w:  # a whole photo: bilinear would skip most of its pixels
        a = cv2.resize(a, (2 * w, 2 * h), interpolation=cv2.INTER_AREA)
    elif a.shape[0] != 2 * h or a.shape[1] != 2 * w:
        a = cv2.resize(a, (2 * w, 2 * h), interpolation=cv2.INTER_LINEAR)
    return cv2.resize(a, (w, h), interpolation=cv2.INTER_AREA)


_CV_LOCK = threading.Lock()
_CV_USERS = [0, 0]
"""[blocks inside one_cv_thread now, OpenCV's thread count before the first of them entered]"""


@contextmanager
def one_cv_thread() -> Iterator[None]:
    """OpenCV runs single-threaded inside the block. The setting is process-wide: blocks on several threads
    share it (the first in saves OpenCV's thread count, the last out restores it), and other OpenCV calls
    made meanwhile run single-threaded too."""
    with _CV_LOCK:
        if _CV_USERS[0] == 0:
            _CV_USERS[1] = cv2.getNumThreads()
            cv2.setNumThreads(1)
        _CV_USERS[0] += 1
    try:
        yield
    finally:
        with _CV_LOCK:
            _CV_USERS[0] -= 1
            if _CV_USERS[0] == 0:
                cv2.setNumThreads(_CV_USERS[1])


_POOLS: dict[int, ThreadPoolExecutor] = {}
_POOLS_LOCK = threading.Lock()
_IN_POOL = threading.local()
_SPLIT_FROM = 8
"""Batches smaller than this are resized on the calling thread alone."""


def _pool(parts: int) -> ThreadPoolExecutor:
    with _POOLS_LOCK:
        if parts not in _POOLS:
            _POOLS[parts] = ThreadPoolExecutor(parts - 1, thread_name_prefix="crops",
                                               initializer=lambda: setattr(_IN_POOL, "yes", True))
        return _POOLS[parts]


def map_crops(fn: Callable[[np.ndarray], np.ndarray], crops: Sequence[np.ndarray], workers: int = 1) -> np.ndarray:
    """``np.stack([fn(c) for c in crops])`` with OpenCV single-threaded, the batch split into ``workers``
    contiguous parts run at once (the calling thread does the first; a shared pool of ``workers - 1``
    threads the others). Order and errors are as in the plain loop; called from inside a pool thread
    (``fn`` itself splitting a batch) it runs the plain loop, so it cannot wait on itself."""
    if len(crops) == 0:
        raise CropError("no crops to prepare / 沒有要處理的牌面裁切圖")
    parts = max(1, min(workers, len(crops) // _SPLIT_FROM))
    if getattr(_IN_POOL, "yes", False):
        parts = 1
    with one_cv_thread():
        if parts == 1:
            return np.stack([fn(c) for c in crops])
        bounds = np.linspace(0, len(crops), parts + 1).astype(int)
        chunks = [crops[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)]
        futures = [_pool(parts).submit(lambda chunk: [fn(c) for c in chunk], chunk) for chunk in chunks[1:]]
        try:
            done = [fn(c) for c in chunks[0]]
        finally:
            wait(futures)  # every part ends inside this one_cv_thread block, failed or not
        rest = [f.result() for f in futures]
        return np.stack(done + [a for part in rest for a in part])


def resize_batch(crops: Sequence[np.ndarray], size: tuple[int, int] = INPUT_SIZE, workers: int = 1) -> np.ndarray:
    """A batch of crops -> ``N x H x W x 3`` ``uint8`` BGR at ``size`` (resized on ``workers`` threads)."""
    if len(crops) == 0:
        return np.zeros((0, size[1], size[0], 3), np.uint8)
    return map_crops(lambda c: resize(c, size), crops, workers)


def quantised_patches(small: np.ndarray, lut: np.ndarray, k: int, rgb: bool = False) -> np.ndarray:
    """``N x H x W x 3`` ``uint8`` BGR -> ``N x H/k x W/k x k*k*3`` ``uint8``: each ``k x k`` patch's pixels (row
    by row, B G R; R G B where ``rgb``, the order of the files rewritten since: the original graph's) through
    ``lut`` (256 ``uint8``: a model's quantised value of each pixel value)."""
    n, h, w, c = small.shape
    if h % k or w % k or c != 3 or lut.shape != (256,) or lut.dtype != np.uint8:
        raise CropError(f"cannot cut {w}x{h}x{c} crops into {k}x{k} patches with a {lut.shape} {lut.dtype} table / "
                        f"無法把 {w}x{h}x{c} 的裁切圖用 {lut.shape} {lut.dtype} 的對照表切成 {k}x{k} 的小塊")
    if n == 0:
        return np.zeros((0, h // k, w // k, k * k * 3), np.uint8)
    flat = np.ascontiguousarray(small).reshape(n * h, w, 3)
    if rgb:  # (OpenCV's channel swap: numpy's reversed view made the copy below twice as slow)
        flat = cv2.cvtColor(flat, cv2.COLOR_BGR2RGB)
    q = cv2.LUT(flat.reshape(n * h, w * 3), lut).reshape(n, h // k, k, w // k, k * 3)
    return np.ascontiguousarray(q.transpose(0, 1, 3, 2, 4)).reshape(n, h // k, w // k, k * k * 3)


def prepare(crops: Sequence[np.ndarray], size: tuple[int, int] = INPUT_SIZE, workers: int = 1) -> np.ndarray:
    """A batch of crops -> ``N x 3 x H x W`` ``float32`` normalised RGB (resized on ``workers`` threads)."""
    return normalise(resize_batch(crops, size, workers))


def normalise(small: np.ndarray) -> np.ndarray:
    """``N x H x W x 3`` ``uint8`` BGR -> ``N x 3 x H x W`` ``float32`` RGB, ``(pixel/255 - MEAN) / STD``."""
    x = np.ascontiguousarray(small[:, :, :, ::-1].transpose(0, 3, 1, 2)).astype(np.float32)
    x *= np.float32(1.0 / 255.0)
    x -= np.asarray(MEAN, np.float32)[None, :, None, None]
    x /= np.asarray(STD, np.float32)[None, :, None, None]
    return x


