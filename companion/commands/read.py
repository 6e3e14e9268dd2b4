"""``companion read PHOTO…``: find and read every tile in photos or table frames.

With ``--json`` each photo gives one line ``{"file": ..., "tiles": [{"tile": "5p", "xyxy": [x0, y0, x1, y1],
"angle": 0.0, "score": 0.98, "top3": [...], "unsure": false, "extra_copy": false}]}`` (``"0x"`` = a face-down
tile; ``angle`` in degrees, counter-clockwise, of the tile's top from image up; ``score``: how sure the reading
is, 0-1, the detector's score times the classifier's probability; ``top3``: the classifier's likeliest kinds,
``{"tile", "score"}``, the reading first, then by score, each the classifier's probability of that kind, together
at most 1; ``second_look``, only where one read another kind likelier than the third: ``{"tile", "score"}``, that
kind and its probability in another view of the box, such as the tile lying across its row, which may exceed the
reading's; ``unsure``: a face the text output
marks ``?``: read unsurely, or ``extra_copy``, the least sure of more copies of its kind than a set holds, which
the text output also says in a line of its own). Tiles are listed in reading order, as the text output lists
them: rows from the top of the photo down, each left to right (``companion.vision.read.reading_order``); the text
output marks unsure faces with ``?``. Each line also has ``warnings``, ``[{"code", "message", "message_zh"}]``: ``shaken``
(the tiles are blurred, as by a phone that moved: many are misread), ``greyscale`` (a black-and-white or one-colour photo,
whose tiles told apart by colour may be misread: its message names those read, bamboo, dots, the red and green
dragons, the flowers), ``too_small`` (the tiles are too small to judge or read reliably: move closer) and ``no_tiles`` (no
tile found: what may be why), empty for a photo fit to be read, and ``quality``, ``{"sharpness",
"colour", "evenness", "photo_evenness"}``, the measures they are judged by (:mod:`companion.vision.quality`; null where too few tiles are
large enough to judge; the evenness, whether the tiles' edges run every way, only for a photo of small tiles; the
photo's evenness, the same over the whole photo, only where too few tiles are found to judge); the text output says each warning in a line of its own. ``--annotate OUT.png`` draws the reading (with several photos: ``OUT-1.png``,
``OUT-2.png``…). A file that cannot be read is reported with its name (and, with ``--json``, as
``{"file": ..., "error": {"message": ..., "message_zh": ...}}``, as ``companion score`` and ``companion classify``
give it); the other photos are still read (exit code 1). Messages are in English and
Traditional Chinese (``English / 中文``); a model file that cannot be used, and ``--threads`` or ``--threshold``
out of range, are refused naming them (exit code 2).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.commands._io import bad_threads, folder_missing, print_json, say, with_zh
from companion.tiles import Tile

NO_CALIBRATION_EN = ("no calibrated tile set; `companion calibrate` teaches the reader your own set and cuts its "
                     "misreads several-fold")
NO_CALIBRATION_ZH = "尚未校正牌組：執行 companion calibrate 讓辨識認得你的牌，誤認會少很多"
NO_CALIBRATION = f"companion read: {NO_CALIBRATION_ZH} / {NO_CALIBRATION_EN}"
"""Said once on stderr when no calibration exists (``--no-calibration`` silences it). On the dev photos' other
copies, sets the models never saw, 3.4% of the tiles of calibrated kinds were misread uncalibrated and 0.5%
calibrated (``benchmarks/vision.py``, models/README.md)."""
UNSURE = "? = 讀得不確定，請對照照片 / unsure reading, check it against the photo"
"""The note after a text reading that marks some tiles with ``?`` (face up, scored under
:meth:`companion.vision.read.Detections.doubtful`)."""
NONE_SELECTED_EN = "calibrated tile sets exist ({sets}) but none is selected; `companion calibrate use NAME` or " \
                   "`--set NAME` reads with one"
NONE_SELECTED_ZH = "已有校正過的牌組（{sets}）但未選用：執行 companion calibrate use 名稱，或加上 --set 名稱"
"""Said instead of :data:`NO_CALIBRATION` when calibrations exist but none is selected."""
GONE_EN = ("the selected tile set “{name}” is no longer saved (its file was removed), so this reads without a "
           "calibration; `companion calibrate list` shows the saved sets, `companion calibrate use NAME` picks one")
GONE_ZH = "選用的牌組「{name}」已不在（檔案被移走了），這次不用校正；companion calibrate list 列出現有牌組，" \
          "companion calibrate use 名稱 選用一組"
"""Said instead of both when ``current.txt`` still names a set whose file is gone (removed outside the product):
a player who chose a set should hear that it is not being used, and why."""
FAULT_EN = ("{file}: an image-processing step failed on this photo (a fault of this program, not of the photo); "
            "please report it with the photo")
FAULT_ZH = "{file}：處理這張照片時影像運算出錯（是程式的問題，不是照片的問題），請附上這張照片回報"
"""Said for a photo on which OpenCV itself failed, by ``read`` and ``score`` (a review read OpenCV's own text, its
build path and an assertion, and only 無法辨識這張照片 in Chinese): what happened, in both languages, never the
library's text."""


