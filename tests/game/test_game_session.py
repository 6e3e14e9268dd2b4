"""Dealer continuation, rotation, round wind and 一將 (§2.14); the ledger, netting and export (§6.7)."""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import io
import itertools
import json
import random
from pathlib import Path

import pytest
from game_support import Table, t

from companion.game import events as ev
from companion.game.check import replay, step
from companion.game.evolve import finish_hand
from companion.game.rotation import NextDeal, next_deal, resolve_claimants
from companion.game.session import build_ledger, fewest_transfers, ledger_of, session_ledgers, total_balances
from companion.game.simulator import Simulator
from companion.game.state import HandResult, Outcome, OutcomeKind, TableState, WinRecord
from companion.game.switches import MultiWin, Switches
from companion.rules.profiles import load_profile
from companion.rules.scoring import score
from companion.rules.settlement import Stakes, settle
from companion.tiles import parse_tiles


def _win(seat: int) -> Outcome:
    rec = WinRecord(seat=seat, kind=ev.WinKind.SELF_DRAW, tile=None, concealed=(), melds=(), flowers=())
    return Outcome(OutcomeKind.WIN, (rec,), (rec,))


def _ds(nd: NextDeal) -> tuple[int, int]:
    return nd.dealer, nd.streak


def test_dealer_continuation_table() -> None:
    sw = Switches()
    assert _ds(next_deal(1, 2, 0, 3, 1, _win(1), sw)) == (1, 3)  # the dealer wins: N + 1
    assert _ds(next_deal(1, 2, 0, 3, 1, Outcome(OutcomeKind.DRAW), sw)) == (1, 3)  # 流局 臭莊
    assert _ds(next_deal(1, 2, 0, 3, 1, Outcome(OutcomeKind.DECLINED), sw)) == (1, 3)
    assert _ds(next_deal(1, 2, 0, 3, 1, _win(3), sw)) == (2, 0)  # a non-dealer wins: the deal passes
    assert _ds(next_deal(1, 2, 0, 3, 1, Outcome(OutcomeKind.FALSE_WIN, offender=2), sw)) == (1, 2)
    assert _ds(next_deal(1, 2, 0, 3, 1, Outcome(OutcomeKind.DRAW), Switches(draw_keeps_deal=False))) == (2, 0)
    assert _ds(next_deal(1, 2, 0, 3, 1, _win(1), Switches(streak_cap=2))) == (1, 2)
    both = Outcome(OutcomeKind.MULTI_WIN, _win(3).winners + _win(1).winners)
    assert _ds(next_deal(1, 0, 0, 1, 1, both, sw)) == (1, 1)  # the dealer among several winners keeps it


def test_every_rule_sets_switches_round_trip_and_the_streak_cap_is_counted_alike() -> None:
    """One set of switches in two spellings: a rule set's (``streak_cap = "none"``, ``kong_from_left = "allowed"``)
    and the tracker's (``None``, ``True``). Each built-in set's switches read by the tracker spell back as the set
    spells them, the two defaults agree, and the streak N the next deal carries, the scorer counts and a rule set
    caps is one number (a review found the cap computed in four places)."""
    from companion.game.session import switches_for, table_profile
    from companion.rules.profiles import BUILTIN
    from companion.rules.profiles._schema import SWITCHES
    from companion.rules.scoring import dealer_tai
    from companion.rules.win import Win, counted_streak

    both = sorted(set(Switches().to_mapping()) & set(SWITCHES))
    assert len(both) == 14
    assert {k: Switches().as_profile()[k] for k in both} == {k: SWITCHES[k].default for k in both}
    for pid in BUILTIN:
        prof, sw = load_profile(pid), switches_for(pid)
        assert Switches.from_mapping(sw.as_profile()) == sw, pid
        assert {k: sw.as_profile()[k] for k in both} == {k: prof.switches[k] for k in both}, pid
        assert table_profile(prof, sw) is prof, pid
        per = prof.value("streak") + prof.value("streak_pull")
        for n in range(13):
            counted = counted_streak(n, prof.switch("streak_cap"))
            assert counted == counted_streak(n, sw.streak_cap) == min(n, sw.streak_cap if sw.streak_cap is not None
                                                                      else n), (pid, n)
            kept = next_deal(0, n, 0, 1, 0, _win(0), sw).streak
            assert kept == counted_streak(n + 1, sw.streak_cap), (pid, n)
            win = Win.of("222p444s888p99s11z", "1z", "self_draw", melds=["ckong:7777m"], seat_wind="E",
                         round_wind="E", dealer="E", streak=n)
            assert dealer_tai(win, prof) == prof.value("dealer") + per * counted, (pid, n)


def test_round_wind_advances_when_the_deal_returns_to_the_first_dealer() -> None:
    sw = Switches()
    nd = next_deal(0, 0, 0, 4, 1, _win(2), sw)  # dealer 0 is the round's fourth dealer (first was 1)
    assert (nd.dealer, nd.round_wind, nd.hand_in_round) == (1, 1, 1)
    last = next_deal(0, 0, 3, 9, 1, _win(2), sw)
    assert last.session_over


