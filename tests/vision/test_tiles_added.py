"""A tile the photo's reading missed, added by the player (``companion score --add``, the app's "add a tile the
photo missed"): a flower joins the flowers, another tile the hand's own row. A review's missed flower lost its tai
silently, and the only way out was to type the whole hand."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.tiles import Tile
from companion.vision.hand_photo import NoPlaceToAdd, lay_out, with_added
from companion.vision.hand_score import PhotoHandError, score_photo
from companion.vision.read import Detections
from tests.vision.test_hand_score import PROFILE, laid

ROWS = [(100.0, ["345m", "67p", "234s", "22z", "8p"]), (200.0, ["777z", "123m"]), (300.0, ["26f"])]
SOUTH = {"seat_wind": "S"}  # 2f and 6f are South's flowers: a tai each


def _without(dets: Detections, code: str) -> Detections:
    """The photo as read with the detector missing the first tile read as ``code``."""
    i = next(i for i in range(len(dets)) if Tile(int(dets.kind[i])).code == code)
    return dets.take(np.array([j for j in range(len(dets)) if j != i]))


def test_a_flower_the_reading_missed_is_added_to_the_flowers_and_scored() -> None:
    whole = score_photo(laid(ROWS), SOUTH, PROFILE)
    missed = _without(laid(ROWS), "6f")
    short = score_photo(missed, SOUTH, PROFILE)
    assert short.win.flowers == (Tile.F2,) and short.score.hand_tai == whole.score.hand_tai - 1
    added = with_added(missed, [Tile.F6])
    assert len(added) == len(missed) + 1 and added.picked is not None and added.picked[-1]
    assert len(added) - 1 in lay_out(added).flowers
    got = score_photo(added, SOUTH, PROFILE)
    assert got.win.flowers == (Tile.F2, Tile.F6) and got.score.hand_tai == whole.score.hand_tai
    # both flowers missed: both added, laid out together
    both = with_added(_without(missed, "2f"), [Tile.F2, Tile.F6])
    assert score_photo(both, SOUTH, PROFILE).win.flowers == (Tile.F2, Tile.F6)


@pytest.mark.parametrize("code", ["3m", "5m", "2z"])  # an end of the hand's row, the middle (a hole left), its pair
def test_a_tile_of_the_hand_the_reading_missed_is_added_to_its_row(code: str) -> None:
    missed = _without(laid(ROWS), code)
    with pytest.raises(PhotoHandError):
        score_photo(missed, SOUTH, PROFILE)
    got = score_photo(with_added(missed, [Tile.from_code(code)]), SOUTH, PROFILE)
    assert got.win == score_photo(laid(ROWS), SOUTH, PROFILE).win and got.marked  # the 8p still set apart


def test_a_tile_added_where_no_row_takes_it_or_no_face_is_refused_naming_it() -> None:
    only_flowers = laid([(100.0, ["26f"])])
    with pytest.raises(NoPlaceToAdd) as e:
        with_added(only_flowers, [Tile.M5])
    assert "5m cannot be added" in str(e.value) and "五萬" in e.value.zh
    with pytest.raises(ValueError, match="0x is no tile to add"):
        with_added(laid(ROWS), [Tile.UNKNOWN])


def _demo_without_6f(out: Path) -> Path:
    """The bundled photo with its Orchid (6f) painted over with the felt: a flower the detector does not find."""
    from companion.vision.read import TileReader

    image = cv2.imread(str(resources.files("companion") / "assets" / "demo" / "win_hand.jpg"))
    dets = TileReader().read(image, tiled=True)
    i = next(i for i in range(len(dets)) if Tile(int(dets.kind[i])) is Tile.F6)
    x0, y0, x1, y1 = (int(v) for v in dets.xyxy[i])
    felt = np.median(image[y1 + 6:y1 + 18, x0:x1].reshape(-1, 3), axis=0)
    image[y0 - 6:y1 + 6, x0 - 6:x1 + 6] = felt
    cv2.imwrite(str(out), image)
    return out


def test_score_add_puts_a_missed_flower_back_with_its_tai(tmp_path: Path, capsys) -> None:
    photo = str(_demo_without_6f(tmp_path / "no6f.jpg"))
    common = ["score", photo, "--seat", "S", "--no-calibration"]
    assert main([*common, "--json"]) == 0
    missed = json.loads(capsys.readouterr().out)
    assert missed["hand"]["flowers"] == "2f"
    assert main([*common, "--json", "--add", "6f"]) == 0
    added = json.loads(capsys.readouterr().out)
    assert added["hand"]["flowers"] == "26f" and added["hand_tai"] == missed["hand_tai"] + 1
    assert main([*common, "--lang", "en", "--add", "6f"]) == 0
    assert "f.1=6f (added)" in capsys.readouterr().out
    assert main([*common, "--lang", "zh", "--add", "6f"]) == 0
    assert "f.1=6f（補上的）" in capsys.readouterr().out


@pytest.mark.parametrize(("args", "en", "zh"), [
    (["--add", "zz"], "--add zz: ", "--add zz："),
    (["--add", "0x"], "--add 0x: a tile's back is nothing to add", "--add 0x：牌背不能補"),
])
def test_score_add_of_no_tile_is_refused_naming_it(capsys, args: list[str], en: str, zh: str) -> None:
    demo = str(resources.files("companion") / "assets" / "demo" / "win_hand.jpg")
    assert main(["score", demo, *args, "--lang", "en"]) == 2
    assert en in capsys.readouterr().err
    assert main(["score", demo, *args, "--lang", "zh"]) == 2
    assert zh in capsys.readouterr().err


def test_score_add_with_several_photos_is_refused(capsys) -> None:
    demo = str(resources.files("companion") / "assets" / "demo" / "win_hand.jpg")
    assert main(["score", demo, demo, "--add", "6f", "--lang", "en"]) == 2
    assert "--add 6f: --add adds a tile to one photo's hand, and 2 photos were given" in capsys.readouterr().err


def test_score_json_marks_the_tiles_add_gave(tmp_path: Path, capsys) -> None:
    """The ``--json`` refusal's ``tiles`` say which tile ``--add`` gave, as the text's "(added)" does (a review's
    script could not tell the 6f it added from the tiles read)."""
    photo = str(_demo_without_6f(tmp_path / "no6f.jpg"))
    assert main(["score", photo, "--seat", "S", "--no-calibration", "--json", "--add", "6f", "--tile", "9.1=1m"]) == 1
    tiles = json.loads(capsys.readouterr().out)["error"]["tiles"]
    assert [t["tile"] for t in tiles if t.get("added")] == ["6f"]
    assert sum("added" in t for t in tiles) == 1
    from companion.commands.score import refusal_fields  # a hand refused with a tile added: in its tiles too
    dets = with_added(_without(_without(laid(ROWS), "3m"), "5m"), [Tile.M3])
    with pytest.raises(PhotoHandError) as e:
        score_photo(dets, SOUTH, PROFILE)
    fields = refusal_fields(e.value, dets, added=frozenset({len(dets) - 1}))
    assert [t["tile"] for t in fields["tiles"] if t.get("added")] == ["3m"]
