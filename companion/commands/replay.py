"""``companion replay FILE``: replay an event log, print the table after each event and the ledger.

Exits 1 naming the event (line, type and reason in zh/en) when the log holds an illegal event. One that only the
checks added since its rules stamp refuse (a fifth copy seen across the table, 過水 seen in the tiles shown… asked of
no event of a log kept before events were stamped) is replayed as kept, as the app opens and imports it, and said on
stderr, how many and the first as the app says them (:class:`~companion.game.older_rules.OlderRules`), then the
others; the exit status is 1 then too (a tracker review: a log edited to show six red dragons replayed with 0). An
event stamped with today's rules is refused as one entered now is, as ``app --from-log`` refuses it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from companion.app.house_rules import played_rules, rules_as_seated, rules_named, stakes_changed
from companion.app.ledger_model import dealer_parts, ledger_csv, next_deal_words, session_panel
from companion.app.words import Words, signed, ui
from companion.commands._io import add_lang_option, cannot_read
from companion.game import events as ev
from companion.game.events import EventError
from companion.game.history import passed_wins
from companion.game.older_rules import OlderRules, refused_at
from companion.game.service import read_log_or_table
from companion.game.session import (
    Ledger,
    LedgerEntry,
    WinLine,
    dealer_tai_counts,
    fewest_transfers,
    session_ledgers,
    total_balances,
)
from companion.game.state import OutcomeKind, TableState
from companion.game.text import EVENT_ZH, RETRACT_NOTES, SOURCE_ZH, IllegalEvent, Msg, msg, seat_label
from companion.game.view import evidence_said, render_table
from companion.names import in_chinese
from companion.rules.profiles import ProfileError, load_profile, profile_id
from companion.tiles import Tile, format_tiles


def _won(line: WinLine, pick: Any, dealer_in: bool, why: Words | None = None, colon: str = ": ") -> str:
    """One winner's (or false win's) line: who, how, the tai and the dealer's where they count (``dealer_in``: the
    dealer wins or pays it; a rules review read "+ 1 dealer tai" beside a payment that carried none)."""
    if line.unscored:
        return f"{line.player}{colon}{line.unscored}"
    if line.unpaid:  # a false win these rules do not penalise ("0 tai" read as 底 + 0 tai paid: a settlement review)
        said = ui("ledger_unpaid", player=line.player)  # (the Ledger tab's words)
        return pick(said.zh, said.en)
    # a winner by what he did ("East wins on a discard", as the app says it; the kind's name read "East win on a
    # discard", and "North robbed kong" as if his kong were robbed: a rules review)
    # (a false win with its verb too: "West false win 8 tai" beside "East wins on a discard, 5 tai": a review)
    zh, en = ("詐胡", "makes a false win,") if line.kind == "false_win" else (ev.WinKind(line.kind).zh,
                                                                             ev.WinKind(line.kind).won_en + ",")
    counted = line.dealer_tai and dealer_in
    # each language's line whole, then picked (picked piece by piece, both languages read "16 台 / tai + 莊家 1 台 /
    # + 1 dealer tai": a review)
    # a limit 詐胡: one payment split three ways, said as the ledger says it (37, 37 and 36 beside "8 台": a review)
    shared_zh, shared_en = (f"，罰滿台 {line.shared}，由另外三家平分", f", one limit payment of {line.shared}, split "
                            "among the other three") if line.shared is not None else ("", "")
    # the dealer's tai with what they are made of (``why``: dealer_parts), as the ledger says them (a change review
    # read 「+ 莊家 3 台」 with no parts)
    parts_zh, parts_en = (f"（{why.zh}）", f" ({why.en})") if why is not None else ("", "")
    # the name spaced from the Chinese as the app spaces it (「小美詐胡」, 「North3 自摸」)
    return pick(f"{in_chinese(line.player, '', zh)}{zh} {line.capped_tai} 台" + (f" + 莊家 {line.dealer_tai} 台{parts_zh}" if counted else "")
                + shared_zh,
                f"{line.player} {en} {line.capped_tai} tai" + (f" + {line.dealer_tai} dealer tai{parts_en}" if counted
                                                               else "") + shared_en)


def _hand_said(entry: LedgerEntry, pick: Any, colon: str, lang: str) -> str:
    """A ledger entry's hand after its number: a draw (or the last tile declined, spec §6.7), then each winner's or
    false win's line; a draw is said beside a false win played dead before it (``continue_dead``: the false win alone
    read as the hand's end, and the dealer then keeping the deal as a mistake, a settlement review). A hand with no
    line and no draw is said by its outcome's words (it printed "#n " and nothing after it: a change review)."""
    outcome = entry.result.outcome
    drawn = outcome.kind in (OutcomeKind.DRAW, OutcomeKind.DECLINED) or not entry.lines
    lines = ([pick(*outcome.said)] if drawn else []) + [
        _won(x, pick, dealer_tai_counts(entry.result, x), dealer_parts(entry.rules, entry.result.streak), colon)
        for x in entry.lines]
    return ("；" if lang == "zh" else "; ").join(lines)


