"""The procedure switches of spec §2.17, as one frozen record carried by the session's first event.

Values are read, never branched on by profile name. ``Switches.from_mapping`` accepts the
``switches`` map of a rule profile (unknown keys are ignored: they belong to scoring).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any

__all__ = [
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
    def from_mapping(cls, data: Mapping[str, Any], *, strict: bool = False) -> Switches:
        """Read switch values; ``kong_from_left`` accepts ``allowed``/``forbidden`` as in the spec."""
        base = cls()
        changes: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in data:
                continue
            changes[f.name] = _coerce(f.name, getattr(base, f.name), data[f.name])
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


def _allowed(name: str, default: Any) -> tuple[list[str], list[str]]:
    """The values a switch takes, as (English, Chinese) words to list (none for a free value)."""
    if name == "kong_from_left":
        return ["allowed", "forbidden", "true", "false"], ["allowed", "forbidden", "true", "false"]
    if name == "streak_cap":
        return ["none", "a whole number 0 or more"], ["none", "0 以上的整數"]
    if isinstance(default, Enum):
        values = [str(m.value) for m in type(default)]
        return values, values
    if isinstance(default, bool):
        return ["true", "false"], ["true", "false"]
    return [], []


def _refuse(name: str, default: Any, value: Any) -> SwitchError:
    """The error for a value ``name`` does not take, listing the values it does take."""
    en_words, zh_words = _allowed(name, default)
    en = ", ".join(en_words[:-1]) + " or " + en_words[-1] if len(en_words) > 1 else "".join(en_words)
    zh = "、".join(zh_words[:-1]) + " 或 " + zh_words[-1] if len(zh_words) > 1 else "".join(zh_words)
    return SwitchError(f"{name} is {en}, got {value!r}", f"{name} 只能是 {zh}，收到 {value!r}")


def _coerce(name: str, default: Any, value: Any) -> Any:
    if name == "kong_from_left" and isinstance(value, str):
        if value not in ("allowed", "forbidden"):
            raise _refuse(name, default, value)
        return value == "allowed"
    if name == "streak_cap":
        if value is None or value == "none":
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
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
