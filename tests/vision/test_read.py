"""Reading tiles: the Detections value type, upright crops, and the whole reader on rendered scenes."""

import argparse
import json
import math
import os
import re

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.tiles import Tile
from companion.vision.detect import obb_corners
from companion.vision.read import UNSURE_BGR, Detections, TileReader, annotate, read_tiles, upright_crops
from training.synth.faces import CLEAN_STYLE
from training.synth.scene import Camera, Lighting, PlacedTile, Pose, SceneStyle, render_table

ROW = [Tile.M1, Tile.M5, Tile.P3, Tile.P9, Tile.S1, Tile.S8, Tile.Z1, Tile.Z7, Tile.F2]


def scene(rotation: float = 0.0, face_down: int = 2) -> tuple[np.ndarray, list]:
    """A row of face-up tiles and some face-down ones, seen from above in a 1280x720 frame."""
    step = 29.0 if rotation % 180 == 0 else 38.0
    tiles = [PlacedTile(k, (i - 4) * step, 20.0, 0, rotation) for i, k in enumerate(ROW)]
    tiles += [PlacedTile(Tile.M2, (i - 1) * 29.0, -60.0, 0, 0, Pose.FACE_DOWN) for i in range(face_down)]
    cam = Camera(target=(0.0, 0.0), distance=700.0, tilt=10.0, focal=1100.0, size=(1280, 720))
    frame, labels = render_table(tiles, cam, SceneStyle(CLEAN_STYLE), Lighting(uneven=0.1), (), seed=3)
    return frame, labels


def test_detections_are_validated() -> None:
    ok = Detections(np.zeros((1, 5), np.float32), np.array([4], np.int16), np.array([True]),
                    np.array([0.9], np.float32), np.array([[4, 5, 6]], np.int16), np.full((1, 3), 0.3, np.float32))
    assert ok.tiles() == (Tile.M5,)
    with pytest.raises(ValueError, match="obb"):
        Detections(np.zeros((2, 5), np.float32), ok.kind, ok.face_up, ok.score, ok.top3_kind, ok.top3_score)
    with pytest.raises(ValueError, match="kind"):
        Detections(ok.obb, np.array([43], np.int16), ok.face_up, ok.score, ok.top3_kind, ok.top3_score)
    with pytest.raises(ValueError, match="score"):
        Detections(ok.obb, ok.kind, ok.face_up, np.array([1.5], np.float32), ok.top3_kind, ok.top3_score)
    item = ok.to_json()[0]
    assert item["tile"] == "5m" and len(item["xyxy"]) == 4 and [t["tile"] for t in item["top3"]] == ["5m", "6m", "7m"]


def test_upright_crops_undo_the_rotation() -> None:
    img = np.zeros((200, 200, 3), np.uint8)
    img[60:140, 80:120] = 255
    img[60:70, 80:120] = (0, 0, 255)  # a red top edge
    rot = cv2.warpAffine(img, cv2.getRotationMatrix2D((100, 100), 90, 1.0), (200, 200))  # turned 90 ccw
    (crop,) = upright_crops(rot, np.array([[100, 100, 40, 80, 90]], np.float32))
    assert crop.shape[:2] == (80, 40)
    assert crop[2, 20, 2] > 200 and crop[2, 20, 0] < 60  # the red edge is on top again
    assert crop[-3, 20].min() > 200


@pytest.fixture(scope="module")
def reader() -> TileReader:
    return TileReader(detector_threads=1, classifier_threads=1)


# Floors that the shipped models meet (benchmarks/vision.py measures the targets). 11 tiles show; a
# row turned a quarter or off the table's axes was read 3-4 right before the detector's angles were snapped
# to the tiles' edges and turned by the orientation network, 10-11 since.
@pytest.mark.parametrize(("rotation", "at_least"), [
    (0.0, 9), (90.0, 9), (180.0, 9), (270.0, 9), (37.0, 9), (135.0, 9),
])
def test_reader_finds_and_reads_a_rendered_row(reader: TileReader, rotation: float, at_least: int) -> None:
    frame, labels = scene(rotation)
    dets = reader.read(frame)
    truth = {(round(lab.obb()[0]), round(lab.obb()[1])): lab for lab in labels if lab.visible > 0.9}
    right = 0
    for (cx, cy, *_), kind in zip(dets.obb, dets.kind, strict=True):
        near = [lab for (x, y), lab in truth.items() if math.hypot(x - cx, y - cy) < 8]
        right += bool(near) and near[0].kind == Tile(int(kind))
    assert len(truth) == len(ROW) + 2
    assert right >= at_least, (dets.tiles(), [lab.kind for lab in labels])


def test_faces_and_backs_read_side_by_side_as_one_after_the_other(reader: TileReader) -> None:
    """The reader works out a frame's face-up and face-down boxes at the same time (``parallel``, the default):
    the same reading as one step after another, with faces and backs, faces only, and backs only."""
    serial = TileReader(detector_threads=1, classifier_threads=1, parallel=False)
    assert reader.parallel and not serial.parallel
    backs_only = [PlacedTile(Tile.M2, (i - 3) * 29.0, 0.0, 0, 0, Pose.FACE_DOWN) for i in range(7)]
    cam = Camera(target=(0.0, 0.0), distance=700.0, tilt=10.0, focal=1100.0, size=(1280, 720))
    frames = [scene(0.0, 3)[0], scene(37.0, 0)[0], scene(90.0, 2)[0],
              render_table(backs_only, cam, SceneStyle(CLEAN_STYLE), Lighting(), (), seed=3)[0]]
    for i, frame in enumerate(frames):
        a, b = serial.read(frame), reader.read(frame)
        assert len(a) >= 6, i
        assert np.array_equal(a.kind, b.kind) and np.array_equal(a.face_up, b.face_up), i
        np.testing.assert_allclose(b.obb, a.obb, atol=1e-4)
        np.testing.assert_allclose(b.score, a.score, atol=1e-5)
        np.testing.assert_allclose(b.top3_score, a.top3_score, atol=1e-5)
    assert a.face_up.sum() == 0  # the last frame: backs only


def test_read_tiles_on_an_empty_table_finds_nothing(reader: TileReader) -> None:
    frame = np.full((720, 1280, 3), (40, 110, 30), np.uint8)
    assert len(read_tiles(frame, reader)) == 0


def test_annotate_returns_a_new_image(reader: TileReader) -> None:
    frame, _ = scene()
    dets = reader.read(frame)
    out = annotate(frame, dets)
    assert out.shape == frame.shape and not np.array_equal(out, frame)
    assert np.array_equal(frame, scene()[0])


def test_annotate_labels_stay_in_the_image_and_grow_with_the_tiles() -> None:
    """A label stands above its box, off the tile's face (一萬, 二萬 and 三萬 differ at their top, which a label inside
    hid: a review), below it where a box runs off the top of the image, and a phone photo's big tile gets
    bigger letters than a table frame's small one (each a box on plain grey; the label is black on white)."""
    grey = np.full((400, 600, 3), 128, np.uint8)

    def label_pixels(obb: list[float], up: bool = True, score: float = 0.9) -> np.ndarray:
        one = np.zeros((1, 3), np.int16)
        dets = Detections(np.array([obb], np.float32), np.array([int(Tile.from_code("5p"))], np.int16),
                          np.array([up]), np.array([score], np.float32), one + int(Tile.from_code("5p")),
                          np.array([[score, 0, 0]], np.float32), (600, 400))
        return annotate(grey, dets).max(axis=2) < 70  # the letters' dark core (the box's lines are bright)

    off_top = label_pixels([100, 10, 80, 110, 0])  # its top edge at y = -45, its foot at 65
    assert off_top[66:110, 60:140].any() and not off_top[:66, :].any() and not off_top[110:, :].any()
    small, big = label_pixels([300, 200, 30, 40, 0]), label_pixels([300, 200, 200, 260, 0])
    assert big.sum() > 4 * small.sum() > 0
    rows = np.nonzero(big.any(axis=1))[0]
    assert not big[200 - 130:200 + 130, 200:400].any() and rows.max() > 200 + 130  # none of it on the tile: its
    # label below it, with no room above (70 px)
    def width(mask: np.ndarray) -> int:
        cols = np.nonzero(mask.any(axis=0))[0]
        return int(cols.max() - cols.min())

    assert width(label_pixels([300, 200, 30, 40, 0], score=0.3)) > width(small)  # "5p?" against "5p"
    assert width(label_pixels([300, 200, 30, 40, 0], up=False, score=0.3)) == width(small)  # a back: no "?"
    # a big unsure face says so too, and its box is orange, not the sure ones' green
    assert width(label_pixels([300, 200, 200, 260, 0], score=0.3)) > width(big)
    for score, want in ((0.3, UNSURE_BGR), (0.9, (40, 200, 40))):
        one = np.zeros((1, 3), np.int16) + int(Tile.P5)
        dets = Detections(np.array([[300, 200, 200, 260, 0]], np.float32), np.array([int(Tile.P5)], np.int16),
                          np.array([True]), np.array([score], np.float32), one,
                          np.array([[score, 0, 0]], np.float32), (600, 400))
        drawn = annotate(grey, dets)
        assert tuple(int(v) for v in drawn[330, 300]) == want  # the box's bottom edge


