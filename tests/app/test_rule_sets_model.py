"""House rule sets in the app (spec §5.1: "lets users clone a profile and edit values"): the rule dropdowns offer the
saved ones, the Settings tab's editor copies, edits, saves and deletes them through the store ``companion tai
--save-profile`` uses, refuses what cannot be had in both languages, and never re-prices a table already seated."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.app.live_model import LiveGame
from companion.app.photo_model import score_typed_hand
from companion.app.rule_sets_model import (
    FIELDS,
    GROUPS,
    MOST,
    RuleSetRefused,
    clone,
    delete,
    edit,
    rename,
    rule_set_options,
    rule_sets,
)
from companion.app.words import Words
from companion.game import events as ev
from companion.game.session import ledger_of
from companion.rules import profiles
from companion.rules.profiles import BUILTIN, load_profile
from companion.rules.profiles._schema import SWITCHES
from companion.rules.profiles._store import save_profile
from companion.rules.settlement import Stakes
from companion.rules.tai import ITEMS, SWITCH_VALUED
from companion.tiles import Tile

PLAYERS = ("阿東", "小南", "老西", "北北")
CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def _refused(call: object, *args: str) -> Words:
    assert callable(call)
    with pytest.raises(RuleSetRefused) as got:
        call(*args)
    words = got.value.words
    assert words.zh and words.en and words.zh != words.en  # said in both languages
    return words


def _home8() -> None:
    draft = clone("atawmj_2009", "home8", "家裡滿八台", "Home, cap 8")
    assert draft.set("switches.tai_cap", "8") is None
    draft.save()


def test_the_dropdowns_offer_the_house_rule_sets_saved_by_the_command_beside_the_built_in_ones(
        data: Path, tmp_path: Path) -> None:
    assert [pid for pid, _ in rule_set_options()] == list(BUILTIN)
    house = tmp_path / "home8.toml"
    house.write_text('id = "home8"\ninherits = "atawmj_2009"\nname_zh = "家裡滿八台"\nname_en = "Home, cap 8"\n'
                     "[switches]\ntai_cap = 8\n", encoding="utf-8")
    save_profile(house)  # as `companion tai --save-profile home8.toml`
    (data / "profiles" / "broken.toml").write_text("id = [", encoding="utf-8")  # a damaged file
    offered = dict(rule_set_options())
    assert list(offered) == [*BUILTIN, "home8"]  # built in first; the damaged one is never offered
    assert offered["home8"] == Words("家裡滿八台", "Home, cap 8")  # named by the profile, in both languages
    assert offered["atawmj_2009"] == Words(load_profile("atawmj_2009").name_zh, load_profile("atawmj_2009").name_en)
    broken = next(r for r in rule_sets() if r.id == "broken")  # listed in Settings, with why
    assert broken.problem is not None and not broken.builtin
    gone = dict(rule_set_options("home9"))["home9"]  # a rule set picked before and deleted since is said gone
    assert "home9" in gone.zh and "home9" in gone.en and not CJK.search(gone.en.replace("home9", ""))


def test_a_table_seated_under_a_house_rule_set_pays_as_the_scorer_does(data: Path) -> None:
    _home8()
    # 清一色 8 + 門清 1 = 9 tai on 西's discard: capped at 8, 30 + 8 x 10 = 110, as `companion tai --profile home8`
    hand = {"concealed": "1112345567789999m", "win_type": "discard", "discarder": "W", "dealer": "E",
            "seat_wind": "S", "round_wind": "E", "win_tile": "5m"}
    said = subprocess.run([sys.executable, "-m", "companion", "tai", "--profile", "home8", "--stakes", "30/10"],
                          input=json.dumps(hand), capture_output=True, text=True, check=True)
    assert json.loads(said.stdout)["total"] == 110
    context = {k: v for k, v in hand.items() if k not in ("concealed", "win_tile")}
    panel = score_typed_hand("1112345567789999m5m", context, Stakes(30, 10), "home8", Tile.from_code("5m"))
    assert not hasattr(panel, "why"), panel
    assert (panel.hand_tai, panel.capped_tai) == (9, 8)  # type: ignore[union-attr]
    assert any("110" in w.en for w in panel.payments)  # type: ignore[union-attr]
    game = LiveGame(data.parent / "table.sqlite", seed=5)
    assert game.start(PLAYERS, "home8", 30, 10) is None
    seated = game.events()[0]
    assert isinstance(seated, ev.Seated) and seated.profile == "home8" and "tai_cap = 8" in seated.rules
    game.close()


def test_a_copy_is_edited_and_saved_through_the_store_and_a_built_in_one_is_never_written(data: Path) -> None:
    draft = clone("star31", "home8", "家裡滿八台", "Home, cap 8")
    assert not draft.editing and draft.values["switches.tai_cap"] == load_profile("star31").switch("tai_cap")
    assert draft.set("switches.tai_cap", "8") is None
    assert draft.set("switches.min_tai", "2") is None
    assert draft.set("switches.small_winds_adds_winds", "true") is None
    assert draft.set("switches.false_win_penalty", "claimed_tai") is None
    assert draft.set("tai.full_flush", "10") is None
    assert draft.set("switches.any_wind_pung_tai", "1") is None
    assert draft.changed("tai.full_flush") and not draft.changed("tai.menqing")
    said = draft.save()
    assert "home8" in said.zh and "Home, cap 8" in said.en
    saved = load_profile("home8")
    star = load_profile("star31")
    assert saved.inherits == "star31"  # the built-in one copied: what it sets alike follows a new version
    assert (saved.switch("tai_cap"), saved.switch("min_tai"), saved.value("full_flush")) == (8, 2, 10)
    assert saved.switch("small_winds_adds_winds") is True and saved.switch("false_win_penalty") == "claimed_tai"
    assert saved.value("any_wind_pung") == 1
    assert saved.value("all_honours") == star.value("all_honours") and saved.value("heaven_win") == 24  # the copy's
    assert (saved.name_zh, saved.name_en) == ("家裡滿八台", "Home, cap 8")
    assert [p for p in rule_set_options() if p[0] == "home8"]
    copy = clone("home8", "home9", "家裡九", "Home nine")  # a copy of a house one comes from its built-in one too
    copy.save()
    assert load_profile("home9").inherits == "star31" and load_profile("home9").switch("tai_cap") == 8
    # edited again: its id kept, its names changeable, the file rewritten
    again = edit("home8")
    assert again.editing and again.values["switches.tai_cap"] == 8
    assert again.set("switches.tai_cap", "") is None  # blank: no cap
    rename(again, "家裡不封頂", "Home, no cap")
    again.save()
    assert load_profile("home8").switch("tai_cap") == "none" and load_profile("home8").name_en == "Home, no cap"
    for pid in BUILTIN:
        assert "built" in _refused(edit, pid).en and "built" in _refused(delete, pid).en
    assert not list((data / "profiles").glob("atawmj*"))
    assert "home8" in delete("home8").en
    assert [p for p in rule_set_options() if p[0] == "home8"] == []
    assert "no house rule set" in _refused(delete, "home8").en  # said, not a traceback


def test_refused_ids_names_and_values_are_said_in_both_languages_and_change_nothing(data: Path) -> None:
    _home8()
    for pid in ("", "a b", "家/規", "x" * 41):
        _refused(clone, "atawmj_2009", pid, "名", "Name")
    assert "built-in" in _refused(clone, "atawmj_2009", "ATAWMJ_2009", "名", "Name").en  # one file on some disks
    assert "saved already" in _refused(clone, "atawmj_2009", "HOME8", "名", "Name").en
    _refused(clone, "atawmj_2009", "h2", "", "Name")
    _refused(clone, "atawmj_2009", "h2", "名", "")
    assert "Latin" in _refused(clone, "atawmj_2009", "h2", "名", "家規").en
    _refused(clone, "atawmj_2009", "h2", "明星三缺一", "Mine")  # a built-in one's name
    _refused(clone, "atawmj_2009", "h2", "家裡", "Home, cap 8")  # another house one's name
    _refused(clone, "no_such", "h2", "家裡", "Home")
    assert clone("atawmj_2009", "家規", "家規", "House").id == "家規"  # any letters, as the store takes them
    draft = clone("atawmj_2009", "h2", "二號", "Two")
    for key, text in (("switches.tai_cap", "0"), ("switches.tai_cap", "x"), ("switches.min_tai", "-1"),
                      ("tai.menqing", str(MOST + 1)), ("tai.menqing", "1.5"), ("switches.min_tai", ""),
                      ("switches.multi_win", "sometimes"), ("switches.draw_keeps_deal", "yes")):
        was = draft.values[key]
        why = draft.set(key, text)
        assert why is not None and why.zh != why.en and not CJK.search(why.en.replace(text, "")), (key, text)
        assert draft.values[key] == was and draft.text(key) == text  # the value kept; the field shows what was typed
        saying = _refused(draft.save)  # not saved while a field is refused, the field named
        assert next(f.name.en for f in FIELDS if f.key == key) in saying.en
        assert draft.set(key, str(was).lower() if isinstance(was, bool) else "" if was == "none" else str(was)) is None
    assert not (data / "profiles" / "h2.toml").exists()
    assert draft.set("switches.tai_cap", "4") is None and draft.set("switches.min_tai", "5") is None
    why = _refused(draft.save)  # the store's own check: no win could be paid
    assert "min_tai" in why.en and "起胡" in why.zh
    assert not (data / "profiles" / "h2.toml").exists()
    assert load_profile("home8").switch("tai_cap") == 8  # untouched by all of it
    other = clone("atawmj_2009", "h3", "三號", "Three")
    clone("atawmj_2009", "h3", "三號b", "Three b").save()  # another phone saved one under that id meanwhile
    assert "saved already" in _refused(other.save).en


def test_the_editor_has_every_value_of_the_schema_once_in_its_groups() -> None:
    keys = [f.key for f in FIELDS]
    assert len(keys) == len(set(keys))
    assert set(keys) == {f"switches.{n}" for n in SWITCHES} | {f"tai.{i}" for i in ITEMS if i not in SWITCH_VALUED}
    assert {f.group for f in FIELDS} == set(GROUPS)
    caps = [f.key for f in FIELDS if f.group == "caps"]
    assert {"switches.tai_cap", "switches.min_tai", "switches.false_win_penalty"} <= set(caps)
    for f in FIELDS:
        assert f.name.zh and f.name.en and not CJK.search(f.name.en), f.key
        if f.kind in ("bool", "choice"):
            spec = SWITCHES[f.key.partition(".")[2]]
            assert [v for v, _ in f.choices] == (["true", "false"] if f.kind == "bool" else list(spec.choices))
            assert all(w.zh and w.en and not CJK.search(w.en.replace("截胡", "").replace("槓上開花", ""))
                       for _, w in f.choices), f.key
    assert next(f for f in FIELDS if f.key == "switches.tai_cap").least == 1


def test_editing_or_deleting_a_house_rule_set_never_reprices_a_table_seated_under_it(
        data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    draft = clone("atawmj_2009", "cap1", "一台封頂", "Cap one")
    assert draft.set("switches.tai_cap", "1") is None
    draft.save()
    table = data.parent / "table.sqlite"
    game = LiveGame(table, seed=5)
    assert game.start(PLAYERS, "cap1", 30, 10) is None
    seated = game.events()[0]
    assert isinstance(seated, ev.Seated) and seated.profile == "cap1" and "tai_cap = 1" in seated.rules
    assert game.choose_dealer((3, 5, 6), (1, 1, 2)) is None
    assert game.throw((2, 2, 4)) is None
    dealer = game.state.dealer
    filler = iter(["9s", "1p", "9p", "7s", "8s", "2p", "3p", "7p"])
    while True:  # past the first go-around, then the seat after the dealer lets 5p go
        if game.offer().discard_seat == (dealer + 1) % 4 and game.state.seats[dealer].discards_made >= 2:
            assert game.discard("5p") is None
            break
        assert game.discard(next(filler)) is None
    assert game.win((dealer + 2) % 4, ev.WinKind.DISCARD, "123m456m789m123s46p55z") is None  # 2 tai, capped at 1

    def paid(g: LiveGame) -> list[int]:
        entry = ledger_of(g.state).entries[-1]
        assert [(x.hand_tai, x.capped_tai) for x in entry.lines] == [(2, 1)]
        return sorted(t.amount for t in entry.transfers)

    assert paid(game) == [40]
    game.close()
    edited = edit("cap1")  # the host raises the cap in Settings
    assert edited.set("switches.tai_cap", "") is None and edited.set("tai.menqing", "5") is None
    edited.save()
    assert load_profile("cap1").switch("tai_cap") == "none"
    again = LiveGame(table)
    assert paid(again) == [40]  # the hand keeps the rules it was played under
    again.close()
    delete("cap1")
    monkeypatch.setattr(profiles, "_KEPT", {})  # as another process reads the table file
    third = LiveGame(table)
    assert paid(third) == [40] and ledger_of(third.state).to_json()["profile"] == "cap1"
    third.close()
