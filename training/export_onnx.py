"""Export a trained TileNet to a self-describing ONNX file (metadata_props: class names in the notation,
input size, normalisation, output meanings, training commit and run info)."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import onnx
import torch

from companion.vision.preprocess import INPUT_SIZE, MEAN, STD
from training.classifier_model import TileNet

__all__ = ["export", "training_commit", "git_head", "stamp", "model_file_command", "model_out"]


_SOURCES = ("training/synth/faces.py", "training/synth/draw.py", "training/synth/pips.py", "training/synth/bamboo.py",
            "training/synth/flowers.py", "training/synth/honours.py", "training/synth/fonts.py",
            "training/train_classifier.py", "training/classifier_data.py", "training/classifier_model.py",
            "training/real_augment.py", "training/real_crops.py", "training/loso.py", "training/build_classifier.py",
            "training/export_onnx.py", "companion/vision/preprocess.py", "training/train_flower.py",
            "training/flower_ensemble.py", "companion/vision/flower.py")
"""The files that decide the classifier's and the flower model's weights."""


def git_head() -> str:
    """HEAD of the repository (``unknown`` outside a git checkout)."""
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], cwd=Path(__file__).resolve().parent.parent,
                              capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def stamp(path: Path, meta: dict[str, str]) -> None:
    """Add ``meta`` to the ONNX file's metadata_props."""
    model = onnx.load(str(path))
    for k, v in meta.items():
        model.metadata_props.add(key=k, value=v)
    onnx.save(model, str(path))


def model_out(out: Path | None, smoke: bool, name: str) -> Path:
    """Where a training script writes its model: ``out`` when given; else the shipped ``models/<name>``, or
    ``build/smoke/<name>`` for a ``--smoke`` run, whose tiny model must never replace the one the package
    ships (a source checkout and a wheel both read ``models/``)."""
    if out is not None:
        return out
    root = Path(__file__).resolve().parents[1]
    return root / "build" / "smoke" / name if smoke else root / "models" / name


def model_file_command(path: Path, step: Callable[[], object]) -> int:
    """A training script's command that changes the model file ``path`` (``step``) and stops: the result is
    printed as JSON and the exit status is 0; any failure (a file that is not ONNX, not the model expected) is
    printed naming the file, without a traceback, and the exit status is 2."""
    try:
        print(f"{path}: {json.dumps(step(), ensure_ascii=False)}")
    except Exception as e:  # whatever the file is, the user gets one line naming it
        print(f"error: {path}: {type(e).__name__}: {e}", file=sys.stderr)
        return 2
    return 0


def training_commit() -> str:
    """HEAD of the repository, with ``+dirty`` when the classifier's sources have uncommitted changes."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True,
                              check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", *_SOURCES], cwd=root,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")


def export(model: TileNet, path: Path, class_names: tuple[str, ...], info: dict[str, Any]) -> None:
    model.eval().to(memory_format=torch.contiguous_format)  # type: ignore[call-overload]
    path.parent.mkdir(parents=True, exist_ok=True)
    w, h = INPUT_SIZE
    dummy = torch.zeros(2, 3, h, w)
    with warnings.catch_warnings():  # the TorchScript exporter's deprecation notices
        warnings.simplefilter("ignore")
        torch.onnx.export(model, (dummy,), str(path), input_names=["input"], output_names=["logits", "embedding"],
                          dynamic_axes={"input": {0: "n"}, "logits": {0: "n"}, "embedding": {0: "n"}},
                          opset_version=17, dynamo=False)
    m = onnx.load(str(path))
    meta = {
        "class_names": json.dumps(list(class_names)),
        "input_size": json.dumps({"width": w, "height": h}),
        "input_format": "RGB float32 NCHW, (pixel/255 - mean) / std",
        "mean": json.dumps(list(MEAN)),
        "std": json.dumps(list(STD)),
        "outputs": "logits: class scores (logit_scale x cosine of embedding and class weight); embedding: "
                   "L2-normalised features for calibration prototypes",
        "logit_scale": json.dumps(info.get("logit_scale", 1.0)),
        "training_commit": training_commit(),
        "training": json.dumps(info),
    }
    del m.metadata_props[:]
    for k, v in meta.items():
        m.metadata_props.add(key=k, value=v)
    onnx.save(m, str(path))
