"""A kong typed as four tiles among the hand's own on the Score-a-photo tab: each of the four counts, so the hand
is one tile over, and the count's reason ("a kong's fourth not counted") read as if the app had miscounted; it now
says how a kong is typed (a review)."""

from __future__ import annotations

from companion.app.photo_model import PhotoContext, PhotoFailed, PhotoPanel, score_typed_hand
from companion.app.words import ui


def test_four_alike_typed_among_the_hands_tiles_say_how_to_type_a_kong() -> None:
    context = PhotoContext().as_context()
    got = score_typed_hand("123m456m789m123p55s 7777z", context)
    assert isinstance(got, PhotoFailed)
    assert got.reason == ui("typed_count", n=18, want=17) + ui("typed_count_kong", tiles="7777z", one="7777z")
    assert "ckong:7777z" in got.reason.en and "ckong:7777z" in got.reason.zh
    for typed in ("123m456m789m123p55s ckong:7777z", "123m456m789m123p55s kong:7777z"):  # as it says: scored
        assert isinstance(score_typed_hand(typed, context), PhotoPanel)


def test_a_count_off_for_another_reason_says_no_kong() -> None:
    """Four alike that are not why the count is off (a tile too many besides them) are not blamed."""
    got = score_typed_hand("123m456m789m123p55s 7777z 9p", PhotoContext().as_context())
    assert isinstance(got, PhotoFailed) and got.reason == ui("typed_count", n=19, want=17)


def test_two_kongs_typed_as_fours_are_both_named() -> None:
    got = score_typed_hand("123m456m789p55s 7777z 1111s", PhotoContext().as_context())
    assert isinstance(got, PhotoFailed)
    assert got.reason == ui("typed_count", n=19, want=17) + ui("typed_count_kong", tiles="1111s、7777z",
                                                               tiles_en="1111s, 7777z", one="1111s")
