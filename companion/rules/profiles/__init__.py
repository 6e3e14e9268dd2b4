"""Rule profiles as data (spec §5): TOML files shipped in this package, plus the user's house files.

>>> p = load_profile("sml_2026")
>>> p.value("all_honours"), p.switch("small_winds_adds_winds")
(16, False)

A profile names what it ``inherits`` and overrides tai values (0 turns an item off) and switches.
The code never branches on a profile's name; it only reads values. An unknown item or switch, a value of
the wrong type, or an inheritance cycle is a :class:`ProfileError` naming the file and the key.
"""

from __future__ import annotations

import ast
import contextlib
import difflib
import errno
import hashlib
import io
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from companion.files import read_plain_text
from companion.rules.profiles._schema import (
    SWITCHES,
    TAI_MOST,
    TAI_NUMBER,
    as_written,
    check_switch,
    got_said,
    read_float,
    switch_refused,
    toml_key,
)
from companion.rules.tai import ITEMS, SWITCH_VALUED, UNSUPPORTED

__all__ = ["BUILTIN", "DEFAULT_PROFILE", "Profile", "ProfileError", "load_profile", "parse_profile", "keep_rules",
           "profile_id", "check_caps", "played_with", "instant_tai", "INSTANT_TAI", "parent_ref", "MinAboveCap", "as_its_file", "named_now"]

DEFAULT_PROFILE = "atawmj_2009"
BUILTIN = ("atawmj_2009", "sml_2026", "star31", "zhaishenye", "wikibooks_base")
_TOP_KEYS = frozenset({"id", "inherits", "name_zh", "name_en", "source", "house_rules", "tai", "switches"})


class ProfileError(ValueError):
    """A profile that cannot be used; the message names the profile (file) and the offending key.
    ``zh``: the same in Traditional Chinese.

    For a screen that names the set its own way and shows no path (the app), the error of a rule-set file also
    keeps apart what it says of it: ``file``, the file at fault; ``reason``, (English, Chinese) what is wrong with
    it, the file unnamed ("not valid TOML: … (at line 3, column 5)"); ``inherited``, where the set it inherits is
    the one at fault, that set's own error (a review: the Live tab said "profile file '…/home8.toml': …")."""

    file: Path | None = None
    reason: tuple[str, str] | None = None
    inherited: ProfileError | None = None
    reason_zh: str | None = None  # the Chinese reason where it says more than ``zh`` (the parser's detail, which
    # the command line's Chinese leaves out: a change review read it in the app's English alone)

    def __init__(self, message: str, zh: str = "") -> None:
        super().__init__(message)
        self.zh = zh or message


def _reason_kept(bad: ProfileError, where: str, wz: str, file: Path | None = None) -> None:
    """Note on ``bad``, said of ``where`` (``wz`` in Chinese) as ``"{where}: reason"``, its reason apart (and the
    file it is said of), where it has none yet: the innermost file that said it keeps its own."""
    en, zh = str(bad), bad.zh
    if bad.reason is None and en.startswith(f"{where}: ") and zh.startswith(f"{wz}："):
        bad.reason, bad.file = (en[len(where) + 2:], bad.reason_zh or zh[len(wz) + 1:]), file


class MinAboveCap(ProfileError):
    """:func:`check_caps`'s refusal of a ``min_tai`` (``least``) above the ``tai_cap`` (``cap``): the app's editor
    says it in the words of its fields, the rule kept here alone (a review: the editor's own copy went untested)."""

    def __init__(self, message: str, zh: str, least: int, cap: int) -> None:
        super().__init__(message, zh)
        self.least, self.cap = least, cap


@dataclass(frozen=True, slots=True)
class Profile:
    """A resolved profile: every item's tai and every switch, plus what this profile itself overrides."""

    id: str
    name_zh: str
    name_en: str
    inherits: str | None
    tai: Mapping[str, int]
    switches: Mapping[str, Any]
    house_rules: tuple[str, ...] = ()
    source: str = ""
    own_tai: Mapping[str, int] = field(default_factory=dict)
    own_switches: Mapping[str, Any] = field(default_factory=dict)
    own_house_rules: tuple[str, ...] = ()
    # the switches a table played otherwise than this set (:func:`played_with`: a line's own ``switches``), each with
    # the set's own value: a refusal by one of them is said as the table's rule, not the set's (a house-rules review
    # read "below the minimum 5 of profile atawmj_2009", whose minimum is 0)
    played_over: Mapping[str, Any] = field(default_factory=dict)

    def value(self, item_id: str) -> int:
        """Tai per occurrence of an item (0 = off); switch-valued items read their switch."""
        sw = SWITCH_VALUED.get(item_id)
        return int(self.switches[sw]) if sw else self.tai[item_id]

    def switch(self, name: str) -> Any:
        return self.switches[name]

    def is_house_rule(self, key: str) -> bool:
        """``key`` is ``tai.<id>`` or ``switches.<name>``: flagged "house rule" in the UI (spec §5.4)."""
        return key in self.house_rules

    def item_is_house_rule(self, item_id: str) -> bool:
        """The item's value in this profile is uncertain (its tai, or the switch that sets it)."""
        sw = SWITCH_VALUED.get(item_id)
        return self.is_house_rule(f"tai.{item_id}") or (sw is not None and self.is_house_rule(f"switches.{sw}"))

    def name(self, lang: str) -> str:
        return self.name_zh if lang.startswith("zh") else self.name_en

    def __str__(self) -> str:
        return self.id


