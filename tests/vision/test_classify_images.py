"""Image files: every kind of bad file is a clear ImageFileError naming the file."""

import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from companion.vision.image_file import ImageFileError, read_image


def _jpeg(path: Path) -> Path:
    rgb = np.zeros((40, 30, 3), np.uint8)
    rgb[:, :, 0] = 200  # red in RGB
    Image.fromarray(rgb).save(path, quality=95)
    return path


def test_good_file_is_bgr(tmp_path: Path) -> None:
    img = read_image(_jpeg(tmp_path / "a.jpg"))
    assert img.shape == (40, 30, 3) and img.dtype == np.uint8
    assert img[20, 15, 2] > 150 and img[20, 15, 0] < 50  # red sits in the last (R) channel of BGR


def test_a_phone_photo_is_turned_as_its_exif_orientation_says(tmp_path: Path) -> None:
    """A phone stores a portrait photo as landscape pixels tagged "turn 90 degrees clockwise to view" (EXIF
    orientation 6): it is read as the player sees it, so boxes and drawings match the photo on the phone."""
    rgb = np.zeros((30, 40, 3), np.uint8)  # stored: 40 wide, 30 high, a red top-left corner
    rgb[:5, :5, 0] = 255
    exif = Image.Exif()
    exif[0x0112] = 6
    p = tmp_path / "portrait.jpg"
    Image.fromarray(rgb).save(p, quality=95, exif=exif)
    img = read_image(p)
    assert img.shape == (40, 30, 3)  # upright: 30 wide, 40 high
    assert img[2, -3, 2] > 150 and img[-3, 2, 2] < 50  # the stored top-left corner is now top right


def test_a_broken_exif_orientation_leaves_the_pixels_as_stored(tmp_path: Path) -> None:
    rgb = np.zeros((30, 40, 3), np.uint8)
    exif = Image.Exif()
    exif[0x0112] = 99  # no such orientation
    p = tmp_path / "odd.jpg"
    Image.fromarray(rgb).save(p, quality=95, exif=exif)
    assert read_image(p).shape == (30, 40, 3)


@pytest.mark.parametrize(
    ("name", "content", "reason"),
    [
        ("empty.jpg", b"", "empty"),
        ("text.jpg", b"not an image at all", "not an image"),
    ],
)
def test_bad_bytes(tmp_path: Path, name: str, content: bytes, reason: str) -> None:
    p = tmp_path / name
    p.write_bytes(content)
    with pytest.raises(ImageFileError, match=reason) as e:
        read_image(p)
    assert name in str(e.value)


def test_a_phones_heic_photo_is_named_as_such_with_what_to_do(tmp_path: Path) -> None:
    """An iPhone's default format cannot be decoded here: the refusal says so and how to get a JPEG, not that the
    file is no image (a review); a JPEG merely named .heic is read."""
    p = tmp_path / "IMG_0001.HEIC"
    p.write_bytes(b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + bytes(200))
    with pytest.raises(ImageFileError, match="HEIC/HEIF photo.*JPEG") as e:
        read_image(p)
    assert "IMG_0001.HEIC" in str(e.value) and "JPEG" in e.value.zh and e.value.en.startswith("an HEIC")
    named = _jpeg(tmp_path / "really_a.jpg").rename(tmp_path / "really_a.heic")
    assert read_image(named).ndim == 3


def test_the_reason_alone_is_kept_apart_from_the_name_and_the_decoders_words(tmp_path: Path) -> None:
    p = _jpeg(tmp_path / "t.jpg")
    p.write_bytes(p.read_bytes()[:200])
    with pytest.raises(ImageFileError) as e:
        read_image(p)
    assert (e.value.en, e.value.zh) == ("damaged or truncated image", "圖檔損壞或不完整")
    # the decoder's words ("image file is truncated (3 bytes not processed)") came in the English alone (a review)
    assert str(e.value) == f"{p}: damaged or truncated image / 圖檔損壞或不完整" and e.value.path == p


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ImageFileError, match="nothere.png"):
        read_image(tmp_path / "nothere.png")


def test_truncated_jpeg(tmp_path: Path) -> None:
    p = _jpeg(tmp_path / "t.jpg")
    p.write_bytes(p.read_bytes()[:200])
    with pytest.raises(ImageFileError, match="truncated"):
        read_image(p)


