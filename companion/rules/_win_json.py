"""The JSON form of a :class:`~companion.rules.win.Win` (the ``companion tai`` input).

Every error is a :class:`~companion.rules.win.WinInputError` naming the field (``melds[1].tiles``,
``flags.heavenly`` …). Unknown keys are errors too, so a typo never silently changes a score.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.hand import _KIND_ALIASES, HandError, Meld, MeldKind, Source, is_bare_kong
from companion.rules.said import json_said
from companion.rules.win import (
    Replacement,
    Win,
    WinInputError,
    error_zh,
    parse_wind,
    replacement_error_zh,
    win_type_error,
    win_type_named,
    wind_letter,
)
from companion.tiles import NotationError, Tile, format_tiles, parse_tiles, plain_typed

__all__ = ["TOP_KEYS", "FLAG_KEYS", "MAX_STREAK", "win_kwargs", "win_to_dict"]

MAX_STREAK = 99
"""The longest dealer's streak a hand typed in takes: more is a typo (each hand the dealer keeps is one he won or
drew); ``companion score --streak`` and a ``tai`` line's ``streak`` alike."""

TOP_KEYS = frozenset({"id", "profile", "concealed", "melds", "win_tile", "win_type", "seat_wind", "round_wind",
                      "flowers", "dealer", "streak", "discarder", "flags", "stakes", "switches", "rules"})
FLAG_KEYS = frozenset({"last_tile", "last_discard", "replacement_after", "after_kong", "after_flower",
                       "heavenly", "earthly", "human", "ready_declared", "ready_on_deal",
                       "ready_first_discard"})
_BOOL_FLAGS = ("last_tile", "last_discard", "heavenly", "earthly", "human", "ready_declared", "ready_on_deal",
               "ready_first_discard")


def _tiles(value: Any, field: str) -> tuple[Tile, ...]:
    if value is None:
        return ()
    if not isinstance(value, str):
        got, got_zh = json_said(value)
        raise WinInputError(field, f"expected tiles in notation (a text in double quotes), got {got}",
                            f"要用牌的寫法（雙引號括起的字串），收到 {got_zh}")
    try:
        return parse_tiles(value, check=False)
    except NotationError as e:
        raise WinInputError(field, str(e), error_zh(e)) from None


def _meld(obj: Any, field: str) -> Meld:
    if isinstance(obj, str):
        try:
            return Meld.parse(obj)
        except HandError as e:
            raise WinInputError(field, str(e), error_zh(e)) from None
    if not isinstance(obj, Mapping):
        got, got_zh = json_said(obj)
        raise WinInputError(field, f"expected {{\"kind\", \"tiles\", \"from\"}} or \"pung:555p@O\", got {got}",
                            f"吃碰槓要寫成 {{\"kind\", \"tiles\", \"from\"}} 或 \"pung:555p@O\"，收到 {got_zh}")
    unknown = set(obj) - {"kind", "tiles", "from"}
    if unknown:
        raise WinInputError(f"{field}.{sorted(unknown)[0]}", "unknown key (kind, tiles, from)",
                            "不認得的鍵（只有 kind、tiles、from）")
    src = obj.get("from")
    try:
        kind = MeldKind.parse(str(obj.get("kind", "")), sourced=src is not None)
    except HandError as e:
        raise WinInputError(f"{field}.kind", str(e), error_zh(e)) from None
    tiles = _tiles(obj.get("tiles"), f"{field}.tiles")
    source = None
    if src is not None:
        try:
            source = Source.parse(str(src))
        except ValueError:
            got, got_zh = json_said(src)
            raise WinInputError(f"{field}.from", f"expected L, O or R, got {got}",
                                f"來源要寫 L（上家）、O（對家）或 R（下家），收到 {got_zh}") from None
    try:
        return Meld(kind, tiles, source)
    except HandError as e:
        raise WinInputError(field, str(e), error_zh(e)) from None


