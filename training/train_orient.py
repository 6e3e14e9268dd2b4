"""Train the tile orientation network (which way up a face-up tile lies) and export it to ONNX.

    python -m training.train_orient                 # the full run (about 13 minutes on 2 cores)
    python -m training.train_orient --smoke         # a few seconds: every step on a tiny set

It learns from the detector's rendered scenes (``training.train_detector.render_set``: the same cache, so
after the detector's training it starts at once): every face-up tile at least half visible, cut as the
product cuts it (:func:`companion.vision.orient.square_crops`) at its true angle turned by 0-3 quarter
turns, plus the error the snapped angle and the detector's box still carry (a few degrees, a shifted centre,
a box a little too big or small). The label is the number of quarter turns. Validation: the held-out scenes
(face styles and tables never trained on), one random turn per tile.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import torch
from torch import nn

from companion.vision.orient import SIZE, SPAN, square_crops
from training.detector_model import Block, _cbr
from training.export_onnx import git_head, model_out, stamp
from training.progress import Progress
from training.train_detector import MEAN, STD, render_set

ROOT = Path(__file__).resolve().parents[1]
MIN_SIDE = 6.0
"""Tiles whose shorter side is under this many pixels (at the detector's scale) are left out."""


WIDTHS = (16, 32, 48, 48, 64, 64)
"""Channels of :func:`square_body`'s stem and five blocks (the orientation network's)."""


def square_body(widths: tuple[int, ...] = WIDTHS) -> nn.Sequential:
    """A square BGR crop -> ``widths[-1]`` features at 1/8 of its side (32x32 -> 4 x 4): a stride-2 stem and
    depthwise-separable blocks (the orientation network's and the back check's)."""
    if len(widths) != 6:
        raise ValueError(f"square_body takes 6 widths (stem and five blocks), got {widths}")
    a, b, c, d, e, f = widths
    return nn.Sequential(_cbr(3, a, 3, 2), Block(a, b), Block(b, c, 2), Block(c, d), Block(d, e, 2), Block(e, f))


def parse_widths(text: str) -> tuple[int, ...]:
    """``--widths 16,32,48,48,64,64``: six positive channel counts."""
    try:
        widths = tuple(int(w) for w in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--widths takes six comma-separated integers, got {text!r}") from None
    if len(widths) != 6 or min(widths) < 1:
        raise argparse.ArgumentTypeError(f"--widths takes six positive integers, got {text!r}")
    return widths


class OrientNet(nn.Module):
    """A square BGR crop (32x32 for the orientation network, 48x48 for the back check) -> ``outputs`` logits
    (:func:`square_body` of ``widths``, global average, a linear layer); with 4 and the default widths, the
    orientation network: about 15k parameters and 0.8 M multiply-adds per tile."""

    def __init__(self, outputs: int = 4, widths: tuple[int, ...] = WIDTHS) -> None:
        super().__init__()
        self.body = square_body(widths)
        self.fc = nn.Linear(widths[-1], outputs)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.fc(self.body(x).mean(dim=(2, 3)))
        return out


class Export(nn.Module):
    def __init__(self, net: OrientNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.net(x), dim=1)


def samples(frames: np.ndarray, boxes: list[np.ndarray]) -> list[tuple[int, np.ndarray]]:
    """(scene index, its face-up tiles at least half visible and big enough) for every scene with some."""
    out = []
    for i, b in enumerate(boxes):
        keep = b[(b[:, 5] > 0.5) & (b[:, 6] >= 0.5) & (b[:, 2:4].min(axis=1) >= MIN_SIDE)]
        if len(keep):
            out.append((i, keep[:, :5].astype(np.float32)))
    return out


def make_batch(frames: np.ndarray, scenes: list[tuple[int, np.ndarray]], rng: np.random.Generator,
               per_scene: int, jitter: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Crops (N x SIZE x SIZE x 3 uint8) and their quarter turns (N,) from the given scenes."""
    crops, labels = [], []
    for i, tiles in scenes:
        pick = tiles[rng.choice(len(tiles), min(per_scene, len(tiles)), replace=False)]
        k = rng.integers(0, 4, len(pick))
        obb = pick.copy()
        obb[:, 4] = obb[:, 4] - 90.0 * k  # the box is k quarter turns short of the tile's up
        if jitter:
            s = obb[:, 2:4].min(axis=1)
            obb[:, 4] += np.clip(rng.normal(0, 6, len(obb)), -15, 15)
            obb[:, :2] += rng.uniform(-0.12, 0.12, (len(obb), 2)) * s[:, None]
            obb[:, 2:4] *= rng.uniform(0.85, 1.2, (len(obb), 1))
        crops.append(square_crops(frames[i], obb))
        labels.append(k)
    x = np.concatenate(crops)
    if jitter:
        x = light_jitter(x, rng)
    return x, np.concatenate(labels)


def light_jitter(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Squares (N x H x W x 3 uint8) under other light: brightness, contrast and a colour cast; a fifth
    blurred (the orientation network's and the back check's training)."""
    f = x.astype(np.float32) * rng.uniform(0.7, 1.3, (len(x), 1, 1, 1)) + rng.uniform(-25, 25, (len(x), 1, 1, 3))
    blur = rng.random(len(x)) < 0.2
    if blur.any():
        import cv2

        f[blur] = np.stack([cv2.GaussianBlur(c, (3, 3), 0.8) for c in f[blur]])
    return np.clip(f, 0, 255).astype(np.uint8)


def real_views(crops: list[np.ndarray], rng: np.random.Generator, jitter: bool = True
               ) -> list[tuple[np.ndarray, float, float]]:
    """Each real tile crop (tight and upright) as the detector's input would show it: on a border of its own
    edge or of a table colour, photographed again (:func:`companion.vision.augment.photometric`, at about the
    classifier's crop size) and shrunk so the tile's longer side is 14-60 px. Returns (image, tile width,
    tile height) with the tile upright in the middle."""
    import cv2

    from companion.vision.augment import photometric

    out = []
    for img in crops:
        h, w = img.shape[:2]
        pad = int(0.45 * max(h, w))
        if rng.random() < 0.5:
            canvas = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
        else:
            colour = [float(v) for v in rng.uniform(20, 200, 3)]
            canvas = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=colour)
        scale = rng.uniform(14, 60) / max(h, w)  # pixels of the final image per pixel of the crop
        f = scale
        if jitter:
            g = 80 / max(h, w)
            canvas = photometric(cv2.resize(canvas, None, fx=g, fy=g, interpolation=cv2.INTER_AREA), rng)
            f = scale / g
        out.append((cv2.resize(canvas, None, fx=f, fy=f, interpolation=cv2.INTER_AREA), w * scale, h * scale))
    return out


def real_batch(views: list[tuple[np.ndarray, float, float]], rng: np.random.Generator, n: int, jitter: bool = True,
               turns: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``n`` squares cut by :func:`square_crops` from :func:`real_views`, each k quarter turns short of the
    tile's up (random views and turns, or with ``turns`` view ``j % len(views)`` turned ``turns[j]``)."""
    out, labels = [], []
    for j in range(n):
        img, w, h = views[int(rng.integers(len(views)))] if turns is None else views[j % len(views)]
        k = int(rng.integers(0, 4)) if turns is None else int(turns[j])
        box = np.array([[img.shape[1] / 2, img.shape[0] / 2, w, h, -90.0 * k]], np.float32)
        if jitter:
            box[0, 4] += float(np.clip(rng.normal(0, 6), -15, 15))
            box[0, :2] += rng.uniform(-0.12, 0.12, 2) * min(w, h)
            box[0, 2:4] *= rng.uniform(0.85, 1.2)
        out.append(square_crops(img, box)[0])
        labels.append(k)
    return np.stack(out), np.array(labels)


def to_tensor(x: np.ndarray) -> torch.Tensor:
    return torch.from_numpy((x.astype(np.float32) - MEAN) / STD).permute(0, 3, 1, 2).contiguous()


def evaluate(net: OrientNet, frames: np.ndarray, scenes: list[tuple[int, np.ndarray]], seed: int) -> dict[str, float]:
    """Accuracy on every face-up tile of the validation scenes, one random turn each, with the same box
    errors as training (the product reads snapped, not true, angles)."""
    rng = np.random.default_rng(seed)
    x, y = make_batch(frames, scenes, rng, per_scene=10_000, jitter=True)
    net.eval()
    with torch.no_grad():
        pred = torch.cat([net(to_tensor(x[i:i + 512])).argmax(1) for i in range(0, len(x), 512)]).numpy()
    flips = (pred - y) % 4
    return {"tiles": len(y), "accuracy": float((flips == 0).mean()), "off_by_180": float((flips == 2).mean()),
            "off_by_90": float(((flips == 1) | (flips == 3)).mean())}


def export_squares(wrapper: nn.Module, path: Path, meta: dict[str, str], output: str, size: int = SIZE) -> None:
    """Export a network reading ``crops`` (N x 3 x size x size) to ONNX with one output named ``output``
    and stamp its metadata (the orientation network's and the back check's)."""
    wrapper = wrapper.eval()
    with warnings.catch_warnings():  # the TorchScript exporter is deprecated but exact for this plain graph
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(wrapper, (torch.zeros(1, 3, size, size),), str(path), input_names=["crops"],
                          output_names=[output], dynamic_axes={"crops": {0: "n"}, output: {0: "n"}},
                          opset_version=17, dynamo=False)
    stamp(path, meta)


def export(net: OrientNet, path: Path, meta: dict[str, str]) -> None:
    export_squares(Export(net), path, meta, "turns")


def command(argv: list[str]) -> str:
    """The command line as the model's metadata records it: the dev-data folder as ``DEV_DIR`` and other
    absolute paths by their last part, so the model names no folder of the machine that trained it."""
    out, prev = [], ""
    for a in argv:
        out.append("DEV_DIR" if prev == "--real" else Path(a).name if Path(a).is_absolute() else a)
        prev = a
    return " ".join(["python -m training.train_orient", *out])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scenes", type=int, default=3200, help="training scenes (the detector's cache)")
    p.add_argument("--val", type=int, default=240)
    p.add_argument("--steps", type=int, default=8000)
    p.add_argument("--scenes-per-batch", type=int, default=16)
    p.add_argument("--tiles-per-scene", type=int, default=16)
    p.add_argument("--lr", type=float, default=4e-3)
    p.add_argument("--seed", type=int, default=1, help="seed of the training scenes (the detector's)")
    p.add_argument("--train-seed", type=int, default=20261130)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--workers", type=int, default=1, help="processes rendering scenes not in the cache")
    p.add_argument("--cache", type=Path, default=ROOT / "build" / "detector-scenes")
    p.add_argument("--out", type=Path, help="the model file (default models/tile_orient.onnx; build/smoke/tile_orient.onnx with --smoke)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--init", type=Path, help="start from these weights (--save-ckpt of an earlier run)")
    p.add_argument("--save-ckpt", type=Path, help="also save the trained weights here")
    p.add_argument("--real", type=Path, help="the dev-data folder: mix its real crops into every batch")
    p.add_argument("--real-frac", type=float, default=0.35, help="share of each batch from real crops")
    p.add_argument("--leave-out", help="a set of --real kept out of training and scored")
    p.add_argument("--real-views", type=int, default=3000, help="photo-like views of the real crops made up front")
    p.add_argument("--smoke", action="store_true", help="a tiny run that exercises every step")
    p.add_argument("--widths", type=parse_widths, default=WIDTHS,
                   help=f"channels of the stem and five blocks, comma-separated (default {','.join(map(str, WIDTHS))})")
    args = p.parse_args(argv)
    args.out = model_out(args.out, args.smoke, "tile_orient.onnx")
    if args.smoke:
        args.scenes, args.val, args.steps, args.scenes_per_batch, args.real_views = 16, 4, 20, 4, 40
    torch.manual_seed(args.train_seed)
    torch.set_num_threads(args.threads)
    start = time.time()
    frames, boxes = render_set(args.scenes, args.seed, "train", args.cache, args.workers)
    vframes, vboxes = render_set(args.val, args.seed + 1000, "heldout", args.cache, args.workers)
    train_set, val_set = samples(frames, boxes), samples(vframes, vboxes)
    net = OrientNet(widths=args.widths)
    if args.init:
        net.load_state_dict(torch.load(args.init))
    real: list[np.ndarray] = []
    held: list[np.ndarray] = []
    if args.real:
        from training.real_crops import load_crops, split_left_out

        try:
            kept, out = split_left_out(load_crops(args.real), args.leave_out or "", args.real)
        except ValueError as e:
            raise SystemExit(f"error: {e}") from e
        real, held = [c.image for c in kept], [c.image for c in out]
        if not real:
            raise SystemExit(f"no real crops left in {args.real} after leaving out {args.leave_out}")
        bank_rng = np.random.default_rng(args.train_seed + 3)
        bank = real_views([real[int(i)] for i in bank_rng.integers(len(real), size=args.real_views)], bank_rng)
    print(f"orientation net: {sum(q.numel() for q in net.parameters())} parameters; "
          f"{sum(len(t) for _, t in train_set)} training tiles in {len(train_set)} scenes", file=sys.stderr)
    rng = np.random.default_rng(args.train_seed)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    warm = max(1, min(100, args.steps // 10))
    bar = Progress(range(args.steps), args.steps, "train", enabled=not args.quiet)
    avg = None
    net.train()
    for step in bar:
        t = max(0.0, (step - warm) / max(args.steps - warm, 1))
        lr = args.lr * (step + 1) / warm if step < warm else args.lr * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * t)))
        for g in opt.param_groups:
            g["lr"] = lr
        pick = rng.choice(len(train_set), min(args.scenes_per_batch, len(train_set)), replace=False)
        x, y = make_batch(frames, [train_set[i] for i in pick], rng, args.tiles_per_scene)
        if real:
            xr, yr = real_batch(bank, rng, max(1, round(args.real_frac * len(x))))
            x, y = np.concatenate([x[:len(x) - len(xr)], xr]), np.concatenate([y[:len(y) - len(yr)], yr])
        loss = nn.functional.cross_entropy(net(to_tensor(x)), torch.from_numpy(y))
        opt.zero_grad()
        loss.backward()
        opt.step()
        v = float(loss.detach())
        avg = v if avg is None else 0.98 * avg + 0.02 * v
        bar.set(f"loss {avg:.3f} lr {lr:.4f}")
    metrics: dict[str, object] = dict(evaluate(net, vframes, val_set, args.train_seed + 1))
    if held:  # every crop of the left-out set in all four turns, jittered as in training
        held_rng = np.random.default_rng(args.train_seed + 2)
        xr, yr = real_batch(real_views(held, held_rng), held_rng, 4 * len(held), turns=np.repeat(np.arange(4), len(held)))
        with torch.no_grad():
            pred = net(to_tensor(xr)).argmax(1).numpy()
        metrics["real_left_out"] = {"set": args.leave_out, "tiles": len(yr), "accuracy": float((pred == yr).mean()),
                                    "off_by_180": float(((pred - yr) % 4 == 2).mean())}
    if args.save_ckpt:
        torch.save(net.state_dict(), args.save_ckpt)
    minutes = (time.time() - start) / 60
    print(json.dumps({"heldout_val": metrics, "minutes": round(minutes, 1), "steps": args.steps}))
    meta = {"input_size": str(SIZE), "span": str(SPAN), "input": f"crops: Nx3x{SIZE}x{SIZE} float32 BGR, normalised",
            "normalisation": json.dumps({"mean": MEAN, "std": STD, "order": "BGR"}),
            "outputs": "turns: Nx4 probabilities of 0, 1, 2, 3 quarter turns counter-clockwise to add to the angle",
            "training_commit": git_head(), "training_command": command(argv if argv is not None else sys.argv[1:]),
            "heldout_val": json.dumps(metrics),
            "training_minutes": f"{minutes:.1f}", "training_steps": str(args.steps),
            "widths": ",".join(map(str, args.widths))}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    export(net, args.out, meta)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e3:.0f} kB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
