"""``companion calibrate``: teach the classifier one physical tile set (校正牌組).

    companion calibrate sheet OUT.pdf      # print the calibration sheet (or OUT.png -> OUT-1.png, OUT-2.png;
                                           # --page letter for US Letter)
    companion calibrate photo NAME PHOTO…  # one photo of each filled page, in any order
    companion calibrate add NAME CROP…     # crops named by tile (5m.jpg, 0x.png, 5m-2.png) or as 5m=photo.jpg,
                                           # or folders of such files; plants by their printed number; one that
                                           # looks like another kind is left out, as photo leaves a box out (--keep)
    companion calibrate list               # known sets, the selected one marked with *
    companion calibrate use NAME           # select the set used by `companion classify`, `read`, `score` and the app
    companion calibrate none               # select none: the trained model reads alone
    companion calibrate delete NAME
    companion calibrate rename OLD NEW     # its selection and fitted weights go with it

A crop is one upright tile face. One crop per kind (43 with the back) is enough; more are averaged.
The sheet has a labelled box per kind; plants go in by their printed number (5f-8f = printed 1-4), which
settles for this set which plant carries 3 and which 4. Messages are in English and Traditional Chinese
(``English / 中文``); ``--dpi`` out of 40-1200 is refused naming it.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import sys
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.commands._io import folder_missing, with_zh
from companion.english import agreed
from companion.files import make_folder, whole_file, write_whole
from companion.tiles import Tile, parse_tile

if TYPE_CHECKING:  # (numpy loads where a sub-command runs: every command loads this module, a review)
    import numpy as np

_IMAGE_EXT = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}


def register(sub: Any) -> None:
    p = sub.add_parser("calibrate", help="calibrate to your tile set / 校正牌組",
                       description="Calibrate the tile classifier to one physical tile set. / "
                                   "把牌面分類器校正到一副實體牌組。")
    ops = p.add_subparsers(dest="op", metavar="OP", required=True)
    sh = ops.add_parser("sheet", help="write the printable calibration sheet / 列印校正表",
                        description="Write the printable calibration sheet. / 輸出可列印的校正表。")
    sh.add_argument("out", help="OUT.pdf (one page per sheet page) or OUT.png (OUT-1.png, OUT-2.png) / "
                               "輸出 OUT.pdf（校正表每頁一頁）或 OUT.png（OUT-1.png、OUT-2.png）")
    sh.add_argument("--page", "--paper", dest="paper", type=str.lower, choices=["a4", "letter"], default="a4",
                    help="paper size, A4 or letter (default A4) / 紙張大小，A4 或 letter（預設 A4）")
    sh.add_argument("--dpi", type=int, default=300,
                    help="resolution of the pages, 40-1200 (default 300) / 頁面解析度，40-1200（預設 300）")
    ph = ops.add_parser("photo", help="calibrate from photos of the filled sheet / 拍校正表校正",
                        description="Calibrate from photos of the filled sheet. / "
                                    "用擺滿牌的校正表照片校正牌組。")
    ph.add_argument("name", help="a name for this tile set (letters of any script, digits, spaces, _, - or ( )) / "
                                "這副牌組的名稱（文字、數字、空格、_、- 或 ( )）")
    ph.add_argument("photos", nargs="+",
                    help="one photo per sheet page, any order / 校正表每頁一張照片，順序不拘")
    ph.add_argument("--no-select", action="store_true",
                    help="do not make it the selected set / 不設為選用的牌組")
    ph.add_argument("--crops", metavar="DIR", help="also write the cut tiles there (5m.png ...) to look at / "
                                                   "也把切出的牌（5m.png …）寫到這個資料夾供查看")
    ph.add_argument("--replace", action="store_true",
                    help="replace a set already saved under the name (the new one must cover every kind it had) / "
                         "取代同名的已存牌組（新的要涵蓋舊的每一種牌）")
    ph.add_argument("--add", action="store_true",
                    help="put the pages' kinds into a set already saved under the name, its other kinds kept (a "
                         "page photographed another day) / 把這些頁的牌種放進同名的已存牌組，其他牌種照舊（改天才拍的那一頁）")
    ph.add_argument("--keep", metavar="TILE", action="append", default=[],
                    help="a box the check takes for another kind whose tile is right after all: keep it (else it "
                         "is left out; repeat for more) / 檢查說像別種牌、其實沒放錯的格子：照用（否則不用；可重複）")
    ph.add_argument("--same-set", action="store_true",
                    help="the photos are of one tile set, though their tiles look unlike each other's or the saved "
                         "set's: use them all / 照片的牌看起來和別張或已存的牌組不像，其實是同一副：全部照用")
    a = ops.add_parser("add", help="create a calibrated set from crops, or add crops to one / "
                                   "用牌面圖建立已校正牌組，或加進已有的牌組",
                       description="Create a calibrated set from crops, or add crops to a saved one: a kind given "
                                   "replaces that kind's crops, the other kinds stay. / "
                                   "用牌面圖建立已校正牌組，或加進已存的牌組：給了的牌種換成新的，其他牌種不變。")
    a.add_argument("name", help="a name for this tile set (letters of any script, digits, spaces, _, - or ( )) / "
                               "這副牌組的名稱（文字、數字、空格、_、- 或 ( )）")
    a.add_argument("crops", nargs="+", help="5m.jpg (more of a kind: 5m-2.jpg, 5m (2).jpg), 5m=photo.jpg or a folder "
                                            "of such files / 5m.jpg（同一種多張：5m-2.jpg、5m (2).jpg）、5m=photo.jpg "
                                            "或放這些檔案的資料夾")
    a.add_argument("--no-select", action="store_true",
                   help="do not make it the selected set / 不設為選用的牌組")
    a.add_argument("--keep", metavar="TILE", action="append", default=[],
                   help="a crop the check takes for another kind whose label is right after all: keep it (else it "
                        "is left out; repeat for more) / 檢查說像別種牌、其實沒標錯的牌面圖：照用（否則不用；可重複）")
    a.add_argument("--same-set", action="store_true",
                   help="the crops are of the saved set's tiles, though they look unlike them: put them in / "
                        "牌面圖看起來和已存的牌組不像，其實是同一副：照樣放進去")
    ops.add_parser("list", help="list calibrated sets / 列出已校正牌組",
                   description="List the calibrated tile sets. / 列出已校正的牌組。")
    u = ops.add_parser("use", help="select a calibrated set / 選用已校正牌組",
                       description="Select a calibrated set. / 選用一副已校正牌組。")
    u.add_argument("name", help="the calibrated set to select / 要選用的已校正牌組")
    ops.add_parser("none", help="select no calibrated set / 不用已校正牌組",
                   description="Select no calibrated set: the trained model reads alone. / "
                               "不選用任何已校正牌組：只用內建模型辨識。")
    d = ops.add_parser("delete", help="delete a calibrated set / 刪除已校正牌組",
                       description="Delete a calibrated set. / 刪除一副已校正牌組。")
    d.add_argument("name", help="the calibrated set to delete / 要刪除的已校正牌組")
    r = ops.add_parser("rename", help="rename a calibrated set / 替已校正牌組改名",
                       description="Rename a calibrated set; a selected set stays selected. / "
                                   "替一副已校正牌組改名；選用中的仍然選用。")
    r.add_argument("old", help="the calibrated set to rename / 要改名的已校正牌組")
    r.add_argument("new", help="its new name (letters of any script, digits, spaces, _, - or ( )) / "
                              "新名稱（文字、數字、空格、_、- 或 ( )）")
    p.set_defaults(func=run)


def _labelled(items: list[str]) -> tuple[list[tuple[Tile, Path]], list[str]]:
    """``(tile, file)`` from ``code=path``, files named by code, and folders of such files (hidden files in a
    folder, such as a Mac's ``._5m.png``, left out); and a message for each file whose name names no tile."""
    out: list[tuple[Tile, Path]] = []
    bad: list[str] = []
    for item in items:
        if "=" in item:
            code, _, path = item.partition("=")
            try:
                out.append((Tile.from_code(code.strip()), Path(path)))
            except ValueError as e:
                bad.append(f"{item}: {e} / 看不懂牌的代號「{code.strip()}」（例如 5m、0x）")
            continue
        p = Path(item)
        try:
            files = sorted(f for f in p.iterdir() if f.suffix.lower() in _IMAGE_EXT and not f.name.startswith(".")) \
                if p.is_dir() else [p]
        except OSError as e:
            bad.append(f"{p}: cannot read the folder ({e.strerror or e}) / 無法讀取資料夾")
            continue
        for f in files:
            tile = tile_named(f.stem)
            if tile is not None:
                out.append((tile, f))
                continue
            begun = _CODE_FIRST.match(f.stem)  # the kind the name begins with, where it does (it said 5m= for 1z-x)
            code = begun.group(0).lower() if begun else "TILE"
            bad.append(f"{f}: name the file by its tile, a copy after a -, _, space or bracket (5m.jpg, 5m-2.png, "
                       f"5m (2).png, or the tile's Chinese name) or pass {code}={f} / 檔名請用牌的代號或名稱開頭，"
                       f"同一種的第二張在後面加 -、_、空格或括號（如 5m.jpg、5m-2.png、5m (2).png、七萬.jpg），或寫成 {code}={f}")
    return out, bad


_SEPARATOR = re.compile(r"[-_ .()（）]")
"""What may follow a tile's code or name in a crop's file name: several crops of one kind are named ``5m-1.png``,
``5m_2.png``, ``5m (2).PNG`` (a file manager's copy), ``七萬-1.jpg`` (only ``5m.png`` and ``5m_2.png`` were read: a
review)."""
_CODE_FIRST = re.compile(r"[0-9][mpszfx]", re.IGNORECASE)


def tile_named(stem: str) -> Tile | None:
    """The tile a crop's file name (``stem``, without its extension) names: the whole name, or the part before the
    first :data:`_SEPARATOR`; None where neither is a tile."""
    for name in (stem, _SEPARATOR.split(stem.strip(), maxsplit=1)[0]):
        try:
            return Tile.from_code(name.strip())
        except ValueError:
            continue
    return None


def _keep(codes: list[str]) -> set[Tile]:
    """The kinds ``--keep`` names, each refused by name where it names no tile."""
    keep = set()
    for code in codes:
        try:
            keep.add(parse_tile(code))
        except ValueError as e:
            raise ValueError(f"--keep {code}: {e} / --keep 要寫一張牌，例如 2m") from None
    return keep


def _add(args: argparse.Namespace) -> int:
    from companion.vision.calibration import check_crop
    from companion.vision.image_file import read_image

    keep = _keep(args.keep)
    samples: list[tuple[Tile, np.ndarray]] = []
    files: list[Path] = []
    labelled, bad = _labelled(args.crops)
    for msg in bad:
        print(f"companion calibrate: {msg}", file=sys.stderr)
    failed = len(bad)
    for tile, f in labelled:
        try:
            crop = read_image(f)
            check_crop(crop, str(f))
            samples.append((tile, crop))
            files.append(f)
        except ValueError as e:
            failed += 1
            print(f"companion calibrate: {with_zh(str(e), '無法使用這張牌面照片')}", file=sys.stderr)
    wrong = _check_crops(samples, files, keep)
    failed += len(wrong)
    samples = [s for i, s in enumerate(samples) if i not in wrong]
    if not samples:  # (an empty folder had rewritten and selected the saved set: a review)
        said = "the crop given could not be used" if failed == 1 else f"none of the {failed} crops could be used"
        if failed:
            raise ValueError(f"{said}: nothing calibrated / 沒有可用的牌，未校正")
        folders = ", ".join(c for c in args.crops if Path(c).is_dir())  # (an empty one was not named: a review)
        kinds = sorted(_IMAGE_EXT)
        raise ValueError(f"no crops given: no {', '.join(kinds)} image in {folders}: nothing calibrated / "
                         f"{folders} 裡沒有 {'、'.join(kinds)} 圖檔：沒有給任何牌面圖，未校正" if folders
                         else "no crops given: nothing calibrated / 沒有給任何牌面圖，未校正")
    _save(args.name, samples, not args.no_select, failed, add=True, same_set=args.same_set)
    return 1 if failed else 0


def _save(name: str, samples: list[tuple[Tile, np.ndarray]], select: bool, failed: int = 0, add: bool = False,
          replace: bool = False, same_set: bool = False, classifier: Any = None) -> None:
    """:func:`_save_held` under the calibration folder's save lock: what is saved is looked at and written as one
    step (two `calibrate photo race` at once had both printed calibrated “race”, one silently replacing the other).
    ``classifier``: the uncalibrated one the caller has, if any (else one is made only if needed)."""
    from companion.vision import calibration

    with calibration.saving():
        _save_held(name, samples, select, failed, add, replace, same_set, classifier)


def _save_held(name: str, samples: list[tuple[Tile, np.ndarray]], select: bool, failed: int, add: bool,
               replace: bool, same_set: bool, classifier: Any = None) -> None:
    """Calibrate ``name`` from ``samples``, guarded as the app's Settings tab guards it (a review's command line
    silently replaced a 42-kind set by 22 kinds, by 1 with ``add``, and by another set's photos). ``failed``:
    inputs that could not be used; then a set already saved under ``name`` is kept as it is. ``add``: the saved
    set's kinds not among ``samples`` are kept. Else a saved set is replaced only with ``replace`` and by one
    that covers every kind it had. Put into a saved set (``add``), tiles that do not look like its own (another
    set's, :func:`~companion.vision.sheet.set_likeness`) are refused unless ``same_set``. A name that differs from a saved one only in case or width is refused (on a Mac's or
    Windows' disk it is the same file)."""
    from companion.vision import calibration

    saved = calibration.list_sets()
    twin = calibration.twin_of(name, saved)
    if twin is not None:
        raise ValueError(f"“{name}” differs from the saved set “{twin}” only in case or width: use “{twin}” or another "
                         f"name / 「{name}」和已存的牌組「{twin}」只差大小寫或全形半形：請用「{twin}」或別的名稱")
    if failed and name in saved:
        raise ValueError(f"{failed} of the inputs could not be used, so the saved set “{name}” is kept as it was; "
                         f"photograph or mend them again, or give a new name / 有 {failed} 項無法使用，"
                         f"已存的牌組「{name}」保持不變：請重拍或修正，或改用新名稱")
    old: calibration.Calibration | None = None
    if name in saved:
        try:
            old = calibration.load(name)
        except calibration.CalibrationError:  # a damaged file: nothing in it to keep or lose
            old = None
    given = {t for t, _ in samples}
    before = len(set(old.tiles)) if old is not None else 0
    if old is not None and add:  # the kinds not given now keep their crops
        if not same_set:
            _same_set_as_saved(name, old, samples, classifier)
        samples = [*old.others(given), *samples]
    elif old is not None:
        lost = sorted(set(old.tiles) - given)
        if lost:
            raise ValueError(f"the saved set “{name}” has {len(lost)} kind(s) these photos lack "
                             f"({' '.join(t.code for t in lost)}): it is kept; give --add to put these pages into "
                             f"it, photograph every page, give a new name, or delete it first (companion calibrate "
                             f"delete {name}) / "
                             f"已存的牌組「{name}」有 {len(lost)} 種牌這些照片裡沒有（{'、'.join(_zh(t) for t in lost)}）："
                             f"保持不變；要把這幾頁放進去請加 --add，或把每一頁都拍進來、改用新名稱，或先刪除它"
                             f"（companion calibrate delete {name}）")
        if not replace:
            raise ValueError(f"a set named “{name}” is saved already ({before} kinds): give --replace to replace "
                             f"it, or another name / 已經有名為「{name}」的牌組（{before} 種牌）：要取代請加 --replace，"
                             "或改用新名稱")
    cal = calibration.Calibration.from_crops(name, samples)
    path = calibration.save(cal)
    # a set made of part of what was given is not the one photos are read with unasked (a review's typo in one photo's
    # path selected half a set; a name not saved yet, so not selected: but for a selection naming a set since gone)
    held = select and failed > 0
    select = select and not failed
    if held and calibration.selected() == name:
        calibration.deselect()
    if select:
        calibration.select(name)
    missing = [t for t in (*(Tile(i) for i in range(42)), Tile.UNKNOWN) if t not in set(cal.tiles)]
    kinds = len(set(cal.tiles))
    if old is not None:  # what became of the set saved before
        print(agreed(f"{'added to' if add else 'replaced'} “{name}”: {before} -> {kinds} kinds / "
                     f"{'加進' if add else '取代了'}「{name}」：{before} → {kinds} 種牌"))
    print(agreed(f"calibrated “{name}”: {len(samples)} crops of {kinds} kinds -> {path}" + (" (selected)" if select else "")
                 + f" / 已校正「{name}」：{kinds} 種牌，共 {len(samples)} 張" + ("，已選用" if select else "")))
    if held:
        print(f"not selected, since {failed} of the inputs could not be used: mend them and give them with --add, then "
              f"`companion calibrate use {name}` / 有 {failed} 項無法使用，所以沒有選用：修正後加 --add 放進去，再用 "
              f"companion calibrate use {name} 選用")
    if missing:
        # (code and name in both halves, a plant by its printed number: the English gave codes only and the Chinese
        # names only, a plant by its picture: a change review)
        print(f"kinds without a crop, read by the trained model alone: {', '.join(f'{t.code} {_en(t)}' for t in missing)}"
              f" / 沒有校正的牌（只用內建的模型讀）：{'、'.join(f'{t.code} {_zh(t)}' for t in missing)}")


def _same_set_as_saved(name: str, old: Any, samples: list[tuple[Tile, np.ndarray]], classifier: Any = None) -> None:
    """Refuse ``samples`` whose tiles do not look like those of the saved set ``old`` (a review's `photo set9
    s11-1.jpg --add` put another set's 22 faces into set 9, saying "added to set9: 42 -> 42 kinds"), measured by
    ``classifier`` (the caller's uncalibrated one; made here, under the save lock, only where it has none)."""
    from companion.vision.sheet import other_set, set_likeness

    if classifier is None:
        from companion.vision.classify import TileClassifier

        classifier = TileClassifier(threads=2)
    if other_set(set_likeness(list(zip(old.tiles, old.crops, strict=True)), samples, classifier)):
        raise ValueError(f"these tiles do not look like those of the saved set “{name}” (another tile set?): it is "
                         f"kept as it was; give a new name for another set, or add --same-set if they are “{name}”'s "
                         f"tiles / 這些牌和已存的牌組「{name}」的牌看起來不像（是別副牌嗎？）：「{name}」保持不變；"
                         f"別副牌請用新名稱，若確實是「{name}」的牌請加 --same-set")


def _names(tiles: Sequence[Tile]) -> str:
    return ", ".join(f"{t.code} {_zh(t)}" for t in tiles) if tiles else "-"


def _zh(tile: Tile) -> str:
    """``tile``'s Chinese name as the sheet's box for it says it: a plant by its printed number (印 3 的花), not by
    the picture of a set that may print the other plant 3 (:func:`~companion.vision.sheet.box_named`)."""
    from companion.vision.sheet import box_named

    return box_named(tile)[0]


def _en(tile: Tile) -> str:
    """``tile``'s English name as the sheet's box for it says it (plant printed 3): :func:`_zh`'s."""
    from companion.vision.sheet import box_named

    return box_named(tile)[1]


def _sheet(args: argparse.Namespace) -> int:
    import numpy as np
    from PIL import Image

    from companion.vision.sheet import MAX_DPI, MIN_DPI, layout, render_sheet, sheet_pdf
    from companion.vision.sheet_render import has_chinese_font

    if not MIN_DPI <= args.dpi <= MAX_DPI:
        raise ValueError(f"--dpi must be {MIN_DPI}-{MAX_DPI}, got {args.dpi} / --dpi 須介於 {MIN_DPI} 到 {MAX_DPI}")
    out = Path(args.out)
    if out.suffix.lower() not in (".pdf", ".png"):
        raise ValueError(f"{out}: write the sheet as .pdf or .png / 校正表請存成 .pdf 或 .png")
    missing = folder_missing(out)  # (it made the folders a typo named: a newcomer review; read --annotate refuses)
    if missing:
        raise ValueError(f"{out}: {missing[0]} / {out}：{missing[1]}")
    if out.suffix.lower() == ".pdf":
        write_whole(out, sheet_pdf(args.paper, args.dpi))
        written = [out]
    else:
        pages = [Image.fromarray(np.ascontiguousarray(p[:, :, ::-1])) for p in render_sheet(args.paper, args.dpi)]
        written = [out.with_name(f"{out.stem}-{i}{out.suffix}") for i in range(1, len(pages) + 1)]
        for im, path in zip(pages, written, strict=True):
            with whole_file(path) as f:
                im.save(f, format="PNG", dpi=(args.dpi, args.dpi))
    files = ", ".join(map(str, written))
    n = len(layout(args.paper))
    print(f"wrote {files}: {n} {args.paper.upper()} pages. Print at actual size (100%); put one tile "
          "of each kind in its box, photograph each page from above, then run `companion calibrate photo NAME "
          f"PHOTO…`. / 已寫入 {files}：{n} 頁 {args.paper.upper()}。列印時選實際大小（100%），每格放一張"
          "對應的牌，從正上方拍下每一頁，再執行 `companion calibrate photo 名稱 照片…`。")
    if not has_chinese_font():
        print("no Chinese font found on this computer: the sheet's labels are in English only / "
              "這台電腦找不到中文字型：校正表上的標籤只有英文", file=sys.stderr)
    return 0


def _photo(args: argparse.Namespace) -> int:
    from companion.vision.classify import TileClassifier
    from companion.vision.detect import TileDetector
    from companion.vision.image_file import read_image
    from companion.vision.sheet import read_sheet

    if args.crops and Path(args.crops).is_dir() and any(Path(args.crops).iterdir()):
        # crops of an earlier run (5m_2.png of a second photo) would be mixed with these by `calibrate add DIR`
        raise ValueError(f"--crops {args.crops}: the folder is not empty; give a new or empty one / 資料夾不是空的")
    missing = folder_missing(Path(args.crops), folder=True) if args.crops else None  # (the folder itself is made; not a typo'd
    if missing:  # path of folders above it, as `sheet` refuses them: a change review)
        raise ValueError(f"--crops {args.crops}: {missing[0]} / --crops {args.crops}：{missing[1]}")
    keep = _keep(args.keep)
    from companion.vision.sheet import other_set, set_likeness, upside_down

    detector, classifier = TileDetector(threads=2, backs=False), TileClassifier(threads=2)
    samples: list[tuple[Tile, np.ndarray]] = []
    seen: dict[str, int] = {}
    failed = 0
    for f in args.photos:
        try:
            reading = read_sheet(read_image(f, reduce_large=True), source=str(f), detector=detector)  # 48 MP+ at half
        except ValueError as e:
            failed += 1
            print(f"companion calibrate: {with_zh(str(e), '無法讀取這張照片')}", file=sys.stderr)
            continue
        key = reading.page.label
        _report(reading)
        reading, turned = upside_down(reading, classifier)  # a tile laid upside down would teach its face turned
        if turned:
            print(f"  upside down in their boxes, turned the right way up / 放顛倒了，已轉正: {_names(turned)}")
        # a tile in the wrong box would teach the set the wrong face (and every photo read with it after): left
        # out, as the app leaves it out, unless --keep says it is right (a review's set read 2m as 5p and 5p as 2m)
        wrong = _check_boxes(reading.samples(), classifier, keep)
        kept = [(t, crop) for t, crop in reading.samples() if t not in wrong]
        # (a review's photos of three sets were averaged into one set)
        if not args.same_set and other_set(set_likeness(samples, kept, classifier)):
            failed += 1
            print(f"companion calibrate: {f}: its tiles do not look like those of the photos before it (another tile "
                  f"set?): left out; photograph the pages of one set, or add --same-set if they are one set / "
                  f"{f}：這張的牌和前面照片的牌看起來不像同一副（是別副牌嗎？）：這張先不用；請只拍同一副牌的各頁，"
                  "若確實是同一副請加 --same-set", file=sys.stderr)
            continue
        seen[key] = seen.get(key, 0) + 1
        if seen[key] > 1:
            print(f"  {key} came in {seen[key]} photos: their crops are averaged / 同一頁多張，取平均")
        if args.crops:
            _write_crops(Path(args.crops), kept, seen[key])
        samples += kept
    if not samples and failed == len(args.photos):  # each said above; "no tiles found" read as one more fault
        return 2
    if not samples:
        raise ValueError("no tiles found in any photo: nothing calibrated / 沒有找到任何牌，未校正")
    _save(args.name, samples, not args.no_select, failed, add=args.add, replace=args.replace,
          same_set=args.same_set, classifier=classifier)
    return 1 if failed else 0


def _report(reading: Any) -> None:
    """Per photo: which page, which boxes hold a tile, which are empty or unreadable."""
    from companion.vision.sheet import CellStatus

    page = reading.page
    found = reading.tiles(CellStatus.FOUND)
    print(f"{reading.source}: {page.label}: {len(found)} of {len(page.cells)} boxes hold a tile / "
          f"{page.label_zh}：{len(found)}／{len(page.cells)} 格有牌")
    print(f"  found / 找到: {' '.join(t.code for t in found) or '-'}")
    print(f"  empty / 空格: {_names(reading.tiles(CellStatus.EMPTY))}")
    bad = [c for c in reading.cells if c.status is CellStatus.UNREADABLE]
    if bad:
        print("  unreadable / 無法讀取: " + "; ".join(f"{c.cell.tile.code} {_zh(c.cell.tile)} ({c.reason})" for c in bad))


def _check_boxes(samples: list[tuple[Tile, np.ndarray]], classifier: Any, keep: set[Tile]) -> set[Tile]:
    """Say which boxes seem to hold another kind (a tile put in the wrong box would teach the wrong face), and
    return those not in ``keep``: they are left out."""
    from companion.vision.sheet import misplaced

    out = set()
    for m in misplaced(samples, classifier):
        kept = m.tile in keep
        tile, like, code = m.tile, m.looks_like, m.tile.code
        # (a review: "check box 2m" read as a checkbox, the Chinese never said what the tile looks like, a raw 0.96
        # was shown, and the back's box asked to "put the 0x in its box")
        put = ("the face-down tile", "背面朝上的牌") if tile is Tile.UNKNOWN else (f"a {code}", _zh(tile))
        what = (("kept, as --keep says", "依 --keep 照用") if kept else
                (f"left out: put {put[0]} in it and photograph the page again, or add --keep {code} if it is right",
                 f"這格先不用：把{put[1]}放進去再拍一次，若沒放錯請加 --keep {code}"))
        print(f"  the box for {code} ({_en(tile)}): its tile looks like {like.code} ({_en(like)}); {what[0]} / "
              f"{code} {_zh(tile)}那一格：裡面的牌看起來像{_zh(like)}；{what[1]}")
        if not kept:
            out.add(m.tile)
    return out


def _check_crops(samples: list[tuple[Tile, np.ndarray]], files: list[Path], keep: set[Tile]) -> set[int]:
    """`calibrate photo`'s check of its boxes (:func:`~companion.vision.sheet.misplaced`) on crops given by hand:
    a crop labelled as another kind than it shows would teach the set the wrong face (a newcomer review's
    ``6m=`` a 5m: the set then read its 5m as 6m at 1.00, and `score` changed a right 3m to make a win). Each one
    is named with its file, the label and the kind it looks like; the places in ``samples`` of those whose kind is not
    in ``keep`` are returned: they are left out. Flowers are checked as the sheet's boxes are, by printed number."""
    if not samples:
        return set()
    from companion.vision.classify import TileClassifier
    from companion.vision.sheet import misplaced_at

    out = set()
    for i, m in misplaced_at(samples, TileClassifier(threads=2)):
        tile, like, f = m.tile, m.looks_like, files[i]
        said = (f"{f}: labelled {tile.code} ({_en(tile)}), but it looks like {like.code} ({_en(like)}, {m.score:.2f})",
                f"{f}：標的是 {tile.code} {_zh(tile)}，看起來卻像 {like.code} {_zh(like)}（{m.score:.2f}）")
        if tile in keep:
            print(f"{said[0]}; kept, as --keep says / {said[1]}；依 --keep 照用")
            continue
        print(f"companion calibrate: {said[0]}; left out, since it would teach the set the {like.code}'s face as "
              f"{tile.code}: name it by the tile it shows, or add --keep {tile.code} if the label is right / "
              f"{said[1]}；這張先不用（會讓牌組把{_zh(like)}當成{_zh(tile)}）：請用它真正的牌命名，若沒標錯請加 "
              f"--keep {tile.code}", file=sys.stderr)
        out.add(i)
    return out


def _write_crops(folder: Path, samples: list[tuple[Tile, np.ndarray]], times: int) -> None:
    """The cut tiles as ``5m.png`` (``5m_2.png`` from a second photo of a page), as `calibrate add` reads them: each
    written whole or not at all (:func:`~companion.files.write_whole`; written in place, a crash left half a PNG for
    `calibrate add` to read, a review)."""
    import cv2

    make_folder(folder)
    for tile, crop in samples:
        name = tile.code + (f"_{times}" if times > 1 else "")
        encoded, png = cv2.imencode(".png", crop)
        if not encoded:
            raise ValueError(f"{folder}: cannot write {name}.png / 無法寫入 {name}.png")
        write_whole(folder / f"{name}.png", png.tobytes())  # (its error names the file, a full disk's too)



def _list() -> None:
    """The saved sets, the selected one starred, each with its kinds, or what is wrong with its file."""
    from companion.vision import calibration

    cur = calibration.selected()
    names = calibration.list_sets()
    for name in names:
        try:
            cal = calibration.load(name)
            said = agreed(f"{len(set(cal.tiles))} kinds / {len(set(cal.tiles))} 種牌")  # ("1 kinds": a review)
        except calibration.UnreadableCalibration as bad:  # not broken: not to be deleted for it (a change review)
            said = f"cannot be read now: {bad.why} / 現在讀不出來：{bad.why_zh}"
        except calibration.CalibrationError:  # (the app's row shows it: a review found the list did not)
            said = "damaged: calibrate it again or delete it / 檔案損壞：請重新校正或刪除"
        print(("* " if name == cur else "  ") + f"{name}  ({said})", flush=True)
    if not names:  # (a blank answer read as a failure: a review)
        print("no calibrated tile sets yet: companion calibrate sheet, then companion calibrate photo / "
              "還沒有校正過的牌組：先 companion calibrate sheet，再 companion calibrate photo")
    gone = calibration.selection_gone()
    if names and cur is None and not gone:  # (no star left it unsaid: a review)
        print("no set is selected: photos are read without a calibration (companion calibrate use NAME) / "
              "沒有選用牌組：讀照片不用校正（companion calibrate use 名稱）")
    if gone:  # (removed outside the product: `delete` deselects what it deletes)
        print(f"the selected set “{gone}” is no longer saved: photos are read without a calibration until "
              f"`companion calibrate use NAME` / 選用的牌組「{gone}」已不在：在 companion calibrate use 名稱 之前，"
              "讀照片不用校正")


def run(args: argparse.Namespace) -> int:
    from companion.vision import calibration

    for field in ("name", "old", "new"):  # as the set's file is named (a Mac may type it decomposed)
        if isinstance(getattr(args, field, None), str):
            setattr(args, field, unicodedata.normalize("NFC", getattr(args, field)))
    try:
        if args.op in ("add", "photo"):  # what is wrong with the command is said before any file is read (a review)
            calibration.check_name(args.name)
            if getattr(args, "add", False) and getattr(args, "replace", False):
                raise ValueError("give --add or --replace, not both / --add 和 --replace 只能擇一")
        if args.op == "add":
            return _add(args)
        if args.op == "sheet":
            return _sheet(args)
        if args.op == "photo":
            return _photo(args)
        if args.op == "list":
            _list()
        elif args.op == "use":
            calibration.select(args.name)
            print(f"selected “{args.name}”: read, classify, score and the app read with it / "
                  f"已選用「{args.name}」：read、classify、score 和 app 都用它")
        elif args.op == "rename":
            if not calibration.rename(args.old, args.new):
                print(f"the set “{args.old}” is already called that: nothing changed / "
                      f"牌組「{args.old}」本來就叫這個名稱：沒有改變")
                return 0
            on = calibration.selected() == args.new
            print(f"renamed “{args.old}” to “{args.new}”" + (" (still the selected set)" if on else "")
                  + f" / 已把「{args.old}」改名為「{args.new}」" + ("（仍是選用的牌組）" if on else ""))
        elif args.op == "none":
            calibration.deselect()
            print("no calibrated set selected: the trained model reads alone / 不用已校正牌組：只用訓練好的模型")
        else:
            was = calibration.selected()
            calibration.delete(args.name)
            print(f"deleted “{args.name}”" + (" (it was the selected set: no set is selected now)" if was == args.name else "")
                  + f" / 已刪除「{args.name}」" + ("（它是選用的牌組，現在沒有選用）" if was == args.name else ""))
    except BrokenPipeError:  # (`calibrate list | head`: the reader has what it wanted)
        with contextlib.suppress(OSError):
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115  (no flush of the dead pipe at exit)
        return 0
    except ValueError as e:
        print(f"companion calibrate: {with_zh(str(e), '無法校正')}", file=sys.stderr)
        return 2
    except OSError as e:  # a folder or file the sheet or the crops cannot be written to
        from companion.rules.profiles import os_error_zh

        where = e.filename or ""
        print(f"companion calibrate: cannot write {where}: {e.strerror or e} / 無法寫入 {where}（{os_error_zh(e)}）",
              file=sys.stderr)
        return 2
    return 0
