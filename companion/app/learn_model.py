"""The Learn view's model: every tai item with what it means, its worth, and an example hand scored live.

Plain Python (no flet). The items, their names and one-line explanations come from the scorer's catalogue
(``companion.rules.tai.REGISTRY``), their worth from the chosen profile, and the example hands from
``assets/learn/tai_examples.json`` (one per item; ``tests/rules/test_tai_examples.py`` checks that each scores its
item). Each example is scored here by the rules, so the breakdown shown is the scorer's, never written by hand.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache
from importlib import resources
from typing import Any

from companion.app.ledger_model import marked_items
from companion.app.table_model import meld_codes, wind_words
from companion.app.words import Words, ui
from companion.english import listed
from companion.rules.profiles import (
    BUILTIN,
    Profile,
    ProfileError,
    load_profile,
    parse_profile,
)
from companion.rules.scoring import score
from companion.rules.settlement import settle
from companion.rules.tai import ITEMS, REGISTRY, Ctx, replaced
from companion.rules.tai._base import ItemKind
from companion.rules.win import Win, WinType

__all__ = ["LearnItem", "LearnExample", "learn_items", "house_worths", "examples_path", "example_profile", "links",
           "warnings"]

_KIND = {ItemKind.HAND: ("算在這手牌的台", "Part of the hand's tai"), ItemKind.RELATION: ("莊家台（只算莊家付或收的）",
                                                                  "Dealer tai (only on what the dealer pays or is paid)"),
         ItemKind.INSTANT: ("直接胡（不看牌型）", "An instant win (no winning shape needed)")}
# (each opens the example's setting line: "win on a discard; the winner sits…" began lower-case, a beginner review)
_HOW = {WinType.DISCARD: ("胡別人打的牌", "Won on a discard"), WinType.SELF_DRAW: ("自摸", "Self-drawn"),
        WinType.ROB_KONG: ("搶槓", "Robbing a kong"), WinType.EIGHT_FLOWERS: ("八仙過海", "Eight flowers"),
        WinType.SEVEN_FLOWERS_ROB: ("七搶一", "Seven rob one"), WinType.FOUR_KONGS: ("四槓", "Four kongs")}


@dataclass(frozen=True, slots=True)
class LearnExample:
    profile_id: str
    profile: Words  # the rule profile the example is scored under
    concealed: tuple[str, ...]
    melds: tuple[tuple[str, ...], ...]
    flowers: tuple[str, ...]
    win_tile: str | None
    setting: Words  # how it was won, the winds, the dealer
    items: tuple[tuple[Words, int, bool], ...]  # every item the hand scores; True on the one taught
    hand_tai: int
    dealer_tai: int  # where the dealer wins or pays; else 0
    note: Words
    house: tuple[Words, ...] = ()  # what the house-rule marks mean, and the items other tables would add
    # the dealer tai's items, apart from the hand's: in one list the rows of the 半求 card read 1+1+1+1 beside "3
    # tai for the hand; dealer tai 1" (a beginner review)
    dealer_items: tuple[tuple[Words, int, bool], ...] = ()


@dataclass(frozen=True, slots=True)
class LearnItem:
    id: str
    name: Words
    explain: Words
    kind: Words
    value: int  # tai per occurrence in the default profile (0 = off there)
    example: LearnExample | None
    by_profile: tuple[tuple[Words, int], ...] = ()  # its worth under each built-in profile (house rules differ)
    zh_alt: str = ""  # its other Chinese names (the spec's table gives them in brackets: 全求 全求人)
    # what it is never added with under the default rules, from the scorer's own table (spec §4.2's last column: a
    # beginner review found no card saying 天胡 removes 門清, or 小三元 replaces 三元牌), and what a player must know
    # beside it (小四喜's winds still add)
    links: tuple[Words, ...] = ()
    # what a player must beware of (a win on a discard kong's replacement is a false win): drawn as a warning, the
    # links as text (drawn alike, in the heading's red, the links looked like warnings: a change review)
    warnings: tuple[Words, ...] = ()

    @property
    def heading(self) -> Words:
        """The card's heading: the Chinese name (and its other names) in Chinese; both names in English, so that a
        player learning the game learns the word the table says (the Chinese view showed "正花　Seat flower", a
        review)."""
        return Words(self.name.zh + (f"（{self.zh_alt}）" if self.zh_alt else ""), f"{self.name.zh}  {self.name.en}")


def examples_path() -> Any:
    return resources.files("companion") / "assets" / "learn" / "tai_examples.json"


def example_profile(entry: dict[str, Any]) -> Profile:
    """The rules an example is scored under: its entry's built-in profile; for an item no built-in profile counts,
    that profile with the entry's ``house`` (``{"tai": {...}}`` or ``{"switches": {...}}``) on top, a house rule set
    that turns the item on, named so (its card showed "0 tai" and no row for the item, teaching nothing: a
    teacher's review)."""
    base = load_profile(entry["profile"])
    house = entry.get("house")
    if house is None:
        return base
    item = REGISTRY[entry["item"]]
    on = parse_profile({"id": f"learn_{item.id}", "inherits": base.id, **house}, f"tai_examples.json: {item.id}: house")
    # an item that scores per thing says per what: 見花見字 2 tai for a flower and a wind pung stood under a name
    # of "見花見字算 1 台" (a teacher's review)
    name = ui("learn_house_example_each" if item.each_zh else "learn_house_example", name=base.name_zh,
              name_en=base.name_en, item=item.zh, item_en=item.en, n=on.value(item.id), each=item.each_zh,
              each_en=item.each_en)
    return replace(on, name_zh=name.zh, name_en=name.en)


def _example(entry: dict[str, Any], item_id: str) -> LearnExample:
    prof = example_profile(entry)
    win = Win.from_dict({**entry["win"], "profile": entry["profile"]})
    sc = score(win, prof)
    how = _HOW.get(win.win_type, (win.win_type.value, win.win_type.value))
    seat, rnd, dealer = wind_words(win.seat_wind), wind_words(win.round_wind), wind_words(win.dealer)
    streak = ui("learn_streak", n=win.streak) if win.streak else ui("learn_no_streak")
    setting = ui("learn_setting", how=how[0], how_en=how[1], seat=seat.zh, seat_en=seat.en, round=rnd.zh,
                 round_en=rnd.en, dealer=dealer.zh, dealer_en=dealer.en, streak=streak.zh, streak_en=streak.en)
    if win.discarder is not None:
        who = wind_words(win.discarder)
        # nobody discarded: he added a kong and it was robbed, or he showed the eighth flower (a review read "West
        # discarded" on the 七搶一 card, whose note says West drew the flower)
        said = {WinType.ROB_KONG: "learn_robbed", WinType.SEVEN_FLOWERS_ROB: "learn_flower_robbed"}
        setting = setting + ui(said.get(win.win_type, "learn_discarder"), who=who.zh, who_en=who.en)
    concealed = list(win.concealed)  # the hand before the win: the winning tile is apart
    melds = [meld_codes(m) for m in win.melds]
    marked, house = marked_items(sc)  # an item whose count here is a house rule says so (spec §5.4)
    items = tuple((words, i.tai, i.id == item_id) for (words, _), i in zip(marked, sc.items, strict=True))
    # dealer tai count only where the dealer wins or pays: what the payments carry
    dealer_tai = settle(sc, win).dealer_tai_paid
    dealer_items: tuple[tuple[Words, int, bool], ...] = ()
    if dealer_tai:  # and their items, as rows: the dealer's lessons listed nothing (a newcomer review)
        ctx = Ctx(win, prof.switches, ())
        dealer_items = tuple((Words(i.zh, i.en), prof.value(i.id) * i.count(ctx), i.id == item_id)
                             for i in ITEMS.values() if i.kind is ItemKind.RELATION and prof.value(i.id) * i.count(ctx))
    return LearnExample(prof.id, Words(prof.name_zh, prof.name_en),
                        tuple(t.code for t in sorted(concealed)), tuple(melds), tuple(t.code for t in win.flowers),
                        win.win_tile.code if win.win_tile is not None else None, setting, items, sc.hand_tai,
                        dealer_tai, Words(entry["note_zh"], entry["note_en"]), house, dealer_items)


def house_worths(item_id: str) -> tuple[tuple[Words, int], ...]:
    """The item's worth under each house rule set saved (spec §5.1), named as the rule dropdowns name them, read as
    they are now (a change review: a player of a house set could learn the built-in ones' values only). One that
    cannot be played (damaged, its parent gone) is left out, as the dropdowns leave it out."""
    from companion.app.rule_sets_model import rule_sets

    out = []
    for r in rule_sets():
        if r.builtin or r.problem is not None:
            continue
        try:
            out.append((r.name, load_profile(r.id).value(item_id)))
        except ProfileError:  # (deleted or damaged since it was listed)
            continue
    return tuple(out)


def links(item_id: str) -> tuple[Words, ...]:
    """What ``item_id`` replaces and what replaces it under the default rules (the Learn tab's, which picks no other
    set: a note naming another set was said only in tests, a change review), read from the scorer's replacement table
    (:func:`companion.rules.tai.replaced`), so a card cannot say otherwise than the score; the items named are those
    ``rules`` count (all of them where ``rules`` do not count ``item_id`` itself, a house rule's item), each quoted
    (「有無字無花時」 read as "whether or not there are honours or flowers"), one in the singular ("which replace it"
    was said of one item: a change review); what replaces it in Chinese as in English, the last joined with 或
    (「「小三元」、「大三元」時」 said "and" beside "or": a change review). Then the note the table cannot give: 小四喜
    beside the winds."""
    rules = load_profile(None)
    table = replaced(dict(rules.switches))

    def said(one: str, many: str, ids: list[str], last: str) -> list[Words]:
        ids = [i for i in ids if rules.value(i) or not rules.value(item_id)]
        if not ids:
            return []
        quoted = [f"「{ITEMS[i].zh}」" for i in ids]
        zh = "、".join(quoted) if last == "and" else "、".join(quoted[:-1]) + "或" + quoted[-1] if len(ids) > 1 \
            else quoted[0]
        return [ui(one if len(ids) == 1 else many, items=zh,
                   items_en=listed([f"\u201c{ITEMS[i].en}\u201d" for i in ids], last))]

    out = said("learn_replaces_one", "learn_replaces", [i for i in ITEMS if i in table.get(item_id, ())], "and")
    out += said("learn_replaced_by_one", "learn_replaced_by", [i for i in ITEMS if item_id in table.get(i, ())], "or")
    if item_id == "small_winds" and rules.switch("small_winds_adds_winds") and rules.value("small_winds"):
        rules_said = ui("learn_rules_default")
        out.append(ui("learn_small_winds_add", rules=rules_said.zh, rules_en=rules_said.en))
    return tuple(out)


def warnings(item_id: str) -> tuple[Words, ...]:
    """What a player of ``item_id`` must beware of under the default rules (as :func:`links`): a win on the
    replacement after a kong of a discard is a false win (spec §2.10), where they forbid it."""
    if item_id == "kong_bloom" and load_profile(None).switch("discard_kong_replacement_win") == "forbidden":
        rules_said = ui("learn_rules_default")
        return (ui("learn_kong_bloom_false_win", rules=rules_said.zh, rules_en=rules_said.en),)
    return ()


@cache
def learn_items() -> tuple[LearnItem, ...]:
    """Every tai item in the catalogue's order, each with its example scored (done once)."""
    entries = {e["item"]: e for e in json.loads(examples_path().read_text(encoding="utf-8"))}
    default = load_profile(None)
    profiles = [load_profile(pid) for pid in BUILTIN]
    out = []
    for item_id, item in REGISTRY.items():
        entry = entries.get(item_id)
        kind = _KIND[item.kind]
        out.append(LearnItem(item_id, Words(item.zh, item.en), Words(item.explain('zh', default), item.explain('en', default)),
                             Words(*kind), default.value(item_id),
                             _example(entry, item_id) if entry is not None else None,
                             tuple((Words(p.name_zh, p.name_en), p.value(item_id)) for p in profiles), item.zh_alt,
                             links(item_id), warnings(item_id)))
    return tuple(out)
