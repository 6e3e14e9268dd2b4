"""One folding of the names players give (rule sets, tile sets, players): two names that show alike are one."""

from __future__ import annotations

import pytest

from companion.game.check import visible_name
from companion.names import name_key, shown_name
from companion.vision import calibration


@pytest.mark.parametrize("twin", ["Home  rules", "Home rules\ufe0f", "Home\u034f rules", " Home rules ",
                                  "Home\u200b rules", "Ｈｏｍｅ rules", "HOME\u3000RULES", "Home\trules",
                                  "Home\u2800 rules", "Home\u00a0rules"])
def test_names_that_show_alike_share_a_key(twin: str) -> None:
    assert name_key(twin) == "home rules"


@pytest.mark.parametrize("blank", ["\u3164", "\u2800", "\u115f", "\uffa0", "\u200b\ufe0f", " \u034f "])
def test_a_name_of_fillers_and_blanks_shows_nothing(blank: str) -> None:
    assert shown_name(blank) == "" and name_key(f"家裡{blank}") == "家裡"


def test_a_shown_name_keeps_its_case_and_its_marks() -> None:
    assert shown_name("  Lin\u200b  Mei ") == "Lin Mei" and shown_name("lin") != shown_name("Lin")
    assert shown_name("Cafe\u0301") == "Café"  # (an accent shows: kept, as NFKC composes it)
    assert name_key("Lin") == name_key("lin")


def test_players_tile_sets_and_rule_sets_fold_names_alike() -> None:
    assert visible_name("阿東\ufe0f ") == "阿東" and visible_name("小  南") == "小 南"
    assert visible_name("Lin") != visible_name("lin")  # (two players' names a table writes apart)
    assert calibration.name_key("Home\u3164") == name_key("home")
    assert calibration.twin_of("Home  set", ["Home set"]) == "Home set"


def test_the_rule_set_model_folds_names_without_the_vision_layer() -> None:
    """The rule-set model took its name folding from the tile-set calibration, which pulled cv2 and numpy into the
    Settings tab's rule sets."""
    import subprocess
    import sys

    code = ("import sys, companion.app.rule_sets_model; "
            "print(sorted(m for m in ('cv2', 'companion.vision.calibration') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip() == "[]"
