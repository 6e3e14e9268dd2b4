"""Quantise a classifier ONNX file to 8-bit integers (static, QDQ, per-channel weights) for speed on CPU.

    python -m training.quantize IN.onnx OUT.onnx [--images 600] [--seed 5] [--float-input]
    python -m training.quantize --patch-input MODEL      # rewrite a file quantised before, and stop
    python -m training.quantize --patches-rgb MODEL      # turn a file of the first rewrite to R G B patches

The activation ranges come from rendered faces of the renderer's ``train`` styles, photo-augmented exactly
as in training, plus synthetic non-tiles; no real crop is used, so a leave-one-set-out model stays honest.
The metadata of IN is copied to OUT with ``quantized`` added. OUT then takes the resized crops cut into patches of
quantised pixel values, what its 8-bit stem reads, which gives the same answers faster
(:func:`training.onnx_rewrite.patch_input`; ``--float-input``: keep the float input). The caller checks the quantised model's
accuracy (benchmarks/classifier.py measures the file it is given).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
from google.protobuf.message import DecodeError
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
from onnxruntime.quantization.shape_inference import quant_pre_process

from training.classifier_data import make_batch, render_bank
from training.export_onnx import model_file_command
from training.onnx_rewrite import patch_input, patches_rgb

__all__ = ["quantize"]


class _Batches(CalibrationDataReader):
    def __init__(self, x: np.ndarray, name: str, batch: int = 32) -> None:
        self._it = iter([{name: x[i:i + batch]} for i in range(0, len(x), batch)])

    def get_next(self) -> dict[str, np.ndarray] | None:
        return next(self._it, None)


def calibration_inputs(images: int, seed: int) -> np.ndarray:
    """``images`` photo-augmented rendered faces (and a few non-tiles) as classifier input."""
    bank = render_bank(max(1, images // 43 + 1), "train", seed, progress=False)
    r = np.random.default_rng(seed)
    x, _ = make_batch(bank, r.permutation(len(bank))[:images], r)
    return x


def quantize(src: Path, dst: Path, images: int = 600, seed: int = 5, inputs: np.ndarray | None = None,
             patches: bool = True) -> None:
    """Quantise ``src`` into ``dst`` (they may be the same file); ``patches``: then rewrite ``dst`` to take
    quantised patches (:func:`~training.onnx_rewrite.patch_input`)."""
    if not src.is_file():
        raise ValueError(f"{src}: no such file")
    try:
        model = onnx.load(str(src))
    except DecodeError as e:
        raise ValueError(f"{src} is not an ONNX file ({e})") from e
    keys = {p.key for p in model.metadata_props}
    if "quantized" in keys:
        raise ValueError(f"{src} is already quantised")
    if "class_names" not in keys:  # onnxruntime's shape inference would fail on it, leaving files in the cwd
        raise ValueError(f"{src} is not a tile classifier or flower model (no class_names in its metadata)")
    if inputs is None and images < 1:
        raise ValueError(f"--images must be at least 1, got {images}")
    x = calibration_inputs(images, seed) if inputs is None else inputs
    name = model.graph.input[0].name
    with tempfile.TemporaryDirectory() as tmp:
        pre = Path(tmp) / "pre.onnx"
        quant_pre_process(str(src), str(pre))
        quantize_static(str(pre), str(dst), _Batches(x, name), quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8)
    out = onnx.load(str(dst))
    del out.metadata_props[:]
    for p in model.metadata_props:
        out.metadata_props.add(key=p.key, value=p.value)
    out.metadata_props.add(key="quantized", value=json.dumps({"format": "QDQ int8, per-channel weights",
                                                              "calibration_images": len(x), "seed": seed}))
    onnx.save(out, str(dst))
    if patches:
        patch_input(dst)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src", type=Path, nargs="?")
    ap.add_argument("dst", type=Path, nargs="?")
    ap.add_argument("--images", type=int, default=600)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--float-input", action="store_true",
                    help="keep the N x 3 x H x W float input (normalised in numpy) instead of quantised patches")
    ap.add_argument("--patch-input", type=Path, metavar="MODEL",
                    help="rewrite the quantised classifier MODEL in place to take quantised patches, and stop")
    ap.add_argument("--patches-rgb", type=Path, metavar="MODEL",
                    help="turn MODEL, rewritten to take B G R patches, in place to take R G B ones, and stop")
    args = ap.parse_args(argv)
    if args.patch_input:
        return model_file_command(args.patch_input, lambda: patch_input(args.patch_input))
    if args.patches_rgb:
        return model_file_command(args.patches_rgb, lambda: patches_rgb(args.patches_rgb))
    if args.src is None or args.dst is None:
        ap.error("give IN.onnx and OUT.onnx (or --patch-input MODEL)")
    try:
        quantize(args.src, args.dst, args.images, args.seed, patches=not args.float_input)
    except (ValueError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"wrote {args.dst} ({args.dst.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
