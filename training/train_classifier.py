"""Train the tile classifier on rendered faces (and optionally real crops), evaluate it, export ONNX.

    python -m training.train_classifier --smoke                      # ~1 minute, tiny model check
    python -m training.train_classifier --threads 2                  # the packaged model (see models/README.md)
    python -m training.train_classifier --real DIR --leave-out 9     # also learn from real crops, minus set 9

Everything is drawn from ``--seed``: the styles, the augmentation, the initial weights and the batches.
Real crops (``--real``) are mixed into the batches; ``--leave-out SET`` keeps one physical set out so its
accuracy is honest. The ONNX file carries its class names, input size, normalisation and training commit.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import queue
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import torch
from torch import nn

from companion.vision.preprocess import prepare
from training.classifier_data import (
    BANK_SIZE,
    CLASS_NAMES,
    NUM_CLASSES,
    TRAIN_LOW_RES,
    Bank,
    make_batch,
    negative,
    render_bank,
)
from training.classifier_model import LOGIT_SCALE, TileNet, load_weights
from training.export_onnx import export, model_out
from training.progress import Progress
from training.real_augment import augment_real
from training.real_crops import RealCrop, load_crops, split_left_out

ROOT = Path(__file__).resolve().parent.parent


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--styles", type=int, default=700, help="training tile-set styles to render")
    ap.add_argument("--eval-styles", type=int, default=40, help="held-out styles for the synthetic test")
    ap.add_argument("--steps", type=int, default=5000)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=4e-3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--real", type=Path, help="folder with crops.csv: mix real crops into training")
    ap.add_argument("--leave-out", default="", help="physical set kept out of training (with --real)")
    ap.add_argument("--real-frac", type=float, default=0.15, help="share of each batch from real crops")
    ap.add_argument("--low-res", type=float, default=TRAIN_LOW_RES,
                    help="share of training crops drawn 18-36 px wide, as in a table frame (the measures keep 0.2)")
    ap.add_argument("--out", type=Path, help="the model file (default models/tile_classifier.onnx; build/smoke/tile_classifier.onnx with --smoke)")
    ap.add_argument("--init", type=Path, help="start from these weights (a --save-ckpt file): fine-tuning")
    ap.add_argument("--save-ckpt", type=Path, help="also save the trained weights (torch state dict) here")
    ap.add_argument("--bank-cache", type=Path, help="folder to keep rendered faces between runs (same pixels)")
    ap.add_argument("--smoke", action="store_true", help="a tiny run (about a minute) that checks the pipeline")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    args.out = model_out(args.out, args.smoke, "tile_classifier.onnx")
    if args.smoke:
        args.styles, args.eval_styles, args.steps, args.batch = 4, 1, 30, 32
    return args


def cached_bank(folder: Path | None, styles: int, split: str, seed: int, progress: bool) -> Bank:
    """``render_bank`` kept on disk, keyed by its arguments and the renderer's source code."""
    if folder is None:
        return render_bank(styles, split, seed, progress=progress)
    src = b"".join(p.read_bytes() for p in sorted((ROOT / "training" / "synth").glob("*.py")) if "scene" not in p.name)
    key = hashlib.sha256(src + f"{styles}-{split}-{seed}-{BANK_SIZE}".encode()).hexdigest()[:16]
    path = folder / f"bank-{split}-{styles}-{key}.npz"
    if path.exists():
        with np.load(path) as z:
            return Bank(z["images"], z["labels"], z["boxes"])
    bank = render_bank(styles, split, seed, progress=progress)
    folder.mkdir(parents=True, exist_ok=True)
    np.savez(path, images=bank.images, labels=bank.labels, boxes=bank.boxes)
    return bank


def seed_everything(seed: int) -> np.random.Generator:
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)
    return np.random.default_rng(seed)


def real_batch(crops: list[RealCrop], n: int, r: np.random.Generator, low_res: float
               ) -> tuple[np.ndarray, np.ndarray]:
    pick = r.integers(0, len(crops), n)
    return prepare([augment_real(crops[i].image, r, low_res) for i in pick]), np.array([int(crops[i].tile) for i in pick])


