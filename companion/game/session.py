"""The session ledger (spec §6.7): each finished hand scored and settled, transfers by player name,
running balances that sum to zero, "who pays whom" netted to the fewest transfers, CSV/JSON export.

Scoring and settlement are :func:`companion.rules.scoring.score` and
:mod:`companion.rules.settlement`; :func:`settle_hand` is the one place the tracker calls them.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from companion.game.events import ReadyKind, WinKind
from companion.game.evolve import finish_hand
from companion.game.rotation import NextDeal, capped_streak, next_deal
from companion.game.state import ActKind, HandResult, Outcome, TableState, WinRecord
from companion.game.switches import Switches
from companion.game.text import WIND_LETTER, msg
from companion.rules.profiles import BUILTIN, INSTANT_TAI, Profile, load_profile, played_with, profile_id
from companion.rules.profiles._store import record_rules
from companion.rules.scoring import FalseWin, NotAWin, Score, score
from companion.rules.settlement import Settlement, Stakes, settle, settle_false_win
from companion.rules.win import WINDS, Replacement, Win, WinInputError, WinType
from companion.tiles import parse_tiles

__all__ = ["switches_for", "session_ledgers", "total_balances", "Transfer", "WinLine", "LedgerEntry", "Ledger", "build_ledger", "ledger_of", "fewest_transfers",
           "settle_hand", "win_input", "dealer_takes_part", "dealer_tai_counts"]

_WIN_TYPE = {WinKind.DISCARD: WinType.DISCARD, WinKind.SELF_DRAW: WinType.SELF_DRAW,
             WinKind.ROBBED_KONG: WinType.ROB_KONG, WinKind.EIGHT_FLOWERS: WinType.EIGHT_FLOWERS,
             WinKind.SEVEN_ROB_ONE: WinType.SEVEN_FLOWERS_ROB, WinKind.FOUR_KONGS: WinType.FOUR_KONGS}
# settle_false_win reads only the offender's seat, the dealer, the streak and the profile of its Win;
# the hand shown is this neutral placeholder.
_PLACEHOLDER = parse_tiles("123456789m123p4567s")


@dataclass(frozen=True, slots=True)
class Transfer:
    payer: str
    payee: str
    amount: int


@dataclass(frozen=True, slots=True)
class WinLine:
    """One winner's (or one false-win offender's) score line."""

    player: str
    kind: str  # a WinKind value or "false_win"
    hand_tai: int
    capped_tai: int
    dealer_tai: int
    items: tuple[tuple[str, str, int], ...]  # (zh, en, tai)
    unscored: str = ""  # why no score could be made (e.g. a concealed kong never revealed)
    # a 詐胡 under the ``limit`` penalty: the one limit payment its offender makes, split among the other three
    # (spec §6.6; 37, 37 and 36 of 110 were paid unexplained beside "8 台": a review)
    shared: int | None = None
    # a 詐胡 its rule set does not penalise (``false_win_penalty = none``, spec §6.6): nothing paid, not "0 tai" (which
    # a table pays as 底 + 0 tai: a settlement review)
    unpaid: bool = False
    score: Score | None = field(default=None, compare=False, repr=False)  # the score itself, for the screens


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    result: HandResult
    lines: tuple[WinLine, ...]
    transfers: tuple[Transfer, ...]
    balances: tuple[tuple[str, int], ...]  # running, after this hand
    next: NextDeal
    # the rules it was settled by (the table's rule set with its house rules then): what its dealer's tai are made of
    rules: Profile = field(compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Ledger:
    players: tuple[str, ...]
    stakes: Stakes  # the latest (a hand played at other stakes: `stakes_of`)
    profile: str
    entries: tuple[LedgerEntry, ...]
    switches: Switches | None = None  # the latest procedure (its house rules), where known; a hand: `switches_of`

    @property
    def balances(self) -> dict[str, int]:
        bal = {p: 0 for p in self.players}
        for e in self.entries:
            bal.update(dict(e.balances))
        return bal

    def stakes_of(self, entry: LedgerEntry) -> Stakes:
        """The stakes ``entry``'s hand was settled with."""
        return Stakes(*entry.result.stakes) if entry.result.stakes is not None else self.stakes

    def switches_of(self, entry: LedgerEntry) -> Switches | None:
        """The procedure switches ``entry``'s hand was played with, where known."""
        return entry.result.switches if entry.result.switches is not None else self.switches

    def settle_up(self) -> list[Transfer]:
        """Who pays whom, netted to the fewest transfers."""
        return fewest_transfers(self.balances)

    def to_json(self) -> dict[str, Any]:
        return {
            "profile": profile_id(self.profile), "stakes": {"base": self.stakes.base, "per_tai": self.stakes.per_tai},
            # the table's latest terms; a hand played otherwise gives its own
            **({"switches": self.switches.to_mapping()} if self.switches is not None else {}),
            "players": list(self.players),
            "hands": [_entry_json(e, self.stakes_of(e), self.switches_of(e), self.switches) for e in self.entries],
            "balances": self.balances,
            "settle_up": [{"payer": t.payer, "payee": t.payee, "amount": t.amount} for t in self.settle_up()],
        }

    def to_csv(self) -> str:
        out = io.StringIO()
        w = csv.writer(out)
        # the columns spec §6.7 lists per hand (the hand in its round, the seat winds, who deals next), after the
        # ones a reader of the earlier files finds where they were; each winner's hand in the notation last
        w.writerow(["hand", "round", "dealer", "streak", "dice", "result", "winners", "tai", "transfers", "stakes",
                    "hand_in_round", "seat_winds", "next", *self.players, "hands"])
        for e in self.entries:
            r = e.result
            bal = dict(e.balances)
            st = self.stakes_of(e)
            w.writerow([r.number, WIND_LETTER[r.round_wind], r.players[r.dealer], r.streak, r.dice_total,
                        _result_code(r.outcome), ";".join(f"{x.player}:{x.kind}" for x in e.lines),
                        ";".join(str(x.capped_tai) for x in e.lines),
                        ";".join(f"{t.payer}>{t.payee}:{t.amount}" for t in e.transfers), f"{st.base}/{st.per_tai}",
                        r.hand_in_round, ";".join(f"{r.players[s]}:{WIND_LETTER[w]}" for s, w in enumerate(r.seat_winds)),
                        "end" if e.next.session_over else
                        f"{r.players[e.next.dealer]}:{e.next.streak}:{WIND_LETTER[e.next.round_wind]}",
                        *(bal.get(p, 0) for p in self.players),
                        ";".join(f"{x.player}:{x.score.win.describe()}" for x in e.lines if x.score is not None)])
        return out.getvalue()