def test_annotate_legend_says_what_each_colour_and_mark_shown_means() -> None:
    """A strip under the picture (the picture itself untouched) lists the colours and marks it uses, and only those:
    a sure face and a back, no unsure face; the hand's winning tile ``*``, no repaired ``!``."""
    from companion.vision.read import BACK_BGR, SURE_BGR, legend_entries

    grey = np.full((400, 600, 3), 128, np.uint8)
    kinds = np.array([int(Tile.P5), int(Tile.P5)], np.int16)
    dets = Detections(np.array([[150, 200, 200, 260, 0], [450, 200, 200, 260, 0]], np.float32), kinds,
                      np.array([True, False]), np.array([0.9, 0.9], np.float32), np.stack([kinds] * 3, axis=1),
                      np.array([[0.9, 0, 0]] * 2, np.float32), (600, 400))
    names = ["5p*", "0x"]
    drawn, plain = annotate(grey, dets, names, legend=True), annotate(grey, dets, names)
    assert drawn.shape[1] == 600 and drawn.shape[0] > 400 and np.array_equal(drawn[:400], plain)
    strip = drawn[400:]
    assert (strip.min(axis=2) < 60).sum() > 500  # words in it
    colours = {tuple(int(v) for v in px) for px in strip.reshape(-1, 3)}
    assert SURE_BGR in colours and BACK_BGR in colours and UNSURE_BGR not in colours
    entries = legend_entries(dets, names, scored=True)
    assert [e.mark for e in entries if e.mark] == ["*", "0.97"]
    assert all(e.zh and e.en and e.zh != e.en for e in entries)
    unsure = Detections(dets.obb, kinds, np.array([True, True]), np.array([0.3, 0.9], np.float32),
                        dets.top3_kind, dets.top3_score, (600, 400))
    assert [e.mark for e in legend_entries(unsure, ["5p?", "5p!"], scored=False) if e.mark] == ["?", "!"]
    assert annotate(grey, dets.take(np.zeros(2, bool)), legend=True).shape == grey.shape  # nothing read: no legend


def test_a_legend_entry_wider_than_a_narrow_photo_goes_on_over_lines() -> None:
    """A review's 400 px photo lost the end of "number: how sure the reading is": an entry is cut at spaces and
    between Chinese characters onto lines of its own, and no words reach the strip's edge."""
    from companion.vision.legend import Entry, legend_strip
    from companion.vision.read import SURE_BGR

    long = Entry("數字是讀牌的把握度（滿分 1）", "number: how sure the reading is (1 = sure)", mark="0.97")
    one = legend_strip(400, [Entry("正面朝上的牌", "face up", SURE_BGR)])  # a line
    narrow = legend_strip(400, [Entry("正面朝上的牌", "face up", SURE_BGR), long])
    assert narrow.shape[0] > 2 * one.shape[0]  # three lines
    ink = narrow[1:].min(axis=2) < 100  # (the top rule aside)
    assert ink.any() and not ink[:, -6:].any() and not ink[:, :4].any()


def test_cli_reads_photos_and_reports_bad_files(tmp_path, capsys) -> None:
    frame, _ = scene()
    good = tmp_path / "table.png"
    cv2.imwrite(str(good), frame)
    bad = tmp_path / "broken.jpg"
    bad.write_bytes(b"\xff\xd8\xff\xe0 not really a jpeg")
    out = tmp_path / "seen.png"
    code = main(["read", str(good), str(bad), str(tmp_path / "missing.png"), "--json", "--annotate", str(out),
                 "--threads", "1"])
    lines = [json.loads(x) for x in capsys.readouterr().out.strip().splitlines()]
    assert code == 1
    assert lines[0]["file"] == str(good) and len(lines[0]["tiles"]) >= len(ROW)
    assert {"tile", "xyxy", "angle", "score", "top3"} <= set(lines[0]["tiles"][0])
    # the error object companion score gives (a review's script had to tell read's string from score's object)
    missing = str(tmp_path / "missing.png")
    assert lines[2] == {"file": missing, "error": {"message": f"{missing}: no such file",
                                                   "message_zh": f"{missing}：找不到這個檔案"}}
    assert set(lines[1]["error"]) == {"message", "message_zh"} and "broken.jpg" in lines[1]["error"]["message"]
    assert "broken.jpg" in lines[1]["error"]["message_zh"] and "圖檔" in lines[1]["error"]["message_zh"]
    assert (tmp_path / "seen-1.png").is_file()
    # in reading order: the row of faces left to right, and the backs (a row of their own) not among them
    faces = [i for i, t in enumerate(lines[0]["tiles"]) if t["tile"] != "0x"]
    xs = [lines[0]["tiles"][i]["xyxy"][0] for i in faces]
    assert xs == sorted(xs) and faces == list(range(faces[0], faces[0] + len(faces)))


def test_cli_reads_a_phone_photo_over_the_pixel_limit_and_gives_boxes_in_its_own_pixels(tmp_path, capsys) -> None:
    from companion.vision.image_file import MAX_PIXELS

    frame, _ = scene()
    h, w = frame.shape[:2]
    k = math.ceil(math.sqrt(MAX_PIXELS / (w * h))) + 1  # a 48-50 MP photo of the same table
    small, big = tmp_path / "table.jpg", tmp_path / "table-48mp.jpg"
    cv2.imwrite(str(small), frame, [cv2.IMWRITE_JPEG_QUALITY, 95])
    cv2.imwrite(str(big), cv2.resize(frame, (w * k, h * k), interpolation=cv2.INTER_CUBIC),
                [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert w * k * h * k > MAX_PIXELS
    assert main(["read", str(small), str(big), "--json", "--threads", "1"]) == 0
    one, large = (json.loads(x)["tiles"] for x in capsys.readouterr().out.strip().splitlines())
    assert len(large) >= len(ROW)
    centre = lambda t: ((t["xyxy"][0] + t["xyxy"][2]) / 2, (t["xyxy"][1] + t["xyxy"][3]) / 2)  # noqa: E731
    width = k * float(np.median([t["xyxy"][2] - t["xyxy"][0] for t in one]))
    near = [min(math.dist(centre(b), (k * centre(a)[0], k * centre(a)[1])) for a in one) for b in large]
    assert sum(d < 0.3 * width for d in near) >= len(ROW)  # where the same tiles lie, k times as far out


def test_cli_annotate_checks_its_file_type_first_and_gives_a_bare_name_png(tmp_path, capsys) -> None:
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), np.full((120, 160, 3), 90, np.uint8))
    assert main(["read", str(photo), "--annotate", str(tmp_path / "seen.txt"), "--threads", "1"]) == 2
    assert "cannot write .txt images" in capsys.readouterr().err and not (tmp_path / "seen.txt").exists()
    assert main(["read", str(photo), "--annotate", str(tmp_path / "seen"), "--threads", "1"]) == 0
    assert (tmp_path / "seen.png").is_file()
    assert main(["read", str(photo), str(photo), "--annotate", str(tmp_path / "two"), "--threads", "1"]) == 0
    assert (tmp_path / "two-1.png").is_file() and (tmp_path / "two-2.png").is_file()


def test_cli_annotate_never_draws_over_a_photo(tmp_path, capsys) -> None:
    """A review's ``--annotate`` named the photo it read, which the drawing replaced; the same file under another
    name too. Refused before any photo is read, in both languages."""
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), np.full((120, 160, 3), 90, np.uint8))
    other = tmp_path / "again.png"
    os.link(photo, other)
    before = photo.read_bytes()
    for out in (photo, other, tmp_path / "." / "table.png"):
        assert main(["read", str(photo), "--annotate", str(out), "--threads", "1"]) == 2
        err = capsys.readouterr().err
        assert "would write over the photo" in err and "會蓋掉照片" in err
    assert main(["read", str(other), str(photo), "--annotate", str(tmp_path / "table"), "--threads", "1"]) == 0
    capsys.readouterr()  # table-1.png, table-2.png: neither is a photo
    assert photo.read_bytes() == before and (tmp_path / "table-2.png").is_file()
    assert main(["read", str(photo), "--annotate", str(tmp_path / "gone" / "a.png"), "--threads", "1"]) == 2
    assert "does not exist" in capsys.readouterr().err
    second = tmp_path / "shot-2.png"  # the second photo's drawing, OUT-2.png, would be the second photo itself
    second.write_bytes(before)
    assert main(["read", str(photo), str(second), "--annotate", str(tmp_path / "shot.png"), "--threads", "1"]) == 2
    assert "would write over the photo" in capsys.readouterr().err and second.read_bytes() == before


def test_cli_annotate_dash_is_refused_not_written_as_a_file(tmp_path, capsys, monkeypatch) -> None:
    """``--annotate -`` (standard output, as ``-`` usually means) drew a file named ``-.png`` where the command ran (a
    review); ``read`` and ``score`` refuse it before reading, in both languages, and write nothing."""
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), np.full((120, 160, 3), 90, np.uint8))
    monkeypatch.chdir(tmp_path)
    for command, said in ((["read"], ("standard output", "標準輸出")), (["score", "--lang", "en"], ("standard output",)),
                          (["score", "--lang", "zh"], ("標準輸出",))):
        assert main([*command, str(photo), "--json", "--annotate", "-", "--threads", "1"]) == 2
        captured = capsys.readouterr()
        assert all(s in captured.err for s in said) and captured.out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table.png"]


def test_cli_text_marks_unsure_faces(tmp_path, capsys, monkeypatch) -> None:
    """The text reading marks a face-up tile scored under DOUBTFUL with "?" and explains the mark once; a back
    (whose score is the detector's) is not marked."""
    from companion.commands.read import UNSURE
    from companion.vision.read import DOUBTFUL

    photo = tmp_path / "hand.png"
    cv2.imwrite(str(photo), np.full((200, 300, 3), 90, np.uint8))
    obb = np.array([[50 + 40 * i, 100, 30, 40, 0] for i in range(3)], np.float32)
    low = DOUBTFUL - 0.1
    dets = Detections(obb, np.array([0, 1, int(Tile.UNKNOWN)], np.int16), np.array([True, True, False]),
                      np.array([0.9, low, low], np.float32), np.array([[0, 1, 2], [1, 2, 3], [42, 0, 1]], np.int16),
                      np.array([[0.9, 0.05, 0.01], [low, 0.2, 0.1], [1.0, 0.0, 0.0]], np.float32), (300, 200))
    monkeypatch.setattr(TileReader, "read", lambda self, image, tiled=False: dets)
    assert main(["read", str(photo), "--threads", "1", "--no-calibration"]) == 0
    out = capsys.readouterr().out
    assert "tiles: 1m 2m? 0x (" in out and out.count(UNSURE) == 1
    assert main(["read", str(photo), "--threads", "1", "--no-calibration", "--json"]) == 0  # the same mark, as a key
    tiles = json.loads(capsys.readouterr().out)["tiles"]
    assert [(t["tile"], t["unsure"]) for t in tiles] == [("1m", False), ("2m", True), ("0x", False)]