def test_a_16_bit_grey_photo_keeps_its_greys(tmp_path: Path) -> None:
    """Pillow clips 16-bit grey to 8 bits (nearly all white); it is scaled instead."""
    grey = np.tile(np.linspace(0, 65535, 40).astype(np.uint16), (30, 1))
    p = tmp_path / "grey16.png"
    Image.fromarray(grey).save(p)
    assert Image.open(p).mode.startswith("I")
    img = read_image(p)
    assert img.shape == (30, 40, 3) and img[0, 0].tolist() == [0, 0, 0] and img[0, -1].tolist() == [255, 255, 255]
    assert abs(int(img[0, 20, 0]) - round(grey[0, 20] / 257)) <= 1


def test_an_image_longer_than_opencv_can_cut_is_refused(tmp_path: Path) -> None:
    p = tmp_path / "strip.png"
    Image.new("RGB", (31000, 20)).save(p)
    with pytest.raises(ImageFileError, match="too long"):
        read_image(p)


def test_huge_image_is_refused_before_decoding(tmp_path: Path) -> None:
    p = tmp_path / "bomb.png"
    Image.new("1", (9000, 5000)).save(p)  # 45 Mpx of zeros: a few kB on disk
    assert p.stat().st_size < 100_000
    with pytest.raises(ImageFileError, match="too large"):
        read_image(p)


def test_a_jpeg_over_the_most_read_shrunk_is_said_in_megapixels(tmp_path: Path) -> None:
    """A privacy review was told "limit 2560000000" (pixels) for a JPEG claiming 65000x65000: said in MP, with the
    40 MP a photo is read at."""
    data = bytearray(_jpeg(tmp_path / "small.jpg").read_bytes())
    at = data.find(b"\xff\xc0")
    data[at + 5:at + 9] = (65000).to_bytes(2, "big") + (65000).to_bytes(2, "big")
    claimed = tmp_path / "claimed.jpg"
    claimed.write_bytes(bytes(data))
    with pytest.raises(ImageFileError) as e:
        read_image(claimed, reduce_large=True)
    said = str(e.value)
    assert "65000x65000 pixels, 4225 MP; a JPEG is read up to 2560 MP, shrunk to 40 MP" in said, said
    assert "JPEG 最多讀 25.6 億畫素，縮成 4000 萬畫素來讀" in said and "2560000000" not in said


def test_a_photo_just_over_the_limit_is_not_said_to_be_the_limit(tmp_path: Path) -> None:
    """A change review: a 40.4 MP photo was told "40 MP; at most 40 MP"."""
    p = tmp_path / "over.png"
    Image.new("1", (8000, 5050)).save(p)
    with pytest.raises(ImageFileError) as e:
        read_image(p)
    assert "(8000x5050 pixels, 40.4 MP; at most 40 MP)" in str(e.value) and "4040 萬畫素；上限 4000 萬畫素" in str(e.value)


def test_a_jpeg_whose_header_claims_more_than_its_bytes_hold_is_damaged(tmp_path: Path) -> None:
    """A review's 700-byte JPEG claiming 50000x50000: decoded at an eighth as grey (13 s, 820 MB), "no tile"."""
    p = _jpeg(tmp_path / "small.jpg")
    data = bytearray(p.read_bytes())
    at = data.find(b"\xff\xc0")  # the frame header: height, then width, at +5
    data[at + 5:at + 9] = (50000).to_bytes(2, "big") + (50000).to_bytes(2, "big")
    claimed = tmp_path / "claimed.jpg"
    claimed.write_bytes(bytes(data))
    with pytest.raises(ImageFileError, match="header says 50000x50000 pixels") as e:
        read_image(claimed, reduce_large=True)
    assert "圖檔損壞" in str(e.value)
    blank = tmp_path / "blank.jpg"  # the most a JPEG squeezes: a blank picture, read
    Image.new("L", (4000, 3000)).save(blank, quality=1, optimize=True)
    assert read_image(blank).shape == (3000, 4000, 3)


def test_a_png_over_pillows_own_limit_is_said_too_large_with_its_size(tmp_path: Path) -> None:
    p = tmp_path / "big.png"
    Image.new("1", (10000, 9000)).save(p)  # 90 MP: Pillow's own bomb check speaks first
    with pytest.raises(ImageFileError, match=r"image too large \(90 MP; at most 40 MP\): make it smaller, "
                                             "or save it as a JPEG"):
        read_image(p, reduce_large=True)


