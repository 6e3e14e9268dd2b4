"""The Ledger tab's model: every finished hand of the session so far, the running balances, who pays whom.

Plain Python (no flet), on the tracker's own ledger (:func:`companion.game.session.ledger_of`: scoring and
settlement by the rules, never here): one row per hand (the round, the dealer and his streak, the result, each
winner's tai, the payments), the balances after it, and the balances netted into the fewest payments.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, replace

from companion.app.house_rules import played_rules, rules_named, terms_change
from companion.app.words import Words, signed, ui
from companion.game import events as ev
from companion.game.rotation import NextDeal
from companion.game.session import (
    Ledger,
    Transfer,
    WinLine,
    dealer_tai_counts,
    fewest_transfers,
    session_ledgers,
    total_balances,
)
from companion.game.state import Phase, TableState, WinRecord
from companion.game.text import WIND_EN, WIND_ZH, msg
from companion.hand import Meld, MeldKind
from companion.rules.house import house_reading
from companion.rules.profiles import Profile
from companion.rules.scoring import Score
from companion.rules.waits import WaitShape
from companion.rules.win import counted_streak
from companion.tiles import format_en, format_tiles, format_zh, parse_tiles

__all__ = ["WinShown", "LedgerRow", "AllSessions", "LedgerPanel", "ledger_panel", "ledger_csv", "LEDGER_PATH",
           "correction_said", "hand_payment", "meld_codes", "dealer_parts", "dealer_tai_said"]

LEDGER_PATH = "/export/ledger.csv"
"""Where the server hands out the live game's ledger as a spreadsheet."""


@dataclass(frozen=True, slots=True)
class WinShown:
    """A winner's tiles as recorded, which the host may put right (改正胡牌)."""

    seat: int
    player: str
    concealed: str  # notation, without the winning tile
    tile: str  # the tile won on ("" for 八仙過海, won on his hand: no tile)
    self_drawn: bool  # (only a self-drawn tile may be corrected: a discard is the table's)
    corrected: bool = False  # put right after it was recorded
    # the melds laid down, as pictures (:func:`meld_codes`): the form shows the whole hand (an English host review
    # could not see the pung of East beside the concealed tiles being corrected)
    melds: tuple[tuple[str, ...], ...] = ()
    # the kinds of his concealed kongs that lay face down until the win named them, in order ("" where left face
    # down): typed at the win, so put right with his tiles (the form's field, filled with these)
    kongs: tuple[str, ...] = ()
    kongs_corrected: bool = False  # a correction changed those kinds (the CSV names them only then)


def meld_codes(m: Meld, show: bool = True) -> tuple[str, ...]:
    """A meld's tiles as pictures left to right: a concealed kong face down to the table, its ends down and its
    middle up when ``show`` (a teaching table, a scored hand) and its kind is known."""
    tiles = tuple(t.code for t in m.tiles)
    if m.kind is not MeldKind.CKONG:
        return tiles
    return ("0x", tiles[1], tiles[2], "0x") if show and m.tiles[0].is_known else ("0x",) * 4


def face_down_kongs(w: WinRecord) -> tuple[str, ...]:
    """The kinds a win named of the winner's concealed kongs that lay face down until then ("" for one left so)."""
    return tuple(w.melds[i].tile.code if w.melds[i].tile.is_known else "" for i in w.face_down if i < len(w.melds))


@dataclass(frozen=True, slots=True)
class LedgerRow:
    number: int
    setting: Words  # round, dealer, streak
    result: Words
    lines: tuple[Words, ...]  # each winner (or false win) and the tai
    transfers: tuple[Words, ...]
    balances: tuple[tuple[str, int], ...]  # after this hand
    change: Words | None = None  # the stakes or house rules changed before this hand (改底台、改規矩)
    shown: tuple[WinShown, ...] = ()  # its winners' tiles as recorded (instant wins show none)
    next: Words | None = None  # who deals next, his streak and the round wind (or the session over)
    dice: int = 0  # the dealer's dice total that opened the wall (0: not thrown)
    winds: Words | None = None  # each player's seat wind in the hand (spec §6.7)


@dataclass(frozen=True, slots=True)
class AllSessions:
    """Every session played at the table (the players seated again after one ended, or to change seats): each
    earlier one in a line, the totals of all of them, and those netted into the fewest payments."""

    earlier: tuple[Words, ...]  # "第 1 將（12 把）：阿明 +120、Lin -40、……"
    totals: tuple[tuple[str, int], ...]
    settle_up: tuple[Words, ...]


