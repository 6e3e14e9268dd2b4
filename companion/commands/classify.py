"""``companion classify CROP…``: read tile crops (one tile face each) with the packaged classifier.

A crop wider than tall (a tile lying on its side, :func:`companion.vision.orient.lying`) is turned upright first,
the orientation model saying which way (the classifier reads upright faces: a change review's dev crops turned a
quarter were read right 6 times in 58 as they lay, 57 turned so). With ``--json`` each image gives one line
``{"file": ..., "tile": "5p", "score": 0.99, "top3": [...]}``, and ``"turned": 90`` (or -90: degrees,
counter-clockwise) where the crop was turned upright; ``"tile": "unknown"`` means the crop is not a tile, ``"0x"`` a
face-down tile. A file that cannot be
read (missing, empty, truncated, not an image, too large), or that is shaped like several tiles in a row (its
long side at least 1.8 times its short side, where a tile is about 3:4: ``companion read`` reads photos of
several tiles), is reported on stderr with its name and, with
``--json``, as ``{"file": ..., "error": {"message": ..., "message_zh": ...}}`` (as ``companion read`` and
``companion score`` give it); the other files are still classified (exit code 1). Messages
are in English and Traditional Chinese (``English / 中文``); a model file that cannot be used and a bad
``--threads`` are refused naming them (exit code 2).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from companion.commands._io import bad_threads, print_json, with_zh

UNSURE_CROP = ("? = unsure: give one tile per image, upright and cropped close / "
               "? = 讀得不確定：每張圖一張牌，正放、裁切貼近牌面")


def register(sub: Any) -> None:
    p = sub.add_parser("classify", help="read tile crops / 辨識牌面照片",
                       description="Classify tile crops, one tile each: upright, or lying on its side (turned "
                                   "upright first, said as turned). One result per image. / "
                                   "辨識單張牌面圖：正放，或橫放（先轉正，並註明已轉正）。每張圖一個結果。")
    p.add_argument("crops", nargs="+", metavar="CROP", help="image files, one tile each / 圖檔，每張圖一張牌")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per line; \"turned\": the quarter turn (90 or -90 degrees, counter-clockwise) "
                        "given to a crop lying on its side / 每行輸出一個 JSON 物件；turned：橫放的牌轉正時轉的角度"
                        "（90 或 -90 度，逆時針）")
    p.add_argument("--threads", type=int, default=1,
                   help="onnxruntime intra-op threads (default 1) / onnxruntime 執行緒數（預設 1）")
    p.add_argument("--set", dest="tile_set",
                   help="calibrated tile set to use (default: the selected one) / "
                        "使用的已校正牌組（預設：選定的那副）")
    p.add_argument("--no-calibration", action="store_true", help="ignore calibrations / 不用校正")
    p.add_argument("--model", help="another classifier .onnx file / 改用另一個分類模型 .onnx 檔")
    p.set_defaults(func=run)


def _classifier(args: argparse.Namespace) -> Any:
    from companion.vision import calibration
    from companion.vision.classify import TileClassifier

    cal = calibration.chosen(args.tile_set, enabled=not args.no_calibration)
    return TileClassifier(args.model, threads=args.threads, calibration=cal)



def run(args: argparse.Namespace) -> int:
    from companion.vision.classify import several_tiles
    from companion.vision.image_file import ImageFileError, read_image, too_small
    from companion.vision.orient import TileOrienter, lying, upright
    from companion.vision.read import DOUBTFUL

    threads = bad_threads(args.threads)
    if threads:
        print(f"companion classify: {threads[0]} / {threads[1]}", file=sys.stderr)
        return 2
    try:
        clf = _classifier(args)
    except ValueError as e:  # a model file or calibration that cannot be used: the message names it
        print(f"companion classify: {with_zh(str(e), '無法使用這個模型檔')}", file=sys.stderr)
        return 2
    if clf.calibration is not None:
        from companion.commands.read import read_with

        print(f"companion classify: {read_with(clf.calibration.name)}", file=sys.stderr)
    images, errors = {}, {}
    for i, f in enumerate(args.crops):
        try:  # a 48-200 MP photo of a tile is read at a half, a quarter…, as companion read reads it
            image = read_image(f, reduce_large=True)
        except ImageFileError as e:
            errors[i] = e
            continue
        small = too_small(image.shape[1], image.shape[0])  # as companion read refuses it (a review's 2x2 blank
        # image was read as a sure 白板); a crop of three tiles in a row read a sure 6s (a review)
        small = small or several_tiles(image.shape[1], image.shape[0])
        if small:
            errors[i] = ImageFileError(Path(f), *small)
        else:
            images[i] = image
    turned: dict[int, int] = {}
    if any(lying(im.shape[1], im.shape[0]) for im in images.values()):  # a tile lying on its side: turned upright
        try:
            orienter = TileOrienter(threads=args.threads)
        except ValueError as e:  # the orientation model cannot be used: the message names it
            print(f"companion classify: {with_zh(str(e), '無法使用牌面方向模型')}", file=sys.stderr)
            return 2
        for i, image in images.items():
            images[i], turned[i] = upright(image, orienter)
    preds = dict(zip(images, clf.classify(list(images.values())), strict=True))
    from companion.commands.read import json_error

    unsure = False
    for i, f in enumerate(args.crops):  # results in the order the files were given
        if i in errors:
            print(f"companion classify: {errors[i]}", file=sys.stderr)
            if args.json:
                print_json(json_error(f, str(errors[i])))
            continue
        p = preds[i]
        if args.json:
            print_json({"file": f, **p.to_json(), **({"turned": turned[i]} if turned.get(i) else {})})
        else:
            name = f"{p.tile.zh} / {p.tile.en}" if p.tile is not None else "不是牌 / not a tile"
            doubt = p.score < DOUBTFUL  # as companion read marks a face it is unsure of
            unsure |= doubt
            turn = " — 橫放，已轉正 / lying on its side, turned upright" if turned.get(i) else ""
            print(f"{f}: {p.label}{'?' if doubt else ''} {name} ({p.score:.2f}){turn}")
    if unsure:  # (a review read a crop of three tiles, and one upside down, as flowers without a word)
        print(f"companion classify: {UNSURE_CROP}", file=sys.stderr)
    return 1 if errors else 0