def test_reading_order_is_rows_from_the_top_each_left_to_right() -> None:
    from companion.vision.read import reading_order

    # two rows of 30x40 tiles, the lower one slanted by 12 px across 4 tiles (a hand photographed askew)
    top = [[50 + 32 * i, 100, 30, 40, 0] for i in range(5)]
    low = [[50 + 32 * i, 200 + 4 * i, 30, 40, 0] for i in range(4)]
    boxes = np.array(top + low, np.float32)
    rng = np.random.default_rng(3)
    for _ in range(5):
        perm = rng.permutation(len(boxes))
        assert perm[reading_order(boxes[perm])].tolist() == list(range(len(boxes)))
    assert reading_order(np.zeros((0, 5), np.float32)).tolist() == []
    # a long row photographed turned by up to 15 degrees either way still reads as one row, left to right
    for deg in (-15, -8, 6, 10, 15):
        t = math.radians(deg)
        row = np.array([[400 + 32 * (i - 8) * math.cos(t), 300 - 32 * (i - 8) * math.sin(t), 30, 40, deg]
                        for i in range(16)], np.float32)
        perm = rng.permutation(len(row))
        assert perm[reading_order(row[perm])].tolist() == list(range(16)), deg
    # a tile lying sideways in a row of upright ones stays in it
    sideways = np.array([[50, 100, 30, 40, 0], [85, 104, 30, 40, 90], [120, 100, 30, 40, 0]], np.float32)
    assert reading_order(sideways[::-1]).tolist() == [2, 1, 0]
    # the winning tile set apart at the hand's end, too far along to chain to it and a pixel higher, reads after
    # the hand, not before it; the melds' row in front of the hand after both
    hand = [[50 + 32 * i, 101, 30, 40, 0] for i in range(8)]
    apart = [[50 + 32 * 7 + 90, 100, 30, 40, 0]]
    melds = [[50 + 32 * i, 160, 30, 40, 0] for i in range(6)]
    laid = np.array(hand + apart + melds, np.float32)
    for _ in range(5):
        perm = rng.permutation(len(laid))
        assert perm[reading_order(laid[perm])].tolist() == list(range(len(laid)))


def test_detections_in_reading_order_keep_each_tile_whole() -> None:
    obb = np.array([[200, 50, 30, 40, 0], [100, 50, 30, 40, 0], [150, 150, 30, 40, 0]], np.float32)
    dets = Detections(obb, np.array([3, 5, 7], np.int16), np.array([True, False, True]),
                      np.array([0.9, 0.8, 0.7], np.float32), np.array([[3, 4, 5], [5, 6, 7], [7, 8, 0]], np.int16),
                      np.array([[0.9, 0.05, 0.01], [0.8, 0.1, 0.05], [0.7, 0.2, 0.1]], np.float32), (300, 200))
    got = dets.in_reading_order()
    assert got.kind.tolist() == [5, 3, 7] and got.face_up.tolist() == [False, True, True]
    assert got.top3_kind[:, 0].tolist() == [5, 3, 7] and got.score.tolist() == pytest.approx([0.8, 0.9, 0.7])
    assert got.obb[:, 0].tolist() == [100, 200, 150] and got.image_size == (300, 200)


def test_xyxy_is_clipped_to_the_image() -> None:
    obb = np.array([[5.0, 5.0, 20.0, 30.0, 0.0]], np.float32)
    d = Detections(obb, np.array([4], np.int16), np.array([True]), np.array([0.9], np.float32),
                   np.array([[4, 5, 6]], np.int16), np.array([[0.9, 0.05, 0.01]], np.float32), (100, 80))
    assert d.xyxy.tolist() == [[0.0, 0.0, 15.0, 20.0]]
    assert d.to_json()[0]["xyxy"] == [0.0, 0.0, 15.0, 20.0]


def test_face_down_boxes_far_bigger_than_the_tiles_near_them_are_dropped() -> None:
    from companion.vision.read import GIANT, GIANT_FROM, _giants

    def boxes(n: int, x0: float, y: float, w: float, h: float) -> list[list[float]]:
        return [[x0 + (w + 5) * i, y, w, h, 0.0] for i in range(n)]

    scale = 1.5  # 2.25x the area: above GIANT
    assert scale * scale > GIANT
    tiles = boxes(GIANT_FROM, 100.0, 100.0, 40.0, 55.0)
    phone = boxes(1, 200.0, 170.0, 40.0 * scale, 55.0 * scale)
    obb = np.array(tiles + phone + phone, np.float32)
    face_down = np.array([False] * GIANT_FROM + [True, False])
    kept = np.ones(len(obb), bool)
    assert _giants(obb, face_down, kept).tolist() == [False] * GIANT_FROM + [True, False]  # face up stays
    few = np.zeros(len(obb), bool)
    few[: GIANT_FROM - 2] = True
    few[GIANT_FROM] = True  # the phone and too few tiles to know their size: nothing dropped
    assert few.sum() < GIANT_FROM and not _giants(obb, face_down, few).any()


def test_near_tiles_of_a_photo_from_a_seat_are_not_giants() -> None:
    """Far discards small, the near wall face down and 1.5x as big: the wall is measured against itself."""
    from companion.vision.read import _giants

    far = [[100.0 + 45 * i, 100.0, 40.0, 55.0, 0.0] for i in range(12)]
    wall = [[100.0 + 67 * i, 600.0, 62.0, 84.0, 0.0] for i in range(10)]
    obb = np.array(far + wall, np.float32)
    face_down = np.array([False] * 12 + [True] * 10)
    assert not _giants(obb, face_down, np.ones(len(obb), bool)).any()
    # the known limit: one near face-down tile alone among far small ones is taken for a prop
    lone = np.array(far + wall[:1], np.float32)
    assert _giants(lone, np.array([False] * 12 + [True]), np.ones(13, bool)).tolist() == [False] * 12 + [True]


