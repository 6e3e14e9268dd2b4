"""``companion tai``: score winning hands, one JSON object per line in, one JSON result per line out.

    echo '{"concealed": "123m456m234p678p45s88s", "win_tile": "3s", "win_type": "discard",
           "seat_wind": "W", "round_wind": "S", "discarder": "S"}' | companion tai
    companion tai hands.jsonl --explain --lang en
    companion tai --profile myhouse.toml hands.jsonl
    companion tai --show-profile sml_2026 > myhouse.toml   # edit id/values, then:
    companion tai --save-profile myhouse.toml               # into the user's data folder

Each result has the hand's ``items`` and ``hand_tai``; ``dealer_tai``, the tai the dealer's side adds (1 and 2 per
streak) where ``dealer_in`` says the dealer wins or pays here, else 0 (only then does it count); and
``payments``, each with the ``tai`` it is paid on and the ``dealer_tai`` in them (spec §3.2); ``profile_as_seated``
says the line was scored with its own ``rules``, which the rule set of its id here no longer has.

A line's own ``"profile"`` wins over ``--profile``. A line that cannot be read gives an error object
naming the field, and the batch goes on (exit code 1 at the end).
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any, TextIO

from companion.app.ledger_model import dealer_parts, dealer_tai_said, item_named
from companion.app.words import Words, ui
from companion.commands._io import add_lang_option, lang_default, print_json, say, stdin_hint
from companion.english import chinese, the_tile
from companion.files import json_error_said, loads_json
from companion.hand import Meld, MeldKind
from companion.rules.house import HouseReading, house_reading
from companion.rules.profiles import (
    BUILTIN,
    DEFAULT_PROFILE,
    Profile,
    ProfileError,
    as_its_file,
    check_caps,
    load_profile,
    os_error_zh,
    played_with,
)
from companion.rules.profiles._schema import as_written, got_said, switch_listed
from companion.rules.profiles._store import (
    _saved_names,
    export_profile,
    list_profiles,
    rules_of_record,
    save_profile,
    user_profile_path,
)
from companion.rules.scoring import FalseWin, NotAWin, Score, replacement_named, score
from companion.rules.settlement import Settlement, Stakes, settle, settle_false_win
from companion.rules.shape import Decomposition
from companion.rules.tai import ITEMS, ItemKind
from companion.rules.waits import WaitShape, seven_pairs
from companion.rules.win import Win, WinInputError, WinType, wind_letter
from companion.tiles import Tile, format_tiles

FIELDS = """\
a hand's JSON object / 每手牌的 JSON 欄位:
  required / 必填:
    concealed    the concealed tiles, the winning tile left out / 手牌（不含胡的那張）  "123m456p789s1155z"
    win_type     discard, self_draw, rob_kong, eight_flowers, seven_flowers_rob, four_kongs / 胡法
    seat_wind    the winner's seat: E S W N / 胡家門風
    round_wind   E S W N / 圈風
  optional / 選填:
    win_tile     the tile won on / 胡的那張                            "5z"
                 (八仙過海 given as 17 tiles without it: the tile that scores best, said as
                 "win_tile_chosen" / 八仙過海給 17 張而沒寫胡的那張：取台數最高的一張，輸出 win_tile_chosen)
    melds        ["pung:222z@O", {"kind": "chow", "tiles": "789m", "from": "L"}] / 吃碰槓（L 上家、O 對家、R 下家）
    flowers      "26f" / 花牌
    dealer       the dealer's seat (default E) / 莊家（預設 E）
    streak       the dealer's streak N (default 0) / 連莊數（預設 0）
    discarder    who discarded the winning tile: E S W N / 放槍的人
    flags        {"last_tile", "last_discard", "heavenly", "earthly", "human", "ready_declared",
                  "ready_on_deal", "ready_first_discard": true,
                  "replacement_after": "flower" | "ckong" | "addkong" | "kong"
                  (or "after_flower", "after_kong": true)} / 海底、河底、天胡、地胡、人胡、報聽、天聽、地聽、
                  補花、開槓後補到的那張
    stakes       {"base": 30, "per_tai": 10} / 底與台（預設 --stakes）
    profile      a rule set id for this hand / 這手用的規則
    switches     {"discard_kong_replacement_win": "kong_bloom", …}: the rule set's switches the hand's table
                 played otherwise (a ledger's record carries them) / 這手牌桌與規則不同的開關
    rules        {"name_zh": …, "name_en": …, "tai": {…}, "switches": {…}}: every value of the rule set the hand's
                 table kept, scored with in place of the profile's file, edited, deleted or not on this computer
                 (a ledger's record of a house rule set carries them; a value left out is the default's); where
                 the rule set of that id here says otherwise, the result has "profile_as_seated": true and
                 --explain names it "(as seated)"; without "profile", the result's "profile" is null /
                 這手牌桌入座時存下的整套規則數值：照它算，不讀規則檔（規則檔改過、刪了或這台電腦沒有都一樣；
                 帳目裡自訂規則的紀錄會帶著它）；這台電腦上同 id 的規則不一樣時，結果的 "profile_as_seated" 是
                 true，--explain 寫「（入座時的版本）」；沒寫 "profile" 時，結果的 "profile" 是 null
    id           your own label, echoed back / 自己的標記，原樣輸出

example, one hand a line / 例（每行一手）:
  echo '{"concealed": "123m456m234p678p45s88s", "win_tile": "3s", "win_type": "discard", "seat_wind": "W", "round_wind": "S", "discarder": "S"}' | companion tai --explain --lang en
"""

_SEAT_ZH = {"E": "東", "S": "南", "W": "西", "N": "北"}
_SEAT_EN = {"E": "East", "S": "South", "W": "West", "N": "North"}


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("tai", help="score winning hands and payments / 計算台數與付款",
                              description="Score winning hands: JSON lines in, JSON lines out. / "
                                          "計算胡牌的台數與付款：每行一個 JSON 輸入，每行一個 JSON 輸出。",
                              epilog=FIELDS, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("files", nargs="*", help="JSON-lines files (default: stdin; - is stdin too) / "
                                            "JSON lines 檔案（預設：標準輸入；- 也是標準輸入）")
    p.add_argument("--profile",
                   help="profile id or a .toml house file (default atawmj_2009) / 規則代號或自家 .toml 規則檔"
                        "（預設 atawmj_2009）")
    p.add_argument("--stakes",
                   help="the stakes, base/per tai, for every line without its own, e.g. 30/10: a "
                        "3-tai hand pays 30 + 3 x 10 / "
                        "沒寫底台的每一行所用的底與每台金額，例如 30/10：3 台的牌付 30 + 3 × 10")
    p.add_argument("--explain", action="store_true",
                   help="print an itemised table instead of JSON / 印出逐項台數表，而不是 JSON")
    add_lang_option(p, "language of --explain and of the errors", "--explain 與錯誤訊息的語言")
    p.set_defaults(lang=None)  # not given: --explain in Chinese (or COMPANION_LANG), errors in both (_asked_lang)
    p.add_argument("--list-profiles", action="store_true",
                   help="list built-in and saved profiles / 列出內建與已儲存的規則")
    p.add_argument("--show-profile", metavar="ID",
                   help="print a profile as TOML (a house file to edit) / "
                        "以 TOML 印出規則（可改成自家規則檔）")
    p.add_argument("--save-profile", metavar="FILE",
                   help="validate a house .toml and save it in the data folder; a house profile saved already under "
                        "its id is kept unless --replace is given / 檢查自家 .toml 規則檔並存進資料夾；"
                        "已經存了同一個 id 的自訂規則時，除非加上 --replace，否則保留原本的")
    p.add_argument("--replace", action="store_true",
                   help="with --save-profile: replace the house profile saved under the same id (its names and "
                        "values are then gone) / 搭配 --save-profile：取代已存的同 id 自訂規則（原本的名稱與台數就沒了）")
    p.set_defaults(func=run)


class InputFileError(ValueError):
    """An input file the lines cannot be read from; the message names it, in English and in Chinese (``zh``)."""

    def __init__(self, message: str, zh: str) -> None:
        super().__init__(message)
        self.zh = zh


Line = tuple[str, str | None, int, "str | dict[str, Any] | InputFileError"]
"""One input line: its label (``wins.jsonl:3``, ``line 3 / 第 3 行``), its file (None: standard input), its number
from 1 (0 for a file that could not be opened), and its text, its error result, or the file's error."""


def _lines(files: list[str]) -> Iterator[Line]:
    """Each non-blank input line, from ``files`` in turn or standard input (where none is given, and for ``-``). A
    line that is not UTF-8 text comes as its error result, and a file that cannot be opened as its
    :class:`InputFileError`: the batch goes on (a review lost a file's good lines to one bad byte, and the files
    after a missing one)."""
    stdin_read = False
    for name in files or ["-"]:
        if name == "-" and stdin_read:  # read once: `tai - -` scored the hands, then said "no hand on standard input"
            yield name, None, 0, InputFileError("“-” is given twice: standard input is read once",
                                                "「-」給了兩次：標準輸入只讀一次")
            continue
        if name == "-":  # standard input, as the convention names it (it was looked for as a file named "-")
            stdin_read = True
            yield from _stdin_lines()
            continue
        if name.lstrip().startswith("{") and not Path(name).exists():  # the JSON itself, given as a file's name
            shown, shown_zh = got_said(as_written(name.strip()))  # (in the quotes the rest says, not Python's)
            yield name, name, 0, InputFileError(
                f"{shown}: an argument is a file to read, not a hand's JSON: pipe the JSON in (echo '{{…}}' | "
                "companion tai) or put it in a file and give the file",
                f"{shown_zh}：指令後面要給檔案，不是 JSON 本身：請用管線送進來（echo '{{…}}' | companion tai），"
                "或存成檔案再給檔名")
            continue
        try:
            with open(name, "rb") as fh:
                read = 0
                for line in _numbered(fh, name):
                    read += 1
                    yield line
            if not read:  # an empty file printed nothing and ended 0, where replay says it has no events (a review)
                yield name, name, 0, InputFileError(f"no hand in {name}: the file is empty or only blank lines",
                                                    f"{name} 裡沒有任何一手牌：檔案是空的或只有空白行")
        except OSError as e:  # missing, a folder, no permission (never the output: that is not read here)
            yield name, name, 0, InputFileError(f"{name}: cannot read it ({e.strerror or e})",
                                                f"無法讀取 {name}（{os_error_zh(e)}）")


def _stdin_lines() -> Iterator[Line]:
    """The non-blank lines of standard input; none there is said, as an empty file is (``tai < /dev/null`` printed
    nothing and ended 0, where ``tai empty.jsonl`` said it held no hand and ended 2: a review)."""
    stdin_hint("wins")
    read = 0
    for line in _numbered(getattr(sys.stdin, "buffer", sys.stdin), None):  # (a text stream put in its place)
        read += 1
        yield line
    if not read:
        yield "-", None, 0, InputFileError("no hand on standard input: it was empty or only blank lines",
                                           "標準輸入沒有任何一手牌：是空的或只有空白行")


def _numbered(stream: IO[bytes] | IO[str], name: str | None) -> Iterator[Line]:
    """The lines of ``stream`` (``name``: its file, None for standard input)."""
    for n, raw in enumerate(stream, 1):
        where = f"line {n} / 第 {n} 行" if name is None else f"{name}:{n}"
        if n == 1:  # a byte-order mark an editor put first is left out
            raw = raw.removeprefix(b"\xef\xbb\xbf") if isinstance(raw, bytes) else str(raw).removeprefix("\ufeff")
        try:
            text = raw.decode("utf-8") if isinstance(raw, bytes) else str(raw)
        except UnicodeDecodeError as e:
            yield where, name, n, {"error": {"kind": "text", "field": None,
                                             "message": f"not UTF-8 text (byte {e.start + 1} of the line)",
                                             "message_zh": f"不是 UTF-8 文字（這一行第 {e.start + 1} 個位元組）"}}
            continue
        if text.strip():
            yield where, name, n, text


def parse_stakes(text: str | None) -> Stakes | None:
    """``--stakes 底/台`` (e.g. ``30/10``); a WinInputError naming ``--stakes`` when it is not that."""
    if not text:
        return None
    return Stakes.parse(text, "--stakes")  # (the app's Score tab reads its stakes box alike)


def _said(e: ProfileError | WinInputError | InputFileError, lang: str | None) -> str:
    """An error in the language ``--lang`` (or COMPANION_LANG) asked for; both, Chinese first, when neither did."""
    if isinstance(e, (ProfileError, InputFileError)):
        return say(lang, e.zh, str(e))
    return say(lang, f"選項 {e.field} 有誤：{e.zh}" if e.field.startswith("--") else e.message_zh, str(e))


def _asked_lang(args: argparse.Namespace) -> str | None:
    """The language the errors are said in: ``--lang`` or COMPANION_LANG where either is given, else None (both);
    ``args.lang`` is then set to the language of ``--explain`` (Chinese by default). The errors were said in both
    languages, English first, whatever --lang asked (a review)."""
    told = ("Chinese (the --explain table and its errors), both languages for other errors",  # what it does
            "中文（--explain 的表格與其中的錯誤），其他錯誤訊息中英並列") if args.explain else None  # (it said both: a review)
    asked = args.lang or lang_default("", ("zh", "en"), told) or None
    args.lang = asked or "zh"
    return asked


def _profile_commands(args: argparse.Namespace, lang: str | None) -> int | None:
    if args.list_profiles:
        damaged = 0
        for pid in list_profiles():
            try:
                p = load_profile(pid)
            except ProfileError as e:  # one damaged file is said, and the others still listed (a review)
                print(f"companion tai: {_said(e, lang)}", file=sys.stderr)
                damaged += 1
                continue
            # the default marked in both languages, as the app's lists mark it (its English name said it alone)
            named = ui("rs_default_named", name=p.name_zh, name_en=p.name_en) if pid == DEFAULT_PROFILE else \
                Words(p.name_zh, p.name_en)
            print(f"{pid}\t{named.zh}\t{named.en}")
        return 1 if damaged else 0
    if args.show_profile:
        shown = load_profile(args.show_profile)
        if shown.id in BUILTIN:  # the start of a house file: what to change before it is saved (a newcomer review)
            sys.stdout.write("# A house profile from this: give it an id, name_zh and name_en of its own, then\n"
                             "# companion tai --save-profile FILE\n"
                             "# 自訂規則：請改成自己的 id、name_zh、name_en，再用 companion tai --save-profile 檔名 存下\n")
        sys.stdout.write(export_profile(shown))
        return 0
    if args.save_profile:
        saving = load_profile(Path(args.save_profile))  # (the file's own faults said first, as the save says them)
        pid = saving.id
        replaced = user_profile_path(pid).exists() and pid not in BUILTIN
        if replaced and not args.replace:  # (a review's second save of an id replaced the set, names and values gone)
            zh, en = _saved_names(pid)
            raise ProfileError(f"the house profile “{pid}” ({en}) is saved already; give --replace to replace it (its "
                               "names and values are then gone), or give the file another id",
                               f"已經存了自訂規則「{pid}」（{zh}）；要取代它請加上 --replace（原本的名稱與台數就沒了），"
                               "或在檔案裡換一個 id")  # (quoted as every rule-set message quotes, not as Python does)
        path = save_profile(saving)  # (the file read once: the profile as checked above)
        print(f"replaced “{pid}”: saved {path} / 已取代「{pid}」：已儲存 {path}" if replaced
              else f"saved {path} / 已儲存 {path}")
        return 0
    return None


def run(args: argparse.Namespace) -> int:
    lang = _asked_lang(args)
    if args.replace and not args.save_profile:  # (it was left aside without a word: a review)
        said = say(lang, "--replace 只能搭配 --save-profile 使用（讓它取代已存的同 id 自訂規則）",
                   "--replace goes with --save-profile only (it lets that replace the house profile saved under "
                   "the same id)")
        print(f"companion tai: {said}", file=sys.stderr)
        return 2
    try:
        done = _profile_commands(args, lang)
        if done is not None:
            return done
        default_profile = load_profile(args.profile)
        check_caps(default_profile)
        default_stakes = parse_stakes(args.stakes)
    except (ProfileError, WinInputError) as e:
        print(f"companion tai: {_said(e, lang)}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        raise  # the reader went away (| head): cli.main ends quietly
    except OSError as e:  # --save-profile into a data folder that cannot be written
        name = e.filename or ""
        print(f"companion tai: {say(lang, f'無法寫入 {name}（{os_error_zh(e)}）', f'cannot write {name}: {e.strerror or e}')}",
              file=sys.stderr)
        return 2
    failed = unread = 0
    try:
        for label, name, n, line in _lines(args.files):
            if isinstance(line, InputFileError):  # said, and the next file read
                print(f"companion tai: {_said(line, lang)}", file=sys.stderr)
                unread += 1
                continue
            result = line if isinstance(line, dict) else handle_line(line, default_profile, default_stakes)
            if "error" in result:  # which line it was (blank lines give no result)
                failed += 1
                result["error"] |= {"file": name, "line": n}
            if args.explain:  # a line of standard input named in the language asked (a review read 第 1 行 in English)
                named = label if name is not None else f"第 {n} 行" if args.lang == "zh" else f"line {n}"
                explain(result, args.lang, sys.stdout, named)
            else:
                print_json_result(result)
    except BrokenPipeError:
        raise  # the reader went away (| head): cli.main ends quietly
    except OSError as e:  # the output cannot be written (a full disk …)
        said = say(lang, f"無法輸出結果（{os_error_zh(e)}）", f"cannot write the results: {e.strerror or e}")
        print(f"companion tai: {said}", file=sys.stderr)
        return 2
    return 2 if unread else 1 if failed else 0


def handle_line(line: str, default_profile: Profile, default_stakes: Stakes | None) -> dict[str, Any]:
    """One input line to one result object (never raises for bad input)."""
    try:
        obj = loads_json(line.rstrip("\r\n"))  # (with its newline, an unclosed line's error named line 2)
    except json.JSONDecodeError as e:
        en, zh = json_error_said(e)  # plain words, not the reader's sentence (a review)
        return {"error": {"kind": "json", "field": None,
                          "message": f"not JSON {en} (tai reads one JSON object per line, e.g. from jq -c)",
                          "message_zh": f"不是有效的 JSON：{zh}（tai 每行讀一個 JSON 物件，例如 jq -c 的輸出）"}}
    except RecursionError:
        return {"error": {"kind": "json", "field": None, "message": "not JSON this program reads: nested too deep",
                          "message_zh": "JSON 巢狀太深，無法讀取"}}
    echo = {"id": obj["id"]} if isinstance(obj, dict) and "id" in obj else {}
    try:
        win = Win.from_dict(obj)
        stakes = Stakes.from_dict(obj["stakes"]) if obj.get("stakes") is not None else default_stakes
        seated = False  # scored with the record's own values, which the rule set of its id here no longer has
        unnamed = obj.get("rules") is not None and not win.profile  # the record's values, of no rule set it names
        if obj.get("rules") is not None:  # every value the hand's table kept (a ledger's record of a house set)
            try:
                profile = rules_of_record(win.profile or "rules", obj["rules"])
            except ProfileError as bad:
                raise WinInputError("rules", str(bad).removeprefix("rules: "), bad.zh.removeprefix("rules：")) from None
            seated = not win.profile or not as_its_file(profile)
        else:
            profile = load_profile(win.profile) if win.profile else default_profile
        kept = profile
        if obj.get("switches") is not None:  # the switches the hand's table played otherwise (a ledger's record)
            try:
                profile = played_with(profile, obj["switches"])
            except ProfileError as bad:
                raise WinInputError("switches", str(bad).removeprefix("switches: "),
                                    bad.zh.removeprefix("switches：")) from None
        _check_caps_of(profile, kept, "rules" if obj.get("rules") is not None else None)
    except WinInputError as e:
        return {**echo, "error": {"kind": "input", "field": e.field, "message": str(e),
                                  "message_zh": e.message_zh}}
    except ProfileError as e:
        return {**echo, "error": {"kind": "profile", "field": "profile", "message": str(e),
                                  "message_zh": f"規則設定有誤：{e.zh}"}}
    try:
        named = replacement_named(win, profile)
        if named is not win and named.win_tile is not None:  # said: the tile taken as the eighth flower's replacement
            echo["win_tile_chosen"] = named.win_tile.code
        win = named
        s = score(win, profile)
    except FalseWin as e:
        penalty = settle_false_win(win, stakes, profile, e.claimed.hand_tai if e.claimed else None)
        return {**echo, "profile": profile.id, "profile_as_seated": seated, "_profile": profile, "_win": win,
                **_of_record(unnamed, obj), "false_win": True,
                "reason": e.reason, "reason_zh": e.reason_zh,
                "claimed_tai": e.claimed.hand_tai if e.claimed else None,
                "penalty_rule": (rule := profile.switch("false_win_penalty")), **_money(penalty),
                # as the ledger's JSON says it: nothing paid, where a 0-tai penalty would pay 底 (a change review)
                **({"unpaid": True} if rule == "none" else {})}
    except NotAWin as e:
        note = _pairs_note(e.win)
        return {**echo, "error": {"kind": "not_a_win", "field": _not_a_win_field(e.win), "message": str(e) + note.en,
                                  "message_zh": f"不是胡牌：{e.win.describe()}：{e.reason_zh}{note.zh}"}}
    except WinInputError as e:  # a record the profile cannot seat (a dealer other than East under dealer_east)
        return {**echo, "error": {"kind": "input", "field": e.field, "message": str(e),
                                  "message_zh": e.message_zh}}
    return {**echo, **scored_result(win, s, stakes, profile), "profile_as_seated": seated, **_of_record(unnamed, obj)}


def _of_record(unnamed: bool, obj: dict[str, Any]) -> dict[str, Any]:
    """What a result says of rules a record carries without naming a rule set (``rules``, no ``profile``): no
    profile (``null``: it named none, and its values are no rule set's here), and for :func:`explain` the names the
    record gives them, (zh, en), each None where it gives none (it said "Profile: rules", a key printed as a name:
    a review). Nothing for a record that names its rule set."""
    if not unnamed:
        return {}
    rules = obj["rules"]  # (a mapping: rules_of_record read it)
    names = tuple(rules[k].strip() or None if isinstance(rules.get(k), str) else None for k in ("name_zh", "name_en"))
    return {"profile": None, "_record_names": names}


def _check_caps_of(profile: Profile, kept: Profile, field: str | None) -> None:
    """:func:`check_caps` of the rule set a line is scored under, its cap no win could be paid under named where it
    comes from: the line's ``switches`` where ``kept`` (the set before them) had a good one, else the line's
    ``field`` (``rules``: its own values, a :class:`WinInputError`), else the profile's file (a
    :class:`ProfileError`). A record whose ``rules`` had min_tai above tai_cap was blamed on the profile, whose file
    was fine (a change review)."""
    try:
        check_caps(profile)
    except ProfileError as bad:
        culprit = field
        if profile is not kept:
            try:
                check_caps(kept)
                culprit = "switches"
            except ProfileError:
                pass
        if culprit is None:
            raise
        raise WinInputError(culprit, str(bad).removeprefix(f"profile “{profile.id}”: "),
                            bad.zh.removeprefix(f"規則「{profile.id}」：")) from None


def _pairs_note(win: Win) -> Words:
    """What My hand adds to a hand of seven or eight pairs that is no win: this game has no such win (a review read
    only "1m does not complete five sets and a pair"); nothing for any other hand."""
    hand = win.hand()
    if win.win_tile is not None:
        hand = hand.add(win.win_tile)
    return ui("pairs_not_win") if seven_pairs(hand) else Words("", "")


def _not_a_win_field(win: Win) -> str:
    """The field a hand that is no win is short in: the flowers of a flower win (八仙過海 with seven: a review read
    ``win_tile`` named where no winning tile is asked), the melds of 四槓, else the winning tile."""
    if win.win_type in (WinType.EIGHT_FLOWERS, WinType.SEVEN_FLOWERS_ROB):
        return "flowers"
    return "melds" if win.win_type is WinType.FOUR_KONGS else "win_tile"


def scored_result(win: Win, s: Score, stakes: Stakes | None, profile: Profile) -> dict[str, Any]:
    """The result object of a scored win: the score's fields, the payments and their total (keys starting with
    ``_`` carry the score and profile for :func:`explain` and are not printed)."""
    out = s.to_dict()
    house = house_reading(s)  # the items whose value, or whether they count here, is a house rule (spec §5.4)
    for item in out["items"]:
        item["house_rule"] = item["id"] in house.flagged
    out["house_rule_otherwise"] = [i.to_dict() for i in house.otherwise]
    money = _money(settle(s, win, stakes))
    # dealer_tai is what the dealer's side adds; it counts only where he wins or pays (a review read it as paid)
    dealer = wind_letter(s.win.dealer)
    out["dealer_in"] = any(dealer in (p["payer"], p["payee"]) for p in money["payments"])
    if not out["dealer_in"]:  # 0, as the payments and --explain say (it read 1 beside payments of 0: a review)
        out["dealer_tai"] = 0
    return {**out, **money, "_score": s, "_profile": profile, "_house": house}


def _money(st: Settlement) -> dict[str, Any]:
    """The payments, each with the dealer tai it carries (0 where the dealer neither wins nor pays it, spec §3.2)."""
    return {"payments": [p.to_dict() for p in st.payments], "total": st.total}


def print_json_result(result: dict[str, Any]) -> None:
    print_json({k: v for k, v in result.items() if not k.startswith("_")})


# --- the --explain table -------------------------------------------------------------------------


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(0, width - _width(text))


_T = {
    "zh": {"profile": "規則", "hand": "手牌", "split": "拆法", "waits": "聽", "item": "項目", "tai": "台",
           "total": "手牌合計", "dealer": "莊家", "false": "詐胡", "house": "（各家規矩）",
           "otherwise": "  各家規矩：有的牌桌這手另計「{item}」{tai} 台；這套規則不計（它的規矩：{why}）",
           "error": "錯誤", "none": "無", "no_dealer": "莊家沒胡也沒付，不加莊家台",
           "capped": "（滿台 {cap} 台）",
           "exhausted": "（另一頭四張都在自己手上，所以只聽一種）",
           "limit": "詐胡罰滿台 {tai} 台＝{amount}，由另外三家平分：", "no_dealer_tai": "這套規則不算莊家台",
           "limit_tai": "詐胡罰滿台 {tai} 台，由另外三家平分（給了 --stakes 才算得出各付多少）"},
    "en": {"profile": "Rules", "hand": "Hand", "split": "Split", "waits": "Waits", "item": "Item", "tai": "tai",
           "total": "Hand total", "dealer": "Dealer", "false": "False win", "house": " (house rule)",
           "otherwise": "  House rule: some tables also count “{item}” ({tai} tai) for this hand; this rule set does "
                        "not (its rule: {why})",
           "error": "Error", "none": "none",
           "no_dealer": "the dealer neither wins nor pays: no dealer tai",
           "capped": " (capped at {cap} tai)",
           "exhausted": " (the other end's four copies are all the winner's "
           "own, so it waited on one kind)",
           "limit": "False-win penalty: one limit payment, {tai} tai = {amount}, split among the other three:",
           "limit_tai": "False-win penalty: one limit payment, {tai} tai, split among the other three (the shares "
                        "need --stakes)",
           "no_dealer_tai": "this rule set counts no dealer tai"},
}


def _set_said(kind: str, tiles: str) -> Words:
    return ui(f"explain_{kind}", tiles=tiles)


_FROM_EN = {"L": "left", "O": "opposite", "R": "right"}  # an exposed kong: "from the opposite player's discard"
_CALLED_EN = {"L": "the left", "O": "the player opposite", "R": "the right"}  # a call: "called from the right"


def _meld_said(m: Meld) -> Words:
    """A laid set by what it is and how it was made, its source in one bracketed form: 刻子 777m（碰下家的牌） / pung 777m
    (called from the right); an exposed kong ``exposed kong 6666s (from the right player's discard)`` (it read "kong
    6666s (exposed, called from …)", then a comma inside the list of melds: a final review), and a chow, which only
    the left player's discard makes, from the left with or without its source (a photo gives none: it read "chow 789m (called)", a teacher's review)."""
    tiles = format_tiles(m.tiles)
    said = _set_said("kong" if m.kind.is_kong else m.kind.value, tiles)
    if m.kind is MeldKind.CHOW:
        return ui("explain_chow_called", tiles=tiles)
    if m.source is not None and m.kind is MeldKind.KONG:
        return ui("explain_exposed_kong", tiles=tiles, who=m.source.zh, who_en=_FROM_EN[m.source.value])
    if m.source is not None and m.kind is not MeldKind.ADDKONG:
        return ui("explain_called_from", set=said.zh, set_en=said.en, how=m.kind.zh, how_en="called",
                  who=m.source.zh, who_en=_CALLED_EN[m.source.value])
    # (a pung with no source, as a photo shows it: "pung 777z (called)", where the kind's own word read
    # "pung 777z (pung)"; 碰 says the call in Chinese)
    how_en = "called" if m.kind is MeldKind.PUNG else m.kind.en
    return ui("explain_laid", set=said.zh, set_en=said.en, how=m.kind.zh, how_en=how_en)


def _hand_said(win: Win, lang: str) -> str:
    """The hand before the win: the concealed tiles in notation, the laid sets in words (it printed the notation
    ``kong:2222m@O``, a teacher's review). The tiles stay in the product's notation, as in the split: sixteen tiles
    named in words would be a line of names too long to read, where ``123456789m456p7z`` is read at a glance; the
    lines of one tile (the Won line, the waits, the winning shape) name it in words, the code in brackets."""
    # (a flat win by flowers alone holds no concealed tile: "Hand:  12345678f", two spaces, a review)
    concealed = " ".join(t for t in (format_tiles(sorted(win.concealed)), format_tiles(win.flowers)) if t)
    if not win.melds:
        return concealed
    melds = [_meld_said(m) for m in win.melds]
    said = ui("explain_hand", concealed=concealed, melds="、".join(w.zh for w in melds),
              melds_en=", ".join(w.en for w in melds))
    return said.zh if chinese(lang) else said.en


def _tile_named(t: Tile) -> Words:
    """A tile named in words, its code in brackets: 六筒（6p）; in English as the hand and the split name it, and as
    the app's English does (``Tile.said_en``): ``6p``, ``the White dragon (5z)`` (it read "6 Dots (6p)" beside
    "Won on: 6 Dots" and the split's 456p, a teaching review)."""
    return Words(f"{t.zh}（{t.code}）", the_tile(t, t.said_en))


def _won_tile_en(t: Tile) -> str:
    """The winning tile on the Won line, whose notation in brackets holds its code: ``9p``, ``the Red dragon``."""
    return t.code if t.is_suited else the_tile(t)


def _won_said(s: Score, lang: str, chosen: bool = False) -> str:
    """The winning tile and how it was won, in words, the notation in brackets (``win=7z@R`` was all it said). An
    eight-flowers win whose tile completes the hand says so, and, where the tile was not given (``chosen``), that the
    program chose it (it read "二萬，自摸", hiding both: a teacher's review)."""
    win = s.win
    if win.win_type is WinType.EIGHT_FLOWERS and win.win_tile is not None and s.decomposition is not None:
        tile = _tile_named(win.win_tile)
        said = ui("explain_won_eight_chosen" if chosen else "explain_won_eight", tile=tile.zh, tile_en=tile.en)
    elif win.win_tile is None or win.win_type.value in _INSTANT:
        item = ITEMS[_INSTANT[win.win_type.value]]
        said = ui("explain_won_instant", how=item.zh, how_en=item.en)
    else:
        code = win.describe().rpartition(" ")[2]
        key = "explain_won_self" if win.discarder is None else \
            "explain_won_robbed" if win.win_type is WinType.ROB_KONG else "explain_won_discard"
        who = wind_letter(win.discarder) if win.discarder is not None else ""
        said = ui(key, tile=win.win_tile.zh, tile_en=_won_tile_en(win.win_tile), code=code, who=_SEAT_ZH.get(who, ""),
                  who_en=_SEAT_EN.get(who, ""))
    return said.zh if chinese(lang) else said.en


_INSTANT = {"eight_flowers": "eight_flowers", "seven_flowers_rob": "seven_rob_one", "four_kongs": "four_kongs"}


def _split_said(d: Decomposition, lang: str) -> str:
    """The split in set words: 順子 456s、眼 99p、槓子 2222m（明槓對家的牌） (it printed ``chow:456s  pair:99p``)."""
    said = [_set_said(g.kind.value, format_tiles(g.tiles)) for g in d.sets]
    said += [_set_said("pair", format_tiles((d.pair, d.pair)))] + [_meld_said(m) for m in d.melds]
    return "、".join(w.zh for w in said) if chinese(lang) else ", ".join(w.en for w in said)


def _set_named(profile: Profile) -> Words:
    """A rule set as the --explain header names it, in each language: its name, then its id in brackets (what
    ``--profile`` takes), none where the name is the id."""
    zh = profile.name_zh if profile.name_zh == profile.id else f"{profile.name_zh}（{profile.id}）"
    en = profile.name_en if profile.name_en == profile.id else f"{profile.name_en} ({profile.id})"
    return Words(zh, en)


def explain(result: dict[str, Any], lang: str, out: TextIO, label: str | None = "") -> None:
    """Print one result as an itemised table in zh-TW or English, under a ``── label`` line (none when ``label``
    is None: the caller printed its own)."""
    t = _T[lang]
    seat = _SEAT_ZH if lang == "zh" else _SEAT_EN
    # Chinese punctuation in the Chinese (a review read "規則: atawmj_2009 (中華競技麻將 2009)")
    colon, opened, closed = ("：", "（", "）") if lang == "zh" else (": ", " (", ")")
    if label is not None:
        print(f"── {label}", file=out)
    if "error" in result:
        err = result["error"]
        msg = err.get("message_zh", err["message"]) if lang == "zh" else err["message"]
        print(f"{t['error']}{colon}{msg}", file=out)
        return
    # the profile the line was scored under (a house file too: its id need not name a file to reload)
    profile: Profile = result["_profile"] if "_profile" in result else load_profile(result["profile"])
    # its name first, its id (what --profile takes) after it, where it is not the name (a review read the id first,
    # "Profile: atawmj_2009 (ATAWMJ 2009)", as code before the name the app and the replay give the set)
    set_named = _set_named(profile)
    named = set_named.zh if lang == "zh" else set_named.en
    if "_record_names" in result:  # a record's rules of no rule set it names: by the name it gives them, else so
        zh, en = result["_record_names"]
        carried = ui("rules_of_record")
        said = ui("rules_as_seated", name=zh or carried.zh, name_en=en or carried.en)
        named = said.zh if lang == "zh" else said.en
    elif result.get("profile_as_seated"):  # the record's own values, which the set of that id here no longer has: said
        # as the app's screens say it (a change review read one name beside 9 tai and, without "rules", 7)
        said = ui("rules_as_seated", name=set_named.zh, name_en=set_named.en)
        named = said.zh if lang == "zh" else said.en
    if profile.played_over:  # the line's own switches over the set's: said as the table's, not the set's (a review
        # read "Profile: atawmj_2009" over a false win by a minimum of 5 the line set)
        over = [Words(*switch_listed(k, profile.switch(k) if k in profile.switches else profile.value(k) > 0))
                for k in profile.played_over]  # (an instant win the table switched: on where it scores)
        own = ui("explain_played_over", rules="、".join(w.zh for w in over), rules_en="; ".join(w.en for w in over))
        named += "\n" + (own.zh if lang == "zh" else own.en)  # (a line of its own, its switches listed: a change
        # review read "rules …; the table's own rules: Minimum tai: 5; A win on …: scored as …", colons in colons)
    print(f"{t['profile']}{colon}{named}", file=out)
    if result.get("false_win"):
        print(f"{t['false']}{colon}{result['reason_zh'] if lang == 'zh' else result['reason']}", file=out)
        # the penalty the payments below make, as the hand's end card says it: its tai, and the dealer's on what he
        # pays or is paid, or that there is none (a settlement review read payments of 8 and 11 tai, or nothing at
        # all, under the reason alone); a limit payment has its own line below
        rule, pays = result["penalty_rule"], result["payments"]
        if rule == "none":
            print(ui("penalty_none").text(lang), file=out)
        elif rule != "limit" and pays:
            d = max(p["dealer_tai"] for p in pays)
            penalty = ui("penalty_tai", tai=min(p["tai"] - p["dealer_tai"] for p in pays)).text(lang)
            if d:  # (" · " between the parts, as the total of a win says them)
                penalty += " · " + dealer_tai_said(d, dealer_parts(profile, result["_win"].streak)).text(lang)
            print(penalty, file=out)
    else:
        s: Score = result["_score"]
        reading: HouseReading = result["_house"]
        print(f"{t['hand']}{colon}{_hand_said(s.win, lang)}", file=out)
        print(_won_said(s, lang, "win_tile_chosen" in result), file=out)
        if s.decomposition is not None:
            print(f"{t['split']}{colon}{_split_said(s.decomposition, lang)}", file=out)
            # the waits and the winning tile named in words, the code in brackets, as the Won line names it (they
            # showed bare codes right under it, "聽：3p 6p", a teacher's review); the hand and the split keep the
            # notation: a whole hand in words would be a line of twenty names, and the notation is the product's
            waits = [_tile_named(Tile.from_code(c)) for c in result["waits"]]
            waits_said = "、".join(w.zh for w in waits) if lang == "zh" else ", ".join(w.en for w in waits)
            print(f"{t['waits']}{colon}{waits_said or t['none']}", file=out)
            if s.wait_shape is not None and s.win.win_tile is not None:  # the winning tile's shape, not every wait's
                exhausted = t["exhausted"] if len(result["waits"]) == 1 and s.wait_shape is WaitShape.TWO_SIDED else ""
                won = _tile_named(s.win.win_tile)
                shape = ui("explain_shape_of", tile=won.zh, tile_en=won.en, shape=s.wait_shape.zh,
                           shape_en=s.wait_shape.en)
                print((shape.zh if lang == "zh" else shape.en) + exhausted, file=out)
        # 獨聽 with its shape, 獨聽（中洞）, as the app's screens name it (spec §3.6; a teaching review)
        shown = [(item_named(it.id, Words(it.zh, it.en), s), it) for it in s.items]
        rows = [(w.zh if lang == "zh" else w.en, it.tai, it.count, it.id) for w, it in shown]
        width = max([_width(r[0]) + 4 for r in rows] + [12])
        print(f"{_pad(t['item'], width)}{t['tai']:>4}", file=out)
        for name, tai, count, item_id in rows:
            times = f" ×{count}" if count > 1 else ""
            house = t["house"] if item_id in reading.flagged else ""
            print(f"{_pad(name + times, width)}{tai:>4}  {ITEMS[item_id].explain(lang, profile)}{house}", file=out)
        for it, (why_zh, why_en) in zip(reading.otherwise, reading.because, strict=True):
            print(t["otherwise"].format(item=it.zh if lang == "zh" else it.en, tai=it.tai,
                                        why=why_zh if lang == "zh" else why_en), file=out)
        # what the dealer's tai are made of, as the app's screens say it: the set's 莊家, 連莊 and 拉莊 each, the
        # streak up to its cap (none said with no streak: it printed "(連0拉0)", a review)
        why = dealer_parts(profile, s.win.streak)
        streak = f"{opened}{why.text(lang)}{closed}" if why is not None else ""
        counts_none = not any(profile.value(i.id) for i in ITEMS.values() if i.kind is ItemKind.RELATION)
        dealer_part = (f" · {t['no_dealer_tai']}" if result["dealer_in"] and counts_none  # (a house file's 0 for
                       # each: "+0 tai (streak 2)" read as a mistake, a review; one counting the streak alone says +0)
                       else f" · {t['dealer']} +{s.dealer_tai} {t['tai']}{streak}" if result["dealer_in"]
                       else f" · {t['no_dealer']}")  # his tai count only where he wins or pays
        # the hand's tai as the payments count them (a review read 18 + 5 beside payments of 21 under a cap of 16)
        capped = t["capped"].format(cap=s.capped_tai) if s.capped_tai != s.hand_tai else ""
        print(f"{t['total']} {s.hand_tai} {t['tai']}{capped}{dealer_part}", file=out)
    shared = bool(result.get("false_win") and profile.switch("false_win_penalty") == "limit" and result["payments"])
    if shared:  # one limit payment split three ways: "8 tai = 37" beside 37, 37 and 36 read as wrong (a review)
        amounts = [p["amount"] for p in result["payments"]]
        if None in amounts:  # no stakes: the limit in tai, not "8 tai" from each of the three (a change review)
            print(t["limit_tai"].format(tai=result["payments"][0]["tai"]), file=out)
            return
        print(t["limit"].format(tai=result["payments"][0]["tai"], amount=sum(amounts)), file=out)
    # a capped hand's payment with the dealer's tai in it says the two apart, "(8 + 1) tai", as the Ledger does (a
    # review read "9 tai" beside "Hand total 9 tai (capped at 8 tai) · Dealer +1" as the cap not applied)
    under_cap: int | None = None if result.get("false_win") or "_score" not in result or \
        result["_score"].capped_tai == result["_score"].hand_tai else result["_score"].capped_tai
    for p in result["payments"]:
        amount = f" = {p['amount']}" if p["amount"] is not None else ""
        on = f"({under_cap} + {p['dealer_tai']})" if under_cap is not None and p["dealer_tai"] and \
            p["tai"] == under_cap + p["dealer_tai"] else str(p["tai"])
        paid = str(p["amount"]) if shared else f"{on} {t['tai']}{amount}"
        print(f"  {seat[p['payer']]} → {seat[p['payee']]}{colon}{paid}", file=out)

