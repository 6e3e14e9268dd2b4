"""改底台、改規矩 between hands (``StakesChanged``): the hands before keep their stakes and rules, the hands after
are settled and rotated with the new ones; a change in a hand, of a seating convention, or of nothing is refused."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

import pytest

from companion.game import events as ev
from companion.game.check import replay, step
from companion.game.evolve import finish_hand
from companion.game.service import TableService
from companion.game.session import ledger_of
from companion.game.simulator import simulate
from companion.game.state import Phase, TableState
from companion.game.switches import SeatWind
from companion.game.text import IllegalEvent


def _log(seed: int = 8, hands: int = 9) -> list[ev.Event]:
    log, _ = simulate(seed, hands)
    seatings = [i for i, e in enumerate(log) if isinstance(e, ev.Seated)]
    return log[:seatings[1]] if len(seatings) > 1 else log  # one session


def _before_hand(log: list[ev.Event], n: int) -> int:
    """The log position of the dice that start hand ``n`` (from 1)."""
    return [i for i, e in enumerate(log) if isinstance(e, ev.DiceRolled)][n - 1]


def _insert(log: list[ev.Event], at: int, event: ev.Event) -> list[ev.Event]:
    """``event`` put into ``log`` at ``at``; the undos after it name their targets' new positions."""
    after = [replace(e, target=e.target + 1) if isinstance(e, ev.Retracted) and e.target >= at else e
             for e in log[at:]]
    return log[:at] + [event] + after


def _seated(log: list[ev.Event]) -> ev.Seated:
    return next(e for e in log if isinstance(e, ev.Seated))


def test_new_stakes_settle_the_hands_after_the_change_and_leave_the_earlier_alone() -> None:
    log = _log()
    seated = _seated(log)
    at = _before_hand(log, 4)
    changed = _insert(log, at, ev.StakesChanged(base=100, per_tai=50, switches=seated.switches))
    plain, new = ledger_of(replay(log)), ledger_of(replay(changed))
    assert len(plain.entries) == len(new.entries) >= 6
    paid = 0
    for old_e, new_e in zip(plain.entries, new.entries, strict=True):
        assert old_e.next == new_e.next  # the same switches: the same deals
        n = old_e.result.number
        assert new.stakes_of(new_e) == (plain.stakes if n < 4 else replace(plain.stakes, base=100, per_tai=50))
        if n < 4:
            assert new_e.transfers == old_e.transfers
            continue
        assert len(new_e.transfers) == len(old_e.transfers)
        for a, b in zip(old_e.transfers, new_e.transfers, strict=True):
            # each payment is 底 + 台 x tai: the same tai at the new stakes (a 詐胡's fixed penalty too)
            tai, rest = divmod(a.amount - seated.base, seated.per_tai)
            assert rest == 0 and (b.payer, b.payee, b.amount) == (a.payer, a.payee, 100 + 50 * tai)
            paid += 1
    assert paid > 0
    data = new.to_json()
    assert [h["stakes"]["base"] for h in data["hands"]] == [30 if h["hand"] < 4 else 100 for h in data["hands"]]
    assert "switches" not in data["hands"][-1]  # the rules did not change
    rows = new.to_csv().splitlines()
    assert rows[0].split(",")[9] == "stakes" and rows[3].split(",")[9] == "30/10" and rows[4].split(",")[9] == "100/50"


@pytest.mark.parametrize("seed", [3, 6, 9])  # (sessions with a streak of 2 or more)
def test_new_house_rules_rotate_the_hands_after_the_change(seed: int) -> None:
    """A streak cap of 1 from hand 2 on: a dealer's streak is counted up to 1 from then on (a streak already
    longer included), not before; the tracker and the ledger say the same."""
    log = _log(seed, 12)
    seated = _seated(log)
    plain = ledger_of(replay(log))
    assert max(e.result.streak for e in plain.entries) >= 2
    capped = replace(seated.switches, streak_cap=1)
    for hand in range(2, len(plain.entries) + 1):
        at = _before_hand(log, hand)
        changed = replay(_insert(log, at, ev.StakesChanged(base=seated.base, per_tai=seated.per_tai,
                                                           switches=capped)))
        new = ledger_of(changed)
        assert new.entries[:hand - 2] == plain.entries[:hand - 2]
        assert all(e.result.streak <= 1 for e in new.entries[hand - 1:]), hand
        assert all(a.next.streak == b.result.streak for a, b in pairwise(new.entries)), hand
        assert finish_hand(changed).streak == new.entries[-1].next.streak <= 1
    new = ledger_of(replay(_insert(log, _before_hand(log, 2), ev.StakesChanged(
        base=seated.base, per_tai=seated.per_tai, switches=capped))))
    assert new.entries[0].result == plain.entries[0].result
    assert new.switches_of(new.entries[0]) == seated.switches and new.switches_of(new.entries[-1]) == capped
    # the ledger heads with the rules played now; a hand played otherwise says its own
    assert new.switches == capped and new.to_json()["hands"][0]["switches"]["streak_cap"] is None
    assert "switches" not in new.to_json()["hands"][-1]


