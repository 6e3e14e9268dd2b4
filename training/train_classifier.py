"""Train the tile classifier on rendered faces (and optionally real crops), evaluate it, export ONNX.

    python -m training.train_classifier --smoke                      # ~1 minute, tiny model check
    python -m training.train_classifier --threads 2                  # the packaged model (see models/README.md)
    python -m training.train_classifier --real DIR --leave-out 9     # also learn from real crops, minus set 9
    python -m training.train_classifier --device cuda --workers 15 --minutes 7 --batch 256 \
        --teacher-widths 96,128,256,384 --control-ckpt C.pt --ckpt-only   # a longer run on a bigger machine

Everything is drawn from ``--seed``: the styles, the augmentation, the initial weights and the batches.
Real crops (``--real``) are mixed into the batches; ``--leave-out SET`` keeps one physical set out so its
accuracy is honest. The ONNX file carries its class names, input size, normalisation and training commit.

On a machine with more cores (``--workers N``) the batches are built in N processes, batch ``i`` from its own
generator seeded ``(seed, i)``, so the run is the same for any N (but not the same stream as ``--workers 0``,
one producer thread). ``--teacher-widths`` trains a wider network beside the model on the same batches and
teaches the model its softened answers too (distillation: the model keeps its size, so its speed); with
``--control-ckpt`` a third copy, started from the model's own initial weights, learns from the labels alone,
so the teacher's effect is measured on the very same batches.
"""

from __future__ import annotations

import argparse
import collections
import copy
import functools
import hashlib
import json
import multiprocessing
import queue
import random
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
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
    fork_pool,
    make_batch,
    negative,
    render_bank,
)
from training.classifier_model import LOGIT_SCALE, TileNet, interpolated, load_weights
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
    ap.add_argument("--wise", type=float, default=1.0,
                    help="with --init: keep this share of the way from the start to the fine-tuned weights (WiSE-FT)")
    ap.add_argument("--save-ckpt", type=Path, help="also save the trained weights (torch state dict) here")
    ap.add_argument("--bank-cache", type=Path, help="folder to keep rendered faces between runs (same pixels)")
    ap.add_argument("--device", default="cpu", help="torch device to train on (cpu, cuda)")
    ap.add_argument("--workers", type=int, default=0,
                    help="processes building batches (0: one thread, the packaged model's stream)")
    ap.add_argument("--minutes", type=float, help="train for this long: the step count is fitted after 40 steps")
    ap.add_argument("--teacher-widths", default="", help="e.g. 96,128,256,384: distil from a wider network trained alongside")
    ap.add_argument("--kd-weight", type=float, default=0.5, help="share of the model's loss from the teacher")
    ap.add_argument("--kd-temp", type=float, default=2.0, help="temperature of the teacher's softened answers")
    ap.add_argument("--save-teacher", type=Path, help="save the teacher's weights here")
    ap.add_argument("--control-ckpt", type=Path, help="also train a plain copy on the same batches, save it here")
    ap.add_argument("--ckpt-only", action="store_true", help="write checkpoints but no ONNX file (export elsewhere)")
    ap.add_argument("--smoke", action="store_true", help="a tiny run (about a minute) that checks the pipeline")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    args.out = model_out(args.out, args.smoke, "tile_classifier.onnx")
    if not 0.0 <= args.wise <= 1.0 or (args.wise < 1.0 and not args.init):
        ap.error(f"--wise must be 0-1 and goes with --init (the weights it pulls back to), got {args.wise}")
    if args.smoke:
        args.styles, args.eval_styles, args.steps, args.batch = 4, 1, 30, 32
    return args