def _result_code(out: Outcome) -> str:
    """The CSV's result: the kind's code, and ``draw:three_wins`` for the draw three wins on one discard make (spec
    §2.9, ``multi_win = three_is_draw``), and ``draw:four_kongs`` for four kongs split between players (§2.13),
    which the JSON says in words; all three draws were written ``draw``."""
    if out.three_wins_drawn:
        return f"{out.kind.code}:three_wins"
    return f"{out.kind.code}:four_kongs" if out.four_kongs else out.kind.code


def _entry_json(e: LedgerEntry, stakes: Stakes, switches: Switches | None, now: Switches | None) -> dict[str, Any]:
    r = e.result
    return {
        "hand": r.number, "round_wind": WIND_LETTER[r.round_wind], "hand_in_round": r.hand_in_round,
        "dealer": r.players[r.dealer], "streak": r.streak, "dice_total": r.dice_total,
        "stakes": {"base": stakes.base, "per_tai": stakes.per_tai},
        # the switches a hand was played with, where they are not the ledger's (the table changed them since)
        **({"switches": switches.to_mapping()} if switches is not None and switches != now else {}),
        "seat_winds": {r.players[s]: WIND_LETTER[w] for s, w in enumerate(r.seat_winds)},
        "result": {"kind": r.outcome.kind.code, "zh": r.outcome.said[0], "en": r.outcome.said[1]},
        # dealer_in: the dealer's tai count in this line's payments (he wins, pays, or everyone pays)
        "lines": [{"player": x.player, "kind": x.kind, "hand_tai": x.hand_tai, "capped_tai": x.capped_tai,
                   "dealer_tai": x.dealer_tai, "dealer_in": dealer_tai_counts(r, x), "items": [list(i) for i in x.items],
                   **({"unscored": x.unscored} if x.unscored else {}),
                   # a 詐胡 its rules do not penalise (``false_win_penalty = none``): nothing paid, said as such (its
                   # capped_tai 0 and no transfers read as a 0-tai penalty claimed: a settlement review)
                   **({"unpaid": True} if x.unpaid else {}),
                   # the scoring record (spec §3.2, §6.7) as `companion tai` reads it: what hand earned the tai
                   **({"win": _record(x.score)} if x.score is not None else {})} for x in e.lines],
        "transfers": [{"payer": t.payer, "payee": t.payee, "amount": t.amount} for t in e.transfers],
        "balances": dict(e.balances),
        "next": {"dealer": r.players[e.next.dealer] if not e.next.session_over else None,
                 "streak": e.next.streak, "round_wind": WIND_LETTER[e.next.round_wind] if e.next.round_wind < 4 else None},
    }


