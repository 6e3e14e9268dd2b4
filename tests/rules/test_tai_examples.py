"""The Learn screen's example hands (companion/assets/learn/tai_examples.json): one per tai item, each scoring it.

Each entry is ``{"item", "profile", "win", "note_zh", "note_en"}``; ``win`` is the ``companion tai`` input
without a profile. A HAND or INSTANT item must be among the score's items under the entry's profile; a
RELATION item (莊家, 連莊, 拉莊) is dealer tai, so its example must carry dealer tai, its own share of it, and a
payment that involves the dealer. An item worth 0 in every built-in profile is shown under the default profile
with a ``house`` (``{"tai": {...}}`` or ``{"switches": {...}}``) that turns it on, and scores there (its card showed
"0 tai" and no row for it, teaching nothing: a teacher's review).
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

import pytest

from companion.app.learn_model import example_profile
from companion.rules.profiles import BUILTIN, DEFAULT_PROFILE, Profile, load_profile, parse_profile
from companion.rules.scoring import Score, dealer_tai, score
from companion.rules.settlement import settle
from companion.rules.tai import REGISTRY, SWITCH_VALUED, Ctx, ItemKind
from companion.rules.win import Win

CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")  # ideographs, CJK punctuation, full-width forms
HAN = re.compile(r"[\u4e00-\u9fff]")
KEYS = {"item", "profile", "win", "note_zh", "note_en"}
OPTIONAL = {"house"}


@cache
def _entries() -> tuple[dict[str, Any], ...]:
    path = resources.files("companion") / "assets" / "learn" / "tai_examples.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, list)
    return tuple(data)


def _worth_nothing(item_id: str) -> bool:
    """The item is worth 0 in every built-in profile."""
    return all(load_profile(p).value(item_id) == 0 for p in BUILTIN)


def _turned_on(entry: dict[str, Any]) -> Profile:
    """The entry's house profile, which must turn its item on and nothing else (its switch, for a switch-valued
    item)."""
    item_id = entry["item"]
    assert "house" in entry, f"{item_id} is worth 0 in every built-in profile: give its example a house that counts it"
    sw = SWITCH_VALUED.get(item_id)
    key = "switches" if sw else "tai"
    assert set(entry["house"]) == {key} and set(entry["house"][key]) == {sw or item_id}, \
        f"{item_id}: the house turns on its own item only"
    prof = example_profile(entry)
    assert prof.value(item_id) > 0
    return prof


def _scored(entry: dict[str, Any], profile: Profile | None = None) -> Score:
    prof = profile if profile is not None else load_profile(entry["profile"])
    return score(Win.from_dict(entry["win"]), prof)


def _ids(s: Score) -> list[str]:
    return [i.id for i in s.items]


def test_one_entry_per_item_in_registry_order() -> None:
    ids = [e.get("item") for e in _entries()]
    unknown = [i for i in ids if i not in REGISTRY]
    assert not unknown, f"unknown item ids: {unknown}"
    assert len(ids) == len(set(ids)), "an item has more than one example"
    assert ids == list(REGISTRY), "one example per REGISTRY item, in REGISTRY's order"


@pytest.mark.parametrize("entry", _entries(), ids=lambda e: str(e.get("item")))
def test_entry_shape_and_notes(entry: dict[str, Any]) -> None:
    assert KEYS <= set(entry) <= KEYS | OPTIONAL
    assert ("house" in entry) == _worth_nothing(entry["item"]), "a house only for an item no built-in profile counts"
    assert entry["profile"] in BUILTIN
    assert isinstance(entry["win"], dict) and "profile" not in entry["win"]
    zh, en = entry["note_zh"], entry["note_en"]
    assert isinstance(zh, str) and zh.strip() and HAN.search(zh), "note_zh must be Chinese"
    assert isinstance(en, str) and en.strip() and not CJK.search(en), f"note_en holds CJK: {CJK.findall(en)}"


@pytest.mark.parametrize("entry", _entries(), ids=lambda e: str(e.get("item")))
def test_entry_profile_values_the_item(entry: dict[str, Any]) -> None:
    item_id = entry["item"]
    prof = load_profile(entry["profile"])
    if _worth_nothing(item_id):
        assert entry["profile"] == DEFAULT_PROFILE, "an item off everywhere is shown under the default"
        _turned_on(entry)
        return
    assert prof.value(item_id) > 0, f"{item_id} is worth 0 in {prof.id}"
    if load_profile(DEFAULT_PROFILE).value(item_id) > 0:
        assert entry["profile"] == DEFAULT_PROFILE, f"{item_id} scores in the default: use it"


@pytest.mark.parametrize("entry", _entries(), ids=lambda e: str(e.get("item")))
def test_example_scores_its_item(entry: dict[str, Any]) -> None:
    item_id = entry["item"]
    it = REGISTRY[item_id]
    prof = load_profile(entry["profile"])
    s = _scored(entry)
    win = s.win
    if it.kind is ItemKind.RELATION:
        # dealer tai D = sum of value x count over 莊家, 連莊, 拉莊 (scoring._Run / scoring.dealer_tai)
        ctx = Ctx(win, prof.switches, ())
        parts = {i.id: prof.value(i.id) * i.count(ctx) for i in REGISTRY.values() if i.kind is ItemKind.RELATION}
        assert s.dealer_tai == sum(parts.values()) == dealer_tai(win, prof) > 0
        assert parts[item_id] > 0, f"{item_id} adds nothing to the dealer tai: {parts}"
        assert item_id not in _ids(s), "dealer tai is never a hand item"
        # the dealer wins or pays, so a payment carries the whole dealer tai
        assert any(p.dealer_tai == s.dealer_tai for p in settle(s).payments), "the dealer neither wins nor pays"
        return
    if _worth_nothing(item_id):
        assert item_id not in _ids(s)
        s = _scored(entry, _turned_on(entry))
    assert item_id in _ids(s), f"{item_id} not scored: {_ids(s)}"
    got = s.item(item_id)
    assert got is not None and got.tai == s.profile.value(item_id) * got.count > 0
    if it.kind is ItemKind.INSTANT:
        assert s.is_instant and win.win_type.is_instant and _ids(s) == [item_id]
    else:
        assert not s.is_instant and win.win_tile is not None


ZH_TAI = re.compile(r"(\d+)\s*台")
EN_TAI = re.compile(r"(\d+)\s+(?:[a-z-]+\s+)?tai\b")  # "2 tai", "1 dealer tai", "5 extra tai"


def _tai_values(entry: dict[str, Any]) -> tuple[int, set[int]]:
    """The taught item's own tai, and every number of tai the example can honestly name: each scored item's tai
    and the hand's total; where the dealer wins or pays, the dealer tai and each part (莊家, 連莊, 拉莊); for an
    item worth 0 in every built-in profile, that 0 and what it scores under the house that turns it on. No other 0:
    "0 台" is said only of an item that is off."""
    item_id = entry["item"]
    prof = load_profile(entry["profile"])
    s = _scored(entry)
    ctx = Ctx(s.win, prof.switches, ())
    parts = {i.id: prof.value(i.id) * i.count(ctx) for i in REGISTRY.values() if i.kind is ItemKind.RELATION}
    values = {i.tai for i in s.items} | {s.hand_tai}
    paid = settle(s).dealer_tai_paid  # dealer tai counts where the dealer wins or pays (the Learn card's rows)
    if paid:
        values |= {paid} | set(parts.values())
    if _worth_nothing(item_id):
        house = _turned_on(entry)
        on = _scored(entry, house)
        got = on.item(item_id)
        assert got is not None, f"{item_id} not scored under its house"  # ("1 tai each": its worth per occurrence)
        return got.tai, {0, house.value(item_id)} | {i.tai for i in on.items} | {on.hand_tai}
    if item_id in parts:
        return parts[item_id], {v for v in values if v}
    got = s.item(item_id)
    assert got is not None, f"{item_id} not scored"
    return got.tai, {v for v in values if v}


@pytest.mark.parametrize("entry", _entries(), ids=lambda e: str(e.get("item")))
def test_every_tai_a_note_names_is_what_the_example_scores(entry: dict[str, Any]) -> None:
    """A note says "算花槓 2 台…另加 1 台" or "共 5 台" in words a person wrote: a profile's value that changes
    must not leave the teaching text wrong (a code review). Each number of tai either note names is one the
    example scores, and the notes name the taught item's own tai (the English of a dealer-tai note says its
    parts as "2 for the continuation", which the pattern does not read)."""
    own, values = _tai_values(entry)
    zh = [int(n) for n in ZH_TAI.findall(entry["note_zh"])]
    en = [int(n) for n in EN_TAI.findall(entry["note_en"])]
    where = f"{entry['item']} under {entry['profile']}"
    wrong = [("zh", n) for n in zh if n not in values] + [("en", n) for n in en if n not in values]
    assert not wrong, f"{where}: the note says {wrong}, the example scores {sorted(values)}"
    assert own in zh, f"{where}: note_zh names {zh} tai, not the item's own {own}"
    if en and REGISTRY[entry["item"]].kind is not ItemKind.RELATION:
        assert own in en, f"{where}: note_en names {en} tai, not the item's own {own}"


def test_the_notes_name_tai_in_both_languages() -> None:
    """The pattern that reads the notes finds their numbers: most notes name their item's tai in each language."""
    zh = sum(bool(ZH_TAI.search(e["note_zh"])) for e in _entries())
    en = sum(bool(EN_TAI.search(e["note_en"])) for e in _entries())
    assert zh >= 40 and en >= 35, (zh, en)