def test_unsure_boxes_are_read_again_turned_and_the_surest_turn_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.vision.detect import Boxes
    from companion.vision.read import RETRY_STEP

    reader = TileReader(detector_threads=1, classifier_threads=1)
    names = reader.classifier.info.class_names
    n_cls = len(names)
    boxes = Boxes(np.array([[50, 50, 30, 40, 10.0], [150, 50, 30, 40, 0.0]], np.float32), np.array([True, True]),
                  np.array([0.9, 0.9], np.float32))
    first = np.zeros((2, n_cls), np.float32)
    first[0, names.index("unknown")] = 1.0  # box 0: cut sideways, "not a tile"
    first[1, names.index("5p")] = 0.95  # box 1: sure, not read again
    first[1, names.index("unknown")] = 0.05
    calls: list[int] = []

    def fake(crops: list[np.ndarray], reread: bool | None = None) -> np.ndarray:
        calls.append(len(crops))
        out = np.zeros((len(crops), n_cls), np.float32)
        out[:, names.index("unknown")] = 1.0
        out[2] = 0.0  # the third turn (3 x RETRY_STEP) reads as a sure 7m
        out[2, names.index("7m")] = 0.9
        out[2, names.index("unknown")] = 0.1
        return out

    monkeypatch.setattr(reader.classifier, "probabilities", fake)
    got, probs = reader._retry_turned(np.zeros((200, 200, 3), np.uint8), boxes, first)
    assert calls == [360 // RETRY_STEP - 1]  # only box 0, in every other turn
    assert got.obb[0, 4] == pytest.approx(10.0 + 3 * RETRY_STEP) and got.obb[1, 4] == 0.0
    assert names[int(np.argmax(probs[0]))] == "7m" and names[int(np.argmax(probs[1]))] == "5p"


def test_a_face_down_box_not_of_the_backs_colour_is_dropped() -> None:
    from companion.vision.read import _odd_backs, back_colours

    img = np.full((120, 400, 3), (40, 110, 30), np.uint8)  # green felt
    boxes = []
    for i in range(6):
        x = 30 + 60 * i
        colour = (160, 90, 30) if i != 4 else (150, 120, 230)  # blue backs; a pink cup at i = 4
        img[40:80, x - 15:x + 15] = colour
        boxes.append([x, 60, 30, 40, 15.0 * i])
    obb = np.array(boxes, np.float32)
    lab = back_colours(img, obb)
    assert lab.shape == (6, 3) and np.ptp(lab[[0, 1, 2, 3, 5]], axis=0).max() < 2
    assert back_colours(img, obb[:0]).shape == (0, 3)
    down, tiles = np.ones(6, bool), np.ones(6, bool)
    assert list(np.nonzero(_odd_backs(img, obb, down, tiles))[0]) == [4]
    assert not _odd_backs(img, obb[3:], down[3:], tiles[3:]).any()  # too few backs to know their colour
    tiles[4] = False  # already dropped (e.g. read "not a tile"): nothing to do
    assert not _odd_backs(img, obb, down, tiles).any()


def test_upright_crops_match_a_warp_per_box_and_come_in_parts_when_many() -> None:
    rng = np.random.default_rng(4)
    img = rng.integers(0, 255, (300, 400, 3), dtype=np.uint8)
    obb = np.column_stack([rng.uniform(20, 380, 40), rng.uniform(20, 280, 40), rng.uniform(5, 150, 40),
                           rng.uniform(5, 200, 40), rng.uniform(-180, 180, 40)]).astype(np.float32)
    crops = upright_crops(img, obb)
    for box, quad, crop in zip(obb, obb_corners(obb), crops, strict=True):
        w = int(np.clip(round(float(box[2])), 12, 120))
        h = int(np.clip(round(float(box[3])), 16, 160))
        m = cv2.getPerspectiveTransform(quad.astype(np.float32), np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32))
        want = cv2.warpPerspective(img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        assert crop.shape == want.shape
        assert np.abs(crop.astype(int) - want.astype(int)).max() <= 2
    many = np.tile(np.array([[200, 150, 120, 160, 30.0]], np.float32), (400, 1))  # 64,000 rows: in parts
    parts = upright_crops(img, many)
    assert len(parts) == 400 and all(np.array_equal(p, parts[0]) for p in parts)
    assert upright_crops(img, obb[:0]) == []


def test_a_box_the_detector_found_face_down_is_read_as_a_back() -> None:
    from companion.vision.read import backs_face_down

    kind_of = np.array([int(Tile.Z5), int(Tile.M1), int(Tile.UNKNOWN), -1], np.int16)  # 5z 1m 0x unknown
    probs = np.array([[0.8, 0.05, 0.1, 0.05],   # face down, read as a blank white dragon
                      [0.8, 0.05, 0.1, 0.05],   # the same reading face up: a white dragon
                      [0.1, 0.0, 0.1, 0.8],     # face down, not a tile (a chip): stays not a tile
                      [0.3, 0.3, 0.0, 0.4],     # face down, "not a tile" best though the tiles sum higher
                      [0.12, 0.1, 0.08, 0.1]],  # face down, no reading reaches reject_below: left to be dropped
                     np.float32)
    down = np.array([True, False, True, True, True])
    got = backs_face_down(probs, down, kind_of, reject_below=0.15)
    assert got[0] == pytest.approx([0.0, 0.0, 0.95, 0.05])
    for i in (1, 2, 3, 4):
        assert got[i] == pytest.approx(probs[i])
    assert probs[0, 0] == pytest.approx(0.8)  # the input is not changed
    no_back = kind_of.copy()
    no_back[2] = int(Tile.M2)  # a model without a back class: nothing to move the reading to
    assert backs_face_down(probs, down, no_back) is probs


def test_the_reader_takes_face_up_or_down_from_the_detector(reader: TileReader,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    frame, _ = scene(face_down=3)
    names = reader.classifier.info.class_names

    def blank(crops: list[np.ndarray], reread: bool | None = None) -> np.ndarray:  # every crop looks like a blank face: a 5z or a back
        out = np.zeros((len(crops), len(names)), np.float32)
        out[:, names.index("5z")] = 0.7
        out[:, names.index("0x")] = 0.3
        return out

    monkeypatch.setattr(reader.classifier, "probabilities", blank)
    dets = reader.read(frame)
    down = ~dets.face_up
    assert down.sum() >= 2 and dets.face_up.sum() >= 6
    assert all(Tile(int(k)) == Tile.UNKNOWN for k in dets.kind[down])
    assert all(Tile(int(k)) == Tile.Z5 for k in dets.kind[dets.face_up])


def test_unsure_crops_are_read_again_in_photos_and_not_in_live_frames(reader: TileReader,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    frame, _ = scene()
    asked: list[bool | None] = []
    real = reader.classifier.probabilities

    def spy(crops: list[np.ndarray], reread: bool | None = None) -> np.ndarray:
        asked.append(reread)
        return real(crops, reread)

    monkeypatch.setattr(reader.classifier, "probabilities", spy)
    reader.read(frame)
    assert asked and not any(asked)  # a live frame: the next frames read each tile again anyway
    asked.clear()
    monkeypatch.setattr(reader, "way_up", False)  # (the rows' way-up look weighs re-read readings: it re-reads too,
    monkeypatch.setattr(reader, "sideways", False)  # and so does the look across the rows at unsure boxes)
    reader.read(frame, tiled=True)
    assert asked[0] is True and not any(asked[1:])  # a photo is read once; turned retries are views already
    asked.clear()
    monkeypatch.setattr(reader, "reread", True)
    reader.read(frame)
    assert asked[0] is True


@pytest.mark.parametrize("angle", [0.0, 30.0, 45.0, 90.0, 135.0])
def test_the_share_of_a_box_inside_others_matches_their_polygons(angle: float) -> None:
    """The grid's share of box A inside box B is the area of their intersection over A's (computed on the
    corners of obb_corners), at any angle, B at A's angle or not."""
    from companion.vision.read import _inside_each, grid_points

    a = np.array([[100, 100, 40, 60, angle]], np.float32)
    x, y = grid_points(a, 21)
    poly_a = obb_corners(a)[0].astype(np.float32)
    rng = np.random.default_rng(int(angle))
    for _ in range(12):
        b = np.array([[100 + rng.uniform(-40, 40), 100 + rng.uniform(-40, 40), rng.uniform(20, 60),
                       rng.uniform(20, 70), angle + rng.choice([0.0, 90.0, rng.uniform(-40, 40)])]], np.float32)
        area, _ = cv2.intersectConvexConvex(poly_a, obb_corners(b)[0].astype(np.float32))
        assert _inside_each(x, y, b.astype(np.float64)).mean() == pytest.approx(area / (40 * 60), abs=0.06)


def test_a_face_up_box_inside_surer_ones_is_dropped_but_not_a_back_or_a_sure_one() -> None:
    from companion.vision.read import _covered

    obb = np.array([[100, 100, 40, 60, 0],   # a tile, sure
                    [100, 100, 20, 30, 0],   # a part of it found again, less sure: dropped
                    [100, 95, 20, 30, 0],    # another part, face down: left alone
                    [300, 100, 40, 60, 0],   # a tile
                    [280, 100, 40, 60, 0],   # boxes half on it, one each side: half covered, kept
                    [320, 100, 40, 60, 0]],
                   np.float32)
    score = np.array([0.9, 0.5, 0.4, 0.9, 0.6, 0.3], np.float32)
    up = np.array([True, True, False, True, True, True])
    tiles = np.ones(6, bool)
    assert _covered(obb, score, up, tiles).tolist() == [False, True, False, False, False, False]
    # the sure tile read as "not a tile": it covers nothing, and its part stays
    assert not _covered(obb, score, up, np.array([False, True, True, True, True, True]))[1]
    # the same three boxes, the middle one least sure: half inside each neighbour, so dropped, at any angle
    for angle in (0.0, 30.0, 45.0):
        t = np.radians(angle)
        step = 20 * np.array([np.cos(t), -np.sin(t)])  # along the row: across the boxes
        row = np.array([[*(np.array([300, 100]) + k * step), 40, 60, angle] for k in (-1, 1, 0)], np.float32)
        got = _covered(row, np.array([0.9, 0.8, 0.3], np.float32), np.ones(3, bool), np.ones(3, bool))
        assert got.tolist() == [False, False, True], angle
        # a row of tiles side by side at that angle, touching: none is covered
        side = np.array([[*(np.array([300, 100]) + k * 2 * step), 40, 60, angle] for k in range(-2, 3)],
                        np.float32)
        assert not _covered(side, np.linspace(0.9, 0.5, 5).astype(np.float32), np.ones(5, bool),
                            np.ones(5, bool)).any(), angle
        # two surer boxes on the same half of a box: the union is half of it, not the sum of their shares
        # (the second of them, wholly inside the first, is the one dropped)
        twice = np.array([row[0], row[0], row[2]], np.float32)
        got = _covered(twice, np.array([0.9, 0.8, 0.3], np.float32), np.ones(3, bool), np.ones(3, bool))
        assert got.tolist() == [False, True, False], angle
        # ... and with the duplicate face down (never dropped itself), the third box is still half covered
        got = _covered(twice, np.array([0.9, 0.8, 0.3], np.float32), np.array([True, False, True]), np.ones(3, bool))
        assert got.tolist() == [False, False, False], angle
    # turned 45 degrees, a surer box moved 12 px across: 0.7 of the box under it, kept (a projection turned
    # the wrong way would put it 12 px down the box instead: 0.8, dropped)
    t = np.radians(45.0)
    pair = np.array([[300 + 12 * np.cos(t), 100 - 12 * np.sin(t), 40, 60, 45], [300, 100, 40, 60, 45]], np.float32)
    assert not _covered(pair, np.array([0.9, 0.5], np.float32), np.ones(2, bool), np.ones(2, bool)).any()
    pair[0, :2] = [300 + 4 * np.cos(t), 100 - 4 * np.sin(t)]  # 4 px across: 0.9 under it, dropped
    assert _covered(pair, np.array([0.9, 0.5], np.float32), np.ones(2, bool), np.ones(2, bool)).tolist() == \
        [False, True]


def test_cli_says_once_that_no_tile_set_is_calibrated(tmp_path, capsys, monkeypatch) -> None:
    from companion.commands.read import NO_CALIBRATION

    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    frame, _ = scene()
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), frame)
    assert main(["read", str(photo), str(photo), "--threads", "1", "--single-pass"]) == 0
    err = capsys.readouterr().err
    assert err.count(NO_CALIBRATION) == 1 and "companion calibrate" in err and "校正" in err
    assert main(["read", str(photo), "--threads", "1", "--single-pass", "--no-calibration"]) == 0
    assert NO_CALIBRATION not in capsys.readouterr().err


def test_cli_names_the_calibrated_sets_when_none_is_selected(tmp_path, capsys, monkeypatch) -> None:
    from companion.commands.read import NO_CALIBRATION
    from companion.vision import calibration

    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    crop = cv2.resize(scene()[0][:160, :120], (60, 80))
    calibration.save(calibration.Calibration.from_crops("home", [(Tile.M1, crop)]))
    (calibration.calibration_dir() / "current.txt").unlink(missing_ok=True)  # saved, not selected
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), scene()[0])
    assert main(["read", str(photo), "--threads", "1", "--single-pass"]) == 0
    err = capsys.readouterr().err
    assert "none is selected" in err and "(home)" in err and "未選用" in err and NO_CALIBRATION not in err