def test_a_simulated_session_ends_after_the_north_round() -> None:
    state = TableState()
    seatings = 0
    for e in Simulator(seed=2).run(200):
        if isinstance(e, ev.Seated) and seatings:
            done = finish_hand(state)
            assert done.session_over
            winds = [r.round_wind for r in done.results]
            assert winds == sorted(winds) and set(winds) == {0, 1, 2, 3}
            assert len(ledger_of(state).entries) == len(done.results)
            break
        seatings += isinstance(e, ev.Seated)
        state = step(state, e)
    else:
        raise AssertionError("no second session in 200 hands")


def test_the_ledger_json_keeps_each_winners_hand_as_the_tai_command_reads_it() -> None:
    """Spec §6.7: per winner, the scoring record of §3.2 with its items (a review: the export held the items alone,
    so no one could tell later what hand earned them). Each record scores again to the line's tai."""
    from companion.rules.profiles import played_with
    from companion.rules.win import Win

    for switches in (Switches(), Switches(streak_cap=1)):  # a table's house rule goes with the record (a review)
        state = TableState()
        for e in Simulator(seed=3, switches=switches).run(12):
            state = step(state, e)
        lines = [x for h in ledger_of(state).to_json()["hands"] for x in h["lines"] if x["kind"] != "false_win"]
        assert lines and all("win" in x for x in lines)
        assert all(x["win"].get("switches") == ({"streak_cap": 1} if switches.streak_cap else None) for x in lines)
        for x in lines:
            record = json.loads(json.dumps(x["win"]))
            again = score(Win.from_dict(record), played_with(load_profile(None), record.get("switches", {})))
            assert (again.hand_tai, [[i.zh, i.en, i.tai] for i in again.items], again.dealer_tai) == \
                (x["hand_tai"], x["items"], x["dealer_tai"])


def test_ledger_sums_to_zero_and_nets_to_few_transfers() -> None:
    sim = Simulator(seed=8)
    list(sim.run(14))
    ledger = ledger_of(sim.state)
    assert len(ledger.entries) >= 1
    for e in ledger.entries:
        per_hand: dict[str, int] = {}
        for tr in e.transfers:
            per_hand[tr.payer] = per_hand.get(tr.payer, 0) - tr.amount
            per_hand[tr.payee] = per_hand.get(tr.payee, 0) + tr.amount
        assert sum(per_hand.values()) == 0
        assert sum(v for _, v in e.balances) == 0
    settle_up = ledger.settle_up()
    assert len(settle_up) <= 3
    after = dict(ledger.balances)
    for tr in settle_up:
        after[tr.payer] += tr.amount
        after[tr.payee] -= tr.amount
    assert set(after.values()) <= {0}
    data = json.loads(json.dumps(ledger.to_json(), ensure_ascii=False))
    assert data["balances"] == ledger.balances and len(data["hands"]) == len(ledger.entries)
    rows = list(csv.reader(io.StringIO(ledger.to_csv())))
    assert rows[0][:3] == ["hand", "round", "dealer"] and len(rows) == len(ledger.entries) + 1
    # spec §6.7's hand in its round, seat winds and next deal too, as the JSON has them (a rules review)
    assert rows[0][10:13] == ["hand_in_round", "seat_winds", "next"]
    for h, row in zip(data["hands"], rows[1:], strict=True):
        assert row[10] == str(h["hand_in_round"]) and row[11] == ";".join(f"{p}:{w}" for p, w in h["seat_winds"].items())
        assert row[12] == ("end" if h["next"]["dealer"] is None else
                           f"{h['next']['dealer']}:{h['next']['streak']}:{h['next']['round_wind']}")
    # winds as companion tai's JSON writes them, in both files
    assert [h["round_wind"] for h in data["hands"]] == [row[1] for row in rows[1:]]
    assert {h["round_wind"] for h in data["hands"]} <= set("ESWN")
    assert all(set(h["seat_winds"].values()) == set("ESWN") for h in data["hands"])


def _brute_min(vals: list[int]) -> int:
    n = len(vals)
    best = 0
    for labels in itertools.product(range(n), repeat=n):
        groups: dict[int, int] = {}
        for v, g in zip(vals, labels, strict=True):
            groups[g] = groups.get(g, 0) + v
        if all(s == 0 for s in groups.values()):
            best = max(best, len(groups))
    return n - best


def test_fewest_transfers_is_minimal() -> None:
    rng = random.Random(5)
    for _ in range(60):
        n = rng.randint(2, 5)
        vals = [rng.choice((-60, -30, 30, 60, 90, -90, 10)) for _ in range(n - 1)]
        vals.append(-sum(vals))
        bal = {f"p{i}": v for i, v in enumerate(vals)}
        out = fewest_transfers(bal)
        nonzero = [v for v in vals if v]
        assert len(out) == (_brute_min(nonzero) if nonzero else 0)
        for tr in out:
            bal[tr.payer] += tr.amount
            bal[tr.payee] -= tr.amount
        assert all(v == 0 for v in bal.values())


