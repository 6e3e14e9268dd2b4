"""Accuracy and speed of reading tiles (detector + classifier), against the targets of the detector issue.

    python -m benchmarks.vision --dev DIR [--scenes 40] [--mahjong-detector-python PY]

1. Held-out synthetic scenes: 1280x720 table frames and phone-photo scenes rendered with face styles and
   table surfaces never used for training. Recall of visible tiles (>= 60% visible) at oriented IoU 0.5,
   kinds right among the found ones, and detections that match no tile (those on a distractor counted
   apart).
2. Dev photos (``DIR/photos`` + ``DIR/photo_boxes.json``): labelled tiles found (axis-aligned IoU >= 0.5)
   and read right (as labelled; ``read_right_corrected`` also with the labels of ``training/dev_errata.json``, boxes
   whose label is not the tile they show; they were found by looking at the tiles read wrong, so the
   corrected figure can only be the higher one). The same for the other copies in the whole-set photos
   (``training/dev_copies.json``), and, with ``--loso-dir``, those copies read again once each set is
   calibrated with its crops.
3. Speed: the median time to read a 1280x720 frame with about 80 tiles on 2 cores (detector 2 threads; the
   face-up and face-down boxes worked out side by side, classifier and back check on one thread each; all with
   spinning off; ``--serial``: one after the other, classifier and back check on ``--threads``), in the
   configuration that gives the numbers above.
   With ``--mahjong-detector-python`` (the python of a throwaway venv where PyPI ``mahjong-detector`` is
   installed; never a dependency of the product) the same frame is timed with it in the same run, in
   alternating blocks of 5 runs each, and the speed ratio is printed for the run and per block.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

from companion.tiles import Tile
from companion.vision.detect import obb_corners, obb_iou
from companion.vision.read import Detections, TileReader, stood
from training.real_crops import ERRATA, errata, iou_xyxy
from training.synth.faces import sample_style
from training.synth.scene import TileLabel, prop_id, render_table_ids
from training.synth.scene_geometry import Pose
from training.synth.scene_layouts import Scene, random_scene
from training.synth.scene_props import PropKind

VISIBLE = 0.6
T = TypeVar("T")
ORIENT: list[str | bool] = [True]
"""The detector's orientation network: the packaged one, another (``--orient PATH``) or none (``--orient none``)."""
BACKS: list[str | bool] = [True]
"""The detector's back check: the packaged one, another (``--backs PATH``) or none (``--backs none``)."""
ROWS = [True]
"""The detector's row completion (``--no-rows``: without it)."""
WEAK = [True]
"""Face-up peaks under the detector's threshold kept where the classifier is sure (``--no-weak``: without them)."""
TILED_PHOTOS = [True]
"""Photos are read as ``companion read`` reads them (a second pass at twice the scale); table frames in one
pass, as a live table would be. ``--single-pass`` reads photos in one pass too."""
STRAIGHTEN = [True]
"""Photos whose faces lie turned are read again turned so that they stand, as the product reads them (table frames
never: their four rows lie four ways); ``--no-straighten``: not."""
TURN_PHOTOS = [0.0]
"""The dev photos are read turned this many degrees counter-clockwise (``--turn-photos``: 90, a photo taken from the
right of the hand; 180 from across it; 270 from its left; any other angle askew, on a canvas that holds the whole
photo), their readings turned back to the labelled boxes."""


def _read_photo(reader: TileReader, image: np.ndarray) -> Detections:
    """``image`` read as a photo, taken turned as :data:`TURN_PHOTOS` says; the boxes in ``image``'s pixels."""
    turn = (TURN_PHOTOS[0] + 180) % 360 - 180
    if not turn:
        return reader.read(image, tiled=TILED_PHOTOS[0])
    turned, affine = stood(image, -turn)  # stood turns clockwise
    dets = reader.read(turned, tiled=TILED_PHOTOS[0])
    return dets.mapped(cv2.invertAffineTransform(affine), -turn, (image.shape[1], image.shape[0]))


def _render(scene: Scene) -> tuple[np.ndarray, list]:
    frame, labels, _ = _render_ids(scene)
    return frame, labels


def _render_ids(scene: Scene) -> tuple[np.ndarray, list, np.ndarray]:
    return render_table_ids(scene.layout, scene.camera, scene.style, scene.lighting, scene.occluders, scene.seed)