def test_big_four_winds_keeps_any_wind_pung_as_the_spec_says_other_items_add() -> None:
    """Spec §4.2: 大四喜 replaces 門風, 圈風 and 小四喜; "other items add", 宅神爺's 見風見台 among them, one per wind
    pung, as beside 小四喜 (a review found the bigger hand 4 tai short of the smaller one's reading)."""
    from companion.rules.scoring import score
    from companion.rules.win import Win

    win = Win.from_dict({"concealed": "444z55p67m", "melds": ["pung:111z@O", "pung:222z@L", "pung:333z@R"],
                         "win_tile": "8m", "win_type": "discard", "seat_wind": "S", "round_wind": "E",
                         "discarder": "W", "profile": "zhaishenye"})
    assert {i.id: i.tai for i in score(win).items} == {"big_winds": 24, "any_wind_pung": 4}
    small = Win.from_dict({"concealed": "44z555p67m", "melds": ["pung:111z@O", "pung:222z@L", "pung:333z@R"],
                           "win_tile": "8m", "win_type": "discard", "seat_wind": "S", "round_wind": "E",
                           "discarder": "W", "profile": "zhaishenye"})
    assert {i.id: i.tai for i in score(small).items}.get("any_wind_pung") == 3


def test_a_win_on_a_flowers_replacement_needs_a_flower() -> None:
    import pytest

    from companion.rules.win import Win, WinInputError

    with pytest.raises(WinInputError, match="flower"):
        Win.from_dict({"concealed": "456m789p888s55p67s", "melds": ["chow:123p@L"], "win_tile": "5s",
                       "win_type": "self_draw", "seat_wind": "S", "round_wind": "E",
                       "flags": {"replacement_after": "flower"}})


