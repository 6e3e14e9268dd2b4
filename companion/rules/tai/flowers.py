"""Flower items and the instant wins made of flowers."""

from __future__ import annotations

from companion.rules.tai._base import Ctx, ItemKind, Rules, item
from companion.rules.win import WinType
from companion.tiles import Tile

SEASONS = frozenset((Tile.F1, Tile.F2, Tile.F3, Tile.F4))
PLANTS = frozenset((Tile.F5, Tile.F6, Tile.F7, Tile.F8))


def seat_number(seat_wind: Tile) -> int:
    """東 1, 南 2, 西 3, 北 4 (spec §1.4)."""
    return int(seat_wind) - int(Tile.Z1) + 1


@item("seat_flower", "正花", "Seat flower",
      "花上印的數字與座位相同，每張都算（東1南2西3北4）。",
      "Each flower whose printed number is the seat's (East 1, South 2, West 3, North 4).")
def seat_flower(c: Ctx) -> int:
    """正花: flowers printed with the seat number; at most two."""
    n = seat_number(c.win.seat_wind)
    return sum(1 for f in c.flowers if f.flower_seat == n)


@item("flower_kong", "花槓", "Flower set",
      "集齊春夏秋冬或梅蘭竹菊四張，每集齊一組算一次。", "All four seasons, or all four plants; each complete set scores.")
def flower_kong(c: Ctx) -> int:
    """花槓: one per complete set of four seasons or four plants."""
    held = set(c.flowers)
    return int(SEASONS.issubset(held)) + int(PLANTS.issubset(held))


def _eight_fill(rules: Rules, zh: bool) -> dict[str, object]:
    v = rules.value("eight_flowers")
    if rules.switch("eight_flowers_compound"):
        then = (f"；第八張花補進的牌若剛好胡牌，照一般牌型計台再加 {v} 台。" if zh else
                f"; if the eighth flower's replacement also completes the hand, it is scored as usual and {v} added.")
    else:
        then = "，第八張花補進的牌即使剛好胡牌也一樣。" if zh else \
            ", even where the eighth flower's replacement also completes the hand."
    return {"v": v, "then": then}


@item("eight_flowers", "八仙過海", "Eight flowers",
      "八張花全拿到，立即胡牌，算自摸，只算 {v} 台{then}",
      "All eight flowers: an instant win, settled as a self-draw, {v} tai flat{then}",
      kind=ItemKind.INSTANT, fill=_eight_fill)
def eight_flowers(c: Ctx) -> int:
    """八仙過海: all eight flowers (instant, or added to a hand completed on the replacement)."""
    return int(len(c.flowers) == 8)


@item("seven_rob_one", "七搶一", "Seven rob one",
      "已有七張花，別人摸到第八張時搶來胡牌，由他一人付。",
      "Holding seven flowers, claim the eighth when another player reveals it; he pays alone.",
      kind=ItemKind.INSTANT)
def seven_rob_one(c: Ctx) -> int:
    """七搶一: seven flowers and the robbed eighth (instant); the record may list the eighth or not."""
    return int(c.win.win_type is WinType.SEVEN_FLOWERS_ROB and len(c.flowers) >= 7)


@item("no_flowers", "無花", "No flowers",
      "胡牌時沒有任何花牌（部分牌桌才算）。", "The winner has no flower (counted at some tables only).")
def no_flowers(c: Ctx) -> int:
    """無花: no flower at all."""
    return int(not c.flowers)


@item("no_honours_no_flowers", "無字無花", "No honours, no flowers",
      "沒有花牌也沒有字牌（部分牌桌才算）。", "No flower and no honour tile (counted at some tables only).")
def no_honours_no_flowers(c: Ctx) -> int:
    """無字無花: neither a flower nor an honour tile."""
    return int(not c.flowers and not c.honours)


@item("any_flower_any_wind", "見花見字", "Any flower, any wind",
      "每張花、每組風牌刻子都算台，不論座位（取代正花、門風，圈風照算；部分牌桌才算）。",
      "Every flower and every wind pung scores, whatever the seat (in place of the seat flower and the seat wind; "
      "the round wind still counts; counted at some tables only).", split=True,
      each=("每張花、每組風刻各", "each"))
def any_flower_any_wind(c: Ctx) -> int:
    """見花見字: one per flower and one per wind pung or kong."""
    return len(c.flowers) + sum(1 for t in c.pungs if t.is_wind)
