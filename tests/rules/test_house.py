"""Items marked "house rule" (spec §5.4): each uncertain reading of the default profile, on a hand it touches."""

from __future__ import annotations

import dataclasses

from companion.rules.house import house_reading
from companion.rules.profiles import load_profile
from companion.rules.scoring import score
from companion.rules.win import Replacement, Win


def _ids(win: Win, profile: object = None) -> tuple[list[str], list[str], list[str]]:
    s = score(win, profile)  # type: ignore[arg-type]
    h = house_reading(s)
    assert h.flagged <= {i.id for i in s.items}  # only items the hand scores are marked
    return [i.id for i in s.items], sorted(h.flagged), [i.id for i in h.otherwise]


def test_a_hand_with_nothing_uncertain_marks_nothing() -> None:
    items, flagged, otherwise = _ids(Win.of("111222333m456m789m9m", "9m", "self_draw", seat_wind="S"))
    assert "full_flush" in items and flagged == [] and otherwise == []


def test_the_winds_beside_small_four_winds_are_marked_not_the_hand_itself() -> None:
    """§5.4 item 2: whether 門風 / 圈風 add to 小四喜. Another reading drops them; 小四喜 stays either way."""
    items, flagged, _ = _ids(Win.of("333z444z22z345s67s", "8s", "discard", melds=["pung:111z@O"], seat_wind="W",
                                    round_wind="N", discarder="S"))
    assert {"small_winds", "seat_wind", "round_wind"} <= set(items)
    assert flagged == ["round_wind", "seat_wind"]


def test_a_single_wait_beside_all_seek_is_marked() -> None:
    win = Win.of("5p", "5p", "discard", melds=["chow:123m@L", "chow:456m@L", "pung:777s@O", "pung:999p@R",
                                                "chow:234s@L"], seat_wind="S", discarder="E")
    items, flagged, _ = _ids(win)
    assert {"all_seek", "single_wait"} <= set(items) and "single_wait" in flagged


def test_plain_hand_on_a_concealed_hand_is_marked_not_the_seat_wind() -> None:
    """§5.4 item 3: 平胡 on a 門清 hand (another reading forbids it). Item 1, who sits East, is the seating's: with
    the seat wind given, 門風 and 正花 are certain."""
    items, flagged, _ = _ids(Win.of("123m456m234p678p45s88s", "3s", "discard", seat_wind="W", round_wind="S",
                                    discarder="S"))
    assert items == ["menqing", "pinghu"] and flagged == ["pinghu"]
    items, flagged, _ = _ids(Win.of("111z234m456m789p22s67s", "8s", "discard", flowers="15f", seat_wind="E",
                                    discarder="S"))
    assert {"seat_wind", "seat_flower"} <= set(items) and flagged == []


def test_an_uncertain_value_is_marked_heavenly_win() -> None:
    """§5.4 item 4: 天胡's value (16, 24, 32 or 36 in the sources)."""
    win = Win.of("123m456m789m234p66s78s", "9s", "self_draw", seat_wind="E", dealer="E", heavenly=True)
    items, flagged, _ = _ids(win)
    assert "heaven_win" in items and "heaven_win" in flagged


def test_kong_bloom_with_the_last_tile_both_ways() -> None:
    """§5.4 item 6. The default stacks them, so 海底撈月 is marked; a profile that does not stack them leaves it
    out, and says another reading would add it."""
    win = Win.of("123m456m789p22s78s", "9s", "self_draw", melds=["ckong:5555z"], seat_wind="S",
                 replacement=Replacement.CKONG, last_tile=True)
    items, flagged, otherwise = _ids(win)
    assert {"kong_bloom", "last_tile"} <= set(items) and "last_tile" in flagged and otherwise == []
    default = load_profile(None)
    apart = dataclasses.replace(default, switches={**default.switches, "kong_bloom_with_last_tile": False})
    items, flagged, otherwise = _ids(win, apart)
    assert "kong_bloom" in items and "last_tile" not in items and otherwise == ["last_tile"]


def test_a_profile_that_lists_no_house_rules_marks_nothing() -> None:
    default = load_profile(None)
    sure = dataclasses.replace(default, house_rules=())
    _, flagged, otherwise = _ids(Win.of("333z444z22z345s67s", "8s", "discard", melds=["pung:111z@O"],
                                        seat_wind="W", round_wind="N", discarder="S"), sure)
    assert flagged == [] and otherwise == []


def test_an_item_is_marked_when_the_other_reading_falls_under_the_minimum() -> None:
    """With a minimum of 3 tai, 門清 + 平胡 is exactly 3; where 平胡 is not allowed on a concealed hand it is a 詐胡:
    the reading still decides 平胡 here, so it is marked (what the 詐胡 claimed is compared)."""
    default = load_profile(None)
    strict = dataclasses.replace(default, switches={**default.switches, "min_tai": 3},
                                 house_rules=tuple(h for h in default.house_rules if h != "tai.pinghu"))
    _, flagged, _ = _ids(Win.of("123m456m234p678p45s88s", "3s", "discard", seat_wind="W", round_wind="S",
                                discarder="S"), strict)
    assert flagged == ["pinghu"]


