"""House rules: every procedure switch of spec §2.17 a table may set at seating, in words, into the game's first
event."""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from companion.app.house_rules import HOUSE_RULES, changed_rules, rule_values, with_rules
from companion.app.ledger_model import ledger_panel
from companion.app.live_model import LiveGame
from companion.app.words import Words
from companion.game import events as ev
from companion.game.check import replay
from companion.game.session import switches_for
from companion.game.switches import MultiWin, SwitchError, Switches
from companion.rules.profiles import BUILTIN, ProfileError, load_profile
from companion.rules.profiles._schema import SWITCHES


def test_every_procedure_switch_is_a_house_rule_but_the_instant_wins_which_come_with_the_tai() -> None:
    assert {r.key for r in HOUSE_RULES} == {f.name for f in fields(Switches)} - {"seven_rob_one", "eight_flowers",
                                                                           "four_kongs"}
    for r in HOUSE_RULES:
        assert r.name.zh and r.name.en and len({v for v, _ in r.options}) == len(r.options) >= 2
        assert all(w.zh and w.en for _, w in r.options)


def test_the_house_rules_english_holds_no_chinese_and_each_rule_has_one_name() -> None:
    """A review read "the nearest wins (截胡)" on the English page, and "Streak tai counted up to" in the ledger where
    replay of the same table said "Streak cap": a rule is named once, by the rule set's schema."""
    cjk = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")
    for r in HOUSE_RULES:
        for w in (r.name, *(w for _, w in r.options)):
            assert not cjk.search(w.en), (r.key, w.en)
            assert cjk.search(w.zh), (r.key, w.zh)
        assert (r.name.zh, r.name.en) == (SWITCHES[r.key].zh, SWITCHES[r.key].en)


def test_the_house_rules_english_says_no_he_or_his() -> None:
    """A wording review read "His own kong releases a passed win" and "before his own first discard" after every
    other English word had been made to say "that player" or "their"."""
    gendered = re.compile(r"\b(he|his|him|himself)\b", re.I)
    for r in HOUSE_RULES:
        for w in (r.name, *(w for _, w in r.options)):
            assert not gendered.search(w.en), (r.key, w.en)


@pytest.mark.parametrize("profile", BUILTIN)
def test_each_option_of_each_rule_is_what_the_switches_then_hold(profile: str) -> None:
    base = switches_for(profile)
    usual = rule_values(base)
    assert all(usual[r.key] in [v for v, _ in r.options] for r in HOUSE_RULES)  # every profile's value is offered
    for r in HOUSE_RULES:
        for value, _ in r.options:
            played = with_rules(base, {r.key: value})
            got = rule_values(played)
            assert got[r.key] == value
            assert {k: v for k, v in got.items() if k != r.key} == {k: v for k, v in usual.items() if k != r.key}
            assert (played.seven_rob_one, played.eight_flowers, played.four_kongs) == \
                (base.seven_rob_one, base.eight_flowers, base.four_kongs)
            assert len(changed_rules(base, played)) == (value != usual[r.key])


def test_a_rule_or_a_value_that_does_not_exist_is_refused_by_name() -> None:
    with pytest.raises(SwitchError, match="no such house rule: dice") as bad:
        with_rules(Switches(), {"dice": "3"})
    assert "dice" in bad.value.zh
    with pytest.raises(SwitchError) as bad:
        with_rules(Switches(), {"multi_win": "everyone"})
    assert "一炮多響" in bad.value.zh and "everyone" in bad.value.zh
    # by the names the app shows, the key and the values in brackets (a review: "multi_win is one of nearest, all, …")
    assert str(bad.value).startswith("Several winners on one discard (multi_win) must be one of “the nearest wins” "
                                     "(nearest), “all of them win” (all)")
    assert "一炮多響（multi_win）只能是「截胡（最近的一家胡）」（nearest）、「都胡」（all）" in bad.value.zh
    # the value as it was given, in the quotes the names are in (a change review read Python's 'everyone')
    assert str(bad.value).endswith("; got “everyone”") and bad.value.zh.endswith("其中之一，收到「everyone」")