def _distractor_mask(scene: Scene, ids: np.ndarray) -> np.ndarray:
    """Where a distractor (a prop other than a hand) shows in the frame: not where one lies under tiles (a wall
    built over a phone), which is a tile's pixel. ``ids``: what shows at each pixel
    (:func:`training.synth.scene.render_table_ids`)."""
    props = [prop_id(k) for k, o in enumerate(scene.occluders) if o.kind is not PropKind.HAND]
    return np.isin(ids, props).astype(np.uint8)


def synthetic(reader: TileReader, n: int, seed: int) -> dict[str, object]:
    """Read ``n`` held-out scenes (3 table frames : 1 photo) and score them. Recall is also given for face-up
    and face-down tiles apart, and the boxes matching no tile by where their centre lies: on a distractor
    where it shows (:func:`_distractor_mask`), on a tile (a box too far off a tile, or on one under 60%
    visible) or on bare table. ``recall_by_pose``: recall of the tiles by how they lie (face up, face down or
    standing; the standing ones split into those read by their face and those seen from behind or too flat to
    read, labelled ``0x`` by their outline), with the visible count of each. ``faces_by_turn``: the face-up
    tiles found, table frames and photos apart, by how far the reader turned the box off the tile's own angle
    (0, 90, 180 or 270 degrees, to the nearest quarter turn), with the kinds right of each: how many misreads
    are the orientation's."""
    found = total = right = false = on_distractor = on_tile = 0
    by_side = {"up": [0, 0], "down": [0, 0]}  # [found, visible]
    by_pose: dict[str, list[int]] = {}  # [found, visible]
    by_turn: dict[str, dict[int, list[int]]] = {"table": {}, "photo": {}}  # [found, read right]
    wrong: dict[str, int] = {}
    for i in range(n):
        rng = np.random.default_rng([seed, i])
        kind = "photo" if i % 4 == 3 else "table"
        size = (1280, 720) if kind == "table" else (1024, 768)
        scene = random_scene(rng, sample_style(rng, "heldout"), "heldout", kind, size,
                             None if kind == "table" else (60.0, 220.0))
        frame, labels, ids = _render_ids(scene)
        dets = reader.read(frame, tiled=kind == "photo" and TILED_PHOTOS[0])
        mask = _distractor_mask(scene, ids)
        tiles = _tile_mask(labels, mask.shape)
        truth = [lab for lab in labels if lab.visible >= 0.2]
        used = np.zeros(len(truth), bool)
        for i_det in np.argsort(-dets.score):
            j = _best_match(dets.obb[i_det], truth, used)
            if j < 0:
                false += 1
                cx, cy = (int(v) for v in dets.obb[i_det, :2])
                inside = 0 <= cy < mask.shape[0] and 0 <= cx < mask.shape[1]
                on_distractor += bool(inside and mask[cy, cx])
                on_tile += bool(inside and not mask[cy, cx] and tiles[cy, cx])
                continue
            used[j] = True
            if truth[j].visible >= VISIBLE:
                found += 1
                by_side["down" if truth[j].kind == Tile.UNKNOWN else "up"][0] += 1
                by_pose.setdefault(_pose(scene, truth[j]), [0, 0])[0] += 1
                ok = Tile(int(dets.kind[i_det])) == truth[j].kind
                right += ok
                if truth[j].kind != Tile.UNKNOWN:
                    turn = by_turn[kind].setdefault(_quarter_turns(dets.obb[i_det, 4], truth[j].obb()[4]), [0, 0])
                    turn[0] += 1
                    turn[1] += ok
                if not ok:
                    key = f"{truth[j].kind}->{Tile(int(dets.kind[i_det]))}"
                    wrong[key] = wrong.get(key, 0) + 1
        for lab in labels:
            if lab.visible >= VISIBLE:
                total += 1
                by_side["down" if lab.kind == Tile.UNKNOWN else "up"][1] += 1
                by_pose.setdefault(_pose(scene, lab), [0, 0])[1] += 1
    top_wrong = dict(sorted(wrong.items(), key=lambda kv: -kv[1])[:8])
    return {"scenes": n, "tiles": total, "recall_iou50": found / max(total, 1),
            "recall_face_up": by_side["up"][0] / max(by_side["up"][1], 1),
            "recall_face_down": by_side["down"][0] / max(by_side["down"][1], 1),
            "tiles_face_down": by_side["down"][1], "kinds_right": right / max(found, 1),
            "false_boxes": false, "distractors_read_as_tiles": on_distractor, "false_boxes_on_a_tile": on_tile,
            "false_boxes_on_bare_table": false - on_distractor - on_tile, "common_misreads": top_wrong,
            "recall_by_pose": {k: {"recall": f / max(v, 1), "visible": v} for k, (f, v) in sorted(by_pose.items())},
            "faces_by_turn": {k: {str(90 * q): {"found": f, "kinds_right": r / f} for q, (f, r) in sorted(t.items())}
                              for k, t in by_turn.items()}}