def _record(sc: Score) -> dict[str, Any]:
    """A winner's scoring record as ``companion tai`` reads it: under a built-in rule set, with the switches his table
    played otherwise (a change review: without them a table that allowed a win on a discard kong's replacement had
    the record scored a 詐胡); under any other (a house set, or a built-in one as an earlier version had it), with
    every value the table kept (``rules``), so that it scores as played wherever it is read (a review: a house set's
    record gave other tai once its file was edited, and "unknown profile" once it was deleted or on another
    install)."""
    out = sc.win.to_dict()
    played = sc.profile
    own = load_profile(played.id) if played.id in BUILTIN else None
    if own is None:
        return {**out, "rules": record_rules(played)}
    changed: dict[str, Any] = {k: v for k, v in played.switches.items() if own.switches.get(k) != v}
    changed.update({k: played.value(k) > 0 for k in INSTANT_TAI if (played.value(k) > 0) != (own.value(k) > 0)})
    again = played_with(own, changed) if changed else own  # (the table's instant wins are its switches too, read
    # back by the one helper: a review saw a table's 七搶一 said as an edited set)
    if dict(again.tai) != dict(played.tai) or dict(again.switches) != dict(played.switches):
        return {**out, "rules": record_rules(played)}
    return {**out, "switches": changed} if changed else out


def table_profile(prof: Profile, switches: Switches) -> Profile:
    """The rule set as this table plays it: each procedure switch the table set otherwise (its house rules, in its
    log) replaces the rule set's own, for the scorer reads some of them too (a win on a discard kong's
    replacement: without this a table that allows it had its winner scored as a 詐胡); an instant win the table
    switched otherwise scores as :func:`~companion.rules.profiles.played_with` says (the one helper ``companion tai``
    reads a record's switches with)."""
    usual, played = switches_for(prof).as_profile(), switches.as_profile()
    changed = {name: value for name, value in played.items()
               if (name in prof.switches or name in INSTANT_TAI) and usual[name] != value}
    return played_with(prof, changed) if changed else prof


def switches_for(profile: str | Profile | None = None) -> Switches:
    """The procedure switches a rule profile sets (spec §2.17), each instant win (七搶一, 八仙過海, 四槓) on when the
    profile scores it."""
    prof = load_profile(profile)
    sw = Switches.from_mapping(prof.switches, stored=True)  # (checked where the set was read: a table's kept rules
    # may hold a streak_cap over today's bound, an earlier version's, and are scored as played)
    return replace(sw, seven_rob_one=prof.value("seven_rob_one") > 0, eight_flowers=prof.value("eight_flowers") > 0,
                   four_kongs=prof.value("four_kongs") > 0)


