"""``companion score``: the ways out it gives work (``--tile``), a hand laid in two rows is not silently open, and
its text says what the winner receives."""

import argparse
import json
import re

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
    assert "concealed 456789m45s55z" in out and "1.7=4s (corrected) 1.8=5s" in out
    # a value that is no ROW.N=TILE is refused before any photo is read, naming it; one naming no tile of the photo
    # is said with the photo
    for bad in ("2=7p", "1.0=7p", "a.1=7p", "1.1=7q", "0.1=1m"):
        assert main(["score", photo, "--lang", "en", "--tile", bad]) == 2
        assert f"--tile {bad}: expected ROW.N=TILE" in capsys.readouterr().err
    assert main(["score", photo, "--lang", "en", "--tile", "3.1=1m", "--tile", "1.20=1m"]) == 1
    assert "--tile 3.1=1m: the photo has 2 rows of 11 and 6 tiles" in capsys.readouterr().err  # (a review read
    # "the photo has 1 rows (tiles a row, as read: 1) 17)")
    assert main(["score", photo, "--tile", "3.1=1m"]) == 1
    assert "--tile 3.1=1m：照片有 2 列，各 11、6 張" in capsys.readouterr().err
    assert main(["score", photo, "--lang", "en", "--tile", "f.1=1f"]) == 1
    assert "--tile f.1=1f: no flowers lie apart from the rows: a row of flowers is numbered as the other rows (the " \
        "photo has 2 rows of 11 and 6 tiles)" in capsys.readouterr().err
    assert main(["score", photo, "--tile", "2.9=1m"]) == 1
    assert "--tile 2.9=1m：第 2 列只有 6 張" in capsys.readouterr().err


TWO_ROWS = [(100, ["123m456m789m"]), (200, ["234p56p55s", "7p"])]
"""A review's concealed self-draw laid in two rows (h12): nothing marks the first as called."""


def test_a_row_taken_as_called_only_for_lying_apart_is_said_with_the_tai_it_would_be_concealed() -> None:
    from companion.rules.profiles import load_profile
    from companion.vision.hand_score import score_photo

    profile = load_profile(None)
    got = score_photo(laid(TWO_ROWS), {}, profile)
    assert [m.kind.value for m in got.win.melds] == ["chow"] * 3  # the reading as laid out stays the default
    whole = score_photo(laid(TWO_ROWS), {}, profile, concealed=True)
    assert not whole.win.melds and whole.win.win_tile == Tile.P7 and whole.marked
    assert whole.score.hand_tai > got.score.hand_tai
    said = [n for n in got.doubts if "only because it lies apart" in n.en]
    assert len(said) == 1 and said[0].en.startswith("row 1 taken as called chows (chow of 1 2 3 Characters")
    assert said[0].en.endswith(f"were they not called, the hand would be {whole.score.hand_tai} tai, not "
                               f"{got.score.hand_tai}") and said[0].way_out.value == "concealed"  # each surface
    # words its own way out: the note carries no option
    assert said[0].zh.startswith("第 1 列當作吃的牌（") and f"這手是 {whole.score.hand_tai} 台" in said[0].zh
    assert not [n for n in whole.doubts if "only because" in n.en]
    # the second review's: four chows in the top row
    four = score_photo(laid([(100, ["123m456m789m234p"]), (200, ["56p55s", "7p"])]), {}, profile)
    assert any(n.en.startswith("row 1 taken as called chows") for n in four.doubts)
    # a tile lying sideways marks a claim, and a gap between melds lays them out as melds: nothing said then
    for marked in (laid(TWO_ROWS, sideways=frozenset({0})), laid([(100, ["123m", "456m", "789m"]), TWO_ROWS[1]])):
        assert not [n for n in score_photo(marked, {}, profile).doubts if "only because" in n.en]