@dataclass(frozen=True, slots=True)
class LedgerPanel:
    players: tuple[str, ...]
    stakes: Words
    rows: tuple[LedgerRow, ...]
    balances: tuple[tuple[str, int], ...]
    settle_up: tuple[Words, ...]
    sessions: AllSessions | None = None  # where earlier sessions were played at this table
    pending: Words | None = None  # the stakes or house rules changed after the last hand, for the next
    seated: Words | None = None  # the terms the first hand was played with, where a later hand's differ (``stakes``
    # gives the latest): a head above every hand says these, each change at its hand (a change review: the replay's
    # head gave a 七搶一 switched on before hand 2 above hand 1)


def _kind(code: str) -> Words:
    kind = next((k for k in ev.WinKind if k.value == code), None)
    return Words(kind.zh, kind.en) if kind is not None else ui("false_win")


def ledger_inputs(state: TableState) -> tuple[object, ...]:
    """What the ledger of ``state`` is made from: a tap that changes none of it (a discard, a draw, a claim) changes
    nothing :func:`ledger_panel` shows, so a phone on the Ledger tab need not build it again (a review: it rebuilt
    every hand's score on every tap, 100 ms a tap by the 28th hand)."""
    return (state.players, state.results, state.outcome, state.false_wins, state.false_claims, state.past,
            state.next_terms, state.base, state.per_tai, state.switches, state.profile, state.first_dealer,
            state.phase is Phase.HAND_OVER)


def session_panel(state: TableState, session: int) -> LedgerPanel | None:
    """The panel of session ``session`` at the table (from 1; 0: the one under way, as :func:`ledger_panel`)."""
    if session == 0:
        return ledger_panel(state)
    ledgers = session_ledgers(state)
    return _panel(ledgers[session - 1]) if 1 <= session <= len(ledgers) else None


def earlier_panels(state: TableState) -> list[LedgerPanel]:
    """The panels of the sessions at the table before the one under way, the first first."""
    return [_panel(ledger) for ledger in session_ledgers(state)[:-1]] if state.players else []


def ledger_panel(state: TableState) -> LedgerPanel | None:
    """The ledger of the session at ``state`` (the hand just finished included); None before anyone is seated."""
    if not state.players:
        return None
    ledgers = session_ledgers(state)  # earlier sessions at the table first, this one last
    panel = _panel(ledgers[-1])
    if len(ledgers) < 2:
        return panel
    earlier = tuple(ui("ledger_session", n=k, hands=len(ledger.entries),
                       money="、".join(f"{p} {signed(v)}" for p, v in ledger.balances.items()),
                       money_en=", ".join(f"{p} {signed(v)}" for p, v in ledger.balances.items()))
                    for k, ledger in enumerate(ledgers[:-1], 1))
    total = total_balances(ledgers)
    settle = tuple(ui("pays", payer=t.payer, payee=t.payee, amount=t.amount) for t in fewest_transfers(total))
    return replace(panel, sessions=AllSessions(earlier, tuple(total.items()), settle))


