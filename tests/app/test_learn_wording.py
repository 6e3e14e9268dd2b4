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
