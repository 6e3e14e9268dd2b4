"""The Table view's model on the bundled demo game: what each step shows is what the log and the rules say."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.app.table_model import (
    DEMO_HANDS,
    DEMO_SEED,
    GameReplay,
    LogError,
    demo_log_path,
    describe,
    table_frame,
)
from companion.app.words import UI, Words, ui
from companion.cli import main
from companion.game import events as ev
from companion.game.session import ledger_of
from companion.game.state import Phase, TableState
from companion.hand import Hand, MeldKind
from companion.rules.efficiency import discard_options
from companion.rules.house import house_reading
from companion.rules.shape import is_complete
from companion.rules.waits import WaitShape
from companion.tiles import NUM_KINDS, Tile

CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def replay() -> GameReplay:
    return GameReplay.demo()


def test_the_bundled_log_is_what_simulate_writes(tmp_path: Path) -> None:
    """Its events unmarked: a copy of the demo a player keeps is no log ``simulate --out`` may replace (a review's
    ``cp`` of it to mygame.jsonl was, taken for a simulated log by its players' names). ``simulate`` marks each event
    it writes, not only the seating (a replay read "#1 定莊（手動） DealerChosen (manual)" of the bots' entries)."""
    out = tmp_path / "game.jsonl"
    assert main(["simulate", "--seed", str(DEMO_SEED), "--hands", str(DEMO_HANDS), "--out", str(out)]) == 0
    simulated = out.read_bytes()
    lines = simulated.splitlines()
    assert all(b'"source": "simulated", ' in x for x in lines) and len(lines) > 1
    assert b'"source": "manual"' not in simulated
    assert simulated.replace(b'"source": "simulated", ', b'"source": "manual", ') == demo_log_path().read_bytes()


def test_the_bundled_log_as_an_earlier_version_wrote_it_still_opens_imports_and_replays(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The bundled log was written in schema 3, without the rules stamp, until the stamp came in (a code review): a
    log kept so opens (Open log), goes into a table (``--from-log``) and replays (``companion replay``) as the
    stamped one does, each of its events read as kept before the stamp."""
    from companion.game.service import TableService

    lines = demo_log_path().read_text(encoding="utf-8").splitlines()
    old = [json.dumps({**{k: v for k, v in json.loads(x).items() if k != "rules_version"}, "v": 3}, ensure_ascii=False)
           for x in lines]
    kept, now = GameReplay.from_lines(old, "old.jsonl"), GameReplay.from_lines(lines, "game.jsonl")
    assert {e.rules_version for e in kept.events} == {0} and {e.rules_version for e in now.events} == {ev.RULES_VERSION}
    assert kept.events == now.events and kept.states[-1] == now.states[-1]
    with TableService.import_jsonl(tmp_path / "old.sqlite", old) as table:
        assert table.events() == now.events and table.state == now.states[-1]
    path = tmp_path / "old.jsonl"
    path.write_text("\n".join(old) + "\n", encoding="utf-8")
    assert main(["replay", str(path), "--quiet"]) == 0
    assert "replayed as kept" not in capsys.readouterr().err


def test_every_step_has_a_frame_and_a_caption_in_both_languages(replay: GameReplay) -> None:
    assert len(replay) == len(replay.events) + 1
    for i in range(len(replay)):
        frame = replay.frame(i)
        assert frame.index == i and frame.total == len(replay) - 1
        en = frame.caption.en
        for name in replay.states[-1].players:  # the players' own names are written as they are
            en = en.replace(name, "")
        assert CJK.search(frame.caption.zh) and en and not CJK.search(en), frame.caption
        assert frame.recent[0] == frame.caption
    with pytest.raises(IndexError):
        replay.frame(len(replay))


def test_hands_start_and_end_where_the_log_says(replay: GameReplay) -> None:
    starts, ends = replay.hand_starts(), replay.hand_ends()
    assert len(starts) == len(ends) == DEMO_HANDS
    assert all(s < e for s, e in zip(starts, ends, strict=True))
    assert all(replay.states[e].phase is Phase.HAND_OVER is not replay.states[e - 1].phase for e in ends)
    assert isinstance(replay.events[ends[0] - 1], ev.Won)
    assert replay.next_stop(0, forward=True) == starts[0]
    assert replay.next_stop(starts[0], forward=True) == ends[0]
    assert replay.next_stop(ends[0], forward=False) == starts[0]
    assert replay.next_stop(len(replay) - 1, forward=True) == len(replay) - 1


def _visible(state, seat: int) -> list[int]:
    """Copies each seat can see besides its hand, counted from the state directly."""
    seen = [0] * NUM_KINDS
    for s, st in enumerate(state.seats):
        for t in st.discards:
            seen[t] += 1
        if s != seat:
            for m in st.melds:
                if m.kind is not MeldKind.CKONG:
                    for t in m.tiles:
                        seen[t] += 1
    return seen


def test_waits_are_the_tiles_that_complete_the_hand_with_the_unseen_copies(replay: GameReplay) -> None:
    checked = 0
    for i in range(0, len(replay), 3):
        state = replay.states[i]
        for panel in replay.frame(i).seats:
            st = state.seats[panel.seat]
            if not panel.waits:
                continue
            hand = Hand(st.concealed_tiles, st.melds, st.flowers)
            own = hand.own_counts()
            seen = _visible(state, panel.seat)
            brute = [t for t in Tile if t < NUM_KINDS and own[t] < 4
                     and is_complete(Hand((*hand.concealed, t), hand.melds, hand.flowers))]
            assert [Tile.from_code(w.tile) for w in panel.waits] == brute
            for w in panel.waits:
                t = Tile.from_code(w.tile)
                assert w.unseen == 4 - own[t] - seen[t]
                assert w.shapes.zh and w.shapes.en
            assert (panel.wait_note == ui("single_wait")) == (len(brute) == 1)
            checked += 1
    assert checked > 20


def test_a_seat_holding_a_drawn_hand_gets_the_best_discards(replay: GameReplay) -> None:
    seen_advice = 0
    for i in range(0, len(replay), 5):
        state = replay.states[i]
        for panel in replay.frame(i).seats:
            if not panel.advice:
                continue
            st = state.seats[panel.seat]
            hand = Hand(st.concealed_tiles, st.melds, st.flowers)
            seen = [Tile(k) for k, n in enumerate(_visible(state, panel.seat)) for _ in range(n)]
            # the honours whose pung scores for this seat: the dragons, its own wind and the round's
            valued = {Tile.Z5, Tile.Z6, Tile.Z7, Tile(27 + state.seat_wind(panel.seat)), Tile(27 + state.round_wind)}
            best = discard_options(hand, seen, valued)[: len(panel.advice)]
            assert [a.tile for a in panel.advice] == [o.discard.code for o in best]
            assert panel.drawn is not None or state.phase is Phase.ACT
            seen_advice += 1
    assert seen_advice > 10


def test_hidden_hands_show_only_their_size_and_no_help(replay: GameReplay) -> None:
    i = replay.hand_starts()[1] + 20
    shown, hidden = replay.frame(i, show_hands=True), replay.frame(i, show_hands=False)
    for a, b in zip(shown.seats, hidden.seats, strict=True):
        assert b.concealed == () and b.drawn is None and b.waits == () and b.advice == ()
        assert b.hidden == len(a.concealed) + (a.drawn is not None)
        assert all(set(m.tiles) == {"0x"} for m, src in zip(b.melds, replay.states[i].seats[a.seat].melds,
                                                            strict=True) if src.kind is MeldKind.CKONG)



def test_a_tile_won_on_leaves_the_givers_river_for_the_winners_hand(replay: GameReplay) -> None:
    """The table state keeps a winning discard in the river (each winner of a 一炮多響 takes it from there); the
    table shows it where it lies at a real table: apart beside the winner's hand, gone from the giver's river."""
    seen = set()
    for end in replay.hand_ends():
        state = replay.states[end]
        assert state.outcome is not None
        for rec in state.outcome.winners:
            frame = replay.frame(end)
            if rec.kind not in (ev.WinKind.DISCARD, ev.WinKind.ROBBED_KONG):
                assert all(s.discards == tuple(t.code for t in state.seats[s.seat].discards) for s in frame.seats)
                continue
            assert rec.tile is not None and rec.discarder is not None
            river = state.seats[rec.discarder].discards
            assert river[-1] == rec.tile and frame.seats[rec.discarder].discards == tuple(t.code for t in river[:-1])
            winner = frame.seats[rec.seat]
            assert winner.drawn == rec.tile.code
            assert is_complete(Hand(tuple(Tile.from_code(c) for c in (*winner.concealed, winner.drawn)),
                                    state.seats[rec.seat].melds))
            seen.add(rec.kind)
    assert seen == {ev.WinKind.DISCARD, ev.WinKind.ROBBED_KONG}  # the demo game has both


def test_a_tile_several_win_on_is_shown_beside_each_winner_and_leaves_the_river_once() -> None:
    """一炮多響 (multi_win all): seed 17 of the simulator has a hand two players win on one discard."""
    from companion.game.check import step
    from companion.game.simulator import Simulator
    from companion.game.state import TableState
    from companion.game.switches import MultiWin, Switches

    state = TableState()
    for e in Simulator(seed=17, switches=Switches(multi_win=MultiWin.ALL)).run(8):
        state = step(state, e)
        if state.phase is Phase.HAND_OVER and state.outcome is not None and \
                len([r for r in state.outcome.winners if r.kind is ev.WinKind.DISCARD]) > 1:
            break
    else:
        raise AssertionError("seed 17 no longer has a hand won by two on one discard")
    assert state.outcome is not None
    winners = state.outcome.winners
    frame = table_frame(state, Words("", ""), (), 0, 1, show_hands=True)
    giver = winners[0].discarder
    assert giver is not None and {r.discarder for r in winners} == {giver}
    river = state.seats[giver].discards
    assert frame.seats[giver].discards == tuple(t.code for t in river[:-1])  # the one tile leaves it once
    for rec in winners:
        assert rec.tile is not None and frame.seats[rec.seat].drawn == rec.tile.code

def test_each_hand_end_shows_the_ledgers_tai_and_payments(replay: GameReplay) -> None:
    marked = 0
    for end_index in replay.hand_ends():
        frame = replay.frame(end_index)
        assert frame.end is not None
        entry = ledger_of(replay.states[end_index]).entries[-1]
        assert len(frame.end.lines) == len(entry.lines)
        for shown, line in zip(frame.end.lines, entry.lines, strict=True):
            assert sum(t for _, t in shown.items) == line.hand_tai == shown.hand_tai
            assert line.score is not None
            assert shown.flowers == tuple(f.code for f in sorted(line.score.win.flowers))  # pictured with the hand
            flagged = house_reading(line.score).flagged  # marked "house rule" where the profile leaves it open
            mark = ui("house_rule_mark").zh
            shape = line.score.wait_shape  # 獨聽 is named with its shape (spec §3.6)
            said = {WaitShape.TWO_SIDED: ui("one_end_gone").zh, WaitShape.SINGLE: ui("on_the_pair").zh}
            named = {"single_wait": said.get(shape, shape.zh) if shape is not None else ""}
            expected = []
            for (zh, _, _), i in zip(line.items, line.score.items, strict=True):  # the shape and the mark in one
                inside = [x for x in (named.get(i.id, ""), mark.strip("（）") if i.id in flagged else "") if x]  # pair
                expected.append(zh + (f"（{'；'.join(inside)}）" if inside else ""))  # of brackets
            assert [w.zh for w, _ in shown.items] == expected
            assert (ui("house_rule_means") in shown.house) == bool(flagged)
            n = entry.result.streak  # the dealer's tai are said with their 連N拉N
            assert shown.dealer_why == (Words(f"莊家 1、連{n}拉{n}", f"dealer 1, dealer continuation {n} and streak pull {n}") if n else None)
            marked += len(flagged)
        for w, t in zip(frame.end.transfers, entry.transfers, strict=True):
            assert w.en.startswith(f"{t.payer} pays {t.payee} {t.amount}")
            how = re.search(r"\((\d+) \+ (\d+) tai × (\d+)\)$", w.en)  # how the stakes made it, where they did
            assert how is not None and int(how[1]) + int(how[2]) * int(how[3]) == t.amount, w.en
        assert sum(v for _, v in frame.end.balances) == 0
        state = replay.states[end_index]
        assert state.outcome is not None  # who won says so in a sentence ("小美 wins on a discard", not "win")
        assert all(f"{state.players[w.seat]} wins " in frame.end.outcome.en for w in state.outcome.winners)
    assert replay.frame(replay.hand_ends()[0] - 1).end is None
    assert marked  # the demo holds a hand with a house-rule item (a 獨聽 beside 全求)
    assert any(line.flowers for i in replay.hand_ends() for line in replay.frame(i).end.lines)  # (and flowers)


def test_dealer_tai_are_shown_only_where_the_dealer_wins_or_pays(replay: GameReplay) -> None:
    for end_index in replay.hand_ends():
        state = replay.states[end_index]
        frame = replay.frame(end_index)
        assert frame.end is not None and state.outcome is not None
        for rec, shown in zip(state.outcome.winners, frame.end.lines, strict=False):
            involved = state.dealer in (rec.seat, rec.discarder) or rec.discarder is None
            if not involved:
                assert shown.dealer_tai == 0


def test_an_illegal_log_is_refused_naming_the_line(replay: GameReplay) -> None:
    lines = demo_log_path().read_text(encoding="utf-8").splitlines()
    at = next(i for i, e in enumerate(replay.events) if isinstance(e, ev.Discarded))
    seat = replay.events[at].seat
    held = set(replay.states[at].seats[seat].concealed_tiles)
    bad = json.loads(lines[at])
    bad["tile"] = next(t.code for t in Tile if t < NUM_KINDS and t not in held)
    lines[at] = json.dumps(bad, ensure_ascii=False)
    with pytest.raises(LogError) as err:
        GameReplay.from_lines(lines, "broken.jsonl")
    assert "broken.jsonl" in err.value.words.en and str(at + 1) in err.value.words.en
    assert CJK.search(err.value.words.zh) and "broken.jsonl" in err.value.words.zh


def test_an_empty_or_garbled_log_is_refused() -> None:
    with pytest.raises(LogError, match="empty"):
        GameReplay.from_lines([], "empty.jsonl")
    with pytest.raises(LogError, match="garbled.jsonl"):
        GameReplay.from_lines(['{"v": 2, "type": "Nope"}'], "garbled.jsonl")


def test_every_event_kind_has_its_own_words(replay: GameReplay) -> None:
    kinds: dict[str, str] = {}
    for e, s in zip(replay.events, replay.states, strict=False):
        words = describe(e, s)
        assert CJK.search(words.zh) and words.en, e
        kinds.setdefault(type(e).__name__, words.en)
    assert {"Seated", "Dealt", "Drew", "Discarded", "Won", "FlowerReplaced"} <= set(kinds)


_KEPT_BAD = 'id = "home8"\nname_zh = "家裡滿八台"\nname_en = "Home, cap 8"\n[tai]\nzimo = -1\n'


@pytest.mark.parametrize(("rules", "zh", "en"), [
    (_KEPT_BAD, "「家裡滿八台」", "“Home, cap 8”"),  # (its names, as the log carries them with its values)
    ('id = "home8"\nname_en = "Home, cap 8"\n[tai]\nzimo = -1\n', "「Home, cap 8」", "“Home, cap 8”"),
    ("", "「home8」", "“home8”"),  # (no names carried: its id, quoted)
    ("not toml = = =", "「home8」", "“home8”"),
])
def test_a_seating_under_rules_this_install_cannot_read_names_them_as_the_log_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rules: str, zh: str, en: str) -> None:
    """The "Seated" line of a log whose rules this install cannot read said "(stakes 30 + 10 a tai, home8)": a bare
    id, where the log carried the set's names, and nothing said the set is not on this device."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))  # (no house set "home8" here)
    seated = ev.Seated(players=("Lin", "Ming", "Mei", "Wang"), profile="home8", rules=rules)
    words = describe(seated, TableState())
    assert zh in words.zh and en in words.en
    assert "這台裝置上沒有" in words.zh and "not on this device" in words.en
    if rules.startswith("id"):
        assert "home8" not in words.zh + words.en  # (named as the log names it, not by its id)
    assert not CJK.search(words.en)


def test_every_app_word_has_both_languages_and_the_same_fields() -> None:
    for key, (zh, en) in UI.items():
        assert zh and en, key
        fields_zh = set(re.findall(r"{(\w+?)(?:_en)?}", zh))
        fields_en = set(re.findall(r"{(\w+?)(?:_en)?}", en))
        assert fields_zh == fields_en, key
        assert not CJK.search(en) or key == "language", key


def test_no_app_word_cites_the_rule_books_section_numbers() -> None:
    """A wording review read "(§2.9: once the next player draws …)" on a phone: the rule book's section numbers
    mean nothing to a player without it (nor do the scorer's words cite them: tests/test_no_section_numbers.py)."""
    assert not [key for key, (zh, en) in UI.items() if "§" in zh + en]


def test_a_false_wins_panel_shows_the_dealer_tai_its_payments_carry() -> None:
    lines = demo_log_path().read_text(encoding="utf-8").splitlines()[:20]
    replay = GameReplay.from_lines(lines, "demo")
    dealer = replay.states[-1].dealer
    offender = (dealer + 1) % 4
    lines.append(json.dumps({"v": 2, "type": "FalseWin", "source": "manual", "seat": offender}))
    replay = GameReplay.from_lines(lines, "false_win.jsonl")
    end = replay.frame(len(replay) - 1).end
    assert end is not None and len(end.lines) == 1
    line = end.lines[0]
    assert line.kind == ui("false_win") and line.dealer_tai > 0
    assert line.penalty and all(not x.penalty for e in (replay.frame(i).end for i in range(len(replay) - 1))
                                if e is not None for x in e.lines)  # its tai said as the penalty's, not a hand's
    names = replay.states[-1].players
    said = [re.match(r".+ pays (.+) (\d+)(?: \(.*\))?$", t.en) for t in end.transfers]
    paid = {m[1]: int(m[2]) for m in said if m is not None}
    assert len(paid) == 3
    per_tai = replay.states[-1].per_tai
    others = [v for name, v in paid.items() if name != names[dealer]]
    assert paid[names[dealer]] - others[0] == per_tai * line.dealer_tai  # the dealer's share carries D


def test_the_last_discard_is_not_said_to_wait_for_a_draw() -> None:
    """河底: the wall is out, so after the last discard nobody draws; the status says a win on it, or a draw. A
    flower owed when the count reached 0 takes it below 0 (spec §2.7): the same."""
    from companion.game.check import step
    from companion.game.simulator import simulate
    from companion.game.state import TableState

    lows = []
    for seed in (8, 169):  # 8 ends a hand in an exhaustive draw; 169 has a count below 0 (24 had, before the bots'
        # declared seats stopped passing wins: a newcomer review)
        state = TableState()
        for e in simulate(seed, 4)[0]:
            state = step(state, e)
            if state.phase is Phase.CLAIM and state.live <= 0:
                frame = table_frame(state, Words("", ""), (), 0, 1, show_hands=True)
                assert frame.phase == ui("phase_last_discard") and "摸牌" not in frame.phase.zh
                lows.append(state.live)
    assert 0 in lows and min(lows) < 0


def test_the_hand_line_counts_the_hands_of_the_round_and_of_the_session() -> None:
    """Spec §6.7: a hand is numbered within its round ("南風圈第 3 把"), the session's count beside it."""
    from companion.game.check import step
    from companion.game.simulator import simulate
    from companion.game.state import TableState

    log, _ = simulate(2, 14)
    state, seen = TableState(), set()
    for e in log:
        state = step(state, e)
        if isinstance(e, ev.DiceRolled) and state.round_wind == 1:
            line = table_frame(state, Words("x", "x"), (), 0, 0, None).hand_line
            assert line is not None
            k, n = state.hand_in_round, len(state.results) + 1
            assert f"南風圈第 {k} 把（全場第 {n} 把）" in line.zh and f"South round, hand {k} (hand {n} of" in line.en
            seen.add(k)
    assert len(seen) >= 2 and min(seen) == 1


def test_the_dealers_name_is_kept_on_one_line_in_the_hand_line() -> None:
    """Chinese text may wrap between any two characters ("dealer 小" / "美" on a phone, a player review): the name in
    the hand's line carries word joiners, which keep it whole and are not drawn."""
    from companion.app.words import WORD_JOINER, unbroken

    assert unbroken("小美") == "小" + WORD_JOINER + "美" and unbroken("Lin").replace(WORD_JOINER, "") == "Lin"
    replay = GameReplay.demo()
    state = replay.states[-1]
    line = table_frame(state, Words("x", "x"), (), 0, 0, None).hand_line
    assert line is not None
    name = state.players[state.dealer]
    assert unbroken(name) in line.zh and unbroken(name) in line.en


_WALL_ENDS = ((128, (16, 0, 16)), (129, (15, 0, 15)), (127, (17, 1, 16)))
"""Tiles taken from the wall, and the wall then said: (count, to draw, kept back)."""


def _walls_near_the_end(tmp_path: Path) -> list[tuple[TableState, tuple[int, int, int]]]:
    """A table whose wall has the tiles of :data:`_WALL_ENDS` taken, each with its wall as said."""
    import dataclasses

    from companion.app.live_model import LiveGame

    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    assert game.start(("A", "B", "C", "D"), "atawmj_2009", 30, 10) is None
    assert game.choose_dealer((3, 5, 6), (1, 1, 2)) is None and game.throw((2, 2, 4)) is None
    state = game.state
    game.close()
    assert state.wall is not None
    return [(dataclasses.replace(state, wall=dataclasses.replace(state.wall, head=taken - state.wall.tail)), said)
            for taken, said in _WALL_ENDS]


def test_the_wall_line_never_keeps_back_more_tiles_than_the_wall_holds(tmp_path: Path) -> None:
    """A flower shown after the last drawable tile takes its replacement from the tiles kept back (spec §2.7): a
    host review read 「牌牆剩 15 張（可摸 0，留 16 張不摸）」; it says 留 15 張 now."""
    for state, (count, live, kept) in _walls_near_the_end(tmp_path):
        frame = table_frame(state, Words("", ""), (), 0, 1, None)
        assert frame.wall_line == ui("wall_line", count=count, live=live, reserve=kept)


def test_companion_replay_counts_the_wall_as_the_app_does(tmp_path: Path) -> None:
    """A code review: ``companion replay`` printed "wall 15, live 0, kept back 16" (16 kept back of 15) where the
    app said 15 kept back; both count the wall with one function now."""
    from companion.game.text import msg
    from companion.game.view import render_table

    for state, (count, live, kept) in _walls_near_the_end(tmp_path):
        said = msg("wall_line", count=count, live=live, reserve=kept)
        assert said.en in render_table(state, "en").splitlines()
        assert said.zh in render_table(state, "zh").splitlines()


def test_a_replacement_at_the_opening_flower_pass_is_not_shown_apart_as_a_tile_drawn(replay: GameReplay) -> None:
    """A views review: after the opening pass a non-dealer's replacement sat apart, as if just drawn, while another
    seat was to act; the dealer's own tile drawn still is."""
    seen = 0
    for i, state in enumerate(replay.states):
        if state.phase is Phase.HAND_OVER:
            continue
        frame = replay.frame(i)
        for seat, panel in enumerate(frame.seats):
            st = state.seats[seat]
            if seat != state.turn and st.drawn is not None and st.drawn.is_known:
                seen += 1  # (and after the dealer's first discard, until the seat's own draw: a review)
                assert panel.drawn is None, (i, seat)
            elif seat == state.turn and st.drawn is not None and st.drawn.is_known and st.drawn.is_suited:
                assert panel.drawn == st.drawn.code, (i, seat)
    assert seen  # (the demo's opening passes replace flowers)


def test_a_four_kongs_draw_is_captioned_as_four_kongs_not_as_the_wall_run_out() -> None:
    """A code review: the step caption of a draw four kongs split between players made (§2.13) said "the wall ran
    out" with 19 tiles still to draw; it says the hand's outcome, as ``companion replay`` and the ledger do."""
    from dataclasses import replace

    from companion.game.simulator import simulate
    from companion.game.switches import Switches

    log, _ = simulate(107, 6, replace(Switches(), four_kongs=True))
    end = next(i for i, e in enumerate(log) if isinstance(e, ev.ExhaustiveDraw))
    lines = [json.dumps(ev.to_dict(e), ensure_ascii=False) for e in log[:end + 1]]
    game = GameReplay.from_lines(lines, "fk.jsonl")
    outcome, wall = game.states[-1].outcome, game.states[-2].wall
    assert outcome is not None and outcome.four_kongs and wall is not None and wall.live > 0
    for captions in (game.captions, game.captions_hidden):
        assert captions[-1] == Words(*outcome.said) == Words("流局（四槓分屬不同家）", "drawn: four kongs by different players")