def test_plain_hand_is_always_a_house_rule_of_the_default() -> None:
    """§5.4 item 3: 平胡's conditions differ from table to table, so it is marked on an open hand too."""
    items, flagged, _ = _ids(Win.of("456m234p678p45s88s", "3s", "discard", melds=["chow:123m@L"], seat_wind="W",
                                    round_wind="S", discarder="S"))
    assert "pinghu" in items and flagged == ["pinghu"]


def test_a_switch_the_score_never_reads_cannot_change_it() -> None:
    """Only the switches a score reads are tried the other way (and the plan's, read once a profile): every
    other one, set to each of its values, scores each of these hands the same."""
    from companion.rules.house import _read_by
    from companion.rules.profiles._schema import SWITCHES

    default = load_profile(None)
    wins = [Win.of("333z444z22z345s67s", "8s", "discard", melds=["pung:111z@O"], seat_wind="W", round_wind="N",
                   discarder="S"),
            Win.of("123m456m234p678p45s88s", "3s", "discard", seat_wind="W", round_wind="S", discarder="S"),
            Win.of("123m456m789p22s78s", "9s", "self_draw", melds=["ckong:5555z"], seat_wind="S",
                   replacement=Replacement.CKONG, last_tile=True),
            Win.of("111222333m444555m6m", "6m", "self_draw", seat_wind="E", dealer="E", streak=2)]
    for win in wins:
        sc = score(win, default)
        read = _read_by(sc)
        for name, spec in SWITCHES.items():
            if name in read or spec.kind not in ("bool", "choice"):
                continue
            for value in (True, False) if spec.kind == "bool" else spec.choices:
                other = dataclasses.replace(default, switches={**default.switches, name: value})
                assert [(i.id, i.tai) for i in score(win, other).items] == [(i.id, i.tai) for i in sc.items], name


def test_a_rule_is_said_as_the_app_says_yes_and_no_and_a_name_with_a_colon_quoted() -> None:
    """A review read "(its rule: Plain hand: no honours, no flowers)", two colons stacked, and a switch that is off
    said 「…：不算」 where the app's house rules say 否 / no. A reading of house rules says a switch with the one helper
    the rule sets' own words use (_schema.switch_said), a yes as the switch's name alone (``yes_named``): the two
    were near-copies, and the reading said a cap of none 「滿台：none」."""
    from companion.rules.profiles._schema import switch_said

    plain = ("平胡無字無花", "\u201cPlain hand: no honours, no flowers\u201d")
    assert switch_said("pinghu_check_honours_flowers", True, yes_named=True) == plain
    assert switch_said("pinghu_check_honours_flowers", False, yes_named=True) == (f"{plain[0]}：否", f"{plain[1]}: no")
    assert switch_said("draw_keeps_deal", False, yes_named=True) == ("流局莊家連莊：否", "The dealer keeps the deal after a draw: no")
    assert switch_said("draw_keeps_deal", True, yes_named=True) == ("流局莊家連莊", "The dealer keeps the deal after a draw")
    assert switch_said("tai_cap", "none", yes_named=True) == ("滿台：不限", "Tai cap: no cap")
    # the rule sets' own words: a yes said as a yes, a choice, a number, none and an instant win by their names
    assert switch_said("draw_keeps_deal", True) == ("流局莊家連莊：是", "The dealer keeps the deal after a draw: yes")
    assert switch_said("multi_win", "all") == ("一炮多響：都胡", "Several winners on one discard: all of them win")
    assert switch_said("min_tai", 5) == ("起胡台數：5", "Minimum tai: 5")
    assert switch_said("tai_cap", None) == ("滿台：不限", "Tai cap: no cap")
    assert switch_said("seven_rob_one", False) == ("七搶一：不算", "Seven rob one: off")


def test_a_switch_named_with_a_colon_is_listed_with_its_value_once() -> None:
    """A switch whose English name holds a colon was listed with part of its name as its value: "House rules: plain
    hand: no honours, no flowers (no honours, no flowers: no)" (companion tai --explain of a line that switched
    it). Listed, its name is quoted and its value said once."""
    from companion.rules.profiles._schema import switch_listed

    assert switch_listed("pinghu_check_honours_flowers", False) == (
        "平胡無字無花（否）", "\u201cplain hand: no honours, no flowers\u201d (no)")
    assert switch_listed("multi_win", "all") == ("一炮多響（都胡）", "several winners on one discard (all of them win)")


def test_a_doubt_the_parent_lists_and_the_set_settles_is_noted_not_marked() -> None:
    """A house-rules review: under sml_2026 (門清無平胡) a concealed plain hand scored 門清 1 with no word on the
    平胡 that the default counts and notes; the note the default gives the opposite case is given, and nothing is
    marked "house rule" for it (SML settles it)."""
    sml = score(Win.of("123m456m234p678p45s88s", "3s", "discard", seat_wind="W", round_wind="S", discarder="S",
                       profile="sml_2026"))
    assert [i.id for i in sml.items] == ["menqing"]
    reading = house_reading(sml)
    assert [i.id for i in reading.otherwise] == ["pinghu"] and "menqing" not in reading.flagged
    assert reading.because[0][1].endswith(": no")
    default = score(Win.of("123m456m234p678p45s88s", "3s", "discard", seat_wind="W", round_wind="S", discarder="S"))
    assert house_reading(default).otherwise == ()  # (the default counts it: marked, nothing left out)
