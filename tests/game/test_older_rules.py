"""The events of an old log let in under the older rules of their stamp: counted, the first named, in the words
``companion replay``, the app's table replay, the import and the Live tab share (:mod:`companion.game.older_rules`)."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from importlib import resources
from pathlib import Path

import pytest

from companion.game import events as ev
from companion.game import older_rules
from companion.game.check import step, stored_step
from companion.game.older_rules import OlderRules
from companion.game.service import TableService, read_jsonl
from companion.game.state import TableState
from companion.game.switches import FirstDealer, Switches
from companion.game.text import IllegalEvent
from companion.rules.settlement import STAKE_MAX
from companion.tiles import Tile, parse_tiles

CJK = re.compile(r"[\u4e00-\u9fff]")


def old_events(stakes_over_cap: bool = True) -> list[ev.Event]:
    """A small game a log kept before the rules stamp holds: West lets the dealer's 6p go (hands face down), then
    wins on South's 7s showing tiles that won on the 6p too (過水, seen in the tiles shown: refused today, line 8);
    seated (``stakes_over_cap``) at a base over today's cap (refused today too, line 1)."""
    u = Tile.UNKNOWN  # (as tests/game/test_game_claims.py's _face_down_pass: the app's tests read this one too)
    log = [ev.Seated(players=("East", "South", "West", "North"),
                     switches=Switches(first_dealer=FirstDealer.EAST_DEALS)), ev.DealerChosen(dealer=0),
           ev.DiceRolled(dice=(2, 2, 1)), ev.Dealt(hands=((u,) * 17, (u,) * 16, (u,) * 16, (u,) * 16)),
           ev.Discarded(seat=0, tile=Tile.P6), ev.Drew(seat=1, tile=u), ev.Discarded(seat=1, tile=Tile.S7),
           ev.Won(seat=2, kind=ev.WinKind.DISCARD, tile=Tile.S7, concealed=parse_tiles("111z222z333z444z66p77s"))]
    if stakes_over_cap:
        assert isinstance(log[0], ev.Seated)
        log[0] = replace(log[0], base=STAKE_MAX + 1)
    return log


def old_lines(log: list[ev.Event], stamp: int | None = None) -> list[str]:
    """``log`` as JSON lines of schema 3, before events were stamped (``stamp`` None), or of today's schema stamped
    with ``stamp``."""
    def line(e: ev.Event) -> dict[str, object]:
        d = ev.to_dict(e)
        if stamp is None:
            return {**{k: v for k, v in d.items() if k != "rules_version"}, "v": 3}
        return {**d, "rules_version": stamp}

    return [json.dumps(line(e), ensure_ascii=False) for e in log]


def _stepped(log: list[ev.Event], older: OlderRules) -> TableState:
    state = TableState()
    for n, e in enumerate(log, 1):
        state = older.step(state, ev.from_dict(json.loads(old_lines([e])[0])), n)
    return state


def test_each_event_refused_today_is_counted_and_the_first_is_named_in_both_languages() -> None:
    log = old_events()
    with pytest.raises(IllegalEvent):  # (today's rules refuse both: the seating's stakes first)
        step(TableState(), log[0])
    older = OlderRules()
    state = _stepped(log, older)
    assert state.seats[2].passed == (Tile.P6,) and state.base == STAKE_MAX + 1  # replayed as kept
    assert [(x.at, x.event, x.reason.key) for x in older.let_in] == [(1, "Seated", "stakes_big"),
                                                                      (8, "Won", "barred_shown")]
    said = older.said()
    assert said is not None
    assert said.en.startswith("this version refuses 2 events, replayed as kept under an earlier version's rules")
    assert "the first: line 1: illegal event Seated: the base or the amount per tai is too large" in said.en
    assert "Won" not in said.en and not CJK.search(said.en)
    assert "會拒絕其中 2 個事件" in said.zh and "第一個：第 1 行的入座不合法：底或台太大" in said.zh
    one = OlderRules(stored=True)  # a table file's: by its stored number; one event, said as one
    _stepped(old_events(stakes_over_cap=False), one)
    said = one.said()
    assert [x.at for x in one.let_in] == [8] and said is not None
    assert "refuses 1 event, replayed" in said.en and "the first: stored event #7: illegal event Won" in said.en
    assert "存下的事件 #7（胡牌）不合法" in said.zh