def over_read_note(over: dict[Tile, int]) -> str:
    """The line after a reading with more copies of a kind than a set holds (:meth:`Detections.over_read`)."""
    zh = "、".join(f"{n} 張{t.zh}（一副牌只有 {t.max_copies} 張）" for t, n in over.items())
    en = ", ".join(f"{n} x {t.code} (a set holds {t.max_copies})" for t, n in over.items())
    return f"  讀到 {zh}：有讀錯的，最可能是標 ? 的那幾張 / read {en}: some are misread, likeliest the ones marked ?"


def calibration_hint(lang: str | None = None) -> str:
    """What to say, in ``lang`` or both, when no calibrated set is used and none was refused: the selected set is
    gone, or sets exist and none is selected, or there are none yet."""
    from companion.vision.calibration import list_sets, selection_gone

    gone = selection_gone()
    if gone:
        return say(lang, GONE_ZH.format(name=gone), GONE_EN.format(name=gone))
    sets = ", ".join(list_sets())
    zh, en = (NONE_SELECTED_ZH, NONE_SELECTED_EN) if sets else (NO_CALIBRATION_ZH, NO_CALIBRATION_EN)
    return say(lang, zh.format(sets=sets), en.format(sets=sets))


def register(sub: Any) -> None:
    p = sub.add_parser("read", help="find and read every tile in photos / 辨識照片中的每張牌",
                       description="Find every tile in photos or table frames and read it. / "
                                   "找出並辨識照片或牌桌畫面中的每張牌。")
    p.add_argument("photos", nargs="+", metavar="PHOTO",
                   help="image files (photos or table frames) / 圖檔（照片或牌桌畫面）")
    p.add_argument("--json", action="store_true",
                   help="one JSON object per photo: {\"file\", \"tiles\": [{\"tile\", \"xyxy\" (the box in the photo's "
                        "pixels), \"angle\" (degrees, counter-clockwise, of the tile's top from up), \"score\" (how "
                        "sure, 0-1), \"top3\" (the classifier's likeliest kinds, the reading first, each with its "
                        "probability), \"second_look\" (only where another view of the tile found a kind likelier "
                        "than the third), \"unsure\", \"extra_copy\"}], in reading order; \"warnings\": [{\"code\": "
                        "\"shaken\" (blurred by a moving phone: take it again), \"greyscale\" (black and white, or of "
                        "one colour such as sepia: tiles told apart by their colour may be misread; the message names those "
                        "read, among bamboo, dots, the red and green dragons, and the flowers), \"too_small\" (tiles too small "
                        "to read reliably: move closer) or \"no_tiles\" (no tile found: what may be why), \"message\", "
                        "\"message_zh\"}], empty for a photo fit to be read; \"quality\": {\"sharpness\", \"colour\", "
                        "\"evenness\" (small tiles only), \"photo_evenness\" (the whole photo, where too few tiles are "
                        "found)} they are judged by} / 每張照片輸出一個 JSON 物件："
                        "tile 牌、xyxy 框（原圖像素）、angle 牌頂方向（度，逆時針）、score 把握（0-1）、top3 分類器最可能的"
                        "三種（讀到的排第一，各附機率）、second_look（換個角度再看、比第三名更可能的那種，只在有時出現）、"
                        "unsure 不確定、extra_copy 超過一副牌的張數；依閱讀順序；warnings 照片的問題：shaken 晃到而模糊"
                        "（請重拍）、greyscale 黑白或單色照片（靠顏色分辨的牌可能讀錯，"
                        "訊息會說出讀到的是條子和筒子、紅中和青發或花牌）、too_small 牌太小無法可靠辨識（請靠近拍）、"
                        "no_tiles 沒找到牌（說出可能的原因），照片沒問題時是空的；quality 判斷用的"
                        "清晰度 sharpness、色彩 colour 與邊緣方向的均勻度 evenness（只量小牌的照片）、"
                        "整張照片的邊緣均勻度 photo_evenness（只在找到的牌太少時量）")
    p.add_argument("--annotate", metavar="OUT.png",
                   help="write the photo with the reading drawn on it, a legend below; a photo over 40 MP is drawn "
                        "at the size it is read at (a half, a quarter…), which the legend says, while --json gives "
                        "boxes in the photo's own pixels / 輸出標上辨識結果的照片，下方附圖例；超過 4000 萬畫素的照片"
                        "以讀取時縮小的尺寸（一半、四分之一…）畫出，圖例會註明，--json 的框則是原圖像素")
    p.add_argument("--threads", type=int, default=2,
                   help="onnxruntime intra-op threads of the detector's network (default 2); the classifier and the "
                        "back check run on one thread each, side by side in a --single-pass frame / "
                        "偵測網路的 onnxruntime 執行緒數（預設 2）；分類器與牌背檢查各用一條執行緒，"
                        "單次偵測（--single-pass）時兩者同時進行")
    p.add_argument("--threshold", type=float,
                   help="detector score threshold, above 0 and at most 1 (default: the model's, and weaker face-up "
                        "boxes are kept where the classifier is sure of a tile; "
                        "a threshold given is kept to exactly)"
                        " / "
                        "偵測分數門檻，大於 0、至多 1（預設用模型的，分類器確定是牌的較弱正面框也保留；"
                        "有指定門檻就嚴格照用）")
    p.add_argument("--set", dest="tile_set",
                   help="calibrated tile set to use (default: the selected one) / "
                        "使用的已校正牌組（預設：選定的那副）")
    p.add_argument("--no-calibration", action="store_true", help="ignore calibrations / 不用校正")
    p.add_argument("--turns", type=int, choices=(1, 2, 4), default=1,
                   help="read each tile also turned upside down (2) or by quarter turns (4) / "
                        "每張牌也倒轉（2）或每轉 90 度（4）再讀")
    p.add_argument("--single-pass", action="store_true",
                   help="one detector pass at the model's scale (live frames); by default photos are also read "
                        "at twice the scale in overlapping windows, for small tiles, and boxes read as 'not a tile' "
                        "are read again turned every 45 degrees / "
                        "只用模型原尺寸偵測一次（即時畫面）；預設照片也以兩倍尺寸分區重疊再讀，以找小牌，"
                        "讀成「不是牌」的框每轉 45 度再讀一次")
    p.add_argument("--detector", help="another detector .onnx file / 改用另一個偵測模型 .onnx 檔")
    p.add_argument("--classifier", help="another classifier .onnx file / 改用另一個分類模型 .onnx 檔")
    p.set_defaults(func=run)


