"""The orientation network's training runs end to end (``--smoke``), its samples are labelled the way the
product turns boxes, and real crops are cut like the detector's input."""

import argparse
import json

import numpy as np
import pytest
import torch

from companion.vision.orient import SIZE, TileOrienter
from training import train_orient


def test_smoke_run_trains_resumes_and_exports(tmp_path, capsys) -> None:
    out, ckpt = tmp_path / "orient.onnx", tmp_path / "orient.pt"
    args = ["--smoke", "--quiet", "--cache", str(tmp_path / "cache"), "--threads", "1"]
    assert train_orient.main([*args, "--out", str(out), "--save-ckpt", str(ckpt)]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["heldout_val"]["tiles"] > 0 and 0 <= report["heldout_val"]["accuracy"] <= 1
    assert train_orient.main([*args, "--out", str(out), "--init", str(ckpt)]) == 0
    orienter = TileOrienter(out, threads=1)
    meta = orienter.session.get_modelmeta().custom_metadata_map
    assert int(meta["input_size"]) == SIZE and json.loads(meta["heldout_val"])["tiles"] > 0
    assert str(tmp_path) not in meta["training_command"] and "orient.onnx" in meta["training_command"]
    assert train_orient.command(["--real", str(tmp_path), "--steps", "5"]).endswith("--real DEV_DIR --steps 5")
    frame = np.random.default_rng(0).integers(0, 255, (96, 128, 3), dtype=np.uint8)
    p = orienter.probabilities(frame, np.array([[40, 40, 20, 28, 10.0], [90, 50, 18, 24, -80.0]], np.float32))
    assert p.shape == (2, 4) and np.allclose(p.sum(axis=1), 1, atol=1e-5)


def test_widths_are_six_positive_channel_counts_and_recorded(tmp_path, capsys) -> None:
    assert train_orient.parse_widths("24,48,64,64,96,96") == (24, 48, 64, 64, 96, 96)
    for bad in ("16,32", "a,b,c,d,e,f", "16,32,48,48,64,0"):
        with pytest.raises(argparse.ArgumentTypeError, match="--widths"):
            train_orient.parse_widths(bad)
    out = tmp_path / "orient.onnx"
    args = ["--smoke", "--quiet", "--cache", str(tmp_path / "cache"), "--threads", "1", "--widths", "8,8,8,8,8,12"]
    assert train_orient.main([*args, "--out", str(out)]) == 0
    meta = TileOrienter(out, threads=1).session.get_modelmeta().custom_metadata_map
    assert meta["widths"] == "8,8,8,8,8,12"


def test_samples_are_labelled_by_the_quarter_turns_the_box_is_short_of() -> None:
    frames = np.zeros((1, 64, 64, 3), np.uint8)
    frames[0, 20:44, 26:38] = 230  # a tile 12 x 24, upright
    frames[0, 20:24, 26:38] = (0, 0, 230)  # red along its top
    boxes = [np.array([[32, 32, 12, 24, 0.0, 1, 1.0], [10, 10, 12, 24, 0, 0, 1.0]], np.float32)]  # 2nd: face down
    scenes = train_orient.samples(frames, boxes)
    assert len(scenes) == 1 and len(scenes[0][1]) == 1  # the face-down tile is no sample
    for seed in range(6):
        x, y = train_orient.make_batch(frames, scenes, np.random.default_rng(seed), 1, jitter=False)
        red = (x[0, :, :, 2] > 150) & (x[0, :, :, 1] < 80)
        rows, cols = np.nonzero(red)
        # the box is y[0] quarter turns short: turning it by y[0] brings the red edge to the top of the crop
        side = {0: rows.mean() < SIZE / 3, 2: rows.mean() > 2 * SIZE / 3, 1: cols.mean() < SIZE / 3,
                3: cols.mean() > 2 * SIZE / 3}
        assert side[int(y[0])], (y[0], rows.mean(), cols.mean())


def test_real_crops_become_small_turned_squares() -> None:
    crop = np.full((320, 240, 3), 220, np.uint8)
    crop[:40] = (0, 0, 200)
    rng = np.random.default_rng(1)
    views = train_orient.real_views([crop, crop], rng)
    assert all(14 <= max(w, h) <= 60 and img.shape[0] > h for img, w, h in views)
    x, y = train_orient.real_batch(views, rng, 8, turns=np.arange(8) % 4)
    assert x.shape == (8, SIZE, SIZE, 3) and list(y) == [0, 1, 2, 3, 0, 1, 2, 3]
    net = train_orient.OrientNet()
    assert net(train_orient.to_tensor(x)).shape == (8, 4)
    assert sum(p.numel() for p in net.parameters()) < 40_000
    assert isinstance(train_orient.to_tensor(x), torch.Tensor)