def _panel(ledger: Ledger) -> LedgerPanel:
    rows = []
    terms = None
    for entry in ledger.entries:
        r = entry.result
        at, switches = ledger.stakes_of(entry), ledger.switches_of(entry)
        change = None
        if terms is not None and switches is not None and terms != (at, switches):
            change = terms_change(terms[0].base, terms[0].per_tai, terms[1], at.base, at.per_tai, switches,
                                  ledger.profile, ui("ledger_from_hand", n=r.number))
        if switches is not None:
            terms = (at, switches)
        w = min(r.round_wind, 3)
        setting = ui("ledger_setting", round=WIND_ZH[w], round_en=WIND_EN[w], dealer=r.players[r.dealer],
                     streak=r.streak)
        parts = dealer_parts(entry.rules, r.streak)  # (the hand's, the same for each line)
        lines = tuple(_line(x, dealer_tai_counts(r, x), parts) for x in entry.lines)
        transfers = tuple(hand_payment(t, at.base, at.per_tai, entry.lines) for t in entry.transfers)
        shown = tuple(WinShown(w.seat, r.players[w.seat], format_tiles(w.concealed), w.tile.code if w.tile else "",
                               w.kind is ev.WinKind.SELF_DRAW, w.corrected, tuple(meld_codes(m) for m in w.melds),
                               face_down_kongs(w), w.kongs_corrected)
                      for w in r.outcome.winners if w.tiles_count)
        winds = None
        if len(r.seat_winds) == len(r.players):
            pairs = list(zip(r.players, r.seat_winds, strict=True))
            winds = Words("、".join(f"{p} {WIND_ZH[k]}" for p, k in pairs), ", ".join(f"{p} {WIND_EN[k]}" for p, k in pairs))
        rows.append(LedgerRow(r.number, setting, Words(*r.outcome.said), lines, transfers,
                              entry.balances, change, shown, next_deal_words(r.players, entry.next), r.dice_total,
                              winds))
    settle = tuple(ui("pays", payer=t.payer, payee=t.payee, amount=t.amount) for t in ledger.settle_up())
    # its names ("as seated" where the file here now says otherwise); its id, a house file of another install's
    name = rules_named(ledger.profile)
    # the head gives the terms the last hand was played with, and the first hand's stakes where they differ (each
    # change has its line at its hand); before any hand, the table's
    first = ledger.entries[0] if ledger.entries else None
    at = ledger.stakes_of(first) if first is not None else ledger.stakes
    last = ledger.entries[-1] if ledger.entries else None
    switches = ledger.switches_of(last) if last is not None else ledger.switches
    now = ledger.stakes_of(last) if last is not None else at  # a change pending for the next hand has its own line
    if (now.base, now.per_tai) == (at.base, at.per_tai):
        stakes = ui("ledger_stakes", base=at.base, per_tai=at.per_tai, profile=name.zh, profile_en=name.en)
    else:  # the head says what is played now, and what the first hand was played at (a player read the old line)
        stakes = ui("ledger_stakes_now", base=now.base, per_tai=now.per_tai, first_base=at.base,
                    first_per_tai=at.per_tai, profile=name.zh, profile_en=name.en)
    played = played_rules(ledger.profile, switches) if switches else None
    if played is not None:  # the house rules the hands are played with, which explain streaks and deals
        stakes = stakes + ui("ledger_house", rules=played.zh, rules_en=played.en)
    seated = None
    began = ledger.switches_of(first) if first is not None else None
    if first is not None and first is not last and (began, at) != (switches, now):
        seated = ui("ledger_stakes", base=at.base, per_tai=at.per_tai, profile=name.zh, profile_en=name.en)
        played = played_rules(ledger.profile, began) if began else None
        if played is not None:
            seated = seated + ui("ledger_house", rules=played.zh, rules_en=played.en)
    pending = None
    if terms is not None and ledger.switches is not None and terms != (ledger.stakes, ledger.switches):
        pending = terms_change(terms[0].base, terms[0].per_tai, terms[1], ledger.stakes.base, ledger.stakes.per_tai,
                               ledger.switches, ledger.profile,
                               ui("ledger_from_hand", n=ledger.entries[-1].result.number + 1))
    return LedgerPanel(ledger.players, stakes, tuple(rows), tuple(ledger.balances.items()), settle,
                       pending=pending, seated=seated)


def hand_payment(t: Transfer, base: int, per_tai: int, lines: Sequence[WinLine] = ()) -> Words:
    """One payment of a hand, with how the stakes make it (底 + 台 × tai) where its amount is so made (a player
    review could not see how tai became money). ``lines``: the hand's score lines; a payment to a winner whose hand
    was capped, with the dealer's tai in it, says the two apart, "30 + (8 + 1) tai × 10" (a review read "9 tai"
    beside "the hand scores 9, capped at 8; plus 1" as the cap not applied)."""
    tai, rest = divmod(t.amount - base, per_tai) if per_tai > 0 else (0, 1)
    if rest or tai < 0:
        return ui("pays", payer=t.payer, payee=t.payee, amount=t.amount)
    capped = next((x for x in lines if x.player == t.payee and x.kind != "false_win" and x.capped_tai != x.hand_tai
                   and x.dealer_tai and tai == x.capped_tai + x.dealer_tai), None)
    if capped is not None:
        return ui("pays_stakes_capped", payer=t.payer, payee=t.payee, amount=t.amount, base=base,
                  tai=capped.capped_tai, dealer=capped.dealer_tai, per_tai=per_tai)
    return ui("pays_stakes", payer=t.payer, payee=t.payee, amount=t.amount, base=base, tai=tai, per_tai=per_tai)