def test_a_scripted_win_is_settled_like_the_scorer_says() -> None:
    hands = {0: "123m456m789m11p234p56p9s", 2: "111z222z333z444z78s66p"}
    tb = Table(hands)
    tb.discard(0, "9s")
    tb.do(ev.Won(seat=2, kind=ev.WinKind.DISCARD, tile=t("9s"), concealed=tb.hand(2)))
    ledger = ledger_of(tb.state)
    entry = ledger.entries[-1]
    from companion.game.session import win_input

    rec = tb.state.outcome.winners[0]  # type: ignore[union-attr]
    win = win_input(rec, entry.result, "atawmj_2009")
    expected = settle(score(win), win, Stakes(30, 10))
    assert [tr.amount for tr in entry.transfers] == [p.amount for p in expected.payments]
    assert entry.transfers[0].payer == "East" and entry.transfers[0].payee == "West"
    assert entry.lines[0].hand_tai == score(win).hand_tai


def test_undoing_a_win_recomputes_the_ledger() -> None:
    hands = {0: "123m456m789m11p234p56p9s", 2: "111z222z333z444z78s66p"}
    tb = Table(hands)
    tb.discard(0, "9s")
    tb.do(ev.Won(seat=2, kind=ev.WinKind.DISCARD, tile=t("9s"), concealed=tb.hand(2)))
    assert ledger_of(tb.state).balances["West"] > 0
    tb.do(ev.Retracted(target=tb.state.last_index, note="misread"))
    tb.do(ev.PassedWin(seat=2, tile=t("9s")))
    assert ledger_of(tb.state).entries == ()


def test_three_claimants_under_each_multi_win_rule() -> None:
    claim = [WinRecord(seat=s, kind=ev.WinKind.DISCARD, tile=None, concealed=(), melds=(), flowers=())
             for s in (3, 1, 2)]
    giver = 0
    for rule, winners, kind in ((MultiWin.NEAREST, [1], OutcomeKind.WIN),
                                (MultiWin.ALL, [1, 2, 3], OutcomeKind.MULTI_WIN),
                                (MultiWin.NEAREST_UNLESS_THREE, [1, 2, 3], OutcomeKind.MULTI_WIN),
                                (MultiWin.THREE_IS_DRAW, [], OutcomeKind.DRAW)):
        out = resolve_claimants(tuple(claim), giver, Switches(multi_win=rule))
        assert [w.seat for w in out.winners] == winners and out.kind is kind, rule
        assert [w.seat for w in out.claimants] == [1, 2, 3]
        # the three-win draw is said as such, not as an empty wall's exhaustive draw (a rules review)
        assert out.said == (("流局（三家胡同一張）", "drawn: three wins on one discard") if winners == [] else
                            (kind.zh, kind.en)), rule
    assert Outcome(OutcomeKind.DRAW).said == ("流局", "exhaustive draw")
    two = resolve_claimants(tuple(claim[:2]), giver, Switches(multi_win=MultiWin.NEAREST_UNLESS_THREE))
    assert [w.seat for w in two.winners] == [1]
    robbed = resolve_claimants(tuple(claim[:2]), 2, Switches())  # counted from the kong player
    assert [w.seat for w in robbed.winners] == [3]


def test_the_csv_says_which_draw_three_wins_on_one_discard_made() -> None:
    """The session CSV wrote ``draw`` for the three-win draw as for an empty wall's (the JSON says it in words)."""
    tb = Table({0: "9s678m", 1: "123m456m789m111p222p9s", 2: "123s456s777s333p444p9s", 3: "111z222z333z444z555z9s"},
               switches=Switches(multi_win=MultiWin.THREE_IS_DRAW))
    tb.discard(0, "9s")
    for seat in (1, 2, 3):
        tb.do(ev.Won(seat=seat, kind=ev.WinKind.DISCARD, tile=t("9s"), concealed=tb.hand(seat)))
    ledger = ledger_of(tb.state)
    rows = list(csv.DictReader(io.StringIO(ledger.to_csv())))
    assert [r["result"] for r in rows] == ["draw:three_wins"] and rows[0]["winners"] == ""
    assert ledger.to_json()["hands"][0]["result"]["en"] == "drawn: three wins on one discard"


def test_sessions_with_players_changing_seats_add_up_by_name() -> None:
    sim = Simulator(seed=2)
    for _ in sim.run(60):
        pass
    ledgers = session_ledgers(sim.state)
    assert len(ledgers) >= 2 and len(sim.state.past) == len(ledgers) - 1
    seatings = {ledger.entries[0].result.players for ledger in ledgers if ledger.entries}
    assert len(seatings) >= 2  # the same four people in different seats
    total = total_balances(ledgers)
    assert sum(total.values()) == 0
    for name in total:
        assert total[name] == sum(ledger.balances.get(name, 0) for ledger in ledgers)
    assert len(fewest_transfers(total)) <= 3


