"""``companion simulate --seed N --hands K [--out FILE]``: bots play legal hands; JSON lines out."""

from __future__ import annotations

import argparse
import io
import json
import os
import stat
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from companion.commands._io import complain, lang_default
from companion.files import whole_file
from companion.game.events import to_dict
from companion.game.simulator import Simulator
from companion.game.switches import SwitchError, Switches, typed_value
from companion.rules.profiles import os_error_zh


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("simulate", help="bots play complete legal hands and write the event log (JSON lines) "
                                        "/ 電腦模擬完整牌局",
                       description="Bots play complete legal hands and write the event log (JSON lines). / "
                                   "電腦玩家打完整、合法的牌局，並寫出事件紀錄（JSON lines）。")
    p.add_argument("--seed", type=int, default=0,
                   help="random seed (the same seed gives the same log; default 0) / "
                        "亂數種子（同一個種子得到同一份紀錄；預設 0）")
    p.add_argument("--hands", type=int, default=1, help="number of hands to play, must be >= 1 (default 1) / 要打幾把，至少 1（預設 1）")
    p.add_argument("--out", help="write the log here instead of stdout; a log simulate wrote there before (its seating "
                                 "marked \"source\": \"simulated\") is replaced, any other file there (a table file, a "
                                 "game's own log, anything else) is refused, never written over / 紀錄寫到這個檔案，而不是"
                                 "標準輸出；之前 simulate 寫的紀錄（入座那一行標著 \"source\": \"simulated\"）會被取代，"
                                 "其他已存在的檔案（牌局檔、真實牌局的紀錄或任何檔案）一律拒絕，不會覆蓋")
    p.add_argument("--switch", action="append", default=[], metavar="NAME=VALUE",
                   help="a house rule of the table's procedure, e.g. multi_win=all (repeatable; a name it does not "
                        "know lists them all) / 牌桌流程的規矩開關，例如 multi_win=all（可重複；寫錯名稱會列出全部）")
    p.add_argument("--stats", action="store_true",
                   help="print event counts and speed on stderr / 在標準錯誤輸出印出事件數與速度")
    p.set_defaults(func=run)


def _switches(items: list[str]) -> Switches:
    data: dict[str, object] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise SwitchError(f"--switch wants NAME=VALUE, got “{item}”", f"--switch 要寫成 名稱=值，收到「{item}」")
        key = name.strip()
        got: object = typed_value(key, value)  # a value, or a name the app shows for one (off, 都胡: a review)
        if key == "streak_cap" and value.isdecimal() and len(value) <= 18:  # (longer: refused as the text it
            # is, in the words that say how far a cap goes, as the app and a file refuse it, where it was "too long":
            # a change review; past 4300 digits int() fails; isdecimal: isdigit passed ² on to the JSON reader,
            got = int(value)  # which failed on it; int: 05, ５ and ٥ too, which it refused with a traceback)
        data[key] = got  # (a number for streak_cap alone, the one switch that counts: another's refusal says the
        # value as typed, 05 as 05)
    return Switches.from_mapping(data, strict=True)


