"""How the hand was won: concealment, self-draw, the seek items, the wait, the special tiles, 平胡."""

from __future__ import annotations

from companion.rules.tai._base import Ctx, Rules, item
from companion.rules.waits import WaitShape
from companion.rules.win import Replacement, WinType
from companion.tiles import zh_count


@item("menqing", "門清", "Concealed hand",
      "沒有吃、碰、明槓、加槓就胡牌（暗槓可以）。",
      "No chow, pung, exposed or added kong before the win (concealed kongs allowed).")
def menqing(c: Ctx) -> int:
    """門清: no called set at all (spec §1.3)."""
    return int(c.concealed_hand)


def _buqiu_fill(rules: Rules, zh: bool) -> dict[str, object]:
    total = sum(rules.value(i) for i in ("menqing", "zimo", "buqiu"))
    if zh:
        return {"then": "門清一摸三。" if total == 3 else f"與門清、自摸並計，共 {total} 台。"}
    return {"total": total}


@item("buqiu", "不求", "Concealed self-draw",
      "門清又自摸，{then}", "Concealed and self-drawn: {total} tai together with Concealed hand and Self-draw.",
      zh_alt="門清自摸", fill=_buqiu_fill)
def buqiu(c: Ctx) -> int:
    """不求: 門清 and 自摸 both apply."""
    return int(c.concealed_hand and c.self_draw)


@item("zimo", "自摸", "Self-draw",
      "自己摸到胡的那張牌（含補花、槓後補進的牌與海底）；搶槓不算。",
      "The winner drew the winning tile himself (replacements and the last tile too); robbing a kong is not.")
def zimo(c: Ctx) -> int:
    """自摸: a wall draw, a replacement tile or the last tile."""
    return int(c.self_draw)


@item("single_wait", "獨聽", "Single wait",
      "胡牌前整手只聽一種牌（算的是能胡的牌有幾種，不看牌型）：通常是邊張、中洞或單吊；兩面聽但另一頭四張都在自己手上也算。",
      "Before the win, the hand waited on one kind of tile only (it counts the kinds that could win, not the "
      "shape): usually an edge, closed or pair wait; a two-sided wait whose other end is all four in the winner's "
      "own hand counts too.",
      zh_alt="邊張 / 中洞 / 單吊")
def single_wait(c: Ctx) -> int:
    """獨聽: exactly one real wait kind (spec §3.5); never on 天胡, which has no before-win hand."""
    return int(len(c.waits) == 1 and not c.win.heavenly)


def _all_called(c: Ctx) -> bool:
    return c.called == 5


@item("half_seek", "半求", "Half-seek",
      "五組都是吃、碰、明槓或加槓來的（有暗槓就不算），最後自摸單吊。",
      "All five sets called (a concealed kong breaks it); the winner self-draws the partner of his single tile.")
def half_seek(c: Ctx) -> int:
    """半求: five called melds and a self-drawn pair tile."""
    return int(_all_called(c) and c.self_draw)


@item("all_seek", "全求", "All-seek",
      "五組都是吃、碰、明槓或加槓來的（有暗槓就不算），單吊胡別人打出的牌。",
      "All five sets called (a concealed kong breaks it); the single tile's partner comes from a discard.",
      zh_alt="全求人")
def all_seek(c: Ctx) -> int:
    """全求: five called melds and a pair completed by a discard."""
    return int(_all_called(c) and not c.self_draw)


@item("rob_kong", "搶槓", "Robbing the kong",
      "胡別人加槓的那張牌，算被搶者放槍。", "Win on the tile another player adds to his pung; he pays as a discarder.")
def rob_kong(c: Ctx) -> int:
    """搶槓: the winning tile was robbed from an added kong (spec §2.10)."""
    return int(c.win.win_type is WinType.ROB_KONG)


@item("kong_bloom", "槓上開花", "Win on a replacement",
      "補花或暗槓、加槓後補進的牌自摸胡。", "Self-drawn win on the replacement after a flower, a concealed or an added kong.")
