"""``companion app [LOG]``: serve the Flet app in web mode (a laptop at the table; phones join by URL).

Without LOG it replays the bundled demo game (four hands played by the bots) and scores the bundled photo, so it
shows something real without a camera; with LOG it replays that event log (``companion simulate`` or a table's
export). Stops with Ctrl+C.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import socket
import sys
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING

from companion.commands._io import add_lang_option, cannot_read

if TYPE_CHECKING:  # (the app's modules are imported when it starts, not for `companion --help`)
    from companion.app.words import Words
    from companion.game.text import Msg


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("app", help="serve the app in the browser (the bundled demo game without LOG) / "
                                   "在瀏覽器開啟小幫手（不給紀錄檔就播放內附的示範牌局）",
                       description="Serve the companion app in web mode: a live game entered at the table, tap by "
                                   "tap, with its ledger; the table replayed step by step (waits, dealer, streak, tai "
                                   "and payments); my hand's waits and discards; a photographed hand scored; the tai "
                                   "taught; tile sets calibrated. / "
                                   "以網頁模式開啟小幫手：在牌桌上一步一步記錄牌局與帳本；逐步重播牌局（聽牌、莊家、連莊、"
                                   "台數與付款）；我的手牌聽什麼、打哪張；拍照算台；學打牌；校正自己的牌。")
    p.add_argument("log", nargs="?", help="an event log (JSON lines) or a live game's table file to replay instead "
                                          "of the demo game / 要重播的牌局紀錄（JSON lines）或牌局檔，不給就用示範牌局")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (0.0.0.0 lets phones on the same network join) / "
                        "監聽的位址（0.0.0.0 讓同一網路的手機連進來）")
    p.add_argument("--port", type=int, default=8550, help="port (default 8550) / 連接埠（預設 8550）")
    add_lang_option(p, "the app's first language (it has a switch)", "開啟時的語言（頁面上可切換）")
    p.add_argument("--table", metavar="FILE",
                   help="the file a live game is kept in (default: table.sqlite in the folder COMPANION_DATA_DIR "
                        "names, else in companion/ in the user's data folder) / "
                        "記錄牌局存放的檔案（預設：環境變數 COMPANION_DATA_DIR 指的資料夾裡的 table.sqlite，"
                        "沒設就是使用者資料夾裡的 companion/table.sqlite）")
    p.add_argument("--from-log", metavar="SAVED",
                   help="go on with a saved log's game live (Save log's file, or a table file's export): it becomes "
                        "the table file's game, which must hold no events yet (a new --table FILE) / "
                        "接著記錄存下的紀錄檔（「下載紀錄」存的檔）裡的牌局：寫進牌局檔，牌局檔必須還沒有事件"
                        "（用 --table 給一個新檔名）")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser / 不自動開啟瀏覽器")
    p.add_argument("--new-token", action="store_true",
                   help="with --host 0.0.0.0: a new table token (?t=…) instead of the one kept for this table file "
                        "since its last run; phones that had the old address must open the new one / "
                        "搭配 --host 0.0.0.0：換一個新的牌桌通行碼（?t=…），不沿用這個牌局檔上次的；"
                        "拿舊網址的手機要改開新網址")
    p.set_defaults(func=run)


def _earlier_table() -> Path | None:
    """Where versions before the data folder was shared kept the live table, if a file is there."""
    old = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "companion" / "table.sqlite"
    return old if old.is_file() else None


def _say(zh: str, en: str) -> None:
    print(f"companion app: {en} / {zh}", file=sys.stderr)


def _not_a_table(table: Path, given: bool) -> tuple[str, str] | None:
    """Why ``table`` (``given`` as ``--table``, else the default file) cannot keep a live game, in Chinese and
    English; None when it can (a table file, an empty file, or none yet: made at the first entry). The app served
    and then refused every entry (a review)."""
    from companion.game.service import SQLITE_MAGIC
    from companion.rules.profiles import os_error_zh

    named, named_zh = (f"--table {table}",) * 2 if given else (f"the table file {table}", f"牌局檔 {table}")
    if not table.exists():
        return None
    if table.is_dir():
        return f"{named_zh}：這是資料夾，不是牌局檔", f"{named}: a folder, not a table file"
    try:
        with table.open("rb") as f:
            head = f.read(len(SQLITE_MAGIC))
    except OSError as bad:
        return f"{named_zh}：無法讀取（{os_error_zh(bad)}）", f"{named}: cannot read it ({bad.strerror})"
    if head == SQLITE_MAGIC and given:
        unusable = _unusable(table)
        if unusable is not None:  # (served with a Live tab that refused every entry: a privacy review)
            return f"{named_zh}：{unusable[0]}", f"{named}: {unusable[1]}"
    if head and head != SQLITE_MAGIC:
        if given:
            return (f"{named_zh}：不是牌局檔（牌局檔是 SQLite 資料庫；要重播紀錄，請直接給檔名當 LOG，不加 --table；"
                    "要接著記錄它的牌局，用 --from-log 紀錄檔 --table 新檔名）",
                    f"{named}: not a table file (one is an SQLite database; to replay a log, give it as LOG, "
                    "without --table; to go on with its game live, --from-log LOG --table NEW.sqlite)")
        return (f"{named_zh}：不是牌局檔（牌局檔是 SQLite 資料庫），記錄牌局前請把它移開",
                f"{named}: not a table file (one is an SQLite database): move it away before a game is entered")
    return None


def _no_folder_for(table: Path, given: bool) -> tuple[str, str] | None:
    """Why no table file can be kept at ``table`` (``given`` as ``--table``, else the default file in the data
    folder): a file, or a link that loops, standing where its folder must be, named as the commands name it
    (:class:`companion.files.NotAFolderError`), in Chinese and English; None where its folder is there or can be made
    (at the first entry); the table file itself a link that loops, too (:func:`_looping_table`). ``--table
    X/t.sqlite`` with ``X`` a file, or ``COMPANION_DATA_DIR`` naming a file, was served, and the first entry then
    said "[Errno 17] File exists: 'X'" in both languages, as a refusal of the move (a change review). A link to
    nothing there (a synced folder not mounted) is refused too, naming where it leads: no folder is made through it,
    as :func:`companion.files.make_folder` makes none."""
    from companion.files import NotAFolderError, folder_blocker

    table = Path(shown(table))  # (named as on the start-up line: `x/../y/table.sqlite` there was `y/table.sqlite`)
    blocker = folder_blocker(table.parent)  # (a link to nothing there too: a change review's was served, and its
    # first entry then refused)
    if blocker is None:
        return _looping_table(table, given)
    said = NotAFolderError(blocker, table.parent)
    return _table_refused(table, given, (said.zh, str(said.strerror)),
                          ("，牌局檔無法放在那裡", ", so the table file cannot be kept there"),
                          ("請把它設成一個資料夾，或用 --table 指定牌局檔", "set it to a folder, or give a table file with --table"),
                          ("請用 --table 指定牌局檔", "give a table file with --table"))


def _looping_table(table: Path, given: bool) -> tuple[str, str] | None:
    """Why ``table`` itself cannot be a table file when it is a link that loops (back on itself, or through other
    links), in Chinese and English, naming it; None otherwise. Such a file "does not exist" to ``Path.exists``, so it
    was taken as "none yet": the app served, its start-up line and the Live tab then failed on every draw with
    "Symlink loop" (a change review)."""
    from companion.game.service import looping_table

    looping = looping_table(table)  # (the words the Live tab says of a table file made such a link later)
    if looping is None:
        return None
    mend = ("請移除這個連結，或用 --table 指定牌局檔", "remove the link, or give a table file with --table")
    return _table_refused(table, given, (looping[1], looping[0]), ("；請給一個牌局檔", "; give a table file"), mend, mend)


def shown(path: Path) -> str:
    """``path`` as the start's lines name it: made absolute and normalised (``x/../y``: ``y``), not through links
    (the same file was named two ways on two lines: a change review)."""
    return os.path.normpath(os.path.abspath(path))


def _table_refused(table: Path, given: bool, what: tuple[str, str], given_tail: tuple[str, str],
                   env_mend: tuple[str, str], mend: tuple[str, str]) -> tuple[str, str]:
    """The start's refusal of the table file ``table`` for ``what`` (Chinese, English), worded by where its name came
    from: ``--table`` (``given``: then ``given_tail``), the data folder ``COMPANION_DATA_DIR`` names (``env_mend``),
    or the default one (``mend``)."""
    zh, en = what
    table = Path(shown(table))  # (named as on the start-up line: `x/../y/table.sqlite` there was `y/table.sqlite`)
    if given:
        return f"--table {table}：{zh}{given_tail[0]}", f"--table {table}: {en}{given_tail[1]}"
    if os.environ.get("COMPANION_DATA_DIR"):
        return (f"牌局檔 {table}：{zh}（資料夾是環境變數 COMPANION_DATA_DIR 指定的）；{env_mend[0]}",
                f"the table file {table}: {en} (the data folder is the one COMPANION_DATA_DIR names): {env_mend[1]}")
    return f"牌局檔 {table}：{zh}；{mend[0]}", f"the table file {table}: {en}: {mend[1]}"


def _unusable(table: Path) -> tuple[str, str] | None:
    """Why the SQLite file ``table`` cannot keep a live game (another program's database, a damaged file, another
    version's table file), in Chinese and English without the file's name, found by opening it as the server would,
    which leaves such a file untouched; None when it can, or when another companion has it open now (said at the
    start, and the Live tab opens it once it is free)."""
    from companion.game.service import ServiceError, TableInUse, TableService

    try:
        TableService(table).close()
    except TableInUse:
        return None
    except ServiceError as bad:
        en, _, zh = str(bad).rpartition(" / ")
        zh, en = zh.removeprefix(f"{table}：").strip(), en.removeprefix(f"{table}: ").strip()
        if bad.damaged:  # (a damaged file was refused with no way forward: a review)
            way = damaged_way()
            return f"{zh}；{way[0]}", f"{en}; {way[1]}"
        return zh, en
    return None


def damaged_way() -> tuple[str, str]:
    """How to go on when a table file is damaged, in Chinese and English: a new table, or a log of its game saved
    from the app imported into one; its kept copies, where it has any, are said after it (:func:`kept_line`). A
    review's ``app --table`` and ``replay`` of a table file cut short said only "database disk image is malformed"."""
    return ("要繼續記錄：用 companion app --table 另一個檔名 開一張新牌桌；有這局用「下載紀錄」存下的紀錄，就用 "
            "companion app --from-log 紀錄檔 --table 新檔名 接著記錄",
            "to go on: companion app --table ANOTHER.sqlite starts a new table; a log of this game kept with Save "
            "log goes on with companion app --from-log LOG --table NEW.sqlite")


def _sweep(table: Path) -> None:
    """Take away the temporary files a killed app (SIGKILL, a power cut) left half written beside the table file,
    its forms begun and the user's data (calibrated sets, pages, house profiles): hidden, so nobody would."""
    from companion.files import sweep_left_over
    from companion.rules.profiles._store import data_dir

    ours = {data_dir(), data_dir() / "calibration", data_dir() / "profiles"}
    for folder in sorted(ours):
        sweep_left_over(folder, ours=True)
    beside = Path(os.path.realpath(table)).parent  # any folder (home, a shared one): only files named as ours are
    if beside not in ours:  # (a review's start deleted another program's .tmp-0123abcd there)
        sweep_left_over(beside)


def _import_log(saved: str, table: Path) -> int:
    """The saved log's game written into ``table`` (which holds no events yet), for the Live tab to go on with: 0, or
    the exit status after saying why not (a review: the refusals for a damaged table said to keep the game through
    Save log, but nothing could turn a saved log back into a live table)."""
    from companion.game.events import EventError
    from companion.game.older_rules import OlderRules, refused_at
    from companion.game.service import SQLITE_MAGIC, ServiceError, TableService
    from companion.game.text import IllegalEvent

    try:
        with open(saved, "rb") as f:
            if f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC:  # (said "line 1: not UTF-8 text": a change review)
                unusable = _unusable(Path(saved))
                if unusable is None:
                    _say(f"--from-log {saved} 是牌局檔，不是存下的紀錄：用 --table {saved} 開啟",
                         f"--from-log {saved} is a table file, not a saved log: open it with --table {saved}")
                else:  # (another program's database was called a table file, and --table then refused it: a review)
                    _say(f"--from-log {saved} 是 SQLite 資料庫，不是存下的紀錄，也不能當牌局檔：{unusable[0]}",
                         f"--from-log {saved} is an SQLite database, neither a saved log nor a usable table file: "
                         f"{unusable[1]}")
                return 2
            f.seek(0)
            older = OlderRules()  # the events this version refuses, let in under the rules of their day
            TableService.import_jsonl(table, f, older).close()
    except OSError as bad:
        _say(*cannot_read(f"--from-log {saved}", bad))
        return 2
    except EventError as bad:
        _say(f"--from-log {saved}：{bad.reason.zh}", f"--from-log {saved}: {bad.reason.en}")
        return 1
    except IllegalEvent as bad:
        said = dict(bad.evidence)
        line = said.get("line", "")
        why = refused_at(int(line) if line.isdigit() else 0, str(said.get("event", "")), bad.reason)
        _say(f"--from-log {saved}：{why.zh}", f"--from-log {saved}: {why.en}")
        return 1
    except ServiceError as bad:  # the table file holds a game already, or cannot be used
        en, _, zh = str(bad).rpartition(" / ")
        hint = ("（用 --table 指定一個新的牌局檔）", " (give a new table file with --table)") if "already holds" in en \
            else ("", "")
        _say(f"--from-log：{zh}{hint[0]}", f"--from-log: {en}{hint[1]}")
        return 2
    print(f"companion app: 已把 {saved} 的牌局寫進牌局檔，可以接著記錄 / {saved}'s game is in the table file: "
          "the Live tab goes on with it", flush=True)
    _say_older(saved, older.said())
    return 0


def kept_line(table: Path) -> tuple[str, str] | None:
    """The games of ``table`` kept earlier (:func:`companion.game.service.kept_copies`), in Chinese and English, with
    how to go on with one and how to stop being told; None where there are none. Three were said "a game kept
    earlier is in A, B, C … naming it", and in Chinese joined by ", " (a third review)."""
    from companion.game.service import kept_copies, kept_entries

    copies = kept_copies(table)
    if not copies:
        return None
    empty = {p for p in copies if kept_entries(p) == 0}  # (kept before its first entry: still the host's, said so)
    zh = "、".join(shown(p) + ("（沒有紀錄）" if p in empty else "") for p in copies)
    en = ", ".join(shown(p) + (" (no entries)" if p in empty else "") for p in copies)
    if len(copies) == 1:
        return (f"之前另存的牌局在 {zh}，用 --table 檔名 開啟接著記錄；接著記錄了或不需要了，就把它移走或刪除，這行就不再出現",
                f"a game kept earlier is in {en}: start the app with --table naming it to go on with it; once it is "
                "continued or not needed, move or delete it and this line stops")
    return (f"之前另存的牌局在 {zh}，用 --table 檔名 開啟其中一個接著記錄；接著記錄了或不需要了，就把它移走或刪除，這行就不再出現",
            f"games kept earlier are in {en}: start the app with --table naming one to go on with it; once each is "
            "continued or not needed, move or delete it and this line stops")


def _say_older(name: str, said: Msg | Words | None) -> None:
    """What ``companion replay`` says of a log's events let in under older rules (``said``: how many, the first),
    said of ``name`` at start; nothing where there are none."""
    if said is not None:
        _say(f"{name}：{said.zh}", f"{name}: {said.en}")


def _cannot_listen(host: str, port: int) -> OSError | None:
    """Why ``host:port`` cannot be listened on (IPv4 or IPv6, as the host resolves), or None."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as unknown:
        return OSError(errno.EADDRNOTAVAIL, f"no such host ({unknown.strerror})")
    family, kind, proto, _name, address = infos[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(address)
        except OSError as bad:
            return bad
    return None


def lan_addresses() -> list[str]:
    """This machine's addresses a phone on the same network can reach (no loopback)."""
    found: list[str] = []
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the outgoing interface
        found.append(s.getsockname()[0])
    with contextlib.suppress(OSError):
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            address = str(info[4][0])
            if not address.startswith("127.") and address not in found:
                found.append(address)
    return found


def run(args: argparse.Namespace) -> int:
    from companion.app.live_model import default_table_path
    from companion.app.server import serve
    from companion.app.table_model import DEMO_HANDS, GameReplay, LogError
    from companion.app.words import ui
    from companion.files import folder_blocker
    from companion.rules.profiles import os_error_zh

    if not 0 < args.port < 65536:
        _say(f"連接埠必須是 1-65535，收到 {args.port}", f"--port must be 1-65535, got {args.port}")
        return 2
    try:
        if args.log:
            replay = GameReplay.from_file(args.log)
            note = ui("log_note", file=args.log)
            _say_older(args.log, replay.older)  # (the Table tab says it under the note)
        else:
            replay = GameReplay.demo()
            note = ui("demo_note", hands=DEMO_HANDS)
    except OSError as unreadable:
        _say(*cannot_read(args.log, unreadable))
        return 2
    except LogError as bad:
        _say(bad.words.zh, bad.words.en)
        return 1
    if args.table is not None and not args.table.strip():  # (it took the default file without a word: a review)
        _say("--table 要寫檔名（不寫 --table 就用預設的牌局檔）", "--table needs a file name (without --table the "
             "default table file is used)")
        return 2
    table = Path(args.table) if args.table else default_table_path()
    no_folder = _no_folder_for(table, given=bool(args.table))
    looping = no_folder is not None and folder_blocker(table.parent) is None  # (the table file itself loops)
    if no_folder is not None and (args.table or args.from_log or not args.log):  # (refused before serving: the Live
        _say(*no_folder)  # tab could keep no game there)
        copies = kept_line(table)
        if copies is not None:  # (the kept game not named where the data folder is still a file: a third review)
            _say(*copies)
        return 2
    if no_folder is not None:  # a replay needs no data folder (a change review's was refused): served, the Live tab
        # refusing every entry by name (:meth:`LiveGame.open`)
        _say(f"{no_folder[0]}。{args.log} 的重播照常開啟，但記錄的牌局存不進去",
             f"{no_folder[1]}. The replay of {args.log} is served, but live entries cannot be saved")
    wrong = _not_a_table(table, given=bool(args.table))
    if wrong is not None and args.table:
        _say(*wrong)
        copies = kept_line(table)
        if copies is not None:  # (a damaged file's kept games not named: a review)
            _say(*copies)
        return 2
    if wrong is not None:  # the default file damaged: the replay is still served; the Live tab says why it cannot
        _say(*wrong)
    _sweep(table)
    refused = _cannot_listen(args.host, args.port)
    if refused is not None:
        if refused.errno == errno.EADDRINUSE:
            _say(f"{args.host}:{args.port} 已被別的程式占用；用 --port 換一個",
                 f"{args.host}:{args.port} is already in use; pick another with --port")
        elif refused.errno == errno.EADDRNOTAVAIL:
            _say(f"無法在 {args.host}:{args.port} 監聽：這台電腦沒有這個位址或主機名稱；請檢查 --host",
                 f"cannot listen on {args.host}:{args.port} ({refused.strerror}): not an address of this machine; "
                 "check --host")
        else:
            _say(f"無法在 {args.host}:{args.port} 監聽（{os_error_zh(refused)}）；請檢查 --host",
                 f"cannot listen on {args.host}:{args.port} ({refused.strerror}); check --host")
        return 2
    if args.from_log is not None:
        imported = _import_log(args.from_log, table)
        if imported:
            return imported

    def ready(url: str, token: str | None, unusable: Words | None) -> None:
        print(f"companion app: {url}  (Ctrl+C 結束 / Ctrl+C to stop)", flush=True)
        # which file the live table is kept in: a mistyped --table starts a new, empty game (a review's wish)
        kept = "已有這個檔案 / the file is there" if table.exists() else "還沒有，第一次記錄時建立 / none yet: made " \
            "at the first entry"
        if unusable is not None:  # (in use by another companion, damaged, another version's: said here too)
            kept = f"無法使用：{unusable.zh} / cannot be used: {unusable.en}"
        if no_folder is not None:  # (not "none yet: made at the first entry"), said by what is wrong: the table
            # file itself a link that loops is no "cannot be kept there" (a change review)
            kept = "是繞回自己的符號連結，記錄的牌局存不進去 / a link that loops back on itself: live entries cannot be " \
                "saved" if looping else "無法放在那裡，記錄的牌局存不進去 / cannot be kept there: live entries cannot be saved"
        print(f"companion app: 牌局檔 / table file: {shown(table)} ({kept})", flush=True)  # as given, not
        # through links (resolve raises on a data folder that loops; realpath named a link's missing target: reviews)
        copies = kept_line(table)
        if copies is not None:  # a game set aside while open, in a folder the host may never look in (a fresh game
            # began and said nothing of it: a change review)
            print(f"companion app: {copies[0]} / {copies[1]}", flush=True)
        earlier = _earlier_table()
        if not args.table and not table.exists() and earlier is not None and earlier != table:
            print(f"companion app: 之前版本的牌局檔在 {earlier}，用 --table 開它 / a table file of an earlier version "
                  f"is at {earlier}: --table opens it", flush=True)
        if args.host in ("0.0.0.0", "::"):
            for address in lan_addresses():
                print(f"companion app: 同一網路的手機請開 / phones on this network: "
                      f"http://{address}:{args.port}/?t={token}", flush=True)
            from companion.app.table_token import token_lasts

            if token is not None and token_lasts(table, token):  # (said to last where it was not kept: a review)
                print("companion app: 這個牌局檔的網址重開後不變，已連過的手機可以繼續用；要換新的通行碼用 --new-token / "
                      "this table file's address stays the same when the app restarts, so phones that joined come "
                      "back; --new-token makes a new one", flush=True)
            else:
                print("companion app: 通行碼無法存進資料夾，重開後網址會變，手機要重新連線 / the token could not be kept in "
                      "the data folder: the address changes when the app restarts, and the phones join again",
                      flush=True)
        elif args.new_token and token is None:  # (taken without a word: a change review)
            print("companion app: --new-token 只在牌局開放給網路上的手機時（--host 0.0.0.0）有作用 / --new-token "
                  "matters only for a table served to the network (--host 0.0.0.0)", flush=True)
        if not args.no_browser:
            webbrowser.open(url)

    with contextlib.suppress(KeyboardInterrupt):  # Ctrl+C is how the app is stopped
        serve(replay, note, args.host, args.port, args.lang, ready, table, new_token=args.new_token, replaying=args.log)
    return 0
