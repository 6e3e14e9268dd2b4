"""The detector's training script runs end to end (``--smoke``) and exports a self-describing model."""

import json

import numpy as np

from companion.vision.detect import TileDetector
from training import train_detector
from training.detector_model import STRIDE, make_targets


def test_targets_put_a_peak_at_each_visible_tile_and_ignore_half_hidden_ones() -> None:
    boxes = np.array([[40, 40, 20, 28, 0, 1, 1.0], [100, 40, 20, 28, 90, 0, 1.0], [40, 100, 20, 28, 0, 1, 0.4],
                      [100, 100, 20, 28, 0, 1, 0.05]], np.float32)
    t = make_targets(boxes, (128, 128))
    assert t["heat"][0, 10, 10] == 1.0 and t["heat"][1, 10, 25] == 1.0
    assert t["heat"].max(axis=0)[25, 10] == 0 and t["weight"][25, 10] == 0  # half hidden: no loss there
    assert t["weight"][25, 25] == 1  # hardly visible: plain background
    assert np.allclose(t["reg"][:, 10, 25], [0, 0, np.log(20 / STRIDE), np.log(28 / STRIDE), 0, 1], atol=1e-5)
    assert t["mask"][1, 10, 25] == 1 and t["mask"][1, 10, 10] == 0  # face down: angle taken mod 180


def test_smoke_run_trains_evaluates_and_exports(tmp_path, capsys) -> None:
    out = tmp_path / "det.onnx"
    assert train_detector.main(["--smoke", "--cache", str(tmp_path / "cache"), "--out", str(out),
                                "--threads", "1"]) == 0
    report, tuned = (json.loads(line) for line in capsys.readouterr().out.strip().splitlines()[-2:])
    assert 0 <= report["heldout_val"]["recall"] <= 1 and report["heldout_val"]["targets"] > 0
    assert tuned["threshold"] in [float(t) for t in tuned["table"]]
    det = TileDetector(out, threads=1, backs=False)  # the network alone (the packaged check is not its)
    meta = det.session.get_modelmeta().custom_metadata_map
    assert json.loads(meta["classes"]) == ["tile_up", "tile_down"]
    assert json.loads(meta["normalisation"])["order"] == "BGR"
    assert float(meta["threshold"]) == tuned["threshold"] and "threshold_tuning" in meta
    boxes = det.detect(np.full((360, 640, 3), 90, np.uint8))
    assert boxes.obb.shape[1] == 5


def test_a_deeper_detector_loaded_from_a_shallower_one_computes_the_same() -> None:
    """``--extra`` blocks start as the identity, so resuming a trained detector with them changes nothing
    until they learn; a checkpoint that fits neither shape is refused."""
    import pytest
    import torch

    from training.detector_model import TileDetector as Net

    torch.manual_seed(0)
    small = Net()
    for m in small.modules():  # non-trivial batch-norm statistics, as after training
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.uniform_(-0.2, 0.2)
            m.running_var.uniform_(0.5, 1.5)
            m.weight.data.uniform_(0.5, 1.5)
    deep = Net(extra=2)
    deep.load_deeper(small.state_dict())
    small.eval()
    deep.eval()
    x = torch.randn(1, 3, 64, 96)
    with torch.no_grad():
        assert torch.allclose(small(x), deep(x), atol=1e-5)
    assert sum(p.numel() for p in deep.parameters()) > sum(p.numel() for p in small.parameters())
    with pytest.raises(ValueError, match="does not fit"):
        Net().load_deeper({**small.state_dict(), "stray.weight": torch.zeros(1)})