def test_a_log_of_events_today_s_rules_take_or_of_today_s_stamp_gets_no_word() -> None:
    older = OlderRules()
    _stepped(old_events(stakes_over_cap=False)[:-1], older)  # the pass alone: taken today too
    assert older.let_in == [] and older.said() is None
    today = OlderRules()  # stamped with today's rules: refused as one entered now is, not let in
    with pytest.raises(IllegalEvent):
        today.step(TableState(), old_events()[0], 1)
    assert today.said() is None


def test_an_old_event_today_s_rules_take_is_stepped_once_into_the_table_its_stamp_makes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every event of an old log was stepped twice, under its stamp's rules and under today's: an old log loaded 60%
    slower in the app (a change review). One that today's rules take is stepped once, under them (the same table:
    a check added since only refuses); one they refuse is stepped again under its stamp's, and noted."""
    calls: list[str] = []

    def today(s: TableState, e: ev.Event) -> TableState:
        calls.append("today")
        return step(s, e)

    def stamp(s: TableState, e: ev.Event) -> TableState:
        calls.append("stamp")
        return stored_step(s, e)

    demo = read_jsonl((resources.files("companion") / "assets" / "demo" / "game.jsonl").read_bytes().splitlines())
    for log, let_in in (([e for _, e in demo[0]], 0), (old_events(), 2)):
        old = [ev.from_dict(json.loads(line)) for line in old_lines(log)]  # kept before the stamp (0)
        assert all(e.rules_version < ev.RULES_VERSION for e in old)
        kept = [TableState()]  # as the log's own stamp replays it
        for e in old:
            kept.append(stored_step(kept[-1], e))
        calls.clear()
        with monkeypatch.context() as patched:
            patched.setattr(older_rules, "step", today)
            patched.setattr(older_rules, "stored_step", stamp)
            older = OlderRules()
            state = TableState()
            for n, e in enumerate(old, 1):
                state = older.step(state, e, n)
                assert state == kept[n], n
        assert len(older.let_in) == let_in
        assert len(calls) == len(old) + let_in and calls.count("stamp") == let_in


def test_a_table_file_says_its_events_let_in_from_its_replay_at_open_each_event_stepped_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Live tab of a table a saved log was imported into replayed the whole log again for its notice (0.83 s of a
    6,317-event log at its first render, holding the game: a change review). The table service notes them as it
    replays the file at open, each event stepped once, and as it imports a log; by the stored number, as
    ``companion replay`` says them (the import's log had a blank line first: its lines are one further on)."""
    table = tmp_path / "t.sqlite"
    with TableService.import_jsonl(table, ["", *old_lines(old_events())]) as imported:
        said = imported.older_rules()
    assert said is not None
    assert "refuses 2 events" in said.en and "the first: stored event #0: illegal event Seated" in said.en
    assert "存下的事件 #0（入座）不合法" in said.zh
    steps: list[ev.Event] = []

    def stamp(s: TableState, e: ev.Event) -> TableState:
        steps.append(e)
        return stored_step(s, e)

    def today(s: TableState, e: ev.Event) -> TableState:
        steps.append(e)
        return step(s, e)

    with monkeypatch.context() as patched:
        patched.setattr(older_rules, "stored_step", stamp)
        patched.setattr(older_rules, "step", today)
        with TableService(table) as opened:
            assert len(steps) == len(old_events()) + 2  # once each, and again each one let in
            assert opened.older_rules() == said
    one = tmp_path / "one.sqlite"  # the win alone let in: its stored number (#7), not its line (9)
    with TableService.import_jsonl(one, ["", *old_lines(old_events(stakes_over_cap=False))]) as imported:
        said = imported.older_rules()
        assert said is not None and "refuses 1 event, replayed" in said.en
        assert "the first: stored event #7: illegal event Won" in said.en and "存下的事件 #7（胡牌）不合法" in said.zh
    with TableService(one) as opened:
        assert opened.older_rules() == said
    clean = tmp_path / "clean.sqlite"  # none refused today: no word, at the import or at open
    with TableService.import_jsonl(clean, old_lines(old_events(stakes_over_cap=False)[:-1])) as imported:
        assert imported.older_rules() is None
    with TableService(clean) as opened:
        assert opened.older_rules() is None