def test_a_phone_photo_over_the_pixel_limit_reads_at_half_size_when_asked(tmp_path: Path) -> None:
    from companion.vision.image_file import MAX_PIXELS

    w, h = 6500, 6300  # 41 MP, as a 48-50 MP phone photo is over the limit
    assert w * h > MAX_PIXELS
    path = tmp_path / "big.jpg"
    Image.new("RGB", (w, h), (30, 120, 60)).save(path, quality=50)
    with pytest.raises(ImageFileError, match="too large"):
        read_image(path)
    image = read_image(path, reduce_large=True)
    assert image.shape == (h // 2, w // 2, 3) or image.shape == ((h + 1) // 2, (w + 1) // 2, 3)
    assert abs(int(image[10, 10, 1]) - 120) < 8  # the picture, not noise
    png = tmp_path / "big.png"
    Image.new("L", (w, h)).save(png)
    with pytest.raises(ImageFileError, match="too large") as refused:
        read_image(png, reduce_large=True)  # only a JPEG decodes small: said, with what to do (a review)
    assert refused.value.en.endswith("make it smaller, or save it as a JPEG, which is read at a smaller scale")
    assert refused.value.zh.endswith("請縮小，或存成 JPEG（會縮小來讀）")


def test_a_108_mp_portrait_phone_photo_reads_reduced_past_pillows_own_limit_and_its_full_size_is_known(
        tmp_path: Path) -> None:
    from companion.vision.image_file import full_size

    w, h = 12000, 9000  # 108 MP, over Pillow's own bomb limit (about 89 MP), stored landscape with EXIF "turn 90"
    assert w * h > (Image.MAX_IMAGE_PIXELS or 0)
    exif = Image.Exif()
    exif[0x0112] = 6
    path = tmp_path / "portrait.jpg"
    Image.new("L", (w, h), 90).save(path, quality=30, exif=exif)
    image = read_image(path, reduce_large=True)
    assert image.shape[:2] == (w // 2, h // 2)  # turned upright: the portrait, decoded at half size
    assert full_size(path) == (h, w)  # the photo's own pixels, upright
    assert abs(int(image[5, 5, 0]) - 90) < 8
    with pytest.raises(ImageFileError, match="too large"):
        read_image(path)  # without reducing: refused, never decoded


def test_a_damaged_exif_block_is_read_without_pillows_warning(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """A review's JPEG with a broken Exif block printed Pillow's English "Corrupt EXIF data" warning, with the path
    of Pillow's source file, twice (once for the photo's size, once for its pixels); the pixels are read as stored."""
    import warnings

    from companion.vision.image_file import full_size

    good = _jpeg(tmp_path / "good.jpg").read_bytes()
    p = tmp_path / "bad_exif.jpg"
    p.write_bytes(good[:2] + b"\xff\xe1\x00\x10Exif\x00\x00MM\x00*\xff\xff\xff\xff" + good[2:])
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        img = read_image(p)
        assert full_size(p) == (30, 40)
    assert img.shape == (40, 30, 3)
    assert [str(w.message) for w in seen] == []
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("suffix", [".jpg", ".png", ".webp", ".tif"])
@pytest.mark.parametrize("orientation", range(1, 9))
def test_the_full_size_of_a_photo_is_the_size_it_is_read_upright_in_every_format_and_orientation(
        tmp_path: Path, suffix: str, orientation: int) -> None:
    """Boxes read on a photo are scaled to :func:`full_size`, so it must be the size :func:`read_image` gives. Pillow
    already reports a TIFF's size turned as its Orientation tag says; full_size turned it again, and a review's TIFF
    with orientation 6 had every box in ``read --json`` squeezed by height/width."""
    from companion.vision.image_file import full_size

    exif = Image.Exif()
    exif[0x0112] = orientation
    path = tmp_path / f"o{orientation}{suffix}"
    Image.new("RGB", (60, 40), (120, 80, 40)).save(path, exif=exif.tobytes())
    image = read_image(path, reduce_large=True)
    assert full_size(path) == (image.shape[1], image.shape[0])
    assert full_size(path) == ((40, 60) if orientation >= 5 else (60, 40))


def test_classify_refuses_an_image_too_small_to_hold_a_tile_as_read_does(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A review's 2x2 (and 30000x2) blank image: ``classify`` said a sure 白板 (0.61), ``read`` "too small to hold a
    tile". Both refuse it now, in the same words, naming the file."""
    from companion.cli import main

    for w, h in ((2, 2), (300, 3)):
        path = tmp_path / f"px_{w}x{h}.png"
        Image.new("RGB", (w, h), (230, 230, 220)).save(path)
        assert main(["classify", str(path), "--no-calibration"]) == 1
        said = capsys.readouterr()
        assert said.out == ""
        assert f"{path}: image too small to hold a tile ({w}x{h} pixels; at least 8x8)" in said.err
        assert f"影像太小，容不下一張牌（{w}x{h} 像素，至少要 8x8）" in said.err
        assert main(["read", str(path), "--no-calibration"]) == 1
        assert f"image too small to hold a tile ({w}x{h} pixels; at least 8x8)" in capsys.readouterr().err


def test_classify_reads_a_photo_too_large_to_decode_whole_as_read_does(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str],
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A review's 48 MP close-up of one tile was refused by ``classify`` ("image too large ... make it smaller") and
    read by ``read``, which decodes a big JPEG at a half, a quarter...: ``classify`` does the same (here with the
    limit brought down to a small JPEG's size)."""
    from companion.cli import main
    from companion.vision import image_file

    path = _jpeg(tmp_path / "big.jpg")
    monkeypatch.setattr(image_file, "MAX_PIXELS", 600)  # the 30x40 JPEG is "too large": decoded at a half
    assert main(["classify", str(path), "--json", "--no-calibration"]) == 0
    assert "error" not in json.loads(capsys.readouterr().out)


def test_a_photos_size_in_chinese_is_said_in_whole_wan_of_pixels() -> None:
    """A change review read 「4212.35 萬畫素」: Taiwan says a photo's size in whole 萬 (or 億) of pixels."""
    from companion.vision.image_file import _mp_zh

    assert [_mp_zh(n) for n in (42_123_456, 40_400_000, 99_999_999, 2_560_000_000, 1200)] == [
        "4212 萬畫素", "4040 萬畫素", "1 億畫素", "25.6 億畫素", "1200 畫素"]


def test_classify_refuses_a_crop_of_several_tiles_in_a_row_naming_it_and_reads_the_others(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A review's crop of three tiles side by side (about 2.3:1) was read as a sure ``6s``. A tile is about 3:4
    upright, 4:3 lying: a crop three or more tiles long is refused for its own file, pointing to ``companion read``,
    and the other crops of the batch, one upright and one lying, are still read."""
    from companion.cli import main

    tiles = Path(__file__).parents[2] / "companion" / "assets" / "tiles"
    faces = [Image.open(tiles / f"{c}.png").convert("RGB") for c in ("3s", "6s", "9s")]  # 120 x 160 each
    row = Image.new("RGB", (360, 160), (240, 240, 235))
    for i, face in enumerate(faces):
        row.paste(face, (120 * i, 0))
    row_path, one_path, lying_path = tmp_path / "three.png", tmp_path / "one.png", tmp_path / "lying.png"
    row.save(row_path)
    faces[1].save(one_path)
    faces[1].rotate(90, expand=True).save(lying_path)
    assert main(["classify", str(row_path), str(one_path), str(lying_path), "--json", "--no-calibration"]) == 1
    said = capsys.readouterr()
    lines = [json.loads(line) for line in said.out.splitlines()]
    assert [line["file"] for line in lines] == [str(row_path), str(one_path), str(lying_path)]
    error = lines[0]["error"]
    assert error["message"].startswith(f"{row_path}: the image is 360x160, 2.2 times as wide as it is tall")
    assert "companion read" in error["message"] and "companion read" in error["message_zh"]
    assert str(row_path) in error["message_zh"] and "一排好幾張牌" in error["message_zh"]
    assert "tile" not in lines[0]
    assert lines[1]["tile"] == "6s" and "error" not in lines[2]  # the single crops are read
    assert f"{row_path}: the image is 360x160" in said.err
    assert main(["classify", str(row.rotate(90, expand=True).save(row_path) or row_path), "--no-calibration"]) == 1
    assert "2.2 times as tall as it is wide" in capsys.readouterr().err


@pytest.mark.parametrize(("w", "h"), [(3, 3), (300, 1)])
def test_score_says_an_image_too_small_in_the_language_asked_and_as_the_minimum_is_said(
        w: int, h: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`score tiny.png --lang en` gave the 3x3 refusal in both languages, where every other score error honours
    --lang; a picture one pixel high was "too small to show a tile", not said against the 8x8 minimum (a review)."""
    from companion.cli import main

    path = tmp_path / f"px_{w}x{h}.png"
    Image.new("RGB", (w, h), (230, 230, 220)).save(path)
    assert main(["score", str(path), "--lang", "en", "--no-calibration"]) == 1
    err = capsys.readouterr().err
    assert f"image too small to hold a tile ({w}x{h} pixels; at least 8x8)" in err and "影像太小" not in err
    assert main(["score", str(path), "--lang", "zh", "--no-calibration"]) == 1
    err = capsys.readouterr().err
    assert f"影像太小，容不下一張牌（{w}x{h} 像素，至少要 8x8）" in err and "too small" not in err
