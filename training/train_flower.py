"""Train the flowers' second look (``companion/vision/flower.py``): a small model that reads only the top
strip of a flower tile, where its character and printed number are, at 96x48.

    python -m training.train_flower --smoke                               # ~20 s pipeline check
    python -m training.train_flower DEV_DIR --build --work WORK_DIR --features CLS_WORK/base.pt

``--build`` runs three stages with fixed seeds: (1) **base** on rendered flower faces only (the face
renderer's ``train`` styles, rendered at 1.5x the classifier's bank size so the corner is sharp), starting
from the features of the main classifier's synthetic-only base (``training.build_classifier`` writes
``WORK/base.pt``; from scratch the strip model stays at chance for hundreds of steps);
(2) for every physical set S of DEV_DIR a fine-tune with real flower crops of the *other* sets ->
``WORK/fine_SEED/loso/tile_flower_minus_S.onnx``; (3) the same fine-tune with every set ->
``WORK/fine_SEED/tile_flower.onnx``. Stages 2-3 run once per seed of ``FINE_SEEDS`` (the fine-tune's seed
alone moves the left-out flowers by two crops of 34), and each set's models of the seeds are joined into one
file by ``training/flower_ensemble.py``: ``WORK/loso/tile_flower_minus_S.onnx`` and ``models/tile_flower.onnx``.
Files that exist (the base, a seed's complete fine-tunes) are reused when the stamp written beside them
(``flower_base.json``, ``fine_SEED/member.json``: the inputs' SHA-256, seeds, recipe, sets) still matches. Every real-crop number is measured on a
set the scored model never saw.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import warnings
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import onnx
import torch

from companion.vision.augment import crop_quad, photometric
from companion.vision.detect import model_sha256
from companion.vision.flower import FLOWERS, STRIP_SIZE, STRIP_TOP, prepare_strips
from companion.vision.preprocess import MEAN, STD
from training import flower_ensemble
from training.classifier_data import _composite, render_bank
from training.classifier_model import LOGIT_SCALE, TileNet
from training.export_onnx import model_out, training_commit
from training.real_augment import augment_real
from training.real_crops import ERRATA, RealCrop, load_crops, split_left_out
from training.train_classifier import fit

ROOT = Path(__file__).resolve().parent.parent
FACE_SIZE = (126, 168)
BASE = ["--styles", "300", "--steps", "700", "--batch", "48", "--lr", "2e-3"]
FINE_SEEDS = (20261202, 3, 4)
"""The ensemble's members (``training/flower_ensemble.py``): the same base fine-tuned with each seed."""
FINE = ["--steps", "150", "--batch", "48", "--lr", "1e-3", "--real-frac", "0.4", "--styles", "60"]