def _suggest(word: str, choices: Any) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f" (did you mean “{close[0]}”?)" if close else ""


def _suggest_zh(word: str, choices: Any) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f"（是不是「{close[0]}」？）" if close else ""


def _check_tai(raw: Any, where: str, wz: str, stored: bool = False) -> dict[str, int]:
    """The ``[tai]`` table checked: known items, each a whole number from 0 to :data:`TAI_MOST` (any 0 or more where
    ``stored``, a value a table already played under)."""
    if not isinstance(raw, Mapping):
        raise ProfileError(f"{where}: [tai] must be a table of item = tai", f"{wz}：[tai] 要是「項目 = 台數」的表")
    out: dict[str, int] = {}
    for key, value in raw.items():
        if key in SWITCH_VALUED:
            raise ProfileError(f"{where}: tai.{key} is set by the switch {SWITCH_VALUED[key]}",
                               f"{wz}：tai.{key} 由開關 {SWITCH_VALUED[key]} 設定")
        if key not in ITEMS and key not in UNSUPPORTED:
            raise ProfileError(f"{where}: unknown tai item “{key}”{_suggest(key, ITEMS)}",
                               f"{wz}：不認得的台數項目「{key}」{_suggest_zh(key, ITEMS)}")
        if isinstance(value, bool) or not isinstance(value, int) or value < 0 or (value > TAI_MOST and not stored):
            # (as the file wrote it, as a switch's is: a review read ``got True``)
            got, got_zh = got_said(as_written(value, toml=True))
            raise ProfileError(f"{where}: tai.{key} must be {TAI_NUMBER[1]}; got {got}",
                               f"{wz}：tai.{key} 只能是 {TAI_NUMBER[0]}，收到{got_zh}")
        if key in UNSUPPORTED and value:
            raise ProfileError(f"{where}: tai.{key}: {UNSUPPORTED[key][1]}",
                               f"{wz}：tai.{key}：{UNSUPPORTED[key][0]}")
        out[key] = value
    return out


INSTANT_TAI = {"seven_rob_one": 8, "eight_flowers": 8, "four_kongs": 8}
"""The tai the rules document gives each instant win where it is on (spec §4.2, §4.4): what one a table switches on
scores where neither its rule set nor any set it inherits scores it (:func:`played_with`)."""


def instant_tai(profile: Profile, item: str) -> int:
    """What the instant win ``item`` scores where a table switches it on under ``profile``: its tai in the nearest
    rule set of ``profile``'s line that scores it (a house set at 0 over 宅神爺 plays its 八仙過海 16), else the
    rules document's (:data:`INSTANT_TAI`: an earlier version gave 8 whatever the set inherited)."""
    here: Profile | None = profile
    for _ in range(16):  # (a line of sets is short; one going round stops here)
        if here is None:
            break
        if here.value(item):
            return here.value(item)
        ref = here.inherits
        if not ref or (_is_path(ref) and not Path(ref).expanduser().is_absolute()):  # (a relative path: of a folder
            break  # this record does not know)
        try:
            here = load_profile(ref)
        except (ProfileError, OSError):
            break
    return INSTANT_TAI[item]