def kong_bloom(c: Ctx) -> int:
    """槓上開花: flower, 暗槓 or 加槓 replacement; a discard kong's only under ``kong_bloom`` (§2.10).

    A normal win that holds all eight flowers can only be on the eighth flower's replacement (八仙過海
    ends the hand the moment the eighth arrives, spec §4.2), so it is a flower replacement even unflagged;
    except 天胡: the dealer's flowers were replaced while dealing, which is not 槓上開花 (§2.6: during play).
    """
    r = c.win.replacement
    if not c.self_draw:
        return 0
    if r is None:
        return int(len(c.flowers) == 8 and not c.win.heavenly)
    if r is Replacement.KONG:
        return int(c.switches["discard_kong_replacement_win"] == "kong_bloom")
    return 1


@item("last_tile", "海底撈月", "Last-tile draw",
      "摸最後一張可摸的牌自摸胡。", "Self-drawn win on the last drawable tile.")
def last_tile(c: Ctx) -> int:
    """海底撈月: the last drawable tile, a replacement that became the last tile included."""
    return int(c.self_draw and c.win.last_tile)


@item("last_discard", "河底撈魚", "Last-discard win",
      "胡海底之後打出的那一張（最後一張打出的牌）。", "Win on the discard that follows the last drawable tile.")
def last_discard(c: Ctx) -> int:
    """河底撈魚: the discard after the last tile."""
    return int(c.win.is_last_discard)


def _pinghu_fill(rules: Rules, zh: bool) -> dict[str, object]:
    pure, concealed = rules.switch("pinghu_check_honours_flowers"), rules.switch("pinghu_concealed_allowed")
    if zh:
        return {"pure": "，無字無花" if pure else "（有字、有花也算）", "open": "" if concealed else "；門清不算"}
    return {"pure": ", no honours or flowers" if pure else " (honours and flowers allowed)",
            "open": "" if concealed else "; not with a concealed hand"}


@item("pinghu", "平胡", "Plain hand",
      "五組順子加一對，胡別人的牌{pure}，兩面聽且至少聽兩種{open}。",
      "Five chows and a pair, won on a discard{pure}, a two-sided wait with two or more waits{open}.",
      split=True, fill=_pinghu_fill)
def pinghu(c: Ctx) -> int:
    """平胡: all of spec §4.2's conditions; the honours/flowers and 門清 checks follow the profile."""
    w = c.win
    if c.chows != 5 or c.self_draw or w.win_type not in (WinType.DISCARD, WinType.ROB_KONG):
        return 0
    if c.shape is not WaitShape.TWO_SIDED or len(c.waits) < 2:
        return 0
    if c.switches["pinghu_check_honours_flowers"] and (c.honours or c.flowers):
        return 0
    if c.concealed_hand and not c.switches["pinghu_concealed_allowed"]:
        return 0
    return 1


def _ready_self_fill(rules: Rules, zh: bool) -> dict[str, object]:
    """What the rule set in use adds (a house-rules review read "add 1" beside a house set's 2); where it adds
    none (the Learn card under the default), what the platforms add."""
    v = rules.value("ready_on_self_draw")
    if zh:
        return {"how": f"每次自摸另加聽牌{zh_count(v, two='兩')}台（有些線上平台這樣算；" if v else
                "有些線上平台每次自摸另加聽牌一台（"}
    return {"how": f"Adds {v} for being ready on every self-drawn win, as some online platforms do" if v else
            "Some online platforms add 1 for being ready on every self-drawn win"}


@item("ready_on_self_draw", "自摸聽牌", "Ready on self-draw",
      "{how}一份平台比較表列出明星三缺一這樣算）。",
      "{how}: a comparison of platforms lists the Star 31 online game (Mingxing Sanquyi) as scoring so.",
      fill=_ready_self_fill)
def ready_on_self_draw(c: Ctx) -> int:
    """自摸聽牌: the 明星三缺一 platform's extra tai on each self-draw (spec §5.3)."""
    return int(c.self_draw)