def test_the_first_seating_cannot_be_retracted_but_seating_again_can() -> None:
    """A review seated the next session in one tap while the last hand (the one that settles the night) still had a
    question open: nothing before the new seating could be undone. Seating again is taken back like any entry, and
    the session before it is as it was, the last hand's open question included."""
    sim = Simulator(seed=2)
    log = list(sim.run(2))
    state = step(TableState(), log[0])
    with pytest.raises(ValueError, match="retract"):
        step(state, ev.Retracted(target=0))
    played = replay(log)
    assert played.results and played.players
    again = step(played, ev.Seated(("甲", "乙", "丙", "丁")))
    assert again.results == () and again.past and again.prev is played
    back = step(again, ev.Retracted(target=again.last_index))
    assert (back.players, back.results, back.outcome, back.phase, back.past) == \
        (played.players, played.results, played.outcome, played.phase, played.past)
    assert back.prev is played.prev  # and the taps before it go on being undone


def test_a_win_with_a_hidden_concealed_kong_is_refused_and_a_log_kept_with_one_still_opens(tmp_path: Path) -> None:
    import sqlite3

    from companion.app.table_model import GameReplay
    from companion.game.check import replay
    from companion.game.service import TableService, read_log
    from companion.game.state import TableState
    from companion.game.switches import FirstDealer
    from companion.game.text import IllegalEvent
    from companion.tiles import Tile, parse_tiles

    unknown = Tile.UNKNOWN
    events: list[ev.Event] = [
        ev.Seated(players=("a", "b", "c", "d"), switches=Switches(first_dealer=FirstDealer.EAST_DEALS)),
        ev.DealerChosen(dealer=0), ev.DiceRolled(dice=(3, 3, 3)),
        ev.Dealt(hands=tuple((unknown,) * (17 if i == 0 else 16) for i in range(4))),
        ev.ConcealedKong(seat=0), ev.ReplacementDrew(seat=0)]
    s = TableState()
    for e in events:
        s = step(s, e)
    won = ev.Won(seat=0, kind=ev.WinKind.SELF_DRAW, tile=t("5p"), concealed=parse_tiles("123m456m678m123p5p"))
    with pytest.raises(IllegalEvent) as info:  # the table is asked for the kong's kind while the tiles are shown
        step(s, won)
    assert info.value.reason.key == "kongs_to_show" and "暗槓" in info.value.reason.zh
    with pytest.raises(IllegalEvent) as info:  # and more kongs named than lie face down are named as such
        step(s, ev.Won(seat=0, kind=ev.WinKind.SELF_DRAW, tile=t("5p"), concealed=parse_tiles("123m456m678m123p5p"),
                       kongs=parse_tiles("7z1s")))
    assert info.value.reason.key == "kongs_extra" and "only 1" in info.value.reason.en
    with pytest.raises(IllegalEvent, match="concealed kong"):  # a log written today is asked it (a code review)
        replay([*events, won])
    # a log kept before the tracker asked (a review: it no longer opened) replays, the win listed unscored
    old_log = [dataclasses.replace(e, rules_version=0) for e in (*events, won)]  # (kept before events were stamped)
    (line,) = ledger_of(replay(old_log)).entries[0].lines
    assert line.unscored and "暗槓" in line.unscored and "concealed kong" in line.unscored
    zh, en = line.unscored.split(" / ", 1)
    assert "翻開暗槓" in zh and "reveal" in en  # the reason in Chinese too (it was the English one)
    assert ledger_of(replay(old_log)).entries[0].transfers == ()
    log = tmp_path / "old.jsonl"
    log.write_text("".join(json.dumps(ev.to_dict(e)) + "\n" for e in old_log), "utf-8")
    assert GameReplay(read_log(log)[0], "old.jsonl").states[-1].outcome is not None  # Open log
    store = tmp_path / "old.sqlite"  # the live table's store: opens with its ledger
    TableService(store).close()
    with sqlite3.connect(store) as db:
        db.executemany("INSERT INTO events (seq, body) VALUES (?, ?)",
                       [(i, json.dumps(ev.to_dict(e))) for i, e in enumerate(old_log)])
    kept = TableService(store)
    try:
        assert kept.state.outcome is not None and ledger_of(kept.state).entries[0].lines[0].unscored
    finally:
        kept.close()


def test_a_declared_win_below_min_tai_pays_the_claimed_tai_under_claimed_tai(tmp_path: Path) -> None:
    """Spec §6.4: below ``min_tai`` a declared win is 詐胡; §6.6 ``claimed_tai``: the penalty is the tai the
    offender claimed (here 2), not the 8 of a claim without a score."""
    house = tmp_path / "min3.toml"
    house.write_text('id = "min3"\ninherits = "wikibooks_base"\n[tai]\n[switches]\nmin_tai = 3\n', "utf-8")
    prof = load_profile(str(house))
    assert prof.switch("false_win_penalty") == "claimed_tai"
    rec = WinRecord(seat=2, kind=ev.WinKind.DISCARD, tile=parse_tiles("3s")[0],
                    concealed=parse_tiles("123m456m234p678p45s88s"), melds=(), flowers=parse_tiles("3f"), discarder=1)
    r = HandResult(number=1, round_wind=0, hand_in_round=1, dealer=0, streak=1, dice_total=9, seat_winds=(0, 1, 2, 3),
                   players=("A", "B", "C", "D"), outcome=Outcome(OutcomeKind.WIN, (rec,), (rec,)))
    (entry,) = build_ledger([r], Switches.from_mapping(prof.switches), Stakes(30, 10), prof, 0).entries
    (line,) = entry.lines
    assert line.kind == "false_win" and line.hand_tai == 2
    # 2 tai to each, the dealer A's D (1 + 2N = 3) between him and the offender: 30 + 10 x 2 and 30 + 10 x 5
    assert sorted((t.payer, t.payee, t.amount) for t in entry.transfers) == [
        ("C", "A", 80), ("C", "B", 50), ("C", "D", 50)]


