"""``companion score``: the ways out it gives work (``--tile``), a hand laid in two rows is not silently open, and
its text says what the winner receives."""

import argparse

import cv2
import numpy as np
import pytest

import companion.commands.score as score_command
from companion.cli import main
from companion.tiles import Tile, parse_tiles
from companion.vision.read import Detections

W, H = 30.0, 40.0


def laid(rows: list[tuple[float, list[str]]], unsure: dict[int, list[tuple[str, float]]] | None = None,
         sideways: frozenset[int] = frozenset()) -> Detections:
    """Tiles laid in rows (y, groups), a tile's width between groups, read surely (``unsure``: a tile's readings);
    ``sideways`` tiles lie turned across their row."""
    unsure = unsure or {}
    obb, kind, sc, k3, s3, up = [], [], [], [], [], []
    for y, groups in rows:
        x = 50.0
        for g in groups:
            for t in parse_tiles(g, check=False):
                n = len(kind)
                w = H if n in sideways else W
                obb.append([x + w / 2, y, W, H, 90.0 if n in sideways else 0.0])
                opts = unsure.get(n, [(t.code, 0.98), ("9p" if t != Tile.P9 else "8p", 0.01), ("7z", 0.005)])
                kind.append(int(Tile.from_code(opts[0][0])))
                up.append(t != Tile.UNKNOWN)
                sc.append(opts[0][1])
                k3.append([int(Tile.from_code(c)) for c, _ in opts])
                s3.append([p for _, p in opts])
                x += w + 1
            x += W
    return Detections(np.array(obb, np.float32), np.array(kind, np.int16), np.array(up, bool),
                      np.array(sc, np.float32), np.array(k3, np.int16), np.array(s3, np.float32), (2000, 1000))


@pytest.fixture
def photo_of(tmp_path, monkeypatch):
    """A photo ``companion score`` reads as the detections given (the reader stands in for the models)."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))

    def given(dets: Detections) -> str:
        reader = argparse.Namespace(read=lambda image, tiled: dets, classifier=argparse.Namespace(calibration=None))
        monkeypatch.setattr(score_command, "_reader", lambda args: reader)
        photo = tmp_path / "hand.png"
        cv2.imwrite(str(photo), np.full((60, 80, 3), 90, np.uint8))
        return str(photo)

    return given


def test_a_misread_tile_is_corrected_with_tile_as_the_refusal_says(photo_of, capsys) -> None:
    """The refusal said "score the hand with `companion tai`", which reads JSON lines, not the notation printed: a
    review's player got "cannot read it". ``--tile ROW.N=TILE`` puts the tile right, numbered as the output lists."""
    misread = {6: [("9s", 0.98), ("8p", 0.01), ("7z", 0.005)]}  # the 4s read surely as 9s: no win
    photo = photo_of(laid([(100, ["456m789m45s55z", "6s"]), (200, ["123m", "111z"])], misread))
    assert main(["score", photo, "--lang", "en"]) == 1
    err = capsys.readouterr().err
    assert "companion tai" not in err and "--tile ROW.N=TILE" in err
    assert "1.1=4m 1.2=5m" in err and "1.7=9s" in err and "| 1.11=6s" in err and "2.4=1z" in err  # as --tile names
    assert main(["score", photo]) == 1
    err = capsys.readouterr().err
    assert "companion tai" not in err and "用 --tile 列.張=牌 改正讀錯的牌" in err
    assert main(["score", photo, "--lang", "en", "--tile", "1.7=4s"]) == 0
    out = capsys.readouterr().out
    assert "concealed 456789m45s55z" in out and "1.7=4s 1.8=5s" in out
    # a value that is no ROW.N=TILE is refused before any photo is read, naming it; one naming no tile of the photo
    # is said with the photo
    for bad in ("2=7p", "1.0=7p", "a.1=7p", "1.1=7q", "0.1=1m"):
        assert main(["score", photo, "--lang", "en", "--tile", bad]) == 2
        assert f"--tile {bad}: expected ROW.N=TILE" in capsys.readouterr().err
    assert main(["score", photo, "--lang", "en", "--tile", "3.1=1m", "--tile", "1.20=1m"]) == 1
    assert "--tile 3.1=1m: the photo has 2 rows (tiles a row, as read: 1) 11, 2) 6)" in capsys.readouterr().err
    assert main(["score", photo, "--tile", "2.9=1m"]) == 1
    assert "--tile 2.9=1m：第 2 列只有 6 張" in capsys.readouterr().err