def test_a_house_rule_value_refused_is_said_as_a_rule_set_file_says_it(tmp_path: Path) -> None:
    """The house-rules form said ``收到「everyone」`` and a rule-set file's ``multi_win = "everyone"``
    ``收到 'everyone'`` (Python's quotes), in other words around it: the same mistake is said the same way."""
    with pytest.raises(SwitchError) as said:
        with_rules(Switches(), {"multi_win": "everyone"})
    path = tmp_path / "house.toml"
    path.write_text('id = "house"\ninherits = "atawmj_2009"\n[switches]\nmulti_win = "everyone"\n', encoding="utf-8")
    with pytest.raises(ProfileError) as info:
        load_profile(str(path))
    assert str(info.value).endswith(f": {said.value}") and info.value.zh.endswith(f"：{said.value.zh}")


def test_a_table_seated_with_its_house_rules_plays_by_them(tmp_path: Path) -> None:
    game = LiveGame(tmp_path / "table.sqlite")
    names = ("甲", "乙", "丙", "丁")
    why = game.start(names, "atawmj_2009", 30, 10, house={"multi_win": "everyone"})
    assert why is not None and "everyone" in why.en and "everyone" in why.zh and game.events() == []
    assert game.start(names, "atawmj_2009", 30, 10, house={"multi_win": "all", "streak_cap": "3",
                                                          "draw_keeps_deal": "false"}) is None
    seated = game.events()[0]
    assert isinstance(seated, ev.Seated)
    assert seated.switches.multi_win is MultiWin.ALL and seated.switches.streak_cap == 3
    assert not seated.switches.draw_keeps_deal
    assert replay(game.events()).switches == seated.switches  # the log carries them: a replay plays by them too
    said = changed_rules(switches_for("atawmj_2009"), game.state.switches)
    # each as every line of a table's own rules says it (_schema.switch_listed: a change review read 「連莊台數最多算到：
    # 連 2」 in the replay's head and 「連莊台數最多算到 1」 in tai --explain)
    assert [w.en for w in said] == ["several winners on one discard (all of them win)",
                                    "the dealer keeps the deal after a draw (no)", "streak tai counted up to 3"]
    # the ledger names the rule set and the house rules its streaks and deals were played by (not the id alone)
    assert game.choose_dealer((3, 5, 6), (1, 1, 2)) is None
    panel = ledger_panel(game.state)
    assert panel is not None
    assert "中華競技麻將 2009" in panel.stakes.zh and "ATAWMJ 2009" in panel.stakes.en
    assert all(w.zh in panel.stakes.zh and w.en in panel.stakes.en for w in said)
    assert "house rules:" in panel.stakes.en and "本桌規矩" in panel.stakes.zh
    game.close()


@pytest.mark.parametrize(("how", "prompt", "throws"), [("two_throws", "live_p_dealer", 2),
                                                       ("one_throw", "live_p_dealer_one", 1),
                                                       ("east_deals", "live_p_dealer_east", 0)])
def test_the_first_dealer_is_asked_for_as_the_table_chooses_it(tmp_path: Path, how: str, prompt: str,
                                                               throws: int) -> None:
    from companion.app.words import ui

    game = LiveGame(tmp_path / "table.sqlite")
    assert game.start(("甲", "乙", "丙", "丁"), "atawmj_2009", 30, 10, house={"first_dealer": how}) is None
    offer = game.offer()
    assert offer.prompt == ui(prompt, east="甲") and offer.dealer_throws == throws  # East is named
    game.close()


def _terms_change_log(tmp_path: Path) -> Path:
    """The bundled demo up to its first win, then a change between hands that switches only the instant wins."""
    import json
    from importlib import resources

    from companion.game.service import read_jsonl

    lines = (resources.files("companion") / "assets" / "demo" / "game.jsonl").read_text(encoding="utf-8").splitlines()
    events, _ = read_jsonl(lines)
    cut = next(i for i, (_, e) in enumerate(events) if isinstance(e, ev.Won))
    sw = json.loads(lines[0])["switches"]
    assert (sw["eight_flowers"], sw["seven_rob_one"], sw["four_kongs"]) == (True, True, False)
    change = {"v": ev.SCHEMA_VERSION, "type": "StakesChanged", "source": "manual", "rules_version": ev.RULES_VERSION,
              "base": 30, "per_tai": 10,
              "switches": {**sw, "eight_flowers": False, "seven_rob_one": False, "four_kongs": True}}
    path = tmp_path / "terms.jsonl"
    path.write_text("\n".join([*lines[:cut + 1], json.dumps(change, ensure_ascii=False)]) + "\n", "utf-8")
    return path


