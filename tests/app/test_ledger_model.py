"""The Ledger tab's model: the tracker's ledger up to a step, the balances, and the fewest payments."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from companion.app.ledger_model import item_named, ledger_csv, ledger_panel, marked_items
from companion.app.live_model import LiveGame
from companion.app.table_model import GameReplay
from companion.app.words import Words
from companion.game.evolve import finish_hand
from companion.game.session import ledger_of
from companion.game.state import OutcomeKind, TableState


def test_the_ledger_grows_a_row_at_each_hand_end_and_settles_to_zero() -> None:
    replay = GameReplay.demo()
    assert ledger_panel(replay.states[0]) is None
    ends = replay.hand_ends()
    for n, end in enumerate(ends, 1):
        before, at = ledger_panel(replay.states[end - 1]), ledger_panel(replay.states[end])
        assert before is not None and at is not None
        assert len(before.rows) == n - 1 and len(at.rows) == n
        ledger = ledger_of(replay.states[end])
        assert at.balances == tuple(ledger.balances.items())
        assert sum(v for _, v in at.balances) == 0
        owed = dict(at.balances)
        for t in ledger.settle_up():  # the payments shown settle every balance
            owed[t.payer] += t.amount
            owed[t.payee] -= t.amount
        assert set(owed.values()) <= {0}
        assert [w.en for w in at.settle_up] == [f"{t.payer} pays {t.payee} {t.amount}" for t in ledger.settle_up()]
        row = at.rows[-1]
        assert row.number == n and row.balances == ledger.entries[-1].balances
        assert [w.en.split(":")[0] for w in row.lines] == [x.player for x in ledger.entries[-1].lines]


def test_a_declined_last_tile_is_said_a_draw_in_both_languages() -> None:
    """The demo's hand that ends on a declined last tile reads 流局 in Chinese; its English said only "declined last
    tile", leaving out that the hand was drawn (a review), in the ledger and at the hand's end on the Table tab."""
    replay = GameReplay.demo()
    declined = [end for end in replay.hand_ends() if replay.states[end].outcome is not None
                and replay.states[end].outcome.kind is OutcomeKind.DECLINED]
    assert declined  # the demo has one
    end = declined[0]
    panel = ledger_panel(replay.states[end])
    assert panel is not None
    result = panel.rows[-1].result
    assert "流局" in result.zh and "drawn" in result.en
    shown = replay.frame(end).end
    assert shown is not None and "drawn" in shown.outcome.en and "流局" in shown.outcome.zh


