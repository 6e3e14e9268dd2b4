"""Crop preprocessing: the pixels the classifier and the flower-strip model see, and OpenCV's thread pool."""

from __future__ import annotations

import threading

import cv2
import numpy as np
import pytest

from companion.vision.flower import STRIP_SIZE, STRIP_TOP, prepare_strips, strip
from companion.vision.preprocess import INPUT_SIZE, CropError, map_crops, one_cv_thread, prepare, resize


def test_resize_of_an_exact_multiple_is_the_box_average() -> None:
    r = np.random.default_rng(1)
    w, h = INPUT_SIZE
    crop = r.integers(0, 256, (4 * h, 4 * w, 3), dtype=np.uint8)
    box = crop.reshape(h, 4, w, 4, 3).astype(np.float64).mean(axis=(1, 3))
    assert np.abs(resize(crop).astype(np.float64) - box).max() <= 1.0


def test_small_crops_are_enlarged_and_grey_is_accepted() -> None:
    out = resize(np.full((10, 8), 200, np.uint8))
    assert out.shape == (INPUT_SIZE[1], INPUT_SIZE[0], 3) and int(out.min()) == 200


def test_prepare_restores_opencv_threads_even_when_a_crop_is_bad() -> None:
    before = cv2.getNumThreads()
    good = np.zeros((320, 240, 3), np.uint8)
    assert prepare([good, good]).shape == (2, 3, INPUT_SIZE[1], INPUT_SIZE[0])
    assert cv2.getNumThreads() == before
    with pytest.raises(CropError, match="uint8"):
        prepare([good, good.astype(np.float32)])
    assert cv2.getNumThreads() == before
    with one_cv_thread():
        assert cv2.getNumThreads() == 1
    assert cv2.getNumThreads() == before


def test_the_flower_strip_is_the_top_of_the_crop() -> None:
    crop = np.zeros((320, 240, 3), np.uint8)
    top = round(320 * STRIP_TOP)
    crop[:top] = 255  # the strip is all of the white part and none of the black
    s = strip(crop)
    assert s.shape == (STRIP_SIZE[1], STRIP_SIZE[0], 3) and int(s.min()) == 255
    x = prepare_strips([crop])
    assert x.shape == (1, 3, STRIP_SIZE[1], STRIP_SIZE[0]) and np.allclose(x, x.max())


def test_split_batches_keep_order_and_match_the_plain_loop() -> None:
    r = np.random.default_rng(2)
    crops = [r.integers(0, 256, (int(r.integers(40, 400)), int(r.integers(30, 300)), 3), dtype=np.uint8)
             for _ in range(37)]
    one = prepare(crops, workers=1)
    assert np.array_equal(prepare(crops, workers=2), one)
    assert np.array_equal(prepare(crops, workers=3), one)
    assert np.array_equal(map_crops(lambda c: c[:2, :2], crops, 2), np.stack([c[:2, :2] for c in crops]))


@pytest.mark.parametrize("bad_at", [0, 30])
def test_a_bad_crop_in_either_part_of_a_split_batch_is_the_error(bad_at: int) -> None:
    before = cv2.getNumThreads()
    crops = [np.zeros((320, 240, 3), np.uint8) for _ in range(32)]
    crops[bad_at] = np.zeros((0, 5, 3), np.uint8)
    with pytest.raises(CropError, match="empty or too small"):
        prepare(crops, workers=2)
    assert cv2.getNumThreads() == before


def test_a_whole_photo_is_averaged_not_aliased() -> None:
    w, h = INPUT_SIZE
    stripes = np.zeros((12 * h, 12 * w, 3), np.uint8)
    stripes[:, ::3] = 255  # one bright column in three: a third of full brightness on average
    out = resize(stripes).astype(np.float64)
    assert np.abs(out - 85).max() <= 3


def test_overlapping_blocks_on_two_threads_restore_opencv_threads() -> None:
    before = cv2.getNumThreads()
    inside, leave_a = threading.Event(), threading.Event()

    def a() -> None:
        with one_cv_thread():
            inside.set()
            leave_a.wait(10)

    t = threading.Thread(target=a)
    t.start()
    assert inside.wait(10)
    with one_cv_thread():  # enters while a is inside, leaves after it
        leave_a.set()
        t.join(10)
        assert cv2.getNumThreads() == 1
    assert cv2.getNumThreads() == before
    crops = [np.zeros((320, 240, 3), np.uint8)] * 40
    threads = [threading.Thread(target=lambda: [prepare(crops, workers=2) for _ in range(20)]) for _ in range(3)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    assert cv2.getNumThreads() == before


def test_a_split_batch_inside_a_split_batch_does_not_wait_on_itself() -> None:
    crops = [np.zeros((320, 240, 3), np.uint8)] * 16
    out: list[np.ndarray] = []
    t = threading.Thread(target=lambda: out.append(map_crops(lambda c: prepare(crops, workers=2)[0], crops, 2)),
                         daemon=True)
    t.start()
    t.join(30)
    assert not t.is_alive() and out[0].shape == (16, 3, INPUT_SIZE[1], INPUT_SIZE[0])
    with pytest.raises(CropError, match="no crops"):
        map_crops(resize, [], 2)