def test_companion_score_concealed_scores_every_row_as_the_hands_own(photo_of, capsys) -> None:
    photo = photo_of(laid(TWO_ROWS))
    assert main(["score", photo, "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "melds chow:123m chow:456m chow:789m" in out and "say so with --concealed" in out
    assert "South → East: 2 tai" in out
    assert main(["score", photo, "--json"]) == 0
    doubt = next(d for d in json.loads(capsys.readouterr().out)["doubts"] if d.get("way_out") == "concealed")
    assert doubt["message"].endswith(" tai, not 1: say so with --concealed") and doubt["message_zh"].endswith("請加 --concealed")
    assert main(["score", photo, "--lang", "en", "--concealed"]) == 0
    out = capsys.readouterr().out
    assert "concealed 123456789m23456p55s ｜ melds -" in out and "South → East: 4 tai" in out
    assert "--concealed" not in out


def test_the_photo_forms_calls_box_says_the_hand_is_concealed() -> None:
    import dataclasses

    from companion.app.photo_model import PhotoContext, ReadPhoto, score_read_photo, score_typed_hand

    read = ReadPhoto("two-rows.jpg", np.zeros((60, 80, 3), np.uint8), laid(TWO_ROWS))
    form = PhotoContext()
    as_laid = score_read_photo(read, form.as_context())
    said = [n for n in as_laid.notes if "only because it lies apart" in n.en]
    assert len(said) == 1 and "--concealed" not in said[0].en + said[0].zh  # the form's box, not the option
    assert said[0].en.endswith(": if so, choose “None (concealed)” under “Calls”")
    assert said[0].zh.endswith("：是的話請在「吃碰」選「沒有（門清）」")
    concealed = dataclasses.replace(form, concealed="concealed")
    assert PhotoContext.from_context(concealed.as_context()) == concealed
    whole = score_read_photo(read, concealed.as_context())
    assert whole.hand_tai > as_laid.hand_tai and not whole.melds
    assert not [n for n in whole.notes if "only because" in n.en]
    assert concealed.next_hand() == (form, ("concealed",))  # each hand's own, as the moment is
    typed = score_typed_hand("123m456m789m234p56p55s7p", concealed.as_context(), win_tile=Tile.P7)  # (melds typed)
    assert typed.hand_tai == whole.hand_tai


def test_context_and_flags_are_said_in_the_players_words(photo_of, capsys) -> None:
    """``--context 'last_tile'`` printed the parser's "Expecting value: line 1 column 1 (char 0)"; a flag could only
    be given in JSON, and an unknown one's error did not list the others."""
    import json

    photo = photo_of(laid(TWO_ROWS))
    assert main(["score", photo, "--lang", "en", "--context", "last_tile"]) == 2
    err = capsys.readouterr().err
    assert "Expecting value" not in err and "(char" not in err
    assert "--context last_tile: not JSON (wrong from character 1)" in err and "a flag is given as --flag last_tile" in err
    assert main(["score", photo, "--context", "海底"]) == 2
    assert "旗標請用 --flag last_tile" in capsys.readouterr().err
    for flag in ("last_tile", "海底", "海底撈月"):
        assert main(["score", photo, "--json", "--flag", flag, "--flag", "ready_declared"]) == 0
        flags = json.loads(capsys.readouterr().out)["win"]["flags"]
        assert flags["last_tile"] and flags["ready_declared"]
    assert main(["score", photo, "--lang", "en", "--flag", "haidi"]) == 2
    assert "--flag haidi: no such flag; the flags: last_tile (海底撈月), last_discard (河底撈魚), after_kong (槓上開花)" \
        in capsys.readouterr().err
    assert main(["score", photo, "--lang", "en", "--context", '{"flags": {"haidi": true}}']) == 2
    assert "unknown flag (the flags: after_flower, after_kong, earthly" in capsys.readouterr().err
    assert main(["score", photo, "--context", '{"flags": {"haidi": true}}']) == 2
    assert "不認得的旗標（可用的旗標：after_flower、after_kong" in capsys.readouterr().err


def test_the_text_says_what_the_winner_receives_in_all(photo_of, capsys) -> None:
    """In money, where the stakes are given; not the payments' tai added up, which a review read as the hand's (a
    4-tai hand paid by three with the dealer's +3 said "receives 240 in all (15 tai)")."""
    photo = photo_of(laid(TWO_ROWS))
    assert main(["score", photo, "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "receives" not in out and "6 tai" not in out  # 3 players x (1 + dealer 1): no sum of tai
    assert main(["score", photo, "--lang", "en", "--stakes", "30/10"]) == 0
    out = capsys.readouterr().out
    assert "East receives 150 in all\n" in out and "6 tai" not in out
    assert main(["score", photo, "--stakes", "30/10", "--discarder", "S"]) == 0
    out = capsys.readouterr().out
    assert "南 → 東：3 台 = 60" in out and "東家共收 60\n" in out


def test_the_photo_cards_payments_have_no_spaces_around_the_chinese_verb() -> None:
    from companion.app.photo_model import PhotoContext, ReadPhoto, score_read_photo

    read = ReadPhoto("two-rows.jpg", np.zeros((60, 80, 3), np.uint8), laid(TWO_ROWS))
    panel = score_read_photo(read, PhotoContext().as_context())
    assert [p.zh for p in panel.payments][0].startswith("南家付東家 ")
    assert all(" 付 " not in p.zh for p in panel.payments)
    assert panel.payments[0].en.startswith("South pays East ")


REFUSED = {  # a photo refused with each way out the scorer gives (hand_score.WayOut)
    "correct_tile": ([(100, ["13579m13579p1357s1z2z", "3z"])], None),  # every tile read surely: no win as read
    "closer": ([(100, ["13579m13579p1357s1z2z", "3z"])], {3: [("7m", 0.4), ("1m", 0.3), ("9m", 0.2)]}),  # unsure
    "blank_kong": ([(100, ["123456789m5p", "5p"]), (200, ["0x0x0x0x", "999s"])], None),  # four backs together
    "win_tile": ([(100, ["123456m234678p4588s"])], None),  # 16 tiles: the winning tile not in the photo
}


def test_a_refusal_says_its_way_out_as_this_commands_options_and_nothing_of_the_app(photo_of, capsys) -> None:
    """A refusal's way out was the scorer's words ("score the hand with `companion tai`") patched here by a pattern,
    and by another in the app: when the scorer's words changed, the patch no longer matched and said nothing (a fifth
    copy's refusal gave no way out at all). The scorer gives the way out as data; this command says it as its own
    options, in both languages, and never as the app's taps and fields."""
    from companion.vision.hand_score import WayOut

    said = {"correct_tile": ("; correct each tile read wrong with --tile ROW.N=TILE (tile N of row ROW as read, ",
                             "；用 --tile 列.張=牌 改正讀錯的牌（第幾列第幾張照讀到的順序，"),
            "closer": ("; photograph it closer, or correct each tile read wrong with --tile ROW.N=TILE",
                       "；請拍近一點，或用 --tile 列.張=牌 改正讀錯的牌"),
            "blank_kong": ("its kind shows; if they are blank white dragons lying face up, say so with --kong 5z=kong "
                           "(read:", "讓它的牌面看得到；若這是牌面空白的白板、朝上擺著，請加 --kong 5z=kong（讀到："),
            "win_tile": ("photograph it again, or name it with --win-tile (e.g. --win-tile 3s) (read:",
                         "再拍一次，或用 --win-tile 指定（例如 --win-tile 3s）（讀到：")}
    # (a note's own ways out, ``concealed`` and ``seven_rob_one``, are no refusal's)
    assert set(said) == set(REFUSED) == {w.value for w in WayOut} - {WayOut.NONE.value, WayOut.CONCEALED.value,
                                                                     WayOut.SEVEN_ROB_ONE.value}
    for way, (rows, unsure) in REFUSED.items():
        photo = photo_of(laid(rows, unsure))
        assert main(["score", photo, "--json"]) == 1
        error = json.loads(capsys.readouterr().out)["error"]
        en, zh = error["message"], error["message_zh"]
        assert said[way][0] in en and said[way][1] in zh, (way, en, zh)
        assert "companion tai" not in en + zh  # (it reads JSON lines, not the notation printed here)
        assert not re.search(r"\btap\b|My hand|the form", en), en  # the app's means
        assert not re.search(r"下面點|點讀錯|我的手牌|表格", zh), zh


def test_a_photo_with_no_tile_or_only_backs_lists_no_tiles_as_read(tmp_path, photo_of, capsys) -> None:
    """A blank photo finds no tile: the refusal said so, then printed the header "tiles as read (…--tile…):" with
    nothing under it (a review); a --tile for it was answered "the photo has 0 rows (tiles a row, as read: )". Now
    no list and no header where no tile is numbered (none found, or only backs), nor an empty field in the JSON."""
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 128, np.uint8))  # as the quality tests' no-tile photo
    for lang, head in (("en", "tiles as read"), ("zh", "讀到的牌")):
        assert main(["score", str(blank), "--no-calibration", "--lang", lang]) == 1
        err = capsys.readouterr().err
        assert ("no tile found in the photo" if lang == "en" else "照片裡沒找到牌") in err and head not in err, err
        assert main(["score", str(blank), "--no-calibration", "--lang", lang, "--tile", "1.1=1m"]) == 1
        err = capsys.readouterr().err
        assert ("no tile was found in the photo to correct" if lang == "en" else "照片裡沒找到可以改正的牌") in err
        assert head not in err and "0 rows" not in err and "0 列" not in err, err
    assert main(["score", str(blank), "--no-calibration", "--json"]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert set(error) == {"message", "message_zh", "way_out"} and all(error.values()), error  # (no empty tiles)
    assert main(["score", str(blank), "--no-calibration", "--json", "--tile", "1.1=1m"]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert set(error) == {"message", "message_zh"} and "as read: )" not in error["message"], error
    backs = photo_of(laid([(100, ["0x0x0x0x0x"])]))  # only backs: refused as such, nothing numbered to correct
    assert main(["score", backs, "--lang", "en"]) == 1
    err = capsys.readouterr().err
    assert "no face-up tile found, only 5" in err and "tiles as read" not in err, err
    assert main(["score", backs, "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["reading"] == "5 face down"
    flowers = photo_of(laid([(100, ["1f2f"])]))  # flowers alone are tiles read: listed, to correct one misread
    assert main(["score", flowers, "--lang", "en"]) == 1
    assert "tiles as read" in (err := capsys.readouterr().err) and "f.1=1f f.2=2f" in err, err


def test_one_tile_corrected_twice_as_two_tiles_is_refused_naming_both(photo_of, capsys) -> None:
    """A review's ``--tile 1.15=6m --tile 1.15=7m`` took the last in silence."""
    photo = photo_of(laid(TWO_ROWS))
    assert main(["score", photo, "--lang", "en", "--tile", "1.2=6m", "--tile", "1.2=7m"]) == 2
    err = capsys.readouterr().err
    assert "--tile 1.2=6m and --tile 1.2=7m give tile 1.2 two values" in err and "Traceback" not in err
    assert main(["score", photo, "--tile", "1.2=6m", "--tile", "1.2=7m"]) == 2
    assert "--tile 1.2=6m 和 --tile 1.2=7m" in capsys.readouterr().err
    assert main(["score", photo, "--lang", "en", "--tile", "1.2=2m", "--tile", "1.2=2m"]) == 0  # the same: harmless


def test_the_note_on_rows_taken_as_called_is_said_in_each_surfaces_own_words() -> None:
    """The Live tab dropped the note (every doubt with "--" was), and the Score tab patched the command's option into
    its box by pattern: the note carries its way out as a code, each surface words it."""
    from companion.app.photo_model import doubt_note
    from companion.rules.profiles import load_profile
    from companion.vision.hand_score import WayOut, score_photo

    got = score_photo(laid(TWO_ROWS), {}, load_profile(None))
    note = next(n for n in got.doubts if n.way_out is WayOut.CONCEALED)
    assert "--" not in note.en + note.zh and note.to_dict()["way_out"] == "concealed"
    live, tab = doubt_note(note, live=True), doubt_note(note)
    assert live.en.startswith("Row 1 taken as called chows") and "type those rows' tiles into the hand" in live.en
    assert "請把那幾列的牌也填進手牌" in live.zh
    assert tab.en.endswith(": if so, choose “None (concealed)” under “Calls”") and "「吃碰」選「沒有（門清）」" in tab.zh
    assert tab.en.count("if ") == 1  # (a review read "if they were not called, …: if so, choose …")


def test_a_refusal_gives_the_exact_tile_command_and_a_script_its_fields(photo_of, capsys) -> None:
    """A review: the refusal printed "e.g. --tile 2.5=7p" under a photo of one row, and ``--json`` carried no way
    for a script to build ``--tile``. A refusal naming one tile and kind gives the exact command; the JSON error
    has the tiles as numbered, the tiles to check, and the way out's code."""
    misread = {6: [("9s", 0.98), ("8p", 0.01), ("7z", 0.005)]}  # the 4s read surely as 9s: no win
    photo = photo_of(laid([(100, ["456m789m45s55z", "6s"]), (200, ["123m", "111z"])], misread))
    assert main(["score", photo, "--lang", "en"]) == 1
    err = capsys.readouterr().err
    assert "(tile N of row ROW as read, for this photo: --tile 1.7=4s or --tile 1.7=7s)" in err and "2.5=7p" not in err
    assert main(["score", photo]) == 1
    assert "這張照片請用 --tile 1.7=4s 或 --tile 1.7=7s" in capsys.readouterr().err
    assert main(["score", photo, "--json"]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["way_out"] == "correct_tile" and error["check"] == [{"at": "1.7", "tile": "9s", "could_be": ["4s", "7s"]}]
    assert error["tiles"][6] == {"at": "1.7", "tile": "9s", "score": 0.98} and error["tiles"][-1]["at"] == "2.6"
    assert {"message", "message_zh", "reading"} <= set(error)  # (as before)
    # a refusal naming no one tile: an example of this photo's, not another photo's 2.5
    unsure = {3: [("7m", 0.4), ("1m", 0.3), ("9m", 0.2)]}
    assert main(["score", photo_of(laid([(100, ["13579m13579p1357s1z2z", "3z"])], unsure)), "--lang", "en"]) == 1
    err = capsys.readouterr().err
    assert "e.g. --tile 1.4=1m" in err and "2.5=7p" not in err


def test_a_flag_that_does_not_fit_the_win_is_refused_naming_the_option_typed(photo_of, capsys) -> None:
    """A review's ``--flag last_discard`` on a self-draw was refused as "flags.last_discard: …", a JSON field he
    never typed; given in ``--context`` it is still named as its field."""
    photo = photo_of(laid(TWO_ROWS))
    assert main(["score", photo, "--lang", "en", "--context", '{"win_type": "self_draw"}', "--flag", "河底"]) == 2
    err = capsys.readouterr().err
    assert "--flag last_discard: a last-discard win is a win on a discard" in err and "flags." not in err
    assert main(["score", photo, "--context", '{"win_type": "self_draw"}', "--flag", "last_discard"]) == 2
    assert "--flag last_discard：河底是胡別人打出的牌" in capsys.readouterr().err
    assert main(["score", photo, "--lang", "en", "--context",
                 '{"win_type": "self_draw", "flags": {"last_discard": true}}']) == 2
    assert "flags.last_discard: a last-discard win" in capsys.readouterr().err


def test_tile_options_are_said_once_in_this_photos_terms_and_numbered_as_numbers(photo_of, capsys) -> None:
    """A final review: ``--tile 01.15=6m`` was refused as no row 1, and not caught beside ``--tile 1.15=7m``; a
    photo of one row said its tile count twice, and a row it lacks was never said missing; the tile list's example
    was a tile as it already read (a no-op) under a refusal that gave the exact command; the JSON refusal carried
    ``"check": []``."""
    misread = {6: [("9s", 0.98), ("8p", 0.01), ("7z", 0.005)]}  # the 4s read surely as 9s: no win
    photo = photo_of(laid([(100, ["456m789m45s55z", "6s"]), (200, ["123m", "111z"])], misread))
    assert main(["score", photo, "--lang", "en", "--tile", "01.7=4s"]) == 0
    assert "1.7=4s (corrected)" in capsys.readouterr().out
    assert main(["score", photo, "--lang", "en", "--tile", "1.7=4s", "--tile", "01.7=7s"]) == 2
    assert "give tile 1.7 two values" in capsys.readouterr().err
    # the list under a refusal with an exact command shows that command; no list shows a tile as it already reads
    assert main(["score", photo, "--lang", "en"]) == 1
    assert "e.g. --tile 1.7=4s):" in capsys.readouterr().err
    for fixed in ([], ["--tile", "1.7=4s"]):
        main(["score", photo, "--lang", "en", *fixed])
        said = "".join(capsys.readouterr())
        ex = re.search(r"e\.g\. --tile (\d+\.\d+=\w+)\):", said)
        assert ex is not None
        listed = said.split("tiles as read")[-1].split("\n", 1)[1]
        assert ex.group(1) not in re.findall(r"(\d+\.\d+=\w+)[?*]?", listed)
    photo = photo_of(laid([(100, ["123m456m789m123p45p11s", "6p"])]))  # one row of 17
    assert main(["score", photo, "--lang", "en", "--tile", "1.18=6m"]) == 1
    err = capsys.readouterr().err
    assert "--tile 1.18=6m: the photo has 1 row of 17 tiles: there is no tile 1.18" in err and "row 1 has" not in err
    assert main(["score", photo, "--tile", "1.18=6m"]) == 1
    assert "--tile 1.18=6m：照片有 1 列，17 張：沒有 1.18 這張牌" in capsys.readouterr().err
    assert main(["score", photo, "--lang", "en", "--tile", "2.1=6m"]) == 1
    assert "--tile 2.1=6m: the photo has 1 row of 17 tiles: there is no row 2" in capsys.readouterr().err
    assert main(["score", photo, "--tile", "2.1=6m"]) == 1
    assert "沒有第 2 列" in capsys.readouterr().err
    # a JSON refusal names no empty "check"
    assert main(["score", photo_of(laid([(100, ["13579m13579p1357s1z2z", "3z"])])), "--json"]) == 1
    assert "check" not in json.loads(capsys.readouterr().out)["error"]


def test_tile_is_refused_with_several_photos_naming_it(photo_of, tmp_path, capsys) -> None:
    """``--tile``'s numbers are one photo's: a review's second photo was scored "won on 6 Bamboo" by the first's
    correction, silently."""
    photo = photo_of(laid(TWO_ROWS))
    other = tmp_path / "other.png"
    cv2.imwrite(str(other), np.full((60, 80, 3), 90, np.uint8))
    assert main(["score", photo, str(other), "--lang", "en", "--tile", "2.8=7p"]) == 2
    err = capsys.readouterr().err
    assert "--tile 2.8=7p: --tile corrects a tile of one photo, and 2 photos were given" in err
    assert main(["score", photo, str(other), "--tile", "2.8=7p"]) == 2
    assert "--tile 只能改正一張照片的牌" in capsys.readouterr().err
    assert main(["score", photo, "--lang", "en", "--tile", "2.8=7p"]) == 0  # one photo: as before


def test_rob_kong_is_an_option_and_its_missing_discarder_is_named_as_the_option(photo_of, capsys) -> None:
    """搶槓 took ``--context '{"win_type": "rob_kong"}'``, and without ``--discarder`` the error named the JSON field
    ("discarder: a rob_kong win needs the seat that pays")."""
    photo = photo_of(laid(TWO_ROWS))
    assert main(["score", photo, "--lang", "en", "--rob-kong"]) == 2
    err = capsys.readouterr().err
    assert "needs --discarder SEAT" in err and "discarder:" not in err
    assert main(["score", photo, "--context", '{"win_type": "rob_kong"}']) == 2
    assert "搶槓胡要用 --discarder" in capsys.readouterr().err
    assert main(["score", photo, "--lang", "en", "--rob-kong", "--discarder", "S", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["win"]["win_type"] == "rob_kong"
    assert main(["score", photo, "--lang", "en", "--discarder", "E"]) == 2  # the winner himself: the option named
    assert "--discarder: the winner cannot be the discarder" in capsys.readouterr().err


def test_flowers_are_numbered_in_the_order_they_lie_whatever_the_detectors_order(photo_of, capsys) -> None:
    """``f.N`` followed the detector's order: a review's flowers read f.1=3f f.2=4f f.3=6f f.4=1f…, another order in
    each photo. They are numbered as the rows' tiles are: top row first, each left to right."""
    from companion.vision.hand_photo import lay_out

    dets = laid([(100, ["123m456m789m123p456p5s", "5s"]), (200, ["1234f"]), (300, ["5678f"])])
    order = np.array([*range(17), 24, 19, 18, 22, 21, 17, 23, 20])  # the flowers in no order, as a detector gives
    shuffled = dets.take(order)
    assert [Tile(int(shuffled.kind[i])).code for i in lay_out(shuffled).flowers] == \
        ["1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f"]
    assert main(["score", photo_of(shuffled), "--lang", "en"]) == 0
    assert "f.1=1f f.2=2f f.3=3f f.4=4f f.5=5f f.6=6f f.7=7f f.8=8f" in capsys.readouterr().out


def test_the_drawing_numbers_the_tiles_frames_the_one_to_check_and_colours_the_corrected(photo_of, tmp_path,
                                                                                         monkeypatch, capsys) -> None:
    """``score --annotate``: a review could not tell which tile ``--tile 1.7=`` meant (the numbers were in the text
    only), nor which one the refusal asked to check (the app frames it orange), and read a corrected tile's "4s*
    1.00" as the winning tile's mark."""
    import companion.vision.read as read

    drawn = []
    real = read.annotate
    monkeypatch.setattr(read, "annotate", lambda *a, **kw: (drawn.append(kw["marks"]), real(*a, **kw))[1])
    misread = {6: [("9s", 0.98), ("8p", 0.01), ("7z", 0.005)]}  # the 4s read surely as 9s: no win
    photo = photo_of(laid([(100, ["456m789m45s55z", "6s"]), (200, ["123m", "111z"])], misread))
    out = tmp_path / "drawn.png"
    assert main(["score", photo, "--lang", "en", "--annotate", str(out)]) == 1
    marks = drawn.pop()
    assert marks.check == frozenset({6}) and not marks.corrected
    assert marks.places[0] == "1.1" and marks.places[6] == "1.7" and marks.places[14] == "2.4"
    assert main(["score", photo, "--lang", "en", "--annotate", str(out), "--tile", "1.7=4s"]) == 0
    marks = drawn.pop()
    assert marks.corrected == frozenset({6}) and not marks.check and marks.places[6] == "1.7"


def test_the_refusals_and_notes_are_said_in_plain_english(photo_of, capsys) -> None:
    """A wording review: "no tile found in the photo but 8 flower(s)", an example turning a flower into 3m, "not a
    win as read" after the player's own --tile made the hand no win, "The kong of White dragon lies face up"."""
    # (seven: all eight alone are 八仙過海, scored flat)
    flowers = laid([(100, ["1234f"]), (200, ["567f"])], {6: [("7f", 0.4), ("3m", 0.3), ("8f", 0.2)]})
    assert main(["score", photo_of(flowers), "--lang", "en"]) == 1
    err = capsys.readouterr().err
    assert "no tile found in the photo, only 7 flowers: photograph" in err and "(s)" not in err
    example = re.search(r"e\.g\. --tile (f\.\d)=(\w+)\)", err)
    assert example and Tile.from_code(example.group(2)).is_flower, err  # a flower is put right as a flower
    misread = {6: [("9s", 0.98), ("8p", 0.01), ("7z", 0.005)]}  # the 4s read surely as 9s: no win
    photo = photo_of(laid([(100, ["456m789m45s55z", "6s"]), (200, ["123m", "111z"])], misread))
    assert main(["score", photo, "--lang", "en", "--tile", "1.8=6s"]) == 1
    err = capsys.readouterr().err
    assert "not a win with your correction (--tile 1.8=6s)" in err and "as read" not in err.split(";")[0]
    assert main(["score", photo, "--tile", "1.8=6s"]) == 1
    assert "照你的改正（--tile 1.8=6s）不是胡牌" in capsys.readouterr().err
    assert main(["score", photo_of(laid([(100, ["456m789m45s22z", "6s"]), (200, ["5555z", "123m"])])),
                 "--lang", "en"]) == 0
    assert "the White dragon kong lies face up, so it is taken as an exposed kong" in capsys.readouterr().out


def test_an_opencv_failure_while_scoring_is_said_without_its_text(tmp_path, monkeypatch, capsys) -> None:
    """OpenCV's own text (its build path, an assertion) was the English of the refusal, "無法解讀這張圖" the
    Chinese, as if the photo could not be decoded: now a fault of the program, naming the photo, in both languages."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))

    def fail(image, tiled):
        raise cv2.error("OpenCV(5.1.0) /io/opencv/modules/imgproc/src/imgwarp.cpp:1454: error: (-215:Assertion "
                        "failed) dst.rows < SHRT_MAX in function 'remap'")

    reader = argparse.Namespace(read=fail, classifier=argparse.Namespace(calibration=None))
    monkeypatch.setattr(score_command, "_reader", lambda args: reader)
    photo = tmp_path / "hand.png"
    cv2.imwrite(str(photo), np.full((60, 80, 3), 90, np.uint8))
    assert main(["score", str(photo)]) == 1
    err = capsys.readouterr().err
    assert "OpenCV" not in err and "imgwarp" not in err and f"{photo}：處理這張照片時影像運算出錯" in err
    assert main(["score", str(photo), "--lang", "en"]) == 1
    err = capsys.readouterr().err
    assert "OpenCV" not in err and "imgwarp" not in err and f"{photo}: an image-processing step failed" in err


def test_a_refusal_of_the_hand_corrected_is_data_each_surface_words(photo_of, capsys) -> None:
    """The command said "not a win with your correction (--tile …)" by replacing hand_score's opening words by
    pattern: were they reworded, it would go back to "not a win as read" in silence. The refusal says it is of the
    tiles corrected (its ``corrected``), and each surface puts its own words in place of its opening."""
    from companion.rules.profiles import load_profile
    from companion.vision.hand_score import PhotoHandError, score_photo

    misread = {6: [("9s", 0.98), ("8p", 0.01), ("7z", 0.005)]}  # the 4s read surely as 9s: no win
    dets = laid([(100, ["456m789m45s55z", "6s"]), (200, ["123m", "111z"])], misread)
    with pytest.raises(PhotoHandError) as as_read:
        score_photo(dets, {}, load_profile(None))
    assert not as_read.value.corrected and str(as_read.value).startswith("not a win as read; it would be one if")
    assert as_read.value.said(("", ""), ("yours", "你的"))[0].startswith("not a win as read;")  # (none to blame)
    with pytest.raises(PhotoHandError) as fixed:
        score_photo(dets.corrected({7: Tile.S6}), {}, load_profile(None))
    refused = fixed.value
    assert refused.corrected == (7,) and "as read" not in str(refused).split(";")[0]
    assert not refused.zh.startswith("照讀到的")
    en, zh = refused.said(("", ""), ("not a win with yours", "照你的不是胡牌"))
    assert en.startswith("not a win with yours; it would be one if") and zh.startswith("照你的不是胡牌；若")
    assert main(["score", photo_of(dets), "--lang", "en", "--tile", "1.8=6s", "--tile", "1.9=5z"]) == 1
    assert "not a win with your corrections (--tile 1.8=6s --tile 1.9=5z); it would be one if" in \
        capsys.readouterr().err


def test_the_tiles_corrected_are_marked_in_words_not_with_the_winning_tiles_star(photo_of, capsys) -> None:
    """The text list marked a tile given by --tile "1.17=6s*" while the drawing marks the winning tile with ``*``
    (and a corrected one with a frame of its own): one mark, two meanings. The list says "(corrected)" in words."""
    misread = {6: [("9s", 0.98), ("8p", 0.01), ("7z", 0.005)]}
    photo = photo_of(laid([(100, ["456m789m45s55z", "6s"]), (200, ["123m", "111z"])], misread))
    assert main(["score", photo, "--lang", "en", "--tile", "1.7=4s"]) == 0
    out = capsys.readouterr().out
    assert "1.7=4s (corrected) 1.8=5s" in out and "*" not in out.split("tiles as read")[1].split("\n\n")[0]
    assert main(["score", photo, "--tile", "1.7=4s"]) == 0
    out = capsys.readouterr().out
    assert "1.7=4s（改過） 1.8=5s" in out and "* =" not in out


def test_no_tile_example_where_the_way_out_is_the_winning_tile(photo_of, capsys) -> None:
    """16 tiles, the winning one not in the photo: the refusal's way out is --win-tile, yet the list of tiles under
    it still said "e.g. --tile 1.16=7m", which is not it."""
    photo = photo_of(laid([(100, ["123m456m234p678p45s88s"])]))  # waits on 3s or 6s
    for lang, tile_ex in (("en", "e.g. --tile"), ("zh", "例如 --tile")):
        assert main(["score", photo, "--lang", lang, "--discarder", "N"]) == 1
        err = capsys.readouterr().err
        assert "--win-tile 3s" in err and tile_ex not in err and "1.1=1m" in err
        assert main(["score", photo, "--lang", lang, "--discarder", "N", "--json"]) == 1
        assert json.loads(capsys.readouterr().out)["error"]["way_out"] == "win_tile"


def test_the_ways_of_winning_the_photo_form_offers_are_one_option_of_the_command(photo_of, capsys) -> None:
    """The app's Photo form offers 八仙過海 and 七搶一; the command took them only as --context's JSON
    ('{"win_type": "seven_flowers_rob", ...}'), 搶槓 alone having an option. ``--win-type`` takes each (its name or
    its Chinese one), ``--rob-kong`` its shorthand still, and the seat that pays is asked as ``--discarder``."""
    seven = photo_of(laid([(100, ["123m789m234p5p"]), (200, ["777s", "345s"]), (300, ["1f2f3f4f5f6f7f"])]))
    for name in ("seven_flowers_rob", "七搶一", "SEVEN_FLOWERS_ROB"):
        assert main(["score", seven, "--win-type", name, "--discarder", "S", "--seat", "W", "--json"]) == 0
        win = json.loads(capsys.readouterr().out)["win"]
        assert win["win_type"] == "seven_flowers_rob" and win["discarder"] == "S"
    assert main(["score", seven, "--lang", "en", "--win-type", "seven_flowers_rob", "--seat", "W"]) == 2
    err = capsys.readouterr().err
    assert "needs --discarder SEAT: the seat that showed the eighth flower pays" in err and "discarder:" not in err
    assert main(["score", seven, "--win-type", "七搶一", "--seat", "W"]) == 2
    assert "七搶一要用 --discarder 座位" in capsys.readouterr().err
    eight = photo_of(laid([(100, ["123m456m789m123p45s55z"]), (200, ["1f2f3f4f5f6f7f8f"])]))
    assert main(["score", eight, "--win-type", "八仙過海", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["win"]["win_type"] == "eight_flowers"
    assert main(["score", eight, "--lang", "en", "--rob-kong", "--win-type", "eight_flowers", "--discarder", "S"]) == 2
    assert "--rob-kong and --win-type eight_flowers say two ways the hand was won" in capsys.readouterr().err
    photo = photo_of(laid(TWO_ROWS))
    assert main(["score", photo, "--win-type", "rob_kong", "--discarder", "S", "--rob-kong", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["win"]["win_type"] == "rob_kong"
    with pytest.raises(SystemExit):
        main(["score", photo, "--win-type", "bogus"])
    assert "--win-type" in capsys.readouterr().err


def test_a_discarder_given_with_a_win_no_seat_pays_is_said_as_the_option(photo_of, capsys) -> None:
    """``--win-type eight_flowers --discarder S`` said "a eight_flowers win has no discarder (null)", the JSON
    field's words, on the command line (self_draw alike)."""
    photo = photo_of(laid(TWO_ROWS))
    for kind, en, zh in (("eight_flowers", "a win by eight flowers has no discarder: leave out --discarder",
                          "八仙過海沒有放槍的人：不要加 --discarder"),
                         ("self_draw", "a self-drawn win has no discarder: leave out --discarder",
                          "自摸沒有放槍的人：不要加 --discarder")):
        assert main(["score", photo, "--lang", "en", "--win-type", kind, "--discarder", "S"]) == 2
        err = capsys.readouterr().err
        assert en in err and "null" not in err
        assert main(["score", photo, "--win-type", kind, "--discarder", "S"]) == 2
        assert zh in capsys.readouterr().err


def test_win_tile_and_kong_are_refused_with_several_photos_naming_them(photo_of, tmp_path, capsys) -> None:
    """``--win-tile`` and ``--kong`` are one hand's, as ``--tile`` is: they applied to every photo, silently."""
    photo = photo_of(laid(TWO_ROWS))
    other = tmp_path / "other.png"
    cv2.imwrite(str(other), np.full((60, 80, 3), 90, np.uint8))
    for option, value in (("--win-tile", "3s"), ("--kong", "5p=addkong")):
        assert main(["score", photo, str(other), "--lang", "en", option, value]) == 2
        err = capsys.readouterr().err
        assert f"{option} {value}: {option}" in err and "2 photos were given" in err
        assert main(["score", photo, str(other), option, value]) == 2
        assert f"{option} {value}：{option} 只能" in capsys.readouterr().err


def test_a_refusals_and_notes_way_out_is_said_with_the_tiles_and_options_it_names(photo_of, capsys) -> None:
    """A flower read twice was shown "e.g. --tile 1.16=9p" (the hand's last tile, not a flower to check); the note
    on all eight flowers said no option for its Seven rob one; a winning tile named and not in the photo asked who
    discarded it, not saying that a self-drawn one left out of the photo is --win-type self_draw."""
    sixteen = "123m456m234p678p45s88s"
    assert main(["score", photo_of(laid([(100, [sixteen]), (200, ["1234f"]), (300, ["5677f"])])), "--lang", "en"]) == 1
    err = capsys.readouterr().err
    assert "e.g. --tile f.7=8f" in err and "--tile 1.16=" not in err
    for unsure, named in ((22, "f.7"), (23, "f.8")):  # the copy read 7f/1f/8f; 1f is read already, at f.1
        doubt = {unsure: [("7f", 0.6), ("1f", 0.3), ("8f", 0.1)]}
        assert main(["score", photo_of(laid([(100, [sixteen]), (200, ["1234f"]), (300, ["5677f"])], doubt)),
                     "--lang", "en"]) == 1
        err = capsys.readouterr().err
        assert f"e.g. --tile {named}=8f" in err and f"--tile {named}=1f" not in err
    assert main(["score", photo_of(laid([(100, [sixteen]), (200, ["1234f"]), (300, ["5678f"])])), "--lang", "en"]) == 0
    assert "--win-type seven_flowers_rob --discarder SEAT" in capsys.readouterr().out
    photo = photo_of(laid([(100, [sixteen])]))
    assert main(["score", photo, "--lang", "en", "--win-tile", "3s"]) == 1
    err = capsys.readouterr().err  # one way out or the other, not "so it was a discard … if it was self-drawn"
    assert "the winning tile named, 3s, is not in the photo: give --discarder SEAT (E S W N), or --win-type " \
        "self_draw if it was self-drawn and left out of the photo" in err
    assert "so it was" not in err and "say who discarded it" not in err
    assert main(["score", photo, "--win-tile", "3s"]) == 1
    err = capsys.readouterr().err
    assert "請加 --discarder 座位（E S W N），若是自摸、只是沒拍進照片，請加 --win-type self_draw" in err
    assert "所以是胡別人" not in err
    assert main(["score", photo, "--win-tile", "3s", "--win-type", "self_draw"]) == 0


def test_the_note_on_all_eight_flowers_says_seven_rob_one_in_the_photo_forms_fields() -> None:
    """The note said to give Seven rob one "as the kind of win", naming no field of the form; then said the form’s
    fields after its own way out, the Chinese the same twice (「請把胡法指定為七搶一，並指定被搶的人（在「胡法」選…）」)."""
    from companion.app.photo_model import doubt_note
    from companion.rules.profiles import load_profile
    from companion.vision.hand_score import WayOut, score_photo

    got = score_photo(laid([(100, ["123m456m234p678p45s88s"]), (200, ["1234f"]), (300, ["5678f"])]), {},
                      load_profile(None))
    note = next(n for n in got.doubts if n.way_out is WayOut.SEVEN_ROB_ONE)
    tab = doubt_note(note)
    assert tab.en.endswith(" with his seven: if it was robbed, say so as the kind of win, with the player robbed (in "
                           "the form’s “Win” and “Discarder” boxes)"), tab
    assert tab.zh.endswith("若第八張是搶別家的，請把胡法指定為七搶一，並指定被搶的人（在表單的「胡法」和「放槍的人」兩欄）"), tab


def test_seven_flowers_and_16_tiles_say_how_to_give_seven_rob_one(photo_of, capsys) -> None:
    """16 tiles and seven flowers were refused "…it is Seven rob one", with no option (nor form field) for it."""
    from companion.app.photo_model import app_words
    from companion.rules.profiles import load_profile
    from companion.vision.hand_score import PhotoHandError, WayOut, score_photo

    hand = [(100, ["123m456m234p678p45s88s"]), (200, ["1234f"]), (300, ["567f"])]
    assert main(["score", photo_of(laid(hand)), "--lang", "en"]) == 1
    err = capsys.readouterr().err
    assert "it is Seven rob one: if it was robbed, say so as the kind of win, with the player robbed " \
        "(--win-type seven_flowers_rob --discarder SEAT) (read: " in err
    assert main(["score", photo_of(laid(hand))]) == 1
    assert "請把胡法指定為七搶一，並指定被搶的人（--win-type seven_flowers_rob --discarder 座位）（讀到：" \
        in capsys.readouterr().err
    with pytest.raises(PhotoHandError) as e:
        score_photo(laid(hand), {}, load_profile(None))
    assert e.value.also is WayOut.SEVEN_ROB_ONE
    tab = app_words(e.value)
    assert "Seven rob one: if it was robbed, say so as the kind of win, with the player robbed (in the form’s “Win” " \
        "and “Discarder” boxes) (read: " in tab.en
    assert "（在表單的「胡法」和「放槍的人」兩欄）（讀到：" in tab.zh
    assert "--win-type" not in app_words(e.value, live=True).en


def test_the_tile_example_never_reads_a_tile_as_it_already_reads() -> None:
    """One helper gives both examples (the refusal's tile to check and the photo's): with all eight flowers read and
    the one to check read 1f surely, the spare flower is another (1f would change nothing)."""
    _another_reading = score_command._another_reading
    kinds = [int(Tile.from_code(f"{n}f")) for n in range(1, 9)]
    dets = argparse.Namespace(kind=np.array(kinds), top3_kind=np.array([[k, k, k] for k in kinds]))
    assert _another_reading(dets, 0) == Tile.F2
    assert _another_reading(dets, 3) == Tile.F1
    dets = argparse.Namespace(kind=np.array([int(Tile.M1), kinds[0]]),
                           top3_kind=np.array([[int(Tile.M1), kinds[1], int(Tile.M3)], [kinds[0]] * 3]))
    assert _another_reading(dets, 0) == Tile.M3  # its next reading of its own sort, not the flower
    assert _another_reading(dets, 1) == Tile.F2  # a flower not read