def played_with(profile: Profile, switches: Any, where: str = "switches", where_zh: str | None = None) -> Profile:
    """``profile`` as a table played it: each switch in ``switches`` (checked as a profile file's ``[switches]``, as
    values a table played under: ``stored``) over its own; a ledger's winner record carries the ones its table set
    otherwise (a change review: a table that allowed a win on a discard kong's replacement had its exported winner
    scored as a 詐胡 by ``companion tai``). An instant win (七搶一, 八仙過海, 四槓: ``true`` or ``false``) switched on
    where the set scores it 0 scores :func:`instant_tai` (a 四槓 switched on under atawmj_2009 was accepted by the
    tracker and its winner then charged a 詐胡 by the ledger), one switched off 0. Every switch it changes is kept in
    ``played_over`` with the set's own value, so that the line is said as played by the table's own rules, not the
    set's: the one helper of the tracker's table (``table_profile``) and of ``companion tai`` (a review: the two
    differed, so a record of a table that switched 七搶一 on was said to play an edited rule set, and ``companion tai``
    refused the switch)."""
    wz = where if where_zh is None else where_zh
    instant: dict[str, bool] = {}
    if isinstance(switches, Mapping):
        for key in [k for k in switches if k in INSTANT_TAI]:
            value = switches[key]
            if not isinstance(value, bool):
                got, got_zh = got_said(as_written(value))
                raise ProfileError(f"{where}: {key} must be true or false; got {got}",
                                   f"{wz}：{key} 只能是 true 或 false，收到{got_zh}")
            instant[key] = value
        switches = {k: v for k, v in switches.items() if k not in INSTANT_TAI}
    checked = _check_switches(switches, where, wz, stored=True)
    over: dict[str, Any] = {k: profile.switches.get(k) for k, v in checked.items() if profile.switches.get(k) != v}
    tai: dict[str, int] = {}
    for key, on in instant.items():
        if on != (profile.value(key) > 0):
            over[key] = not on
            tai[key] = instant_tai(profile, key) if on else 0
    if not over:
        return profile
    return replace(profile, switches=MappingProxyType({**profile.switches, **checked}),
                   tai=MappingProxyType({**profile.tai, **tai}),
                   played_over=MappingProxyType({**over, **profile.played_over}))


def _check_switches(raw: Any, where: str, wz: str, stored: bool = False) -> dict[str, Any]:
    if not isinstance(raw, Mapping):
        raise ProfileError(f"{where}: [switches] must be a table of switch = value",
                           f"{wz}：[switches] 要是「開關 = 值」的表")
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if key not in SWITCHES:
            raise ProfileError(f"{where}: unknown switch “{key}”{_suggest(key, SWITCHES)}",
                               f"{wz}：不認得的開關「{key}」{_suggest_zh(key, SWITCHES)}")
        try:
            out[key] = check_switch(key, value, where, stored=stored)
        except ValueError as e:
            raise ProfileError(str(e), f"{wz}：{switch_refused(key, value)[1]}") from None
    return out


def parse_profile(data: Mapping[str, Any], where: str, _seen: tuple[str, ...] = (), *,
                  where_zh: str | None = None, folder: Path | None = None, stored: bool = False) -> Profile:
    """Validate and resolve one profile record (already read from TOML). ``where`` names it in errors
    (``where_zh`` in their Chinese, default ``where``); an ``inherits`` that is a relative path is read from
    ``folder``, the folder of the file the record came from (it was read from wherever the command ran: a
    review). ``stored``: the values a table played under (its kept rules, a ledger's record), its own switches
    checked as such (:func:`~companion.rules.profiles._schema.check_switch`)."""
    wz = where if where_zh is None else where_zh
    unknown = set(data) - _TOP_KEYS
    if unknown:
        key = sorted(unknown)[0]
        raise ProfileError(f"{where}: unknown key “{key}”{_suggest(key, _TOP_KEYS)}",
                           f"{wz}：不認得的鍵「{key}」{_suggest_zh(key, _TOP_KEYS)}")
    pid = data.get("id")
    if not isinstance(pid, str) or not pid.strip():
        raise ProfileError(f"{where}: missing id = \"...\"", f"{wz}：缺少 id = \"...\"")
    own_tai = _check_tai(data.get("tai", {}), where, wz, stored)
    own_sw = _check_switches(data.get("switches", {}), where, wz, stored)
    parent_id = data.get("inherits")
    if parent_id is None:
        missing = [k for k in ITEMS if k not in own_tai and k not in SWITCH_VALUED]
        missing += [k for k in SWITCHES if k not in own_sw]
        if missing:
            shown = f"{', '.join(missing[:5])}{' …' if len(missing) > 5 else ''}"
            raise ProfileError(f"{where}: no “inherits”, so every item and switch must be set; missing {shown}",
                               f"{wz}：沒有 inherits，每個項目和開關都要設定；缺少 {shown}")
        tai, switches = dict(own_tai), dict(own_sw)
        house: tuple[str, ...] = ()
    else:
        if not isinstance(parent_id, str):  # (no text: as the file wrote it, not as Python does: a review read
            got, got_zh = got_said(as_written(parent_id, toml=True))  # ``got ['a']``)
            raise ProfileError(f"{where}: inherits must be a profile id, got {got}",
                               f"{wz}：inherits 要寫規則的 id，收到{got_zh}")
        if parent_id in _seen or parent_id == pid:
            chain = " -> ".join(_seen + (pid, parent_id))
            raise ProfileError(f"{where}: inheritance cycle {chain}", f"{wz}：繼承繞成一圈 {chain}")
        try:
            parent = _load(parent_ref(parent_id, folder), _seen + (pid,))
        except ProfileError as bad:  # said of the file that inherits it (a review: the file went unnamed)
            said = ProfileError(f"{where}: inherits: {bad}", f"{wz}：inherits：{bad.zh}")
            said.inherited = bad
            raise said from None
        tai = {**parent.tai, **own_tai}
        switches = {**parent.switches, **own_sw}
        overridden = {f"tai.{k}" for k in own_tai} | {f"switches.{k}" for k in own_sw}
        house = tuple(h for h in parent.house_rules if h not in overridden)
    house_rules = data.get("house_rules", [])
    if not isinstance(house_rules, list) or not all(isinstance(h, str) for h in house_rules):
        raise ProfileError(f"{where}: house_rules must be a list of \"tai.<id>\" / \"switches.<name>\"",
                           f"{wz}：house_rules 要是 \"tai.<項目>\" / \"switches.<開關>\" 的清單")
    for h in house_rules:
        kind, _, key = h.partition(".")
        if not ((kind == "tai" and (key in ITEMS or key in UNSUPPORTED)) or (kind == "switches" and key in SWITCHES)):
            raise ProfileError(f"{where}: house_rules entry “{h}” names no item or switch",
                               f"{wz}：house_rules 的「{h}」不是任何項目或開關")
    for key in ("name_zh", "name_en", "source"):  # (a number or a date was written out as text, a review)
        if key in data and not isinstance(data[key], str):  # (as the file wrote it: a review read
            got, got_zh = got_said(as_written(data[key], toml=True))  # ``got datetime.date(2024, 1, 1)``)
            raise ProfileError(f"{where}: {key} must be text in quotes, got {got}",
                               f"{wz}：{key} 要是加引號的文字，收到{got_zh}")
    return Profile(
        id=pid, name_zh=str(data.get("name_zh", pid)), name_en=str(data.get("name_en", pid)),
        inherits=parent_id, tai=MappingProxyType(tai), switches=MappingProxyType(switches),
        house_rules=tuple(dict.fromkeys((*house, *house_rules))), source=str(data.get("source", "")),
        own_tai=MappingProxyType(own_tai), own_switches=MappingProxyType(own_sw),
        own_house_rules=tuple(house_rules),
    )


