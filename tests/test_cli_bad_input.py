"""Bad input a review fed the commands: each is refused with a message naming it, in both languages, never a
traceback (numbers longer than Python reads, digits that are not decimal, a table file's event stored as bytes,
a --table that is no table file, an event's version of the wrong type, an unreadable tile-set selection)."""

from __future__ import annotations

import json
import logging
import sqlite3
from pathlib import Path

import pytest

from companion.cli import main
from companion.files import loads_json

LONG = "1" * 5000  # past the 4300 digits Python turns into an int


def test_a_number_too_long_to_read_is_bad_json_where_it_stands() -> None:
    with pytest.raises(json.JSONDecodeError) as bad:
        loads_json('{"streak": ' + LONG + "}")
    assert bad.value.pos == len('{"streak": ') and "5000 digits" in str(bad.value)
    assert loads_json('{"streak": 12}') == {"streak": 12}
    with pytest.raises(json.JSONDecodeError):
        loads_json("{")


def test_numbers_too_long_are_refused_by_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "big.jsonl"
    log.write_text(LONG + "\n", encoding="utf-8")
    assert main(["tai", str(log)]) == 1  # a bad line, as any line that is not JSON
    out = json.loads(capsys.readouterr().out)
    assert out["error"]["kind"] == "json" and "too long" in out["error"]["message"]
    assert "數字太長" in out["error"]["message_zh"]
    assert main(["replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert "第 1 行" in err and "too long to read" in err and "數字太長" in err
    hand = tmp_path / "hand.jsonl"
    hand.write_text('{"concealed": "123m456m789m123p45s66z", "win_tile": "6s", "win_type": "discard"}\n', "utf-8")
    for stakes in (f"{LONG}/1", "²/1"):  # (isdigit passed ² to int: a traceback)
        assert main(["tai", "--stakes", stakes, str(hand)]) == 2
        err = capsys.readouterr().err
        assert "--stakes" in err and "選項 --stakes 有誤" in err
    for value in (LONG, "²"):
        assert main(["simulate", "--hands", "1", "--switch", f"streak_cap={value}"]) == 2
        err = capsys.readouterr().err
        assert "streak_cap" in err and "規則開關有誤" in err
    house = tmp_path / "house.toml"
    house.write_text(f'id = "house"\ninherits = "atawmj_2009"\n[switches]\nstreak_cap = {LONG}\n', "utf-8")
    assert main(["tai", "--profile", str(house), str(hand)]) == 2
    err = capsys.readouterr().err
    assert "house.toml" in err and "too long to read" in err and "數字太長" in err


def _table_with(tmp_path: Path, body: object) -> Path:
    """A table file whose one event is ``body`` (the live game's schema, as the service writes it)."""
    from companion.game import events as ev
    from companion.game.service import TableService

    path = tmp_path / "table.sqlite"
    service = TableService(path)
    service.submit(ev.Seated(players=("a", "b", "c", "d")))
    service.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE events SET body = ?", (body,))
    db.close()
    return path


def test_a_table_files_event_stored_as_bytes_is_read_as_utf8(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Bytes that are not UTF-8 were a traceback; bytes that are replay as the text they hold, in the replay and
    in the table service alike."""
    from companion.game.service import TableService

    seated = b'{"v": 2, "type": "Seated", "players": ["a", "b", "c", "d"]}'
    path = _table_with(tmp_path, seated)
    assert main(["replay", "--quiet", str(path)]) == 0
    service = TableService(path)
    try:
        assert service.state.players == ("a", "b", "c", "d")
    finally:
        service.close()
    capsys.readouterr()
    path.unlink()
    path = _table_with(tmp_path, b"\xff\xfe\x00")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "存下的事件 #0" in err and "stored event #0" in err and "not UTF-8" in err and "Traceback" not in err


def test_an_events_version_of_the_wrong_type_is_said_as_such(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """``"v": "2"`` was said to be an event without a version, with the whole event after it; it is said as the
    file writes it ("2"), not as Python does ('2')."""
    log = tmp_path / "log.jsonl"
    log.write_text('{"v": "2", "type": "Seated", "players": ["a", "b", "c", "d"]}\n', "utf-8")
    assert main(["replay", str(log)]) == 2
    err = capsys.readouterr().err
    assert 'got "2"' in err and '收到 "2"' in err and "players" not in err


@pytest.mark.parametrize("kind", ["folder", "program", "log"])
def test_app_refuses_a_table_file_that_is_none_before_serving(kind: str, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """``--table`` naming a folder, a program or a JSON-lines log was served, and every entry then refused."""
    table = tmp_path / "t"
    if kind == "folder":
        table.mkdir()
    elif kind == "program":
        table.write_bytes(b"\x7fELF\x02\x01\x01" + bytes(64))
    else:
        table.write_text('{"v": 2, "type": "Seated", "players": ["a", "b", "c", "d"]}\n', "utf-8")
    assert main(["app", "--no-browser", "--port", "1", "--table", str(table)]) == 2  # (port 1: never reached)
    err = capsys.readouterr().err
    assert f"--table {table}" in err and "牌局檔" in err and "table file" in err


def test_more_options_given_empty_or_in_odd_digits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``app --table ''`` took the default file; ``replay --csv --passed`` dropped --passed; ``--switch`` digits
    such as 05 or full-width ones were a traceback; a result too long to write out is said, not a traceback."""
    assert main(["app", "--no-browser", "--port", "1", "--table", ""]) == 2
    assert "--table" in capsys.readouterr().err
    log = tmp_path / "log.jsonl"
    assert main(["simulate", "--hands", "1", "--switch", "streak_cap=05", "--out", str(log)]) == 0
    assert main(["simulate", "--hands", "1", "--switch", "streak_cap=５", "--out", str(log)]) == 0
    assert main(["replay", "--csv", "--passed", str(log)]) == 2
    assert "--passed" in capsys.readouterr().err
    nines = "9" * 4300  # read whole, but the payments it makes are longer than Python writes out
    log.write_text(f'{{"v": 2, "type": "Seated", "players": ["a", "b", "c", "d"], "base": {nines}, '
                   f'"per_tai": {nines}}}\n', encoding="utf-8")
    # (nothing paid yet: it may print; stakes this version refuses are named and replayed as kept, exit 1)
    assert main(["replay", "--quiet", str(log)]) in (1, 2)
    assert "Traceback" not in capsys.readouterr().err
    hand = tmp_path / "hand.jsonl"
    hand.write_text(f'{{"concealed": "123m456m789m123p45s66z", "win_tile": "6s", "win_type": "self_draw", '
                    f'"seat_wind": "S", "round_wind": "E", "streak": {nines}}}\n', encoding="utf-8")
    assert main(["tai", str(hand)]) == 1  # refused as a streak no table plays, not said back in its 4300 digits
    out = capsys.readouterr().out
    assert "連莊超過 99 把" in out and len(out) < 1000


def test_house_files_inheriting_each_other_by_path_are_refused(tmp_path: Path) -> None:
    from companion.rules.profiles import ProfileError, load_profile

    one, two = tmp_path / "one.toml", tmp_path / "two.toml"
    one.write_text(f'id = "one"\ninherits = "{two}"\n', encoding="utf-8")
    two.write_text(f'id = "two"\ninherits = "{one}"\n', encoding="utf-8")
    with pytest.raises(ProfileError) as bad:
        load_profile(str(one))
    assert "circle" in str(bad.value) and "繞成一圈" in bad.value.zh


def test_an_unreadable_selection_is_said_once_in_both_languages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    from companion.vision import calibration

    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    (tmp_path / "calibration").mkdir()
    (tmp_path / "calibration" / "current.txt").write_bytes(b"\xff\xfe bad")
    with caplog.at_level(logging.WARNING):
        assert calibration.selected() is None and calibration.selection_gone() is None
    said = [r.getMessage() for r in caplog.records if "current.txt" in r.getMessage()]
    assert len(said) == 1 and "select a set again" in said[0] and "重新選用" in said[0]


def test_calibrate_says_what_is_wrong_with_the_command_before_reading_any_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A bad set name was never mentioned (only the crops were complained of), --add with --replace only after the
    photos were read, and a folder named like a set was listed as one and then not found."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    missing = str(tmp_path / "none" / "5m.png")
    assert main(["calibrate", "add", "../x", missing]) == 2
    err = capsys.readouterr().err
    assert "“../x”" in err and "牌組名稱「../x」" in err and "5m.png" not in err
    assert main(["calibrate", "photo", "home", missing, "--add", "--replace"]) == 2
    err = capsys.readouterr().err
    assert "--add" in err and "擇一" in err and "5m.png" not in err
    (tmp_path / "calibration" / "weird.npz").mkdir(parents=True)
    assert main(["calibrate", "use", "weird"]) == 2
    assert "known: none" in capsys.readouterr().err


def test_an_empty_or_folder_output_name_is_refused_not_ignored(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """``--annotate ''`` drew nothing and ``--annotate FOLDER`` wrote FOLDER.png beside it, both without a word;
    ``simulate --out ''`` wrote to standard output (and is said in the language COMPANION_LANG asks for, both where
    it asks none: a change review read both under COMPANION_LANG=en)."""
    monkeypatch.delenv("COMPANION_LANG", raising=False)
    photo = str(tmp_path / "hand.jpg")  # refused before any photo is read: it need not exist
    for out in ("", str(tmp_path)):
        assert main(["read", "--annotate", out, photo]) == 2
        err = capsys.readouterr().err
        assert "--annotate" in err and ("檔名" in err or "資料夾" in err)
    assert not (tmp_path.parent / f"{tmp_path.name}.png").exists()
    zh, en = "--out 要寫檔名（不寫 --out 就印到標準輸出）", "--out needs a file name (without --out the log goes to standard output)"
    for lang, said in ((None, f"{zh} / {en}"), ("en", en), ("zh_TW", zh)):
        if lang is not None:
            monkeypatch.setenv("COMPANION_LANG", lang)
        assert main(["simulate", "--hands", "1", "--out", ""]) == 2
        assert capsys.readouterr() == ("", f"companion simulate: {said}\n")


def test_a_house_file_inheriting_an_unknown_profile_is_named(tmp_path: Path) -> None:
    from companion.rules.profiles import ProfileError, load_profile

    house = tmp_path / "house.toml"
    house.write_text('id = "house"\ninherits = "nope"\n', encoding="utf-8")
    with pytest.raises(ProfileError) as bad:
        load_profile(str(house))
    assert "house.toml" in str(bad.value) and "“nope”" in str(bad.value)
    assert "house.toml" in bad.value.zh and "不認得規則「nope」" in bad.value.zh


def test_a_line_that_is_no_utf8_and_a_long_input_are_said_as_such(monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A review piped bytes that are no UTF-8 into shanten and waits: they were said back as escapes, "不認得這個字
    ('\\udcff')", where tai says "not UTF-8 text"; and a 10,000-character argument came back whole."""
    import io

    raw = io.TextIOWrapper(io.BytesIO(b"\xff\xfe\n123m456m789m123p45p99s\n"), encoding="utf-8",
                           errors="surrogateescape")  # as Python reads a pipe in the C locale
    monkeypatch.setattr("sys.stdin", raw)
    assert main(["shanten", "--lang", "en"]) == 1
    out = capsys.readouterr()
    assert out.err == "companion: line 1: not UTF-8 text (byte 1)\n" and "  ready  " in out.out  # the next line read
    assert main(["waits", "1m" * 5000]) == 1
    err = capsys.readouterr().err
    assert "第 1 個引數「" + "1m" * 39 + "1…」：" in err and len(err) < 300


def test_an_empty_file_name_is_said_as_such(capsys: pytest.CaptureFixture[str]) -> None:
    """`replay ""` said "cannot read : Is a directory", `read ""` that "." is a folder (a review)."""
    assert main(["replay", ""]) == 2
    assert "LOG is empty: give the log's or the table file's name" in capsys.readouterr().err
    assert main(["read", ""]) == 1
    assert '"": an empty file name' in capsys.readouterr().err


def test_a_file_where_an_outputs_folder_must_be_is_named_as_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A review: ``calibrate sheet X/sheet.pdf`` with ``X`` a file said "the folder X does not exist"; ``simulate
    --out X/log`` and ``tai --save-profile`` into a data folder that is a file said "Not a directory" or "File
    exists", naming no file. Every command writing a file says that ``X`` is a file, not a folder, naming it, in
    both languages, and writes nothing."""
    plain = tmp_path / "X"
    plain.write_text("kept\n", encoding="utf-8")
    photo = str(tmp_path / "hand.jpg")  # refused before any photo is read: it need not exist
    en, zh = f"{plain} is a file, not a folder", f"{plain} 是檔案，不是資料夾"
    for below in (plain / "out.png", plain / "deeper" / "out.png"):
        for commands in ([["calibrate", "sheet", str(below.with_suffix(".pdf"))]], [["simulate", "--out", str(below)]],
                         [["read", "--annotate", str(below), photo]],
                         [["score", "--lang", lang, "--annotate", str(below), photo] for lang in ("zh", "en")],
                         [["calibrate", "photo", "club", photo, "--crops", str(below.parent)]]):
            err = ""
            for command in commands:  # (score says one language: each asked)
                assert main(command) == 2, command
                err += capsys.readouterr().err
            assert en in err and zh in err and "does not exist" not in err and "不存在" not in err, (commands, err)
    assert main(["calibrate", "photo", "club", photo, "--crops", str(plain)]) == 2  # the folder to be made itself
    err = capsys.readouterr().err
    assert en in err and zh in err and "File exists" not in err
    house = tmp_path / "home8.toml"
    house.write_text('id = "home8"\ninherits = "atawmj_2009"\nname_zh = "週五家規"\nname_en = "Friday house"\n',
                     encoding="utf-8")
    for data, blocker in ((plain, plain), (tmp_path / "data", tmp_path / "data" / "profiles")):
        if blocker != plain:
            blocker.parent.mkdir()
            blocker.write_text("kept\n", encoding="utf-8")
        monkeypatch.setenv("COMPANION_DATA_DIR", str(data))
        assert main(["tai", "--save-profile", str(house)]) == 2
        err = capsys.readouterr().err
        assert f"{blocker} is a file, not a folder" in err and f"{blocker} 是檔案，不是資料夾" in err, err
        assert blocker.read_text(encoding="utf-8") == "kept\n"
    assert plain.read_text(encoding="utf-8") == "kept\n"


def test_a_link_that_loops_where_an_outputs_folder_must_be_is_named_as_such(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A review: ``calibrate sheet loop1/s.pdf`` (``loop1 -> loop2 -> loop1``) said "the folder loop1 does not
    exist", and ``simulate --out loop1/x`` "Too many levels of symbolic links" in both halves. Every command writing a
    file says that ``loop1`` is a link that loops, naming it, in both languages, and writes nothing."""
    from tests.test_files import _loop

    loop = _loop(tmp_path)
    photo = str(tmp_path / "hand.jpg")  # refused before any photo is read: it need not exist
    en, zh = f"{loop} is a link that loops back on itself, not a folder", f"{loop} 是繞回自己的符號連結，不是資料夾"
    for below in (loop / "out.png", loop / "deeper" / "out.png"):
        for command in (["calibrate", "sheet", str(below.with_suffix(".pdf"))], ["simulate", "--out", str(below)],
                        ["read", "--annotate", str(below), photo],
                        ["calibrate", "photo", "club", photo, "--crops", str(below.parent)]):
            assert main(command) == 2, command
            err = capsys.readouterr().err
            assert en in err and zh in err and "does not exist" not in err and "Too many levels" not in err, err
    assert main(["calibrate", "photo", "club", photo, "--crops", str(loop)]) == 2  # the folder to be made itself
    err = capsys.readouterr().err
    assert en in err and zh in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["loop1", "loop2"] and loop.is_symlink()


def test_calibrate_photo_of_no_photo_read_says_only_why(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # "nope.jpg: no such file" was followed by "no tiles found in any photo", one more fault that was none (a review)
    assert main(["calibrate", "photo", "home", str(tmp_path / "nope.jpg")]) == 2
    err = capsys.readouterr().err
    assert "no such file" in err and "no tiles found" not in err