def test_every_items_english_explanation_reads_in_english() -> None:
    """A newcomer review met 連N拉N, 門清 and 自摸 in English explanations: Chinese only as a gloss in brackets."""
    from companion.rules.tai import ITEMS

    for pid in BUILTIN:
        profile = load_profile(pid)
        for item_id, it in ITEMS.items():
            en = re.sub(r"\([^()]*\)", "", it.explain("en", profile))  # (a gloss: 連N拉N, 明星三缺一)
            assert not CJK.search(en), (pid, item_id, it.explain("en", profile))


def test_an_explanation_says_the_profiles_values_and_switches_not_the_defaults() -> None:
    """A scoring review read "8 tai flat" beside zhaishenye's 16, "3 in all" beside its 5 and sml's plain hand
    "no honours or flowers" beside a hand with both: an explanation that names a value or a switch follows the
    profile the hand is scored under (and reads as before under the default)."""
    default, zhai, sml = load_profile(None), load_profile("zhaishenye"), load_profile("sml_2026")
    eight, buqiu, pinghu = REGISTRY["eight_flowers"], REGISTRY["buqiu"], REGISTRY["pinghu"]
    assert "8 tai flat" in eight.explain("en", default) and "只算 8 台" in eight.explain("zh", default)
    assert "16 tai flat" in eight.explain("en", zhai) and "再加 16 台" in eight.explain("zh", zhai)
    total = sum(zhai.value(i) for i in ("menqing", "zimo", "buqiu"))
    assert total != 3 and f": {total} tai together with" in buqiu.explain("en", zhai) and f"共 {total} 台" in buqiu.explain("zh", zhai)
    assert buqiu.explain("zh", default) == "門清又自摸，門清一摸三。"
    assert "no honours or flowers" in pinghu.explain("en", default)
    assert "no honours" not in pinghu.explain("en", sml) and "無字無花" not in pinghu.explain("zh", sml)
    assert "not with a concealed hand" in pinghu.explain("en", sml) and "門清不算" in pinghu.explain("zh", sml)
    flat = parse_profile({"id": "flat", "inherits": "atawmj_2009", "switches": {"eight_flowers_compound": False},
                          "tai": {"dealer": 2, "streak": 2, "streak_pull": 2}}, "test")
    assert "added" not in eight.explain("en", flat) and "再加" not in eight.explain("zh", flat)
    assert "2 more tai" in REGISTRY["dealer"].explain("en", flat) and "多兩台" in REGISTRY["dealer"].explain("zh", flat)
    pull = REGISTRY["streak_pull"]
    assert "連N拉N" not in pull.explain("en", flat) + pull.explain("zh", flat)  # 2 and 2 make no 連N拉N
    assert "連N拉N" in pull.explain("zh", default)