def correction_said(before: LedgerPanel | None, after: LedgerPanel | None, hand: int,
                    key: str = "ledger_fix_said") -> Words | None:
    """What a correction of hand ``hand`` changed, for the host who made it: that hand's lines before and after,
    and each balance that moved ("阿明 +60 變 +120"), in the words of ``key`` (what it did, or what it would do).
    None when the ledgers lack the hand."""
    if before is None or after is None:
        return None
    was = next((r for r in before.rows if r.number == hand), None)
    now = next((r for r in after.rows if r.number == hand), None)
    if was is None or now is None:
        return None
    lines, new = (Words("；".join(w.zh for w in r.lines) or "—", "; ".join(w.en for w in r.lines) or "—")
                  for r in (was, now))
    old_money = dict(before.balances)
    moved = [(p, old_money.get(p, 0), v) for p, v in after.balances if old_money.get(p, 0) != v]
    # in words, not an arrow: the app's fonts have no "→" (a box on the screen)
    money = Words("、".join(f"{p} {signed(a)} 變 {signed(b)}" for p, a, b in moved) or "不變",
                  ", ".join(f"{p} {signed(a)} to {signed(b)}" for p, a, b in moved) or "unchanged")
    return ui(key, n=hand, was=lines.zh, was_en=lines.en, now=new.zh, now_en=new.en, money=money.zh,
              money_en=money.en)


def item_named(item: str, name: Words, sc: Score, house: bool = False) -> Words:
    """獨聽 with the shape of the wait the score took (spec §3.6: 邊張, 中洞 or 單吊; a two-sided one whose other
    end is all the winner's own says that); ``companion tai --explain`` names it so too. With ``house`` the house
    rule's mark, in the shape's brackets where it has them (a beginner review read 「獨聽（單吊）（各家規矩）」, and
    "Single wait (closed)" beside "Single wait, on the pair (house rule)")."""
    mark = ui("house_rule_mark") if house else Words("", "")
    if item != "single_wait" or sc.wait_shape is None:
        return name + mark
    if sc.wait_shape is WaitShape.SINGLE:  # "Single wait (pair)" read as a tangle (a teaching review)
        shape = ui("on_the_pair")
    elif sc.wait_shape is WaitShape.TWO_SIDED:
        shape = ui("one_end_gone")
    else:
        shape = Words(sc.wait_shape.zh, sc.wait_shape.en)
    return name + ui("item_shape_house" if house else "item_shape", shape=shape.zh, shape_en=shape.en)


def marked_items(sc: Score) -> tuple[tuple[tuple[Words, int], ...], tuple[Words, ...]]:
    """``sc``'s tai items as the screens show them, each whose value, or whether it counts here, is a house rule
    marked so (spec §5.4); and notes: what the mark means, and each item other tables would add to this hand."""
    house = house_reading(sc)
    items = tuple((item_named(i.id, Words(i.zh, i.en), sc, i.id in house.flagged), i.tai) for i in sc.items)
    notes: tuple[Words, ...] = (ui("house_rule_means"),) if house.flagged else ()
    notes += tuple(ui("house_rule_otherwise", item=i.zh, item_en=i.en, tai=i.tai, why=why_zh, why_en=why_en)
                   for i, (why_zh, why_en) in zip(house.otherwise, house.because, strict=True))
    return items, notes


def next_deal_words(names: Sequence[str], nd: NextDeal) -> Words:
    """Who deals the next hand, his streak and the round wind; or that the session is over (spec §6.7)."""
    if nd.session_over:
        return ui("session_over")
    return ui("next_deal", dealer=names[nd.dealer], streak=nd.streak, round=WIND_ZH[nd.round_wind],
              round_en=WIND_EN[nd.round_wind])


