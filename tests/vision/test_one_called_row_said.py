"""The note on a row taken as called only for lying apart, where the row is one meld: it said "row 2 taken as called
pungs (pung of 3 Red dragons) ...; were they not called", plural for one pung (a review of the photo's notes)."""

from __future__ import annotations

from companion.rules.profiles import load_profile
from companion.vision.hand_score import score_photo
from tests.vision.test_hand_score import laid


def test_one_meld_apart_is_said_in_the_singular() -> None:
    got = score_photo(laid([(100, ["123m456m789m12p55s", "3p"]), (200, ["777z"])]), {}, load_profile(None))
    said = [n for n in got.doubts if "only because it lies apart" in n.en]
    assert len(said) == 1 and said[0].en.startswith("row 2 taken as a called pung (pung of 3 Red dragons)")
    assert "; were it not called, the hand would be" in said[0].en and "called pungs" not in said[0].en
