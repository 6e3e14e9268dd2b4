"""A winning hand typed on the Score-a-photo tab (no photo at hand) won by flowers: 八仙過海 and 七搶一 are instant
wins, with no winning tile and a hand of 16 between turns (spec §3.1, §4.2, §4.4). The form offers both as its 胡法,
and a photo of the same hand is scored so; typed, they were refused as "not a win: it needs 17 tiles", or, for a
dealer's 七搶一, with the rules' own field name (a review)."""

from __future__ import annotations

from companion.app.photo_model import PhotoContext, PhotoFailed, PhotoPanel, doubt_note, score_typed_hand
from companion.app.words import ui
from companion.rules.profiles import load_profile
from companion.rules.scoring import score
from companion.rules.win import Win
from companion.vision.hand_score import eight_flowers_note

HAND = "123m456m789m12p55s pung:777z@L"
"""16 tiles between turns (a called pung of 中): ready on 3p, not won."""


def _flat(result: PhotoPanel | PhotoFailed) -> PhotoPanel:
    assert isinstance(result, PhotoPanel), result.reason.en if isinstance(result, PhotoFailed) else result
    return result


def _only(panel: PhotoPanel, item: str) -> bool:
    """The panel's one item is ``item`` (marked where it is a house rule's)."""
    return len(panel.items) == 1 and panel.items[0][0].en.startswith(item)


def _rules(context: dict, flowers: str) -> int:
    """The hand tai ``companion tai`` gives the same instant win."""
    win = Win.from_dict({"concealed": "123m456m789m12p55s", "melds": ["pung:777z@L"], "flowers": flowers, **context})
    return score(win, load_profile(None)).hand_tai


def test_eight_flowers_picked_on_the_form_scores_the_typed_hand() -> None:
    context = PhotoContext(win_type="eight_flowers", seat_wind="S").as_context()
    got = _flat(score_typed_hand(f"{HAND} 12345678f", context))
    assert got.win_tile is None and got.flowers == tuple(f"{n}f" for n in range(1, 9))
    assert _only(got, "Eight flowers") and got.hand_tai == _rules(context, "12345678f") == 8
    assert len(got.payments) == 3  # settled as a self-draw: each of the three others pays
    assert got.notes == ()  # the form said so: nothing assumed


def test_seven_rob_one_picked_on_the_form_scores_the_typed_hand() -> None:
    context = PhotoContext(win_type="seven_flowers_rob", discarder="W", seat_wind="S").as_context()
    got = _flat(score_typed_hand(f"{HAND} 1234567f", context))
    assert _only(got, "Seven rob one") and got.hand_tai == _rules(context, "1234567f") == 8
    assert len(got.payments) == 1 and "West" in got.payments[0].en  # the player robbed pays alone


def test_a_dealers_seventeen_tiles_rob_the_eighth_flower() -> None:
    """The dealer holds 17 before his first discard: a 七搶一 then is his 17 tiles, no tile won on (spec §4.4); it was
    refused with "an instant win (seven_flowers_rob) has no winning tile", the rules' field value in the English."""
    context = PhotoContext(win_type="seven_flowers_rob", discarder="N").as_context()
    got = _flat(score_typed_hand("123m456m789m123p55s pung:777z@L 1234567f", context))
    assert _only(got, "Seven rob one") and got.win_tile is None


def test_sixteen_tiles_and_all_eight_flowers_typed_on_a_self_draw_are_eight_flowers() -> None:
    """The form's default (self-drawn) with 16 tiles and all eight flowers: the hand can only have been won on the
    eighth flower, as a photo of it is scored, and that is said, with the way to say 七搶一 instead."""
    context = PhotoContext(seat_wind="S").as_context()
    got = _flat(score_typed_hand(f"{HAND} 12345678f", context))
    assert _only(got, "Eight flowers") and got.win_tile is None
    assert got.notes == (doubt_note(eight_flowers_note(alone=False)),)  # as a photo of it says
    waiting = score_typed_hand(f"{HAND} 1234567f", context)  # seven flowers and 16 tiles: no win on a self-draw
    assert isinstance(waiting, PhotoFailed) and waiting.reason == ui("typed_not_win")


