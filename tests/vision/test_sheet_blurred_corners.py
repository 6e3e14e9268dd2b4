"""A photo so blurred that only one corner marker is made out is said to be blurred, not to lack corners (a review's
sheet blurred by sigma 6, all four corners in it, was told to keep all four corners in the photo)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import tests.vision.test_sheet as sheet_photos
from companion.vision.sheet import (
    MarkersNotFound,
    Paper,
    PhotoQualityError,
    _find_markers,
    read_sheet,
    render_sheet,
)


@pytest.fixture(scope="module")
def page() -> np.ndarray:
    return render_sheet(Paper.A4, sheet_photos.DPI)[0]


def test_a_photo_too_blurred_to_make_out_three_corners_is_said_blurred(page: np.ndarray) -> None:
    soft, _ = sheet_photos.photo(page, np.random.default_rng(6), blur=3.6)
    assert len(_find_markers(cv2.cvtColor(soft, cv2.COLOR_BGR2GRAY))[1]) == 1  # the case: one corner made out
    with pytest.raises(PhotoQualityError, match="soft.jpg: A4 page 1 of 2 is blurred") as e:
        read_sheet(soft, source="soft.jpg", use_detector=False)
    assert "corner" not in str(e.value) and "拍得模糊" in str(e.value).split(" / ")[1]


def test_a_sharp_photo_with_one_corner_in_it_is_told_to_take_in_all_four(page: np.ndarray) -> None:
    shot, m = sheet_photos.photo(page, np.random.default_rng(6), blur=0.8)
    corners, ids = _find_markers(cv2.cvtColor(shot, cv2.COLOR_BGR2GRAY))
    for quad in corners[1:]:  # three corners covered
        x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 6
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 6
        shot[max(0, y0):y1, max(0, x0):x1] = 230
    with pytest.raises(MarkersNotFound, match="only 1 of the 4 corner markers"):
        read_sheet(shot, source="one.jpg", use_detector=False)