def test_the_ledger_as_csv_has_a_row_a_hand_with_the_balances_and_the_settling_up() -> None:
    replay = GameReplay.demo()
    state = replay.states[-1]
    panel = ledger_panel(state)
    assert panel is not None and panel.rows
    rows = list(csv.reader(io.StringIO(ledger_csv(state))))
    head, body = rows[0], rows[1:]
    n = len(panel.players)
    assert head[0] == "把 Hand" and head[5] == "改正 Corrections" and head[6] == "下一把 Next hand"
    assert head[7:9] == ["骰子 Dice", "門風 Seat winds"] and head[-1] == "胡牌的牌 Winning hands"  # (spec §6.7: the dice total,
    # the seat winds and each winner's hand)
    assert head[9:-1] == [f"{p} 這把 this hand" for p in panel.players] + [f"{p} 累計 running" for p in panel.players]
    hands = body[:len(panel.rows)]
    was = dict.fromkeys(panel.players, 0)
    results = finish_hand(state).results  # (the hand just ended included)
    for row, r, h in zip(hands, panel.rows, results, strict=True):
        assert int(row[0]) == r.number and row[2] == f"{r.result.zh} / {r.result.en}"
        assert r.next is not None and row[6] == f"{r.next.zh} / {r.next.en}"  # who deals next (spec §6.7)
        assert int(row[7]) == h.dice_total and 3 <= h.dice_total <= 18
        assert row[8].split(" / ")[1] == ", ".join(f"{p} {('East', 'South', 'West', 'North')[k]}"
                                                  for p, k in zip(h.players, h.seat_winds, strict=True))
        running = [dict(r.balances)[p] for p in panel.players]
        winners = [f"{h.players[w.seat]}: " for w in h.outcome.winners]
        assert [part.split(": ")[0] + ": " for part in row[-1].split("; ") if part] == winners
        assert all(" win=" in part or part.endswith(" eight_flowers") for part in row[-1].split("; ") if part)
        assert [int(v) for v in row[9 + n:-1]] == running
        assert [int(v) for v in row[9:9 + n]] == [b - was[p] for p, b in zip(panel.players, running, strict=True)]
        assert sum(int(v) for v in row[9:9 + n]) == 0  # a hand's money balances
        was = dict(zip(panel.players, running, strict=True))
    assert [int(v) for v in hands[-1][9 + n:-1]] == [v for _, v in panel.balances]  # the last row is the total
    # each player's hand column sums to his balance (a review summed the running column and got nonsense)
    assert [sum(int(row[9 + i]) for row in hands) for i in range(n)] == [v for _, v in panel.balances]
    tail = body[len(panel.rows):]
    assert tail[0] == [] and tail[1][0] == "結算 Settle up"
    # the fewest payments in columns a spreadsheet can total (a review found one text cell each), and in words
    assert tail[2] == ["", "付款人 Payer", "收款人 Payee", "金額 Amount", "付款 Payment"]
    assert [(x[1], x[2], int(x[3]), x[4]) for x in tail[3:]] == [
        (t.payer, t.payee, t.amount, f"{w.zh} / {w.en}") for t, w in zip(ledger_of(state).settle_up(),
                                                                            panel.settle_up, strict=True)]
    assert sum(int(x[3]) for x in tail[3:]) == sum(v for _, v in panel.balances if v > 0)
    assert not replay.states[0].players  # nobody seated yet: the headings alone
    assert ledger_csv(replay.states[0]).splitlines() == [
        '把 Hand,"圈風、莊家、連莊 Round, dealer, streak",結果 Result,胡牌與台數 Winners and tai,付款 Payments,'
        '改正 Corrections,下一把 Next hand,骰子 Dice,門風 Seat winds,胡牌的牌 Winning hands']


def test_the_csv_keeps_every_session_at_the_table_and_names_cannot_be_formulas() -> None:
    from companion.game import events as ev
    from companion.game.check import step
    from companion.game.session import session_ledgers, total_balances

    replay = GameReplay.demo()
    reseated = step(replay.states[-1], ev.Seated(("=Eve", "老王", "Lin", "阿明")))  # players seated again
    rows = list(csv.reader(io.StringIO(ledger_csv(reseated))))
    assert rows[0] == ["第 1 將 Session 1"] and ["第 2 將 Session 2"] in rows
    second = rows.index(["第 2 將 Session 2"])
    names = ["=Eve", "老王", "Lin", "阿明"]  # a spreadsheet shows the name, not a formula
    assert rows[second + 1][9:-1] == [f"'{p} 這把 this hand" if p[0] == "=" else f"{p} 這把 this hand" for p in names] \
        + [f"'{p} 累計 running" if p[0] == "=" else f"{p} 累計 running" for p in names]
    first = ledger_panel(replay.states[-1])
    assert first is not None and len([r for r in rows[:second] if r and r[0].isdigit()]) == len(first.rows)
    total = total_balances(session_ledgers(reseated))
    at = rows.index(["全部 All sessions", *(f"'{p}" if p[0] == "=" else p for p in total)])
    assert rows[at + 1] == ["", *(str(v) for v in total.values())]  # numbers a spreadsheet adds (a money review)
    # each session's settle-up says the all-sessions one below replaces it: a table paying down the file paid twice
    assert [r[2] for r in rows if r and r[0] == "結算 Settle up"] == ["（幾將一起算時，付下面「全部」的結算就好，不要兩個都付） "
                                                                 "/ (with several sessions, pay only the all-sessions "
                                                                 "settle-up below, not both)"] * 2


