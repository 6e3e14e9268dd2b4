"""The switches a profile may set (spec §2.17, §4.4, §5.1, §6.6): type, allowed values, default.

``"none"`` stands for "no value" (TOML has no null): ``streak_cap = "none"``, ``tai_cap = 16``.
"""

from __future__ import annotations

import math
import re
import tomllib
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

__all__ = ["SwitchSpec", "SWITCHES", "NO_STREAK_TAI", "switch_listed", "as_written", "check_switch", "refusal", "switch_name", "switch_options", "switch_said",
           "streak_cap_takes", "switch_refused", "toml_key", "toml_text", "ON_OFF"]


@dataclass(frozen=True, slots=True)
class SwitchSpec:
    name: str
    kind: str  # "bool", "int", "int_or_none", "choice"
    default: Any
    choices: tuple[str, ...] = ()
    zh: str = ""  # its name, as the app's house rules, replay and the profile checks all say it
    en: str = ""
    names: tuple[tuple[str, str], ...] = ()  # each of ``choices``' name (Chinese, English), as the app shows it

    def choice_name(self, value: str) -> tuple[str, str]:
        """The name (Chinese, English) of the choice ``value``; the value itself where it is none of them."""
        return next((n for c, n in zip(self.choices, self.names, strict=True) if c == value), (value, value))


def _c(name: str, default: str, *choices: tuple[str, str, str], zh: str = "", en: str = "") -> SwitchSpec:
    """A switch of ``choices``, each (its value as a file writes it, its name in Chinese, in English)."""
    return SwitchSpec(name, "choice", default, tuple(c for c, _, _ in choices), zh, en,
                      tuple((z, e) for _, z, e in choices))