def test_a_change_of_the_instant_wins_between_hands_is_said_not_as_nothing(tmp_path: Path) -> None:
    """A change review: a change between hands switching 八仙過海, 七搶一 or 四槓 (which the tracker takes, from the
    next hand) was said "From the next hand: nothing" by replay, the Table tab, the Live tab and the ledger, where
    replay had named it before. Each names every switch changed, in both languages, by the names the tai items
    have."""
    import subprocess
    import sys

    from companion.app.house_rules import INSTANT_RULES, terms_change
    from companion.app.table_model import GameReplay
    from companion.game.evolve import terms_ahead
    from companion.game.service import TableService

    assert {r.key for r in HOUSE_RULES} | {r.key for r in INSTANT_RULES} == {f.name for f in fields(Switches)}
    path = _terms_change_log(tmp_path)
    game = GameReplay.from_file(str(path))
    base, per_tai, now = terms_ahead(game.states[-1])
    assert (now.eight_flowers, now.seven_rob_one, now.four_kongs) == (False, False, True)  # the change holds
    said = terms_change(30, 10, game.states[-1].switches, base, per_tai, now)
    for caption in (game.captions[-1], said):  # the Table tab's step, the Live tab's line for the next hand
        assert "nothing" not in caption.en and "不變" not in caption.zh, caption
        for zh, en in (("八仙過海（不算）", "eight flowers (off)"), ("七搶一（不算）", "seven rob one (off)"),
                       ("四槓（算）", "four kongs (on)")):
            assert zh in caption.zh and en in caption.en, caption
    out = subprocess.run([sys.executable, "-m", "companion", "replay", "--lang", "en", str(path)],
                         capture_output=True, text=True).stdout
    line = next(x for x in out.splitlines() if "StakesChanged" in x)
    assert "four kongs (on)" in line and "nothing" not in line, line
    with TableService.import_jsonl(tmp_path / "t.sqlite", path.read_text("utf-8").splitlines()) as table:
        panel = ledger_panel(table.state)
    assert panel is not None and panel.pending is not None
    assert "eight flowers (off)" in panel.pending.en and "八仙過海（不算）" in panel.pending.zh, panel.pending


def test_the_terms_line_names_the_instant_wins_a_table_plays_otherwise(tmp_path: Path) -> None:
    """A review: a table that had switched 八仙過海, 七搶一 and 四槓 between hands had the change said ("From the next
    hand: Eight flowers: off; …"), yet the terms line (the Ledger tab's head, the Live tab's and the Photo tab's
    line of the table's terms) listed the house rules only, as if it played them as its rule set does. Every switch
    a table can change is listed there, from the same list as the change's line, in both languages."""
    import json
    from importlib import resources

    from companion.app.house_rules import TABLE_SWITCHES, table_terms
    from companion.game.service import TableService, read_jsonl

    assert {r.key for r in TABLE_SWITCHES} == {f.name for f in fields(Switches)}  # (every switch, none twice)
    assert len(TABLE_SWITCHES) == len({r.key for r in TABLE_SWITCHES})
    lines = (resources.files("companion") / "assets" / "demo" / "game.jsonl").read_text(encoding="utf-8").splitlines()
    events, _ = read_jsonl(lines)
    cut = next(i for i, (_, e) in enumerate(events) if isinstance(e, ev.Won))
    sw = json.loads(lines[0])["switches"]
    assert (sw["eight_flowers"], sw["seven_rob_one"], sw["four_kongs"]) == (True, True, False)  # its rule set's
    change = {"v": ev.SCHEMA_VERSION, "type": "StakesChanged", "source": "manual", "rules_version": ev.RULES_VERSION,
              "base": 30, "per_tai": 10,
              "switches": {**sw, "eight_flowers": False, "seven_rob_one": False, "four_kongs": True}}
    log = [lines[0], json.dumps(change, ensure_ascii=False), *lines[1:cut + 1]]  # changed before its first hand
    with TableService.import_jsonl(tmp_path / "t.sqlite", log) as table:
        state = table.state
        terms, panel = table_terms(state), ledger_panel(state)
    assert (state.switches.eight_flowers, state.switches.seven_rob_one, state.switches.four_kongs) == \
        (False, False, True)  # the hand was played so
    assert terms is not None and panel is not None
    for line in (terms.words, panel.stakes):
        for zh, en in (("八仙過海（不算）", "eight flowers (off)"), ("七搶一（不算）", "seven rob one (off)"),
                       ("四槓（算）", "four kongs (on)")):
            assert zh in line.zh and en in line.en, line
        assert "本桌規矩" in line.zh and "house rules:" in line.en
    as_set = switches_for("atawmj_2009")
    assert changed_rules(as_set, as_set) == ()  # a table playing its rule set as it is lists none


