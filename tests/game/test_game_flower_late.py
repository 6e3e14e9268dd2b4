"""A flower laid late (spec §2.6: a flower is laid at once when drawn and never kept hidden; the tracker flags
one seen in a concealed hand), and a claim's turn staying discard only through it (§2.8.5)."""

from __future__ import annotations

import pytest
from game_support import face_down_table, t, tiles

from companion.app.table_model import table_frame
from companion.app.words import Words
from companion.game import events as ev
from companion.game.check import step
from companion.game.state import ActKind, TableState
from companion.game.text import IllegalEvent
from companion.tiles import Tile

U = Tile.UNKNOWN


def _after_pung() -> TableState:
    """Seat 1 pungs the dealer's 5p holding a flower face down (kept hidden since the deal)."""
    state = face_down_table({0: "123m456m789m11p234p66p5p", 1: "55p123s456s789s11z22z"})
    state = step(state, ev.Discarded(seat=0, tile=t("5p")))
    return step(state, ev.Punged(seat=1, tile=t("5p")))


def test_no_flower_is_laid_after_a_chow_or_pung_and_the_turn_stays_discard_only() -> None:
    """§2.8.5: the claimer discards without drawing. A late flower there was taken, made his turn one with a
    replacement (自摸 and 槓上開花 accepted), and a pung outranking his chow then took the flower off the table."""
    state = _after_pung()
    with pytest.raises(IllegalEvent) as info:
        step(state, ev.FlowerReplaced(seat=1, flowers=tiles("1f"), replacements=tiles("1z")))
    assert info.value.reason.key == "flower_after_claim" and "乙" in info.value.reason.zh
    assert "next draw" in info.value.reason.en
    win = ev.Won(seat=1, kind=ev.WinKind.SELF_DRAW, tile=t("1z"), concealed=tiles("123s456s789s1z22z0x"))
    with pytest.raises(IllegalEvent) as info:
        step(state, win)
    assert info.value.reason.key == "after_claim"
    state = step(state, ev.Discarded(seat=1, tile=t("1z")))
    # at his next draw the flower he held back is laid, and flagged
    for seat in (2, 3, 0):
        state = step(step(state, ev.Drew(seat=seat, tile=U)), ev.Discarded(seat=seat, tile=t("9m")))
    state = step(state, ev.Drew(seat=1, tile=t("9s")))
    late = step(state, ev.FlowerReplaced(seat=1, flowers=tiles("1f"), replacements=tiles("0x")))
    assert [w.key for w in late.warnings] == ["flower_late"] and late.act is ActKind.FLOWER


def test_a_flower_kept_hidden_and_laid_after_a_known_draw_is_flagged() -> None:
    state = face_down_table({0: "123m456m789m11p234p66p5p", 1: "123s456s789s11z22z9m"})
    state = step(state, ev.Discarded(seat=0, tile=t("5p")))
    state = step(state, ev.Drew(seat=1, tile=t("9m")))
    late = step(state, ev.FlowerReplaced(seat=1, flowers=tiles("2f"), replacements=tiles("1z")))
    assert [w.key for w in late.warnings] == ["flower_late"]
    assert late.act is ActKind.FLOWER  # a turn of his own: its replacement may still win (§2.6)
    # the table sees it: the Table and Live tabs' felt strip says it in both languages
    frame = table_frame(late, Words("", ""), (), 0, 0, None)
    assert frame.warnings == (Words(late.warnings[0].zh, late.warnings[0].en),)


@pytest.mark.parametrize("drawn", ["3f", "0x"])
def test_the_flower_just_drawn_is_not_flagged(drawn: str) -> None:
    """The flower drawn, or a tile drawn face down (it may have been the flower), laid at once: no flag."""
    state = face_down_table({0: "123m456m789m11p234p66p5p"})
    state = step(state, ev.Discarded(seat=0, tile=t("5p")))
    state = step(state, ev.Drew(seat=1, tile=t(drawn)))
    state = step(state, ev.FlowerReplaced(seat=1, flowers=tiles("3f"), replacements=tiles("4f")))
    state = step(state, ev.FlowerReplaced(seat=1, flowers=tiles("4f"), replacements=tiles("0x")))
    assert state.warnings == ()
    assert state.act is ActKind.FLOWER
    assert table_frame(state, Words("", ""), (), 0, 0, None).warnings == ()


def test_two_flowers_laid_at_once_in_play_are_flagged() -> None:
    """In play one flower comes at a time: two laid together means one of them was held back."""
    state = face_down_table({0: "123m456m789m11p234p66p5p"})
    state = step(state, ev.Discarded(seat=0, tile=t("5p")))
    state = step(state, ev.Drew(seat=1, tile=U))
    state = step(state, ev.FlowerReplaced(seat=1, flowers=tiles("3f5f"), replacements=tiles("0x0x")))
    assert [w.key for w in state.warnings] == ["flower_late"]


def test_a_flower_laid_after_a_claim_in_a_log_kept_before_the_rule_replays_as_kept() -> None:
    """Logs and table files kept while the Live tab still offered it (a review: they stopped opening)."""
    from companion.game.check_win import replaying

    with replaying():
        state = step(_after_pung(), ev.FlowerReplaced(seat=1, flowers=tiles("1f"), replacements=tiles("1z")))
    assert [w.key for w in state.warnings] == ["flower_late"]