def test_no_cell_that_starts_with_a_players_name_is_a_formula() -> None:
    """A money review seated ``=HYPERLINK(…)``, ``+1``, ``-2`` and ``@x``: the winners' and payments' cells begin
    with a name, and a spreadsheet ran them as formulas. Every text cell is guarded now."""
    from companion.game import events as ev
    from companion.game.check import step

    replay = GameReplay.demo()
    names = ('=HYPERLINK("http://e.x")', "+1", "-2", "@x")
    renamed = [step(replay.states[0], ev.Seated(names, base=30, per_tai=10))]
    for e in replay.events[1:]:
        renamed.append(step(renamed[-1], e))
    rows = list(csv.reader(io.StringIO(ledger_csv(renamed[-1]))))
    cells = [c for r in rows for c in r]
    assert any(c.startswith("'=HYPERLINK") for c in cells) and any(c.startswith("'+1 ") for c in cells)
    assert not [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r") or (c[:1] == "-" and not c[1:].isdigit())]


def test_the_ledger_tab_totals_every_session_at_the_table_once_the_players_sit_again() -> None:
    """Two sessions in a night: the tab gives each earlier one in a line, the totals of all, and their fewest
    payments, also before the new session has finished a hand."""
    from companion.game import events as ev
    from companion.game.check import step
    from companion.game.session import fewest_transfers, session_ledgers, total_balances

    replay = GameReplay.demo()
    one = ledger_panel(replay.states[-1])
    assert one is not None and one.sessions is None  # one session: nothing more to add up
    reseated = step(replay.states[-1], ev.Seated(("Eve", "老王", "Lin", "阿明")))  # 阿明 and Eve swap in
    panel = ledger_panel(reseated)
    assert panel is not None and panel.rows == () and panel.sessions is not None
    first = session_ledgers(reseated)[0]
    (line,) = panel.sessions.earlier
    assert line.zh.startswith(f"第 1 將（{len(first.entries)} 把）：") and line.en.startswith("Session 1 (")
    assert all(f"{p} {v:+d}" in line.zh and f"{p} {v:+d}" in line.en for p, v in first.balances.items())
    total = total_balances(session_ledgers(reseated))
    assert dict(panel.sessions.totals) == total and sum(total.values()) == 0
    assert [w.en for w in panel.sessions.settle_up] == [f"{t.payer} pays {t.payee} {t.amount}"
                                                        for t in fewest_transfers(total)]


def test_stakes_changed_after_the_last_hand_are_said_for_the_next_and_the_head_keeps_those_played() -> None:
    from companion.game import events as ev
    from companion.game.check import step

    replay = GameReplay.demo()
    last = replay.states[-1]
    changed = step(last, ev.StakesChanged(base=100, per_tai=50))
    panel = ledger_panel(changed)
    assert panel is not None and "底 30／台 10" in panel.stakes.zh and "stakes 30 + 10 a tai" in panel.stakes.en
    assert all(r.change is None for r in panel.rows)
    n = len(panel.rows) + 1
    assert panel.pending is not None and panel.pending.zh.startswith(f"從第 {n} 把起：")
    assert "改成 底 100／台 50" in panel.pending.zh and "become 100 + 50" in panel.pending.en
    assert panel.pending.zh in ledger_csv(changed)
    assert ledger_panel(last) is not None and ledger_panel(last).pending is None  # type: ignore[union-attr]


def test_each_winners_line_explains_the_money_paid_with_the_dealers_tai_where_he_takes_part() -> None:
    """A player review saw "3 台" beside 130 paid at 50 + 20 a tai: the dealer's tai were left out of the line."""
    from companion.game.check import replay as replay_log
    from companion.game.simulator import simulate

    said = 0
    for seed in (0, 1, 3):
        log, _ = simulate(seed, 6)
        state = replay_log(log)
        ledger, panel = ledger_of(state), ledger_panel(state)
        assert panel is not None
        for entry, row in zip(ledger.entries, panel.rows, strict=True):
            winners = [x for x in entry.lines if x.kind != "false_win"]
            if len(entry.lines) != 1 or len(winners) != 1:
                continue  # one winner's money alone: each payment is his line's
            (x,), (line,) = winners, row.lines
            at = ledger.stakes_of(entry)
            amounts = {t.amount for t in entry.transfers}
            plain, with_dealer = at.base + at.per_tai * x.capped_tai, at.base + at.per_tai * (x.capped_tai + x.dealer_tai)
            assert amounts <= {plain, with_dealer}
            assert line.zh.startswith(x.player) and line.zh[len(x.player):].startswith(" ") == x.player[-1].isascii()
            assert (f" {x.capped_tai} 台：" in line.zh) == bool(x.items)  # with its items (a 0-tai hand has none)
            # each item as the hand's end card names it (獨聽's shape, a house rule's mark)
            assert x.score is not None
            named, _ = marked_items(x.score)
            assert all(f"{w.zh} {tai}" in line.zh and f"{w.en} {tai}" in line.en for w, tai in named)
            assert [tai for _, tai in named] == [tai for _, _, tai in x.items]
            if with_dealer in amounts and x.dealer_tai:
                assert f"；莊家付或收的另加 {x.dealer_tai} 台（" in line.zh
                assert f"; plus {x.dealer_tai} tai where the dealer pays or is paid (" in line.en
                assert ("、連" in line.zh) == (entry.result.streak > 0)  # 連N拉N only on a streak
                said += 1
            else:
                assert "莊家付或收" not in line.zh and "dealer pays" not in line.en
    assert said >= 3


def test_a_ledger_row_marks_house_rule_items_and_says_who_deals_next(tmp_path: Path) -> None:
    """The record kept for settling up says what the hand's end card said: an item whose count is a house rule
    marked so (spec §5.4: 人胡 16 here), and after each hand who deals next, his streak and the round (§6.7): after
    an exhaustive draw, the dealer keeps the deal."""
    from companion.app.live_model import LiveGame
    from companion.game import events as ev

    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    assert game.start(("阿明", "Lin", "小美", "老王"), "atawmj_2009", 30, 10) is None
    assert game.choose_dealer((3, 5, 6), (1, 1, 2)) is None and game.throw((2, 2, 4)) is None
    dealer = game.state.dealer
    assert game.discard("5p") is None
    assert game.win((dealer + 1) % 4, ev.WinKind.DISCARD, "123m456m789m123s46p55z") is None
    panel = ledger_panel(game.state)
    assert panel is not None
    (row,) = panel.rows
    assert "人胡（各家規矩） 16" in row.lines[0].zh and "(house rule) 16" in row.lines[0].en
    names = game.state.players
    nxt = names[(dealer + 1) % 4]  # (a space after a Latin name alone: 「Lin 做莊」, 「小美做莊」)
    assert row.next is not None and row.next.zh == f"下一把：{nxt}{' ' if nxt.isascii() else ''}做莊，連莊 0，東風圈"
    game.close()


def _demo_capped_at_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[TableState]:
    """The bundled demo game's states played again under a house set capped at 2 tai (saved in ``tmp_path``)."""
    from companion.game import events as ev
    from companion.game.check import step
    from companion.rules.profiles._store import save_profile

    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    house = tmp_path / "cap2.toml"
    house.write_text('id = "cap2"\ninherits = "atawmj_2009"\n[switches]\ntai_cap = 2\n', encoding="utf-8")
    save_profile(house)
    replay = GameReplay.demo()
    first = replay.events[0]
    assert isinstance(first, ev.Seated)
    states = [step(replay.states[0], ev.Seated(first.players, profile="cap2"))]
    for e in replay.events[1:]:
        states.append(step(states[-1], e))
    return states


def test_a_capped_hand_says_its_tai_before_the_cap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A money review: a hand over the tai cap listed items adding up to 7 beside "5 tai", without a word."""

    states = _demo_capped_at_2(tmp_path, monkeypatch)
    panel = ledger_panel(states[-1])
    assert panel is not None
    lines = [(x, w) for r, e in zip(panel.rows, ledger_of(states[-1]).entries, strict=True)
             for x, w in zip(e.lines, r.lines, strict=True)]
    capped = [(x, w) for x, w in lines if x.hand_tai > x.capped_tai]
    assert capped, "the demo should have a hand over 2 tai"
    for x, w in capped:
        assert x.capped_tai == 2 and f"牌面 {x.hand_tai} 台，以滿台 2 台計" in w.zh
        assert f"the hand scores {x.hand_tai}, capped at 2" in w.en
    assert not [w for x, w in lines if x.hand_tai == x.capped_tai and "capped" in w.en]


def test_a_capped_hands_payment_with_the_dealers_tai_says_the_cap_applied(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A review read "the hand scores 9, capped at 8; plus 1 dealer tai" then "A pays B 120 (30 + 9 tai × 10)": the 9
    there is 8 + 1, read as the cap not applied. Such a payment says "(30 + (8 + 1) tai × 10)", in the Ledger and on
    the hand's end card alike; a payment without the dealer's tai, or of a hand under the cap, as before."""
    import re

    from companion.app.table_model import table_frame
    from companion.app.words import Words

    states = _demo_capped_at_2(tmp_path, monkeypatch)
    ledger = ledger_of(states[-1])
    panel = ledger_panel(states[-1])
    assert panel is not None
    split = 0
    for row, entry in zip(panel.rows, ledger.entries, strict=True):
        at = ledger.stakes_of(entry)
        end_state = next(s for s in states if len(s.results) == row.number - 1 and s.outcome is not None
                         and s.phase.name == "HAND_OVER")
        card = table_frame(end_state, Words("", ""), (Words("", ""),), 0, 0, None).end
        assert card is not None
        for said in (row.transfers, card.transfers):
            for t, w in zip(entry.transfers, said, strict=True):
                line = next(x for x in entry.lines if x.player == t.payee)
                tai = (t.amount - at.base) // at.per_tai
                if line.capped_tai < line.hand_tai and line.dealer_tai and tai == line.capped_tai + line.dealer_tai:
                    split += 1
                    assert w.en.endswith(f"({at.base} + ({line.capped_tai} + {line.dealer_tai}) tai × {at.per_tai})")
                    assert w.zh.endswith(f"（底 {at.base} + ({line.capped_tai} + {line.dealer_tai}) 台 × {at.per_tai}）")
                else:
                    assert w.en.endswith(f"({at.base} + {tai} tai × {at.per_tai})"), w.en
                how = re.search(r"\((\d+) \+ \(?(\d+)(?: \+ (\d+)\))? tai × (\d+)\)$", w.en)
                assert how is not None and int(how[1]) + (int(how[2]) + int(how[3] or 0)) * int(how[4]) == t.amount
    assert split, "the demo under a cap of 2 should have a capped hand the dealer takes part in"


def test_a_tap_that_leaves_the_ledgers_inputs_alone_leaves_the_ledger_alone() -> None:
    """The Ledger tab draws again only when :func:`ledger_inputs` change (a review: it rebuilt every hand's score on
    every tap). Checked on every step of a bots' game with a 詐胡, a stakes change and players seated again."""
    from companion.app.ledger_model import ledger_inputs
    from companion.game import events as ev
    from companion.game.check import step
    from companion.game.simulator import simulate

    log, _ = simulate(seed=0, hands=6)
    assert any(isinstance(e, ev.FalseWin) for e in log), "the bots' game should hold a 詐胡"
    states = [step(TableState(), log[0])]
    for e in [*log[1:], ev.StakesChanged(base=50, per_tai=20), ev.Seated(("甲", "乙", "丙", "丁"))]:
        states.append(step(states[-1], e))
    kept = 0
    for before, after in zip(states, states[1:], strict=False):
        if ledger_inputs(before) == ledger_inputs(after):
            kept += 1
            assert ledger_panel(before) == ledger_panel(after)
    assert kept > len(states) * 0.8  # most taps change no money


def test_a_single_wait_on_the_pair_is_named_so() -> None:
    """獨聽 on a pair wait read "Single wait (pair)" (a teaching review); now "Single wait (on the pair)", in the
    brackets the other shapes have (a beginner review read "Single wait (closed)" beside "Single wait, on the pair
    (house rule)"), and a house rule's mark inside them: 「獨聽（單吊；各家規矩）」, not 「獨聽（單吊）（各家規矩）」."""
    from companion.app.words import Words
    from companion.rules.scoring import score
    from companion.rules.win import Win

    pair = score(Win.of("1z123m456m234p678p789s", "1z", "discard", seat_wind="W", round_wind="S", discarder="S"))
    named = [w for w, _ in marked_items(pair)[0]]
    assert Words("獨聽（單吊）", "Single wait (on the pair)") in named
    closed = score(Win.of("123m456m234p678p79s88s", "8s", "discard", seat_wind="W", round_wind="S", discarder="S"))
    assert Words("獨聽（中洞）", "Single wait (closed)") in [w for w, _ in marked_items(closed)[0]]
    assert item_named("single_wait", Words("獨聽", "Single wait"), pair, house=True) == Words(
        "獨聽（單吊；各家規矩）", "Single wait (on the pair; house rule)")
    assert item_named("zimo", Words("自摸", "Self-draw"), pair, house=True) == Words("自摸（各家規矩）",
                                                                                   "Self-draw (house rule)")


def _kong_won(tmp_path: Path) -> tuple[LiveGame, int]:
    """A live table: the seat after the dealer makes a concealed kong face down and self-draws 5s on 123m 456m 789s
    234p 5s, the win naming the kong 8p; 丁's seat discards a 1p meanwhile."""
    from companion.game import events as ev

    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    assert game.start(("阿東", "小南", "老西", "北北"), "atawmj_2009", 30, 10) is None
    assert game.choose_dealer((3, 5, 6), (1, 1, 2)) is None and game.throw((2, 2, 4)) is None
    winner = (game.state.dealer + 1) % 4
    assert game.discard("9m") is None and game.draw() is None and game.concealed_kong(None) is None
    for tile in ("3z", "1p", "7z", "6z"):  # his discard after the kong, then the three others'
        assert game.discard(tile) is None
    assert game.draw() is None and game.win(winner, ev.WinKind.SELF_DRAW, "123m456m789s234p5s", "5s", "8p") is None
    return game, winner


def test_a_concealed_kong_named_wrong_at_the_win_is_put_right_from_the_ledger(tmp_path: Path) -> None:
    """A review: a win's face-down kong typed wrong in the win form could never be put right afterwards (the
    correction took the concealed tiles and the drawn tile only), so the hand's tai and every later balance stayed
    wrong unless every later entry was undone (spec §6.7). The Ledger offers the kongs the win named, and a
    correction of them is worked out as the win's tiles are: its preview, the fifth copy it would make refused
    with the reason, the balances, the Live tab's and the undo button's line, the CSV, and its undo."""
    game, winner = _kong_won(tmp_path)
    before = ledger_of(game.state)
    panel = ledger_panel(game.state)
    assert panel is not None
    (shown,) = panel.rows[0].shown
    assert shown.kongs == ("8p",) and shown.melds == (("0x", "8p", "8p", "0x"),)
    # 1p: one was discarded, so a kong of it is a fifth copy on the table
    refused = game.preview_correction(1, winner, "123m456m789s234p5s", "5s", kongs="1p")
    assert refused == Words("這樣桌上會有 5 張一筒，一副牌只有 4 張", "1 Dot (1p): 5 copies would be on the table, a set holds 4")
    assert game.correct_win(1, winner, "123m456m789s234p5s", "5s", kongs="1p") == refused
    assert ledger_of(game.state) == before  # nothing recorded
    preview = game.preview_correction(1, winner, "123m456m789s234p5s", "5s", kongs="1z")
    assert isinstance(preview, TableState)
    assert game.correct_win(1, winner, "123m456m789s234p5s", "5s", kongs="1z") is None  # East: the round's wind
    after = ledger_of(game.state)
    assert after.balances == ledger_of(preview).balances != before.balances
    (line,) = after.entries[0].lines
    assert "圈風" in [zh for zh, _, _ in line.items] and line.hand_tai == before.entries[0].lines[0].hand_tai + 1
    panel = ledger_panel(game.state)
    assert panel is not None
    (fixed,) = panel.rows[0].shown
    assert fixed.kongs == ("1z",) and fixed.melds == (("0x", "1z", "1z", "0x"),) and fixed.corrected
    name = game.state.players[winner]
    said = Words(f"改正第 1 把{name}攤開的牌：一萬 二萬 三萬 四萬 五萬 六萬 七條 八條 九條 二筒 三筒 四筒 五條 + 五條，暗槓 東",
                 f"{name}'s tiles shown in hand 1 corrected: 1 2 3 4 5 6 Characters, 2 3 4 Dots, 5 7 8 9 Bamboo "
                 "+ 5 Bamboo; concealed kongs: East wind")
    assert game.frame().recent[0] == said and game.undo_what() == said
    row = next(r for r in csv.reader(io.StringIO(ledger_csv(game.state))) if r and r[0] == "1")
    assert row[5].endswith("5 7 8 9 Bamboo; concealed kongs: East wind") and "，暗槓 東 / " in row[5]
    assert row[-1] == f"{name}: 123456m234p5789s ckong:1111z win=5s@self"  # the hand as scored
    assert game.undo() is None  # the correction taken back: as the win was recorded
    assert ledger_of(game.state) == before
    panel = ledger_panel(game.state)
    assert panel is not None and panel.rows[0].shown == (shown,)
    game.close()


def test_a_correction_of_the_tiles_alone_names_no_kongs_in_the_csv(tmp_path: Path) -> None:
    """A correction sent with the face-down kong as recorded (the Ledger's form sent it whenever the win had one)
    was said in the CSV as if the kong had been put right: "; concealed kongs: 8 Dots". Only a changed one is."""
    game, winner = _kong_won(tmp_path)
    assert game.correct_win(1, winner, "123m456m789s345p5s", "5s", kongs="8p") is None  # the kong as recorded
    row = next(r for r in csv.reader(io.StringIO(ledger_csv(game.state))) if r and r[0] == "1")
    assert row[5].endswith("3 4 5 Dots, 5 7 8 9 Bamboo") and "concealed kongs" not in row[5] and "暗槓" not in row[5]
    panel = ledger_panel(game.state)
    assert panel is not None
    (fixed,) = panel.rows[0].shown
    assert fixed.corrected and fixed.kongs == ("8p",) and not fixed.kongs_corrected
    game.close()


def test_an_unnamed_face_down_kong_of_an_old_log_keeps_its_place_in_the_correction(tmp_path: Path) -> None:
    """An old log's win could leave a face-down kong unnamed (""): the form joined the kinds into one string, so one
    named beside one unnamed read "8p", one kong of two, and every correction was refused (fix_kongs_size). The field
    keeps each kong's place, ``0x`` for the unnamed one, which a correction may leave so or name."""
    import dataclasses

    from companion.app.live_model import tiles_typed
    from companion.app.view_ledger import kongs_field
    from companion.game import events as ev
    from companion.game.check import replay, step
    from companion.game.evolve import evolve

    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    assert game.start(("阿東", "小南", "老西", "北北"), "atawmj_2009", 30, 10) is None
    assert game.choose_dealer((3, 5, 6), (1, 1, 2)) is None and game.throw((2, 2, 4)) is None
    winner = (game.state.dealer + 1) % 4
    assert game.discard("9m") is None and game.draw() is None
    assert game.concealed_kong(None) is None and game.concealed_kong(None) is None
    for tile in ("3z", "1p", "7z", "6z"):
        assert game.discard(tile) is None
    assert game.draw() is None and game.win(winner, ev.WinKind.SELF_DRAW, "123m456m789s5s", "5s", "8p9p") is None
    *before, won = game.events()
    game.close()
    assert isinstance(won, ev.Won)
    old = evolve(replay(before), dataclasses.replace(won, kongs=won.kongs[:1]))  # as an old log recorded it
    panel = ledger_panel(old)
    assert panel is not None
    (shown,) = panel.rows[0].shown
    assert shown.kongs == ("8p", "") and kongs_field(shown) == "8p0x"

    def fixed(kongs: str) -> TableState:
        return step(old, ev.WinCorrected(seat=winner, hand=1, concealed=tiles_typed("123m456m789s5s"),
                                         tile=tiles_typed("5s")[0], kongs=tiles_typed(kongs)))

    named = fixed("1z0x")  # the named one put right, the unnamed one left so
    panel = ledger_panel(named)
    assert panel is not None and panel.rows[0].shown[0].kongs == ("1z", "")
    row = next(r for r in csv.reader(io.StringIO(ledger_csv(named))) if r and r[0] == "1")
    assert row[5].endswith("; concealed kongs: East wind")
    panel = ledger_panel(fixed("8p3s"))  # the unnamed one named
    assert panel is not None and panel.rows[0].shown[0].kongs == ("8p", "3s")


@pytest.mark.parametrize(("tai", "parts", "dealer_tai"), [
    ("", ("莊家 1、連1拉1", "dealer 1, dealer continuation 1 and streak pull 1"), 3),
    ("dealer = 0\nstreak_pull = 0\n", ("連1", "dealer continuation 1"), 1),
    ("streak = 0\nstreak_pull = 0\n", None, 1),
    ("streak = 2\nstreak_pull = 0\n", ("莊家 1、連1（每次 2 台）", "dealer 1, dealer continuation 1 (2 tai each)"), 3),
    # a 2-tai 連莊 beside 拉莊: listed (a change review read 「連1，每次 2 台拉1」)
    ("streak = 2\n", ("莊家 1、連1（每次 2 台）、拉1", "dealer 1, dealer continuation 1 (2 tai each) and streak pull 1"),
     4),
])
def test_the_dealers_tai_are_said_by_the_parts_the_rule_set_counts(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tai: str, parts: tuple[str, str] | None,
        dealer_tai: int) -> None:
    """A review: the dealer's tai were said 「莊家 1、連N拉N」 whatever the rule set counts, so under a house set with
    莊家 and 拉莊 at 0 the end card, the Ledger and its CSV said "+1 tai (dealer 1, streak 1 and pull 1)", parts
    adding up to 3. The parts are the set's own values, adding up to the tai beside them; none where the streak adds
    nothing (the dealer's tai then his 莊家 alone)."""
    from companion.game import events as ev
    from companion.rules.profiles._store import save_profile

    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    house = tmp_path / "d.toml"
    house.write_text(f'id = "d"\ninherits = "atawmj_2009"\nname_zh = "莊"\nname_en = "d"\n[tai]\n{tai}', "utf-8")
    save_profile(house)
    game = LiveGame(tmp_path / "t.sqlite", seed=1)
    assert game.start(["甲", "乙", "丙", "丁"], "d", 30, 10, house={"first_dealer": "east_deals"}) is None
    assert game.choose_dealer() is None and game.throw([3, 4, 5]) is None
    for tile in ("1z", "2z", "3z", "3s"):
        assert game.discard(tile) is None
    assert game.win(0, ev.WinKind.DISCARD, "123m456m234p678p45s88s") is None  # the dealer wins: streak 1
    assert game.throw([3, 4, 5]) is None and game.discard("3s") is None
    assert game.win(1, ev.WinKind.DISCARD, "123m456m234p678p45s88s") is None  # on the dealer's discard, N = 1
    entry = ledger_of(game.state).entries[-1]
    assert entry.result.streak == 1 and [x.dealer_tai for x in entry.lines] == [dealer_tai]
    end = game.frame().end
    assert end is not None
    (card,) = end.lines
    assert card.dealer_tai == dealer_tai
    assert (None if card.dealer_why is None else (card.dealer_why.zh, card.dealer_why.en)) == parts
    panel = ledger_panel(game.state)
    assert panel is not None
    line = panel.rows[-1].lines[0]
    said = parts or ("莊家", "dealer")
    assert f"另加 {dealer_tai} 台（{said[0]}）" in line.zh and f"plus {dealer_tai} tai where" in line.en
    assert f"({said[1]})" in line.en, line.en
    assert f"另加 {dealer_tai} 台（{said[0]}）" in ledger_csv(game.state)
    game.close()


def test_the_dealers_parts_add_up_where_the_streak_is_capped() -> None:
    """A change review: with streak 2 and a cap of 0 the parts read 「莊家 1、連2拉2，算到上限 0」 beside 1 tai, and
    star31 (cap 10) at streak 12 「莊家 1、連12拉12，算到上限 10」 beside 21. The parts are the streak as counted, the
    real streak and its cap beside them; at a cap of 0 the dealer's 1 alone."""
    from companion.app.ledger_model import dealer_parts
    from companion.rules.profiles import load_profile, played_with

    assert dealer_parts(played_with(load_profile(None), {"streak_cap": 0}), 2) is None
    capped = dealer_parts(load_profile("star31"), 12)
    assert capped is not None
    # no brackets inside the dealer line's own (a change review read 「莊家 +21 台（莊家 1、連10拉10（連12，…））」)
    assert (capped.zh, capped.en) == ("莊家 1、連10拉10，連12算到上限 10", "dealer 1, dealer continuation 10 and "
                                      "streak pull 10, a streak of 12 counted up to the cap of 10")