def _quarter_turns(angle: float, truth: float) -> int:
    """How many quarter turns (0-3, counter-clockwise) a box's angle is off its tile's, to the nearest."""
    return int(np.round(((float(angle) - float(truth)) % 360) / 90)) % 4


def _pose(scene: Scene, lab: TileLabel) -> str:
    """How the tile of ``lab`` lies, as :func:`synthetic`'s ``recall_by_pose`` names it."""
    how = scene.layout[lab.index].pose
    if how is Pose.STANDING:
        return "standing_face" if lab.kind != Tile.UNKNOWN else "standing_outline"
    return "face_up" if how is Pose.FACE_UP else "face_down"


def _tile_mask(labels: list, shape: tuple[int, ...]) -> np.ndarray:
    """Where any tile shows at all (visible > 0), as a ``uint8`` mask of ``shape``."""
    mask = np.zeros(shape[:2], np.uint8)
    for lab in labels:
        if lab.visible > 0:
            cv2.fillConvexPoly(mask, np.round(obb_corners(np.array([lab.obb()], np.float32))[0]).astype(np.int32), 1)
    return mask


def _best_match(obb: np.ndarray, truth: list, used: np.ndarray) -> int:
    best, best_j = 0.5, -1
    for j, lab in enumerate(truth):
        if used[j]:
            continue
        t = np.array(lab.obb(), np.float32)
        if abs(t[0] - obb[0]) > t[3] or abs(t[1] - obb[1]) > t[3]:
            continue
        v = obb_iou(obb, t)
        if v >= best:
            best, best_j = v, j
    return best_j


