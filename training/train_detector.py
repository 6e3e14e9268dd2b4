"""Train the tile detector on rendered table scenes and phone-photo scenes, then export it to ONNX.

    python -m training.train_detector                   # the full run (about 45 minutes on 2 cores)
    python -m training.train_detector --smoke           # about a minute: a tiny run end to end

Steps, top to bottom:

1. Render ``--scenes`` training scenes (``train`` face styles and tables) at 320x320: 65% views of a
   game table (tiles 12-30 px wide), 35% phone photos of tiles lying in rows (20-110 px). They are
   cached in ``--cache`` (keyed by seed and count), so a second run starts training at once.
2. Render ``--val`` validation scenes from the ``heldout`` styles and tables.
3. Train (AdamW, one-cycle learning rate, seeded), printing a progress bar and the losses.
4. Measure recall at IoU 0.5 on the validation scenes and export ``models/tile_detector.onnx`` with its
   metadata (input, normalisation, classes, stride, threshold, training commit and command), its graph
   rewritten to run faster (``training/onnx_rewrite.py``; ``--no-fast-graph``: as torch writes it).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import onnx
import torch
from onnx import numpy_helper

from training.detector_model import (
    CLASSES,
    POSITIVE,
    STRIDE,
    ExportWrapper,
    TileDetector,
    detector_loss,
    make_targets,
)
from training.export_onnx import git_head, model_file_command, model_out, stamp
from training.onnx_rewrite import fast_graph

MEAN, STD = 127.5, 64.0
"""Input normalisation: (BGR pixel - MEAN) / STD."""
SIZE = 320
"""Scenes are rendered SIZE x SIZE; training sees random CROP x CROP windows of them."""
CROP = 256
LABELS = 4
"""Version of the scenes in the cache's file names: 2 labels a standing tile seen too flat to read by its
outline (``training.synth.scene.READABLE``; version 1, no suffix, labelled it by its face's sliver); 3 also
put half of the training scenes on tables of any colour at least 0.25 (RGB) from a held-out table's colour;
4 (this) keeps them more than 3 spreads from every held-out table's colour (``scene_layouts.HELDOUT_SIGMAS``)
and labels every standing tile showing its back by its outline. Held-out scenes are the same in 2-4."""
ROOT = Path(__file__).resolve().parents[1]


# --- 1. data ---------------------------------------------------------------------------------------------

def _render_one(job: tuple[int, str, int]) -> tuple[np.ndarray, np.ndarray]:
    """Render scene number ``i`` of a split: (frame SIZE x SIZE x 3, boxes N x 7)."""
    from training.synth.faces import sample_style
    from training.synth.scene import render_table
    from training.synth.scene_layouts import random_scene

    seed, split, i = job
    rng = np.random.default_rng([seed, i])
    # a face style is shared by 12 consecutive scenes: its 43 faces are rendered once per 12 scenes
    face = _style_cache(sample_style, seed, split, i // 12)
    kind = "photo" if rng.random() < 0.35 else "table"
    px = (12.0, 30.0) if kind == "table" else (20.0, 110.0)
    scene = random_scene(rng, face, split, kind, (SIZE, SIZE), px, wide=LABELS >= 3)
    frame, labels = render_table(scene.layout, scene.camera, scene.style, scene.lighting, scene.occluders,
                                 scene.seed)
    boxes = np.array([[*lab.obb(), float(lab.face_up), lab.visible] for lab in labels], np.float32)
    return frame, boxes.reshape(-1, 7)


_STYLES: dict[tuple[int, str, int], object] = {}


def _style_cache(sample_style: Any, seed: int, split: str, k: int) -> object:
    key = (seed, split, k)
    if key not in _STYLES:
        _STYLES.clear()
        _STYLES[key] = sample_style(np.random.default_rng([seed, 7919, k]), split)
    return _STYLES[key]


def render_set(n: int, seed: int, split: str, cache: Path, workers: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """``n`` scenes of ``split``, rendered (or loaded from ``cache``). Scene ``i`` depends on ``(seed, split, i)``
    alone, so a cached bigger set gives its first ``n``, and a set bigger than any cached one starts from the
    biggest smaller one and renders only the scenes it lacks (growing the back check's 6400 scenes to 12800
    rendered 12800 before: half the time thrown away)."""
    path = _set_path(cache, split, seed, n)
    if path.is_file():
        return _load_set(path, n)
    sizes = _cached_sizes(cache, split, seed)
    bigger = min((m for m in sizes if m > n), default=0)
    if bigger:
        frames, first = _load_set(_set_path(cache, split, seed, bigger), n)
        return frames[:n].copy(), first  # a copy: a view would keep all of the bigger set's frames in memory
    have = max((m for m in sizes if m < n), default=0)
    frames = np.empty((n, SIZE, SIZE, 3), np.uint8)
    boxes: list[np.ndarray] = []
    if have:
        frames[:have], boxes = _load_set(_set_path(cache, split, seed, have), have)
    jobs = [(seed, split, i) for i in range(have, n)]
    bar = Progress(len(jobs), f"render {split}" + (f" (scenes {have}-{n - 1}; the first {have} cached)" if have else ""))
    if workers > 1:
        import multiprocessing as mp

        with mp.get_context("fork").Pool(workers) as pool:
            results = pool.imap(_render_one, jobs, chunksize=4)
            for i, (frame, b) in enumerate(results, have):
                frames[i] = frame
                boxes.append(b)
                bar.step()
    else:
        for i, job in enumerate(jobs, have):
            frames[i], b = _render_one(job)
            boxes.append(b)
            bar.step()
    bar.done()
    offsets = np.cumsum([0] + [len(b) for b in boxes])
    cache.mkdir(parents=True, exist_ok=True)
    np.savez(path, frames=frames, boxes=np.concatenate(boxes) if boxes else np.zeros((0, 7)), offsets=offsets)
    return frames, boxes


def _set_name(split: str, seed: int) -> tuple[str, str]:
    """A cached set's file name before and after its scene count (this ``SIZE`` and ``LABELS``)."""
    return f"scenes-{split}-{seed}-", f"-{SIZE}-labels{LABELS}.npz"


def _set_path(cache: Path, split: str, seed: int, n: int) -> Path:
    prefix, suffix = _set_name(split, seed)
    return cache / f"{prefix}{n}{suffix}"


def _cached_sizes(cache: Path, split: str, seed: int) -> list[int]:
    """The scene counts of the sets of ``split`` and ``seed`` in ``cache`` (this ``SIZE`` and ``LABELS``)."""
    prefix, suffix = _set_name(split, seed)
    names = (p.name for p in cache.glob(f"{prefix}*{suffix}")) if cache.is_dir() else iter(())
    middles = (name[len(prefix):-len(suffix)] for name in names)
    return [int(m) for m in middles if m.isdigit()]


def _load_set(path: Path, n: int) -> tuple[np.ndarray, list[np.ndarray]]:
    data = np.load(path)
    offsets, all_boxes = data["offsets"], data["boxes"]  # (each data[...] reads the file again)
    return data["frames"], [all_boxes[offsets[i]:offsets[i + 1]] for i in range(n)]


def batch_tensors(frames: np.ndarray, boxes: list[np.ndarray], idx: np.ndarray, rng: np.random.Generator,
                  crop: int = CROP) -> tuple[torch.Tensor, ...]:
    """A training batch: random ``crop`` x ``crop`` windows of the scenes (normalised, with brightness and
    contrast jitter), and their targets."""
    imgs, targets = [], []
    for i in idx:
        x0, y0 = (int(v) for v in rng.integers(0, SIZE - crop + 1, 2) // STRIDE * STRIDE)
        imgs.append(frames[i, y0:y0 + crop, x0:x0 + crop])
        b = boxes[i].copy()
        b[:, 0] -= x0
        b[:, 1] -= y0
        targets.append(make_targets(b, (crop, crop)))
    arr = np.stack(imgs).astype(np.float32)
    gain = rng.uniform(0.75, 1.25, (len(idx), 1, 1, 1)).astype(np.float32)
    bias = rng.uniform(-20, 20, (len(idx), 1, 1, 1)).astype(np.float32)
    arr = np.clip(arr * gain + bias, 0, 255)
    x = torch.from_numpy((arr - MEAN) / STD).permute(0, 3, 1, 2).contiguous(memory_format=torch.channels_last)
    return (x, *(torch.from_numpy(np.stack([t[k] for t in targets])) for k in ("heat", "weight", "reg", "mask")))


class Progress:
    """A one-line progress bar on stderr."""

    def __init__(self, total: int, label: str) -> None:
        self.total, self.label, self.n, self.start, self.note = total, label, 0, time.time(), ""

    def step(self, k: int = 1, note: str = "") -> None:
        self.n += k
        self.note = note or self.note
        if self.n % max(1, self.total // 200) == 0 or self.n == self.total:
            frac = self.n / max(self.total, 1)
            el = time.time() - self.start
            eta = el / max(frac, 1e-9) - el
            bar = "#" * int(frac * 30)
            sys.stderr.write(f"\r{self.label:>14} [{bar:<30}] {self.n}/{self.total} {el:5.0f}s eta {eta:5.0f}s "
                             f"{self.note}")
            sys.stderr.flush()

    def done(self) -> None:
        sys.stderr.write("\n")


# --- 3. training -----------------------------------------------------------------------------------------

def train(net: TileDetector, frames: np.ndarray, boxes: list[np.ndarray], args: argparse.Namespace) -> int:
    """AdamW with a short warm-up and a cosine decay over ``args.epochs`` epochs, or over as many steps as
    fit in ``args.minutes`` (measured on the first steps) when that is less. Returns the steps taken."""
    rng = np.random.default_rng(args.seed)
    per_epoch = len(frames) // args.batch
    steps = args.epochs * per_epoch
    warm = min(30, max(steps // 10, 1))
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    bar = Progress(steps, "train")
    net.train()
    avg: dict[str, float] = {}
    start, step = time.time(), 0
    while step < steps:
        order = rng.permutation(len(frames))
        for b in range(per_epoch):
            if step >= steps:
                break
            if step == warm and args.minutes:  # now we know how fast a step is
                per_step = (time.time() - start) / warm
                steps = min(steps, warm + int((args.minutes * 60 - (time.time() - start)) / per_step))
                bar.total = steps
            t = max(0.0, (step - warm) / max(steps - warm, 1))
            lr = args.lr * (step + 1) / warm if step < warm else args.lr * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * t)))
            for g in opt.param_groups:
                g["lr"] = lr
            x, heat, weight, reg, mask = batch_tensors(frames, boxes, order[b * args.batch:(b + 1) * args.batch], rng)
            loss, parts = detector_loss(net(x), heat, weight, reg, mask)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 10.0)
            opt.step()
            step += 1
            if args.checkpoint and step % 200 == 0:
                torch.save(net.state_dict(), args.checkpoint)
            for k, v in parts.items():
                avg[k] = 0.98 * avg.get(k, v) + 0.02 * v
            bar.step(note=f"ep {step / per_epoch:.1f} lr {lr:.4f} " + " ".join(f"{k} {v:.3f}" for k, v in avg.items()))
    bar.done()
    return step


# --- 4. evaluation and export ----------------------------------------------------------------------------

def evaluate(net: TileDetector, frames: np.ndarray, boxes: list[np.ndarray], threshold: float) -> dict[str, float]:
    """Recall (IoU >= 0.5 with a box of the right face-up/down) of visible tiles, and false boxes."""
    from companion.vision.detect import decode, match_boxes

    wrapper = ExportWrapper(net, MEAN, STD).eval()
    found = total = false = 0
    with torch.no_grad():
        for i in range(0, len(frames), 16):
            x = torch.from_numpy(frames[i:i + 16].astype(np.float32)).permute(0, 3, 1, 2)
            peaks, reg = wrapper(x)
            for j in range(len(x)):
                det = decode(peaks[j].numpy(), reg[j].numpy(), STRIDE, threshold)
                truth = boxes[i + j]
                hit, extra = match_boxes(det, truth, POSITIVE)
                found += hit
                total += int((truth[:, 6] >= POSITIVE).sum())
                false += extra
    return {"recall": found / max(total, 1), "targets": total, "false_boxes": false}


def tune_threshold(model: Path, frames: np.ndarray, boxes: list[np.ndarray]) -> dict[str, object]:
    """Pick the score threshold of an exported model with the best F1 (tiles found at IoU 0.5 against
    false boxes) on the (held-out) validation scenes, and write it into the model's metadata."""
    import onnx

    from companion.vision.detect import TileDetector as OnnxDetector
    from companion.vision.detect import match_boxes

    det = OnnxDetector(model, threads=1, threshold=0.1, snap=False, orient=False, backs=False)  # the network alone
    found = {t: [0, 0] for t in (0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)}
    total = 0
    for frame, truth in zip(frames, boxes, strict=True):
        got = det.detect(frame, long_side=SIZE)
        total += int((truth[:, 6] >= POSITIVE).sum())
        for t in found:
            keep = got.score >= t
            hits, false = match_boxes(type(got)(got.obb[keep], got.face_up[keep], got.score[keep]), truth, POSITIVE)
            found[t][0] += hits
            found[t][1] += false
    def f1(t: float) -> float:
        hits, false = found[t]
        return 2 * hits / max(hits + false + total, 1)

    best = max(found, key=f1)
    table = {str(t): {"recall": h / max(total, 1), "false_boxes": f} for t, (h, f) in found.items()}
    m = onnx.load(str(model))
    for prop in m.metadata_props:
        if prop.key == "threshold":
            prop.value = str(best)
    entry = m.metadata_props.add()
    entry.key, entry.value = "threshold_tuning", json.dumps({"chosen": best, "heldout_val": table})
    onnx.save(m, str(model))
    return {"threshold": best, "table": table}


def folded_convolutions(path: Path) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Each convolution of an exported detector (``ExportWrapper``'s ``net``) by its module path, with its
    weight and bias (the export folded every batch norm into the convolution before it)."""
    model = onnx.load(str(path))
    init = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    out: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for node in model.graph.node:
        if node.op_type != "Conv":
            continue
        scopes = node.name.strip("/").split("/")  # net, s4, s4.0, dw, dw.0, Conv
        if scopes[0] != "net" or len(scopes) < 3 or len(node.input) != 3:
            raise ValueError(f"{path}: convolution {node.name!r} is not one of an exported detector's")
        parts = [scopes[1]] + [s.rsplit(".", 1)[-1] if s.startswith(prev + ".") else s
                               for prev, s in zip(scopes[1:-2], scopes[2:-1], strict=True)]
        if node.input[1] not in init or node.input[2] not in init:
            raise ValueError(f"{path}: convolution {node.name!r} takes weights that are not stored in the file "
                             "(a quantised detector?)")
        out[".".join(parts)] = (init[node.input[1]].copy(), init[node.input[2]].copy())
    return out


def export(net: TileDetector, path: Path, meta: dict[str, str], fast: bool = True) -> None:
    """``net`` as ONNX at ``path`` with ``meta``, its graph rewritten to run faster
    (:func:`training.onnx_rewrite.fast_graph`) unless ``fast`` is false."""
    wrapper = ExportWrapper(net, MEAN, STD).eval()
    dummy = torch.zeros(1, 3, 384, 640)
    with warnings.catch_warnings():  # the TorchScript exporter is deprecated but exact for this plain graph
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(wrapper, (dummy,), str(path), input_names=["image"], output_names=["peaks", "reg"],
                          dynamic_axes={"image": {2: "height", 3: "width"}, "peaks": {2: "h4", 3: "w4"},
                                        "reg": {2: "h4", 3: "w4"}}, opset_version=17, dynamo=False)
    stamp(path, meta)
    if fast:
        fast_graph(path)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scenes", type=int, default=3200)
    p.add_argument("--val", type=int, default=240)
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--minutes", type=float, default=0.0, help="fit the training into this many minutes (0: no limit)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--workers", type=int, default=1, help="processes rendering scenes")
    p.add_argument("--threshold", type=float, default=0.3)
    p.add_argument("--cache", type=Path, default=ROOT / "build" / "detector-scenes")
    p.add_argument("--out", type=Path, help="the model file (default models/tile_detector.onnx; build/smoke/tile_detector.onnx with --smoke)")
    p.add_argument("--render-only", action="store_true", help="render and cache the scenes, then stop")
    p.add_argument("--checkpoint", type=Path, help="save the weights here every 200 steps")
    p.add_argument("--resume", type=Path, metavar="CHECKPOINT", help="start from saved weights")
    p.add_argument("--from-onnx", type=Path, metavar="MODEL",
                   help="start from an exported detector (its batch norms folded; rebuilt from the training "
                        "windows' statistics), e.g. the shipped models/tile_detector.onnx; needs its --extra")
    p.add_argument("--tune-threshold", action="store_true",
                   help="only choose the score threshold of --out on the validation scenes")
    p.add_argument("--export-only", type=Path, metavar="CHECKPOINT",
                   help="evaluate and export saved weights instead of training")
    p.add_argument("--smoke", action="store_true", help="a tiny run (about a minute) that exercises every step")
    p.add_argument("--extra", type=int, default=0,
                   help="residual blocks after the stride-8 and stride-4 fusions (a resumed detector with fewer "
                        "gets them as identity blocks)")
    p.add_argument("--fast-graph", type=Path, metavar="MODEL",
                   help="rewrite an exported detector's graph to run faster, the same outputs up to rounding "
                        "(training/onnx_rewrite.py); then stop")
    p.add_argument("--no-fast-graph", action="store_true", help="export the graph as torch writes it")
    args = p.parse_args(argv)
    args.out = model_out(args.out, args.smoke, "tile_detector.onnx")
    if sum(bool(a) for a in (args.resume, args.from_onnx, args.export_only)) > 1:
        p.error("--resume, --from-onnx and --export-only each give the starting weights: give one")
    if args.from_onnx:
        extra = {q.key: q.value for q in onnx.load(str(args.from_onnx)).metadata_props}.get("extra_blocks")
        if extra is not None and extra != str(args.extra):
            p.error(f"{args.from_onnx} has {extra} extra blocks: pass --extra {extra}")
    if args.fast_graph:
        return model_file_command(args.fast_graph, lambda: fast_graph(args.fast_graph))
    if args.smoke:
        args.scenes, args.val, args.epochs, args.batch = 24, 8, 1, 8
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    start = time.time()
    frames, boxes = render_set(args.scenes, args.seed, "train", args.cache, args.workers)
    vframes, vboxes = render_set(args.val, args.seed + 1000, "heldout", args.cache, args.workers)
    if args.render_only:
        return 0
    if args.tune_threshold:
        print(json.dumps(tune_threshold(args.out, vframes, vboxes)))
        return 0
    net = TileDetector(extra=args.extra).to(memory_format=torch.channels_last)  # type: ignore[call-overload]
    print(f"detector: {sum(p.numel() for p in net.parameters()) / 1e6:.2f} M parameters, "
          f"{len(frames)} scenes ({sum(len(b) for b in boxes)} labelled tiles)", file=sys.stderr)
    if args.resume:
        net.load_deeper(torch.load(args.resume))
    if args.from_onnx:
        calib = batch_tensors(frames, boxes, np.random.default_rng(args.seed).permutation(len(frames))[:64],
                              np.random.default_rng(args.seed))[0]
        net.load_folded(folded_convolutions(args.from_onnx), calib)
    if args.export_only:
        net.load_state_dict(torch.load(args.export_only))
        steps = -1
    else:
        steps = train(net, frames, boxes, args)
    net.eval()
    metrics = evaluate(net, vframes, vboxes, args.threshold)
    minutes = (time.time() - start) / 60
    print(json.dumps({"heldout_val": metrics, "minutes": round(minutes, 1), "steps": steps}))
    meta = {"classes": json.dumps(CLASSES), "input": "image: 1x3xHxW float32 BGR 0-255, H and W multiples of 32",
            "normalisation": json.dumps({"mean": MEAN, "std": STD, "order": "BGR"}), "stride": str(STRIDE),
            "long_side": "640", "threshold": str(args.threshold),
            "outputs": "peaks: 1x2xH/4xW/4 (face up, face down) max-filtered; reg: 1x6xH/4xW/4 (dx, dy, log w, "
                       "log h in cells, cos, sin of the up angle)",
            "training_commit": git_head(), "training_command": "python -m training.train_detector " +
            " ".join(argv if argv is not None else sys.argv[1:]), "heldout_val": json.dumps(metrics),
            "training_minutes": f"{minutes:.1f}", "training_steps": str(steps), "extra_blocks": str(args.extra)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    export(net, args.out, meta, fast=not args.no_fast_graph)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.1f} MB)", file=sys.stderr)
    print(json.dumps(tune_threshold(args.out, vframes, vboxes)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
