"""A teaching review checked the Learn tab, ``waits``, ``shanten``, ``discard`` and ``tai --explain`` against each
other: one name for how far a hand is from ready, the app's notes in the CLI, the unseen counts always, 獨聽 with its
shape, the house-rule marks of eight flowers on a completed hand, and one name for one platform."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.words import ui
from companion.cli import main
from companion.english import all_four
from companion.hand import Hand
from companion.rules.efficiency import discard_options
from companion.tiles import Tile


def _out(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(list(args)) == 0
    return capsys.readouterr().out


def _tai(capsys: pytest.CaptureFixture[str], tmp_path: Path, win: dict[str, object], *args: str) -> str:
    path = tmp_path / "win.json"
    path.write_text(json.dumps(win), encoding="utf-8")
    main(["tai", str(path), *args])
    return capsys.readouterr().out


def test_shanten_says_useful_draws_as_waits_and_my_hand_do(capsys: pytest.CaptureFixture[str]) -> None:
    """``shanten`` said "1 step from ready" where ``waits`` and My hand say "1 useful draw from ready"."""
    from companion.app.hand_model import HandPanel, analyse

    hand = "45m234s789s7p9p kong:6666m@R pung:999p@O"
    shanten_en = _out(capsys, "shanten", "--lang", "en", hand)
    waits_en = _out(capsys, "waits", "--lang", "en", hand)
    assert "1 useful draw from ready" in shanten_en and "1 useful draw from ready" in waits_en
    assert "step" not in shanten_en
    panel = analyse("45m234s789s7p9p1z kong:6666m@R pung:999p@O")
    assert isinstance(panel, HandPanel) and "useful draw" in panel.headline.en
    assert not any("step" in c.reason.en for c in panel.choices)
    assert "step" not in ui("glossary").en.split("\n")[0]


def test_all_four_of_an_honour_is_plural() -> None:
    assert all_four(["北"], [Tile.from_code("4z").said_en]) == ("北四張", "all four North winds (4z)")
    assert all_four(["一萬"], ["1m"])[1] == "all four 1m"


def test_waits_tells_of_four_honours_held_and_always_counts_unseen(capsys: pytest.CaptureFixture[str]) -> None:
    """Four East held read only 「未聽牌（還差一張才聽，一向聽）」 where My hand says what they can be; and without
    --visible no unseen copies were said, where the app always counts them (the player's own as seen, spec §3.5)."""
    east = Tile.from_code("1z")
    held = ui("four_honours_held", tile=east.zh, tile_en=east.said_en)
    assert _out(capsys, "waits", "--lang", "zh", "1m234p567p789s99s1111z").rstrip().endswith(held.zh)
    assert _out(capsys, "waits", "--lang", "en", "1m234p567p789s99s1111z").rstrip().endswith(held.en)
    said = _out(capsys, "waits", "--lang", "en", "123m456m789m123p44p56s")
    assert "4s [two-sided] 4 left" in said and "7s [two-sided] 4 left" in said
    assert "剩 4 張" in _out(capsys, "waits", "--lang", "zh", "123m456m789m123p44p56s")
    # the player's own copies are seen: 5s and 6s held, 4s and 7s four each; 4p held twice
    assert "4p[" not in said


def test_a_tile_held_twice_breaks_the_pair_the_player_sees() -> None:
    """Discard quiz 1: 1p of 1p1p2p3p3p… read "breaks a partial set" (the split's 13p) beside the pair 11p in hand."""
    options = discard_options(Hand.parse("1p1p2p3p3p4p4p4p5p6p7p8p8p8p9p9p9p"))
    one = next(o for o in options if o.discard.code == "1p")
    assert "(breaks a pair)" in one.reason_en and "（拆對子）" in one.reason_zh


LINE = {"concealed": "123m456m234p678p46s88s", "win_tile": "5s", "win_type": "discard", "seat_wind": "W",
        "round_wind": "S", "discarder": "S"}


def test_the_dealer_tai_of_a_line_the_dealer_has_no_part_in_is_zero(capsys: pytest.CaptureFixture[str],
                                                                     tmp_path: Path) -> None:
    result = json.loads(_tai(capsys, tmp_path, LINE))
    assert result["dealer_in"] is False and result["dealer_tai"] == 0
    assert [p["dealer_tai"] for p in result["payments"]] == [0]
    dealer = json.loads(_tai(capsys, tmp_path, {**LINE, "discarder": "E"}))
    assert dealer["dealer_in"] is True and dealer["dealer_tai"] == 1


def test_a_hand_that_is_no_win_is_said_alike_and_pairs_are_told_they_are_none(capsys: pytest.CaptureFixture[str],
                                                                              tmp_path: Path) -> None:
    err = json.loads(_tai(capsys, tmp_path, {**LINE, "win_tile": "1m"}))["error"]
    assert err["message"].startswith("not a win: 123456m234678p4688s win=1m@L: ")
    assert err["message_zh"].startswith("不是胡牌：123456m234678p4688s win=1m@L：")
    pairs = {**LINE, "concealed": "1122m3344p5566s77z15z", "win_tile": "1z"}
    err = json.loads(_tai(capsys, tmp_path, pairs))["error"]
    note = ui("pairs_not_win")
    assert err["message"].endswith(note.en) and err["message_zh"].endswith(note.zh)
    assert not json.loads(_tai(capsys, tmp_path, {**LINE, "win_tile": "1m"}))["error"]["message"].endswith(note.en)


def test_explain_names_the_single_waits_shape_and_its_tiles_as_the_rest_does(capsys: pytest.CaptureFixture[str],
                                                                           tmp_path: Path) -> None:
    """獨聽 carries its shape as the app's screens say it (spec §3.6); the English said "5 Bamboo" on one line and
    5s on the others."""
    zh = _tai(capsys, tmp_path, LINE, "--explain", "--lang", "zh")
    assert "\n獨聽（中洞）" in zh
    en = _tai(capsys, tmp_path, LINE, "--explain", "--lang", "en")
    assert "\nSingle wait (closed) " in en
    assert "Bamboo" not in en and "Won on: 5s, discarded by South" in en and "\nWaits: 5s\n" in en


def test_eight_flowers_on_a_completed_hand_marks_no_item_a_house_rule(capsys: pytest.CaptureFixture[str],
                                                                       tmp_path: Path) -> None:
    """Spec §5.4 item 5 doubts only what a standalone 八仙過海 adds: a hand completed on the replacement had every
    item marked "(house rule)"."""
    compound = {"concealed": "123m456m789m123p44p56s", "win_tile": "7s", "win_type": "self_draw", "seat_wind": "S",
                "round_wind": "E", "flowers": "12345678f", "flags": {"replacement_after": "flower"}}
    items = json.loads(_tai(capsys, tmp_path, compound))["items"]
    assert {i["id"] for i in items} >= {"menqing", "zimo", "seat_flower", "kong_bloom", "eight_flowers"}
    assert not any(i["house_rule"] for i in items), items
    standalone = {k: v for k, v in compound.items() if k not in ("win_tile", "flags")} | {
        "win_type": "eight_flowers"}
    items = json.loads(_tai(capsys, tmp_path, standalone))["items"]
    assert [(i["id"], i["house_rule"]) for i in items] == [("eight_flowers", True)]


def test_the_star_31_platform_has_one_name_on_its_learn_card() -> None:
    from companion.app.learn_model import learn_items
    from companion.rules.profiles import load_profile

    name = load_profile("star31").name_en
    card = next(i for i in learn_items() if i.id == "ready_on_self_draw")
    assert card.example is not None
    for text in (card.explain.en, card.example.note.en):
        assert name in text, text
        assert text.count("Star 31") == 1 and text.count("Mingxing") == 1, text