def _read_toml(text: str, where: str, wz: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text.removeprefix("\ufeff"), parse_float=read_float)  # (a byte-order mark an editor put first: a review)
    except tomllib.TOMLDecodeError as e:
        en, zh = _toml_said(_toml_keys(str(e)))
        bad = ProfileError(f"{where}: not valid TOML: {en}", f"{wz}：不是有效的 TOML：{zh}")
        bad.reason_zh = f"不是有效的 TOML：{zh}"
        raise bad from None
    except ValueError:  # a number of more digits than Python reads (4300): a traceback (a review)
        raise ProfileError(f"{where}: a number too long to read", f"{wz}：有數字太長，無法讀取") from None


_PY_TEXT = r"""(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")"""  # a str as Python's repr writes it, escapes too
_PY_KEY = re.compile(rf"^(?P<lead>Duplicate inline table key )(?P<inline>{_PY_TEXT})"  # an inline table's key,
                     rf"|(?P<table>\({_PY_TEXT}(?:, {_PY_TEXT})*,?\))")  # a table's (a tuple)
def _key_parts(text: str) -> tuple[str, ...] | None:
    """The key parts of ``text``, a str or a tuple of them as Python's repr writes it; None where it is not."""
    try:
        got = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None
    got = (got,) if isinstance(got, str) else got
    return got if isinstance(got, tuple) and got and all(isinstance(p, str) for p in got) else None


def _toml_keys(said: str) -> str:
    """The parser's reason ``said`` with each key it quotes in Python's words written as it is in the file: a table
    (a tuple: ``('switches',)``, ``('a', 'c')``) as ``[switches]``, ``[a.c]``; an inline table's key (a str:
    ``'b.c'``) as ``"b.c"``. The tuple reached the host in both languages (a change review); then again where a key
    held a backslash or both quotes, which Python's repr escapes and the pattern took for no key, and the inline
    table's key kept Python's quotes (a change review). One pass: a key written back is never read again (an inline
    table's key ``"('a',)"``, written back as itself, was then read as a table and said ``[a]``: a change review)."""
    def key(m: re.Match[str]) -> str:
        if m["inline"] is not None:
            parts = _key_parts(m["inline"])
            return m[0] if parts is None else m["lead"] + toml_key(parts)
        parts = _key_parts(m["table"])
        return m[0] if parts is None else f"[{toml_key(parts)}]"
    return _PY_KEY.sub(key, said)


