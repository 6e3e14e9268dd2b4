"""The vision commands' messages: every refusal names its input, says it in English and Traditional Chinese
(the commands have no --lang), and is never a traceback: model files that are not ONNX models, bad image files,
calibrations, sheet photos, and numeric options out of range."""

from __future__ import annotations

import os
import re
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from companion.cli import main
from companion.tiles import Tile
from companion.vision import calibration, image_file
from companion.vision.classify import ModelError
from companion.vision.image_file import ImageFileError, read_image
from companion.vision.runtime import model_session, shipped_model
from companion.vision.sheet import (
    MarkersNotFound,
    PhotoQualityError,
    SheetError,
    UnknownPage,
    read_sheet,
    render_sheet,
)

CJK = re.compile("[\u4e00-\u9fff]")


def bilingual(text: str, *english: str) -> None:
    """``text`` holds every one of ``english``, some Traditional Chinese, and no traceback."""
    for part in english:
        assert part in text, (part, text)
    assert CJK.search(text), text
    assert "Traceback" not in text


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture
def photo(tmp_path: Path) -> Path:
    p = tmp_path / "table.png"
    cv2.imwrite(str(p), np.full((120, 160, 3), 90, np.uint8))
    return p


# --- model files --------------------------------------------------------------------------------------


@pytest.mark.parametrize("option", [("classify", "--model"), ("read", "--detector"), ("read", "--classifier")])
def test_a_model_option_naming_a_file_that_is_not_onnx_is_refused_by_name(
        tmp_path: Path, photo: Path, capsys: pytest.CaptureFixture[str], option: tuple[str, str]) -> None:
    command, flag = option
    text = tmp_path / "text.png"
    text.write_text("not a network at all")
    code, _, err = run(capsys, command, str(photo), flag, str(text), "--no-calibration", "--threads", "1")
    assert code == 2
    bilingual(err, "text.png", "not an ONNX model", "不是 ONNX 模型檔")


def test_an_empty_or_missing_model_file_is_an_error_of_its_kind_in_both_languages(tmp_path: Path) -> None:
    empty = tmp_path / "empty.onnx"
    empty.write_bytes(b"")
    with pytest.raises(ModelError) as e:
        model_session(empty, shipped_model, 1, ModelError, "classifier model")
    bilingual(str(e.value), "empty.onnx", "not an ONNX model, or the file is damaged")
    with pytest.raises(ModelError) as e:
        model_session(tmp_path / "gone.onnx", shipped_model, 1, ModelError, "classifier model")
    bilingual(str(e.value), "classifier model not found at", "gone.onnx", "找不到模型檔")


def test_a_model_of_another_kind_is_refused_in_both_languages(photo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "classify", str(photo), "--model", str(shipped_model("tile_detector.onnx")),
                       "--no-calibration")
    assert code == 2
    bilingual(err, "tile_detector.onnx", "not a tile classifier")


# --- numeric options ----------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["2", "1.01", "0", "-0.5", "nan", "inf"])
def test_read_refuses_a_threshold_outside_0_to_1(photo: Path, capsys: pytest.CaptureFixture[str], value: str) -> None:
    code, out, err = run(capsys, "read", str(photo), "--threshold", value)
    assert code == 2 and out == ""
    bilingual(err, "--threshold", "above 0 and at most 1", "須大於 0 且不超過 1")


def test_read_takes_a_threshold_of_1(photo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "read", str(photo), "--threshold", "1", "--single-pass", "--no-calibration",
                       "--threads", "1")
    assert code == 0 and "張牌 / tiles" in out


@pytest.mark.parametrize(("command", "value"), [("read", "0"), ("read", "-2"), ("classify", "0"),
                                                ("classify", "-3"), ("classify", "257")])
def test_threads_out_of_range_are_refused_naming_the_option(
        photo: Path, capsys: pytest.CaptureFixture[str], command: str, value: str) -> None:
    code, out, err = run(capsys, command, str(photo), "--threads", value)
    assert code == 2 and out == ""
    bilingual(err, "--threads", f"got {value}", "須介於 1 到")