def _reader(args: argparse.Namespace) -> Any:
    from companion.vision import calibration
    from companion.vision.read import TileReader

    cal = calibration.chosen(args.tile_set, enabled=not args.no_calibration)
    return TileReader(args.detector, args.classifier, detector_threads=args.threads,
                      classifier_threads=args.threads, calibration=cal, threshold=args.threshold,
                      turns=args.turns, weak=args.threshold is None)


def read_with(name: str, lang: str | None = None) -> str:
    """Which calibrated set the tiles are read with (a review: the commands never said; a wrong set costs a few
    points), in ``lang`` or both."""
    return say(lang, f"用校正牌組「{name}」辨識（不用它：--no-calibration）",
               f"reading with the calibrated set “{name}” (--no-calibration reads without it)")


def annotation_path(out: str, index: int, count: int) -> Path:
    """Where the drawing of photo ``index`` (from 1) of ``count`` goes: ``OUT`` for one photo, ``OUT-1``... for
    several; a PNG where ``OUT`` has no suffix."""
    p = Path(out)
    p = p if p.suffix else p.with_name(p.name + ".png")
    return p if count == 1 else p.with_name(f"{p.stem}-{index}{p.suffix}")


def annotate_refused(out: str, photos: Sequence[str]) -> tuple[str, str] | None:
    """Why ``--annotate OUT`` cannot take the drawings of ``photos``, (English, Chinese), or ``None``: an image type
    OpenCV cannot write, a folder where a drawing would go or a folder that is not there, or a drawing that would
    land on one of the photos (a review's ``--annotate`` naming its own photo replaced the photo). Asked before any
    photo is read, so a run never ends with its drawings unwritten or a photo lost."""
    import cv2

    if not out.strip():  # (an empty name drew nothing, and said nothing: a review)
        return "--annotate needs a file name, e.g. reading.png", "--annotate 要寫檔名，例如 reading.png"
    if out.strip() == "-":  # (read as standard output elsewhere, it drew a file named "-.png": a review)
        return ("--annotate -: a drawing cannot go to standard output; name a file, e.g. reading.png",
                "--annotate -：畫好的圖無法輸出到標準輸出，請寫檔名，例如 reading.png")
    if Path(out).is_dir():  # (a folder drew FOLDER.png beside it without a word)
        return (f"--annotate {out}: {out} is a folder; name a file in it, e.g. {Path(out) / 'reading.png'}",
                f"--annotate {out}：這是資料夾，請寫其中的檔名，例如 {Path(out) / 'reading.png'}")
    paths = [annotation_path(out, n, len(photos)) for n in range(1, len(photos) + 1)]
    if not cv2.haveImageWriter(str(paths[0])):
        return (f"--annotate {out}: cannot write {paths[0].suffix} images; use .png or .jpg",
                f"--annotate {out}：無法寫入 {paths[0].suffix} 圖檔，請用 .png 或 .jpg")
    for p in paths:
        if p.is_dir():
            return f"--annotate {out}: {p} is a folder", f"--annotate {out}：{p} 是資料夾"
        missing = folder_missing(p)
        if missing:
            return f"--annotate {out}: {missing[0]}", f"--annotate {out}：{missing[1]}"
        for photo in photos:
            if _same_file(p, Path(photo)):
                return (f"--annotate {out}: the drawing {p} would write over the photo {photo}; name another file",
                        f"--annotate {out}：畫好的圖 {p} 會蓋掉照片 {photo}，請換一個檔名")
    return None