_LIST = (
    # procedure (spec §2.17): the game tracker reads these
    # (each choice's name is what players call it: the app's house rules and editor, and the checks, say it so)
    _c("first_dealer", "two_throws", ("two_throws", "擲兩次骰子", "two throws of the dice"),
       ("one_throw", "擲一次骰子", "one throw of the dice"), ("east_deals", "坐東的直接做莊", "East deals first"),
       zh="起莊", en="First dealer"),
    _c("seat_wind", "dealer_east", ("dealer_east", "莊家坐東", "the dealer is East"),
       ("kaimen", "以開門為東風（依骰子）", "the opened wall's owner is East (by the dice)"),
       ("fixed_seats", "座位風固定", "fixed by the seats"), zh="門風", en="Seat winds"),
    _c("reserve_rule", "fixed16", ("fixed16", "留 16 張", "16 tiles"),
       ("plus_one_per_kong", "16 張，每槓多留一張", "16 tiles, one more per kong"),
       ("play_to_end", "摸到完", "none: play to the end"), zh="留牌（不摸的牌）", en="Tiles kept back"),
    _c("multi_win", "nearest", ("nearest", "截胡（最近的一家胡）", "the nearest wins"), ("all", "都胡", "all of them win"),
       ("nearest_unless_three", "截胡，三家都胡時都算", "the nearest, but all three when three"),
       ("three_is_draw", "截胡，三家都胡時流局", "the nearest, a draw when three"),
       zh="一炮多響", en="Several winners on one discard"),
    _c("kong_from_left", "allowed", ("allowed", "可以", "allowed"), ("forbidden", "不可以", "forbidden"),
       zh="可以槓上家打的牌", en="Kong on the left player's discard"),
    _c("discard_kong_replacement_win", "forbidden", ("forbidden", "不能胡", "not a win"),
       ("self_draw", "算自摸", "a self-draw"), ("kong_bloom", "算槓上開花", "scored as a win on a replacement"),
       zh="明槓後補牌胡", en="A win on a discard kong's replacement"),
    SwitchSpec("passed_win_blocks_self_draw", "bool", True, zh="過水後不能自摸", en="A passed win blocks self-draws too"),
    SwitchSpec("passed_win_released_by_kong", "bool", False, zh="過水後自己開槓就解除", en="A player's own kong releases a passed win"),
    SwitchSpec("may_decline_last_tile", "bool", True, zh="可以不摸海底", en="The last tile may be declined"),
    SwitchSpec("draw_keeps_deal", "bool", True, zh="流局莊家連莊", en="The dealer keeps the deal after a draw"),
    SwitchSpec("streak_cap", "int_or_none", "none", zh="連莊台數最多算到", en="Streak tai counted up to"),
    SwitchSpec("declared_ready_tai", "int", 0, zh="報聽台數", en="Declared-ready tai"),
    _c("false_win_after", "void_hand", ("void_hand", "這把作廢，同莊重打", "the hand is replayed (same dealer)"),
       ("continue_dead", "繼續打，詐胡的人陪打", "play on, the offender plays dead"), zh="詐胡之後", en="After a false win"),
    _c("wrong_count", "dead_hand", ("dead_hand", "不能胡，繼續打", "may not win, plays on"),
       ("warn_only", "只提醒", "a warning only"), zh="相公（牌數不對）", en="A wrong tile count"),
    _c("human_win_window", "first_go_around",
       ("first_go_around", "第一巡內胡別人的牌", "in the first go-around"),  # (a phone cut a longer one)
       ("before_own_discard", "閒家自己打第一張之前", "before their own first discard"), zh="人胡時機",
       en="When a human win counts"),
    # scoring (spec §5.1)
    SwitchSpec("pinghu_concealed_allowed", "bool", True, zh="門清可平胡", en="Plain hand may be concealed"),
    SwitchSpec("pinghu_check_honours_flowers", "bool", True, zh="平胡無字無花", en="Plain hand: no honours, no flowers"),
    SwitchSpec("small_winds_adds_winds", "bool", True, zh="小四喜另計風", en="Wind items add to small four winds"),
    SwitchSpec("seek_adds_single_wait", "bool", True, zh="全求半求另計獨聽", en="Single wait adds to all-seek / half-seek"),
    SwitchSpec("heaven_earth_keep_zimo", "bool", False, zh="天地胡另計自摸", en="Self-draw adds to heavenly / earthly win"),
    SwitchSpec("all_pungs_with_five_concealed", "bool", True, zh="五暗刻另計碰碰胡", en="All pungs adds to five concealed pungs"),
    SwitchSpec("kong_bloom_with_last_tile", "bool", True, zh="槓上開花與海底並計", en="Win on a replacement and last-tile draw stack"),
    SwitchSpec("eight_flowers_compound", "bool", True, zh="八仙過海加計牌型", en="A completed hand adds to eight flowers"),
    SwitchSpec("any_wind_pung_tai", "int", 0, zh="見風見台", en="Tai per wind pung (any seat)"),
    # settlement (spec §4.4, §6.4, §6.6)
    SwitchSpec("tai_cap", "int_or_none", "none", zh="滿台", en="Tai cap"),
    SwitchSpec("min_tai", "int", 0, zh="起胡台數", en="Minimum tai"),
    _c("false_win_penalty", "fixed8_plus_dealer",
       ("fixed8_plus_dealer", "每家賠 底＋8 台（加莊家台）", "base + 8 tai to each (+ dealer tai)"),
       ("claimed_tai", "每家賠 宣稱的台數", "the tai claimed, to each"),
       ("limit", "賠一份滿台（不限則 8 台），三家分", "one limit (the cap, else 8), split by the three"),
       ("none", "不罰", "no penalty"), zh="詐胡罰則", en="False-win penalty"),
)

SWITCHES: dict[str, SwitchSpec] = {s.name: s for s in _LIST}


def switch_refused(name: str, value: Any) -> tuple[str, str]:
    """Why switch ``name`` (a known one) does not take ``value`` in a rule-set file, (English, Chinese): said as the
    app's house rules and ``companion simulate --switch`` say the same mistake (:func:`refusal`), the value as the
    file wrote it (a review read the file's ``multi_win = "everyone"`` said ``收到 'everyone'``, and the app's
    ``收到「everyone」``; ``streak_cap = true`` said ``got True``)."""
    options, number = switch_options(name)
    return refusal(name, as_written(value, toml=True), options, number)