def _flags(obj: Any, melds: tuple[Meld, ...] = ()) -> dict[str, Any]:
    if obj is None:
        return {}
    if not isinstance(obj, Mapping):
        got, got_zh = json_said(obj)
        raise WinInputError("flags", f"expected an object {{...}}, got {got}", f"要是一個物件 {{...}}，收到 {got_zh}")
    unknown = set(obj) - FLAG_KEYS
    if unknown:
        raise WinInputError(f"flags.{sorted(unknown)[0]}", f"unknown flag (the flags: {', '.join(sorted(FLAG_KEYS))})",
                            f"不認得的旗標（可用的旗標：{'、'.join(sorted(FLAG_KEYS))}）")
    out: dict[str, Any] = {}
    for name in _BOOL_FLAGS + ("after_kong", "after_flower"):
        value = obj.get(name, False)
        if value is None:
            value = False
        if not isinstance(value, bool):
            got, got_zh = json_said(value)
            raise WinInputError(f"flags.{name}", f"expected true or false, got {got}",
                                f"要寫 true 或 false，收到 {got_zh}")
        if name in _BOOL_FLAGS:
            out[name] = value
    out["replacement"] = _replacement(obj, melds)
    return out


_REPLACEMENT_ZH = {"補花": "flower", "补花": "flower"} | {
    zh: kind for zh, kind in _KIND_ALIASES.items()
    if not zh.isascii() and kind in {r.value for r in Replacement} and not is_bare_kong(zh)}
"""``replacement_after`` by the Chinese names :func:`replacement_error_zh` lists: the kongs by the names a meld takes
(:data:`companion.hand._KIND_ALIASES`, one table: 补槓 was a meld's and not a replacement's), a bare 槓 refused as in
a meld (which kong it was is asked)."""


def _replacement(obj: Mapping[str, Any], melds: tuple[Meld, ...]) -> Replacement | None:
    value = obj.get("replacement_after")
    given = [k for k in ("replacement_after", "after_flower", "after_kong") if obj.get(k)]
    if len(given) > 1:  # one replacement a win: the second was dropped unsaid (a review)
        raise WinInputError(f"flags.{given[1]}", f"{given[0]} and {given[1]} both name the replacement the hand "
                                                 "was won on: give one",
                            f"{given[0]} 和 {given[1]} 都在說胡的是哪一種補牌：只能給一個")
    if value is not None:
        try:
            said = plain_typed(str(value)).strip().lower()
            # the Chinese names its error lists (補花, 暗槓 …: a review was refused 補花 by an error naming it)
            return Replacement(_REPLACEMENT_ZH.get(said, said).replace("added_kong", "addkong")
                               .replace("concealed_kong", "ckong"))
        except ValueError:
            raise WinInputError("flags.replacement_after",
                                f"expected flower, ckong, addkong or kong, got {json_said(value)[0]}",
                                replacement_error_zh(value)) from None
    if obj.get("after_flower"):
        return Replacement.FLOWER
    if obj.get("after_kong"):
        # which kong: the winner's own (concealed, else added) kong; with only a discard kong it was that
        # one (a false win under the default, spec §2.10); see the module docstring of companion.rules.win
        kinds = {m.kind for m in melds}
        for kind, repl in ((MeldKind.CKONG, Replacement.CKONG), (MeldKind.ADDKONG, Replacement.ADDKONG),
                           (MeldKind.KONG, Replacement.KONG)):
            if kind in kinds:
                return repl
        return Replacement.CKONG  # no kong at all: Win names the inconsistency
    return None