def _same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file: the same path once resolved, or one file under two names."""
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except OSError:
        return False



def json_error(file: str, message: str) -> dict[str, object]:
    """The ``--json`` line of a file that could not be used, from its ``English / 中文`` message: ``{"file": ...,
    "error": {"message": ..., "message_zh": ...}}``, each naming the file, the shape ``companion score`` gives (its
    refusals add ``reading``) and ``companion tai`` too (a review's script had to tell ``read`` and ``classify``'s
    string from ``score``'s object)."""
    en, sep, zh = message.rpartition(" / ")
    en, zh = (en, zh) if sep else (message, message)
    en = en if file in en else f"{file}: {en}"
    zh = zh if file in zh else f"{file}：{zh}"
    return {"file": file, "error": {"message": en, "message_zh": zh}}


def _bad_option(args: argparse.Namespace) -> str | None:
    """What is wrong with ``--threads`` or ``--threshold``, naming it, in both languages; ``None`` when nothing.
    The detector's scores lie in 0-1: a threshold above 1 would silently find no tile, and 0 keep every peak."""
    threads = bad_threads(args.threads)
    if threads:
        return f"{threads[0]} / {threads[1]}"
    if args.threshold is not None and not 0 < args.threshold <= 1:  # NaN fails too
        return (f"--threshold must be above 0 and at most 1, got {args.threshold} / "
                "--threshold 須大於 0 且不超過 1")
    return None


def run(args: argparse.Namespace) -> int:
    import cv2

    from companion.vision.image_file import ImageFileError, full_size, read_image
    from companion.vision.quality import photo_quality
    from companion.vision.read import annotate

    bad = _bad_option(args)
    if bad:
        print(f"companion read: {bad}", file=sys.stderr)
        return 2
    refused = annotate_refused(args.annotate, args.photos) if args.annotate is not None else None
    if refused:
        print(f"companion read: {refused[0]} / {refused[1]}", file=sys.stderr)
        return 2
    try:
        reader = _reader(args)
    except ValueError as e:  # a model file or calibration that cannot be used: the message names it
        print(f"companion read: {with_zh(str(e), '無法使用這個模型檔')}", file=sys.stderr)
        return 2
    if reader.classifier.calibration is None and not args.no_calibration:
        print(f"companion read: {calibration_hint()}", file=sys.stderr)
    elif reader.classifier.calibration is not None:
        print(f"companion read: {read_with(reader.classifier.calibration.name)}", file=sys.stderr)
    failed = 0
    for n, f in enumerate(args.photos, 1):
        try:
            image = read_image(f, reduce_large=True)  # a 48-200 MP phone photo is read at a half, a quarter…
            seen = reader.read(image, tiled=not args.single_pass).in_reading_order()  # boxes in the image as read
            size = full_size(f)
            dets = seen if size[0] == image.shape[1] else seen.scaled(size[0] / image.shape[1], size)  # the photo's
            quality = photo_quality(image, seen)  # a shaken or black-and-white photo is misread: said
        except (ImageFileError, ValueError, cv2.error) as e:  # one photo's failure, the others are still read
            failed += 1
            if isinstance(e, cv2.error):  # the library's text names its build path, not the photo's trouble
                msg = f"{FAULT_EN.format(file=f)} / {FAULT_ZH.format(file=f)}"
            else:
                msg = with_zh(str(e) if f in str(e) else f"{f}: {e}", "無法辨識這張照片")
            print(f"companion read: {msg}", file=sys.stderr)
            if args.json:
                print_json(json_error(f, msg))
            continue
        if args.json:
            print_json({"file": f, "tiles": dets.to_json(), **quality.to_json()})
        else:
            doubtful = dets.to_check()
            codes = [t.code + ("?" if d else "") for t, d in zip(dets.tiles(), doubtful, strict=True)]
            note = f" ({UNSURE})" if doubtful.any() else ""
            print(f"{f}: {len(codes)} 張牌 / tiles: " + " ".join(codes) + note)
            over = dets.over_read()
            if over:
                print(over_read_note(over))
            for _, en, zh in quality.warnings():
                print(f"  ! {zh} / {en}")
        if args.annotate:
            out = annotation_path(args.annotate, n, len(args.photos))
            try:
                # drawn on the photo as read (a 48-200 MP photo at a half, a quarter…: the legend says so)
                written = cv2.imwrite(str(out), annotate(image, seen, legend=True, full_size=size))
            except cv2.error:
                written = False
            if not written:
                print(f"companion read: cannot write {out} / 無法寫入 {out}", file=sys.stderr)
                failed += 1
    return 1 if failed else 0