def dev_photos(reader: TileReader, folder: Path, loso: tuple[Path, Path | None, Path | None] | None = None,
               copies_file: Path | None = None) -> dict[str, object]:
    """Labelled tiles of the dev photos found (IoU >= 0.5) and read right; and the same for the other copies
    of ``training/dev_copies.json`` (unlabelled tiles of the whole-set photos, checked by eye). With ``loso``
    (folders of ``tile_classifier_minus_<set>.onnx``, ``tile_flower_minus_<set>.onnx`` and, if given,
    ``tile_orient_minus_<set>.onnx``) each photo is read by the models trained without its set (the packaged
    ones saw every dev set: optimistic), and read a second time as ``companion read`` reads it once the set is
    calibrated with its crops of crops.csv (one per kind): scored on the copies of calibrated kinds only,
    beside the same copies' uncalibrated reading. Copies that are the very tiles the crops were cut from are
    left out (``training/real_crops.copy_entries``). The copies are tiles the packaged reader found and
    template matching tied to a labelled tile, so ``copies_found`` is a consistency check, not a measure,
    and the copies lean towards tiles that look like their labelled copy. ``copies_file``: another copies file (default the shipped one)."""
    from companion.vision.calibration import Calibration
    from companion.vision.image_file import read_image
    from training.real_crops import COPIES, copy_entries, load_crops, set_of

    boxes = json.loads((folder / "photo_boxes.json").read_text(encoding="utf-8"))
    copies: dict[str, list[tuple[list[float], Tile]]] = {}
    for c in copy_entries(copies_file or COPIES):  # checked; the very tiles of crops.csv's crops left out
        if c.photo not in boxes:
            raise ValueError(f"copy {c.number} names {c.photo}, which {folder / 'photo_boxes.json'} does not have")
        copies.setdefault(c.photo, []).append((list(c.xyxy), c.tile))
    errata = load_errata()
    crops = load_crops(folder) if loso is not None else []
    found = right = right_corrected = total = applied = 0
    cop = {"n": 0, "found": 0, "right": 0, "right_calibrated": 0, "calibrated_n": 0, "right_of_calibrated": 0}
    per_photo = {}
    readers: dict[tuple[str, bool], TileReader] = {}

    def loso_reader(s: str, calibrated: bool) -> TileReader:
        assert loso is not None
        if (s, calibrated) not in readers:
            flower = loso[1] / f"tile_flower_minus_{s}.onnx" if loso[1] else None
            orient = loso[2] / f"tile_orient_minus_{s}.onnx" if loso[2] else ORIENT[0]
            cal = Calibration.from_crops(f"set{s}", [(c.tile, c.image) for c in crops if c.set == s]) \
                if calibrated else None
            readers[s, calibrated] = TileReader(reader.detector.path, loso[0] / f"tile_classifier_minus_{s}.onnx",
                                                threshold=reader.detector.threshold, turns=reader.turns,
                                                long_side=reader.long_side, flower_model=flower, orient=orient,
                                                backs=BACKS[0], rows=ROWS[0], weak=WEAK[0], calibration=cal,
                                                straighten=None if STRAIGHTEN[0] else False)
        return readers[s, calibrated]

    for name, items in sorted(boxes.items()):
        image = read_image(folder / name)
        s = set_of(name)
        use = loso_reader(s, False) if loso is not None else reader
        dets: Detections = _read_photo(use, image)
        f = r = rc = 0
        for item in items:
            got = _read_at(dets, item["xyxy"])
            if got is not None:
                f += 1
                r += got == Tile.from_code(item["tile"])
                shows = corrected_label(name, item, errata)
                rc += got == Tile.from_code(shows)
                applied += shows != item["tile"]
        mine = copies.get(name, [])
        got_copies = [_read_at(dets, box) for box, _ in mine]
        cop["n"] += len(mine)
        cop["found"] += sum(g is not None for g in got_copies)
        cop["right"] += sum(g == t for g, (_, t) in zip(got_copies, mine, strict=True))
        if loso is not None and mine:
            kinds = {c.tile for c in crops if c.set == s}
            if not kinds:
                raise ValueError(f"{name}: copies to score calibrated, but crops.csv has no crop of set {s}")
            calibrated = _read_photo(loso_reader(s, True), image)
            for (box, t), g in zip(mine, got_copies, strict=True):
                if t in kinds:
                    cop["calibrated_n"] += 1
                    cop["right_of_calibrated"] += g == t
                    cop["right_calibrated"] += _read_at(calibrated, box) == t
        per_photo[name] = {"labelled": len(items), "found": f, "read_right": r, "detections": len(dets),
                           "copies": len(mine)}
        found, right, right_corrected, total = found + f, right + r, right_corrected + rc, total + len(items)
    out: dict[str, object] = {
        "labelled": total, "found": found / max(total, 1), "read_right": right / max(total, 1),
        "read_right_corrected": right_corrected / max(total, 1), "errata_applied": applied,
        "copies": cop["n"], "copies_found": cop["found"] / max(cop["n"], 1),
        "copies_read_right": cop["right"] / max(cop["n"], 1)}
    if loso is not None:
        n = max(cop["calibrated_n"], 1)
        out |= {"copies_of_calibrated_kinds": cop["calibrated_n"],
                "copies_of_calibrated_kinds_read_right_uncalibrated": cop["right_of_calibrated"] / n,
                "copies_read_right_calibrated": cop["right_calibrated"] / n}
    return out | {"per_photo": per_photo}


def _read_at(dets: Detections, xyxy: list[float]) -> Tile | None:
    """The tile read in the detection that best overlaps the box ``xyxy`` (axis-aligned IoU >= 0.5), or None
    when none does."""
    want = np.array(xyxy, np.float32)
    ious = [iou_xyxy(want, d) for d in dets.xyxy]
    if not ious or max(ious) < 0.5:
        return None
    return Tile(int(dets.kind[int(np.argmax(ious))]))


