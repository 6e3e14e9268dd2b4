"""Pattern items: all pungs, concealed pungs, flushes and the kong extras."""

from __future__ import annotations

from companion.hand import MeldKind
from companion.rules.tai._base import Ctx, ItemKind, item
from companion.rules.win import WinType


@item("all_pungs", "碰碰胡", "All pungs",
      "五組都是刻子或槓子加一對。", "Five pungs or kongs, exposed or concealed, and a pair.", split=True)
def all_pungs(c: Ctx) -> int:
    """碰碰胡: no chow at all."""
    return int(c.chows == 0)


@item("three_concealed", "三暗刻", "Three concealed pungs",
      "剛好三組暗刻（含暗槓；放槍完成的刻子不算暗）。",
      "Exactly three concealed pungs or kongs (a pung completed by a discard is exposed).", split=True)
def three_concealed(c: Ctx) -> int:
    """三暗刻: exactly three concealed pungs (spec §3.4)."""
    return int(c.concealed_pungs == 3)


@item("four_concealed", "四暗刻", "Four concealed pungs",
      "剛好四組暗刻（含暗槓）。", "Exactly four concealed pungs or kongs.", split=True)
def four_concealed(c: Ctx) -> int:
    """四暗刻: exactly four concealed pungs."""
    return int(c.concealed_pungs == 4)


@item("five_concealed", "五暗刻", "Five concealed pungs",
      "五組都是暗刻（含暗槓）。", "Five concealed pungs or kongs.", split=True)
def five_concealed(c: Ctx) -> int:
    """五暗刻: five concealed pungs."""
    return int(c.concealed_pungs == 5)


@item("half_flush", "混一色", "Half flush",
      "只有一種花色的數牌加上字牌，兩者都要有。", "One suit plus honours, with at least one of each.")
def half_flush(c: Ctx) -> int:
    """混一色: one suit and honours."""
    return int(len(c.suits) == 1 and c.honours > 0)


@item("full_flush", "清一色", "Full flush",
      "全部是同一種花色的數牌。", "Every tile from one suit, no honours.")
def full_flush(c: Ctx) -> int:
    """清一色: one suit, no honours."""
    return int(len(c.suits) == 1 and c.honours == 0)


@item("kong_bonus_exposed", "明槓", "Exposed kong bonus",
      "每個明槓或加槓另加台（部分牌桌才算）。", "A bonus per exposed or added kong (counted at some tables only).",
      each=("每個明槓或加槓", "per exposed or added kong"))
def kong_bonus_exposed(c: Ctx) -> int:
    """明槓: one per exposed or added kong."""
    return sum(1 for m in c.win.melds if m.kind in (MeldKind.KONG, MeldKind.ADDKONG))


@item("kong_bonus_concealed", "暗槓", "Concealed kong bonus",
      "每個暗槓另加台（部分牌桌才算）。", "A bonus per concealed kong (counted at some tables only).",
      each=("每組暗槓", "per concealed kong"))
def kong_bonus_concealed(c: Ctx) -> int:
    """暗槓: one per concealed kong."""
    return sum(1 for m in c.win.melds if m.kind is MeldKind.CKONG)


@item("four_kongs", "四槓", "Four kongs",
      "同一人開第四個槓立即胡牌，照自摸付但不加自摸；四槓分在不同人手上則流局（部分牌桌才算）。",
      "A player's fourth kong ends the hand as his win, paid like a self-draw without the Self-draw tai; four "
      "kongs split between players draw the hand (counted at some tables only).",
      kind=ItemKind.INSTANT)
def four_kongs(c: Ctx) -> int:
    """四槓: four kongs of one player (instant)."""
    kongs = sum(1 for m in c.win.melds if m.is_kong)
    return int(c.win.win_type is WinType.FOUR_KONGS and kongs == 4)