def test_the_change_is_refused_in_a_hand_of_a_seating_rule_or_of_nothing() -> None:
    log = _log()
    seated = _seated(log)
    state = replay(log[:_before_hand(log, 2) + 3])  # hand 2 is on
    assert state.in_hand
    with pytest.raises(IllegalEvent) as bad:
        step(state, ev.StakesChanged(base=50, per_tai=20, switches=seated.switches))
    assert "between hands" in bad.value.reason.en and "兩把之間" in bad.value.reason.zh
    between = replay(log[:_before_hand(log, 2)])
    assert between.phase is Phase.HAND_OVER
    for event, said in ((ev.StakesChanged(base=30, per_tai=10, switches=seated.switches), "already these"),
                        (ev.StakesChanged(base=-5, per_tai=10, switches=seated.switches), "whole numbers"),
                        (ev.StakesChanged(base=30, per_tai=10,
                                          switches=replace(seated.switches, seat_wind=SeatWind.FIXED_SEATS)),
                         "seat winds")):
        with pytest.raises(IllegalEvent) as bad:
            step(between, event)
        assert said in bad.value.reason.en
    over = TableState()
    for e in _log(2, 200):  # a whole session: after its last hand nothing is played at any stakes
        over = step(over, e)
    assert finish_hand(over).session_over
    with pytest.raises(IllegalEvent) as bad:
        step(over, ev.StakesChanged(base=50, per_tai=20, switches=over.switches))
    assert bad.value.reason.key == "session_over"


def test_the_change_waits_for_the_hand_to_be_closed_and_undo_takes_it_back() -> None:
    """After a hand the change waits for the next dice: the hand just over stays over (its card, its other
    winners), keeps its stakes, and no claim on its last tile opens again."""
    log = _log()
    seated = _seated(log)
    between = replay(log[:_before_hand(log, 3)])
    changed = step(between, ev.StakesChanged(base=60, per_tai=20, switches=seated.switches))
    assert changed.phase is Phase.HAND_OVER and changed.outcome == between.outcome
    assert (changed.base, changed.per_tai) == (30, 10) and changed.next_terms == (60, 20, seated.switches)
    closed = finish_hand(changed)
    assert closed.results[-1].stakes == (30, 10) and (closed.base, closed.per_tai) == (60, 20)
    assert closed.dealer == finish_hand(between).dealer and closed.next_terms is None
    back = step(changed, ev.Retracted(target=changed.last_index))
    assert back.phase is Phase.HAND_OVER and back.outcome == between.outcome and back.next_terms is None
    assert ledger_of(back) == ledger_of(between)
    again = step(changed, ev.StakesChanged(base=80, per_tai=20))  # changed again before the dice: the latest holds
    assert again.next_terms == (80, 20, seated.switches)
    with pytest.raises(IllegalEvent):  # the same as the change already made
        step(again, ev.StakesChanged(base=80, per_tai=20))
    # the next hand starts from the changed table as from any other, with the new terms
    dice = next(e for e in log[_before_hand(log, 3):] if isinstance(e, ev.DiceRolled))
    dealt = step(changed, dice)
    assert dealt.phase is Phase.DEAL and (dealt.base, dealt.per_tai) == (60, 20) and dealt.next_terms is None
    before_any = replay(log[:_before_hand(log, 1)])  # before the first hand there is nothing to wait for
    assert before_any.phase is Phase.DICE
    now = step(before_any, ev.StakesChanged(base=60, per_tai=20))
    assert (now.base, now.per_tai) == (60, 20) and now.next_terms is None