# --- scoring one hand ------------------------------------------------------------------------------

def win_input(rec: WinRecord, result: HandResult, profile: str | Profile) -> Win:
    """The scoring record of spec §3.2 for one winner of a finished hand (``profile``: the table's, or its id). A
    八仙過海 declared on the eighth flower's replacement is scored as the hand that replacement completes, if it
    completes one (spec §3.1: scored as usual, 8 added; ``eight_flowers_compound``), as the same win entered as a
    self-draw is: the replacement as its winning tile where the log knows it, else the tile of his 17 the log did
    not know that scores best (the replacement entered face down); else 8 flat. The dealer's eighth flower laid at
    the deal completes his dealt hand: 天胡 and 8 (any of his tiles as the winning one, spec §3.2)."""
    pid = profile if isinstance(profile, str) else profile.id
    if rec.kind is not WinKind.EIGHT_FLOWERS:
        return _win_input(rec, result, pid)
    flat = _win_input(replace(rec, replacement=None, heavenly=False, earthly=False, last_tile=False), result, pid)
    if not rec.eight_flowers_on_hand:  # declared later than on the replacement: 8 flat
        return flat
    new = Counter(rec.concealed) - Counter(rec.logged)  # the tiles of his 17 the log did not know
    tiles = [rec.drawn] if rec.drawn is not None and rec.drawn in rec.concealed else \
        list(dict.fromkeys(t for t in rec.concealed if new[t])) or list(dict.fromkeys(rec.concealed))
    best: tuple[int, Win] | None = None
    for t in tiles:
        rest = list(rec.concealed)
        rest.remove(t)
        try:
            # scored as the self-draw it is (地胡 and the replacement's items alike), 八仙過海's 8 added by the scorer
            win = _win_input(replace(rec, kind=WinKind.SELF_DRAW, tile=t, concealed=tuple(rest)), result, pid)
            tai = score(win, profile).hand_tai
        except (WinInputError, NotAWin):  # no hand with it (or none the profile allows): 八仙過海 alone
            continue
        if best is None or tai > best[0]:
            best = (tai, win)
    return best[1] if best is not None else flat


def _win_input(rec: WinRecord, result: HandResult, profile: str) -> Win:
    winds = result.seat_winds
    repl = None
    if rec.replacement is ActKind.FLOWER:
        repl = Replacement.FLOWER
    elif rec.replacement is ActKind.KONG:
        repl = Replacement.ADDKONG if rec.replaced_kong == "addkong" else Replacement.CKONG
    elif rec.replacement is ActKind.DISCARD_KONG:
        repl = Replacement.KONG
    return Win(
        concealed=rec.concealed, win_tile=rec.tile, win_type=_WIN_TYPE[rec.kind],
        seat_wind=WINDS[winds[rec.seat]], round_wind=WINDS[result.round_wind], melds=rec.melds,
        flowers=rec.flowers, dealer=WINDS[winds[result.dealer]], streak=result.streak,
        discarder=WINDS[winds[rec.discarder]] if rec.discarder is not None else None, replacement=repl,
        last_tile=rec.last_tile, last_discard=rec.last_discard, heavenly=rec.heavenly, earthly=rec.earthly,
        human=rec.human, ready_declared=rec.ready is ReadyKind.READY, ready_on_deal=rec.ready is ReadyKind.HEAVENLY,
        ready_first_discard=rec.ready is ReadyKind.EARTHLY, profile=profile)


def _offender_input(seat: int, result: HandResult, profile: str) -> Win:
    winds = result.seat_winds
    return Win(concealed=_PLACEHOLDER, win_tile=_PLACEHOLDER[0], win_type=WinType.SELF_DRAW,
               seat_wind=WINDS[winds[seat]], round_wind=WINDS[result.round_wind],
               dealer=WINDS[winds[result.dealer]], streak=result.streak, profile=profile)