def check_switch(name: str, value: Any, where: str, *, stored: bool = False) -> Any:
    """The value, checked against the switch's type; raises ``ValueError`` naming ``where``, in the words of
    :func:`switch_refused` (its Chinese there too). ``stored``: a value a table already played under (its log, its
    table file, the rules it kept, a ledger's record of it), where a ``streak_cap`` over :data:`STREAK_CAP_MOST` is
    kept as it is (:func:`streak_cap_takes`)."""
    spec = SWITCHES.get(name)
    if spec is None:
        raise ValueError(f"{where}: unknown switch “{name}” (known: {', '.join(sorted(SWITCHES))})")
    ok: bool
    if spec.kind == "bool":
        ok = isinstance(value, bool)
    elif spec.kind in ("int", "int_or_none"):
        ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
        ok = ok and (name != "streak_cap" or streak_cap_takes(value, stored))
        ok = ok or spec.kind == "int_or_none" and value == "none"
    else:
        ok = value in spec.choices
    if not ok:
        raise ValueError(f"{where}: {switch_refused(name, value)[0]}")
    return value


# --- a switch value refused, one wording wherever it is made (a rule-set file, the app's house rules, simulate) ---

_YES_NO = (("true", "是", "yes"), ("false", "否", "no"))
_NO_CAP = ("none", "不限", "no cap")
_INSTANT = ("seven_rob_one", "eight_flowers", "four_kongs")  # an instant win a table switches, by its tai item's name
ON_OFF = (("true", "算", "on"), ("false", "不算", "off"))  # (as the app's terms line says it: 「七搶一：算」)
STREAK_CAP_MOST = 99
"""The largest ``streak_cap`` a rule set, ``companion simulate --switch`` and the app take, as the scorer takes a
streak up to 99 (``companion.rules._win_json.MAX_STREAK``; the sources cap N at 10): one bound, said as it is, where
"99999999999999999999" was refused as not "a whole number 0 or more" (a change review)."""


def streak_cap_takes(cap: int, stored: bool = False) -> bool:
    """Whether ``cap``, a whole number 0 or more, is a ``streak_cap`` taken: up to :data:`STREAK_CAP_MOST` where it
    is set now (a rule-set file, the app's house rules, ``companion simulate --switch``); any where ``stored``, a
    value a table already played under. Versions before the bound took any whole number, and a table file or a log
    they kept with ``streak_cap = 150`` was refused whole, its game lost; kept as it is, it scores as it did then
    (:func:`companion.rules.win.counted_streak`: a cap over the streak counts the streak, as no cap would)."""
    return cap >= 0 and (stored or cap <= STREAK_CAP_MOST)


_NUMBERS = {"streak_cap": (f"0 到 {STREAK_CAP_MOST} 的整數（例如 3）",
                           f"a whole number from 0 to {STREAK_CAP_MOST} (e.g. 3)"),
            "tai_cap": ("1 以上的整數（例如 8）", "a whole number 1 or more (e.g. 8)")}
"""What a switch that counts takes besides ``none``, said as a number (streak_cap's options listed "“N in a row”
(N)", which read as if N were the value to type: a change review). A cap of 0 tai (the spec gives it no meaning: every
win paid 底 alone) still reads, so that a table played under one replays, but a rule set may not set one: the cap
check (``check_caps``) refuses it where a set is saved, listed, scored or seated, in these same words (a newcomer
review; a change review read 0 refused as "at least 1" there, -1 as "1 or more" here)."""
_WHOLE = ("0 以上的整數", "a whole number 0 or more")
TAI_MOST = 100
"""The most tai a rule set gives one occurrence of an item (``[tai]`` in a file, as the app's editor takes:
:data:`companion.app.rule_sets_model.MOST`): no item of the sources is worth more than 40, and a review's
``seat_flower = 99999999999999999999999`` scored a hand of 10^23 tai and payments of 10^24 unsaid. A value a table
already played under is kept as it is (as a ``streak_cap`` over :data:`STREAK_CAP_MOST` is: its game not lost)."""
TAI_NUMBER = (f"0 到 {TAI_MOST} 的整數", f"a whole number from 0 to {TAI_MOST}")
"""What an item's tai takes, (Chinese, English), said as :data:`_NUMBERS` says a cap's bounds."""