def load_errata(path: Path = ERRATA) -> dict[tuple[str, tuple[float, ...]], tuple[str, str]]:
    """The dev boxes whose label is not the tile they show (the ``photo_boxes`` of ``training/dev_errata.json``:
    photo, box, label, the tile shown and how it was checked; :func:`training.real_crops.errata`), as
    ``(photo, xyxy) -> (label, tile shown)``; an entry that lacks a field is an error naming the file."""
    try:
        return {(str(e["photo"]), tuple(float(v) for v in e["xyxy"])): (str(e["labelled"]), str(e["shows"]))
                for e in errata("photo_boxes", path)}
    except (KeyError, TypeError, ValueError) as err:
        raise ValueError(f"{path}: a photo_boxes erratum: {err!r}") from err


def corrected_label(photo: str, item: dict, errata: dict[tuple[str, tuple[float, ...]], tuple[str, str]]) -> str:
    """The tile a dev box shows: its label, unless ``errata`` says otherwise. An erratum for the box whose label
    is no longer the one it corrects (the dev data was fixed or changed) is an error naming the box."""
    fix = errata.get((photo, tuple(float(v) for v in item["xyxy"])))
    if fix is None:
        return str(item["tile"])
    if fix[0] != item["tile"]:
        raise ValueError(f"{photo} {item['xyxy']}: the erratum corrects the label {fix[0]}, the box has {item['tile']}")
    return fix[1]


def busy_frame(seed: int) -> tuple[np.ndarray, int]:
    """A held-out 1280x720 table frame with about 80 visible tiles."""
    best: tuple[np.ndarray, int] | None = None
    for i in range(200):
        rng = np.random.default_rng([seed, 99, i])
        scene = random_scene(rng, sample_style(rng, "heldout"), "heldout", "table", (1280, 720), (24.0, 36.0))
        frame, labels = _render(scene)
        n = sum(lab.visible >= VISIBLE for lab in labels)
        if best is None or abs(n - 80) < abs(best[1] - 80):
            best = (frame, n)
        if abs(n - 80) <= 5:
            break
    assert best is not None
    return best


def _time_ours(reader: TileReader, frame: np.ndarray, runs: int) -> tuple[list[float], list[float], int]:
    total, det_only, n = [], [], 0
    for _ in range(runs):
        t0 = time.perf_counter()
        reader.detector.detect(frame, reader.long_side)
        t1 = time.perf_counter()
        n = len(reader.read(frame))
        t2 = time.perf_counter()
        det_only.append(t1 - t0)
        total.append(t2 - t1)
    return total, det_only, n


_MJ_SERVER = """
import json, os, sys, time
reply = os.fdopen(os.dup(1), "w")  # the replies; anything the libraries print goes to stderr
os.dup2(2, 1)
from PIL import Image
from mahjong_detector.preprocess import preprocess_image
from mahjong_detector.predict import predict
img = Image.open(sys.argv[1]).convert("RGB")
for _ in range(3):
    dets = predict(*preprocess_image(img))
print(len(dets), file=reply, flush=True)
for line in sys.stdin:
    ts = []
    for _ in range(int(line)):
        t = time.perf_counter(); predict(*preprocess_image(img)); ts.append(time.perf_counter() - t)
    print(json.dumps(ts), file=reply, flush=True)
"""


class Peer:
    """PyPI ``mahjong-detector`` in its own python (its throwaway venv), kept running so that its runs can be
    interleaved with ours: ``times(k)`` reads the frame ``k`` times there and returns the seconds of each.
    Its stderr goes to a file (a pipe nobody reads could fill and stall it); any failure is a RuntimeError
    with the end of that file, and the process is gone after it."""

    def __init__(self, python: str, frame: np.ndarray) -> None:
        self._dir = tempfile.TemporaryDirectory()
        path = Path(self._dir.name) / "frame.png"
        cv2.imwrite(str(path), frame)
        self._err = open(Path(self._dir.name) / "stderr.txt", "w+", encoding="utf-8")  # noqa: SIM115
        try:
            self._proc = subprocess.Popen([python, "-c", _MJ_SERVER, str(path)], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=self._err, text=True)
        except OSError as e:  # no such python, or not a program
            self._err.close()
            self._dir.cleanup()
            raise RuntimeError(f"mahjong-detector: cannot start {python}: {e.strerror or e}") from e
        self._stderr_tail = ""
        self.tiles_found = self._reply(int)

    def _reply(self, parse: Callable[[str], T]) -> T:
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        try:
            if not line:
                raise ValueError("it stopped")
            return parse(line)
        except (ValueError, TypeError) as e:
            self.close()
            raise RuntimeError(f"mahjong-detector failed ({e}): {self._stderr_tail}") from e

    def times(self, k: int) -> list[float]:
        assert self._proc.stdin is not None
        try:
            self._proc.stdin.write(f"{k}\n")
            self._proc.stdin.flush()
        except OSError as e:
            self.close()
            raise RuntimeError(f"mahjong-detector failed ({e}): {self._stderr_tail}") from e
        return self._reply(lambda line: [float(t) for t in json.loads(line)])

    def close(self) -> None:
        if self._proc.poll() is None:
            self._proc.kill()
        self._proc.wait()
        for pipe in (self._proc.stdin, self._proc.stdout):
            if pipe is not None:
                pipe.close()
        self._err.seek(0)
        self._stderr_tail = self._err.read().strip()[-300:]
        self._err.close()
        self._dir.cleanup()