def dealer_tai_counts(result: HandResult, line: WinLine) -> bool:
    """The dealer's tai count in the payments of ``line``: he wins or pays it, everyone pays, or it is a false win
    (whose offender pays everyone, the dealer's tai included). A replay had said "+ 1 dealer tai" beside a payment
    of none (a rules review)."""
    return line.kind == "false_win" or line.player in dealer_takes_part(result)


def dealer_takes_part(result: HandResult) -> frozenset[str]:
    """The winners whose settlement the dealer's tai count in: he wins, he discarded, or everyone pays (a self-drawn
    or other own win). A winner's line says its dealer tai only then."""
    names = result.players
    return frozenset(names[w.seat] for w in result.outcome.winners
                     if result.dealer in (w.seat, w.discarder) or w.discarder is None)


def settle_hand(result: HandResult, prof: Profile, stakes: Stakes) -> tuple[list[WinLine], list[Transfer]]:
    """Score and settle every winner and every false win of one hand; transfers by player name."""
    lines: list[WinLine] = []
    transfers: list[Transfer] = []
    names = result.players
    by_wind = {WINDS[w]: names[s] for s, w in enumerate(result.seat_winds)}
    out = result.outcome
    claims = out.false_claims + (None,) * (len(out.false_wins) - len(out.false_claims))
    offenders: list[tuple[int, int | None]] = list(zip(out.false_wins, claims, strict=True))  # (seat, claimed tai)
    for rec in result.outcome.winners:
        try:
            win = win_input(rec, result, prof)
            sc = score(win, prof)
        except WinInputError as e:
            why = msg("unscored", reason=e.message_zh, reason_en=str(e))
            lines.append(WinLine(names[rec.seat], rec.kind.value, 0, 0, 0, (), unscored=f"{why.zh} / {why.en}"))
            continue
        except NotAWin as e:  # below min_tai or forbidden by the profile: a declared one is 詐胡 (§6.4)
            # what the offender claimed, for the claimed_tai penalty (§6.6): the hand's tai where it has a shape
            claimed = e.claimed.hand_tai if isinstance(e, FalseWin) and e.claimed is not None else None
            offenders.append((rec.seat, claimed))
            continue
        st = settle(sc, win, stakes)
        lines.append(WinLine(names[rec.seat], rec.kind.value, sc.hand_tai, sc.capped_tai, sc.dealer_tai,
                             tuple((i.zh, i.en, i.tai) for i in sc.items), score=sc))
        transfers += _transfers(st, by_wind)
    for seat, claimed in offenders:
        st = settle_false_win(_offender_input(seat, result, prof.id), stakes, prof, claimed)
        # the dealer's tai the offender pays him (or, the dealer offending, pays everyone): spec §6.6, "+ D"
        rule = prof.switch("false_win_penalty")
        shared = st.total if rule == "limit" else None
        lines.append(WinLine(names[seat], "false_win", st.hand_tai, st.hand_tai,
                             st.dealer_tai_paid, (), shared=shared, unpaid=rule == "none"))
        transfers += _transfers(st, by_wind)
    return lines, transfers


def _transfers(st: Settlement, by_wind: dict[Any, str]) -> list[Transfer]:
    return [Transfer(by_wind[p.payer], by_wind[p.payee], p.amount or 0) for p in st.payments]