def switch_name(name: str) -> tuple[str, str]:
    """The switch ``name``'s name (Chinese, English) as the app shows it: the schema's for a rule set's switch, its
    tai item's for an instant win (七搶一, 八仙過海, 四槓); its key where it has none."""
    from companion.rules.tai import REGISTRY

    spec, item = SWITCHES.get(name), REGISTRY.get(name)
    return (spec.zh, spec.en) if spec is not None else (item.zh, item.en) if item is not None else (name, name)


def switch_said(name: str, value: Any, *, yes_named: bool = False) -> tuple[str, str]:
    """The switch ``name`` (one of :data:`SWITCHES`, or an instant win's) set to ``value``, (Chinese, English), each
    by the name the app gives it: 「起胡台數：5」, "Minimum tai: 5", 「滿台：不限」; an English name that holds a
    colon of its own quoted (a review read "(its rule: Plain hand: no honours, no flowers)"). ``yes_named``: a yes
    said as the switch's name alone, as a reading of house rules says the rule a set plays (「它的規矩：平胡無字無花」):
    the one helper of both (``companion.rules.house`` had a near-copy of its own, which said a cap of none
    「滿台：none」)."""
    zh, en = switch_name(name)
    en = f"\u201c{en}\u201d" if ":" in en else en
    if yes_named and value is True:
        return zh, en
    vz, ve = _value_said(name, value)
    return f"{zh}：{vz}", f"{en}: {ve}"


def _value_said(name: str, value: Any) -> tuple[str, str]:
    """The value ``value`` of the switch ``name`` (as :func:`switch_said` takes them) by the name the app gives it
    (Chinese, English): 是 / yes, 都胡 / all of them win, 不限 / no cap, 算 / on; a number as it is written."""
    written = "none" if value is None else as_written(value)
    options, _ = switch_options(name) if name in SWITCHES else (ON_OFF, None) if name in _INSTANT else ((), None)
    return next(((z, e) for w, z, e in options if w == written), (written, written))


NO_STREAK_TAI = ("不算連莊台", "no streak tai")
"""A ``streak_cap`` of 0 as a player reads it (spec §2.14: N stays 0, the dealer's tai 1 alone), as the app's house
rules say it: not "0 in a row" (a change review), nor "Streak tai counted up to: 0"."""


def switch_listed(name: str, value: Any, note: tuple[str, str] | None = None) -> tuple[str, str]:
    """The switch ``name`` set to ``value`` as an item of a list in a sentence (Chinese, English): 「起胡台數 5」,
    「七搶一（算）」, "minimum tai 5", "seven rob one (on)", "no streak tai" (a change review read the table's own rules
    as "the table's own rules: Minimum tai: 5; A win on …: scored as …", colons in colons, capitals mid-sentence); an
    English name that holds a colon quoted, its value said once (it listed "plain hand: no honours, no flowers (no
    honours, no flowers: no)"). ``note`` (Chinese, English): said after the value, in its brackets, or in brackets of
    its own where the value has none: 「七搶一（算，照規則）」, 「起胡台數 5（照規則）」 (a review read 「七搶一（算）（照規則）」,
    brackets after brackets)."""
    own = f"（{note[0]}）" if note else "", f" ({note[1]})" if note else ""
    if name == "streak_cap" and value == 0:
        return NO_STREAK_TAI[0] + own[0], NO_STREAK_TAI[1] + own[1]
    zh, en = switch_name(name)
    en = en if en[1:2].isupper() else en[:1].lower() + en[1:]
    en = f"\u201c{en}\u201d" if ":" in en else en
    vz, ve = _value_said(name, value)
    if isinstance(value, int) and not isinstance(value, bool):  # a number: after its name, as it is said
        return f"{zh} {vz}{own[0]}", f"{en} {ve}{own[1]}"
    if note:
        return f"{zh}（{vz}，{note[0]}）", f"{en} ({ve}, {note[1]})"
    return f"{zh}（{vz}）", f"{en} ({ve})"