def test_rules_not_known_here_are_named_by_their_id_without_the_tables_digest() -> None:
    """A table's rule set is kept under "<id>#<digest>"; where those rules cannot be read here, the heads named them
    by that key, digest and all."""
    from companion.app.house_rules import rules_named

    assert rules_named("nowhere_set#0123456789abcdef") == Words("nowhere_set", "nowhere_set")
    assert rules_named("nowhere_set") == Words("nowhere_set", "nowhere_set")


def _table_with_its_instant_wins_changed(tmp_path: Path) -> LiveGame:
    """A live table seated under atawmj_2009 that then changed 八仙過海 (an instant win) and 一炮多響 (a house
    rule) before its first hand, as a log imported or kept by an older version may have done."""
    import json
    from importlib import resources

    from companion.game.service import TableService

    lines = (resources.files("companion") / "assets" / "demo" / "game.jsonl").read_text(encoding="utf-8").splitlines()
    sw = json.loads(lines[0])["switches"]
    assert (sw["eight_flowers"], sw["multi_win"]) == (True, "nearest")  # its rule set's
    change = {"v": ev.SCHEMA_VERSION, "type": "StakesChanged", "source": "manual", "rules_version": ev.RULES_VERSION,
              "base": 30, "per_tai": 10, "switches": {**sw, "eight_flowers": False, "multi_win": "all"}}
    TableService.import_jsonl(tmp_path / "t.sqlite", [lines[0], json.dumps(change, ensure_ascii=False)]).close()
    game = LiveGame(tmp_path / "t.sqlite")
    assert not game.state.switches.eight_flowers and game.state.switches.multi_win is MultiWin.ALL
    return game


def test_a_table_seated_again_keeps_the_instant_wins_it_changed_as_it_keeps_its_house_rules(tmp_path: Path) -> None:
    """A review: seating a table again (new players, stakes, the next session) kept the house rules it had changed,
    the form filled with them, but put 七搶一, 八仙過海 and 四槓 back to the rule set's values without a word, for the
    form carried the house rules only. What the form starts from holds every switch the table plays otherwise, the
    tracker takes each, and the line under the form names what will be played otherwise, in both languages."""
    from companion.app.house_rules import seating_line, seating_rules

    game = _table_with_its_instant_wins_changed(tmp_path)
    state = game.state
    kept = seating_rules(state)
    assert kept == {"multi_win": "all", "eight_flowers": "false"}
    assert game.start(state.players, "atawmj_2009", 50, 20, house=kept) is None  # seated again, other stakes
    again = game.state.switches
    assert isinstance(game.events()[-1], ev.Seated) and game.state.base == 50
    assert not again.eight_flowers and again.multi_win is MultiWin.ALL  # both kept
    assert again.seven_rob_one and not again.four_kongs  # (the others as the rule set has them)
    line = seating_line("atawmj_2009", kept)
    assert line is not None
    for zh, en in (("八仙過海（不算）", "eight flowers (off)"), ("一炮多響", "several winners on one discard")):
        assert zh in line.zh and en in line.en, line
    assert seating_line("atawmj_2009", {}) is None and seating_line("atawmj_2009", {"eight_flowers": "true"}) is None
    # set back on the form: the rule set's own value
    assert game.start(state.players, "atawmj_2009", 50, 20, house={"multi_win": "all"}) is None
    assert game.state.switches.eight_flowers and game.state.switches.multi_win is MultiWin.ALL
    with pytest.raises(SwitchError, match=r"Eight flowers \(eight_flowers\) must be one of") as bad:
        with_rules(Switches(), {"eight_flowers": "maybe"})
    assert "八仙過海" in bad.value.zh
    game.close()


