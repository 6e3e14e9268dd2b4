"""Honour items: wind and dragon pungs, the three-dragon and four-wind hands, all honours."""

from __future__ import annotations

from companion.rules.tai._base import Ctx, Rules, item
from companion.tiles import zh_count


def _winds(c: Ctx) -> int:
    return sum(1 for t in c.pungs if t.is_wind)


def _dragons(c: Ctx) -> int:
    return sum(1 for t in c.pungs if t.is_dragon)


@item("seat_wind", "門風", "Seat-wind pung",
      "自己門風的刻子或槓子。", "A pung or kong of the winner's seat wind.", split=True, zh_alt="正風")
def seat_wind(c: Ctx) -> int:
    """門風: a pung or kong of the seat wind."""
    return int(c.win.seat_wind in c.pungs)


def _both_winds_fill(rules: Rules, zh: bool) -> dict[str, object]:
    """The tai of a pung of the wind that is both seat and round wind, as the rule set in use counts them."""
    both = rules.value("seat_wind") + rules.value("round_wind")
    return {"both": f"共{zh_count(both, two='兩')}台" if both else "兩樣都算"}


@item("round_wind", "圈風", "Round-wind pung",
      "圈風的刻子或槓子；門風圈風相同時{both}。",
      "A pung or kong of the round wind; with seat wind = round wind one pung scores both.", split=True,
      zh_alt="風圈", fill=_both_winds_fill)
def round_wind(c: Ctx) -> int:
    """圈風: a pung or kong of the round wind."""
    return int(c.win.round_wind in c.pungs)


@item("dragon_pung", "三元牌", "Dragon pung",
      "白、發、中的刻子或槓子，每組都算。", "Each pung or kong of White, Green or Red.", split=True)
def dragon_pung(c: Ctx) -> int:
    """三元牌: one per dragon pung or kong."""
    return _dragons(c)


@item("small_dragons", "小三元", "Small three dragons",
      "兩組三元牌刻子或槓子加第三種作眼。", "Two dragon pungs or kongs and a pair of the third dragon.", split=True)
def small_dragons(c: Ctx) -> int:
    """小三元: two dragon pungs and the third dragon as the pair."""
    return int(_dragons(c) == 2 and c.pair is not None and c.pair.is_dragon)


@item("big_dragons", "大三元", "Big three dragons",
      "白、發、中三組刻子或槓子。", "Pungs or kongs of all three dragons.", split=True)
def big_dragons(c: Ctx) -> int:
    """大三元: all three dragons as pungs or kongs."""
    return int(_dragons(c) == 3)


@item("small_winds", "小四喜", "Small four winds",
      "三組風牌刻子加第四種風作眼。", "Three wind pungs or kongs and a pair of the fourth wind.", split=True)
def small_winds(c: Ctx) -> int:
    """小四喜: three wind pungs and the fourth wind as the pair."""
    return int(_winds(c) == 3 and c.pair is not None and c.pair.is_wind)


@item("big_winds", "大四喜", "Big four winds",
      "東南西北四組刻子或槓子。", "Pungs or kongs of all four winds.", split=True)
def big_winds(c: Ctx) -> int:
    """大四喜: all four winds as pungs or kongs."""
    return int(_winds(c) == 4)


@item("all_honours", "字一色", "All honours",
      "全部都是字牌。", "Every tile is an honour.")
def all_honours(c: Ctx) -> int:
    """字一色: no suited tile at all."""
    return int(not c.suits)


def _any_wind_fill(rules: Rules, zh: bool) -> dict[str, object]:
    """The tai of each wind pung as the rule set in use counts it (a house-rules review read "(the Zhaishenye
    platform)" beside a house set's own value); where it counts none (the Learn card under the default), whose rule
    it is."""
    v = rules.value("any_wind_pung")
    if zh:
        return {"how": f"都算{zh_count(v, two='兩')}台" if v else "都算台（宅神爺平台這樣算）"}
    return {"how": f"scores {v} tai" if v else "scores (as the Zhaishenye platform counts it)"}


@item("any_wind_pung", "見風見台", "Any wind pung",
      "不論門風圈風，每組風牌刻子{how}。",
      "Every wind pung {how}, whatever the seat or round.", split=True, fill=_any_wind_fill)
def any_wind_pung(c: Ctx) -> int:
    """見風見台: one per wind pung or kong (switch ``any_wind_pung_tai``)."""
    return _winds(c)