def build_ledger(results: Sequence[HandResult], switches: Switches, stakes: Stakes,
                 profile: str | Profile | None = None, first_dealer: int | None = None) -> Ledger:
    """The ledger of one session's hands under ``switches`` and ``stakes`` (the table's latest), each hand settled
    by its own where it records them (a table that changed them between hands)."""
    rules = load_profile(profile)
    prof = table_profile(rules, switches)
    played = {switches: prof}
    players: list[str] = []
    bal: dict[str, int] = {}
    entries = []
    first = first_dealer if first_dealer is not None else (results[0].dealer if results else 0)
    for k, r in enumerate(results):
        for p in r.players:
            if p not in bal:
                players.append(p)
                bal[p] = 0
        sw = r.switches if r.switches is not None else switches
        if sw not in played:
            played[sw] = table_profile(rules, sw)
        lines, transfers = settle_hand(r, played[sw], Stakes(*r.stakes) if r.stakes is not None else stakes)
        for t in transfers:
            bal[t.payer] -= t.amount
            bal[t.payee] += t.amount
        nd = next_deal(r.dealer, r.streak, r.round_wind, r.hand_in_round, first, r.outcome, sw)
        later = results[k + 1].switches if k + 1 < len(results) else switches  # the next hand's (changed?)
        if later is not None and later != sw:
            nd = replace(nd, streak=capped_streak(nd.streak, later))
        entries.append(LedgerEntry(r, tuple(lines), tuple(transfers), tuple(bal.items()), nd, played[sw]))
    # the table's own key where it kept its rules (keep_rules): its screens name them as kept, not as the file of
    # that id says now (a review: an edited file's name and house rules were said of the table's)
    kept = profile if isinstance(profile, str) and profile_id(profile) == prof.id else prof.id
    return Ledger(tuple(players), stakes, kept, tuple(entries), switches)


def ledger_of(state: TableState, profile: str | Profile | None = None) -> Ledger:
    """The ledger of the state's session, the hand just finished included."""
    s = finish_hand(state)
    return build_ledger(s.results, s.switches, Stakes(s.base, s.per_tai), profile or s.profile or None,
                        s.first_dealer)


def session_ledgers(state: TableState) -> list[Ledger]:
    """One ledger per session at this table, earlier sessions first (players may change seats)."""
    out = [build_ledger(p.results, p.switches, Stakes(p.base, p.per_tai), p.profile or None, p.first_dealer)
           for p in state.past]
    if state.players:
        out.append(ledger_of(state))
    return out


def total_balances(ledgers: Sequence[Ledger]) -> dict[str, int]:
    """Money per named player over several sessions."""
    total: dict[str, int] = {}
    for ledger in ledgers:
        for p, v in ledger.balances.items():
            total[p] = total.get(p, 0) + v
    return total


def fewest_transfers(balances: dict[str, int]) -> list[Transfer]:
    """Net balances (summing to zero) into the fewest payments: split the players into as many
    zero-sum groups as possible (exact, by subsets), then settle each group with n - 1 payments."""
    names = [p for p, v in balances.items() if v]
    vals = [balances[p] for p in names]
    if sum(vals) != 0:
        raise ValueError(f"balances do not sum to zero: {balances}")
    n = len(names)
    full = (1 << n) - 1
    sums = [0] * (1 << n)
    for m in range(1, 1 << n):
        low = (m & -m).bit_length() - 1
        sums[m] = sums[m & (m - 1)] + vals[low]
    best = [-1] * (1 << n)  # most zero-sum groups that exactly cover the mask
    best[0] = 0
    choice = [0] * (1 << n)
    for m in range(1, 1 << n):
        if sums[m] != 0:
            continue
        sub = m
        while sub:
            if sums[sub] == 0 and best[m ^ sub] >= 0 and best[m ^ sub] + 1 > best[m]:
                best[m], choice[m] = best[m ^ sub] + 1, sub
            sub = (sub - 1) & m
    out: list[Transfer] = []
    m = full
    while m:
        group = choice[m]
        out += _settle_group([(names[i], vals[i]) for i in range(n) if group >> i & 1])
        m ^= group
    return out


def _settle_group(members: list[tuple[str, int]]) -> list[Transfer]:
    """Largest debtor pays largest creditor until the group is square (at most n - 1 payments)."""
    debt = sorted(((p, -v) for p, v in members if v < 0), key=lambda x: -x[1])
    cred = sorted(((p, v) for p, v in members if v > 0), key=lambda x: -x[1])
    owed = [v for _, v in debt]
    due = [v for _, v in cred]
    out = []
    i = j = 0
    while i < len(debt) and j < len(cred):
        amount = min(owed[i], due[j])
        out.append(Transfer(debt[i][0], cred[j][0], amount))
        owed[i] -= amount
        due[j] -= amount
        i += owed[i] == 0
        j += due[j] == 0
    return out