_TOML_SAID = (  # the parser's (tomllib's) reasons in plain words ({0}: what the parser quotes), English and Chinese
    (r"Invalid value", "a value is not written as TOML writes one (a text in quotes, a number, true or false, a list "
                       "[...])", "值寫得不對"),
    (r"Unterminated string", "a text is not closed by its quote", "字串少了結尾的引號"),
    (r"Unclosed array", "a list [ ] is not closed", "清單（[ ]）沒有結尾"),
    (r"Unclosed inline table", "an inline table {{ }} is not closed", "行內表（{{ }}）沒有結尾"),
    (r"Invalid statement", "a line that is no setting (write key = value)", "這一行看不懂"),
    (r"Expected '=' after a key in a key/value pair", "an = is missing after a key", "鍵的後面要有 ="),
    (r"Expected newline or end of document after a statement", "one setting a line: a line break is missing after "
                                                               "a setting", "一個設定的後面要換行"),
    (r"Expected '\]' at the end of a table declaration", "a ] is missing after a table's name", "表的名稱後面少了 ]"),
    (r"Expected '\]\]' at the end of an array declaration", "a ]] is missing after a table array's name",
     "表陣列的名稱後面少了 ]]"),
    (r"Invalid initial character for a key part", "a key begins with a character a key may not",
     "鍵的第一個字元不對"),
    (r"Cannot overwrite a value", "a value is set twice", "同一個值寫了兩次"),
    (r"Cannot declare (.+) twice", "{0} is written twice", "{0} 寫了兩次"),
    (r"Cannot mutate immutable namespace (.+)", "{0} is already set and takes no more", "{0} 已經寫定，不能再加"),
    (r"Cannot redefine namespace (.+)", "{0} is already set and cannot be set again", "{0} 已經寫定，不能重新定義"),
    (r"Duplicate inline table key (.+)", "the key {0} is written twice in an inline table", "行內表裡的鍵 {0} 重複了"),
    (r"(?:Illegal|Found invalid) character '\\n'", "a text is not closed by its quote before the line ends",
     "字串在這一行結尾前少了結尾的引號"),  # (it said "Illegal character '\n'": a review)
    (r"(?:Illegal|Found invalid) character (.+)", "a character that cannot stand here: {0}", "有不能用的字元 {0}"),
    (r"Invalid date or datetime", "a date or time is not written right", "日期或時間寫得不對"),
    (r"Invalid hex value", "a hexadecimal value is not written right", "十六進位的值寫得不對"),
    (r"Escaped character is not a Unicode scalar value", "an escape names no Unicode character",
     "跳脫字元不是有效的 Unicode 字元"),
    (r"Unescaped '\\' in a string", "a backslash \\ in a text is not escaped (write \\\\)", "字串裡的 \\ 沒有跳脫"),
    (r"Expected (.+)", "{0} was expected here", "這裡應該是 {0}"),
)


def _toml_said(said: str) -> tuple[str, str]:
    """The parser's reason ``said`` ("Invalid value (at line 5, column 11)") in plain words, (English, Chinese), with
    where it is; one it does not know, in its own words (the English gave the parser's sentence, "Illegal character
    '\n'", and the command line's Chinese the line and column alone: a review)."""
    what, _, at = said.partition(" (at ")
    where = re.fullmatch(r"line (\d+), column (\d+)\)", at)
    spot = f"（第 {where[1]} 行第 {where[2]} 欄）" if where else "（在檔案結尾）" if at == "end of document)" else \
        f"（{at}" if at else ""
    spot_en = f" (at line {where[1]}, column {where[2]})" if where else " (at the end of the file)" \
        if at == "end of document)" else f" (at {at}" if at else ""
    for pattern, en, zh in _TOML_SAID:
        known = re.fullmatch(pattern, what)
        if known:
            return en.format(*known.groups()) + spot_en, zh.format(*known.groups()) + spot
    return what + spot_en, what + spot


_OS_ZH = {errno.ENOENT: "找不到這個檔案", errno.EACCES: "沒有權限", errno.EPERM: "沒有權限",
          errno.EISDIR: "這是資料夾，不是檔案", errno.ENOTDIR: "路徑中有一段不是資料夾", errno.ENOSPC: "磁碟已滿",
          errno.EROFS: "唯讀的檔案系統",
          errno.ELOOP: "符號連結繞成一圈"}

# --- the common errors a user can meet with files, in plain Chinese (a review read 「系統錯誤 EEXIST」, 「系統錯誤
# TimeoutError」: the errno's or Python's name); by errno name, so one this system lacks (EDQUOT) is skipped ---
_OS_ZH.update({code: zh for name, zh in (
    ("EEXIST", "已經有同名的檔案"), ("EIO", "讀寫裝置出錯"), ("EDQUOT", "超過磁碟配額"), ("ETIMEDOUT", "逾時"),
    ("EAGAIN", "暫時無法使用"), ("ENAMETOOLONG", "檔名或路徑太長"), ("EBUSY", "檔案正被其他程式使用"),
    ("ENOTEMPTY", "資料夾不是空的"), ("EXDEV", "不能搬到另一個磁碟"), ("EMFILE", "同時開啟的檔案太多"),
    ("ENFILE", "同時開啟的檔案太多"), ("EFBIG", "檔案太大"), ("EINVAL", "檔名或操作不合法"), ("ENODEV", "找不到這個裝置"),
    ("ENXIO", "找不到這個裝置"), ("EBADF", "這個檔案不能這樣讀寫"), ("EINTR", "讀寫被中斷"), ("EPIPE", "另一端已經關閉"),
    ("ESTALE", "網路上的檔案已經失效"), ("ETXTBSY", "檔案正被其他程式使用"))
    if (code := getattr(errno, name, None)) is not None})