def win_kwargs(obj: Mapping[str, Any]) -> dict[str, Any]:
    """Keyword arguments for :class:`Win` from a JSON object."""
    if not isinstance(obj, Mapping):
        got, got_zh = json_said(obj)  # (it said "got list", Python's name for it: a review)
        raise WinInputError("(line)", f"expected a JSON object {{...}}, got {got}",
                            f"每一行要是一個 JSON 物件 {{...}}，收到 {got_zh}")
    unknown = set(obj) - TOP_KEYS
    flag = next((k for k in sorted(unknown) if k in FLAG_KEYS), None)
    if flag is not None:  # a flag at the top: said where it goes (a review read only "unknown field")
        raise WinInputError(flag, f'a flag: put it under "flags", as {{"flags": {{"{flag}": ...}}}}',
                            f'這是旗標，要寫在 "flags" 裡：{{"flags": {{"{flag}": ...}}}}')
    if unknown:
        raise WinInputError(sorted(unknown)[0], "unknown field", "不認得的欄位")
    for required in ("concealed", "win_type", "seat_wind", "round_wind"):
        if required not in obj:
            raise WinInputError(required, "missing", "缺少這個欄位")
    melds = obj.get("melds")
    melds = [] if melds is None else melds  # (0, false and "" were taken as no melds where "flowers" refused them)
    if not isinstance(melds, list):
        got, got_zh = json_said(melds)
        raise WinInputError("melds", f"expected a list [...], got {got}", f"要是一個清單 [...]，收到 {got_zh}")
    win_tiles = _tiles(obj.get("win_tile"), "win_tile")
    if len(win_tiles) > 1:
        got, got_zh = json_said(obj.get("win_tile"))
        raise WinInputError("win_tile", f"expected one tile, got {got}", f"只能寫一張牌，收到 {got_zh}")
    win_type = win_type_named(obj["win_type"]) if isinstance(obj["win_type"], str) else None
    if win_type is None:  # (自摸 was refused here where `companion score --win-type 自摸` took it: a review)
        raise win_type_error(obj["win_type"])
    streak = obj.get("streak", 0)
    if isinstance(streak, bool) or not isinstance(streak, int):
        got, got_zh = json_said(streak)  # (it said "got True", "got 1000000000.0" for 1e9: a review)
        raise WinInputError("streak", f"expected a whole number N >= 0, got {got}",
                            f"連莊數 N 要是 0 以上的整數，收到 {got_zh}")
    if streak > MAX_STREAK:  # (a review's 100000 paid 200,001 dealer tai unsaid, where `companion score` refused it)
        raise WinInputError("streak", f"more than {MAX_STREAK} hands in a row as dealer is surely a typo",
                            f"連莊超過 {MAX_STREAK} 把應該是打錯了")  # (the number not said back: it may run to 4300 digits)
    profile = obj.get("profile")
    if profile is not None and not isinstance(profile, str):
        got, got_zh = json_said(profile)
        raise WinInputError("profile", f"expected a profile id or a .toml path, got {got}",
                            f"要寫規則名稱或 .toml 檔的路徑，收到 {got_zh}")
    discarder = obj.get("discarder")
    parsed = tuple(_meld(m, f"melds[{i}]") for i, m in enumerate(melds))
    return {
        "concealed": _tiles(obj["concealed"], "concealed"),
        "melds": parsed,
        "flowers": _tiles(obj.get("flowers", ""), "flowers"),
        "win_tile": win_tiles[0] if win_tiles else None,
        "win_type": win_type,
        "seat_wind": parse_wind(obj["seat_wind"], "seat_wind"),
        "round_wind": parse_wind(obj["round_wind"], "round_wind"),
        "dealer": parse_wind(obj.get("dealer", "E"), "dealer"),
        "streak": streak,
        "discarder": None if discarder is None else parse_wind(discarder, "discarder"),
        "profile": profile,
        **_flags(obj.get("flags"), parsed),
    }


def win_to_dict(win: Win) -> dict[str, Any]:
    """The JSON object that :func:`win_kwargs` reads back into the same :class:`Win`."""
    flags: dict[str, Any] = {name: getattr(win, name) for name in _BOOL_FLAGS}
    flags["replacement_after"] = win.replacement.value if win.replacement else None
    out: dict[str, Any] = {
        "concealed": format_tiles(win.concealed),
        "melds": [{"kind": m.kind.value, "tiles": format_tiles(m.tiles),
                   **({"from": m.source.value} if m.source else {})} for m in win.melds],
        "win_tile": win.win_tile.code if win.win_tile is not None else None,
        "win_type": win.win_type.value,
        "seat_wind": wind_letter(win.seat_wind),
        "round_wind": wind_letter(win.round_wind),
        "flowers": format_tiles(win.flowers),
        "dealer": wind_letter(win.dealer),
        "streak": win.streak,
        "discarder": wind_letter(win.discarder) if win.discarder is not None else None,
        "flags": flags,
    }
    if win.profile is not None:
        out["profile"] = win.profile
    return out