def test_eight_flowers_on_a_completed_hand_still_adds_the_hand() -> None:
    """The eighth flower's replacement completed the hand: 17 tiles, scored as won on it, and 8 added (spec §4.2)."""
    context = PhotoContext(win_type="eight_flowers", seat_wind="S").as_context()
    got = _flat(score_typed_hand("123m456m789m123p55s pung:777z@L 12345678f", context))
    assert got.win_tile is not None and "Eight flowers" in [w.en for w, _ in got.items] and got.hand_tai > 8


def test_the_flowers_alone_are_typed_for_a_win_paid_flat() -> None:
    """八仙過海 and 七搶一 pay flat, whatever the hand (spec §4.2, §4.4): the flowers alone typed, with the form's 胡法
    saying which, are scored, as ``companion tai`` scores them with no concealed tiles; on a self-draw they are
    still short of a hand."""
    for kind, flowers, item in (("eight_flowers", "12345678f", "Eight flowers"),
                                ("seven_flowers_rob", "1234567f", "Seven rob one")):
        context = PhotoContext(win_type=kind, discarder="W", seat_wind="S").as_context()
        got = _flat(score_typed_hand(flowers, context))
        assert _only(got, item) and got.hand_tai == 8 and got.concealed == () and got.melds == ()
    # on a self-draw all eight alone can only be 八仙過海, as a photo of them is; seven alone are no hand
    alone = _flat(score_typed_hand("12345678f", PhotoContext().as_context()))
    assert _only(alone, "Eight flowers") and alone.notes == (doubt_note(eight_flowers_note(alone=True)),)
    short = score_typed_hand("1234567f", PhotoContext().as_context())
    assert isinstance(short, PhotoFailed) and short.reason == ui("typed_count", n=0, want=17)


def test_a_winning_tile_named_is_not_dropped_for_eight_flowers() -> None:
    """A review: the eight flowers alone, 5m named as the winning tile, were scored Eight flowers, "won on the eighth
    flower", the tile named dropped; the photo's scorer and the typed hand now ask the same test, which a tile named
    fails."""
    import numpy as np

    from companion.app.photo_model import ReadPhoto, score_picked
    from companion.tiles import Tile
    from tests.vision.test_hand_score import laid

    read = ReadPhoto("f.jpg", np.full((300, 700, 3), 90, np.uint8), laid([(100, ["1234f", "5678f"])]))
    assert _only(_flat(score_picked(read, {}, PhotoContext().as_context())), "Eight flowers")
    shown = score_picked(read, {}, PhotoContext().as_context(), win_tile=Tile.M5)
    assert isinstance(shown, PhotoFailed), shown
    assert "5 Characters" in shown.reason.en and "五萬" in shown.reason.zh
    for typed in ("12345678f", f"{HAND} 12345678f"):
        assert isinstance(score_typed_hand(typed, PhotoContext().as_context(), win_tile=Tile.M5), PhotoFailed)


def test_a_winning_tile_named_for_the_flowers_alone_picked_on_the_form_is_refused_as_a_photo_is() -> None:
    """A review: the eight flowers alone typed, 八仙過海 (or 七搶一) chosen on the form and 5m named as the winning
    tile, were scored flat, the tile dropped unsaid, where a photo of them is refused naming it: now refused with the
    photo's words, said of the hand typed."""
    from companion.tiles import Tile

    for kind, flowers in (("eight_flowers", "12345678f"), ("seven_flowers_rob", "1234567f")):
        context = PhotoContext(win_type=kind, discarder="W", seat_wind="S").as_context()
        got = score_typed_hand(flowers, context, win_tile=Tile.M5)
        assert isinstance(got, PhotoFailed), got
        from companion.vision.hand_score import flowers_tile_said  # (the photo's words, shared)
        en, zh = flowers_tile_said(Tile.M5, len(flowers) - 1, typed=True)
        assert got.reason == ui("photo_failed", name=flowers, why=zh, why_en=en)
        assert "5 Characters" in got.reason.en and "五萬" in got.reason.zh and "won on no tile" in got.reason.en
        assert _only(_flat(score_typed_hand(flowers, context)), "Eight flowers" if len(flowers) == 9 else "Seven")