def _seated_terms(state: TableState) -> Words:
    """The terms a table is seated with, for its Seated line: its stakes, its rule set by the name every score screen
    gives it ("as seated" where the set of that id here now says otherwise, spec §5.1) and the house rules it plays
    otherwise than that set (a house-rules review: the line read "Seated (simulated)" alone)."""
    name = rules_named(state.profile)
    terms = ui("ledger_stakes", base=state.base, per_tai=state.per_tai, profile=name.zh, profile_en=name.en)
    played = played_rules(state.profile, state.switches)
    return terms + ui("ledger_house", rules=played.zh, rules_en=played.en) if played is not None else terms


def _named_json(ledger: Ledger) -> dict[str, Any]:
    """The rule set of a session's ledger by its names, and whether its values are those kept at seating that the set
    of its id here no longer has, beside its id in the ledger's JSON (a review read "profile": "shared_set" alone
    for a table scored with the values kept, not the file's now)."""
    try:
        kept = load_profile(ledger.profile or None)
        name = {"zh": kept.name_zh, "en": kept.name_en}
    except ProfileError:  # a house set of another install, its values not in the log: its id
        name = {"zh": profile_id(ledger.profile), "en": profile_id(ledger.profile)}
    return {"profile_name": name, "profile_as_seated": rules_as_seated(ledger.profile)}


def _flower_drawn(e: ev.Event) -> tuple[int, Tile] | None:
    """The seat and the flower ``e`` draws where the log names it (a flower is shown as it is drawn, §2.6)."""
    if isinstance(e, ev.Drew | ev.ReplacementDrew):
        tile = e.tile
    elif isinstance(e, ev.FlowerReplaced) and e.replacements:
        tile = e.replacements[-1]
    else:
        return None
    return (e.seat, tile) if tile.is_known and tile.is_flower else None


def _correction_said(e: ev.Event, after: ev.Event | None, players: tuple[str, ...]) -> Msg | None:
    """What a replay line adds to an event's name: why a retraction was made (its note, in both languages: the
    eighth flower shown on a draw logged face down names the draw's seat and the flower, which the next event enters
    again), and the flower a draw turns up; None for the rest."""
    if isinstance(e, ev.Retracted):
        if e.note == ev.FLOWER_SHOWN_NOTE and after is not None and (drawn := _flower_drawn(after)) is not None:
            zh, en = seat_label(drawn[0], players)
            return msg("retract_shown", name=zh, name_en=en, tile=drawn[1].zh, tile_en=f"{drawn[1].en} ({drawn[1].code})")
        if e.note == ev.SET_ASIDE_NOTE:
            return msg("retract_set_aside")
        if e.note:
            zh, en = RETRACT_NOTES.get(e.note, (e.note, e.note))
            return msg("retract_note", note=zh, note_en=en)
        return None
    drawn = _flower_drawn(e)
    if drawn is None:
        return None
    zh, en = seat_label(drawn[0], players)
    return msg("drew_flower_shown", name=zh, name_en=en, tile=drawn[1].zh, tile_en=f"{drawn[1].en} ({drawn[1].code})")