def batches(bank: Bank, real: list[RealCrop], args: argparse.Namespace, r: np.random.Generator
            ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The training batches, in order: rendered faces (and a share of real crops) augmented."""
    n_real = round(args.batch * args.real_frac) if real else 0
    weight = np.where((bank.labels >= 34) & (bank.labels < 42), 2.0, 1.0)  # flowers are the hard ones
    weight /= weight.sum()
    for _ in range(args.steps):
        x, y = make_batch(bank, r.choice(len(bank), args.batch - n_real, p=weight), r, low_res=args.low_res)
        if n_real:
            xr, yr = real_batch(real, n_real, r, args.low_res)
            x, y = np.concatenate([x, xr]), np.concatenate([y, yr])
        yield x, y


def prefetch(items: Iterator[tuple[np.ndarray, np.ndarray]], depth: int = 4
             ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Build batches in one background thread (OpenCV releases the GIL) while the model trains;
    a single producer keeps the order, so runs stay reproducible."""
    q: queue.Queue[tuple[np.ndarray, np.ndarray] | None] = queue.Queue(depth)

    def work() -> None:
        for item in items:
            q.put(item)
        q.put(None)

    threading.Thread(target=work, daemon=True).start()
    while (item := q.get()) is not None:
        yield item


def train(model: TileNet, bank: Bank, real: list[RealCrop], args: argparse.Namespace,
          r: np.random.Generator) -> float:
    """The training loop over this script's batches (see :func:`fit`). Returns seconds spent."""
    return fit(model, prefetch(batches(bank, real, args, r)), args.steps, args.lr, args.quiet)


def fit(model: TileNet, items: Iterator[tuple[np.ndarray, np.ndarray]], steps: int, lr: float, quiet: bool,
        channels_last: bool = True) -> float:
    """AdamW, one-cycle schedule, label smoothing over ``steps`` batches ``(x, y)``. Returns seconds spent."""
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.02)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    t0 = time.monotonic()
    layout = torch.channels_last if channels_last else torch.contiguous_format
    model.to(memory_format=layout)  # type: ignore[call-overload]  # channels-last: faster depthwise convs
    model.train()
    bar = Progress(items, steps, "train", not quiet)
    avg = 0.0
    x: np.ndarray
    y: np.ndarray
    for step, (x, y) in enumerate(bar):
        logits, _ = model(torch.from_numpy(x).contiguous(memory_format=layout))
        loss = loss_fn(logits, torch.from_numpy(y))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        sched.step()
        avg = 0.98 * avg + 0.02 * loss.item() if step else loss.item()
        bar.set(f"loss {avg:.3f} lr {sched.get_last_lr()[0]:.2e}")
    return time.monotonic() - t0


@torch.no_grad()
def predict(model: TileNet, x: np.ndarray, batch: int = 256) -> np.ndarray:
    model.eval()
    out = [model(torch.from_numpy(x[i : i + batch]))[0].argmax(1).numpy() for i in range(0, len(x), batch)]
    return np.concatenate(out) if out else np.zeros(0, np.int64)


def evaluate_synthetic(model: TileNet, args: argparse.Namespace) -> dict[str, float]:
    """Top-1 on held-out styles (fonts, palettes, designs never trained on), photo-augmented, and negatives."""
    bank = render_bank(args.eval_styles, "heldout", args.seed + 1, progress=not args.quiet)
    r = np.random.default_rng(args.seed + 2)
    idx = np.arange(len(bank))
    x, y = make_batch(bank, idx, r, neg_frac=0.0)
    pred = predict(model, x)
    neg = prepare([negative(r) for _ in range(200)])
    flowers = y >= 34
    flowers &= y < 42
    return {
        "heldout_synthetic_top1": float((pred == y).mean()),
        "heldout_synthetic_flowers_top1": float((pred[flowers] == y[flowers]).mean()),
        "negatives_rejected": float((predict(model, neg) == NUM_CLASSES - 1).mean()),
        "heldout_images": float(len(y)),
    }


def evaluate_real(model: TileNet, crops: list[RealCrop]) -> dict[str, float]:
    if not crops:
        return {}
    y = np.array([int(c.tile) for c in crops])
    pred = predict(model, prepare([c.image for c in crops]))
    fl = np.array([c.tile.is_flower for c in crops])
    sets = np.array([c.set for c in crops])
    per_set = {f"real_top1_set_{k}": float((pred[sets == k] == y[sets == k]).mean()) for k in sorted(set(sets))}
    wrong = [f"{c.file}:{c.tile}->{CLASS_NAMES[p]}" for c, p in zip(crops, pred, strict=True) if int(c.tile) != p]
    print("wrong:", " ".join(wrong))
    return per_set | {"real_top1": float((pred == y).mean()), "real_flowers_top1": float((pred[fl] == y[fl]).mean())
            if fl.any() else float("nan"), "real_images": float(len(y))}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    r = seed_everything(args.seed)
    t_start = time.monotonic()
    bank = cached_bank(args.bank_cache, args.styles, "train", args.seed, not args.quiet)
    real, held = [], []
    if args.real:
        crops = load_crops(args.real)
        if args.real_frac > 0:
            try:
                real, held = split_left_out(crops, args.leave_out, args.real)
            except ValueError as e:
                raise SystemExit(f"error: {e}") from e
        else:  # evaluate only: every real crop is unseen
            held = crops
    model = TileNet(NUM_CLASSES)
    if args.init:
        load_weights(model, args.init)
    train_s = train(model, bank, real, args, r)
    metrics = evaluate_synthetic(model, args) | evaluate_real(model, held)
    metrics |= {"train_seconds": round(train_s), "total_seconds": round(time.monotonic() - t_start)}
    info: dict[str, object] = {"logit_scale": LOGIT_SCALE, "seed": args.seed, "styles": args.styles, "steps": args.steps, "batch": args.batch,
            "real_sets_used": sorted({c.set for c in real}), "leave_out": args.leave_out, "low_res": args.low_res}
    if args.init:
        info["init"] = args.init.name
    export(model, args.out, CLASS_NAMES, info | {"metrics": metrics})
    if args.save_ckpt:
        args.save_ckpt.parent.mkdir(parents=True, exist_ok=True)
        torch.save(model.state_dict(), args.save_ckpt)
    print(json.dumps({"out": str(args.out), **info, **metrics}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