def test_threads_out_of_range_are_said_in_the_language_asked_each_half_whole(
        photo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``bad_threads`` gives (English, Chinese): `score` split one string on " / " to part them, which would put
    English in the Chinese half of any text holding " / " (a review)."""
    from companion.commands._io import bad_threads

    assert bad_threads(2) is None
    refused = bad_threads(0)
    assert refused is not None and len(refused) == 2
    en, zh = refused
    assert "--threads must be 1-" in en and "got 0" in en and not CJK.search(en) and "須介於 1 到" in zh
    code, out, err = run(capsys, "score", str(photo), "--threads", "0", "--lang", "en")
    assert code == 2 and out == "" and err == f"companion score: {en}\n"
    code, out, err = run(capsys, "score", str(photo), "--threads", "0", "--lang", "zh")
    assert code == 2 and out == "" and err == f"companion score: {zh}\n"


def test_calibrate_sheet_refuses_a_dpi_out_of_range_naming_the_option(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for dpi in ("0", "-300", "39", "1201"):
        code, _, err = run(capsys, "calibrate", "sheet", str(tmp_path / "sheet.pdf"), "--dpi", dpi)
        assert code == 2
        bilingual(err, "--dpi", f"got {dpi}", "須介於 40 到 1200")
    assert not (tmp_path / "sheet.pdf").exists()
    with pytest.raises(SheetError) as e:
        render_sheet("a4", 5)
    bilingual(str(e.value), "dpi 5 out of 40-1200", "超出範圍")


# --- image files --------------------------------------------------------------------------------------


def _png(path: Path, w: int = 40, h: int = 30) -> Path:
    Image.new("RGB", (w, h), (200, 10, 10)).save(path)
    return path


@pytest.mark.parametrize(("name", "make", "english", "chinese"), [
    ("missing.png", lambda p: None, "no such file", "找不到這個檔案"),
    ("photos", lambda p: p.mkdir(), "a folder, not a photo", "這是資料夾，不是照片"),
    ("empty.jpg", lambda p: p.write_bytes(b""), "empty file", "檔案是空的"),
    ("text.jpg", lambda p: p.write_bytes(b"not an image at all"), "not an image file", "不是圖檔"),
    ("cut.png", lambda p: p.write_bytes(_png(p).read_bytes()[:60]), "damaged or truncated", "損壞或不完整"),
    ("dot.png", lambda p: _png(p, 1, 1), "image too small to hold a tile (1x1 pixels; at least 8x8)",
     "影像太小，容不下一張牌（1x1 像素"),
    ("sheet.pdf", lambda p: p.write_bytes(b"%PDF-1.4\n%\xe2\xe3\n1 0 obj"), "a PDF document, not a photo",
     "這是 PDF 文件，不是照片"),
])
def test_a_bad_image_file_is_refused_in_both_languages(tmp_path: Path, name: str, make, english: str,
                                                       chinese: str) -> None:
    p = tmp_path / name
    make(p)
    with pytest.raises(ImageFileError) as e:
        read_image(p)
    bilingual(str(e.value), name, english, chinese)


def test_too_big_images_are_refused_in_both_languages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = _png(tmp_path / "big.png")
    cases = [("MAX_BYTES", 10, "file too large", "檔案太大"), ("MAX_PIXELS", 100, "image too large", "圖太大"),
             ("MAX_SIDE", 35, "image too long", "圖的邊太長")]
    for name, limit, english, chinese in cases:
        with monkeypatch.context() as m:
            m.setattr(image_file, name, limit)
            with pytest.raises(ImageFileError) as e:
                read_image(p)
        bilingual(str(e.value), "big.png", english, chinese)
    with monkeypatch.context() as m:
        m.setattr(Image, "MAX_IMAGE_PIXELS", 10)
        with pytest.raises(ImageFileError) as e:
            read_image(p)
    bilingual(str(e.value), "big.png", "too large", "圖太大")
    assert "(1200 pixels; at most 20 pixels)" in str(e.value)  # Pillow (twice its limit: its error, not its warning)'s own check, said as ours is (it had said "decompression bomb")


def test_the_commands_report_a_bad_image_in_both_languages(
        tmp_path: Path, photo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "notes.jpg"
    bad.write_text("shopping list")
    code, _, err = run(capsys, "classify", str(bad), "--no-calibration")
    assert code == 1
    bilingual(err, "notes.jpg", "not an image file", "不是圖檔")
    small = tmp_path / "small.png"
    cv2.imwrite(str(small), np.full((5, 12, 3), 90, np.uint8))
    code, _, err = run(capsys, "read", str(bad), str(small), "--single-pass", "--no-calibration", "--threads", "1")
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 2
    bilingual(lines[0], "notes.jpg", "不是圖檔")
    bilingual(lines[1], "small.png", "too small", "影像太小", "12x5 像素")  # the detector's own refusal, in both


def test_read_says_in_both_languages_that_it_cannot_write_the_drawing(
        photo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cv2, "imwrite", lambda *a, **k: False)
    code, _, err = run(capsys, "read", str(photo), "--annotate", str(tmp_path / "seen.png"), "--single-pass",
                       "--no-calibration", "--threads", "1")
    assert code == 1
    bilingual(err, "cannot write", "seen.png", "無法寫入")


# --- calibrations -------------------------------------------------------------------------------------


def _crops(folder: Path, codes: tuple[str, ...]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(0)
    for code in codes:
        cv2.imwrite(str(folder / f"{code}.png"), rng.integers(0, 255, (80, 60, 3), dtype=np.uint8))
    return folder


def test_calibration_errors_are_in_both_languages(data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(calibration.CalibrationError) as e:
        calibration.Calibration.from_crops("home", [])
    bilingual(str(e.value), "no crops given", "沒有任何牌面照片")
    with pytest.raises(calibration.CalibrationError) as e:
        calibration.load("../evil")
    bilingual(str(e.value), "tile-set name", "牌組名稱")
    with pytest.raises(calibration.CalibrationError) as e:
        calibration.load("home")
    bilingual(str(e.value), "no calibration named “home” (known: none)", "現有：無")
    with pytest.raises(calibration.CalibrationError) as e:
        calibration.delete("home")
    bilingual(str(e.value), "no calibration named “home”", "找不到名為「home」的校正牌組")
    (data_dir / "calibration").mkdir(parents=True)
    (data_dir / "calibration" / "home.npz").write_bytes(b"PK\x03\x04 not a whole zip")
    with pytest.raises(calibration.CalibrationError) as e:
        calibration.load("home")
    bilingual(str(e.value), "“home” at", "is damaged", "校正檔已損壞")
    rng = np.random.default_rng(1)
    cal = calibration.Calibration.from_crops("good", [(Tile.M1, rng.integers(0, 255, (80, 60, 3), dtype=np.uint8))])
    calibration.save(cal)
    with pytest.raises(calibration.CalibrationError) as e:
        calibration.load("nope")
    bilingual(str(e.value), "known: good, home", "現有：good, home")

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as m:
        m.setattr(calibration, "write_atomic", full)
        with pytest.raises(calibration.CalibrationError) as e:
            calibration.save(cal)
        bilingual(str(e.value), "cannot write", "無法寫入校正檔", "磁碟已滿")  # (the Chinese gave no reason)
        with pytest.raises(calibration.CalibrationError) as e:
            calibration.select("good")
        bilingual(str(e.value), "cannot select “good”", "無法選用「good」", "磁碟已滿")

    def denied(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    with monkeypatch.context() as m:
        m.setattr(Path, "unlink", denied)
        with pytest.raises(calibration.CalibrationError) as e:
            calibration.delete("good")
        bilingual(str(e.value), "cannot delete “good”", "無法刪除「good」")


def test_calibrate_add_speaks_both_languages(
        data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _crops(tmp_path / "crops", ("1m", "2m"))
    code, out, _ = run(capsys, "calibrate", "add", "home", str(folder))
    assert code == 0
    bilingual(out.splitlines()[0], "calibrated “home”: 2 crops of 2 kinds", "(selected)", "已校正「home」", "已選用")
    code, out, _ = run(capsys, "calibrate", "add", "other", str(folder), "--no-select")
    assert code == 0 and "selected" not in out.splitlines()[0] and "已選用" not in out.splitlines()[0]
    bilingual(out.splitlines()[0], "2 crops of 2 kinds", "2 種牌，共 2 張")
    cv2.imwrite(str(folder / "holiday.png"), np.zeros((80, 60, 3), np.uint8))
    code, _, err = run(capsys, "calibrate", "add", "third", str(folder), f"9z={folder / '1m.png'}")
    assert code == 1
    named = [line for line in err.splitlines() if "holiday.png" in line]
    assert len(named) == 1
    bilingual(named[0], "name the file by its tile", "檔名請用牌的代號")
    coded = [line for line in err.splitlines() if "9z=" in line]
    assert len(coded) == 1
    bilingual(coded[0], "9z=", "看不懂牌的代號「9z」")
    code, _, err = run(capsys, "calibrate", "use", "missing")
    assert code == 2
    bilingual(err, "no calibration named “missing”", "找不到名為「missing」的校正牌組")
    # a crop too small says the file and the sizes in Chinese too (a newcomer review: it said only 太小)
    cv2.imwrite(str(tmp_path / "tiny.png"), np.zeros((20, 20, 3), np.uint8))
    code, _, err = run(capsys, "calibrate", "add", "fourth", f"5m={tmp_path / 'tiny.png'}")
    assert code == 2
    small = [line for line in err.splitlines() if "tiny.png" in line]
    assert len(small) == 1
    en, zh = small[0].split(" / ")
    assert "tiny.png is 20x20 px" in en and "at least 36x48 px" in en
    assert f"{tmp_path / 'tiny.png'} 只有 20x20 像素" in zh and "至少要 36x48 像素" in zh and "靠近一點拍" in zh


def test_calibrate_sheet_messages_are_in_both_languages(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = run(capsys, "calibrate", "sheet", str(tmp_path / "sheet.svg"))
    assert code == 2
    bilingual(err, "sheet.svg", ".pdf or .png", "請存成 .pdf 或 .png")
    import companion.vision.sheet_render as sheet_render

    monkeypatch.setattr(sheet_render, "has_chinese_font", lambda: False)
    code, _, err = run(capsys, "calibrate", "sheet", str(tmp_path / "sheet.png"), "--dpi", "40")
    assert code == 0
    bilingual(err, "no Chinese font", "找不到中文字型")

    def denied(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied", str(tmp_path / "locked"))

    (tmp_path / "locked").mkdir()
    with monkeypatch.context() as m:
        m.setattr(os, "replace", denied)
        code, _, err = run(capsys, "calibrate", "sheet", str(tmp_path / "locked" / "sheet.pdf"), "--dpi", "40")
    assert code == 2
    bilingual(err, "cannot write", "locked", "無法寫入", "沒有權限")  # (the Chinese gave no reason: a review)
    # a folder that is not there is said as `read --annotate` says it, not made (a newcomer review's typo left one)
    code, out, err = run(capsys, "calibrate", "sheet", str(tmp_path / "nonexist" / "dir" / "sheet.pdf"), "--dpi", "40")
    assert code == 2 and out == "" and not (tmp_path / "nonexist").exists()
    missing = tmp_path / "nonexist" / "dir"
    bilingual(err, f"sheet.pdf: the folder {missing} does not exist", f"sheet.pdf：資料夾 {missing} 不存在")


def test_calibrate_says_in_both_languages_when_it_cannot_write_a_crop(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.commands import calibrate

    monkeypatch.setattr(cv2, "imencode", lambda *a, **k: (False, None))
    with pytest.raises(ValueError) as e:
        calibrate._write_crops(tmp_path, [(Tile.M5, np.zeros((80, 60, 3), np.uint8))], 2)
    bilingual(str(e.value), "cannot write 5m_2.png", "無法寫入 5m_2.png")


# --- sheet photos -------------------------------------------------------------------------------------


def test_sheet_photo_refusals_say_the_same_in_both_languages() -> None:
    rng = np.random.default_rng(5)
    with pytest.raises(MarkersNotFound) as e:
        read_sheet(rng.integers(0, 255, (600, 800, 3), dtype=np.uint8), source="table.jpg")
    bilingual(str(e.value), "table.jpg", "no corner markers", "找不到校正表四角的方塊")
    alien = np.full((400, 400, 3), 255, np.uint8)
    alien[100:300, 100:300] = cv2.cvtColor(cv2.aruco.generateImageMarker(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), 40, 200), cv2.COLOR_GRAY2BGR)
    with pytest.raises(UnknownPage) as e:
        read_sheet(alien, source="alien.jpg")
    message = str(e.value)
    bilingual(message, "alien.jpg", "markers [40] that are not on the sheet", "標記 [40] 不是校正表上的")
    assert "找不到" not in message  # the markers were found: they are just not the sheet's
    with pytest.raises(PhotoQualityError) as e:
        read_sheet(np.zeros((150, 400, 3), np.uint8), source="thumb.jpg")
    bilingual(str(e.value), "thumb.jpg", "photo too small (400x150 px", "照片太小（400x150 像素")
    with pytest.raises(SheetError) as e:
        read_sheet(np.zeros((300, 300), np.uint8), source="grey.jpg")
    bilingual(str(e.value), "grey.jpg", "HxWx3", "影像格式不符")
