"""The many-process batch stream and distillation of ``training.train_classifier`` (a bigger machine's run)."""

from __future__ import annotations

import argparse
import itertools
import multiprocessing

import cv2
import numpy as np
import pytest
import torch

from training import train_classifier
from training.classifier_data import render_bank


def _args(workers: int) -> argparse.Namespace:
    return train_classifier.parse_args(["--batch", "8", "--workers", str(workers), "--seed", "5"])


@pytest.mark.timeout(120)
@pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")  # a stream's close must end cleanly
def test_pooled_batches_are_the_same_for_any_number_of_workers() -> None:
    bank = render_bank(2, "train", 3, progress=False)
    # OpenCV's own threads busy in this process first (as after other tests): forked workers must not hang on them
    cv2.GaussianBlur(np.zeros((1500, 1500, 3), np.float32), (31, 31), 5)
    one = list(train_classifier.pooled_batches(bank, [], _args(1), 3))
    two = list(itertools.islice(train_classifier.pooled_batches(bank, [], _args(2), None), 3))
    assert multiprocessing.active_children() == []  # the stream closed early: its workers finished and left
    assert len(one) == 3
    for (x1, y1), (x2, y2) in zip(one, two, strict=True):
        assert x1.shape == (8, 3, 80, 60)
        np.testing.assert_array_equal(x1, x2)
        np.testing.assert_array_equal(y1, y2)
    assert not np.array_equal(one[0][0], one[1][0])


def test_distillation_trains_teacher_model_and_control(tmp_path) -> None:
    paths = {k: tmp_path / f"{k}.pt" for k in ("model", "teacher", "control")}
    argv = ["--styles", "3", "--eval-styles", "1", "--batch", "12", "--steps", "4", "--workers", "2", "--quiet",
            "--teacher-widths", "16,16,32,32", "--save-ckpt", str(paths["model"]), "--save-teacher",
            str(paths["teacher"]), "--control-ckpt", str(paths["control"]), "--ckpt-only", "--out", str(tmp_path / "m.onnx")]
    assert train_classifier.main(argv) == 0
    assert not (tmp_path / "m.onnx").exists()
    model, control, teacher = (torch.load(paths[k], weights_only=True) for k in ("model", "control", "teacher"))
    assert teacher["features.0.weight"].shape[0] == 16
    assert model.keys() == control.keys()
    # the same start and batches; only the teacher's share of the loss tells them apart
    assert any(not torch.equal(model[k], control[k]) for k in model if model[k].is_floating_point())


def test_teacher_widths_are_checked() -> None:
    with pytest.raises(SystemExit, match="teacher-widths '1,2'"):
        train_classifier.widths("1,2")