def test_the_seating_form_offers_and_names_the_instant_wins_a_table_seated_again_changed(tmp_path: Path) -> None:
    """The Live tab's form that seats the table again (no browser): it offers 八仙過海 as the table played it, says
    under it what will be played otherwise than the rule set, and Start keeps it."""
    from companion.app.view_live import ID_LIVE_START, LiveTab
    from tests.app.test_photo_picks import _tapped
    from tests.app.test_tabs_beside_a_live_table import _Host, _idents, _texts

    game = _table_with_its_instant_wins_changed(tmp_path)
    tab = LiveTab(_Host(), game)  # type: ignore[arg-type]
    form = tab._seating(game.offer())
    named = {c.identifier: c for c in _idents(form)}
    assert named["house-eight_flowers"].content.value == "false"  # offered, as the table plays it
    assert "house-four_kongs" not in named  # (one it plays as the rule set does comes with the rule set's tai)
    (said,) = _texts(named["live-seat-otherwise"])
    assert "eight flowers (off)" in said and "several winners on one discard (all of them win)" in said, said
    assert any("come with the rule set's tai" in x for x in _texts(named["live-instant-kept"]))
    _tapped(form, ID_LIVE_START)
    assert isinstance(game.events()[-1], ev.Seated) and len(game.events()) == 3
    assert not game.state.switches.eight_flowers and game.state.switches.multi_win is MultiWin.ALL
    game.close()


@pytest.mark.parametrize(("toml", "typed"), [
    ("20", "20"), ("0", "0"), ('"none"', "none"), ("-1", "-1"), ('"x"', "x"), ('""', ""), ('"none "', "none "),
    ("99", "99"), ("100", "100"), ("99999999999999999999", "99999999999999999999")])
def test_streak_cap_takes_and_refuses_the_same_values_in_the_same_words_in_a_file_simulate_and_the_app(
        tmp_path: Path, toml: str, typed: str) -> None:
    """A change review: the app's house rules refused any streak_cap but none and 1-12, listing 13 choices ("“1 in a
    row” (1) … “12 in a row” (12)"), while a rule-set file and ``simulate --switch`` took a whole number 0 or more:
    a table under streak_cap = 20 or 0 had its own value refused on the way back in. One set of values, one
    wording; a number past 99 refused as that, where "99999999999999999999" was said not to be "a whole number 0 or
    more" (a third review)."""
    from companion.commands.simulate import _switches

    path = tmp_path / "house.toml"
    path.write_text(f'id = "house"\ninherits = "atawmj_2009"\n[switches]\nstreak_cap = {toml}\n', encoding="utf-8")
    said: list[tuple[str, str] | int | None] = []
    try:
        said.append(load_profile(str(path)).switch("streak_cap"))
    except ProfileError as e:
        said.append((str(e).rpartition(": ")[2], e.zh.rpartition("：")[2]))
    for take in (lambda: _switches([f"streak_cap={typed}"]), lambda: with_rules(Switches(), {"streak_cap": typed})):
        try:
            cap = take().streak_cap
            said.append("none" if cap is None else cap)
        except SwitchError as e:
            said.append((str(e), e.zh or ""))
    assert said[0] == said[1] == said[2], said
    if isinstance(said[0], tuple):
        assert "a whole number from 0 to 99" in said[0][0] and "in a row" not in said[0][0]
        assert "0 到 99 的整數" in said[0][1]


@pytest.mark.parametrize("cap", [0, 20])
def test_a_table_whose_streak_cap_the_picker_does_not_offer_keeps_it_on_the_way_back_in(tmp_path: Path,
                                                                                        cap: int) -> None:
    """The table's own value went back in refused (``with_rules(s, rule_values(s))`` for 0, ``change_terms(rules=
    {"streak_cap": "20"})``); it is kept now, and shown as the picker's choices are."""
    from dataclasses import replace

    played = replace(Switches(), streak_cap=cap)
    assert with_rules(played, rule_values(played)) == played
    rule = next(r for r in HOUSE_RULES if r.key == "streak_cap")
    assert rule.option(str(cap)) == (Words(f"連 {cap}", f"{cap} in a row") if cap else  # (a cap of 0 counts no
                                     Words("不算連莊台", "no streak tai"))  # streak tai: "0 in a row" read nothing)
    game = LiveGame(tmp_path / "table.sqlite")
    assert game.start(("甲", "乙", "丙", "丁"), "atawmj_2009", 30, 10, house={"streak_cap": str(cap)}) is None
    assert game.state.switches.streak_cap == cap