# an OS error with no errno, by its kind (the pipe read as a file raises io.UnsupportedOperation, with none)
_OS_KIND_ZH: tuple[tuple[type[BaseException], str], ...] = (
    (TimeoutError, "逾時"), (BlockingIOError, "暫時無法使用"), (io.UnsupportedOperation, "這種檔案不能這樣讀寫"),
    (FileNotFoundError, _OS_ZH[errno.ENOENT]), (FileExistsError, _OS_ZH[errno.EEXIST]),
    (PermissionError, _OS_ZH[errno.EACCES]), (IsADirectoryError, _OS_ZH[errno.EISDIR]),
    (NotADirectoryError, _OS_ZH[errno.ENOTDIR]), (InterruptedError, _OS_ZH[errno.EINTR]),
    (BrokenPipeError, _OS_ZH[errno.EPIPE]))

# an OS error with words nowhere above (os_error_zh): named by its errno name, else its number, else none
_OS_ZH_OTHER = ("系統錯誤，代碼 {name}", "系統錯誤，代碼 {code}", "系統錯誤")  # (said inside brackets: none of its own)


def os_error_zh(e: OSError) -> str:
    """The gist of an :class:`OSError` in Chinese (the English is its ``strerror``): its own where it has one
    (:class:`companion.files.NotAFolderError`)."""
    own = getattr(e, "zh", None)
    if isinstance(own, str) and own:
        return own
    return _OS_ZH.get(e.errno or 0) or _os_error_other_zh(e)


def _os_error_other_zh(e: OSError) -> str:
    """A system error :data:`_OS_ZH` has no words for, in Chinese: one with no errno by its kind
    (:data:`_OS_KIND_ZH`: ``UnsupportedOperation``, a pipe read as a file, 「這種檔案不能這樣讀寫」); else, as a last
    resort, by its errno name (「系統錯誤，代碼 ENOLINK」), else its number; "系統錯誤" alone for a plain
    ``OSError``. It said "系統錯誤：" and the system's English (a review), then Python's names (「系統錯誤
    TimeoutError」, 「系統錯誤 EEXIST」 for a common one: a later review)."""
    code = e.errno
    if not code:
        return next((zh for kind, zh in _OS_KIND_ZH if isinstance(e, kind)), _OS_ZH_OTHER[2])
    name = errno.errorcode.get(code) if isinstance(code, int) else None
    return _OS_ZH_OTHER[0].format(name=name) if name else _OS_ZH_OTHER[1].format(code=code)


def _is_path(name: str) -> bool:
    return name.endswith(".toml") or "/" in name or "\\" in name


def parent_ref(parent: str, folder: Path | None) -> str:
    """Where a profile's ``inherits = parent`` points, as :func:`load_profile` takes it: an id as it is; a path with
    its ``~`` expanded, and where relative, read from ``folder``, the folder of the file that names it (None: from
    where the command runs). The one rule for the store and the app's editor (a review: the editor read a relative
    path from the house sets' folder, so a copy of a set in a folder below it was saved as inheriting the wrong
    built-in one; and ``~/par.toml`` was read as a folder named ``~``). A ``~user`` this system does not know is
    left as written, to be refused as a file that cannot be read (it stopped every rule set being listed)."""
    if not _is_path(parent):
        return parent
    path = Path(parent)
    with contextlib.suppress(RuntimeError):  # (no such user, or no home folder)
        path = path.expanduser()
    return str(path if folder is None or path.is_absolute() else folder / path)


@lru_cache(maxsize=64)
def _load_builtin(pid: str) -> Profile:
    text = resources.files("companion.rules.profiles").joinpath(f"{pid}.toml").read_text(encoding="utf-8")
    where, wz = f"profile {pid}", f"規則 {pid}"
    return parse_profile(_read_toml(text, where, wz), where, where_zh=wz)


def _file_where(path: Path) -> tuple[str, str]:
    """How an error names the rule-set file ``path`` (English, Chinese)."""
    return f"profile file “{str(path)}”", f"規則檔「{str(path)}」"


def _load_file(path: Path, seen: tuple[str, ...]) -> Profile:
    where, wz = _file_where(path)
    try:
        return _read_file(path, seen, where, wz)
    except ProfileError as bad:
        _reason_kept(bad, where, wz, path)
        raise