def cached_bank(folder: Path | None, styles: int, split: str, seed: int, progress: bool, workers: int = 0) -> Bank:
    """``render_bank`` kept on disk, keyed by its arguments and the renderer's source code."""
    if folder is None:
        return render_bank(styles, split, seed, progress=progress, workers=workers)
    src = b"".join(p.read_bytes() for p in sorted((ROOT / "training" / "synth").glob("*.py")) if "scene" not in p.name)
    key = hashlib.sha256(src + f"{styles}-{split}-{seed}-{BANK_SIZE}".encode()).hexdigest()[:16]
    path = folder / f"bank-{split}-{styles}-{key}.npz"
    if path.exists():
        with np.load(path) as z:
            return Bank(z["images"], z["labels"], z["boxes"])
    bank = render_bank(styles, split, seed, progress=progress, workers=workers)
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


def _batch(bank: Bank, real: list[RealCrop], args: argparse.Namespace, weight: np.ndarray,
           r: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """One training batch: rendered faces (and a share of real crops) augmented."""
    n_real = round(args.batch * args.real_frac) if real else 0
    x, y = make_batch(bank, r.choice(len(bank), args.batch - n_real, p=weight), r, low_res=args.low_res)
    if n_real:
        xr, yr = real_batch(real, n_real, r, args.low_res)
        x, y = np.concatenate([x, xr]), np.concatenate([y, yr])
    return x, y


def _face_weights(bank: Bank) -> np.ndarray:
    weight = np.where((bank.labels >= 34) & (bank.labels < 42), 2.0, 1.0)  # flowers are the hard ones
    return np.asarray(weight / weight.sum())


def batches(bank: Bank, real: list[RealCrop], args: argparse.Namespace, r: np.random.Generator
            ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The training batches, in order, from one generator ``r`` (the ``--workers 0`` stream)."""
    weight = _face_weights(bank)
    for _ in range(args.steps):
        yield _batch(bank, real, args, weight, r)


_POOL_STATE: tuple[Bank, list[RealCrop], argparse.Namespace, np.ndarray] | None = None
SETTLE = 60.0
"""Seconds :func:`pooled_batches` gives its workers to finish the batches ahead once the consumer stops."""


def _pool_batch(step: int) -> tuple[np.ndarray, np.ndarray]:
    assert _POOL_STATE is not None
    bank, real, args, weight = _POOL_STATE
    return _batch(bank, real, args, weight, np.random.default_rng([args.seed, step]))


def pooled_batches(bank: Bank, real: list[RealCrop], args: argparse.Namespace, steps: int | None
                   ) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Batch ``i`` built in ``args.workers`` forked processes from the generator seeded ``(seed, i)``; at most
    twice as many batches ahead as workers; ``steps=None``: until the consumer stops."""
    global _POOL_STATE
    _POOL_STATE = (bank, real, args, _face_weights(bank))
    pool = fork_pool(args.workers)
    ahead: collections.deque[multiprocessing.pool.AsyncResult[tuple[np.ndarray, np.ndarray]]] = collections.deque()
    nxt = 0
    try:
        while steps is None or nxt - len(ahead) < steps:
            while len(ahead) < 2 * args.workers and (steps is None or nxt < steps):
                ahead.append(pool.apply_async(_pool_batch, (nxt,)))
                nxt += 1
            yield ahead.popleft().get()
    finally:
        # the workers finish the few batches ahead and leave: Pool.terminate() killing them mid-batch once hung
        # joining its task thread (a CI run's test timed out in it, in the generator's close)
        pool.close()
        deadline = time.monotonic() + SETTLE
        for r in ahead:
            r.wait(max(0.0, deadline - time.monotonic()))
        if all(r.ready() for r in ahead):
            pool.join()
        else:  # a worker stuck: terminate as before, rather than wait for ever
            pool.terminate()
        _POOL_STATE = None


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


@dataclass
class Learner:
    """A network being trained with its optimiser; ``teach`` marks the model that learns from the teacher."""

    name: str
    model: TileNet
    opt: torch.optim.Optimizer
    sched: torch.optim.lr_scheduler.LRScheduler | None = None
    teach: bool = False
    avg: float = 0.0


def train(model: TileNet, bank: Bank, real: list[RealCrop], args: argparse.Namespace, r: np.random.Generator,
          teacher: TileNet | None = None, control: TileNet | None = None) -> tuple[float, int]:
    """The training loop over this script's batches (see :func:`fit`). Returns seconds spent and steps."""
    if args.workers > 0:
        items = pooled_batches(bank, real, args, None if args.minutes else args.steps)
    else:
        items = prefetch(batches(bank, real, args, r))
    return fit(model, items, args.steps, args.lr, args.quiet, device=args.device, minutes=args.minutes,
               teacher=teacher, control=control, kd=(args.kd_weight, args.kd_temp))


PROBE_STEPS = 40
"""With ``minutes``: steps run at the schedule's starting rate, timed from the tenth, to fit the step count."""


def fit(model: TileNet, items: Iterator[tuple[np.ndarray, np.ndarray]], steps: int, lr: float, quiet: bool,
        channels_last: bool = True, *, device: str = "cpu", minutes: float | None = None,
        teacher: TileNet | None = None, control: TileNet | None = None, kd: tuple[float, float] = (0.5, 2.0)
        ) -> tuple[float, int]:
    """AdamW, one-cycle schedule, label smoothing over ``steps`` batches ``(x, y)`` (with ``minutes``, as many
    as fit). With ``teacher``, the teacher learns from the labels and ``model`` from the labels and, by the
    share ``kd[0]``, the teacher's answers softened by the temperature ``kd[1]``; ``control`` learns from the
    labels alone. Returns seconds spent and steps run."""
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    t0 = time.monotonic()
    layout = torch.channels_last if channels_last else torch.contiguous_format
    learners = [Learner(name, m, torch.optim.AdamW(m.parameters(), lr=lr, weight_decay=0.02), teach=name == "model"
                        and teacher is not None)
                for name, m in (("teacher", teacher), ("model", model), ("control", control)) if m is not None]
    for ln in learners:
        ln.model.to(device=device, memory_format=layout)  # type: ignore[call-overload]  # channels-last: faster depthwise convs
        ln.model.train()

    def schedule(total: int) -> None:
        for ln in learners:
            ln.sched = torch.optim.lr_scheduler.OneCycleLR(ln.opt, max_lr=lr, total_steps=total, pct_start=0.15)

    probe = PROBE_STEPS if minutes else 0
    if probe:
        for ln in learners:
            for g in ln.opt.param_groups:
                g["lr"] = lr / 25  # OneCycleLR's starting rate
    else:
        schedule(steps)
    bar = Progress(items, steps, "train", not quiet)
    x: np.ndarray
    y: np.ndarray
    t_probe = 0.0
    step = 0
    for step, (x, y) in enumerate(bar):
        if probe and step == 10:
            t_probe = time.monotonic()
        elif probe and step == probe:
            per_step = (time.monotonic() - t_probe) / (probe - 10)
            assert minutes is not None
            steps = probe + max(1, int((minutes * 60 - (time.monotonic() - t0)) / per_step))
            bar.total = steps
            schedule(steps - probe)
        elif step >= steps:
            break
        xb = torch.from_numpy(x).to(device).contiguous(memory_format=layout)
        yb = torch.from_numpy(y).to(device)
        soft = None
        for ln in learners:
            logits, _ = ln.model(xb)
            loss = loss_fn(logits, yb)
            if ln.name == "teacher":
                soft = (logits.detach() / kd[1]).softmax(1)
            elif ln.teach:
                assert soft is not None
                distil = nn.functional.kl_div((logits / kd[1]).log_softmax(1), soft, reduction="batchmean")
                loss = (1 - kd[0]) * loss + kd[0] * kd[1] ** 2 * distil
            ln.opt.zero_grad(set_to_none=True)
            loss.backward()
            ln.opt.step()
            if ln.sched is not None:
                ln.sched.step()
            ln.avg = 0.98 * ln.avg + 0.02 * loss.item() if step else loss.item()
        bar.set(" ".join(f"{ln.name} {ln.avg:.3f}" for ln in learners) + f" lr {learners[0].opt.param_groups[0]['lr']:.2e}")
    for ln in learners:
        ln.model.to("cpu")
    return time.monotonic() - t0, min(step + 1, steps)


@torch.no_grad()
def predict(model: TileNet, x: np.ndarray, batch: int = 256) -> np.ndarray:
    model.eval()
    out = [model(torch.from_numpy(x[i : i + batch]))[0].argmax(1).numpy() for i in range(0, len(x), batch)]
    return np.concatenate(out) if out else np.zeros(0, np.int64)


@functools.lru_cache(maxsize=2)
def _heldout_bank(styles: int, seed: int, progress: bool, workers: int) -> Bank:
    return render_bank(styles, "heldout", seed, progress=progress, workers=workers)


def evaluate_synthetic(model: TileNet, args: argparse.Namespace) -> dict[str, float]:
    """Top-1 on held-out styles (fonts, palettes, designs never trained on), photo-augmented, and negatives."""
    bank = _heldout_bank(args.eval_styles, args.seed + 1, not args.quiet, args.workers)
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
    bank = cached_bank(args.bank_cache, args.styles, "train", args.seed, not args.quiet, args.workers)
    real: list[RealCrop] = []
    held: list[RealCrop] = []
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
    control = copy.deepcopy(model) if args.control_ckpt else None
    teacher = TileNet(NUM_CLASSES, widths(args.teacher_widths)) if args.teacher_widths else None
    start = copy.deepcopy(model.state_dict()) if args.wise < 1.0 else None  # (the start pulled back to, --wise)
    train_s, steps = train(model, bank, real, args, r, teacher, control)
    if start is not None:
        model.load_state_dict(interpolated(start, model.state_dict(), args.wise))
    saved = {"model": (model, args.save_ckpt), "teacher": (teacher, args.save_teacher), "control": (control, args.control_ckpt)}
    for net, path in saved.values():  # first, so that a failing evaluation loses no training
        if net is not None and path:
            path.parent.mkdir(parents=True, exist_ok=True)
            torch.save(net.state_dict(), path)
    for name, (net, path) in saved.items():
        if net is not None and name != "model":
            print(json.dumps({name: str(path), **evaluate_synthetic(net, args), **evaluate_real(net, held)}))
    metrics = evaluate_synthetic(model, args) | evaluate_real(model, held)
    metrics |= {"train_seconds": round(train_s), "total_seconds": round(time.monotonic() - t_start)}
    info: dict[str, object] = {"logit_scale": LOGIT_SCALE, "seed": args.seed, "styles": args.styles, "steps": steps, "batch": args.batch,
            "real_sets_used": sorted({c.set for c in real}), "leave_out": args.leave_out, "low_res": args.low_res}
    if args.init:
        info["init"] = args.init.name
    if args.wise < 1.0:
        info["wise"] = args.wise
    if args.teacher_widths:
        info |= {"teacher_widths": args.teacher_widths, "kd_weight": args.kd_weight, "kd_temp": args.kd_temp}
    if args.workers:
        info["batch_stream"] = "per-step"
    if not args.ckpt_only:
        export(model, args.out, CLASS_NAMES, info | {"metrics": metrics})
    print(json.dumps({"out": None if args.ckpt_only else str(args.out), **info, **metrics}))
    return 0


def widths(text: str) -> tuple[int, int, int, int]:
    """``--teacher-widths`` as the four stage widths of :class:`TileNet`."""
    try:
        a, b, c, d = (int(v) for v in text.split(","))
    except ValueError:
        raise SystemExit(f"error: --teacher-widths {text!r}: four whole numbers separated by commas, e.g. 96,128,256,384") from None
    return a, b, c, d


if __name__ == "__main__":
    raise SystemExit(main())
