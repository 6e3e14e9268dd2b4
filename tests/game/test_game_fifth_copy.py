"""A win is checked against every copy the table has seen (spec: an impossible table, a fifth copy of a tile, is
refused with the reason), not only the winner's own tiles: hands kept face down show their tiles only at the win."""

from __future__ import annotations

from game_support import face_down_table, t, tiles

from companion.game import events as ev
from companion.game.check import step
from companion.game.text import IllegalEvent


def _won(state, seat: int, tile: str, concealed: str) -> IllegalEvent | None:  # type: ignore[no-untyped-def]
    try:
        step(state, ev.Won(seat=seat, kind=ev.WinKind.DISCARD, tile=t(tile), concealed=tiles(concealed)))
    except IllegalEvent as bad:
        return bad
    return None


def test_no_win_on_the_tile_of_an_honours_kong_with_a_pair_of_it() -> None:
    """A review: after a kong of 1z, a win shown with a pair of 1z went through (five copies)."""
    state = face_down_table({0: "123m456m789m11p234p66p1z"})
    state = step(state, ev.Discarded(seat=0, tile=t("1z")))
    state = step(state, ev.ExposedKong(seat=2, tile=t("1z")))  # his three 1z shown now
    bad = _won(state, 3, "1z", "11z22z123m456p789p123s")
    assert bad is not None and bad.reason.key == "fifth_copy" and "東" in bad.reason.zh and "East wind" in bad.reason.en


def test_a_win_in_a_chow_on_a_kongs_tile_is_taken() -> None:
    """The fourth 5p, with the kong player's three: a chow 456p may still win on it (§2.9: a win outranks a kong)."""
    state = face_down_table({0: "123m456m789m11p234p66p5p"})
    state = step(state, ev.Discarded(seat=0, tile=t("5p")))
    state = step(state, ev.ExposedKong(seat=2, tile=t("5p")))
    assert _won(state, 3, "5p", "46p123s456s789s111z22z") is None


def test_copies_in_the_discards_count() -> None:
    state = face_down_table({0: "123m456m789m11p234p66p9s"})
    state = step(state, ev.Discarded(seat=0, tile=t("9s")))
    # one 9s seen, the one on offer: a pair of 9s may win on it
    assert _won(state, 1, "9s", "99s22z123m456p789p123s") is None
    for s in (1, 2):  # two more 9s discarded, the last on offer: a pair of 9s shown would make five
        state = step(step(state, ev.Drew(seat=s, tile=t("0x"))), ev.Discarded(seat=s, tile=t("9s")))
    bad = _won(state, 3, "9s", "99s22z123m456p789p123s")
    assert bad is not None and bad.reason.key == "fifth_copy" and "5 張九條" in bad.reason.zh
