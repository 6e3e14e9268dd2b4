"""The procedure switches of spec §2.17, as one frozen record carried by the session's first event.

Values are read, never branched on by profile name. ``Switches.from_mapping`` accepts the
``switches`` map of a rule profile (unknown keys are ignored: they belong to scoring).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any

from companion.rules.profiles._schema import (
    ON_OFF,
    SWITCHES,
    as_written,
    refusal,
    streak_cap_takes,
    switch_name,
    switch_options,
)

__all__ = [
    "switch_name",
    "typed_value",
    "value_refused",
    "FalseWinAfter",
    "FirstDealer",
    "MultiWin",
    "ReserveRule",
    "SeatWind",
    "Switches",
    "SwitchError",
    "DiscardKongWin",
    "HumanWinWindow",
    "WrongCount",
]


class SwitchError(ValueError):
    """A switch name or value that does not exist. ``str(e)`` says it in English, ``zh`` in Traditional Chinese."""

    def __init__(self, message: str, zh: str = "") -> None:
        super().__init__(message)
        self.zh = zh


class FirstDealer(Enum):
    TWO_THROWS = "two_throws"
    ONE_THROW = "one_throw"
    EAST_DEALS = "east_deals"


class SeatWind(Enum):
    DEALER_EAST = "dealer_east"
    KAIMEN = "kaimen"
    FIXED_SEATS = "fixed_seats"


class ReserveRule(Enum):
    FIXED16 = "fixed16"
    PLUS_ONE_PER_KONG = "plus_one_per_kong"
    PLAY_TO_END = "play_to_end"


class MultiWin(Enum):
    NEAREST = "nearest"
    ALL = "all"
    NEAREST_UNLESS_THREE = "nearest_unless_three"
    THREE_IS_DRAW = "three_is_draw"


class DiscardKongWin(Enum):
    FORBIDDEN = "forbidden"
    SELF_DRAW = "self_draw"
    KONG_BLOOM = "kong_bloom"


class FalseWinAfter(Enum):
    VOID_HAND = "void_hand"
    CONTINUE_DEAD = "continue_dead"


class HumanWinWindow(Enum):
    """Which wins on a discard are 人胡: any in the first go-around (spec §4.2: from the dealer's first discard
    until his second draw, no call before it), or only a non-dealer's before his own first discard (the
    traditional reading, which some tables keep)."""

    FIRST_GO_AROUND = "first_go_around"
    BEFORE_OWN_DISCARD = "before_own_discard"


class WrongCount(Enum):
    DEAD_HAND = "dead_hand"
    WARN_ONLY = "warn_only"


@dataclass(frozen=True, slots=True)
class Switches:
    """Procedure switches (spec §2.17) plus the instant-win items the tracker must know (§4.4)."""

    first_dealer: FirstDealer = FirstDealer.TWO_THROWS
    seat_wind: SeatWind = SeatWind.DEALER_EAST
    reserve_rule: ReserveRule = ReserveRule.FIXED16
    multi_win: MultiWin = MultiWin.NEAREST
    kong_from_left: bool = True
    discard_kong_replacement_win: DiscardKongWin = DiscardKongWin.FORBIDDEN
    passed_win_blocks_self_draw: bool = True
    passed_win_released_by_kong: bool = False
    may_decline_last_tile: bool = True
    draw_keeps_deal: bool = True
    streak_cap: int | None = None
    false_win_after: FalseWinAfter = FalseWinAfter.VOID_HAND
    wrong_count: WrongCount = WrongCount.DEAD_HAND
    human_win_window: HumanWinWindow = HumanWinWindow.FIRST_GO_AROUND
    seven_rob_one: bool = True
    eight_flowers: bool = True  # 八仙過海 ends the hand as a win: off only where a house profile scores it 0
    four_kongs: bool = False  # 四槓 (§4.4): a fourth kong wins; four kongs split between players draw

    def to_mapping(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            out[f.name] = v.value if isinstance(v, Enum) else v
        return out

    def as_profile(self) -> dict[str, Any]:
        """:meth:`to_mapping` as a rule set's ``switches`` spell the values (:meth:`from_mapping` reads both):
        ``kong_from_left`` ``"allowed"``/``"forbidden"``, no ``streak_cap`` ``"none"`` (TOML has no null)."""
        out = self.to_mapping()
        out["kong_from_left"] = "allowed" if self.kong_from_left else "forbidden"
        if self.streak_cap is None:
            out["streak_cap"] = "none"
        return out

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, strict: bool = False, stored: bool = False) -> Switches:
        """Read switch values; ``kong_from_left`` accepts ``allowed``/``forbidden`` as in the spec. ``stored``: the
        switches a table already played under (its log, its table file), a ``streak_cap`` over the bound of one set
        now kept as it is (:func:`~companion.rules.profiles._schema.streak_cap_takes`)."""
        base = cls()
        changes: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in data:
                continue
            changes[f.name] = _coerce(f.name, getattr(base, f.name), data[f.name], stored)
        if strict:
            unknown = sorted(set(data) - {f.name for f in fields(cls)})
            if unknown:
                known = [f.name for f in fields(cls)]
                near = [m for u in unknown for m in difflib.get_close_matches(u, known, n=1, cutoff=0.6)]
                names, hint = ", ".join(unknown), (f"did you mean {', '.join(near)}? " if near else "")
                raise SwitchError(f"unknown procedure switches: {names} ({hint}the switches: {', '.join(known)})",
                                  f"沒有這些規則開關：{names}（{'是不是 ' + '、'.join(near) + '？' if near else ''}"
                                  f"有這些開關：{'、'.join(known)}）")
        return replace(base, **changes)


def value_refused(name: str, value: Any, options: Sequence[tuple[str, str, str]],
                  number: tuple[str, str] | None = None) -> SwitchError:
    """The refusal of ``value`` for the switch ``name``, said as the app says it: the switch by its name, its key in
    brackets, and each of ``options`` ((its value as written, its name in Chinese, in English)) by its name with
    its value in brackets; ``number`` (Chinese, English), where the switch takes a number too, says which, after
    them. The app's house rules, ``companion simulate --switch`` and a rule-set file's checks all say it so, in
    :func:`companion.rules.profiles._schema.refusal`'s words (a review: the command said "multi_win is nearest, all,
    …", the codes alone; a file ``收到 'everyone'``). The value refused is said as it was written, in the quotes the
    rest says names in (a change review read ``got True`` for ``streak_cap=true``, and ``got "it's"``)."""
    return SwitchError(*refusal(name, as_written(value), options, number))


def _options(name: str) -> tuple[tuple[tuple[str, str, str], ...], tuple[str, str] | None]:
    """The values the switch ``name`` takes, each (as written, Chinese, English), named as the app names them, and
    the number it takes too: a rule set's switch's as its schema has them (``streak_cap``: ``none`` and a number),
    an instant win's on and off."""
    return switch_options(name) if name in SWITCHES else (ON_OFF, None)