def speed(reader: TileReader, frame: np.ndarray, runs: int, peer_python: str | None = None,
          block: int = 5) -> dict[str, object]:
    """The median time to read ``frame`` over ``runs`` (at least 1) runs. With ``peer_python`` (see
    :class:`Peer`), ``mahjong-detector`` reads the same frame in the same run, interleaved with ours in blocks
    of ``block`` runs, so a change of the machine's load during the run falls on both; the ratio is given for
    the whole run and per block. A peer that fails is reported and ours is still timed."""
    if runs < 1 or block < 1:
        raise ValueError(f"runs and block must be at least 1, got {runs} and {block}")
    for _ in range(3):
        reader.read(frame)
    peer_error = "not run (pass --mahjong-detector-python)"
    peer, peer_tiles = None, 0
    if peer_python:
        try:
            peer = Peer(peer_python, frame)
            peer_tiles = peer.tiles_found
        except RuntimeError as e:
            peer_error = str(e)
    total: list[float] = []
    det_only: list[float] = []
    theirs: list[float] = []
    block_ratios: list[float] = []
    n = 0
    try:
        for start in range(0, runs, block):
            k = min(block, runs - start)
            t, d, n = _time_ours(reader, frame, k)
            total += t
            det_only += d
            if peer is not None:
                try:
                    p = peer.times(k)
                except RuntimeError as e:
                    peer, peer_error, theirs = None, str(e), []
                    continue
                theirs += p
                block_ratios.append(float(np.median(p) / np.median(t)))
    finally:
        if peer is not None:
            peer.close()
    ours = {"read_ms_median": 1000 * float(np.median(total)), "detect_ms_median": 1000 * float(np.median(det_only)),
            "tiles_read": n}
    if not theirs:
        return {"ours": ours, "mahjong_detector": peer_error}
    return {"ours": ours,
            "mahjong_detector": {"read_ms_median": 1000 * float(np.median(theirs)), "tiles_found": peer_tiles},
            "times_faster": float(np.median(theirs) / np.median(total)),
            "times_faster_per_block": {"blocks": len(block_ratios), "block_runs": block,
                                       "min": min(block_ratios), "median": float(np.median(block_ratios)),
                                       "max": max(block_ratios)}}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--dev", type=Path, help="the dev-data folder (photos/ and photo_boxes.json)")
    p.add_argument("--scenes", type=int, default=40)
    p.add_argument("--seed", type=int, default=2024)
    p.add_argument("--runs", type=int, default=30)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--detector", help="another detector .onnx (default: the packaged one)")
    p.add_argument("--classifier", help="another classifier .onnx (default: the packaged one)")
    p.add_argument("--long-side", type=int, help="detector input scale (default: the model's, 640)")
    p.add_argument("--turns", type=int, default=1, help="quarter-turned crops read per tile (1, 2 or 4)")
    p.add_argument("--single-pass", action="store_true", help="read photos in one detector pass too")
    p.add_argument("--loso-dir", type=Path, help="dev photos read by tile_classifier_minus_<set>.onnx from here")
    p.add_argument("--flower-loso-dir", type=Path, help="... and tile_flower_minus_<set>.onnx from here")
    p.add_argument("--mahjong-detector-python", help="python of a throwaway venv with PyPI mahjong-detector")
    p.add_argument("--orient-loso-dir", type=Path, help="... and tile_orient_minus_<set>.onnx from here")
    p.add_argument("--orient", default="packaged",
                   help="the orientation network: packaged (default), none, or a path to another .onnx")
    p.add_argument("--no-weak", action="store_true",
                   help="without the face-up peaks under the detector's threshold (TileReader._weak_faces)")
    p.add_argument("--no-rows", action="store_true",
                   help="without the detector's row completion (companion.vision.detect.TileDetector._checked)")
    p.add_argument("--serial", action="store_true",
                   help="a frame's face-up and face-down boxes worked out one after the other (TileReader parallel=False)")
    p.add_argument("--no-straighten", action="store_true",
                   help="photos whose faces lie turned not read again turned (TileReader straighten=False)")
    p.add_argument("--turn-photos", type=float, default=0.0,
                   help="read the dev photos turned this many degrees counter-clockwise (default 0)")
    p.add_argument("--backs", default="packaged",
                   help="the back check: packaged (default), none, or a path to another .onnx")
    args = p.parse_args(argv)
    # checked before any scene is read: a bad argument must not cost the run's minutes and then its results
    for name in ("scenes", "runs", "threads"):
        if getattr(args, name) < 1:
            p.error(f"--{name} must be at least 1, got {getattr(args, name)}")
    if args.long_side is not None and args.long_side < 64:
        p.error(f"--long-side must be at least 64 pixels, got {args.long_side}")
    if args.dev is not None and not (args.dev / "photo_boxes.json").is_file():
        p.error(f"--dev {args.dev}: no photo_boxes.json there (the dev-data folder holds photos/ and photo_boxes.json)")
    ORIENT[0] = {"packaged": True, "none": False}.get(args.orient, args.orient)
    BACKS[0] = {"packaged": True, "none": False}.get(args.backs, args.backs)
    TILED_PHOTOS[0] = not args.single_pass
    ROWS[0] = not args.no_rows
    WEAK[0] = not args.no_weak
    STRAIGHTEN[0] = not args.no_straighten
    TURN_PHOTOS[0] = args.turn_photos
    try:
        reader = TileReader(args.detector, args.classifier, detector_threads=args.threads,
                            classifier_threads=args.threads, turns=args.turns, long_side=args.long_side,
                            orient=ORIENT[0], backs=BACKS[0], rows=ROWS[0], weak=WEAK[0], parallel=not args.serial,
                            straighten=None if STRAIGHTEN[0] else False)  # None: photos only, as the product
    except Exception as e:  # a model file that is missing or not one: named, without a traceback
        p.error(f"cannot load the reader's models: {type(e).__name__}: {e}")
    check = reader.detector.backs
    out: dict[str, object] = {"config": {"threads": args.threads, "turns": args.turns, "photos_tiled": TILED_PHOTOS[0],
                                         "photos_straightened": STRAIGHTEN[0], "dev_photos_turned": TURN_PHOTOS[0],
                                         "faces_and_backs_side_by_side": reader.parallel,
                                         "orient": str(reader.detector.orienter.path.name)
                                         if reader.detector.orienter else "none",
                                         "backs": {"model": check.path.name, "threshold": check.threshold,
                                                   "candidates": check.candidates} if check else "none",
                                         "rows": ROWS[0] and check is not None,
                                         "weak_face_up": reader.detector.weak,
                                         "detector": str(reader.detector.path.name),
                                         "long_side": reader.long_side or reader.detector.long_side,
                                         "threshold": reader.detector.threshold,
                                         "classifier": str(reader.classifier.path.name),
                                         "classifier_commit": reader.classifier.info.training_commit}}
    out["synthetic_heldout"] = synthetic(reader, args.scenes, args.seed)
    print(json.dumps(out["synthetic_heldout"]), file=sys.stderr)
    if args.dev:
        out["dev_photos"] = dev_photos(reader, args.dev,
                                       (args.loso_dir, args.flower_loso_dir, args.orient_loso_dir)
                                       if args.loso_dir else None)
        print(json.dumps(out["dev_photos"]), file=sys.stderr)
    frame, n = busy_frame(args.seed)
    out["speed_1280x720"] = {"visible_tiles": n, **speed(reader, frame, args.runs, args.mahjong_detector_python)}
    print(json.dumps(out, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
