"""`companion simulate` and `companion replay` end to end."""

from __future__ import annotations

import csv
import io
import itertools
import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.game import events as ev
from companion.game.state import Phase
from companion.game.text import msg
from companion.game.view import evidence_said


def test_simulate_then_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "log.jsonl"
    assert main(["simulate", "--seed", "7", "--hands", "3", "--out", str(out)]) == 0
    lines = out.read_text("utf-8").splitlines()
    assert json.loads(lines[0])["type"] == "Seated" and all(json.loads(x)["v"] == ev.SCHEMA_VERSION for x in lines)
    assert main(["replay", str(out), "--passed"]) == 0
    text = capsys.readouterr().out
    assert "過水 / passed wins" in text
    assert "牌牆" in text and "wall" in text and "結帳：最少筆數的付款 / settling up: the fewest payments" in text
    assert text.count("\n#") + text.startswith("#") == len(lines)
    hands = text.split("== 每把 / each hand ==\n", 1)[1].split("==", 1)[0].splitlines()
    assert len([h for h in hands if h.startswith("  #")]) == 3 and any("→" in h for h in hands)  # who won, who paid
    # --json prints the JSON alone (a review piped it into a parser and met the tables first)
    assert main(["replay", str(out), "--json", "--passed"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert sum(data["balances"].values()) == 0 and isinstance(data["passed"], list)


def test_replay_numbers_each_event_by_its_place_in_the_log_retractions_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A retraction's header once repeated the number of the event it took back, and the numbers then jumped."""
    import re

    out = tmp_path / "log.jsonl"
    assert main(["simulate", "--seed", "7", "--hands", "3", "--out", str(out)]) == 0
    lines = out.read_text("utf-8").splitlines()
    assert any(json.loads(x)["type"] == "Retracted" for x in lines)
    assert main(["replay", str(out)]) == 0
    numbers = [int(m) for m in re.findall(r"^#(\d+) ", capsys.readouterr().out, re.M)]
    assert numbers == list(range(len(lines)))


def test_simulate_to_stdout_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    main(["simulate", "--seed", "3", "--hands", "1"])
    a = capsys.readouterr().out
    main(["simulate", "--seed", "3", "--hands", "1"])
    assert a == capsys.readouterr().out and a.count("\n") > 50


def test_simulate_reports_a_write_that_fails_midway(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk or an I/O error while the log is written: a message naming the file (exit 2), no traceback, and
    the log that was there kept whole, with nothing left beside it."""
    import os

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    log = tmp_path / "log.jsonl"
    assert main(["simulate", "--seed", "2", "--hands", "1", "--out", str(log)]) == 0  # an earlier log, replaceable
    kept = log.read_bytes()
    monkeypatch.setattr(os, "fsync", full)
    assert main(["simulate", "--seed", "1", "--hands", "1", "--out", str(log)]) == 2
    err = capsys.readouterr().err
    assert "cannot write" in err and "log.jsonl" in err and "No space left on device" in err and "磁碟已滿" in err
    assert log.read_bytes() == kept and [p.name for p in tmp_path.iterdir()] == ["log.jsonl"]


def test_simulate_replaces_only_a_log_it_wrote(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A review's ``simulate --out`` replaced a live game's table file and an unrelated ``precious.toml`` without a
    word; then the bundled demo game (a real game, seated with the simulator's player names) copied to mygame.jsonl,
    taken for a simulated log by its names. A table file (said an SQLite file, perhaps a table file: 牌局檔, as the app
    says), a game's own log and any other file are kept, the refusal naming the file in both languages; a simulated
    log is one its seating marks ``"source": "simulated"``: an earlier one, an empty file and a new name are
    written."""
    from importlib.resources import files

    from companion.game.service import TableService

    table = tmp_path / "game.sqlite"
    with TableService(table):
        pass
    toml = tmp_path / "precious.toml"
    toml.write_text('id = "mine"\n', encoding="utf-8")
    real = tmp_path / "real.jsonl"
    assert main(["simulate", "--seed", "4", "--hands", "1", "--out", str(real)]) == 0
    seated = json.loads(real.read_text("utf-8").splitlines()[0])
    assert seated["source"] == "simulated"  # the mark, on the seating
    seated["players"] = ["Ann", "Bo", "Cy", "Di"]  # a game played at a table: its own players, entered by hand
    real.write_text(json.dumps(seated | {"source": "manual"}) + "\n", encoding="utf-8")
    demo = tmp_path / "mygame.jsonl"  # a real game seated with the simulator's names
    demo.write_bytes(files("companion").joinpath("assets/demo/game.jsonl").read_bytes())
    assert main(["replay", str(demo), "--quiet"]) == 0  # (the demo stays a good log)
    for path, said, said_zh in ((table, "an SQLite file (perhaps a table file", "SQLite 檔（可能是牌局檔"),
                                (toml, "not a log simulate wrote", "不是 simulate 寫的"),
                                (real, "not a log simulate wrote", "不是 simulate 寫的"),
                                (demo, "not a log simulate wrote", "不是 simulate 寫的")):
        before = path.read_bytes()
        assert main(["simulate", "--hands", "1", "--out", str(path)]) == 2
        err = capsys.readouterr().err
        assert f"--out {path}: " in err and said in err and f"--out {path}：" in err and "請換一個檔名" in err
        assert said_zh in err and "牌桌檔" not in err
        assert path.read_bytes() == before
    again = tmp_path / "sim.jsonl"
    assert main(["simulate", "--seed", "1", "--hands", "1", "--out", str(again)]) == 0
    assert main(["simulate", "--seed", "2", "--hands", "1", "--out", str(again)]) == 0
    empty = tmp_path / "empty.jsonl"
    empty.touch()
    assert main(["simulate", "--seed", "2", "--hands", "1", "--out", str(empty)]) == 0
    assert again.read_bytes() == empty.read_bytes() and capsys.readouterr().err == ""


def test_an_interrupted_simulation_leaves_the_log_that_was_there(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A review stopped a long run with Ctrl+C: its kept log was gone, and the shorter one replayed as if whole."""
    from companion.game.simulator import Simulator

    def stopped(self: Simulator, hands: int) -> Any:
        yield from itertools.islice(real(self, 1), 40)
        raise KeyboardInterrupt

    real = Simulator.run
    log = tmp_path / "log.jsonl"
    assert main(["simulate", "--seed", "2", "--hands", "1", "--out", str(log)]) == 0
    kept = log.read_bytes()
    monkeypatch.setattr(Simulator, "run", stopped)
    assert main(["simulate", "--seed", "3", "--hands", "5", "--out", str(log)]) == 130  # (Ctrl+C's exit)
    assert log.read_bytes() == kept and [p.name for p in tmp_path.iterdir()] == ["log.jsonl"]


def test_replay_names_the_illegal_event(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "log.jsonl"
    main(["simulate", "--seed", "7", "--hands", "1", "--out", str(out)])
    lines = out.read_text("utf-8").splitlines()
    n = next(i for i, x in enumerate(lines) if json.loads(x)["type"] == "Drew")
    bad = json.loads(lines[n])
    bad["seat"] = (bad["seat"] + 1) % 4  # the wrong player draws
    lines[n] = json.dumps(bad)
    out.write_text("\n".join(lines) + "\n", "utf-8")
    assert main(["replay", str(out), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert f"line {n + 1}" in err and "Drew" in err and "turn" in err


def test_replay_names_an_event_only_the_newer_checks_refuse_and_replays_it_as_kept(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A tracker review: a log with a win 過水 barred (seen in the tiles shown) replayed with exit 0 and was scored,
    where entering or importing it is refused. A log saved before such a check still replays (the app opens it as
    kept), but the command names the event and exits 1."""
    from companion.tiles import Tile, parse_tiles
    from tests.game.test_game_claims import _face_down_pass

    log = [*_face_down_pass([ev.Discarded(seat=1, tile=Tile.S7)]),
           ev.Won(seat=2, kind=ev.WinKind.DISCARD, tile=Tile.S7, concealed=parse_tiles("111z222z333z444z66p77s"))]
    path = tmp_path / "passed.jsonl"  # kept before events were stamped with the rules they were checked under
    path.write_text("".join(json.dumps({**ev.to_dict(e), "rules_version": 0}, ensure_ascii=False) + "\n"
                            for e in log), "utf-8")
    assert main(["replay", str(path), "--lang", "en"]) == 1
    out, err = capsys.readouterr()
    assert f"line {len(log)}: illegal event Won" in err and "passed win" in err and "replayed as kept" in err
    assert "each hand" in out  # the ledger is there, as the app shows it
    assert main(["replay", str(path), "--json"]) == 1 and json.loads(capsys.readouterr().out)["players"]


def test_replay_says_how_many_events_it_let_in_under_older_rules_and_the_first_as_the_app_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An old log's events that only today's rules refuse: how many and the first (its line, today's refusal), in
    the words the app says them in (:meth:`OlderRules.said`, one function); the others listed after it. A log
    stamped with today's rules that they take says nothing of it."""
    from tests.game.test_older_rules import old_events, old_lines

    path = tmp_path / "old.jsonl"
    path.write_text("\n".join(old_lines(old_events())) + "\n", encoding="utf-8")
    assert main(["replay", str(path), "--quiet"]) == 1
    out, err = capsys.readouterr()
    assert f"{path}: this version refuses 2 events, replayed as kept under an earlier version's rules" in err
    assert "the first: line 1: illegal event Seated: the base or the amount per tai is too large" in err
    assert f"{path}：這個版本會拒絕其中 2 個事件" in err and "第一個：第 1 行的入座不合法" in err
    assert "\n  第 8 行的胡牌不合法" in err and "line 8: illegal event Won" in err and "ledger" in out
    today = tmp_path / "today.jsonl"
    today.write_text("\n".join(old_lines(old_events(stakes_over_cap=False)[:-1], ev.RULES_VERSION)) + "\n",
                     encoding="utf-8")
    assert main(["replay", str(today), "--quiet"]) == 0
    assert capsys.readouterr().err == ""


def test_replay_refuses_a_log_stamped_with_today_s_rules_that_they_refuse_as_the_import_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A code review: a log written by this version (``companion simulate``), edited to seat two look-alike names at
    stakes over the cap, was "replayed as kept" as if an earlier version had saved it, and ``app --from-log`` put
    it into a live table. Its events carry today's rules stamp: replay refuses it, as the import and the app's Open
    log do; the same log kept before the stamp still replays as kept, named on stderr."""
    from companion.app.table_model import GameReplay, LogError
    from companion.game.service import TableService
    from companion.game.text import IllegalEvent

    sim = tmp_path / "sim.jsonl"
    assert main(["simulate", "--seed", "3", "--hands", "1", "--out", str(sim)]) == 0
    lines = sim.read_text("utf-8").splitlines()
    first = json.loads(lines[0])
    assert first["type"] == "Seated" and first["rules_version"] == ev.RULES_VERSION
    forged = [json.dumps({**first, "base": 900_000_000_000, "players": ["Lin", "Lin\u200b", "老王", "小美"]}),
              *lines[1:]]
    today = tmp_path / "forged.jsonl"
    today.write_text("\n".join(forged) + "\n", "utf-8")
    assert main(["replay", str(today), "--quiet", "--lang", "en"]) == 1
    out, err = capsys.readouterr()
    assert "line 1: illegal event Seated" in err and "four players with distinct names" in err
    assert "replayed as kept" not in err and "ledger" not in out
    with pytest.raises(IllegalEvent, match="line=1"):
        TableService.import_jsonl(tmp_path / "t.sqlite", forged)
    with pytest.raises(LogError):
        GameReplay.from_lines(forged, "forged.jsonl")
    old = tmp_path / "old.jsonl"
    old.write_text("".join(json.dumps({k: v for k, v in {**json.loads(x), "v": 3}.items() if k != "rules_version"},
                                      ensure_ascii=False) + "\n" for x in forged), "utf-8")
    assert main(["replay", str(old), "--quiet", "--lang", "en"]) == 1
    out, err = capsys.readouterr()
    assert "line 1: illegal event Seated" in err and "replayed as kept" in err and "ledger" in out
    with TableService.import_jsonl(tmp_path / "old.sqlite", old.read_text("utf-8").splitlines()) as kept:
        assert kept.state.base == 900_000_000_000


def test_simulate_to_a_path_it_cannot_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "no such folder" / "log.jsonl"
    assert main(["simulate", "--hands", "1", "--out", str(target)]) == 2
    err = capsys.readouterr().err
    assert "cannot write" in err and "無法寫入" in err


def test_simulate_and_replay_go_through_a_pipe(tmp_path: Path) -> None:
    """A change review: ``simulate --out /dev/stdout`` into a pipe failed ("No such file or directory": the path
    leads to "pipe:[…]", no file beside which to write), and ``replay /dev/stdin`` from a pipe failed ("not
    seekable") with "None" as its English reason. A pipe is a normal thing on a command line."""
    import subprocess
    import sys

    cmd = [sys.executable, "-m", "companion"]
    sim = subprocess.run([*cmd, "simulate", "--seed", "3", "--hands", "1", "--out", "/dev/stdout"],
                         capture_output=True, text=True)
    assert sim.returncode == 0 and sim.stderr == "", sim.stderr
    lines = sim.stdout.splitlines()
    assert len(lines) > 20 and all(json.loads(x)["v"] == ev.SCHEMA_VERSION for x in lines)
    kept = tmp_path / "log.jsonl"
    kept.write_text(sim.stdout, "utf-8")
    with open(kept, "rb") as f:  # a file's replay, to compare with the pipe's
        want = subprocess.run([*cmd, "replay", "--lang", "en", str(kept)], capture_output=True, text=True, stdin=f)
    piped = subprocess.run([*cmd, "replay", "--lang", "en", "/dev/stdin"], input=sim.stdout, capture_output=True,
                           text=True)
    assert want.returncode == 0 and "ledger" in want.stdout
    assert (piped.returncode, piped.stdout, piped.stderr) == (0, want.stdout, want.stderr), piped.stderr
    from companion.commands._io import cannot_read

    zh, en = cannot_read("/dev/stdin", io.UnsupportedOperation("File or stream is not seekable."))
    assert en == "cannot read /dev/stdin: File or stream is not seekable."  # (not "None")
    assert zh == "無法讀取 /dev/stdin（這種檔案不能這樣讀寫）"  # (in words, not Python's name nor in English)


def test_replay_reads_a_table_file_through_a_pipe_as_by_its_name(tmp_path: Path) -> None:
    """A review: a live table's file piped into ``replay /dev/stdin`` was refused ("the table file cannot be read:
    unable to open database file"), where by its name it replays: SQLite reads a file by name, so the pipe's bytes
    are read from a temporary copy, and its events are said by their stored number as by name."""
    import sqlite3
    import subprocess
    import sys

    from companion.game.service import TableService

    table = tmp_path / "table.sqlite"
    service = TableService(table)
    service.submit(ev.Seated(players=("a", "b", "c", "d")))
    service.close()
    cmd = [sys.executable, "-m", "companion", "replay", "--lang", "en"]

    def both() -> tuple[subprocess.CompletedProcess[str], subprocess.CompletedProcess[str]]:
        named = subprocess.run([*cmd, str(table)], capture_output=True, text=True)
        piped = subprocess.run(f"cat {shlex.quote(str(table))} | {shlex.join(cmd)} /dev/stdin", shell=True,
                               capture_output=True, text=True)
        return named, piped

    named, piped = both()
    assert named.returncode == 0 and "waiting for the first dealer" in named.stdout, named.stderr
    assert (piped.returncode, piped.stdout, piped.stderr) == (0, named.stdout, ""), piped.stderr
    with sqlite3.connect(table) as db:  # an event the table refuses: named by its stored number through the pipe too
        db.execute("INSERT INTO events (seq, body) VALUES (1, ?)", ('{"v": 2, "type": "Discarded", "seat": 0, '
                                                                   '"tile": "1m"}',))
    db.close()
    named, piped = both()
    assert named.returncode == 1 and f"{table}: stored event #1: illegal event Discarded" in named.stderr
    assert (piped.returncode, piped.stdout) == (1, named.stdout)
    assert piped.stderr == named.stderr.replace(str(table), "/dev/stdin")


def test_replay_passed_says_where_a_declared_seat_passed_a_win(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A log the bots wrote before a newcomer review (the demo's robber declared 天聽, then let the tile pass, §2.11
    forbids it): replay opens it, and --passed says that pass was a declared seat's, in both languages and the JSON;
    the bots' logs now hold none."""
    from companion.game.simulator import simulate

    log, _ = simulate(60, 4)
    rob = next(i for i, e in enumerate(log) if isinstance(e, ev.Won) and e.kind is ev.WinKind.ROBBED_KONG)
    robber = log[rob].seat
    first = next(i for i in range(max(i for i in range(rob) if isinstance(log[i], ev.Dealt)), rob)
                 if isinstance(log[i], ev.Discarded))
    old = [*log[:first], ev.DeclaredReady(seat=robber, kind=ev.ReadyKind.HEAVENLY),
           *(e for e in log[first:] if not (isinstance(e, ev.DeclaredReady) and e.seat == robber))]
    for name, events in (("old.jsonl", old), ("new.jsonl", log)):
        (tmp_path / name).write_text("".join(json.dumps(ev.to_dict(e), ensure_ascii=False) + "\n" for e in events),
                                     encoding="utf-8")
    assert main(["replay", str(tmp_path / "old.jsonl"), "--passed", "--quiet"]) == 0
    passed = capsys.readouterr().out.split("== 過水 / passed wins ==\n", 1)[1].split("==", 1)[0].splitlines()
    flagged = [x for x in passed if "已報聽，報聽的人不可過水，由牌桌決定" in x]
    assert len(flagged) == 1 and "a player who has declared may not pass a win: the table decides" in flagged[0]
    assert main(["replay", str(tmp_path / "old.jsonl"), "--passed", "--json"]) == 0
    assert [c["ready"] for c in json.loads(capsys.readouterr().out)["passed"]].count(True) == 1
    assert main(["replay", str(tmp_path / "new.jsonl"), "--passed", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["passed"]
    assert data and not any(c["ready"] for c in data)  # (its robber passes undeclared, then declares)


@pytest.mark.parametrize("hands", ["-1", "0"])
def test_simulate_refuses_a_hand_count_under_one_in_both_languages(
        hands: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """--hands 0 wrote an empty log (exit 0) that replay and app then refused (a newcomer review): refused, naming
    the option, and no file is written; in the language COMPANION_LANG asks for, both where it asks none (a change
    review read both under COMPANION_LANG=en)."""
    out = tmp_path / "log.jsonl"
    zh = f"--hands 至少要 1（沒有打任何一把的紀錄無從重播），收到 {hands}"
    en = f"--hands must be >= 1 (a log with no hand holds nothing to replay), got {hands}"
    for lang, said in (("en", en), ("zh_TW", zh), (None, f"{zh} / {en}")):
        if lang is None:
            monkeypatch.delenv("COMPANION_LANG", raising=False)
        else:
            monkeypatch.setenv("COMPANION_LANG", lang)
        assert main(["simulate", "--hands", hands, "--out", str(out)]) == 2
        assert capsys.readouterr() == ("", f"companion simulate: {said}\n")
        assert not out.exists()


def test_a_bad_field_is_explained_in_chinese_in_the_chinese_half(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "log.jsonl"
    main(["simulate", "--seed", "7", "--hands", "1", "--out", str(out)])
    lines = out.read_text("utf-8").splitlines()
    n = next(i for i, x in enumerate(lines) if json.loads(x)["type"] == "Discarded")
    bad = json.loads(lines[n])
    bad["tile"] = 7
    lines[n] = json.dumps(bad)
    out.write_text("\n".join(lines) + "\n", "utf-8")
    assert main(["replay", str(out), "--quiet"]) == 2
    zh, en = capsys.readouterr().err.split(" / ", 1)
    assert "expected a tile code, got 7" in en and "應為一張牌的代碼，收到 7" in zh and "expected" not in zh


def test_an_empty_log_is_said_to_be_empty(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n", "utf-8")
    assert main(["replay", str(empty), "--quiet"]) == 1
    captured = capsys.readouterr()
    assert "no events to replay" in captured.err and "紀錄是空的" in captured.err and captured.out == ""


def test_bad_switch_and_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--switch", "multi_win=sometimes"]) == 2
    err = capsys.readouterr().err
    assert "multi_win" in err and "規則開關有誤" in err
    bad = tmp_path / "x.jsonl"
    bad.write_text('{"v": 1, "type": "Teleported"}\n', "utf-8")
    assert main(["replay", str(bad)]) == 2
    assert "Teleported" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2
    err = capsys.readouterr().err
    assert "cannot read" in err and "無法讀取" in err


@pytest.mark.parametrize(("body", "words"), [
    (b"[1, 2]\n", "not an event"),
    (b'{"schema": "companion.table", "private": {"x": "1m"}}\n', "private hands"),
    (b'{"schema": "companion.table", "private": {"0": "1q"}}\n', "private hands"),
    (b"\xff\xfe\n", "UTF-8"),
])
def test_replay_refuses_a_malformed_file_naming_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         body: bytes, words: str) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(body)
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "line 1" in err and "第 1 行" in err and words in err


def _simulated_lines(tmp_path: Path) -> tuple[Path, list[str]]:
    out = tmp_path / "log.jsonl"
    main(["simulate", "--seed", "7", "--hands", "1", "--out", str(out)])
    return out, out.read_text("utf-8").splitlines()


def test_replay_names_the_line_and_field_of_a_bad_event(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Bytes that are not UTF-8 are reported on their own line (a text read met them a chunk ahead: line 390 was
    said to be line 310); a bad enum value and a missing field are named, in both languages."""
    out, lines = _simulated_lines(tmp_path)
    data = "\n".join(lines).encode() + b"\n"
    cut = data.split(b"\n")
    cut[len(cut) - 3] = b'{"v": 2, "type": "ExhaustiveDraw", "note": "\xff"}'
    out.write_bytes(b"\n".join(cut))
    assert main(["replay", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err
    n = len(cut) - 2
    assert f"line {n}:" in err and f"第 {n} 行" in err and "UTF-8" in err
    n = next(i for i, x in enumerate(lines) if json.loads(x)["type"] == "Discarded")
    robot = dict(json.loads(lines[n]), source="robot")
    no_tile = {k: v for k, v in json.loads(lines[n]).items() if k != "tile"}
    for bad, words_en, words_zh in ((robot, "Discarded.source: expected one of camera, manual, inferred, simulated",
                                     "應為 camera, manual, inferred, simulated 之一"),
                                    (no_tile, "Discarded: missing fields tile", "Discarded 缺少欄位 tile")):
        out.write_text("\n".join(lines[:n] + [json.dumps(bad)] + lines[n + 1:]) + "\n", "utf-8")
        assert main(["replay", str(out), "--quiet"]) == 2
        err = capsys.readouterr().err
        assert words_en in err and words_zh in err and f"第 {n + 1} 行" in err


def test_replay_speaks_the_language_asked_for(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A simulated log's events said as the bots' (they read 「配牌（手動）」, "Dealt (manual)": entered by hand)."""
    out, lines = _simulated_lines(tmp_path)
    assert main(["replay", str(out), "--lang", "zh"]) == 0
    text = capsys.readouterr().out
    assert re.search(r"^#3 配牌（模擬）$", text, re.M) and "Dealt" not in text and "ledger" not in text
    assert main(["replay", str(out), "--lang", "en"]) == 0
    text = capsys.readouterr().out
    assert re.search(r"^#3 Dealt \(simulated\)$", text, re.M) and "帳" not in text
    n = next(i for i, x in enumerate(lines) if json.loads(x)["type"] == "Drew")
    bad = dict(json.loads(lines[n]), seat=(json.loads(lines[n])["seat"] + 2) % 4)
    out.write_text("\n".join(lines[:n] + [json.dumps(bad)] + lines[n + 1:]) + "\n", "utf-8")
    assert main(["replay", str(out), "--quiet", "--lang", "zh"]) == 1
    err = capsys.readouterr().err
    assert f"第 {n + 1} 行的摸牌不合法" in err and "line" not in err and "turn" not in err
    assert "=" not in err and "phase" not in err  # the evidence in words too (it ended "（phase=act, seat=0）")


def test_a_refusal_s_evidence_is_said_in_words_leaving_out_what_the_reason_says() -> None:
    reason = msg("phase", what="摸牌", what_en="draw", phase_zh=Phase.ACT.zh, phase_en=Phase.ACT.en)
    evidence = (("event", "#40 Drew"), ("phase", "act"), ("seat", "2"), ("tile", "5m"), ("live", "60"), ("odd", "x"))
    zh, en = evidence_said(evidence, ("Lin", "阿明", "老王", "小美"), reason)
    assert zh == "座位：老王，牌：五萬，牌牆剩 60 張，odd=x"
    assert en == "seat: 老王, tile: 5m, 60 tiles left in the wall, odd=x"
    assert evidence_said(evidence[1:2]) == ("階段：等待出牌", "phase: waiting for a discard")
    assert evidence_said((("stakes", "-5/10"), ("players", "('A', 'A', 'B', 'C')"))) == (
        "底／台：-5/10，玩家：A、A、B、C", "stakes: -5/10, players: A, A, B, C")  # (it said "（players=('A', ...)）")


def test_replay_of_two_sessions_gives_both_in_json_and_text_and_dealer_tai_only_where_paid(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 1's 40 hands are a whole session of 22 and 18 of a second (a rules review): the JSON had held the second
    alone, the text's hands too; and a hand's line said "+ 1 dealer tai" where the dealer neither won nor paid."""
    out = tmp_path / "log.jsonl"
    assert main(["simulate", "--seed", "1", "--hands", "40", "--out", str(out)]) == 0
    assert main(["replay", str(out), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    sessions = [*data["earlier_sessions"], data]
    assert [len(s["hands"]) for s in sessions] == [22, 18]
    total = {p: sum(s["balances"].get(p, 0) for s in sessions) for p in data["all_sessions"]["balances"]}
    assert data["all_sessions"]["balances"] == total and sum(total.values()) == 0
    lines = [(h, x) for s in sessions for h in s["hands"] for x in h["lines"]]
    assert any(x["dealer_in"] for _, x in lines) and any(x["dealer_tai"] and not x["dealer_in"] for _, x in lines)
    for h, x in lines:  # the dealer's tai count where he wins or pays the line's winner
        paid = {(t["payer"], t["payee"]) for t in h["transfers"] if x["player"] in (t["payer"], t["payee"])}
        assert x["dealer_in"] == (x["kind"] == "false_win" or any(h["dealer"] in pair for pair in paid))
    # the CSV a spreadsheet opens (the Ledger tab's download): each session's hands and balances, as in the JSON
    assert main(["replay", str(out), "--csv"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("\ufeff") and "\r\r\n" not in printed  # the download's BOM; no doubled line ends
    rows = list(csv.reader(io.StringIO(printed[1:], newline="")))
    assert [r[0] for r in rows if r and r[0].startswith("第")] == ["第 1 將 Session 1", "第 2 將 Session 2"]
    hands = [r for r in rows if r and r[0].isdigit()]
    assert [int(r[0]) for r in hands] == [h["hand"] for s in sessions for h in s["hands"]]
    last = next(r for r in reversed(rows) if r and r[0].isdigit())
    assert [int(v) for v in last[-5:-1]] == [data["balances"][p] for p in data["players"]]  # (the hands last)
    with pytest.raises(SystemExit) as usage:  # one output at a time
        main(["replay", str(out), "--csv", "--json"])
    assert usage.value.code == 2 and "--json" in capsys.readouterr().err
    assert main(["replay", str(out), "--quiet", "--lang", "en"]) == 0
    text = capsys.readouterr().out.split("== each hand ==\n", 1)[1]
    assert " session 1:" in text and " session 2:" in text
    assert len(re.findall(r"^  #\d+ ", text.split("== ledger ==")[0], re.M)) == 40
    for h, x in lines:
        said = re.search(rf"^  #{h['hand']} .*$", text.split(" session 2:")[h in data["hands"]], re.M)
        assert said is not None and ("dealer tai" in said.group()) == (x["dealer_in"] and x["dealer_tai"] > 0)
    # both languages: each line whole in each (it had read "16 台 / tai + 莊家 1 台 /  + 1 dealer tai")
    assert main(["replay", str(out), "--quiet"]) == 0
    both = capsys.readouterr().out
    assert re.search(r"^  #\d+ \S+ .+ \d+ 台 \+ 莊家 \d+ 台 / \S+ .+ \d+ tai \+ \d+ dealer tai$", both, re.M)
    assert " /  + " not in both and "台 / tai" not in both
    assert "本局結束/the hand is over\n" in both  # no bare name after it (read as a winner's)


def _table_file(path: Path, events: list[ev.Event]) -> Path:
    from companion.game.service import TableService

    with TableService(path) as service:
        assert service.submit_many(events).ok
    return path


def test_replay_of_a_table_file_refuses_a_newer_version_and_names_a_gap_and_a_stored_event(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A review: the app refused a table file of a newer format, and one with a row deleted ("event #51 follows #49:
    the log has a gap"), but `companion replay` replayed the first without a word and blamed the second on the event
    after the gap, as "line 52"; and an event the app names as "stored event #101" replay called "line 102"."""
    import sqlite3

    from companion.game.simulator import simulate

    log, _ = simulate(4, 1)
    newer = _table_file(tmp_path / "newer.sqlite", log)
    with sqlite3.connect(newer) as db:
        db.execute("UPDATE meta SET value = '2' WHERE key = 'db_version'")
    db.close()
    assert main(["replay", str(newer), "--quiet", "--lang", "en"]) == 2
    assert "a table file of another version of this program (format 2, this one reads 1)" in capsys.readouterr().err
    gap = _table_file(tmp_path / "gap.sqlite", log)
    with sqlite3.connect(gap) as db:
        db.execute("DELETE FROM events WHERE seq = 50")
    db.close()
    assert main(["replay", str(gap), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "stored event #51 follows #49: the log has a gap" in err and "存下的事件 #51 接在 #49 之後" in err
    start = _table_file(tmp_path / "start.sqlite", log)
    with sqlite3.connect(start) as db:  # the first stored event gone: not "follows #-1" (a change review)
        db.execute("DELETE FROM events WHERE seq = 0")
    db.close()
    assert main(["replay", str(start), "--quiet", "--lang", "en"]) == 2
    assert "the stored events start at #1, not #0" in capsys.readouterr().err
    dup = _table_file(tmp_path / "dup.sqlite", log)
    with sqlite3.connect(dup) as db:  # event #100 stored again as #101, the rest moved up one
        db.execute("UPDATE events SET seq = seq + 1000 WHERE seq > 100")
        db.execute("UPDATE events SET seq = seq - 999 WHERE seq > 1000")
        db.execute("INSERT INTO events (seq, body) SELECT 101, body FROM events WHERE seq = 100")
    db.close()
    assert main(["replay", str(dup), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "stored event #101: illegal event" in err and "存下的事件 #101（" in err and "line" not in err


def test_simulate_out_dev_stdout_into_a_file_keeps_what_the_shell_wrote_around_it(tmp_path: Path) -> None:
    """A review: ``simulate --out /dev/stdout >> log`` replaced the log with the run (a whole file put in the place
    of the shell's file), and so did ``{ echo head; simulate --out /dev/stdout; } > log``, losing the head: written
    through standard output, where the shell put it."""
    import subprocess
    import sys

    log = tmp_path / "log.jsonl"
    log.write_text("kept\n", "utf-8")
    with open(log, "a", encoding="utf-8") as out:
        sim = subprocess.run([sys.executable, "-m", "companion", "simulate", "--seed", "3", "--hands", "1", "--out",
                              "/dev/stdout"], stdout=out, stderr=subprocess.PIPE, text=True)
    assert sim.returncode == 0 and sim.stderr == "", sim.stderr
    lines = log.read_text("utf-8").splitlines()
    assert lines[0] == "kept" and len(lines) > 20 and all(json.loads(x)["v"] == ev.SCHEMA_VERSION for x in lines[1:])


def test_a_damaged_table_file_is_said_in_both_languages_with_the_way_forward(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A review cut a table file short (``head -c``): ``replay`` and ``app --table`` said SQLite's "database disk
    image is malformed" and 檔案已損壞, and nothing of how to go on. Now "damaged" in both languages, a new table
    (--table), a saved log imported (--from-log), and the table's kept copies, where it has any."""
    from companion.game.service import TableService, kept_name

    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    log = tmp_path / "log.jsonl"
    assert main(["simulate", "--seed", "1", "--hands", "3", "--out", str(log)]) == 0
    whole = tmp_path / "whole.sqlite"
    TableService.import_jsonl(whole, log.read_text("utf-8").splitlines()).close()
    table = tmp_path / "table.sqlite"
    table.write_bytes(whole.read_bytes()[:12288])
    capsys.readouterr()
    for command, damaged in ((["replay", str(table)], "the table file is damaged"),
                             (["app", "--no-browser", "--port", "1", "--table", str(table)], "(the file is damaged)")):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert "malformed" not in err and "database disk image" not in err
        assert damaged in err and "損壞" in err
        assert "--table ANOTHER.sqlite starts a new table" in err and "--from-log LOG --table NEW.sqlite" in err
        assert "開一張新牌桌" in err and "--from-log 紀錄檔 --table 新檔名" in err and "kept earlier" not in err
    (tmp_path / kept_name(table, 1)).write_bytes(whole.read_bytes())  # a copy kept of it: named too
    for command in (["replay", str(table)], ["app", "--no-browser", "--port", "1", "--table", str(table)]):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert f"a game kept earlier is in {tmp_path / kept_name(table, 1)}" in err and "之前另存的牌局在" in err


@pytest.mark.parametrize(("switch", "key", "value"), [
    ("eight_flowers=off", "eight_flowers", False), ("eight_flowers=on", "eight_flowers", True),
    ("kong_from_left=no", "kong_from_left", False), ("kong_from_left=不可以", "kong_from_left", False),
    ("multi_win=都胡", "multi_win", "all"), ("multi_win=All of them win", "multi_win", "all"),
    ("draw_keeps_deal=no", "draw_keeps_deal", False), ("passed_win_released_by_kong=YES", "passed_win_released_by_kong",
                                                       True), ("streak_cap=no cap", "streak_cap", None)])
def test_a_switch_takes_the_names_the_app_and_its_refusal_show(switch: str, key: str, value: object, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    # the refusal put "on"/"off", "yes"/"no" and 「都胡」 in quotes, and the quoted name typed was refused (a review)
    log = tmp_path / "log.jsonl"
    assert main(["simulate", "--hands", "1", "--switch", switch, "--out", str(log)]) == 0
    seated = json.loads(log.read_text("utf-8").splitlines()[0])
    assert seated["switches"][key] == value