def dealer_parts(rules: Profile, streak: int) -> Words | None:
    """What the dealer's tai at streak ``streak`` are made of under ``rules`` (spec §4.1: 莊家 1 and 連N拉N, 1 + 2N,
    under the default): the set's own 莊家, 連莊 and 拉莊 values, each said where it counts, the streak counted up to
    the set's cap, so that the parts add up to the tai said beside them (a review read 「莊家 +12 台（連12拉12）」 under
    a set counting 連莊 alone, and "dealer 1, streak 1 and pull 1" beside +1 under one counting the dealer alone).
    None where the streak adds no tai (none, or the set counts neither): the dealer's tai are then his 莊家 alone."""
    each = {key: rules.value(key) for key in ("dealer", "streak", "streak_pull")}
    counted = counted_streak(streak, rules.switch("streak_cap"))
    if not counted or not (each["streak"] or each["streak_pull"]):  # (a cap of 0 too: 莊家 alone, a change review
        return None  # read 「莊家 +1 台（莊家 1、連2拉2，算到上限 0）」)
    runs = []
    for key, word in (("streak", "dealer_part_streak"), ("streak_pull", "dealer_part_pull")):
        if each[key]:  # the streak as counted, so that the parts add up (a change review read 「連12拉12，算到上限
            # 10」 beside 21 tai, whose parts add up to 25)
            run = ui(word, n=counted)
            runs.append(run if each[key] == 1 else ui("dealer_part_each", part=run.zh, part_en=run.en, each=each[key]))
    # 連2拉2 as one word, listed where either says its tai each (連2（每次 2 台）、拉2)
    joined = "dealer_parts_run" if each["streak"] == each["streak_pull"] == 1 else "dealer_parts_listed"
    parts = runs[0] if len(runs) == 1 else ui(joined, streak=runs[0].zh, streak_en=runs[0].en,
                                              pull=runs[1].zh, pull_en=runs[1].en)
    if counted != streak:  # the streak it is, and the cap it is counted up to
        parts = ui("dealer_parts_capped", parts=parts.zh, parts_en=parts.en, streak=streak, cap=counted)
    if each["dealer"]:
        dealer = ui("dealer_part_dealer", tai=each["dealer"])
        parts = ui("dealer_parts_with", dealer=dealer.zh, dealer_en=dealer.en, run=parts.zh, run_en=parts.en)
    return parts


def dealer_tai_said(tai: int, why: Words | None) -> Words:
    """The dealer's ``tai`` beside a winner's hand tai, with what they are made of (``why``: :func:`dealer_parts`),
    as the hand's end card and the photo's score say them (each built it itself)."""
    return ui("dealer_tai", tai=tai) if why is None else ui("dealer_tai_streak", tai=tai, parts=why.zh,
                                                            parts_en=why.en)


def _line(x: WinLine, dealer_in: bool, why: Words | None) -> Words:
    """A winner's line: his hand's tai and the items they come from (a 16-tai hand says it was 地胡, after its end
    card is gone), and the dealer's tai where settlement adds them (so "3 台" with 130 paid at 50 + 20 a tai is
    explained: the dealer's 1 tai on his payments)."""
    if x.unpaid:  # a false win these rules do not penalise: nothing paid, no tai said
        return ui("ledger_unpaid", player=x.player)
    kind = _kind(x.kind)
    # named and marked as the hand's end card says them (獨聽's shape; "（各家規矩）" where the count is a house rule)
    named = marked_items(x.score)[0] if x.score is not None else tuple((Words(zh, en), tai) for zh, en, tai in x.items)
    items = ui("ledger_items", items="、".join(f"{w.zh} {tai}" for w, tai in named),
               items_en=", ".join(f"{w.en} {tai}" for w, tai in named)) if named else Words("", "")
    line = ui("ledger_line", player=x.player, kind=kind.zh, kind_en=kind.en, tai=x.capped_tai, items=items.zh,
              items_en=items.en)
    if x.capped_tai != x.hand_tai:  # (items that add up to more than the tai said: a money review)
        line = line + ui("ledger_capped", hand=x.hand_tai, tai=x.capped_tai)
    if x.shared is not None:  # one limit payment split three ways: why 37, 37 and 36 beside "8 台" (a review)
        line = line + ui("ledger_shared", amount=x.shared)
    if x.dealer_tai and dealer_in:  # (a false win's too: its offender pays everyone)
        why = why or ui("ledger_dealer_only")
        line = line + ui("ledger_dealer", dealer=x.dealer_tai, why=why.zh, why_en=why.en)
    return line


def _kongs_said(x: WinShown) -> Words:
    """The kinds of a corrected win's kongs face down until the win, after its tiles; nothing where it had none, or
    the correction left them as they were (a correction of the tiles alone said "concealed kongs: 8 Dots")."""
    kinds = parse_tiles("".join(x.kongs)) if x.kongs_corrected else ()
    if not kinds:
        return Words("", "")
    said = msg("fix_kongs_said", tiles=format_zh(kinds), tiles_en=format_en(kinds))
    return Words(said.zh, said.en)


