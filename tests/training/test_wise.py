"""A fine-tune taken part of the way from its start (``--wise``, ``classifier_model.interpolated``)."""

from __future__ import annotations

import pytest
import torch

from training import train_classifier
from training.classifier_model import TileNet, interpolated


def test_the_weights_lie_the_share_of_the_way_and_counters_are_the_fine_tunes() -> None:
    start = {"w": torch.tensor([0.0, 2.0]), "n": torch.tensor(3)}
    end = {"w": torch.tensor([4.0, 6.0]), "n": torch.tensor(10)}
    assert torch.equal(interpolated(start, end, 0.0)["w"], start["w"])
    assert torch.equal(interpolated(start, end, 1.0)["w"], end["w"])
    half = interpolated(start, end, 0.5)
    assert torch.equal(half["w"], torch.tensor([2.0, 4.0]))
    assert half["n"].item() == 10
    with pytest.raises(ValueError, match="0-1, got 1.5"):
        interpolated(start, end, 1.5)
    with pytest.raises(ValueError, match="differ: \\['n'\\]"):
        interpolated(start, {"w": end["w"]}, 0.5)


def test_wise_needs_the_start_it_pulls_back_to(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--wise", "0.5"], ["--wise", "-1", "--init", "b.pt"], ["--wise", "2", "--init", "b.pt"]):
        with pytest.raises(SystemExit):
            train_classifier.parse_args(argv)
        assert "--wise must be 0-1 and goes with --init" in capsys.readouterr().err
    assert train_classifier.parse_args(["--wise", "0.7", "--init", "b.pt"]).wise == 0.7
    assert train_classifier.parse_args([]).wise == 1.0  # the fine-tune as trained, as the build has always done


def test_a_fine_tune_kept_none_of_the_way_is_its_start(tmp_path) -> None:
    torch.manual_seed(0)
    start = TileNet(train_classifier.NUM_CLASSES).state_dict()
    torch.save(start, tmp_path / "start.pt")
    argv = ["--styles", "2", "--eval-styles", "1", "--batch", "8", "--steps", "3", "--quiet", "--ckpt-only",
            "--init", str(tmp_path / "start.pt"), "--out", str(tmp_path / "m.onnx")]
    assert train_classifier.main([*argv, "--save-ckpt", str(tmp_path / "none.pt"), "--wise", "0"]) == 0
    assert train_classifier.main([*argv, "--save-ckpt", str(tmp_path / "all.pt")]) == 0
    none, whole = (torch.load(tmp_path / f, weights_only=True) for f in ("none.pt", "all.pt"))
    floats = [k for k in start if start[k].is_floating_point()]
    assert all(torch.equal(none[k], start[k]) for k in floats)  # trained, then pulled all the way back
    assert any(not torch.equal(whole[k], start[k]) for k in floats)  # the same run kept whole did move