@pytest.mark.parametrize(("seed", "kind"), [(198, ev.WinKind.EIGHT_FLOWERS), (12, ev.WinKind.SEVEN_ROB_ONE)])
def test_an_instant_win_a_table_switches_on_scores_its_tai_where_the_rule_set_gives_it_0(
        tmp_path: Path, seed: int, kind: ev.WinKind) -> None:
    """A review: a table playing 八仙過海 or 七搶一 (its switch on) under a rule set scoring it 0 had the win accepted
    by the tracker, then charged as a 詐胡 by the ledger. It scores the tai of spec §4.2/§4.4 (8)."""
    from companion.game.session import switches_for
    from companion.game.simulator import simulate

    house = tmp_path / "off.toml"
    house.write_text(f'id = "off"\ninherits = "atawmj_2009"\n[tai]\n{kind.value} = 0\n', "utf-8")
    prof = load_profile(str(house))
    assert not getattr(switches_for(prof), kind.value)  # the rule set leaves it off
    log, _ = simulate(seed, 4)
    at = next(i for i, e in enumerate(log) if isinstance(e, ev.Won) and e.kind is kind)
    state = replay(log[:at + 1])
    assert getattr(state.switches, kind.value)  # the table plays it
    entry = ledger_of(state, prof).entries[-1]
    assert [(x.kind, x.capped_tai) for x in entry.lines] == [(kind.value, 8)]
    out = state.outcome
    assert out is not None and {t.payee for t in entry.transfers} == {state.players[out.winners[0].seat]}


def _west_wins_on_3s_under_min_tai(tmp_path: Path, inherits: str, switches: str = "", names: str = "") -> Table:
    """A house profile of ``inherits`` with min_tai 3 (and ``switches``, TOML lines; ``names``, its name lines);
    East discards 3s after the first go-around, on which West can win with 2 tai (門清 1 + 正花 1)."""
    house = tmp_path / "min3.toml"
    house.write_text(f'id = "min3"\ninherits = "{inherits}"\n{names}[tai]\n[switches]\nmin_tai = 3\n{switches}',
                     "utf-8")
    tb = Table({0: "1z3s", 2: "123m456m234p678p45s8s3f"}, profile=str(house))
    tb.do(ev.FlowerReplaced(seat=2, flowers=(t("3f"),), replacements=(tb.take("8s"),)))
    tb.discard(0, "1z")
    for s in (1, 2, 3):  # the first go-around passes (a win in it would be 人胡)
        tb.draw(s, "4z")
        tb.discard(s, "4z")
    tb.draw(0, "5z")
    tb.discard(0, "3s")
    return tb


def test_the_tracker_refuses_a_win_below_min_tai_so_the_table_records_a_false_win(tmp_path: Path) -> None:
    """Spec §6.4: under ``min_tai`` there is no legal win; a declared one is 詐胡, and 詐胡 with ``void_hand``
    replays the hand with the same dealer (§2.14), where a win would have moved the deal on."""
    tb = _west_wins_on_3s_under_min_tai(tmp_path, "atawmj_2009")
    hand = tuple(x for x in tb.hand(2))
    err = tb.refused(ev.Won(seat=2, kind=ev.WinKind.DISCARD, tile=t("3s"), concealed=hand), "below_min")
    assert "min3" in str(err) and "詐胡" in err.reason.zh
    tb.do(ev.FalseWin(seat=2))
    assert tb.state.outcome is not None and tb.state.outcome.false_wins == (2,)
    (entry,) = ledger_of(tb.state).entries
    assert entry.next.dealer == 0 and entry.next.streak == tb.state.streak  # the same dealer, the hand replayed


def test_the_tracker_names_the_rule_set_of_a_minimum_by_its_name_in_each_language(tmp_path: Path) -> None:
    """A review read "below the minimum of 3 (min3)": the rule set's id, code to a player. The refusal names the
    set as the scorer's reason does, by its name in each language."""
    tb = _west_wins_on_3s_under_min_tai(tmp_path, "atawmj_2009", names='name_zh = "週五家規"\nname_en = "Friday house"\n')
    err = tb.refused(ev.Won(seat=2, kind=ev.WinKind.DISCARD, tile=t("3s"), concealed=tb.hand(2)), "below_min")
    assert "“Friday house”" in err.reason.en and "「週五家規」" in err.reason.zh, err.reason
    assert "min3" not in err.reason.en + err.reason.zh and "週五家規" not in err.reason.en


