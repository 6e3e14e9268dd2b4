"""First-go-around items, ready declarations, and the dealer relation (莊家, 連莊, 拉莊)."""

from __future__ import annotations

from companion.rules.tai._base import Ctx, Fill, ItemKind, Rules, item
from companion.rules.win import counted_streak
from companion.tiles import zh_count


@item("heaven_win", "天胡", "Heavenly win",
      "莊家配牌補花後就胡，在第一次打牌與開槓之前。",
      "The dealer's dealt tiles win before his first discard and before any kong.")
def heaven_win(c: Ctx) -> int:
    """天胡: flag ``heavenly`` (checked: the dealer, self-drawn)."""
    return int(c.win.heavenly)


@item("earth_win", "地胡", "Earthly win",
      "閒家第一巡第一次摸牌就自摸，且之前無人吃、碰或開槓（暗槓也算）。",
      "A non-dealer self-draws on his first draw in the first go-around, with no chow, pung or kong (a concealed "
      "kong too) by anyone before it.")
def earth_win(c: Ctx) -> int:
    """地胡: flag ``earthly`` (checked: a non-dealer, self-drawn)."""
    return int(c.win.earthly)


@item("human_win", "人胡", "Human win",
      "第一巡內胡別人打出的牌，且之前無人吃、碰或開槓（暗槓也算）。",
      "A win on a discard in the first go-around, with no chow, pung or kong (a concealed kong too) by anyone "
      "before it.")
def human_win(c: Ctx) -> int:
    """人胡: flag ``human`` (checked: a discard win)."""
    return int(c.win.human)


@item("heaven_ready", "天聽", "Heavenly ready",
      "配牌就聽牌並宣告，最後胡牌。", "Ready on the deal and declared, and the declarer wins this hand.")
def heaven_ready(c: Ctx) -> int:
    """天聽: flag ``ready_on_deal``."""
    return int(c.win.ready_on_deal)


@item("earth_ready", "地聽", "Earthly ready",
      "閒家第一次打牌時就聽牌並宣告，最後胡牌。",
      "A non-dealer ready with his first discard declares it, and wins this hand.", zh_alt="咪幾")
def earth_ready(c: Ctx) -> int:
    """地聽: flag ``ready_first_discard``."""
    return int(c.win.ready_first_discard)


@item("declared_ready", "報聽", "Declared ready",
      "一般報聽後胡牌（部分牌桌才算台）。", "A plain ready declaration that ends in a win (scored at some tables only).")
def declared_ready(c: Ctx) -> int:
    """報聽: flag ``ready_declared``; its value is the switch ``declared_ready_tai``."""
    return int(c.win.ready_declared)


def _streak(c: Ctx) -> int:
    return counted_streak(c.win.streak, c.switches["streak_cap"])


def _per(item_id: str) -> Fill:
    """The fields of an explanation that names the item's own tai: ``{v}`` (digits) and ``{n}`` (Chinese words)."""
    return lambda rules, zh: {"v": rules.value(item_id), "n": zh_count(rules.value(item_id), two="兩")}


@item("dealer", "莊家", "Dealer",
      "莊家胡牌或付錢時，每筆多{n}台。", "The dealer gets or pays {v} more tai in each payment that involves him.",
      kind=ItemKind.RELATION, fill=_per("dealer"))
def dealer(c: Ctx) -> int:
    """莊家: once per payment that involves the dealer (spec §4.1)."""
    return 1


@item("streak", "連莊", "Dealer continuation",
      "莊家每連一莊多{n}台。", "{v} per consecutive continuation of the dealer.", kind=ItemKind.RELATION,
      fill=_per("streak"))
def streak(c: Ctx) -> int:
    """連莊: N, capped by ``streak_cap``."""
    return _streak(c)


def _pull_fill(rules: Rules, zh: bool) -> dict[str, object]:
    v, same = rules.value("streak_pull"), rules.value("streak") == rules.value("streak_pull") == 1
    if zh:
        return {"n": zh_count(v, two="兩"), "then": "；連N拉N。" if same else "。"}
    # ("with the streak N itself, a streak of N makes 2N" was hard to parse: a beginner review)
    return {"v": v, "then": ": a dealer on a streak of N scores N for the streak and N more for the pull, 2N in all."
            if same else "."}


@item("streak_pull", "拉莊", "Streak pull",
      "每連一莊再多拉{n}台{then}", "{v} more per continuation{then}", kind=ItemKind.RELATION, fill=_pull_fill)
def streak_pull(c: Ctx) -> int:
    """拉莊: N again, capped by ``streak_cap``."""
    return _streak(c)