def _read_file(path: Path, seen: tuple[str, ...], where: str, wz: str) -> Profile:
    try:
        text = read_plain_text(path)  # (a pipe is refused, not waited on: a review)
    except OSError as e:
        raise ProfileError(f"{where}: cannot read it ({e.strerror})", f"{wz}：無法讀取（{os_error_zh(e)}）") from None
    except UnicodeDecodeError:
        raise ProfileError(f"{where}: not UTF-8 text", f"{wz}：不是 UTF-8 文字") from None
    data = _read_toml(text, where, wz)
    pid = data.get("id")
    if isinstance(pid, str) and pid.strip() in BUILTIN:
        # a house file named like a built-in would be reported (and re-read) as the built-in
        raise ProfileError(f"{where}: id “{pid}” is built in; give the house profile its own id",
                           f"{wz}：id「{pid}」是內建規則的名稱，請給自訂規則取別的 id")
    return parse_profile(data, where, seen, where_zh=wz, folder=path.parent)


def check_caps(profile: Profile) -> None:
    """Refuse a cap no win could be paid under (a review saved one): ``tai_cap`` under 1 (every win paid 底 alone),
    or under ``min_tai`` (every win needed more tai than any was paid). Asked of a profile saved, given to
    ``companion tai`` or seated at a table now, not of one a table already played under: its log still replays."""
    cap, least = profile.switch("tai_cap"), profile.switch("min_tai")
    where, wz = f"profile “{profile.id}”", f"規則「{profile.id}」"
    bad: ProfileError | None = None
    # (each switch by its name as the app shows it, its key in brackets: a review read "switch tai_cap must be …")
    c, m = SWITCHES["tai_cap"], SWITCHES["min_tai"]
    if cap != "none" and cap < 1:  # (said as the file's check says -1: a change review read 0 load while -1 was
        # refused as "a whole number 1 or more", and 0 refused here as "at least 1 (or "none")", two wordings)
        en, zh = switch_refused("tai_cap", cap)
        bad = ProfileError(f"{where}: {en}", f"{wz}：{zh}")
    elif cap != "none" and least > cap:
        bad = MinAboveCap(f"{where}: {m.en} (min_tai, {least}) is above the {c.en.lower()} (tai_cap, {cap}): no win "
                          "could be paid what it needs", f"{wz}：{m.zh}（min_tai，{least}）大於{c.zh}（tai_cap，{cap}），"
                          "沒有一手胡牌付得到起胡的台數", least, cap)
    if bad is not None:
        _reason_kept(bad, where, wz)  # (said of the set, whose own file reads)
        raise bad


_KEPT: dict[str, Profile] = {}
"""The rule sets tables keep (:func:`keep_rules`), by key: the same text always gives the same key."""

FORMER_NAMES = {"atawmj_2009": (("中華競技麻將 2009", "ATAWMJ 2009 (default)"),)}
"""Names (zh, en) a built-in rule set had in an earlier version, which a table seated or a record written then keeps:
read as its names now (:func:`named_now`). The default's English name said "(default)", now added where the rule sets
are listed (a language review); a table seated under it is no other rule set for it."""


def named_now(pid: str, data: dict[str, Any]) -> dict[str, Any]:
    """``data``, a built-in rule set ``pid``'s values as a table or a record kept them, with the names this version
    gives it where they are names of an earlier one (:data:`FORMER_NAMES`): not "as seated" for a name alone."""
    if (data.get("name_zh"), data.get("name_en")) not in FORMER_NAMES.get(pid, ()):
        return data
    now = _load_builtin(pid)
    return {**data, "name_zh": now.name_zh, "name_en": now.name_en}


def keep_rules(pid: str, text: str) -> str:
    """The key that loads the rule set ``pid`` as a table kept it when its players sat down (``text``: every value,
    as :func:`companion.rules.profiles._store.rules_text` writes it), so that a house file edited or removed later
    changes no hand played under it (a money review: raising a file's tai cap repriced every finished hand, and
    removing it left the table unopenable). The key is ``pid#`` and the text's digest: loaded by
    :func:`load_profile` like an id, in this process, once a table's seating has been read. A value a later version
    no longer knows is dropped, and one it added comes from the default, so a table seated by another version
    still opens. :class:`ProfileError` where the text is no rule set of that id."""
    key = f"{pid}#{hashlib.sha256(text.encode('utf-8')).hexdigest()[:16]}"
    if key not in _KEPT:
        where, wz = f"the rules kept with the table ({pid})", f"牌桌存下的規則（{pid}）"
        # every value is there: the default fills in only what it lacks; what this version does not know (a key, an
        # item, a switch or a switch's value a later version added) is left out, so the table still opens
        data = {k: v for k, v in _read_toml(text, where, wz).items() if k in _TOP_KEYS and k != "inherits"}
        default, items = _load_builtin(DEFAULT_PROFILE), ITEMS.keys() | UNSUPPORTED.keys()
        kept_tai, kept_switches = data.get("tai"), data.get("switches")
        if isinstance(kept_tai, Mapping):
            data["tai"] = {**default.own_tai, **{k: v for k, v in kept_tai.items() if k in items}}
        if isinstance(kept_switches, Mapping):
            data["switches"] = {**default.own_switches,
                                **{k: v for k, v in kept_switches.items() if k in SWITCHES and _takes(k, v)}}
            # (a value taken as played: a streak_cap over today's bound stays the table's, not the default's)
        if isinstance(data.get("house_rules"), list):
            data["house_rules"] = [h for h in data["house_rules"] if isinstance(h, str) and h.partition(".")[2] in
                                   (items if h.startswith("tai.") else SWITCHES.keys())]
        profile = parse_profile(named_now(pid, data), where, where_zh=wz, stored=True)
        if profile.id != pid:
            raise ProfileError(f"{where}: they are the rules of “{profile.id}”", f"{wz}：存的是「{profile.id}」的規則")
        _KEPT[key] = profile
    return key