def test_a_table_an_earlier_version_kept_under_a_streak_cap_over_99_opens_and_plays_it(tmp_path: Path) -> None:
    """streak_cap is 0-99 where it is set now, but versions before that bound took any whole number: a log or a
    table file seated under streak_cap = 150 (its switches, the rules it kept) was refused whole, "must be … from 0
    to 99; got 150", and the saved game could not be opened. It opens now as it was played: the log replays and
    imports, the table file opens, its kept rules and a ledger's record of them keep 150, and its terms changed
    between hands send 150 back unrefused; a cap over 99 set now is refused still."""
    import json
    from importlib import resources

    from companion.game.evolve import terms_ahead
    from companion.game.service import TableService, read_jsonl
    from companion.rules.profiles import played_with
    from companion.rules.profiles._store import record_rules, rules_of_record, rules_text

    lines = (resources.files("companion") / "assets" / "demo" / "game.jsonl").read_text(encoding="utf-8").splitlines()
    events, _ = read_jsonl(lines)
    cut = next(i for i, (_, e) in enumerate(events) if isinstance(e, ev.Won))  # (between two hands after it)
    seated = json.loads(lines[0])
    seated["switches"]["streak_cap"] = 150
    seated["rules"] = rules_text(load_profile("atawmj_2009")).replace('streak_cap = "none"', "streak_cap = 150")
    assert "streak_cap = 150" in seated["rules"]
    old = [json.dumps(seated, ensure_ascii=False), *lines[1:cut + 1]]

    state = replay([e for _, e in read_jsonl(old)[0]])
    assert state.switches.streak_cap == 150 and load_profile(state.profile).switch("streak_cap") == 150
    TableService.import_jsonl(tmp_path / "t.sqlite", old).close()
    game = LiveGame(tmp_path / "t.sqlite")
    assert game.state.switches.streak_cap == 150 and len(game.events()) == cut + 1
    kept = load_profile(game.state.profile)
    assert kept.switch("streak_cap") == 150
    assert rules_of_record(kept.id, record_rules(kept)).switch("streak_cap") == 150  # (companion tai's record)
    assert played_with(load_profile(None), {"streak_cap": 150}).switch("streak_cap") == 150
    assert game.change_terms(50, 20, rule_values(game.state.switches)) is None  # (the form sends the cap back)
    assert terms_ahead(game.state) == (50, 20, game.state.switches)  # (from the next hand: the same switches)
    game.close()
    game = LiveGame(tmp_path / "t.sqlite")  # (the change stored, the file opens again)
    assert game.state.switches.streak_cap == 150 and isinstance(game.events()[-1], ev.StakesChanged)
    refused = game.change_terms(50, 20, {**rule_values(game.state.switches), "streak_cap": "151"})
    assert refused is not None and "from 0 to 99" in refused.en and "0 到 99 的整數" in refused.zh
    game.close()
    with pytest.raises(SwitchError, match="from 0 to 99"):
        with_rules(Switches(), {"streak_cap": "150"})
    with pytest.raises(ProfileError, match="from 0 to 99"):
        load_profile(str(_write_set(tmp_path, "streak_cap = 150")))


def _write_set(tmp_path: Path, switch: str) -> Path:
    path = tmp_path / "house.toml"
    path.write_text(f'id = "house"\ninherits = "atawmj_2009"\n[switches]\n{switch}\n', encoding="utf-8")
    return path


