"""The detector's training script runs end to end (``--smoke``) and exports a self-describing model."""

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from companion.vision.detect import TileDetector, model_sha256
from training import train_detector
from training.detector_model import STRIDE, make_targets
from training.detector_model import TileDetector as TileDetector_
from training.onnx_rewrite import _agree, fast_graph


def test_targets_put_a_peak_at_each_visible_tile_and_ignore_half_hidden_ones() -> None:
    boxes = np.array([[40, 40, 20, 28, 0, 1, 1.0], [100, 40, 20, 28, 90, 0, 1.0], [40, 100, 20, 28, 0, 1, 0.4],
                      [100, 100, 20, 28, 0, 1, 0.05]], np.float32)
    t = make_targets(boxes, (128, 128))
    assert t["heat"][0, 10, 10] == 1.0 and t["heat"][1, 10, 25] == 1.0
    assert t["heat"].max(axis=0)[25, 10] == 0 and t["weight"][25, 10] == 0  # half hidden: no loss there
    assert t["weight"][25, 25] == 1  # hardly visible: plain background
    assert np.allclose(t["reg"][:, 10, 25], [0, 0, np.log(20 / STRIDE), np.log(28 / STRIDE), 0, 1], atol=1e-5)
    assert t["mask"][1, 10, 25] == 1 and t["mask"][1, 10, 10] == 0  # face down: angle taken mod 180


def test_a_bigger_scene_set_renders_only_the_scenes_the_cached_smaller_one_lacks(tmp_path, monkeypatch) -> None:
    rendered: list[int] = []
    render_one = train_detector._render_one

    def counting(job: tuple[int, str, int]) -> tuple[np.ndarray, np.ndarray]:
        rendered.append(job[2])
        return render_one(job)

    monkeypatch.setattr(train_detector, "_render_one", counting)
    grown = tmp_path / "grown"
    train_detector.render_set(2, 5, "train", grown, 1)
    frames, boxes = train_detector.render_set(3, 5, "train", grown, 1)
    assert rendered == [0, 1, 2]  # scenes 0 and 1 came from the 2-scene set
    again, again_boxes = train_detector.render_set(3, 5, "train", grown, 1)  # the 3-scene set itself, cached
    assert rendered == [0, 1, 2] and np.array_equal(again, frames)
    fresh, fresh_boxes = train_detector.render_set(3, 5, "train", tmp_path / "fresh", 1)
    assert frames.dtype == fresh.dtype == np.uint8 and np.array_equal(frames, fresh)
    assert all(np.array_equal(a, b) for a, b in zip(boxes, fresh_boxes, strict=True)) and len(boxes) == 3
    assert all(np.array_equal(a, b) for a, b in zip(again_boxes, fresh_boxes, strict=True))
    assert sorted(train_detector._cached_sizes(grown, "train", 5)) == [2, 3]
    before = list(rendered)
    fresh_one, fresh_one_boxes = train_detector.render_set(1, 5, "train", fresh_dir := tmp_path / "fresh", 1)
    assert rendered == before and np.array_equal(fresh_one, fresh[:1])  # the first of the cached 3-scene set
    assert np.array_equal(fresh_one_boxes[0], fresh_boxes[0]) and len(fresh_one_boxes) == 1
    assert sorted(train_detector._cached_sizes(fresh_dir, "train", 5)) == [3]  # nothing new written


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


_META = {"k": "v", "long_side": "640", "stride": "4", "classes": '["tile_up", "tile_down"]', "threshold": "0.5"}


def _exported(tmp_path: Path, rewrite: bool) -> Path:
    torch.manual_seed(3)
    net = TileDetector_(extra=1).eval()
    with torch.no_grad():  # batch-norm statistics that are not the identity, so the blocks do something
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.2, 0.2)
                m.running_var.uniform_(0.5, 1.5)
                m.weight.uniform_(0.5, 1.5)
    out = tmp_path / ("det.onnx" if rewrite else "det_sizes.onnx")
    train_detector.export(net, out, _META, fast=rewrite)
    return out


def test_the_fast_graph_computes_what_the_exported_one_did(tmp_path: Path) -> None:
    import onnx
    import onnxruntime as ort

    fixed, sizes = _exported(tmp_path, True), _exported(tmp_path, False)
    graph = onnx.load(str(fixed)).graph
    assert not [n for n in graph.node if n.op_type in ("Shape", "Sub", "Div")]  # no shape arithmetic left
    assert graph.node[0].op_type == "BatchNormalization"  # the normalisation in one pass
    assert [n for n in onnx.load(str(sizes)).graph.node if n.op_type == "Shape"]
    meta = {p.key: p.value for p in onnx.load(str(fixed)).metadata_props}
    assert meta["k"] == "v" and json.loads(meta["graph_rewrite"])["from_sha256"] == model_sha256(sizes)
    rng = np.random.default_rng(0)
    for h, w in ((64, 64), (96, 160), (384, 640)):  # multiples of 32, as letterbox makes them
        x = rng.uniform(0, 255, (1, 3, h, w)).astype(np.float32)
        a = ort.InferenceSession(str(fixed)).run(None, {"image": x})
        b = ort.InferenceSession(str(sizes)).run(None, {"image": x})
        assert [p.shape for p in a] == [q.shape for q in b]
        assert np.allclose(a[1], b[1], atol=1e-5)  # reg
        # peaks: equal, except where the flat heat of random weights ties its 3x3 maximum to a rounding
        both = (a[0] > 0) & (b[0] > 0)
        assert np.allclose(a[0][both], b[0][both], atol=1e-6) and both.any()
        assert ((a[0] > 0) != (b[0] > 0)).mean() < 1e-3