def switch_options(name: str) -> tuple[tuple[tuple[str, str, str], ...], tuple[str, str] | None]:
    """The values the switch ``name`` (one of :data:`SWITCHES`) takes, each (as written, Chinese, English) named as
    the app names it, and what number it takes too (Chinese, English), where it counts."""
    spec = SWITCHES[name]
    if spec.kind == "choice":
        return tuple((c, *spec.choice_name(c)) for c in spec.choices), None
    if spec.kind == "bool":
        return _YES_NO, None
    return ((_NO_CAP,) if spec.kind == "int_or_none" else ()), _NUMBERS.get(name, _WHOLE)


def refusal(name: str, got: str, options: Sequence[tuple[str, str, str]],
            number: tuple[str, str] | None = None) -> tuple[str, str]:
    """Why the switch ``name`` does not take the value written ``got`` (:func:`as_written`), (English, Chinese): the
    switch by its name (:func:`switch_name`), its key in brackets, each of ``options`` ((its value as written, its
    name in Chinese, in English)) by its name with its value in brackets, and ``number`` (Chinese, English), where
    the switch takes a number too, after them; the value in the quotes the rest says names in."""
    zh, en = switch_name(name)
    choices = "、".join(f"「{z}」（{v}）" for v, z, _ in options)
    choices_en = ", ".join(f"“{e}” ({v})" for v, _, e in options)
    said_en, said_zh = got_said(got)
    if number is not None and options:
        return (f"{en} ({name}) must be {choices_en} or {number[1]}; got {said_en}",
                f"{zh}（{name}）只能是{choices}或 {number[0]}，收到{said_zh}")
    if number is not None:
        return f"{en} ({name}) must be {number[1]}; got {said_en}", f"{zh}（{name}）只能是 {number[0]}，收到{said_zh}"
    return (f"{en} ({name}) must be one of {choices_en}; got {said_en}",
            f"{zh}（{name}）只能是{choices}其中之一，收到{said_zh}")


def got_said(got: str) -> tuple[str, str]:
    """A value ``got`` (:func:`as_written`) in the quotes a refusal says it in, (English, Chinese): ``“all”``,
    ``「all」``; one :func:`as_written` wrote in TOML's quotes with its escapes, with its escapes in these quotes
    (``got “all\\u200b”``, ``收到「a\\nb」``: a change review read ``got “"all\\u200b"”``, and a review ``收到"a\\nb"``),
    and one in TOML's quotes alone (``"8"``, a text where a number is wanted) as it is; an empty value said so (a
    change review read ``got “”`` and ``收到「」``, and then "got an empty text")."""
    if got == "":
        return "an empty value", "空值"
    if len(got) >= 2 and got[0] == got[-1] == '"' and "\\" not in got:  # (``"8"``: a text, not the number)
        return got, got
    if len(got) >= 2 and got[0] == got[-1] == '"':  # escaped, in the quotes the rest says (a multi-line text read
        got = got[1:-1]  # ``收到"a\nb"``, Python's way: a review)
    return f"“{got}”", f"「{got}」"


def as_written(value: Any, *, toml: bool = False) -> str:
    """``value`` as it was typed or written, not as Python spells it (``True``, ``'x'``): a text as it is, a TOML
    file's ``true``, ``3``, ``2.5``, a list or table as TOML writes one; cut short where long, the cut marked "…"
    (inside the quotes of a text written in them). ``toml``: the value came from a file, where a text that TOML
    would read as another value (``"8"``, ``"true"``) keeps its quotes (``tai_cap = "8"`` said ``got “8”`` beside
    "must be a whole number"). A text with a character not seen (:func:`_unseen`), or of spaces alone, is written in
    TOML's quotes with its escapes (:func:`toml_text`), as is one already in double quotes."""
    if not isinstance(value, str):
        said = _toml(value)
        return said if len(said) <= _LONG else said[:_LONG - 1] + "…"
    quoted = len(value) >= 2 and value[0] == value[-1] == '"'  # (as if in TOML's quotes: :func:`got_said`)
    if not (any(map(_unseen, value)) or value and not value.strip(" ") or quoted or toml and _reads_otherwise(value)):
        return value if len(value) <= _LONG else value[:_LONG - 1] + "…"
    cut = value[:_LONG]  # (cut before it is escaped, so that no escape is split and the closing quote stays: a
    while len(toml_text(cut)) > _LONG - 2:  # change review read ``…\\u001b[2…``)
        cut = cut[:-1]
    return toml_text(cut) if cut == value else toml_text(cut)[:-1] + '…"'