def render_flowers(n_styles: int, split: str, seed: int, progress: bool = True
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The eight flower faces in ``n_styles`` styles: RGBA images, labels 0-7, face boxes."""
    bank = render_bank(n_styles, split, seed, FACE_SIZE, progress, kinds=range(34, 42))
    return bank.images, bank.labels - 34, bank.boxes


def augment(rgba: np.ndarray, box: np.ndarray, r: np.random.Generator) -> np.ndarray:
    """A photo-like BGR crop of a rendered face, 1-2.5x the classifier's input size (the second look only
    helps when the crop has the pixels)."""
    pad = rgba.shape[0] // 3
    canvas = _composite(rgba, pad, r)
    s = r.uniform(1.0, 2.5)
    ow, oh = round(60 * s * r.uniform(0.9, 1.1)), round(80 * s)
    dst = np.array([[0, 0], [ow, 0], [ow, oh], [0, oh]], np.float32)
    m = cv2.getPerspectiveTransform(crop_quad(box, pad, r), dst)
    crop = cv2.warpPerspective(canvas, m, (ow, oh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    return photometric(crop, r)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dev", type=Path, nargs="?", help="dev-data folder with crops.csv (real crops)")
    ap.add_argument("--build", action="store_true", help="base, leave-one-set-out and final models")
    ap.add_argument("--work", type=Path, help="with --build: folder for the base and the LOSO models")
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--fine-seeds", type=int, nargs="+", default=list(FINE_SEEDS),
                    help="with --build: the seeds of the ensemble's members (fine-tunes of one base)")
    ap.add_argument("--styles", type=int, default=400)
    ap.add_argument("--eval-styles", type=int, default=40)
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--real-frac", type=float, default=0.0)
    ap.add_argument("--leave-out", default="")
    ap.add_argument("--init", type=Path, help="start from a strip model's weights (--save-ckpt)")
    ap.add_argument("--features", type=Path, help="start from a main classifier's weights, all but its head")
    ap.add_argument("--save-ckpt", type=Path)
    ap.add_argument("--out", type=Path, help="the model file (default models/tile_flower.onnx; build/smoke/tile_flower.onnx with --smoke)")
    ap.add_argument("--float", action="store_true",
                    help="with --build: keep the ensembles float32 (no 8-bit quantisation, float input)")
    ap.add_argument("--quantise", type=Path, nargs="+", metavar="ENSEMBLE",
                    help="quantise these float ensembles in place (8 bits, quantised patches in), and stop")
    ap.add_argument("--smoke", action="store_true")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    args.out = model_out(args.out, args.smoke, "tile_flower.onnx")
    if args.smoke:
        args.styles, args.eval_styles, args.steps, args.batch = 3, 2, 20, 16
    return args


def batches(faces: tuple[np.ndarray, np.ndarray, np.ndarray], real: list[RealCrop], args: argparse.Namespace,
            r: np.random.Generator) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    images, labels, boxes = faces
    n_real = round(args.batch * args.real_frac) if real else 0
    for _ in range(args.steps):
        idx = r.integers(0, len(labels), args.batch - n_real)
        crops = [augment(images[i], boxes[i], r) for i in idx]
        y = list(labels[idx])
        for i in r.integers(0, len(real), n_real) if n_real else []:
            crops.append(augment_real(real[i].image, r))
            y.append(int(real[i].tile) - 34)
        yield prepare_strips(crops), np.asarray(y, np.int64)


def train(model: TileNet, faces: tuple[np.ndarray, np.ndarray, np.ndarray], real: list[RealCrop],
          args: argparse.Namespace, r: np.random.Generator) -> float:
    return fit(model, batches(faces, real, args, r), args.steps, args.lr, args.quiet, channels_last=False)[0]


@torch.no_grad()
def _predict(model: TileNet, x: np.ndarray) -> np.ndarray:
    model.eval()
    return model(torch.from_numpy(x))[0].argmax(1).numpy() if len(x) else np.zeros(0, np.int64)


def evaluate(model: TileNet, args: argparse.Namespace, held: list[RealCrop]) -> dict[str, float]:
    images, labels, boxes = render_flowers(args.eval_styles, "heldout", args.seed + 1, not args.quiet)
    r = np.random.default_rng(args.seed + 2)
    pred = _predict(model, prepare_strips([augment(images[i], boxes[i], r) for i in range(len(labels))]))
    out = {"heldout_synthetic_flowers_top1": float((pred == labels).mean()), "heldout_images": float(len(labels))}
    if held:
        y = np.array([int(c.tile) - 34 for c in held])
        p = _predict(model, prepare_strips([c.image for c in held]))
        out |= {"real_flowers_top1": float((p == y).mean()), "real_flowers": float(len(y))}
        print("wrong:", " ".join(f"{c.file}:{c.tile}->{FLOWERS[k]}" for c, k, t in zip(held, p, y, strict=True)
                                  if k != t))
    return out


def export(model: TileNet, path: Path, info: dict[str, object]) -> None:
    model.eval()
    path.parent.mkdir(parents=True, exist_ok=True)
    w, h = STRIP_SIZE
    with warnings.catch_warnings():  # the TorchScript exporter's deprecation notices
        warnings.simplefilter("ignore")
        torch.onnx.export(model, (torch.zeros(2, 3, h, w),), str(path), input_names=["input"],
                          output_names=["logits", "embedding"],
                          dynamic_axes={"input": {0: "n"}, "logits": {0: "n"}, "embedding": {0: "n"}},
                          opset_version=17, dynamo=False)
    m = onnx.load(str(path))
    meta = {"class_names": json.dumps(list(FLOWERS)), "input_size": json.dumps({"width": w, "height": h}),
            "strip_top": str(STRIP_TOP), "input_format": "RGB float32 NCHW of the crop's top strip, "
            "(pixel/255 - mean) / std", "mean": json.dumps(list(MEAN)), "std": json.dumps(list(STD)),
            "logit_scale": json.dumps(LOGIT_SCALE), "training_commit": training_commit(),
            "training": json.dumps(info)}
    del m.metadata_props[:]
    for k, v in meta.items():
        m.metadata_props.add(key=k, value=v)
    onnx.save(m, str(path))


def run(args: argparse.Namespace) -> dict[str, object]:
    torch.set_num_threads(args.threads)
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    r = np.random.default_rng(args.seed)
    faces = render_flowers(args.styles, "train", args.seed, not args.quiet)
    flowers = [c for c in load_crops(args.dev) if c.tile.is_flower] if args.dev else []
    try:
        real, held = split_left_out(flowers, args.leave_out, args.dev) if args.real_frac > 0 else ([], flowers)
    except ValueError as e:
        raise SystemExit(f"error: {e}") from e
    model = TileNet(8)
    if args.init:
        model.load_state_dict(torch.load(args.init, map_location="cpu", weights_only=True))
    elif args.features:
        state = torch.load(args.features, map_location="cpu", weights_only=True)
        got = model.load_state_dict({k: v for k, v in state.items() if not k.startswith("head.")}, strict=False)
        if got.missing_keys != ["head.weight"] or got.unexpected_keys:
            raise SystemExit(f"{args.features}: not a classifier checkpoint of this network "
                             f"(missing {got.missing_keys}, unexpected {got.unexpected_keys})")
    seconds = train(model, faces, real, args, r)
    info: dict[str, object] = {"features": args.features.name if args.features else None, "seed": args.seed, "styles": args.styles, "steps": args.steps, "batch": args.batch,
                               "real_sets_used": sorted({c.set for c in real}), "leave_out": args.leave_out,
                               "train_seconds": round(seconds)}
    info |= evaluate(model, args, held)
    export(model, args.out, info)
    if args.save_ckpt:
        args.save_ckpt.parent.mkdir(parents=True, exist_ok=True)
        torch.save(model.state_dict(), args.save_ckpt)
    print(json.dumps({"out": str(args.out), **info}))
    return info


def build(args: argparse.Namespace) -> None:
    if not args.dev or not args.work:
        raise SystemExit("--build needs DEV_DIR and --work")
    if not args.features:
        raise SystemExit("--build needs --features (the main classifier's synthetic-only base weights)")
    if not args.features.is_file():
        raise SystemExit(f"--features {args.features}: no such file")
    if len(set(args.fine_seeds)) < 2:
        raise SystemExit(f"--fine-seeds needs at least two different seeds, got {args.fine_seeds}")
    t = ["--threads", str(args.threads)] + (["--quiet"] if args.quiet else [])
    base = args.work / "flower_base.pt"
    want = {"features_sha256": model_sha256(args.features), "seed": args.seed, "recipe": BASE}
    if not _reusable(args.work / "flower_base.json", want, [base]):
        run(parse_args([str(args.dev), *BASE, *t, "--seed", str(args.seed), "--features", str(args.features),
                        "--save-ckpt", str(base), "--out", str(args.work / "flower_base.onnx")]))
        _stamp(args.work / "flower_base.json", want)
    sets = sorted({c.set for c in load_crops(args.dev)})
    crops = hashlib.sha256((args.dev / "crops.csv").read_bytes() + ERRATA.read_bytes()).hexdigest()
    members = []
    for seed in args.fine_seeds:
        work = args.work / f"fine_{seed}"
        outs = [work / "loso" / f"tile_flower_minus_{s}.onnx" for s in sets] + [work / "tile_flower.onnx"]
        members.append(outs)
        want = {"base_sha256": model_sha256(base), "seed": seed, "recipe": FINE, "sets": sets, "crops_sha256": crops}
        if _reusable(work / "member.json", want, outs):
            continue
        common = [str(args.dev), *FINE, *t, "--init", str(base), "--seed", str(seed)]
        for s, out in zip(sets, outs[:-1], strict=True):
            run(parse_args([*common, "--leave-out", s, "--out", str(out)]))
        run(parse_args([*common, "--out", str(outs[-1])]))
        _stamp(work / "member.json", want)
    ensembles = [args.work / "loso" / f"tile_flower_minus_{s}.onnx" for s in sets] + [args.out]
    for i, out in enumerate(ensembles):
        flower_ensemble.combine([m[i] for m in members], out)
    if not args.float:
        quantise(ensembles)


QUANTISE_STYLES, QUANTISE_CROPS, QUANTISE_SEED = 60, 600, 5
"""The 8-bit ensembles' activation ranges: :data:`QUANTISE_CROPS` photo-like crops (:func:`augment`) of the
flower faces of :data:`QUANTISE_STYLES` rendered ``train`` styles, seed :data:`QUANTISE_SEED`; no real crop."""


def quantise(paths: list[Path]) -> None:
    """Quantise each float ensemble in ``paths`` in place to 8 bits (``training/quantize.py``: static, QDQ,
    per-channel weights, ranges from the rendered strips above) and rewrite it to take quantised patches like
    the classifier (``training/onnx_rewrite.patch_input``, one stem per member). Why: the three float members
    cost 4.6 ms for the 14 flower crops of the 72-crop measure, the 8-bit ones with patches in 2.9-3.4 ms
    (models/README.md, the flower card)."""
    from training.quantize import quantize

    faces = render_flowers(QUANTISE_STYLES, "train", QUANTISE_SEED, progress=False)
    r = np.random.default_rng(QUANTISE_SEED)
    idx = r.integers(0, len(faces[1]), QUANTISE_CROPS)
    x = prepare_strips([augment(faces[0][i], faces[2][i], r) for i in idx])
    for path in paths:
        quantize(path, path, inputs=x)
        print(f"quantised {path} ({path.stat().st_size / 1e6:.2f} MB)")


def _stamp(path: Path, record: dict[str, object]) -> None:
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def _reusable(stamp: Path, want: dict[str, object], files: list[Path]) -> bool:
    """Whether ``files`` exist and were made from what ``want`` records (the stamp written beside them when
    they were made: the inputs' SHA-256, seeds, recipe and sets), so that a build reuses nothing stale."""
    if all(p.is_file() for p in files) and stamp.is_file() and json.loads(stamp.read_text(encoding="utf-8")) == want:
        print(f"reusing {', '.join(sorted({str(p.parent) for p in files}))} ({stamp.name} matches)")
        return True
    return False


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.quantise:
        quantise(args.quantise)
    elif args.build:
        build(args)
    else:
        run(args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
