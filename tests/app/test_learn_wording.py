"""The Learn cards' words read as the rules score (a teacher's review of the Learn tab)."""

from __future__ import annotations

import pytest

from companion.rules.profiles import load_profile
from companion.rules.tai import REGISTRY

# items a concealed kong changes, as the spec's §4.2 says: the card must say so, in each language ("a beginner
# reads 槓 as including 暗槓": the 半求 card said 「五組都是吃碰槓來的」 and the scorer refuses one with a 暗槓)
KONG_SAID = {
    "half_seek": ("有暗槓就不算", "a concealed kong breaks it"),
    "all_seek": ("有暗槓就不算", "a concealed kong breaks it"),
    "four_concealed": ("含暗槓", "pungs or kongs"),
    "five_concealed": ("含暗槓", "pungs or kongs"),
    "small_dragons": ("刻子或槓子", "pungs or kongs"),
    "earth_win": ("暗槓也算", "a concealed kong too"),
    "human_win": ("暗槓也算", "a concealed kong too"),
}


@pytest.mark.parametrize("item_id", sorted(KONG_SAID))
def test_a_card_says_what_a_kong_does_to_its_item(item_id: str) -> None:
    zh, en = KONG_SAID[item_id]
    default = load_profile(None)
    item = REGISTRY[item_id]
    assert zh in item.explain("zh", default), item.explain("zh", default)
    assert en in item.explain("en", default), item.explain("en", default)


def test_an_example_with_no_streak_says_so_in_words() -> None:
    """「…連莊 0」 read as a number to learn: 「沒有連莊」 / "no streak" (a teacher's review); a streak says its count."""
    from companion.app.learn_model import learn_items

    settings = {i.id: i.example.setting for i in learn_items() if i.example is not None}
    assert settings["seat_flower"].zh.endswith("，沒有連莊，西家放槍"), settings["seat_flower"].zh
    assert "the dealer East, no streak;" in settings["seat_flower"].en, settings["seat_flower"].en
    assert not any("連莊 0" in w.zh or "streak 0" in w.en for w in settings.values())
    assert "連莊 2" in settings["streak"].zh and "streak 2" in settings["streak"].en, settings["streak"]


def test_the_learn_intro_reads_in_english() -> None:
    from companion.app.words import ui

    intro = ui("learn_intro").en
    assert "items these rules don't count come last" in intro and "those these" not in intro, intro