_LONG = 80
"""The most characters a value is said in."""


def _unseen(c: str) -> bool:
    """Whether ``c`` is not seen where it is printed, or moves what follows: a control (tab, newline, ESC, DEL), a
    format character (a zero-width space, the bidi marks and overrides), a lone surrogate, a line or paragraph
    separator, a space other than the plain one (a no-break space, an ideographic space: a change review read
    ``“all ”`` and ``「　」`` as a plain space, or nothing). A value or key said with one is written in quotes with
    TOML's escapes (a change review read ``multi_win = "all\\u007f"`` said ``got “all”``, and ``--switch
    multi_win=$'all\\x1b[2J'`` cleared the screen)."""
    return unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp") or c != " " and c.isspace()


_SHORT = {"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r", '"': '\\"', "\\": "\\\\"}


def toml_text(text: str) -> str:
    """``text`` as a TOML file writes a text in double quotes: a quote and a backslash escaped, and each character
    not seen (:func:`_unseen`) by TOML's escape (``\\t``, ``\\u007f``, ``\\u202e``). The one spelling of a
    value and of a key (:func:`toml_key`) a refusal says."""
    def escape(c: str) -> str:
        if c in _SHORT:
            return _SHORT[c]
        return c if not _unseen(c) else f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}"
    return '"' + "".join(map(escape, text)) + '"'


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def toml_key(parts: tuple[str, ...]) -> str:
    """A key of ``parts`` as a TOML file writes it: each part bare where it can be, else in double quotes with
    TOML's escapes (:func:`toml_text`), joined by dots (``a."b.c"``)."""
    return ".".join(p if _BARE_KEY.fullmatch(p) else toml_text(p) for p in parts)


def _reads_otherwise(text: str) -> bool:
    """Whether TOML reads ``text``, written bare, as a value that is no text (a number, a date, a boolean)."""
    try:
        read = tomllib.loads(f"v = {text}") if "\n" not in text and "\r" not in text else {}
    except tomllib.TOMLDecodeError:
        return False
    return len(read) == 1 and not isinstance(read.get("v", ""), str)


class WrittenFloat(float):
    """A number a file wrote that is too large for a float (``1e400``, read as infinity), with its text as written
    (:func:`read_float`): a refusal says ``got “1e400”``, not ``“inf”`` (a review)."""

    written: str


def read_float(text: str) -> float:
    """A TOML file's float (``parse_float``), keeping its text where it is not finite (:class:`WrittenFloat`)."""
    value = float(text)
    if math.isfinite(value):
        return value
    kept = WrittenFloat(value)
    kept.written = text
    return kept


def _toml(value: Any) -> str:
    """``value`` (one a TOML file gives, or a JSON log) as TOML writes it."""
    if isinstance(value, WrittenFloat):
        return value.written
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:  # (TOML has none: a JSON log's)
        return "null"
    if isinstance(value, float) and not math.isfinite(value):
        return "nan" if math.isnan(value) else "inf" if value > 0 else "-inf"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return toml_text(value)
    if isinstance(value, datetime | time) and value.utcoffset() == timedelta(0):
        return value.isoformat().removesuffix("+00:00") + "Z"  # (TOML's spelling, as a file writes it: not +00:00)
    if isinstance(value, datetime | date | time):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_key((str(k),))} = {_toml(v)}" for k, v in value.items()) + "}"
    return str(value)  # (not from a file or a command line: an object made in Python)