_SAID_YES = frozenset({"true", "on", "yes", "是", "算", "可以"})
_SAID_NO = frozenset({"false", "off", "no", "否", "不算", "不可以"})


def typed_value(name: str, text: str) -> Any:
    """The value ``text``, typed for the switch ``name`` (``companion simulate --switch``), names: a value as a
    file writes it, or a name the app shows for one (``都胡`` for ``all``, ``off`` for ``false``), where it names
    one value alone; a yes/no switch (and ``kong_from_left``, allowed or not) takes on/off, yes/no, true/false. The
    refusal put the names in quotes and the values in brackets, and the quoted ``off``, ``no`` and ``都胡`` typed
    were refused (a newcomer review). ``text`` as it is where it names none (refused in :func:`_coerce`'s words)."""
    if name not in SWITCHES and name not in {f.name for f in fields(Switches)}:
        return text
    options, _ = _options(name)
    said = text.casefold()  # (as typed: "none " is refused, its space shown)
    values = [v for v, zh, en in options if said in (v.casefold(), zh.casefold(), en.casefold())]
    kinds = {v for v, _, _ in options}
    if kinds in ({"true", "false"}, {"allowed", "forbidden"}) and (said in _SAID_YES or said in _SAID_NO):
        values = ["true" if said in _SAID_YES else "false"]
        values = values if kinds == {"true", "false"} else ["allowed" if values == ["true"] else "forbidden"]
    if len(set(values)) != 1:
        return text
    return {"true": True, "false": False}.get(values[0], values[0])


def _refuse(name: str, default: Any, value: Any) -> SwitchError:
    """The error for a value ``name`` does not take, listing the values it does take."""
    return value_refused(name, value, *_options(name))


def _coerce(name: str, default: Any, value: Any, stored: bool = False) -> Any:
    if name == "kong_from_left" and isinstance(value, str):
        if value not in ("allowed", "forbidden"):
            raise _refuse(name, default, value)
        return value == "allowed"
    if name == "streak_cap":
        if value is None or value == "none":
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not streak_cap_takes(value, stored):
            raise _refuse(name, default, value)
        return value
    if isinstance(default, Enum):
        try:
            return type(default)(value)
        except ValueError:
            raise _refuse(name, default, value) from None
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise _refuse(name, default, value)
        return value
    return value