def test_a_false_win_logged_through_the_tracker_pays_the_tai_it_claimed(tmp_path: Path) -> None:
    """§6.6 ``claimed_tai`` through the tracker: the refusal names the tai, the table logs the 詐胡 with it, and the
    ledger charges those 2 tai (it charged 8, the tai of a claim without a score)."""
    tb = _west_wins_on_3s_under_min_tai(tmp_path, "wikibooks_base")
    err = tb.refused(ev.Won(seat=2, kind=ev.WinKind.DISCARD, tile=t("3s"), concealed=tb.hand(2)), "below_min")
    assert dict(err.evidence)["claimed_tai"] == "2"
    tb.refused(ev.FalseWin(seat=2, claimed_tai=-1), "claimed_tai")
    tb.do(ev.FalseWin(seat=2, claimed_tai=2))
    (entry,) = ledger_of(tb.state).entries
    (line,) = entry.lines
    assert line.kind == "false_win" and line.hand_tai == 2
    # 30 + 10 x 2 to each non-dealer; the dealer East (N = 0, D = 1) gets 30 + 10 x 3
    assert sorted((x.payer, x.payee, x.amount) for x in entry.transfers) == [
        ("West", "East", 60), ("West", "North", 50), ("West", "South", 50)]
    assert ev.from_dict(ev.to_dict(ev.FalseWin(seat=2, claimed_tai=2))) == ev.FalseWin(seat=2, claimed_tai=2)


def _two_claims_on_3s(house: Path, multi_win: MultiWin) -> Table:
    """The dealer (East) and South both win on North's 3s; the dealer's hand scores 2 tai (門清, 獨聽), South's 3."""
    sw = Switches(multi_win=multi_win)
    tb = Table({0: "789m789p567s456p99m12s1z", 1: "123m456m234p678p45s88s"}, sw, profile=str(house))
    tb.discard(0, "1z")
    for s in (1, 2, 3):
        tb.draw(s, "4z")
        tb.discard(s, "4z")
    tb.draw(0, "5z")
    tb.discard(0, "5z")
    for s in (1, 2):
        tb.draw(s, "6z")
        tb.discard(s, "6z")
    tb.draw(3, "3s")
    tb.discard(3, "3s")
    return tb


@pytest.mark.parametrize("multi_win", [MultiWin.NEAREST, MultiWin.ALL])
@pytest.mark.parametrize("dealer_first", [False, True])
def test_a_false_claim_beside_a_win_on_the_same_tile(tmp_path: Path, multi_win: MultiWin, dealer_first: bool) -> None:
    """Spec §6.4 and §2.14: a dealer's claim under ``min_tai`` beside South's legal win on the same discard is 詐胡,
    whichever is logged first: South wins (under ``nearest`` too, where the dealer is nearer), the dealer pays the
    penalty, and the deal passes with N = 0 (it had counted the false claim as a dealer win: N + 1)."""
    house = tmp_path / "min3.toml"
    house.write_text('id = "min3"\ninherits = "atawmj_2009"\n[tai]\n[switches]\nmin_tai = 3\n', "utf-8")
    tb = _two_claims_on_3s(house, multi_win)
    south = ev.Won(seat=1, kind=ev.WinKind.DISCARD, tile=t("3s"), concealed=tb.hand(1))
    dealer = ev.Won(seat=0, kind=ev.WinKind.DISCARD, tile=t("3s"), concealed=tb.hand(0))
    if dealer_first:
        err = tb.refused(dealer, "below_min")
        tb.do(ev.FalseWin(seat=0, claimed_tai=int(dict(err.evidence)["claimed_tai"])))
        tb.refused(ev.FalseWin(seat=0), "claimed_already")
        tb.do(south)
    else:
        tb.do(south)
        tb.do(dealer)  # kept as the dealer's 詐胡
    out = tb.state.outcome
    assert out is not None and out.kind is OutcomeKind.WIN
    assert [w.seat for w in out.winners] == [1] and out.false_wins == (0,) and out.false_claims == (2,)
    (entry,) = ledger_of(tb.state).entries
    assert [(ln.player, ln.kind) for ln in entry.lines] == [("South", "discard"), ("East", "false_win")]
    assert (entry.next.dealer, entry.next.streak) == (1, 0)
    assert sum(x.amount for x in entry.transfers if x.payee == "South" and x.payer == "North") > 0