def ledger_csv(state: TableState) -> str:
    """The ledger of every session at the table up to ``state`` as CSV for a spreadsheet (headings in both
    languages): per session, a row per hand (its setting, result, winners and tai, payments) with each player's
    balance after it, then the balances netted into the fewest payments; after several sessions (players seated
    again), the totals of all and their fewest payments. Headings only before anyone is seated."""
    out = io.StringIO()
    w = _SafeWriter(out)
    heads = ["把 Hand", "圈風、莊家、連莊 Round, dealer, streak", "結果 Result", "胡牌與台數 Winners and tai",
             "付款 Payments", "改正 Corrections", "下一把 Next hand", "骰子 Dice", "門風 Seat winds"]
    hands_head = "胡牌的牌 Winning hands"  # last: a script reading the players' columns by place finds them where they were
    ledgers = session_ledgers(state)
    if not ledgers:
        w.writerow([*heads, hands_head])
        return out.getvalue()
    for k, ledger in enumerate(ledgers, 1):
        panel = _panel(ledger)
        players = list(panel.players or (state.players if k == len(ledgers) else ()))  # seated, no hand yet
        if len(ledgers) > 1:
            if k > 1:
                w.writerow([])
            w.writerow([f"第 {k} 將 Session {k}"])
        # each player's money in the hand, then his running balance after it (a player review summed the running
        # column as if it were the hand's)
        w.writerow([*heads, *(f"{p} 這把 this hand" for p in players), *(f"{p} 累計 running" for p in players),
                    hands_head])
        was: dict[str, int] = {}
        # each winner's hand as scored, in the notation (spec §1.2, §6.7: what earned the tai; a review)
        hands = {e.result.number: "; ".join(f"{x.player}: {x.score.win.describe()}" for x in e.lines
                                             if x.score is not None) for e in ledger.entries}
        for r in panel.rows:
            if r.change is not None:
                w.writerow(["", _both(r.change)])
            after = dict(r.balances)
            # the corrected hand in tile names for either reader (an English host review read it in the notation)
            fixed = "; ".join(_both(ui("ledger_fixed", player=x.player, tiles=format_zh(parse_tiles(x.concealed)),
                                       tiles_en=format_en(parse_tiles(x.concealed))) + _kongs_said(x))
                              for x in r.shown if x.corrected)
            w.writerow([r.number, _both(r.setting), _both(r.result), "; ".join(_both(x) for x in r.lines),
                        "; ".join(_both(x) for x in r.transfers), fixed, _both(r.next) if r.next else "",
                        r.dice or "", _both(r.winds) if r.winds else "",
                        *(after.get(p, 0) - was.get(p, 0) for p in players), *(after.get(p, 0) for p in players),
                        hands.get(r.number, "")])
            was = after
        if panel.pending is not None:
            w.writerow(["", _both(panel.pending)])
        w.writerow([])
        several = [_both(ui("ledger_in_total"))] if len(ledgers) > 1 else []
        w.writerow(["結算 Settle up", _both(panel.stakes), *several])
        _payments(w, ledger.settle_up())
    if len(ledgers) > 1:
        w.writerow([])
        total = total_balances(ledgers)
        # the names over their totals, as numbers a spreadsheet adds (they were one text cell each: a money review)
        w.writerow(["全部 All sessions", *total])
        w.writerow(["", *total.values()])
        _payments(w, fewest_transfers(total) or ())
    return out.getvalue()


class _SafeWriter:
    """``csv.writer`` whose every text cell goes through :func:`_cell`: the cells of a hand's winners and payments
    start with a player's name, which a spreadsheet took for a formula (``=HYPERLINK(…)``: a money review)."""

    def __init__(self, out: io.StringIO) -> None:
        self._w = csv.writer(out)

    def writerow(self, row: Sequence[object]) -> None:
        self._w.writerow([_cell(c) if isinstance(c, str) else c for c in row])


def _payments(w: _SafeWriter, transfers: Sequence[Transfer]) -> None:
    """The fewest payments as columns a spreadsheet can total (payer, payee, amount), each also in words (a review
    found them one text cell each)."""
    if not transfers:
        w.writerow(["", _both(ui("ledger_even"))])
        return
    w.writerow(["", "付款人 Payer", "收款人 Payee", "金額 Amount", "付款 Payment"])
    for t in transfers:
        w.writerow(["", t.payer, t.payee, t.amount, _both(ui("pays", payer=t.payer, payee=t.payee, amount=t.amount))])


def _both(words: Words) -> str:
    return words.zh if words.zh == words.en else f"{words.zh} / {words.en}"


def _cell(text: str) -> str:
    """``text`` as a spreadsheet shows it: one starting with = + - @, a tab or a carriage return would be taken for
    a formula (OWASP's list)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
