"""The flower-strip ensemble: several seeds' strip models as one file that reads like one model, and the
flower build that fine-tunes one base with each seed and joins each set's models."""

import json
import shutil
from argparse import Namespace
from pathlib import Path

import numpy as np
import onnx
import pytest
from conftest import write_dev_crops

from companion.vision.flower import FlowerReader
from training import flower_ensemble, train_flower


@pytest.fixture(scope="module")
def members(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    d = tmp_path_factory.mktemp("members")
    out = []
    for seed in (1, 2):
        p = d / f"strip{seed}.onnx"
        assert train_flower.main(["--smoke", "--quiet", "--seed", str(seed), "--out", str(p)]) == 0
        out.append(p)
    return out


def test_the_ensemble_reads_as_the_mean_of_its_members(members: list[Path], tmp_path: Path) -> None:
    ens = tmp_path / "ens.onnx"
    flower_ensemble.combine(members, ens)
    rng = np.random.default_rng(0)
    crops = [rng.integers(0, 255, (120, 90, 3), dtype=np.uint8) for _ in range(5)]
    logits, emb = FlowerReader(ens).run(crops)
    parts = [FlowerReader(p).run(crops) for p in members]
    assert np.allclose(logits, np.mean([p[0] for p in parts], axis=0), atol=1e-5)
    assert np.allclose(emb, np.concatenate([p[1] for p in parts], axis=1) / np.sqrt(2), atol=1e-6)
    assert np.allclose(np.linalg.norm(emb, axis=1), 1, atol=1e-5)  # a cosine embedding, as calibration needs
    q = FlowerReader(ens).probabilities(crops)
    assert q.shape == (5, 8) and np.allclose(q.sum(axis=1), 1, atol=1e-5)
    meta = {p.key: p.value for p in onnx.load(str(ens)).metadata_props}
    listed = json.loads(meta["ensemble"])
    assert [m["file"] for m in listed] == [p.name for p in members] and all(len(m["sha256"]) == 64 for m in listed)
    assert [m["training"]["seed"] for m in listed] == [1, 2] and all(m["training_commit"] for m in listed)


def test_members_must_be_alike_strip_models(members: list[Path], tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="at least two"):
        flower_ensemble.combine(members[:1], tmp_path / "one.onnx")
    other = onnx.load(str(members[1]))
    for p in other.metadata_props:
        if p.key == "strip_top":
            p.value = "0.5"
    onnx.save(other, str(tmp_path / "other.onnx"))
    with pytest.raises(ValueError, match="strip_top"):
        flower_ensemble.combine([members[0], tmp_path / "other.onnx"], tmp_path / "bad.onnx")
    (tmp_path / "cut.onnx").write_bytes(members[0].read_bytes()[:1000])
    with pytest.raises(ValueError, match="cut.onnx: not a readable ONNX model"):
        flower_ensemble.combine([members[0], tmp_path / "cut.onnx"], tmp_path / "bad.onnx")
    assert not (tmp_path / "bad.onnx").exists()


def test_the_build_fine_tunes_one_base_per_seed_and_joins_each_sets_models(
        members: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dev = write_dev_crops(tmp_path / "dev", [("1f", "2-1.jpg"), ("5f", "9.jpg"), ("1m", "9.jpg")])
    runs: list[Namespace] = []

    def fake_run(args: Namespace) -> dict[str, object]:  # a "training" that writes a smoke strip model
        runs.append(args)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(members[len(runs) % 2], args.out)
        if args.save_ckpt:
            args.save_ckpt.write_bytes(b"weights")
        return {}

    monkeypatch.setattr(train_flower, "run", fake_run)
    work = tmp_path / "work"
    (tmp_path / "base.pt").write_bytes(b"classifier base")
    argv = [str(dev), "--build", "--work", str(work), "--features", str(tmp_path / "base.pt"), "--out", str(tmp_path / "final.onnx"),
            "--fine-seeds", "7", "8", "--float"]  # (the 8-bit step has its own test below)
    assert train_flower.main(argv) == 0
    assert len(runs) == 1 + 2 * 3  # the base, then per seed two left-out sets and all sets
    assert runs[0].seed == 20261201 and runs[0].init is None and runs[0].features == tmp_path / "base.pt"
    assert [(a.seed, a.leave_out) for a in runs[1:]] == [(7, "2"), (7, "9"), (7, ""), (8, "2"), (8, "9"), (8, "")]
    assert all(a.init == work / "flower_base.pt" for a in runs[1:])
    for s in ("2", "9"):
        meta = {p.key: p.value for p in onnx.load(str(work / "loso" / f"tile_flower_minus_{s}.onnx")).metadata_props}
        assert [m["file"] for m in json.loads(meta["ensemble"])] == [
            f"fine_{seed}/loso/tile_flower_minus_{s}.onnx" for seed in (7, 8)]
    meta = {p.key: p.value for p in onnx.load(str(tmp_path / "final.onnx")).metadata_props}
    assert [m["file"] for m in json.loads(meta["ensemble"])] == ["fine_7/tile_flower.onnx", "fine_8/tile_flower.onnx"]
    FlowerReader(tmp_path / "final.onnx")
    runs.clear()
    assert train_flower.main(argv) == 0 and runs == []  # everything there and stamped: reused, only joined again
    # a set more in the dev data: the stamps no longer match, so both seeds are fine-tuned again (not the base)
    write_dev_crops(tmp_path / "dev", [("1f", "2-1.jpg"), ("5f", "9.jpg"), ("1m", "9.jpg"), ("2f", "4.jpg")])
    assert train_flower.main(argv) == 0
    assert [(a.seed, a.leave_out) for a in runs] == [(s, x) for s in (7, 8) for x in ("2", "4", "9", "")]
    runs.clear()
    (work / "flower_base.pt").write_bytes(b"other weights")  # another base under the name: the members follow it
    assert train_flower.main(argv) == 0 and len(runs) == 2 * 4 and all(a.save_ckpt is None for a in runs)
    runs.clear()
    (tmp_path / "base.pt").write_bytes(b"another classifier base")  # other features: the base is trained again
    assert train_flower.main(argv) == 0 and runs[0].save_ckpt == work / "flower_base.pt" and len(runs) == 1 + 2 * 4
    with pytest.raises(SystemExit, match="two different seeds"):
        train_flower.main([*argv[:-3], "7", "7"])


def test_an_ensemble_quantised_takes_patches_and_answers_as_the_float_one(
        members: list[Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.vision.preprocess import MEAN

    ens, q = tmp_path / "ens.onnx", tmp_path / "q.onnx"
    flower_ensemble.combine(members, ens)
    q.write_bytes(ens.read_bytes())
    monkeypatch.setattr(train_flower, "QUANTISE_STYLES", 2)
    monkeypatch.setattr(train_flower, "QUANTISE_CROPS", 48)
    assert train_flower.main(["--quantise", str(q)]) == 0
    model = onnx.load(str(q))
    meta = {p.key: p.value for p in model.metadata_props}
    assert json.loads(meta["patch_input"])["patch"] == 4 and "quantized" in meta and json.loads(meta["mean"])[0] == MEAN[0]
    stems = [n for n in model.graph.node if n.op_type == "Conv" and
             [list(a.ints) for a in n.attribute if a.name == "kernel_shape"] == [[1, 1]] and
             any(n.input[0] == d.output[0] for d in model.graph.node if d.op_type == "DequantizeLinear" and
                 d.input[0] == "/patches/nchw")]
    assert len(stems) == len(members)  # one stem per member, all reading the one quantised input
    assert q.stat().st_size < ens.stat().st_size
    rng = np.random.default_rng(1)
    crops = [rng.integers(0, 255, (int(rng.integers(60, 200)), int(rng.integers(48, 150)), 3), dtype=np.uint8)
             for _ in range(12)]
    fa, fb = FlowerReader(ens), FlowerReader(q)
    assert fa._patches is None and fb._patches is not None
    (la, _), (lb, eb) = fa.run(crops), fb.run(crops)
    assert lb.shape == la.shape and np.abs(la - lb).mean() < 0.1 * np.abs(la).mean() + 0.05
    assert np.allclose(np.linalg.norm(eb, axis=1), 1, atol=0.05)
    with pytest.raises(ValueError, match="already quantised"):
        train_flower.quantise([q])