def test_no_claim_on_the_last_tile_of_a_hand_is_taken_after_the_change() -> None:
    """A player review entered a second win on the tile after a change had closed the hand, and hand 1 was
    rewritten; the hand now stays over and its window resolves the claims as before the change."""
    from companion.game.check import check

    for seed in range(40):
        log = _log(seed, 6)
        state = replay(log[:_before_hand(log, 2)])
        out = state.outcome
        if out is not None and out.winners and out.winners[0].discarder is not None:
            break
    else:
        raise AssertionError("no simulated first hand won on a discard in 40 seeds")
    changed = step(state, ev.StakesChanged(base=60, per_tai=20))
    rec = out.winners[0]
    other = next(s for s in range(4) if s not in (rec.seat, rec.discarder))
    claim = ev.Won(seat=other, kind=ev.WinKind.DISCARD, tile=rec.tile, concealed=rec.concealed)
    for s in (state, changed):  # the same answer with the change as without it
        try:
            check(s, claim)
            same = None
        except IllegalEvent as bad:
            same = bad.reason.key
        if s is state:
            first = same
    assert same == first
    assert finish_hand(changed).results[0].outcome == finish_hand(state).results[0].outcome


def test_the_change_is_kept_in_the_table_file(tmp_path) -> None:  # type: ignore[no-untyped-def]
    log = _log()
    seated = _seated(log)
    path = tmp_path / "table.sqlite"
    change = ev.StakesChanged(base=50, per_tai=20, switches=replace(seated.switches, may_decline_last_tile=False))
    assert ev.from_dict(ev.to_dict(change)) == change
    with TableService(path) as svc:
        for e in log[:_before_hand(log, 2)]:
            assert svc.submit(e).ok
        assert svc.submit(change).ok
        kept = svc.state
    with TableService(path) as again:
        assert again.state == kept and again.events()[-1] == change
        assert again.state.next_terms == (50, 20, change.switches)


def test_a_session_seated_before_the_change_existed_reads_as_before() -> None:
    """Hands recorded without their own stakes (a ledger built from old results) take the session's."""
    log = _log()
    state = replay(log)
    old = replace(state, results=tuple(replace(r, stakes=None, switches=None) for r in state.results))
    assert [(e.transfers, e.balances, e.next) for e in ledger_of(old).entries] == \
        [(e.transfers, e.balances, e.next) for e in ledger_of(state).entries]


def test_a_change_of_stakes_alone_keeps_the_house_rules() -> None:
    """``switches`` left out keeps the rules as the table plays them (not the generic defaults)."""
    from companion.game.session import switches_for

    log = _log()
    seated = _seated(log)
    star = replace(seated, switches=switches_for("star31"), profile="star31")
    at = _before_hand(log, 2)
    state = replay([star if e is seated else e for e in log[:at]])
    changed = finish_hand(step(state, ev.StakesChanged(base=50, per_tai=20)))
    assert changed.switches == star.switches and (changed.base, changed.per_tai) == (50, 20)
    assert ev.from_dict(ev.to_dict(ev.StakesChanged(base=50, per_tai=20))) == ev.StakesChanged(base=50, per_tai=20)


def test_the_tracker_and_the_ledger_deal_the_next_hand_alike_after_a_rule_the_deal_depends_on() -> None:
    """A hand that ends in a draw, then "the dealer keeps the deal after a draw" turned off: the hand just drawn
    was played under the old rule, so its dealer deals again, in the tracker and in the ledger alike."""
    for seed in range(60):
        log = _log(seed, 10)
        plain = replay(log)
        drawn = [r.number for r in plain.results if r.outcome.kind.code == "draw"]
        if drawn and drawn[0] < len(plain.results):
            break
    else:
        raise AssertionError("no simulated session with a draw before its last hand in 60 seeds")
    n = drawn[0]
    seated = _seated(log)
    between = replay(log[:_before_hand(log, n + 1)])
    changed = step(between, ev.StakesChanged(base=seated.base, per_tai=seated.per_tai,
                                             switches=replace(seated.switches, draw_keeps_deal=False)))
    entry = ledger_of(changed).entries[-1]
    closed = finish_hand(changed)
    assert entry.result.number == n and entry.result.outcome.kind.code == "draw"
    assert closed.switches.draw_keeps_deal is False  # the new rule, for the hands after
    assert (closed.dealer, closed.streak) == (entry.next.dealer, entry.next.streak) == \
        (entry.result.dealer, entry.result.streak + 1)  # kept by the rule the hand was played under