def as_its_file(kept: Profile) -> bool:
    """Whether ``kept``, the values a table kept at seating (:func:`keep_rules`) or a ledger's record carries, are
    what the rule set of its id here says now: the same names, switches and tai (a tai of 0 and one left out alike).
    False where its file was edited since, deleted or damaged, or where no set of that id is here: two hands then
    named alike score otherwise, and the screens and ``companion tai --explain`` say "as seated" (a review read
    "Friday house" both for a table's 5 tai and for the edited file's 3)."""
    try:
        now = load_profile(kept.id)
        check_caps(now)
    except ProfileError:
        return False
    return ((now.name_zh, now.name_en) == (kept.name_zh, kept.name_en) and dict(now.switches) == dict(kept.switches)
            and {k: v for k, v in now.tai.items() if v} == {k: v for k, v in kept.tai.items() if v})


def _takes(switch: str, value: Any) -> bool:
    """Whether this version takes ``value`` for ``switch`` as a table played under it (``stored``)."""
    try:
        check_switch(switch, value, "", stored=True)
    except ValueError:
        return False
    return True


def profile_id(key: str) -> str:
    """The rule set's id in a key of :func:`keep_rules` (an id is its own)."""
    return key.partition("#")[0]


def _load(name: str, seen: tuple[str, ...] = ()) -> Profile:
    if name in _KEPT:
        return _KEPT[name]
    if name in BUILTIN:
        return _load_builtin(name)
    if _is_path(name):
        return _load_file(Path(name), seen)
    from companion.rules.profiles._store import data_dir, user_profile_path

    try:
        user: Path | None = user_profile_path(name)
    except ProfileError:  # not an id a house profile can have
        user = None
    if user is not None and user.is_file():
        profile = _load_file(user, seen)
        if profile.id != name:  # a file copied by hand, its id left as it was: played as the other id, a table
            # seated under it kept that one, and was then said to have lost its set (a change review)
            where, wz = _file_where(user)
            bad = ProfileError(f"{where}: its id is “{profile.id}”, not “{name}”, the name of its file: a house "
                               f"profile's id names its file (write id = \"{name}\" in it)",
                               f"{wz}：裡面的 id 是「{profile.id}」，不是檔名「{name}」；自訂規則的 id 要和檔名一樣"
                               f"（請在檔案裡寫 id = \"{name}\"）")
            _reason_kept(bad, where, wz, user)
            raise bad
        return profile
    from companion.rules.profiles._store import list_profiles

    folder = data_dir() / "profiles"
    house = list_profiles()[len(BUILTIN):]  # the saved ones by name too (only the built-in ones were: a review)
    saved = f"; saved here: {', '.join(house)}" if house else ""
    saved_zh = f"；已存的自訂規則有 {'、'.join(house)}" if house else ""
    every = BUILTIN + house
    raise ProfileError(f"unknown profile “{name}”: built in are {', '.join(BUILTIN)}{saved}; house profiles live in "
                       f"{folder} (or give a path to a .toml file){_suggest(name, every)}",
                       f"不認得規則「{name}」：內建的有 {'、'.join(BUILTIN)}{saved_zh}；自訂規則放在 {folder}"
                       f"（或給 .toml 檔的路徑）{_suggest_zh(name, every)}")


def load_profile(name_or_path: str | Path | Profile | None = None) -> Profile:
    """A built-in profile id, a house profile saved in the user's data folder, or a path to a TOML file.

    ``None`` gives the default ``atawmj_2009``. Built-in profiles are read once and cached.
    """
    if isinstance(name_or_path, Profile):
        return name_or_path
    if name_or_path is None:
        return _load_builtin(DEFAULT_PROFILE)
    try:
        if isinstance(name_or_path, Path):
            return _load_file(name_or_path, ())
        return _load(str(name_or_path).strip())
    except RecursionError:  # files inheriting each other by path, each with its own id (a review): no cycle seen
        raise ProfileError(f"profile “{str(name_or_path)}”: its inherits go round in a circle",
                           f"規則「{str(name_or_path)}」：inherits 繞成一圈") from None