def run(args: argparse.Namespace) -> int:
    # (each refusal in the language COMPANION_LANG asks for, both where it asks none, as the other commands' errors:
    # a review read --hands 0 and --out '' in both under COMPANION_LANG=en)
    lang = lang_default("", ("zh", "en")) or None
    if args.hands < 1:  # (0 wrote an empty log that replay and app then refused: a newcomer review)
        complain("companion simulate", lang, f"--hands 至少要 1（沒有打任何一把的紀錄無從重播），收到 {args.hands}",
                 f"--hands must be >= 1 (a log with no hand holds nothing to replay), got {args.hands}")
        return 2
    try:
        switches = _switches(args.switch)
    except SwitchError as bad:
        complain("companion simulate", lang, f"規則開關有誤：{bad.zh}", f"bad procedure switch: {bad}")
        return 2
    if args.out is not None and not args.out.strip():  # (an empty name wrote to standard output: a review)
        complain("companion simulate", lang, "--out 要寫檔名（不寫 --out 就印到標準輸出）",
                 "--out needs a file name (without --out the log goes to standard output)")
        return 2
    sim = Simulator(args.seed, switches)
    t0 = time.perf_counter()
    where, where_zh = (args.out, f" {args.out}") if args.out else ("standard output", "標準輸出")
    if args.out and not _is_stdout(Path(args.out)) and (kept := _kept_file(Path(args.out))):
        # (a review's --out replaced a live game's table file and an unrelated precious.toml without a word)
        complain("companion simulate", lang, f"--out {args.out}：{kept[0]}", f"--out {args.out}: {kept[1]}")
        return 2
    try:
        if args.out and not _is_stdout(Path(args.out)):
            _write_whole(Path(args.out), sim.run(args.hands))
        else:
            for e in sim.run(args.hands):
                sys.stdout.write(json.dumps(to_dict(e), ensure_ascii=False) + "\n")
    except BrokenPipeError:  # the reader stopped (| head): end quietly, as cli.main does for every command
        raise
    except OSError as bad:  # a folder given, a full disk, an I/O error
        complain("companion simulate", lang, f"無法寫入{where_zh}（{os_error_zh(bad)}）",
                 f"cannot write {where}: {bad.strerror or bad}")
        return 2
    if args.stats:
        dt = time.perf_counter() - t0
        st = sim.stats
        print(json.dumps({"hands": st.hands, "wins": st.wins, "seconds": round(dt, 2),
                          "hands_per_second": round(st.hands / dt, 1) if dt else None,
                          "events": dict(st.events.most_common()), "details": dict(st.details.most_common())},
                         ensure_ascii=False, indent=1), file=sys.stderr)
    return 0


def _is_stdout(path: Path) -> bool:
    """Whether ``path`` is this process's standard output (``/dev/stdout``, ``/proc/self/fd/1``): written through it,
    where the shell put it (``>> log`` appends, ``{ …; simulate --out /dev/stdout; } > log`` keeps the lines around
    it); a whole file put in its place replaced what the shell's file held (a review lost a header so)."""
    try:
        here, out = path.stat(), os.fstat(sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        return False
    return (here.st_dev, here.st_ino) == (out.st_dev, out.st_ino)


def _kept_file(path: Path) -> tuple[str, str] | None:
    """Why the file at ``path`` is not to be replaced by the log, (Chinese, English), or ``None``: nothing there, an
    empty file, no plain file (``/dev/null``, a pipe: written into as before, never read), or a log simulate wrote
    (:func:`_simulated`), which a run again replaces. An SQLite file (a table file, perhaps) or any other file is
    kept."""
    from companion.game.service import SQLITE_MAGIC

    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size == 0:
            return None
        with open(path, "rb") as f:
            first = f.readline(1 << 20)
    except OSError:  # (what cannot be looked at cannot be written either: the write says why)
        return None
    if first.startswith(SQLITE_MAGIC):
        return ("這是 SQLite 檔（可能是牌局檔，一場牌局存下的紀錄），不會拿模擬紀錄覆蓋它；請換一個檔名",
                "this is an SQLite file (perhaps a table file, a game's kept record); the simulated log will not "
                "replace it: name another file")
    if _simulated(first):
        return None
    return ("這個檔案已存在，而且不是 simulate 寫的牌局紀錄，不會覆蓋它；請換一個檔名，或先自行移走它",
            "this file exists and is not a log simulate wrote; it is not written over: name another file, or move "
            "it away first")


def _simulated(first: bytes) -> bool:
    """Whether ``first``, a file's first line, begins a log simulate wrote: a ``Seated`` event marked
    ``"source": "simulated"`` (:attr:`~companion.game.events.EventSource.SIMULATED`), which no game played at a table
    writes. (The simulator's player names were taken for its mark, and the bundled demo game, a real one seated
    with those names, was replaced: a review.)"""
    from companion.game.events import EventSource

    try:
        data = json.loads(first.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return False
    return isinstance(data, dict) and data.get("type") == "Seated" and data.get("source") == EventSource.SIMULATED.value


def _write_whole(path: Path, events: Iterable[Any]) -> None:
    """The log into ``path`` whole or not at all (:func:`~companion.files.whole_file`): an interrupted run (Ctrl+C,
    a full disk) leaves the file that was there, never a shorter log that replays as if complete (a review lost a
    kept log to a run it stopped)."""
    with whole_file(path) as fh:
        for e in events:
            fh.write((json.dumps(to_dict(e), ensure_ascii=False) + "\n").encode("utf-8"))