def test_cli_says_the_selected_set_is_gone_when_its_file_was_removed(tmp_path, capsys, monkeypatch) -> None:
    from companion.vision import calibration

    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    crop = cv2.resize(scene()[0][:160, :120], (60, 80))
    for name in ("club", "home"):
        calibration.save(calibration.Calibration.from_crops(name, [(Tile.M1, crop)]))
    calibration.select("home")
    (calibration.calibration_dir() / "home.npz").unlink()  # removed outside the product
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), scene()[0])
    assert main(["read", str(photo), "--threads", "1", "--single-pass"]) == 0
    err = capsys.readouterr().err
    assert "“home” is no longer saved" in err and "已不在" in err and "none is selected" not in err
    assert main(["calibrate", "list"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "  club  (1 kind / 1 種牌)" and "“home” is no longer saved" in out and "已不在" in out


def test_the_backs_colour_comes_from_the_rows_near_each_box() -> None:
    """Two walls whose backs differ in chroma (light across the table) and, between them, more squares of a
    blue cloth that the detector took for backs than either wall has boxes. The median of all the boxes is
    neither wall's colour; each box is judged by the rows near it."""
    from companion.vision.read import BACK_CHROMA, _odd_backs, back_colours

    img = np.full((400, 640, 3), (120, 120, 120), np.uint8)  # grey cloth ...
    boxes, colours = [], []
    for row_y, colour in ((40, (60, 150, 90)), (360, (40, 170, 150))):  # two walls of green backs, 6 each
        for i in range(6):
            boxes.append([40 + 31 * i, row_y, 30, 40, 0.0])
            colours.append(colour)
    for i in range(14):  # ... with blue squares, never side by side: two widths apart
        boxes.append([300 + 62 * (i % 5), 120 + 80 * (i // 5), 30, 40, 0.0])
        colours.append((200, 60, 20))
    for (x, y, w, h, _), colour in zip(boxes, colours, strict=True):
        img[int(y - h / 2):int(y + h / 2), int(x - w / 2):int(x + w / 2)] = colour
    obb = np.array(boxes, np.float32)
    ab = back_colours(img, obb)[:, 1:]
    assert np.hypot(*(ab[0] - ab[6])) > BACK_CHROMA  # the walls' chroma differs more than the rule allows
    everywhere = np.hypot(*(ab - np.median(ab, axis=0)).T) > BACK_CHROMA
    assert everywhere[:12].any()  # the first rule (one median of all) dropped real backs
    down = np.ones(len(obb), bool)
    odd = _odd_backs(img, obb, down, down.copy())
    assert not odd[:12].any() and odd[12:].all()


def test_a_box_showing_the_backs_colour_above_or_below_its_middle_is_a_back() -> None:
    """A wall of six green backs and three more boxes read as backs: a standing tile's outline, whose middle
    shows its cream body and whose upper part its green back (kept); the same outline turned upside down, the
    back in its lower part (kept); and a blue chip with a cream middle (dropped: no part of it is green)."""
    from companion.vision.read import BACK_CHROMA, BACK_PARTS, _odd_backs, back_colours

    img = np.full((300, 500, 3), (120, 120, 120), np.uint8)
    green, cream, blue = (60, 150, 90), (200, 230, 240), (200, 60, 20)
    boxes = [[40 + 31 * i, 60, 30, 40, 0.0] for i in range(6)]
    for x, y, w, h, _ in boxes:
        img[int(y - h / 2):int(y + h / 2), int(x - w / 2):int(x + w / 2)] = green
    for x, top, bottom in ((300, green, cream), (360, cream, green), (420, blue, blue)):
        img[180:200, x - 15:x + 15] = top  # the upper half of a 40 px tall box centred at y = 200
        img[200:220, x - 15:x + 15] = bottom
        img[192:208, x - 15:x + 15] = cream  # its middle: the body
        boxes.append([x, 200, 30, 40, 0.0])
    obb = np.array(boxes, np.float32)
    ab = back_colours(img, obb)[:, 1:]
    assert np.all(np.hypot(*(ab[6:] - ab[0]).T) > BACK_CHROMA)  # no middle of the three is green
    upper, lower = back_colours(img, obb, BACK_PARTS[1])[:, 1:], back_colours(img, obb, BACK_PARTS[2])[:, 1:]
    assert np.hypot(*(upper[6] - ab[0])) < BACK_CHROMA and np.hypot(*(lower[7] - ab[0])) < BACK_CHROMA
    down = np.ones(len(obb), bool)
    assert _odd_backs(img, obb, down, down.copy()).tolist() == [False] * 8 + [True]


def _blank_table() -> tuple[np.ndarray, np.ndarray]:
    """Grey cloth with a wall of six green backs (boxes 0-5), four cream faces with a red mark (6-9), a blank
    cream face (10), a blue chip (11), a second blank cream face (12) and a patch of the cream's chroma in
    shadow, far darker than the faces beside it (13)."""
    img = np.full((300, 560, 3), (120, 120, 120), np.uint8)
    green, cream, blue = (60, 150, 90), (200, 230, 240), (200, 60, 20)
    boxes = [[40 + 31 * i, 60, 30, 40, 0.0] for i in range(6)] + [[40 + 31 * i, 200, 30, 40, 0.0] for i in range(6)]
    boxes += [[400, 200, 30, 40, 0.0], [440, 200, 30, 40, 0.0]]
    for i, (x, y, w, h, _) in enumerate(boxes):
        colour = green if i < 6 else blue if i == 11 else (95, 110, 115) if i == 13 else cream
        img[int(y - h / 2):int(y + h / 2), int(x - w / 2):int(x + w / 2)] = colour
        if 6 <= i <= 9:
            img[int(y) - 4:int(y) + 4, int(x) - 3:int(x) + 3] = (30, 30, 200)
    return img, np.array(boxes, np.float32)


def test_a_box_read_as_a_back_in_the_faces_colour_shows_a_tile_body() -> None:
    from companion.vision.read import (
        BACK_CHROMA,
        BODY_DARKER,
        BODY_FROM,
        _odd_backs,
        _tile_bodies,
        back_colours,
    )

    img, obb = _blank_table()
    backs = np.zeros(len(obb), bool)
    backs[[0, 1, 2, 3, 4, 5, 10, 11, 12, 13]] = True
    tiles = np.ones(len(obb), bool)
    odd = _odd_backs(img, obb, backs, tiles)
    assert np.nonzero(odd)[0].tolist() == [10, 11, 12, 13]  # the colour rule alone drops the blanks with the chip
    lab = back_colours(img, obb[[6, 13]])
    assert np.hypot(*(lab[1, 1:] - lab[0, 1:])) <= BACK_CHROMA and lab[1, 0] < lab[0, 0] - BODY_DARKER
    assert np.nonzero(_tile_bodies(img, obb, odd, tiles & ~backs))[0].tolist() == [10, 12]
    few = np.zeros(len(obb), bool)
    few[6:6 + BODY_FROM - 1] = True
    assert not _tile_bodies(img, obb, odd, few).any()  # too few faces to know their colour


def test_a_face_up_blank_is_a_white_dragon_and_a_face_down_one_a_tile_body(reader: TileReader,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Boxes read as backs in the faces' colour: the blank found face up is read as ``5z``; the one found face
    down (a standing tile seen from behind shows its body) stays a back; the chip and the dark patch are
    dropped as before."""
    from companion.vision.detect import Boxes

    img, obb = _blank_table()
    names = reader.classifier.info.class_names
    face_up = np.ones(len(obb), bool)
    face_up[[0, 1, 2, 3, 4, 5, 12, 13]] = False
    probs = np.zeros((len(obb), len(names)), np.float32)
    probs[~face_up, names.index("0x")] = 1.0  # the checked backs, unread
    probs[6:10, names.index("5p")] = 0.9
    probs[6:10, names.index("unknown")] = 0.1
    probs[[10, 11], names.index("0x")] = 0.8
    probs[[10, 11], names.index("5z")] = 0.2
    # the check passes every box, but is not sure enough of any to keep it against the colour rule
    monkeypatch.setattr(reader.detector.backs, "probabilities",
                        lambda image, boxes: np.full(len(boxes), 0.9, np.float32))
    dets = reader._combine(Boxes(obb, face_up, np.full(len(obb), 0.9, np.float32)), probs, img)
    got = {(round(float(x)), round(float(y))): str(Tile(int(k))) for (x, y, *_), k in zip(dets.obb, dets.kind, strict=True)}
    assert got[(40 + 31 * 4, 200)] == "5z" and got[(400, 200)] == "0x"
    assert (40 + 31 * 5, 200) not in got and (440, 200) not in got  # the chip and the dark patch
    assert sorted(got.values()).count("0x") == 7 and sorted(got.values()).count("5p") == 4
    i = int(np.nonzero((dets.obb[:, 0] == 40 + 31 * 4) & (dets.obb[:, 1] == 200))[0][0])
    assert Tile(int(dets.top3_kind[i, 0])) == Tile.Z5 and dets.top3_score[i, 0] == pytest.approx(1.0)


def test_a_back_the_check_is_sure_of_stays_whatever_its_colour(reader: TileReader,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The table of :func:`_blank_table`: the dark patch (box 13, found face down: a back in shadow) and the chip
    (box 11, found face up and read as a back) both given ``ODD_SURE`` by the back check. The colour rule drops
    both; the check keeps the patch, and only the patch is asked about again: a face-up box read as a back is a
    blank face or nothing, whatever the check says. Just under ``ODD_SURE`` the patch is dropped too."""
    from companion.vision.detect import Boxes
    from companion.vision.read import ODD_SURE

    img, obb = _blank_table()
    names = reader.classifier.info.class_names
    face_up = np.ones(len(obb), bool)
    face_up[[0, 1, 2, 3, 4, 5, 12, 13]] = False
    probs = np.zeros((len(obb), len(names)), np.float32)
    probs[~face_up, names.index("0x")] = 1.0
    probs[6:10, names.index("5p")] = 1.0
    probs[[10, 11], names.index("0x")] = 1.0
    asked: list[list[int]] = []

    def check(level: float):
        def probabilities(image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
            asked.append(sorted(round(float(x)) for x in boxes[:, 0]))
            return np.full(len(boxes), level, np.float32)
        return probabilities

    def read(level: float) -> dict[tuple[int, int], str]:
        monkeypatch.setattr(reader.detector.backs, "probabilities", check(level))
        dets = reader._combine(Boxes(obb, face_up, np.full(len(obb), 0.9, np.float32)), probs, img)
        return {(round(float(x)), round(float(y))): str(Tile(int(k)))
                for (x, y, *_), k in zip(dets.obb, dets.kind, strict=True)}

    got = read(ODD_SURE)
    assert got[(440, 200)] == "0x" and (40 + 31 * 5, 200) not in got
    assert asked[-1] == [440]  # not the chip, the bodies (10, 12) or the wall's backs
    got = read(float(np.nextafter(np.float32(ODD_SURE), np.float32(0))))
    assert (440, 200) not in got and (40 + 31 * 5, 200) not in got
    assert got[(40 + 31 * 4, 200)] == "5z" and got[(400, 200)] == "0x"  # the blanks as before


def test_a_tile_tied_with_not_a_tile_is_read_as_that_tile(reader: TileReader) -> None:
    """A face-up box whose best tile and "not a tile" have the very same probability (it happened on a
    validation scene: 0.3022 each) is kept, as argmax decides, and keeps that tile's kind: the order of the
    three best readings must break the tie the same way. NumPy's default sort put "not a tile" first for
    ``6z`` and ``3f`` and the reader then failed on a kept box of kind -1."""
    from companion.vision.detect import Boxes

    names = reader.classifier.info.class_names
    obb = np.array([[100 + 40 * i, 100, 30, 40, 0] for i in range(6)], np.float32)
    probs = np.zeros((len(obb), len(names)), np.float32)
    for i, kind in enumerate(["6z", "1m", "9s", "3f", "5p", "7z"]):
        probs[i, names.index(kind)] = probs[i, names.index("unknown")] = 0.4
        probs[i, names.index("2m")] = 0.2
    img = np.full((240, 400, 3), 90, np.uint8)
    dets = reader._combine(Boxes(obb, np.ones(len(obb), bool), np.full(len(obb), 0.9, np.float32)), probs, img)
    assert [str(t) for t in dets.tiles()] == ["6z", "1m", "9s", "3f", "5p", "7z"]
    assert np.all(dets.top3_kind >= 0)


def test_the_three_best_readings_are_three_tiles_without_not_a_tile(reader: TileReader) -> None:
    """A tile read at 0.5 with "not a tile" the runner-up (0.3): its three best readings are the three best
    tiles, three kinds with their own probabilities. (They were once the tile, then the tile again with the
    probability of "not a tile", which ``companion read --json`` printed as a second guess.)"""
    from companion.vision.detect import Boxes

    names = reader.classifier.info.class_names
    probs = np.zeros((1, len(names)), np.float32)
    for name, p in [("7p", 0.5), ("unknown", 0.3), ("9p", 0.12), ("1p", 0.05), ("2p", 0.03)]:
        probs[0, names.index(name)] = p
    obb = np.array([[100, 100, 30, 40, 0]], np.float32)
    img = np.full((200, 200, 3), 90, np.uint8)
    dets = reader._combine(Boxes(obb, np.ones(1, bool), np.full(1, 0.9, np.float32)), probs, img)
    assert [str(Tile(int(k))) for k in dets.top3_kind[0]] == ["7p", "9p", "1p"]
    np.testing.assert_allclose(dets.top3_score[0], [0.5, 0.12, 0.05], rtol=1e-6)
    assert dets.to_json()[0]["top3"] == [{"tile": "7p", "score": 0.5}, {"tile": "9p", "score": 0.12},
                                         {"tile": "1p", "score": 0.05}]


@settings(max_examples=60)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 43), st.sampled_from([0.3, 0.4, 0.5]), st.booleans(),
                          st.lists(st.sampled_from([0.0, 0.05, 0.1]), min_size=44, max_size=44)),
                min_size=1, max_size=12))
def test_whatever_the_classifier_says_every_kept_box_is_a_tile(reader: TileReader, rows) -> None:
    """Rows of probabilities whose best column (a tile, the back or "not a tile") is often tied with "not a
    tile", face up or down at random: the reader's last step never keeps a box without a tile kind, and its
    scores and top-3 are proper."""
    from companion.vision.detect import Boxes

    names = reader.classifier.info.class_names
    assert len(names) == 44
    probs = np.array([rest for *_, rest in rows], np.float32)
    for i, (_, best, top, tie, _) in enumerate(rows):
        probs[i, best] = top
        if tie:
            probs[i, names.index("unknown")] = top
    face_up = np.array([up for up, *_ in rows], bool)
    obb = np.array([[60 + 45 * (i % 6), 60 + 60 * (i // 6), 30, 40, 0] for i in range(len(rows))], np.float32)
    img = np.full((200, 340, 3), 90, np.uint8)
    dets = reader._combine(Boxes(obb, face_up, np.full(len(obb), 0.9, np.float32)), probs, img)
    assert np.all((dets.kind >= 0) & (dets.kind <= int(Tile.UNKNOWN))) and np.all(dets.top3_kind >= 0)
    assert np.all((dets.score >= 0) & (dets.score <= 1))
    assert np.all(np.diff(dets.top3_score, axis=1) <= 1e-6)  # best first
    assert all(len(set(row)) == 3 for row in dets.top3_kind.tolist())  # three kinds
    assert np.array_equal(dets.top3_kind[:, 0], dets.kind)


def test_a_weak_face_up_peak_stays_only_where_the_classifier_is_sure(reader: TileReader) -> None:
    from companion.vision.detect import Boxes
    from companion.vision.read import WEAK_SURE, WEAK_UP

    assert reader.detector.weak == WEAK_UP < reader.detector.threshold
    names = reader.classifier.info.class_names
    # face up at the threshold, weak and sure, weak and unsure; face down and weak (not this rule's)
    boxes = Boxes(np.array([[60.0 + 80 * i, 60, 30, 40, 0] for i in range(4)], np.float32),
                  np.array([True, True, True, False]),
                  np.array([reader.detector.threshold, WEAK_UP, 0.45, 0.35], np.float32))
    probs = np.zeros((4, len(names)), np.float32)
    for i, p in enumerate([0.6, WEAK_SURE, WEAK_SURE - 0.05, 0.6]):
        probs[i, names.index("5p")] = p
        probs[i, names.index("unknown")] = 1 - p
    got = reader._weak_faces(boxes, probs)
    assert [names[int(k)] for k in got.argmax(axis=1)] == ["5p", "5p", "unknown", "5p"]
    assert np.array_equal(got[[0, 1, 3]], probs[[0, 1, 3]])
    assert TileReader(weak=False, detector_threads=1, classifier_threads=1).detector.weak is None



def test_a_threshold_given_on_the_command_line_is_kept_to_exactly() -> None:
    import argparse

    from companion.commands.read import _reader
    from companion.vision.read import WEAK_UP

    base = {"detector": None, "classifier": None, "threads": 1, "tile_set": None, "no_calibration": True, "turns": 1}
    assert _reader(argparse.Namespace(**base, threshold=None)).detector.weak == WEAK_UP
    strict = _reader(argparse.Namespace(**base, threshold=0.7))
    assert strict.detector.weak is None and strict.detector.threshold == 0.7


def test_a_second_looks_likeliest_other_face_joins_the_top_three(reader: TileReader) -> None:
    """:meth:`TileReader._offered`: what a box looked at again (a claimed tile across the row) reads besides its own
    reading is offered to the hand's search, after the reading taken, never in its place."""
    k = [[int(Tile.P2), int(Tile.P3), int(Tile.P1)]] * 3
    s = [[0.97, 0.02, 0.005], [0.6, 0.3, 0.05], [0.9, 0.05, 0.04]]
    dets = Detections(np.tile(np.float32([[50, 50, 30, 40, 0]]), (3, 1)), np.full(3, int(Tile.P2), np.int16),
                      np.ones(3, bool), np.float32([0.9, 0.5, 0.8]), np.array(k, np.int16), np.array(s, np.float32))
    col = {int(t): i for i, t in enumerate(reader._kind_of) if t >= 0}

    def look(p: dict[str, float]) -> np.ndarray:
        row = np.zeros(len(reader._kind_of), np.float32)
        for code, v in p.items():
            row[col[int(Tile.from_code(code))]] = v
        return row

    probs = np.stack([look({"4p": 0.95, "2p": 0.03}), look({"4p": 0.6, "2p": 0.99}), look({"3p": 0.5}), look({"4p": 0.99})])
    got = reader._offered(dets, np.array([0, 0, 1, 2]), probs, np.array([False, False, True]))
    assert [Tile(int(t)).code for t in got.top3_kind[0]] == ["2p", "4p", "3p"]  # its own 2p is no other face
    assert np.allclose(got.top3_score[0], [0.97, 0.95, 0.02])
    assert np.array_equal(got.top3_kind[1:], dets.top3_kind[1:])  # box 1: 3p already in, but box 1 is skipped...
    assert np.allclose(got.top3_score[2], s[2])  # ... and box 2 was not looked at
    assert np.array_equal(got.kind, dets.kind) and np.array_equal(got.score, dets.score)
    # a face already in the top three is raised and moved up; one less likely than the third is left out
    got = reader._offered(dets, np.array([1, 2]), np.stack([look({"1p": 0.4}), look({"5p": 0.01})]), np.zeros(3, bool))
    assert [Tile(int(t)).code for t in got.top3_kind[1]] == ["2p", "1p", "3p"]
    assert np.allclose(got.top3_score[1], [0.6, 0.4, 0.3])
    assert np.allclose(got.top3_score[2], s[2])
    assert got.second_look is not None and got.second_look[1].tolist() == [False, True, False]


def test_a_second_look_reading_another_face_faintly_offers_nothing(reader: TileReader) -> None:
    """:data:`~companion.vision.sideways.OFFER`, in numbers: a speck of a checked table boxed as a small tile, read
    across as 3f at 0.06, let a rendered hand be scored wrong with one flower more (a review: no test failed with
    every face offered). A faint other face stays out of the top three; one at 0.25 joins it."""
    k = [[int(Tile.P2), int(Tile.P3), int(Tile.P1)]]
    dets = Detections(np.float32([[50, 50, 30, 40, 0]]), np.full(1, int(Tile.P2), np.int16), np.ones(1, bool),
                      np.float32([0.9]), np.array(k, np.int16), np.float32([[0.97, 0.02, 0.005]]))
    look = np.zeros((1, len(reader._kind_of)), np.float32)
    at = next(i for i, t in enumerate(reader._kind_of) if t == int(Tile.F3))
    look[0, at] = 0.06
    got = reader._offered(dets, np.array([0]), look, np.zeros(1, bool))
    assert np.array_equal(got.top3_kind, dets.top3_kind) and np.allclose(got.top3_score, dets.top3_score)
    look[0, at] = 0.25
    got = reader._offered(dets, np.array([0]), look, np.zeros(1, bool))
    assert [Tile(int(t)).code for t in got.top3_kind[0]] == ["2p", "3f", "3p"]


def test_top3_in_json_is_the_reading_first_then_by_score_and_a_second_look_is_given_apart(reader: TileReader) -> None:
    """A review's tile read 1f 0.38 had ``top3`` [1f 0.38, 9p 0.81, 4f 0.15]: the 0.81 was a second look's (another
    view of the box), inserted in second place; a program sorting top3 took 9p. ``top3`` is the classifier's, the
    reading first and by score (together at most 1), and the second look is ``second_look``."""
    k = [[int(Tile.F1), int(Tile.F4), int(Tile.P9)]]
    dets = Detections(np.float32([[50, 50, 30, 40, 0]]), np.array([int(Tile.F1)], np.int16), np.ones(1, bool),
                      np.float32([0.36]), np.array(k, np.int16), np.float32([[0.38, 0.15, 0.1]]), (100, 100))
    col = {int(t): i for i, t in enumerate(reader._kind_of) if t >= 0}
    row = np.zeros((1, len(reader._kind_of)), np.float32)
    row[0, col[int(Tile.P9)]] = 0.81
    (got,) = reader._offered(dets, np.array([0]), row, np.zeros(1, bool)).to_json()
    assert got["tile"] == "1f" and got["top3"][0] == {"tile": "1f", "score": 0.38}
    scores = [t["score"] for t in got["top3"]]
    assert scores == sorted(scores, reverse=True) and sum(scores) <= 1
    assert got["second_look"] == {"tile": "9p", "score": 0.81}
    assert "9p" not in [t["tile"] for t in got["top3"]]
    (plain,) = dets.to_json()  # no second look: the classifier's three, as read
    assert [t["tile"] for t in plain["top3"]] == ["1f", "4f", "9p"] and "second_look" not in plain


def _read_as(kinds: list[Tile], scores: list[float], up: list[bool] | None = None) -> Detections:
    """Detections of ``kinds`` in a row, read at ``scores`` (face up unless ``up`` says otherwise)."""
    n = len(kinds)
    k = np.array([int(t) for t in kinds], np.int16)
    obb = np.array([[40 + 50 * i, 100, 40, 56, 0] for i in range(n)], np.float32).reshape(n, 5)
    sc = np.array(scores, np.float32)
    return Detections(obb, k, np.array(up if up is not None else [True] * n, bool), sc, np.stack([k] * 3, axis=1),
                      np.stack([sc, sc * 0, sc * 0], axis=1), (60 + 50 * n, 200))


def test_more_copies_than_a_set_holds_are_checked_least_sure_first() -> None:
    """A fifth 5m or a second 3f is no table's: the least sure of them are marked to be checked, and said."""
    kinds = [Tile.M5] * 5 + [Tile.F3, Tile.F3, Tile.P2] + [Tile.UNKNOWN] * 6
    scores = [0.9, 0.95, 0.7, 0.99, 0.8, 0.6, 0.97, 0.3] + [0.9] * 6
    dets = _read_as(kinds, scores, [True] * 8 + [False] * 6)
    assert dets.over_read() == {Tile.M5: 5, Tile.F3: 2}  # six backs are no fifth copy of anything
    assert np.flatnonzero(dets.extra_copies()).tolist() == [2, 5]  # the 5m at 0.7, the 3f at 0.6
    assert np.flatnonzero(dets.to_check()).tolist() == [2, 5, 7]  # and the 2p read at 0.3
    rows = dets.to_json()
    assert [r["extra_copy"] for r in rows[:8]] == [False, False, True, False, False, True, False, False]
    assert [r["unsure"] for r in rows[:8]] == [False, False, True, False, False, True, False, True]
    from companion.commands.read import over_read_note

    note = over_read_note(dets.over_read())
    assert "5 張五萬（一副牌只有 4 張）" in note and "2 張秋（一副牌只有 1 張）" in note
    assert "5 x 5m (a set holds 4)" in note and "2 x 3f (a set holds 1)" in note
    assert _read_as([Tile.M5] * 4 + [Tile.F3], [0.9] * 5).over_read() == {}  # four are a set's


@settings(max_examples=60)
@given(st.lists(st.tuples(st.sampled_from([Tile.M1, Tile.M2, Tile.F1, Tile.F2, Tile.Z5]),
                          st.sampled_from([0.2, 0.5, 0.7, 0.9]), st.booleans()), max_size=14))
def test_extra_copies_are_what_a_count_of_each_kind_leaves_over(read: list[tuple[Tile, float, bool]]) -> None:
    """Against a brute count: of each kind read face up, as many are marked as exceed its copies, and none marked
    is surer than one left unmarked."""
    dets = _read_as([t for t, _, _ in read], [s for _, s, _ in read], [u for _, _, u in read])
    extra = dets.extra_copies()
    for kind in {t for t, _, _ in read}:
        mine = [i for i, (t, _, u) in enumerate(read) if t == kind and u]
        assert sum(extra[i] for i in mine) == max(0, len(mine) - kind.max_copies)
        marked = [read[i][1] for i in mine if extra[i]]
        kept = [read[i][1] for i in mine if not extra[i]]
        assert not marked or not kept or max(marked) <= min(kept)
        assert (kind in dets.over_read()) == (len(mine) > kind.max_copies)
    assert not extra[[not u for _, _, u in read]].any() if read else True


def test_cli_read_marks_and_says_a_fifth_copy(tmp_path, capsys, monkeypatch) -> None:
    """``companion read`` on a photo read with five 5m: the least sure marked ``?`` and a line saying why; the JSON
    says which is the extra copy; the drawing marks it as unsure."""
    photo = tmp_path / "five.png"
    cv2.imwrite(str(photo), np.full((200, 400, 3), 120, np.uint8))
    dets = _read_as([Tile.M5] * 5 + [Tile.P1], [0.9, 0.95, 0.7, 0.99, 0.8, 0.9])
    monkeypatch.setattr(TileReader, "read", lambda self, image, **kw: dets)
    assert main(["read", str(photo), "--threads", "1", "--no-calibration"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("5m 5m 5m? 5m 5m 1p (? = 讀得不確定，請對照照片 / unsure reading, check it against the photo)")
    assert out[1].startswith("  讀到 5 張五萬（一副牌只有 4 張）") and "5 x 5m (a set holds 4)" in out[1]
    assert main(["read", str(photo), "--threads", "1", "--no-calibration", "--json"]) == 0
    tiles = json.loads(capsys.readouterr().out)["tiles"]
    assert [t["extra_copy"] for t in tiles] == [False, False, True, False, False, False]
    drawn = annotate(np.full((200, 400, 3), 120, np.uint8), dets)
    x0, y0 = 40 + 50 * 2 - 20, 100 + 28  # the third box's bottom edge: unsure orange
    assert tuple(int(v) for v in drawn[y0, x0 + 20]) == UNSURE_BGR
    scored = annotate(np.full((200, 400, 3), 120, np.uint8), dets, ["5m", "5m", "6m!", "5m", "5m", "1p"])
    assert tuple(int(v) for v in scored[y0, x0 + 20]) != UNSURE_BGR  # a hand as scored has put it right and said so


DEMO_PHOTO = os.path.join(os.path.dirname(__file__), "..", "..", "companion", "assets", "demo", "win_hand.jpg")


def _close_up(box: tuple[int, int, int, int], share: float) -> np.ndarray:
    """Tiles cut from the bundled demo photo (``box``: x0, y0, x1, y1 around them), enlarged until they fill
    ``share`` of a 800x600 photo's height, on green felt: a phone photo of the one or two tiles a player asks about."""
    im = cv2.imread(DEMO_PHOTO)
    x0, y0, x1, y1 = box
    crop = im[y0:y1, x0:x1]
    k = share * 600 / crop.shape[0]
    crop = cv2.resize(crop, None, fx=k, fy=k, interpolation=cv2.INTER_CUBIC)
    photo = np.full((600, max(800, crop.shape[1] + 40), 3), (40, 110, 40), np.uint8)
    y, x = (photo.shape[0] - crop.shape[0]) // 2, (photo.shape[1] - crop.shape[1]) // 2
    photo[y:y + crop.shape[0], x:x + crop.shape[1]] = crop
    return photo


@pytest.mark.parametrize(("box", "share", "tiles"), [
    ((202, 460, 282, 560), 0.67, ["7z"]),  # a review's: read as six face-down tiles
    ((198, 456, 284, 562), 0.9, ["7z"]),
    ((660, 361, 734, 456), 0.67, ["3s"]),  # read as 0x 1s 1s?
    ((198, 456, 355, 570), 0.67, ["7z", "7z"]),  # read as eleven 0x
    ((284, 327, 373, 439), 0.9, ["4m"]),
])
def test_a_close_up_photo_of_one_or_two_tiles_reads_those_tiles(reader: TileReader, box: tuple[int, int, int, int],
                                                                 share: float, tiles: list[str]) -> None:
    """A close-up's tiles are bigger than any the detector learnt (a tile half the photo's height or more): at its
    scale it boxed strokes, dots and rims (a 發 read as a sure 1s, a 9p as nine 5z); the pass at a third of it finds
    the tile whole, and its parts go."""
    got = reader.read(_close_up(box, share), tiled=True).in_reading_order()
    assert [t.code for t in got.tiles()] == tiles, got.to_json()


def test_a_close_up_cut_from_the_demo_photo_is_read_by_the_command(tmp_path, capsys) -> None:
    path = tmp_path / "one_tile.jpg"
    cv2.imwrite(str(path), _close_up((202, 460, 282, 560), 0.67))
    assert main(["read", str(path), "--json", "--no-calibration"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    assert [t["tile"] for t in json.loads(line)["tiles"]] == ["7z"]


def test_a_drawing_of_a_photo_read_reduced_says_so_in_its_legend(tmp_path, capsys, monkeypatch) -> None:
    """A review's 48 MP photo was drawn at half size while ``--json`` gave the boxes in the photo's own pixels, and
    nothing said so: the legend says the drawing is reduced, by how much, and where the boxes are."""
    from companion.vision import image_file
    from companion.vision.read import reduced_note

    note = reduced_note(640, (1280, 960))
    assert note is not None and note.en.startswith("drawn at 1/2 of the photo's size (640 px wide, the photo 1280x960)")
    assert "--json gives boxes in the photo's own pixels" in note.en and note.zh.startswith("圖縮成原照片的 1/2")
    assert reduced_note(1280, (1280, 960)) is None
    frame, _ = scene()
    photo = tmp_path / "table.jpg"
    cv2.imwrite(str(photo), frame, [cv2.IMWRITE_JPEG_QUALITY, 95])
    h, w = frame.shape[:2]
    assert main(["read", str(photo), "--annotate", str(tmp_path / "full.png"), "--threads", "1"]) == 0
    monkeypatch.setattr(image_file, "MAX_PIXELS", w * h // 3)  # the same photo, now read at half its size
    assert main(["read", str(photo), "--annotate", str(tmp_path / "half.png"), "--threads", "1"]) == 0
    full, half = cv2.imread(str(tmp_path / "full.png")), cv2.imread(str(tmp_path / "half.png"))
    assert full.shape[1] == w and half.shape[1] == w // 2
    plain = annotate(cv2.resize(frame, (w // 2, h // 2)), Detections.empty(), legend=True)
    noted = annotate(cv2.resize(frame, (w // 2, h // 2)), Detections.empty(), legend=True, full_size=(w, h))
    assert plain.shape[0] == h // 2 and noted.shape[0] > h // 2  # the note's strip below


def test_a_big_tile_beside_a_hand_leaves_the_hand_whole(reader: TileReader) -> None:
    """A change review: the demo hand with one tile blown up beside it (470 px against the hand's 100) read as that one
    tile, the rule that drops a close-up's slivers holding anywhere in the photo; it holds only at the photo's edge."""
    im = cv2.imread(DEMO_PHOTO)
    alone = [t.code for t in reader.read(im, tiled=True).tiles()]
    crop = im[460:560, 202:282]
    k = 470 / crop.shape[0]
    big = cv2.resize(crop, None, fx=k, fy=k, interpolation=cv2.INTER_CUBIC)
    h, w = im.shape[:2]
    photo = np.full((h, w + big.shape[1] + 60, 3), (40, 110, 40), np.uint8)
    photo[:, :w] = im
    y = (h - big.shape[0]) // 2
    photo[y:y + big.shape[0], w + 30:w + 30 + big.shape[1]] = big
    beside = [t.code for t in reader.read(photo, tiled=True).tiles()]
    assert len(alone) >= 19 and sorted(beside) == sorted([*alone, "7z"]), (alone, beside)


def test_annotate_marks_a_tile_to_check_a_corrected_one_and_the_numbers_for_tile() -> None:
    """The tile a refusal names is framed orange and thick, a tile the player corrected in a colour of its own with
    no score (a review read "6s* 1.00" as the winning tile's mark), and each tile's number for ``--tile`` is written
    under it; the legend says each, once."""
    from companion.vision.read import CORRECTED_BGR, Marks, legend_entries

    grey = np.full((400, 600, 3), 128, np.uint8)
    kinds = np.array([int(Tile.P5), int(Tile.S9)], np.int16)
    dets = Detections(np.array([[150, 200, 100, 140, 0], [450, 200, 100, 140, 0]], np.float32), kinds,
                      np.array([True, True]), np.array([0.9, 1.0], np.float32), np.stack([kinds] * 3, axis=1),
                      np.array([[0.9, 0, 0]] * 2, np.float32), (600, 400))
    marks = Marks({0: "1.1", 1: "1.2"}, frozenset({0}), frozenset({1}))
    plain, drawn = annotate(grey, dets, ["5p", "9s*"]), annotate(grey, dets, ["5p", "9s*"], marks=marks)
    assert tuple(int(v) for v in drawn[270, 150]) == UNSURE_BGR and tuple(int(v) for v in drawn[270, 450]) == CORRECTED_BGR
    assert (np.all(drawn[200, 90:110] == UNSURE_BGR, axis=1).sum() >
            np.all(plain[200, 90:110] == (40, 200, 40), axis=1).sum() > 0)  # its left side, thicker
    dark = drawn.max(axis=2) < 70
    assert dark[275:330, 100:200].any() and dark[275:330, 400:500].any()  # the numbers under the boxes
    assert not dark[130:265, :].any()  # no letter on a tile

    def label_width(img: np.ndarray) -> int:
        cols = np.nonzero((img.max(axis=2) < 70)[:125, 400:500].any(axis=0))[0]
        return int(cols.max() - cols.min())

    assert label_width(drawn) < label_width(plain)  # "9s*", not "9s* 1.00"
    entries = legend_entries(dets, ["5p", "9s*"], scored=True, marks=marks)
    assert [e.bgr for e in entries if e.bgr in (UNSURE_BGR, CORRECTED_BGR)] == [UNSURE_BGR, CORRECTED_BGR]
    assert any(e.mark == "1.1" and "--tile" in e.en and "--tile" in e.zh for e in entries)
    assert all(e.zh != e.en for e in entries)


def test_an_opencv_failure_on_a_photo_is_said_in_both_languages_without_its_text(tmp_path, capsys,
                                                                                    monkeypatch) -> None:
    """A review's photo made OpenCV fail: the message was OpenCV's own (its build path, an assertion) and the
    Chinese only 無法辨識這張照片; now what happened, naming the photo, in both languages, also in --json."""
    from companion.commands import read as read_command

    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))

    def fail(image, tiled):
        raise cv2.error("OpenCV(5.1.0) /io/opencv/modules/imgproc/src/imgwarp.cpp:1454: error: (-215:Assertion "
                        "failed) dst.rows < SHRT_MAX in function 'remap'")

    reader = argparse.Namespace(read=fail, classifier=argparse.Namespace(calibration=None))
    monkeypatch.setattr(read_command, "_reader", lambda args: reader)
    photo = tmp_path / "hand.png"
    cv2.imwrite(str(photo), np.full((60, 80, 3), 90, np.uint8))
    assert main(["read", str(photo), "--no-calibration"]) == 1
    err = capsys.readouterr().err
    assert "OpenCV" not in err and "/io/" not in err and "imgwarp" not in err
    assert f"{photo}: an image-processing step failed" in err and f"{photo}：處理這張照片時影像運算出錯" in err
    assert main(["read", str(photo), "--no-calibration", "--json"]) == 1
    line = json.loads(capsys.readouterr().out)
    assert "OpenCV" not in json.dumps(line, ensure_ascii=False)
    assert "program" in line["error"]["message"] and not re.search("[\u4e00-\u9fff]", line["error"]["message"])
    assert "程式" in line["error"]["message_zh"] and str(photo) in line["error"]["message_zh"]


def test_annotate_plates_of_touching_tiles_in_two_close_rows_overlap_no_plate_and_no_tile(monkeypatch) -> None:
    """A hand's row of touching tiles and a second row just under it: each label and each ``--tile`` number on a
    plate of its own, none over another plate or a tile (a review: "2m 0.92" and "3m 0.89" overlapped, the second
    row's labels sat on the first row's feet, and the first row's numbers lay see-through over the faces); plates
    apart, none touching another (a review read "7z" over "2.1" as one plate), each holding its whole text (the
    feet of "2.1" and "f.1" were cut off where the plate ended at the baseline)."""
    from companion.vision import read
    from companion.vision.read import Marks

    drawn: list[tuple[int, int, int, int, bool]] = []
    real = read._plate

    def plate(out, text, font, thick, x, y, see_through) -> None:
        box = x0, y0, x1, y1 = read.plate_box(text, font, thick, x, y)
        ink = np.zeros(out.shape[:2], np.uint8)  # the text as drawn, white stroke and all, inside its plate
        cv2.putText(ink, text, (x, y), read._FONT, font, 255, thick + 2, cv2.LINE_AA)
        ys, xs = np.nonzero(ink)
        assert x0 < xs.min() and xs.max() < x1 - 1 and y0 < ys.min() and ys.max() < y1 - 1, (text, box)
        drawn.append((*box, see_through))
        real(out, text, font, thick, x, y, see_through)

    monkeypatch.setattr(read, "_plate", plate)
    codes = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s"]
    obb = [[100 + 70 * i, 130, 70, 90, 0] for i in range(8)] + [[100 + 70 * i, 226, 70, 90, 0] for i in range(8)]
    kinds = np.array([int(Tile.from_code(c)) for c in codes * 2], np.int16)
    dets = Detections(np.array(obb, np.float32), kinds, np.ones(16, bool), np.array([0.92, 0.89] * 8, np.float32),
                      np.stack([kinds] * 3, axis=1), np.array([[0.9, 0, 0]] * 16, np.float32), (800, 400))
    places = {i: f"{1 + i // 8}.{1 + i % 8}" for i in range(16)}
    annotate(np.full((400, 800, 3), 90, np.uint8), dets, marks=Marks(places))
    assert len(drawn) == 32 and not any(p[4] for p in drawn)  # none see-through over a face
    tiles = [(x - w / 2, y - h / 2, x + w / 2, y + h / 2) for x, y, w, h, _ in obb]
    for k, a in enumerate(drawn):
        assert not any(a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3] for b in tiles)
        assert not any(a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3] for b in drawn[k + 1:])