def test_the_replays_head_gives_the_terms_the_first_hand_was_played_with(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A change review: under star31 with house rules, 七搶一 switched on between hands before hand 2, ``companion
    replay --quiet`` gave 「…七搶一：算」 in the head above #1, played without it. The head gives the seated terms,
    the change its own line at hand 2, as the Ledger tab's rows do."""
    from companion.cli import main

    path = tmp_path / "t.sqlite"
    game = LiveGame(str(path), seed=1)
    assert game.start(["甲", "乙", "丙", "丁"], "star31", 30, 10,
                      house={"first_dealer": "east_deals", "multi_win": "all", "streak_cap": "2"}) is None
    game.choose_dealer()
    game.throw([3, 4, 5])
    for tile in ("1z", "2z", "3z", "3s"):
        assert game.discard(tile) is None
    assert game.win(0, ev.WinKind.DISCARD, "123m456m234p678p45s88s") is None
    assert game.change_terms(30, 10, {"seven_rob_one": "true"}) is None
    game.throw([3, 4, 5])
    assert game.discard("3s") is None
    assert game.win(1, ev.WinKind.DISCARD, "123m456m234p678p45s88s") is None
    game.close()
    assert main(["replay", "--quiet", "--lang", "zh", str(path)]) == 0
    hands = capsys.readouterr().out.split("== 每把 ==\n")[1]
    head, one, two = hands.split("\n")[0], hands.index("#1 "), hands.index("#2 ")
    assert "明星三缺一" in head and "七搶一" not in head, hands
    assert "從第 2 把起：七搶一（算）" in hands[one:two], hands
    # the dealer's tai with their parts, as the ledger says them (a change review read 「+ 莊家 3 台」 alone)
    assert "+ 莊家 3 台（莊家 1、連1拉1）" in hands[two:], hands


def test_a_tables_switches_are_said_one_way_on_every_line() -> None:
    """A change review: the replay's change line said 「連莊台數最多算到：不算連莊台；七搶一：不算」, its head
    「本桌規矩：…連莊台數最多算到：連 2」, and tai --explain 「本桌自己的規矩：連莊台數最多算到 1」. Each line says a
    switch as _schema.switch_listed does, under one label."""
    from companion.app.house_rules import terms_change
    from companion.app.words import ui
    from companion.rules.profiles._schema import switch_listed

    usual = switches_for("atawmj_2009")
    played = with_rules(usual, {"streak_cap": "2", "seven_rob_one": "false"})
    assert changed_rules(usual, played) == (Words(*switch_listed("streak_cap", 2)),
                                            Words(*switch_listed("seven_rob_one", False)))
    said = terms_change(30, 10, played, 30, 10, with_rules(played, {"streak_cap": "0"}))
    assert said == Words("從下一把起：不算連莊台", "From the next hand: no streak tai")
    assert ui("explain_played_over", rules="").zh.startswith("本桌規矩：")


def test_a_switch_back_to_the_rule_sets_value_is_said_in_one_pair_of_brackets() -> None:
    """A review read 「七搶一（算）（照規則）」 and "seven rob one (on) (as the rule set has it)", brackets after
    brackets, where a change between hands put a switch back to its rule set's value. The note goes in the switch's
    own brackets, and in brackets of its own where the switch has none (a number, 不算連莊台); a switch set otherwise
    than the rule set is said as before."""
    from companion.app.house_rules import terms_change
    from companion.rules.profiles._schema import switch_listed

    usual = switches_for("star31")  # (its own: 截胡, may decline the last tile, a streak cap of 10, no 四槓)
    played = with_rules(usual, {"streak_cap": "2", "may_decline_last_tile": "false", "four_kongs": "true"})
    said = terms_change(30, 10, played, 30, 10, with_rules(usual, {"multi_win": "all"}), "star31")
    assert said == Words("從下一把起：一炮多響（都胡）；可以不摸海底（是，照規則）；連莊台數最多算到 10（照規則）；四槓（不算，照規則）",
                         "From the next hand: several winners on one discard (all of them win); the last tile may be "
                         "declined (yes, as the rule set has it); streak tai counted up to 10 (as the rule set has "
                         "it); four kongs (off, as the rule set has it)"), said
    assert "）（" not in said.zh and ") (" not in said.en
    note = ("照規則", "as the rule set has it")
    assert switch_listed("streak_cap", 0, note) == ("不算連莊台（照規則）", "no streak tai (as the rule set has it)")
    assert switch_listed("seven_rob_one", True, note) == ("七搶一（算，照規則）", "seven rob one (on, as the rule set has it)")
    assert switch_listed("seven_rob_one", True) == ("七搶一（算）", "seven rob one (on)")  # (no note: as it was)
