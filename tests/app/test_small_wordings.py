"""Small wordings a two-language review found: a prompt that doubled the East player's default name, a refusal that
went on with a capital after "Not allowed:", a heading joined by the full-width space in English, and a paper size
left in English in the Chinese UI."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import flet as ft

from companion.app.learn_model import learn_items
from companion.app.ui_kit import ID_LEARN_TITLE
from companion.app.view_learn import LearnTab
from companion.app.words import ui


def test_the_first_dealer_prompt_does_not_double_the_default_east_name() -> None:
    for key in ("live_p_dealer", "live_p_dealer_one"):
        said = ui(key, east="東家")
        assert "東家 東家" not in said.zh and "東家東家" not in said.zh
        assert "東家" in said.zh and "東家" in said.en  # the player is still named


def test_the_bad_stakes_refusal_goes_on_in_lower_case_after_not_allowed() -> None:
    said = ui("live_stakes_bad", base="x", per_tai="1")
    assert said.en[0].islower()


def test_the_sheet_download_names_the_paper_in_chinese() -> None:
    zh = ui("set_sheet_letter").zh
    assert "Letter" not in zh and "信紙" in zh


class _Host:
    def __init__(self, lang: str) -> None:
        self.page: Any = SimpleNamespace(width=1280)
        self.lang = lang

    def t(self, words: Any) -> str:
        return str(getattr(words, self.lang))

    def render(self) -> None:
        pass


def _heading(tab: LearnTab) -> str:
    """The text of the card's heading (the node a screen reader and the tests know by its id)."""
    stack: list[Any] = [tab._card(learn_items()[0])]
    while stack:
        c = stack.pop()
        if isinstance(c, ft.Semantics) and c.identifier == ID_LEARN_TITLE and isinstance(c.content, ft.Text):
            return str(c.content.value)
        stack += [x for x in (getattr(c, "content", None), *(getattr(c, "controls", None) or ())) if x is not None]
    raise AssertionError("the card has no heading")


def test_the_learn_heading_is_chinese_in_chinese_and_both_names_in_english() -> None:
    item = learn_items()[0]
    assert _heading(LearnTab(_Host("en"))) == f"{item.name.zh}  {item.name.en}"  # two spaces in English
    assert _heading(LearnTab(_Host("zh"))) == item.name.zh  # it said "門清　Concealed hand" (a review)
    alt = {i.id: i for i in learn_items() if i.zh_alt}
    assert {i.heading.zh for i in alt.values()} >= {"全求（全求人）"}, sorted(i.heading.zh for i in alt.values())


def test_the_english_words_say_no_he_of_a_player() -> None:
    """An English host review read "he"/"his" of every player ("then he deals again", "tap his Win"): the English
    names the player, or says "that player", as the Live tab's "the tile they discard" does."""
    import re

    from companion.app.words import UI
    from companion.game.text import TEMPLATES

    said = {k: v[1] for k, v in UI.items()} | {k: v[1] for k, v in TEMPLATES.items()}
    assert [k for k, en in said.items() if re.search(r"\b(he|his|him|himself)\b", en, re.IGNORECASE)] == []
    assert ui("next_deal_unless_dealer", dealer="Carol", streak=2).en == (
        " (unless the dealer Carol wins on this tile as well: then Carol deals again, streak 2)")
    assert ui("live_p_nearer_wins", winner="Bob").en == (
        "Only the nearest wins: does a seat nearer than Bob also win on this tile? If so, tap that seat's Win: the "
        "nearer seat takes the win; if not, enter the next dealer's dice")


def test_the_ledger_kongs_label_says_what_0x_stands_for() -> None:
    """The Ledger's correction read "…(2, one tile each); 0x: one not named", too terse to tell what 0x is."""
    label = ui("ledger_fix_kongs", n=2) + ui("ledger_fix_kongs_unnamed")
    assert label.en == ("Concealed kongs shown at the win (2, one tile each); 0x stands for a concealed kong not named "
                        "at the win"), label
    assert label.zh == "胡牌時才亮出的暗槓（2 個，每個寫一張）；0x 代表胡牌時沒寫出是哪一種牌的暗槓", label
