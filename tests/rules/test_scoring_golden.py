"""Golden cases of tests/data/scoring/*.toml: hand-written from the spec, each citing its section, scored as
``companion tai`` scores a line (a 八仙過海 of 17 tiles has its replacement named first)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from companion.rules.profiles import Profile, load_profile, parse_profile
from companion.rules.scoring import FalseWin, NotAWin, replacement_named, score
from companion.rules.settlement import Stakes, settle, settle_false_win, wind_letter
from companion.rules.win import Win, WinInputError
from companion.tiles import format_tiles

DATA = Path(__file__).resolve().parent.parent / "data" / "scoring"
FILES = sorted(DATA.glob("*.toml"))


def _cases() -> list[Any]:
    out = []
    for path in FILES:
        for case in tomllib.loads(path.read_text(encoding="utf-8"))["case"]:
            out.append(pytest.param(case, id=f"{path.stem}:{case['id']}"))
    return out


CASES = _cases()


def _profile(case: dict[str, Any]) -> Profile:
    base = case.get("profile", "atawmj_2009")
    if "tai" not in case and "switches" not in case:
        return load_profile(base)
    record = {"id": f"golden_{case['id']}", "inherits": base, "tai": case.get("tai", {}),
              "switches": case.get("switches", {})}
    return parse_profile(record, f"golden case {case['id']}")


def _payments(settlement: Any) -> list[dict[str, Any]]:
    return [{"payer": wind_letter(p.payer), "tai": p.tai, "amount": p.amount} for p in settlement.payments]


def test_golden_files_exist() -> None:
    assert len(FILES) >= 4
    ids = [c.values[0]["id"] for c in CASES]
    assert len(ids) == len(set(ids)), "golden case ids must be unique"
    for c in CASES:
        assert c.values[0].get("spec", "").startswith("§"), f"{c.values[0]['id']} must cite the spec"


@pytest.mark.parametrize("case", CASES)
def test_golden(case: dict[str, Any]) -> None:
    error = case.get("error")
    if error == "input":
        with pytest.raises(WinInputError) as info:
            Win.from_dict(case["win"])
        assert info.value.field == case["error_field"]
        return
    win = Win.from_dict(case["win"])
    profile = _profile(case)
    stakes = Stakes(**case["stakes"]) if "stakes" in case else None
    if error in ("not_a_win", "false_win"):
        kind = FalseWin if error == "false_win" else NotAWin
        with pytest.raises(kind) as raised:
            score(win, profile)
        assert (error == "false_win") == isinstance(raised.value, FalseWin)
        assert win.describe() in str(raised.value)
        if "payments" in case:
            got = settle_false_win(win, stakes, profile, case.get("claimed_tai"))
            assert _payments(got) == case["payments"]
        return
    s = score(replacement_named(win, profile), profile)
    assert {i.id: i.tai for i in s.items} == case["items"]
    assert s.hand_tai == case["hand_tai"] == sum(case["items"].values())
    if "dealer_tai" in case:
        assert s.dealer_tai == case["dealer_tai"]
    if "capped_tai" in case:
        assert s.capped_tai == case["capped_tai"]
    if "waits" in case:
        assert format_tiles(s.waits) == format_tiles(win_tiles(case["waits"]))
    if "wait_shape" in case:
        assert s.to_dict()["wait_shape"] == case["wait_shape"]
    if "split" in case:
        assert s.to_dict()["decomposition"][: len(case["split"])] == case["split"]
    if "payments" in case:
        assert _payments(settle(s, win, stakes)) == case["payments"]


def win_tiles(text: str) -> tuple[Any, ...]:
    from companion.tiles import parse_tiles

    return parse_tiles(text)


def test_golden_cases_cover_every_item_and_scoring_switch() -> None:
    from companion.rules.profiles._schema import SWITCHES
    from companion.rules.tai import ITEMS, ItemKind

    cases = [c.values[0] for c in CASES]
    scored = {item for case in cases for item in case.get("items", {})}
    needed = {i.id for i in ITEMS.values() if i.kind is not ItemKind.RELATION}
    assert needed <= scored, f"items without a golden case: {sorted(needed - scored)}"
    assert any("dealer_tai" in c for c in cases)  # 莊家, 連莊, 拉莊 are the dealer tai
    switched = {name for case in cases for name in case.get("switches", {})}
    switched |= {name for case in cases if "profile" in case for name in load_profile(case["profile"]).own_switches}
    scoring_switches = {"pinghu_concealed_allowed", "pinghu_check_honours_flowers", "small_winds_adds_winds",
                        "seek_adds_single_wait", "heaven_earth_keep_zimo", "all_pungs_with_five_concealed",
                        "kong_bloom_with_last_tile", "eight_flowers_compound", "any_wind_pung_tai", "tai_cap",
                        "min_tai", "false_win_penalty", "declared_ready_tai", "discard_kong_replacement_win",
                        "streak_cap"}
    assert scoring_switches <= set(SWITCHES)
    assert scoring_switches <= switched, f"switches without a golden case: {sorted(scoring_switches - switched)}"


def test_a_17_tile_eight_flowers_is_8_flat_to_the_library_and_named_by_the_command() -> None:
    """The tracker asks the library for 8 flat where the completed hand does not count (declared later, a self-draw
    barred by 過水): ``score`` leaves 17 tiles without a winning tile alone; ``companion tai`` names the tile."""
    win = Win.from_dict({"concealed": "123m456m789m234p66s789s", "flowers": "12345678f", "win_type": "eight_flowers",
                         "seat_wind": "S", "round_wind": "E"})
    assert [i.id for i in score(win).items] == ["eight_flowers"]
    named = replacement_named(win)
    assert named.win_tile is not None and score(named).hand_tai == 19
    assert replacement_named(win, "atawmj_2009") == named
    no_hand = Win.from_dict({**win.to_dict(), "concealed": "123m456m789m234p66s139s"})
    assert replacement_named(no_hand) is no_hand and score(no_hand).hand_tai == 8


def test_eight_flowers_at_the_deal_is_pointed_to_its_self_draw() -> None:
    """A change review: 八仙過海 typed with 天胡 was refused saying only what 天胡 is. The refusal says how to enter
    it: the self-draw with its eight flowers, scored 天胡 and 8."""
    hand = {"concealed": "123m456m789m234p66s789s", "flowers": "12345678f", "win_type": "eight_flowers",
            "seat_wind": "E", "round_wind": "E", "flags": {"heavenly": True}}
    with pytest.raises(WinInputError, match="give it as a self_draw") as info:
        Win.from_dict(hand)
    assert "寫成 self_draw" in info.value.message_zh
    drawn = Win.from_dict({**hand, "concealed": "123m456m789m234p66s78s", "win_tile": "9s", "win_type": "self_draw"})
    assert {"heaven_win", "eight_flowers"} <= {i.id for i in score(drawn).items}