class _UndoneShown:
    """Follows the log for the eighth flower's correction of a draw logged face down (the records set aside, the
    draw retracted with ``FLOWER_SHOWN_NOTE`` and entered again named, the records again) and its undo (what it
    entered retracted with no note, then the draw face down and the records entered again as they were), so that
    the undo's lines say what they do as the correction's own lines do (a change review found them bare)."""

    def __init__(self) -> None:
        self.aside = 0  # the set-aside retractions just passed
        self.entered: dict[int, int] = {}  # the log's index of what a correction entered: the draw's seat
        self.draws: set[int] = set()  # ... of those, the draws named (the others: the records set aside)
        self.undone = 0  # the undo's retractions just passed
        self.again = 0  # the undo's re-entries still to come

    def said(self, at: int, e: ev.Event, after: ev.Event | None, players: tuple[str, ...]) -> Msg | None:
        """What the event ``e`` at the log's index ``at`` adds to its line here, or None."""
        if isinstance(e, ev.Retracted) and e.note == ev.SET_ASIDE_NOTE:
            self.aside += 1
            return None
        if isinstance(e, ev.Retracted) and e.note == ev.FLOWER_SHOWN_NOTE:
            drawn = _flower_drawn(after) if after is not None else None
            if drawn is not None:
                self.entered |= {k: drawn[0] for k in range(at + 1, at + 2 + self.aside)}
                self.draws.add(at + 1)
            self.aside = 0
            return None
        self.aside = 0
        if isinstance(e, ev.Retracted) and not e.note and e.target in self.entered:
            self.undone += 1
            zh, en = seat_label(self.entered[e.target], players)  # (a change review: a record's retraction said
            # the draw went back face down)
            return msg("retract_undo_shown" if e.target in self.draws else "retract_undo_aside", name=zh, name_en=en)
        if self.undone:
            self.again, self.undone = self.undone, 0
        if self.again and not isinstance(e, ev.Retracted):
            self.again -= 1
            return msg("again_undo_shown")
        self.again = 0
        return None


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="replay an event log (JSON lines) and print the table and the ledger "
                                      "/ 重播牌局紀錄",
                       description="Replay an event log (JSON lines) and print the table and the ledger. / "
                                   "重播牌局紀錄（JSON lines），印出牌桌與帳目。")
    p.add_argument("file", help="a log written by `companion simulate` or exported by the table service, or a live "
                                "game's table file (companion app --table) / companion simulate 寫出或牌桌服務匯出的紀錄，"
                                "或記錄牌局的牌局檔（companion app --table）")
    add_lang_option(p, "language of the output", "輸出語言", both=True)
    p.add_argument("--quiet", action="store_true",
                   help="print only the final table and the ledger / 只印最後的牌桌與帳目")
    p.add_argument("--show-hands", action="store_true", help="show concealed hands (teaching) / "
                                                             "顯示各家手牌（教學）")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the ledger as JSON / 以 JSON 印出帳目")
    out.add_argument("--csv", action="store_true",
                     help="print the ledger as CSV for a spreadsheet, as the app's Ledger tab downloads it / "
                          "以 CSV 印出帳目（試算表用，與 App 帳本下載的相同）")
    p.add_argument("--passed", action="store_true",
                   help="list the wins passed up where hands are known / "
                        "列出過水（放過可胡的牌）的情形（手牌已知時）")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    lang = args.lang

    def pick(zh: str, en: str, sep: str = " / ") -> str:
        return zh if lang == "zh" else en if lang == "en" else f"{zh}{sep}{en}"

    def error(zh: str, en: str) -> None:
        print(f"companion replay: {pick(zh, en)}", file=sys.stderr)

    # a line of figures (names, amounts) takes Chinese's full-width colon in Chinese (a settlement review read
    # 「小美 → 老王: 60」); both languages at once keep the half-width one, as the English
    colon = "：" if lang == "zh" else ": "

    if not args.file.strip():  # (it read the folder "." and said so: a review)
        error("LOG 是空的：請給紀錄檔或牌局檔的檔名", "LOG is empty: give the log's or the table file's name")
        return 2
    try:  # a JSON-lines log (read as bytes: a line that is not UTF-8 is reported as itself) or a live table's file
        # (whose events are said by their stored number, as the app says them), read once: a pipe's too
        events, _private, stored = read_log_or_table(args.file)
    except OSError as bad:
        error(*cannot_read(args.file, bad))
        return 2
    except EventError as bad:
        error(f"{args.file}：{bad.reason.zh}", f"{args.file}: {bad.reason.en}")
        if bad.reason.key == "ev_table_damaged":  # how to go on, and the games kept of it (a review read SQLite's
            # "database disk image is malformed" alone)
            from companion.commands.app import damaged_way, kept_line

            error(*damaged_way())
            copies = kept_line(Path(args.file))
            if copies is not None:
                error(*copies)
        return 2

    if args.csv and args.passed:  # (the CSV has no place for them: it dropped them without a word)
        error("--passed 不在 CSV 裡；請配合 --json 或文字輸出", "--passed is not in the CSV; use it with --json or the text")
        return 2
    if not events:
        error(f"{args.file}：紀錄是空的，沒有事件可重播", f"{args.file}: no events to replay (the log is empty)")
        return 1
    state = TableState()
    older = OlderRules(stored)  # the events this version refuses, replayed as kept (said as the app says them)
    undone_shown = _UndoneShown()
    for i, (line, e) in enumerate(events):
        name = type(e).__name__
        players = state.players
        try:
            state = older.step(state, e, line)
        except IllegalEvent as err:
            why = refused_at(line, name, err.reason, stored)
            zh, en = evidence_said(err.evidence, state.players, err.reason)
            error(f"{args.file}：{why.zh}" + (f"（{zh}）" if zh else ""), f"{args.file}: {why.en}" + (f" [{en}]" if en else ""))
            return 1
        if not args.quiet and not args.json and not args.csv:  # (--json and --csv print that alone, for a program)
            source = e.source.value
            head = pick(f"{EVENT_ZH.get(name, name)}（{SOURCE_ZH.get(source, source)}）", f"{name} ({source})", " ")
            if isinstance(e, ev.WinCorrected):  # whose tiles, in which hand, as put right
                who = pick(*seat_label(e.seat, state.players), " ")
                won = f" + {e.tile.code}" if e.tile is not None else ""
                kinds = msg("fix_kongs_said", tiles=format_tiles(e.kongs)) if e.kongs else Msg("", "", "")
                head += pick(f"：第 {e.hand} 把 {who}：{format_tiles(e.concealed)}{won}{kinds.zh}",
                             f": hand {e.hand}, {who}: {format_tiles(e.concealed)}{won}{kinds.en}", " ")
            if isinstance(e, ev.Seated):  # the terms it is played with (spec §5.1: the rule set's name)
                terms = _seated_terms(state)
                head += pick(f"：{terms.zh}", f": {terms.en}", " ")
            if isinstance(e, ev.StakesChanged) and state.prev is not None:  # what changed, as the app says it
                terms = stakes_changed(state.prev, e)
                head += pick(f"：{terms.zh}", f": {terms.en}", " ")
            after = events[i + 1][1] if i + 1 < len(events) else None
            added = undone_shown.said(state.log_len - 1, e, after, players)
            added = _correction_said(e, after, players) if added is None else added
            if added is not None:  # a retraction's why, a flower drawn shown (§2.6: public, named as it turns up)
                head += pick(f"：{added.zh}", f": {added.en}", " ")
            print(f"#{state.log_len - 1} {head}")  # its own place in the log
            print(render_table(state, lang, args.show_hands))
    said = older.said()
    if said is not None:  # how many, the first; then the others, one a line
        error(f"{args.file}：{said.zh}", f"{args.file}: {said.en}")
        for other in older.let_in[1:]:
            also = refused_at(other.at, other.event, other.reason, stored)
            print(f"  {pick(also.zh, also.en)}", file=sys.stderr)
    status = 1 if said is not None else 0
    if args.csv:  # every session at the table, headings in both languages (spec §6.7)
        # the Ledger tab's download byte for byte: its BOM tells a spreadsheet the text is UTF-8, and bytes pass no
        # newline translation that would double csv's \r\n (a money review: garbled Chinese, a blank row each row)
        data = ledger_csv(state).encode("utf-8-sig")
        buffer = getattr(sys.stdout, "buffer", None)
        if buffer is None:
            sys.stdout.write(data.decode("utf-8"))
        else:
            sys.stdout.flush()
            buffer.write(data)
            buffer.flush()
        return status
    if args.quiet and not args.json:
        print(render_table(state, lang, args.show_hands))
    names = state.players or tuple(pick(*seat_label(i), sep="/") for i in range(4))
    if args.passed and not args.json:
        print(f"== {pick('過水', 'passed wins')} ==")
        for c in passed_wins([e for _, e in events]):
            how = pick("報過水", "declared", "/") if c.declared else pick("未申報", "not declared", "/")
            tile = pick(c.tile.zh, c.tile.code, " ")
            if c.ready:  # (a newcomer review found one only by reading the log: §2.11 forbids it, the table decides)
                how += " — " + pick("已報聽，報聽的人不可過水，由牌桌決定", "declared ready, and a player who has "
                                    "declared may not pass a win: the table decides")
            who = in_chinese(names[c.seat], "", tile) if lang == "zh" else f"{names[c.seat]} "
            print(f"  #{c.index} {who}{tile} ← {names[c.giver]}{colon}{how}")
    if not state.players:
        return status
    ledgers = session_ledgers(state)  # earlier sessions first, the one under way last
    ledger = ledgers[-1]
    if args.json:
        passed = [{"index": c.index, "seat": c.seat, "player": names[c.seat], "tile": c.tile.code, "giver": c.giver,
                   "declared": c.declared, "ready": c.ready} for c in passed_wins([e for _, e in events])] if args.passed else None
        # the session under way at the top, as ever; the sessions before it and the sums of all of them beside it
        # (a rules review: the JSON of a log of two sessions held the second alone)
        earlier = {"earlier_sessions": [{**x.to_json(), **_named_json(x)} for x in ledgers[:-1]],
                   "all_sessions": {"balances": (total := total_balances(ledgers)),
                                    "settle_up": [{"payer": t.payer, "payee": t.payee, "amount": t.amount}
                                                  for t in fewest_transfers(total)]}} if len(ledgers) > 1 else {}
        print(json.dumps({**ledger.to_json(), **_named_json(ledger), **earlier, **({"passed": passed} if passed is not None else {})},
                         ensure_ascii=False, indent=1))
        return status
    print(f"\n== {pick('每把', 'each hand')} ==")  # who won what and who paid whom (a review found neither)
    for k, session in enumerate(ledgers, 1):
        # its terms: stakes, rule set, house rules, as the ledger's head says them (spec §5.1; a house-rules review)
        panel = session_panel(state, k)
        # the terms its first hand was played with, each change at its hand (a change review: the latest terms
        # stood above hand 1, with a 七搶一 switched on only before hand 2)
        first = (panel.seated or panel.stakes) if panel is not None else None
        head = pick(first.zh, first.en) if first is not None else ""
        if len(ledgers) > 1:
            print(f" {pick(f'第 {k} 將', f'session {k}')}{colon}{head}")
        else:
            print(f" {head}")
        changes = {row.number: row.change for row in panel.rows} if panel is not None else {}
        for entry in session.entries:
            change = changes.get(entry.result.number)
            if change is not None:  # the stakes or house rules changed before this hand, as the Ledger tab says it
                print(f"  {pick(change.zh, change.en)}")
            print(f"  #{entry.result.number} {_hand_said(entry, pick, colon, lang)}")
            for t in entry.transfers:
                print(f"      {t.payer} → {t.payee}{colon}{t.amount}")
            # the next deal, and after the last hand of the 北 round that the session is over (spec §2.14, §6.7),
            # as the CSV says them (a rules review: the text never said so)
            nxt = next_deal_words(entry.result.players, entry.next)
            print(f"      {pick(nxt.zh, nxt.en)}")
    print(f"== {pick('帳', 'ledger')} ==")
    for p, v in ledger.balances.items():
        print(f"  {p}{colon}{signed(v)}")
    print(f"== {pick('結帳：最少筆數的付款', 'settling up: the fewest payments')} ==")
    for t in ledger.settle_up():
        print(f"  {t.payer} → {t.payee}{colon}{t.amount}")
    if len(ledgers) > 1:
        total = total_balances(ledgers)
        print(f"== {pick(f'{len(ledgers)} 將合計', f'{len(ledgers)} sessions in all')} ==")
        for p, v in total.items():
            print(f"  {p}{colon}{signed(v)}")
        for t in fewest_transfers(total):
            print(f"  {t.payer} → {t.payee}{colon}{t.amount}")
    return status
