"""Train the back-check network (is a face-down box the detector found a back?) and export it to ONNX.

    python -m training.train_backs                  # the full run (about 20 minutes on 2 cores)
    python -m training.train_backs --smoke          # a few seconds: every step on a tiny set

It learns from what the detector (``--detector``, default the packaged one) does on rendered scenes it was
not trained on: ``--seed 2`` of the detector's scene renderer (``training.train_detector.render_set``, same
cache; the detector trains on seed 1). The detector reads each scene at its own scale as the product does
(face-up peaks down to its threshold, face-down ones down to ``--candidates``); each face-down box is cut
as the product cuts it (:func:`companion.vision.orient.square_crops`, :data:`SPAN` times its longer side)
and labelled 1 when it matches a face-down tile at least 60% visible (IoU 0.5, boxes matched best score
first), 0 when it matches no tile or a face-up one (a face there, not a back: dropping the box lets a
face-up box of the tile stand), and left out when it matches a tile 20-60% visible. Mirrored and
half-turned squares and light changes are added in training (a back has no up).

Validation: held-out scenes (``--seed`` + 1000: face styles and tables never trained on). The threshold and
the lowest detector score worth checking are chosen on half of them (the most backs kept less false boxes,
each counting one) and reported on the other half.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from companion.vision.detect import TileDetector, model_sha256, obb_iou
from companion.vision.orient import square_crops
from training.detector_model import IGNORE, POSITIVE
from training.export_onnx import git_head, model_file_command, model_out
from training.progress import Progress
from training.train_detector import LABELS, MEAN, SIZE, STD, render_set
from training.train_orient import OrientNet, export_squares, light_jitter, to_tensor

ROOT = Path(__file__).resolve().parents[1]
CROP = 48
"""Side of the square the network reads, in pixels ..."""
SPAN = 3.0
"""... the square's side in units of the box's longer side: the box and about a tile around it (its wall or
row, or only cloth) ..."""
WIDTHS = (24, 48, 72, 72, 96, 96)
"""... and the channels of its stem and five blocks (:func:`training.train_orient.square_body`). The first
check read 32x32 squares of 2x the box with the orientation network's widths (15k parameters). This one (31k
parameters), built by this script on stage 12's boxes, classed 77.1% of the held-out validation boxes right
(the first 71.0%, the first's shape retrained 73.4%) and, in the reader at 0.9 on 120 validation scenes
(seeds 7, 11, 13), found 1.3-2.7 points more of the tiles with 72 false boxes against 83; it costs about
2.5 ms more a busy frame (about 40 boxes checked). models/README.md has the table."""


CANDIDATES = 0.3
"""The lowest detector score of the face-down boxes the check learns from (``--candidates``)."""


class Export(nn.Module):
    def __init__(self, net: OrientNet) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(self.net(x))


def label_boxes(obb: np.ndarray, score: np.ndarray, truth: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per box (best score first, one-to-one at IoU 0.5): 1 on a tile at least :data:`POSITIVE` visible,
    -1 on one :data:`IGNORE`-:data:`POSITIVE` visible (left out), 0 on none; and the index of the tile it
    matched (-1: none)."""
    out = np.zeros(len(obb), np.int8)
    on = np.full(len(obb), -1, np.int64)
    used = np.zeros(len(truth), bool)
    for i in np.argsort(-score):
        best, best_j = 0.5, -1
        for j in range(len(truth)):
            t = truth[j]
            if used[j] or t[6] < IGNORE or abs(t[0] - obb[i, 0]) > t[3] or abs(t[1] - obb[i, 1]) > t[3]:
                continue
            v = obb_iou(obb[i], t[:5])
            if v >= best:
                best, best_j = v, j
        if best_j >= 0:
            used[best_j] = True
            out[i] = 1 if truth[best_j, 6] >= POSITIVE else -1
            on[i] = best_j
    return out, on


def candidates(det: TileDetector, frames: np.ndarray, boxes: list[np.ndarray], desc: str,
               quiet: bool = False) -> dict[str, np.ndarray]:
    """Every face-down box the detector finds in the scenes: ``crops`` (N x CROP x CROP x 3), ``label``
    (1 a back, 0 no back; boxes on partly hidden tiles are left out), ``score`` (the detector's), ``scene``
    (its index) and ``backs`` (per scene, how many face-down tiles at least :data:`POSITIVE` visible it
    holds)."""
    crops, labels, scores, scenes = [], [], [], []
    backs = np.zeros(len(frames), np.int64)
    for i in Progress(range(len(frames)), len(frames), desc, enabled=not quiet):
        truth = boxes[i]
        backs[i] = int(((truth[:, 5] < 0.5) & (truth[:, 6] >= POSITIVE)).sum())
        got = det.detect(frames[i], long_side=SIZE)
        if len(got) == 0:
            continue
        # every box is matched against every tile, so a face-up box that matched first keeps its tile
        lab, on = label_boxes(got.obb, got.score, truth)
        lab[(lab == 1) & (truth[np.maximum(on, 0), 5] >= 0.5)] = 0  # a face there, not a back
        down = (~got.face_up) & (lab >= 0)
        if down.any():
            crops.append(square_crops(frames[i], got.obb[down], CROP, SPAN))
            labels.append(lab[down])
            scores.append(got.score[down])
            scenes.append(np.full(int(down.sum()), i))
    if not crops:
        return {"crops": np.zeros((0, CROP, CROP, 3), np.uint8), "label": np.zeros(0, np.int8),
                "score": np.zeros(0, np.float32), "scene": np.zeros(0, np.int64), "backs": backs}
    return {"crops": np.concatenate(crops), "label": np.concatenate(labels), "score": np.concatenate(scores),
            "scene": np.concatenate(scenes), "backs": backs}


def augment(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Mirrored and half-turned squares under other light (:func:`training.train_orient.light_jitter`)."""
    x = x.copy()
    flip = rng.random(len(x)) < 0.5
    x[flip] = x[flip, :, ::-1]
    turn = rng.random(len(x)) < 0.5
    x[turn] = x[turn, ::-1, ::-1]
    return light_jitter(x, rng)


def predict(net: nn.Module, crops: np.ndarray) -> np.ndarray:
    net.eval()
    with torch.no_grad():
        out = [torch.sigmoid(net(to_tensor(crops[i:i + 512]))).reshape(-1) for i in range(0, len(crops), 512)]
    return torch.cat(out).numpy() if out else np.zeros(0, np.float32)


def counts(p: np.ndarray, label: np.ndarray, score: np.ndarray, floor: float, threshold: float) -> tuple[int, int]:
    """(backs kept, false boxes kept) by a detector score floor and a check threshold."""
    keep = (score >= floor) & (p >= threshold)
    return int((keep & (label == 1)).sum()), int((keep & (label == 0)).sum())


def choose_threshold(p: np.ndarray, label: np.ndarray, score: np.ndarray, floors: list[float]) -> tuple[float, float]:
    """The (detector score floor, check threshold) that keeps the most backs less false boxes (each counts
    one); of pairs that do equally well, the highest floor (fewest boxes to check), then the lowest
    threshold."""
    best: tuple[int, float, float] | None = None
    for floor in sorted(floors, reverse=True):
        for t in np.round(np.arange(0.05, 1.0, 0.025), 3):
            kept, false = counts(p, label, score, floor, float(t))
            if best is None or kept - false > best[0]:
                best = (kept - false, floor, float(t))
    assert best is not None
    return best[1], best[2]


def report(p: np.ndarray, label: np.ndarray, score: np.ndarray, backs: int, floor: float, threshold: float,
           det_threshold: float) -> dict[str, object]:
    """Backs kept and false boxes, with the check and with the detector's score alone."""
    kept, false = counts(p, label, score, floor, threshold)
    alone, alone_false = counts(p, label, score, det_threshold, 0.0)
    return {"face_down_tiles": backs, "with_check": {"backs_kept": kept / max(backs, 1), "false_boxes": false},
            "detector_alone": {"threshold": det_threshold, "backs_kept": alone / max(backs, 1),
                               "false_boxes": alone_false}}


def export(net: OrientNet, path: Path, meta: dict[str, str]) -> None:
    export_squares(Export(net), path, meta, "tile", CROP)


def command(argv: list[str]) -> str:
    """The command line as the model's metadata records it, with absolute paths by their last part."""
    return " ".join(["python -m training.train_backs",
                     *(Path(a).name if Path(a).is_absolute() else a for a in argv)])


def _save_with(m: Any, path: Path, new: dict[str, str]) -> None:
    """Save the ONNX model ``m`` to ``path`` with the metadata entries ``new`` in place of those of the same
    keys."""
    import onnx

    for q in list(m.metadata_props):
        if q.key in new:
            m.metadata_props.remove(q)
    for k, v in new.items():
        m.metadata_props.add(key=k, value=v)
    onnx.save(m, str(path))


def ship_for(model: Path, detector: Path, why: str) -> dict[str, str]:
    """Point the back check ``model`` at another ``detector`` (``detector`` and ``detector_sha256`` in its
    metadata, so the pair loads without a warning) after it was measured with that detector's boxes; the
    detector it learnt on and ``why`` (the measurement) are kept in ``detector_history``. ``why`` must say
    something: a check is moved to a new detector only on a measurement."""
    import onnx

    if not why.strip():
        raise ValueError(f"{model}: say why the check suits {detector.name} (the measurement)")
    m = onnx.load(str(model))
    meta = {q.key: q.value for q in m.metadata_props}
    if "detector_sha256" not in meta:
        raise ValueError(f"{model} is not a back check (no detector_sha256 in its metadata)")
    history = json.loads(meta.get("detector_history", "[]"))
    history.append({"from": {"detector": meta.get("detector", ""), "sha256": meta["detector_sha256"]},
                    "to": {"detector": detector.name, "sha256": model_sha256(detector)}, "why": why})
    new = {"detector": detector.name, "detector_sha256": model_sha256(detector),
           "detector_history": json.dumps(history, ensure_ascii=False)}
    _save_with(m, model, new)
    return new


def set_threshold(model: Path, threshold: float | str, why: str, candidates: float | None = None) -> dict[str, str]:
    """Ship the check ``model`` with ``threshold`` instead of the one the script chose on the validation
    boxes, after measuring the reader with it (the boxes' count is not the reader's: it also drops boxes by
    size and colour, and the benchmark's frames are not the check's scenes). ``threshold_choice`` in the
    metadata keeps the tuned value, the shipped one and ``why``, which must say something; a later call
    replaces the shipped value and the reason, and keeps the tuned one. ``candidates``: ship this lowest
    detector score the check sees as well (its tuned and shipped values join ``threshold_choice`` as
    ``candidates_tuned`` and ``candidates``)."""
    import onnx

    if not why.strip():
        raise ValueError(f"{model}: say why the check is shipped at {threshold} (the measurement)")
    try:
        threshold = float(threshold)
    except ValueError:
        raise ValueError(f"{model}: the threshold must be a number, got {threshold!r}") from None
    if not 0.0 < threshold < 1.0:
        raise ValueError(f"{model}: a threshold is a probability strictly between 0 and 1, got {threshold}")
    m = onnx.load(str(model))
    meta = {q.key: q.value for q in m.metadata_props}
    if "detector_sha256" not in meta or "threshold" not in meta:
        raise ValueError(f"{model} is not a back check (no detector_sha256 or threshold in its metadata)")
    try:
        before = json.loads(meta.get("threshold_choice", "{}"))
        tuned = float(before.get("tuned", meta["threshold"]))
        floor = float(before.get("candidates_tuned", meta["candidates"])) if candidates is not None else None
    except (KeyError, ValueError, TypeError, AttributeError) as e:
        raise ValueError(f"{model}: unreadable threshold_choice, threshold or candidates in its metadata ({e})") from None
    choice: dict[str, object] = {"tuned": tuned, "shipped": threshold, "why": why}
    new = {"threshold": str(threshold)}
    if candidates is None:
        if "candidates_tuned" in before:  # an earlier floor's record stays
            choice |= {"candidates_tuned": before["candidates_tuned"], "candidates": before.get("candidates")}
    elif not 0.0 < candidates < 1.0:
        raise ValueError(f"{model}: a candidates floor is a detector score strictly between 0 and 1, got {candidates}")
    else:
        choice |= {"candidates_tuned": floor, "candidates": candidates}
        new["candidates"] = str(candidates)
    new["threshold_choice"] = json.dumps(choice, ensure_ascii=False)
    _save_with(m, model, new)
    return new


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scenes", type=int, default=1600, help="training scenes")
    p.add_argument("--val", type=int, default=240)
    p.add_argument("--detector", type=Path, help="the detector whose boxes are checked (default: the packaged one)")
    p.add_argument("--candidates", type=float, help=f"lowest detector score the check sees (default {CANDIDATES}; with "
                   "--set-threshold: ship this one as well)")
    p.add_argument("--steps", type=int, default=6000)
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--lr", type=float, default=4e-3)
    p.add_argument("--seed", type=int, default=2, help="seed of the training scenes (not the detector's 1)")
    p.add_argument("--train-seed", type=int, default=20261130)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--workers", type=int, default=1, help="processes rendering scenes not in the cache")
    p.add_argument("--cache", type=Path, default=ROOT / "build" / "detector-scenes")
    p.add_argument("--out", type=Path, help="the model file (default models/tile_backs.onnx; build/smoke/tile_backs.onnx with --smoke)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--smoke", action="store_true", help="a tiny run that exercises every step")
    p.add_argument("--ship-for", nargs=2, metavar=("MODEL", "WHY"),
                   help="point the check MODEL at --detector after measuring it there (see ship_for); then stop")
    p.add_argument("--set-threshold", nargs=3, metavar=("MODEL", "THRESHOLD", "WHY"),
                   help="ship the check MODEL at THRESHOLD after measuring the reader with it (see set_threshold); "
                        "then stop")
    args = p.parse_args(argv)
    args.out = model_out(args.out, args.smoke, "tile_backs.onnx")
    if args.set_threshold and args.ship_for:
        p.error("--set-threshold and --ship-for each change a model and stop: give one")
    if args.set_threshold:
        model, value, why = args.set_threshold
        return model_file_command(Path(model), lambda: set_threshold(Path(model), value, why, args.candidates))
    if args.ship_for:
        if args.detector is None:
            p.error("--ship-for needs --detector")
        model = Path(args.ship_for[0])
        return model_file_command(model, lambda: ship_for(model, args.detector, args.ship_for[1]))
    if args.smoke:
        args.scenes, args.val, args.steps, args.batch = 16, 4, 20, 32
    torch.manual_seed(args.train_seed)
    torch.set_num_threads(args.threads)
    start = time.time()
    frames, boxes = render_set(args.scenes, args.seed, "train", args.cache, args.workers)
    vframes, vboxes = render_set(args.val, args.seed + 1000, "heldout", args.cache, args.workers)
    det = TileDetector(args.detector, threads=args.threads, orient=False, backs=False)
    det_threshold = det.threshold
    det.down_threshold = min(CANDIDATES if args.candidates is None else args.candidates, det_threshold)  # as the product decodes with a check
    train = candidates(det, frames, boxes, "boxes train", args.quiet)
    val = candidates(det, vframes, vboxes, "boxes val", args.quiet)
    x, y = train["crops"], train["label"].astype(np.float32)
    if len(x) == 0:
        raise SystemExit("the detector found no face-down boxes in the training scenes")
    net = OrientNet(outputs=1, widths=WIDTHS)  # the orientation network's shape, wider, one logit
    print(f"back check: {sum(q.numel() for q in net.parameters())} parameters; {len(x)} training boxes "
          f"({int(y.sum())} on tiles), {len(val['label'])} validation boxes", file=sys.stderr)
    rng = np.random.default_rng(args.train_seed)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=1e-4)
    warm = max(1, min(100, args.steps // 10))
    bar = Progress(range(args.steps), args.steps, "train", enabled=not args.quiet)
    avg = None
    for step in bar:
        net.train()
        t = max(0.0, (step - warm) / max(args.steps - warm, 1))
        lr = args.lr * (step + 1) / warm if step < warm else args.lr * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * t)))
        for g in opt.param_groups:
            g["lr"] = lr
        pick = rng.integers(0, len(x), min(args.batch, len(x)))
        logit = net(to_tensor(augment(x[pick], rng))).reshape(-1)
        loss = nn.functional.binary_cross_entropy_with_logits(logit, torch.from_numpy(y[pick]))
        opt.zero_grad()
        loss.backward()
        opt.step()
        v = float(loss.detach())
        avg = v if avg is None else 0.98 * avg + 0.02 * v
        bar.set(f"loss {avg:.3f} lr {lr:.4f}")
    pv = predict(net, val["crops"])
    tune = val["scene"] % 2 == 0  # choose on the even scenes, report on the odd ones
    floors = sorted({det.down_threshold, *(f for f in (0.35, 0.4, 0.45, 0.5) if det.down_threshold < f <= det_threshold)})
    floor, threshold = choose_threshold(pv[tune], val["label"][tune], val["score"][tune], floors)
    vb = val["backs"]
    metrics = {"boxes": len(pv), "backs_among_them": int((val["label"] == 1).sum()),
               "accuracy_at_0.5": float(((pv >= 0.5) == (val["label"] == 1)).mean()) if len(pv) else 0.0,
               "chosen_on_even_scenes": {"candidates": floor, "threshold": threshold},
               "odd_scenes": report(pv[~tune], val["label"][~tune], val["score"][~tune], int(vb[1::2].sum()),
                                    floor, threshold, det_threshold),
               "training_boxes": {"backs": int((train["label"] == 1).sum()), "other": int((train["label"] == 0).sum())}}
    minutes = (time.time() - start) / 60
    print(json.dumps({"heldout_val": metrics, "minutes": round(minutes, 1), "steps": args.steps}))
    meta = {"input_size": str(CROP), "span": str(SPAN), "widths": json.dumps(WIDTHS), "input": f"crops: Nx3x{CROP}x{CROP} float32 BGR, normalised",
            "normalisation": json.dumps({"mean": MEAN, "std": STD, "order": "BGR"}),
            "outputs": "tile: Nx1 probability that a tile lies in the face-down box",
            "threshold": str(threshold), "candidates": str(floor), "detector": det.path.name,
            "detector_sha256": model_sha256(det.path), "scenes": f"seed {args.seed}, version {LABELS}",
            "training_commit": git_head(), "training_command": command(argv if argv is not None else sys.argv[1:]),
            "heldout_val": json.dumps(metrics), "training_minutes": f"{minutes:.1f}",
            "training_steps": str(args.steps)}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    export(net, args.out, meta)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e3:.0f} kB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