def test_the_fast_graph_refuses_a_file_already_rewritten(tmp_path: Path, capsys) -> None:
    fixed = _exported(tmp_path, True)
    with pytest.raises(ValueError, match="already rewritten"):
        fast_graph(fixed)
    assert train_detector.main(["--fast-graph", str(fixed)]) == 2
    assert "already rewritten" in capsys.readouterr().err


def test_a_back_check_of_the_file_before_the_rewrite_still_matches(tmp_path: Path) -> None:
    """The back check names its detector by the file's hash; the rewritten graph computes the same and names
    the file it came from, so the packaged check is used without a warning."""
    sizes = _exported(tmp_path, False)
    det = TileDetector(sizes, threads=1, backs=False)
    before = det.sha256s()
    fast_graph(sizes)
    det = TileDetector(sizes, threads=1, backs=False)
    after = det.sha256s()
    assert after[1:] == before and after[0] != before[0]


def test_the_fast_graph_refuses_a_graph_that_is_not_a_detector_or_does_not_agree(tmp_path: Path, capsys) -> None:
    import onnx

    from companion.vision.orient import default_model_path as orient_model

    other = tmp_path / "orient.onnx"
    other.write_bytes(orient_model().read_bytes())
    with pytest.raises(ValueError, match="no Resize node"):
        fast_graph(other)
    junk = tmp_path / "junk.onnx"
    junk.write_bytes(b"not a model")
    assert train_detector.main(["--fast-graph", str(junk)]) == 2
    assert "junk.onnx" in capsys.readouterr().err
    sizes = _exported(tmp_path, False)
    a = onnx.load(str(sizes))
    b = onnx.load(str(sizes))
    w = next(t for t in b.graph.initializer if len(t.dims) == 4)
    arr = onnx.numpy_helper.to_array(w) * 1.5
    w.CopyFrom(onnx.numpy_helper.from_array(arr, w.name))
    with pytest.raises(ValueError, match="does not compute what the original does"):
        _agree(a, b, sizes)
    _agree(a, a, sizes)  # a graph agrees with itself


@pytest.mark.parametrize("rewrite", [True, False])
def test_a_detector_rebuilt_from_its_exported_file_computes_what_the_file_computes(tmp_path: Path,
                                                                                   rewrite: bool) -> None:
    """``--from-onnx``: the export folds every batch norm into its convolution; the loader gives each batch
    norm back statistics and the scale and shift that undo them, so training can go on from a shipped file."""
    import onnxruntime as ort

    path = _exported(tmp_path, rewrite)
    rng = np.random.default_rng(1)
    calib = torch.from_numpy(rng.normal(0, 1, (4, 3, 64, 64)).astype(np.float32))
    net = TileDetector_(extra=1)
    net.load_folded(train_detector.folded_convolutions(path), calib)
    assert net.training  # left as it was found
    bn = net.s8[1].pw[1]
    assert float(bn.running_var.min()) > 0 and not torch.allclose(bn.weight, torch.ones_like(bn.weight))
    net.eval()
    x = rng.uniform(0, 255, (1, 3, 96, 128)).astype(np.float32)
    peaks, reg = ort.InferenceSession(str(path)).run(None, {"image": x})
    with torch.no_grad():
        mine = net((torch.from_numpy(x) - train_detector.MEAN) / train_detector.STD)
    assert np.allclose(mine[:, 2:].numpy(), reg, atol=1e-4)
    assert np.allclose(torch.sigmoid(mine[:, :2]).numpy()[peaks > 0], peaks[peaks > 0], atol=1e-5)
    net.train()  # in training mode the batch's own statistics stand in: the calibration batch gives them back
    with torch.no_grad():
        assert torch.allclose(net(calib), net.eval()(calib), atol=1e-3)
    with pytest.raises(ValueError, match="do not fit this detector"):
        TileDetector_(extra=0).load_folded(train_detector.folded_convolutions(path), calib)


def test_from_onnx_is_refused_beside_other_starting_weights_or_with_another_depth(tmp_path: Path, capsys) -> None:
    model = "models/tile_detector.onnx"
    with pytest.raises(SystemExit):
        train_detector.main(["--from-onnx", model, "--resume", str(tmp_path / "x.pt"), "--extra", "2"])
    assert "give one" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        train_detector.main(["--from-onnx", model, "--extra", "0", "--cache", str(tmp_path)])
    assert "pass --extra 2" in capsys.readouterr().err