def test_a_change_back_leaves_nothing_pending_and_a_seating_after_a_change_keeps_the_terms_played() -> None:
    log = _log()
    between = replay(log[:_before_hand(log, 3)])
    up = step(between, ev.StakesChanged(base=100, per_tai=50))
    back = step(up, ev.StakesChanged(base=30, per_tai=10))
    assert up.next_terms is not None and back.next_terms is None
    reseated = step(up, ev.Seated(("W", "X", "Y", "Z")))
    (record,) = reseated.past
    assert (record.base, record.per_tai) == (30, 10)  # the change was never played


def test_a_change_between_two_winners_on_one_tile_is_no_pass_and_replay_names_the_rules() -> None:
    """一炮多響 (seed 17, everyone wins): a change of terms entered between the two winners neither reads as the
    second passing his win, nor hides the rules it changed in ``companion replay``."""
    import io
    import json
    import tempfile
    from contextlib import redirect_stdout
    from pathlib import Path

    from companion.cli import main
    from companion.game.history import passed_wins
    from companion.game.simulator import Simulator
    from companion.game.switches import MultiWin, Switches

    log = list(Simulator(seed=17, switches=Switches(multi_win=MultiWin.ALL)).run(8))
    state, at = TableState(), None
    for i, e in enumerate(log):
        state = step(state, e)
        if isinstance(e, ev.Won) and state.outcome is not None and len(state.outcome.winners) == 1 and \
                isinstance(log[i + 1], ev.Won):
            at = i + 1
            break
    assert at is not None, "seed 17 no longer has two winners on one discard"
    seated = _seated(log)
    change = ev.StakesChanged(base=100, per_tai=50, switches=replace(seated.switches, streak_cap=3))
    changed = _insert(log, at, change)
    assert passed_wins(changed) == passed_wins(log)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "log.jsonl"
        path.write_text("".join(json.dumps(ev.to_dict(e), ensure_ascii=False) + "\n" for e in changed[:at + 2]))
        out = io.StringIO()
        with redirect_stdout(out):
            assert main(["replay", str(path), "--lang", "en"]) == 0
        printed = out.getvalue()
    line = next(x for x in printed.splitlines() if "StakesChanged" in x)
    assert "stakes 30 + 10 a tai become 100 + 50" in line and "streak tai counted up to 3" in line


def test_the_stakes_change_before_the_first_dealer_is_chosen_too() -> None:
    """A review: after seating, before the first dealer, no hand played, the change was refused "between hands";
    once the dealer was chosen it was taken."""
    seated = step(TableState(), _seated(_log()))
    assert seated.phase is Phase.DEALER
    changed = step(seated, ev.StakesChanged(base=50, per_tai=20, switches=seated.switches))
    assert (changed.base, changed.per_tai) == (50, 20) and changed.next_terms is None


def test_replay_says_a_change_of_house_rules_as_the_app_does(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """A code review: ``companion replay`` printed the switches' codes ("一炮多響：all", "The last tile may be
    declined: False") where the app's step caption says 都胡 / "no": one name for each rule and each value."""
    import json

    from companion.app.table_model import GameReplay
    from companion.cli import main

    log = _log()
    seated = _seated(log)
    at = _before_hand(log, 2)
    new = replace(seated.switches, multi_win=type(seated.switches.multi_win)("all"), may_decline_last_tile=False)
    changed = _insert(log, at, ev.StakesChanged(base=seated.base, per_tai=seated.per_tai, switches=new))
    path = tmp_path / "stakes.jsonl"
    path.write_text("".join(json.dumps(ev.to_dict(e), ensure_ascii=False) + "\n" for e in changed), "utf-8")
    caption = GameReplay.from_lines(path.read_bytes().splitlines(), "stakes.jsonl").captions[at + 1]
    assert "都胡" in caption.zh and "all of them win" in caption.en and "no" in caption.en
    for lang, said in (("zh", caption.zh), ("en", caption.en)):
        assert main(["replay", str(path), "--lang", lang]) == 0
        (line,) = [x for x in capsys.readouterr().out.splitlines() if x.startswith(f"#{at} ")]
        assert line.endswith(said), line
        assert "：all" not in line and "False" not in line