def test_a_limit_penalty_is_said_as_one_payment_shared_by_the_three(tmp_path: Path) -> None:
    """§6.6 ``limit``: one limit payment (底 + 台 × 8 without a cap) split among the other three in turn from the
    offender's 下家, the remainder first. A settlement review saw 37, 37 and 36 paid beside "詐胡 8 台" and nothing
    saying why: the ledger's line and the hand's end card name the limit and the split."""
    from companion.app.ledger_model import ledger_panel
    from companion.app.table_model import _hand_end
    from companion.app.words import ui

    tb = _west_wins_on_3s_under_min_tai(tmp_path, "atawmj_2009", 'false_win_penalty = "limit"\n')
    tb.refused(ev.Won(seat=2, kind=ev.WinKind.DISCARD, tile=t("3s"), concealed=tb.hand(2)), "below_min")
    tb.do(ev.FalseWin(seat=2))
    (entry,) = ledger_of(tb.state).entries
    (line,) = entry.lines
    assert (line.kind, line.hand_tai, line.shared) == ("false_win", 8, 110)  # 30 + 10 x 8, stakes of the Table
    # West's 下家 North first, then East, South: 110 = 37 + 37 + 36
    assert sorted((x.payer, x.payee, x.amount) for x in entry.transfers) == [
        ("West", "East", 37), ("West", "North", 37), ("West", "South", 36)]
    panel = ledger_panel(tb.state)
    assert panel is not None
    said = panel.rows[-1].lines[0]
    shared = ui("ledger_shared", amount=110)
    assert said.zh.endswith(shared.zh) and said.en.endswith(shared.en)
    assert "滿台" in said.zh and "110" in said.en  # the limit named as the rule set's tai_cap (滿台) is
    end = _hand_end(tb.state)
    assert end is not None and end.lines[0].shared == 110
    from companion.cli import main  # and `companion replay` says it as the ledger does

    log = tmp_path / "limit.jsonl"
    log.write_text("".join(json.dumps(ev.to_dict(e), ensure_ascii=False) + "\n" for e in tb.log), encoding="utf-8")
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert main(["replay", str(log), "--quiet", "--lang", "en"]) == 0
    # a false win said with a verb, as a win is ("East wins on a discard, 5 tai": a wording review)
    assert "West makes a false win, 8 tai, one limit payment of 110, split among the other three" in out.getvalue()


def test_a_table_that_switches_an_instant_win_on_is_said_to_play_its_own_rules_not_an_edited_set(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A change review: a 七搶一 won under star31 (which scores it 0) at a table that switched it on was recorded with
    the whole ``rules`` block, and ``companion tai --explain`` said the set 「（入座時的版本）」, as edited; and
    ``companion tai`` refused ``"switches": {"four_kongs": true}``. The record carries the table's switch, and scores
    and is said as the table's own rules."""
    from companion.cli import main
    from companion.game.check import replay
    from companion.game.simulator import simulate
    from companion.rules.profiles import played_with
    from companion.rules.win import Win

    prof = load_profile("star31")
    log, _ = simulate(12, 4)
    at = next(i for i, e in enumerate(log) if isinstance(e, ev.Won) and e.kind is ev.WinKind.SEVEN_ROB_ONE)
    state = replay(log[:at + 1])
    assert state.switches.seven_rob_one and not prof.value("seven_rob_one")
    line = next(x for x in ledger_of(state, prof).to_json()["hands"][-1]["lines"] if "win" in x)
    record = line["win"]
    assert "rules" not in record and record["switches"]["seven_rob_one"] is True
    again = played_with(load_profile(record["profile"]), record["switches"])
    assert score(Win.from_dict(record), again).hand_tai == line["hand_tai"] == 8
    for lang, seated, own in (("zh", "入座時的版本", "本桌規矩："), ("en", "as seated", "House rules: ")):
        monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(record) + "\n"))
        assert main(["tai", "--explain", "--lang", lang]) == 0
        out = capsys.readouterr().out
        assert seated not in out and own in out, out
        assert ("七搶一（算）" if lang == "zh" else "seven rob one (on)") in out.split(own)[1].splitlines()[0], out


def test_four_kongs_switched_on_under_atawmj_2009_scores_its_tai_by_one_helper() -> None:
    """Spec §4.4: 四槓 is off (0) in atawmj_2009 and 8 where on. A table that switches it on (the tracker's
    ``table_profile``) and a record's ``"switches": {"four_kongs": true}`` (``companion tai``'s ``played_with``) score
    it alike, 8, and say it as the table's own switch."""
    from companion.game.session import switches_for, table_profile
    from companion.rules.profiles import played_with
    from companion.rules.win import Win

    prof = load_profile("atawmj_2009")
    assert prof.value("four_kongs") == 0
    win = Win.from_dict({"concealed": "123m57s", "melds": ["kong:1111p@L", "kong:2222p@O", "kong:3333p@R",
                         "ckong:4444s"], "win_type": "four_kongs", "seat_wind": "S", "round_wind": "E"})
    table = table_profile(prof, dataclasses.replace(switches_for(prof), four_kongs=True))
    line = played_with(prof, {"four_kongs": True})
    for played in (table, line):
        assert played.value("four_kongs") == 8 and played.played_over == {"four_kongs": False}
        assert score(win, played).hand_tai == 8
    assert played_with(line, {"four_kongs": False}).value("four_kongs") == 0


def test_an_instant_win_switched_on_scores_the_tai_of_the_nearest_set_that_scores_it(tmp_path: Path) -> None:
    """A house set inheriting 宅神爺 (八仙過海 16, spec §5.2) that sets 八仙過海 to 0, switched on by a table, scores
    16, not the 8 an earlier version gave every instant win whatever the set; where no set of its line scores it,
    the rules document's (spec §4.4: 四槓 8)."""
    from companion.game.session import switches_for, table_profile

    house = tmp_path / "zs0.toml"
    house.write_text('id = "zs0"\ninherits = "zhaishenye"\n[tai]\neight_flowers = 0\n', encoding="utf-8")
    prof = load_profile(house)
    assert prof.value("eight_flowers") == 0 and load_profile("zhaishenye").value("eight_flowers") == 16
    played = table_profile(prof, dataclasses.replace(switches_for(prof), eight_flowers=True, four_kongs=True))
    assert (played.value("eight_flowers"), played.value("four_kongs")) == (16, 8)


def test_a_false_win_the_rules_do_not_penalise_is_said_to_pay_nothing_not_0_tai(tmp_path: Path) -> None:
    """§6.6 ``none``: no penalty. A settlement review read "West: false win, 0 tai" on the Ledger, 「詐胡罰 0 台」 on
    the hand's end card and "West makes a false win, 0 tai" in `companion replay`: at a table 0 tai pays 底 + 0 tai, yet
    nothing was paid. Each says that these rules do not penalise it and nothing is paid."""
    from companion.app.ledger_model import ledger_panel
    from companion.app.table_model import _hand_end
    from companion.app.words import ui
    from companion.cli import main

    tb = _west_wins_on_3s_under_min_tai(tmp_path, "atawmj_2009", 'false_win_penalty = "none"\n')
    tb.refused(ev.Won(seat=2, kind=ev.WinKind.DISCARD, tile=t("3s"), concealed=tb.hand(2)), "below_min")
    tb.do(ev.FalseWin(seat=2))
    (entry,) = ledger_of(tb.state).entries
    (line,) = entry.lines
    assert (line.kind, line.unpaid, entry.transfers) == ("false_win", True, ())
    panel = ledger_panel(tb.state)
    assert panel is not None
    assert panel.rows[-1].lines == (ui("ledger_unpaid", player="West"),)
    assert "0 tai" not in panel.rows[-1].lines[0].en and "0 台" not in panel.rows[-1].lines[0].zh
    end = _hand_end(tb.state)
    assert end is not None and end.lines[0].unpaid and end.lines[0].penalty
    log = tmp_path / "none.jsonl"
    log.write_text("".join(json.dumps(ev.to_dict(e), ensure_ascii=False) + "\n" for e in tb.log), encoding="utf-8")
    for lang, want in (("en", "  #1 West: false win, no penalty under these rules, nothing is paid\n"),
                       ("zh", "  #1 West 詐胡：這套規則不罰，不用付錢\n")):
        with contextlib.redirect_stdout(io.StringIO()) as out:
            assert main(["replay", str(log), "--quiet", "--lang", lang]) == 0
        assert want in out.getvalue()
    # the JSON says so too: its capped_tai 0 and no transfers read as a 0-tai penalty claimed (a settlement review)
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert main(["replay", str(log), "--json"]) == 0
    (said,) = json.loads(out.getvalue())["hands"][-1]["lines"]
    assert (said["kind"], said["capped_tai"], said["unpaid"]) == ("false_win", 0, True)
    (tmp_path / "paid").mkdir()  # the default penalty: paid, no such field
    paid = _west_wins_on_3s_under_min_tai(tmp_path / "paid", "atawmj_2009")
    paid.refused(ev.Won(seat=2, kind=ev.WinKind.DISCARD, tile=t("3s"), concealed=paid.hand(2)), "below_min")
    paid.do(ev.FalseWin(seat=2))
    (fined,) = ledger_of(paid.state).to_json()["hands"][-1]["lines"]
    assert fined["kind"] == "false_win" and "unpaid" not in fined


@pytest.mark.parametrize(("penalty", "key"), [("none", "live_p_false_others_unpaid"),
                                              ("fixed8_plus_dealer", "live_p_false_others")])
def test_the_live_prompt_after_a_false_win_says_no_penalty_is_paid_where_the_rules_have_none(
        tmp_path: Path, penalty: str, key: str) -> None:
    """A settlement review: after a 詐胡 that voids the hand, the Live tab asks whether another player also won on the
    tile, and said that the false win's penalty "is still paid" then, under rules that do not penalise it too
    (``false_win_penalty = none``, spec §6.6). It says there is no penalty there; elsewhere as before."""
    from companion.app.live_offer import offer_for
    from companion.app.words import ui

    tb = _west_wins_on_3s_under_min_tai(tmp_path, "atawmj_2009", f'false_win_penalty = "{penalty}"\n')
    tb.do(ev.FalseWin(seat=2))
    prompt = offer_for(tb.state, len(tb.log), tb.log).prompt
    assert prompt == ui(key)
    assert ("still paid" in prompt.en) is (penalty != "none") and ("照付" in prompt.zh) is (penalty != "none")
