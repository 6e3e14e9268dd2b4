"""House rules (各家規矩) a table sets when it seats its players: the tracker's procedure switches, in words.

Plain Python (no flet). A rule set (profile) gives each switch its value; a table that plays otherwise changes
it here, and the switches go into the game's first event (``Seated``), so the tracker, the offer and the replay
all follow them. These are the fields of :class:`companion.game.switches.Switches`: the procedure switches of
spec §2.17 (its ``declared_ready_tai`` is a scoring item, set with the rule set's tai) and the 人胡 window. The
instant-win items (七搶一, 八仙過海, 四槓) are not offered at a first seating either: they come with the rule set's tai,
which score them; a change between hands may switch them, and the lines of a table's terms name them with the house
rules (:data:`TABLE_SWITCHES`). A table seated again keeps every switch it played otherwise, the instant wins' as
its house rules, and its form offers them (:func:`seating_rules`, :func:`seating_line`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.app.words import Words, ui
from companion.game.events import StakesChanged
from companion.game.evolve import terms_ahead
from companion.game.session import switches_for, table_profile
from companion.game.state import TableState
from companion.game.switches import SwitchError, Switches, value_refused
from companion.rules.profiles import Profile, ProfileError, as_its_file, load_profile, profile_id
from companion.rules.profiles._schema import NO_STREAK_TAI, SWITCHES, switch_listed
from companion.rules.settlement import Stakes
from companion.rules.tai import REGISTRY

__all__ = ["HouseRule", "HOUSE_RULES", "INSTANT_RULES", "TABLE_SWITCHES", "SEATING_RULES", "rule_values", "with_rules",
           "changed_rules", "played_rules", "terms_change", "stakes_changed", "TableTerms", "table_terms", "rules_named",
           "seating_rules", "seating_line"]

def _named(key: str) -> Words:
    """A switch's name as the rule set's schema gives it: the ledger, replay and the profile checks say the same."""
    spec = SWITCHES[key]
    return Words(spec.zh, spec.en)


_YES_NO = (("true", Words("是", "yes")), ("false", Words("否", "no")))


def _options(key: str) -> tuple[tuple[str, Words], ...]:
    """A switch's choices with their names, as the rule set's schema gives them (the checks of a rule-set file say
    them the same: :func:`companion.rules.profiles._schema.switch_refused`)."""
    spec = SWITCHES[key]
    return tuple((c, Words(*spec.choice_name(c))) for c in spec.choices)


@dataclass(frozen=True, slots=True)
class HouseRule:
    key: str  # the switch's name (spec §2.17)
    name: Words
    options: tuple[tuple[str, Words], ...]  # (the switch's value as the spec writes it, what players call it)

    def option(self, value: str) -> Words:
        if self.key == "streak_cap" and _streak(value) is not None:  # (any cap a rule set may set, 0 and 20 too:
            return _in_a_row(int(value))  # the picker offers 1-12, and adds the table's own value, said alike)
        return next((w for v, w in self.options if v == value), Words(value, value))

    def listed(self, value: str, note: Words | None = None) -> Words:
        """The switch set to ``value`` (an option's key) as an item of a list, as every line of a table's own rules
        says it (:func:`companion.rules.profiles._schema.switch_listed`: 「起胡台數 5」, 「七搶一（不算）」, 「不算連莊台」;
        a change review read 「連莊台數最多算到：不算連莊台」 and 「…：連 2」 on the replay, 「…算到 1」 in tai --explain);
        ``note`` in its brackets (「七搶一（算，照規則）」)."""
        typed: object = True if value == "true" else False if value == "false" else None if value == "none" else \
            int(value) if _streak(value) is not None else value
        try:
            return Words(*switch_listed(self.key, typed, (note.zh, note.en) if note is not None else None))
        except (KeyError, ValueError):  # (a value no rule set takes: as the picker says it)
            own = Words(f"（{note.zh}）", f" ({note.en})") if note is not None else Words("", "")
            return self.name + Words("：", ": ") + self.option(value) + own


def _in_a_row(n: int) -> Words:
    """A streak cap ``n`` as a player reads it; 0 as what it does (spec §2.14: N stays 0, so the dealer's tai is 1,
    with no 連莊 or 拉莊 tai: a change review read "0 in a row")."""
    return Words(f"連 {n}", f"{n} in a row") if n else Words(*NO_STREAK_TAI)


def _streak(value: str) -> int | None:
    """The ``streak_cap`` a picked ``value`` sets, as ``companion simulate --switch`` and a rule-set file take it
    (a whole number; past 18 digits None, refused as the text it is, in the words that say how far a cap goes); None
    where it is none."""
    return int(value) if value.isdecimal() and len(value) <= 18 else None


HOUSE_RULES: tuple[HouseRule, ...] = (
    *(HouseRule(key, _named(key), _options(key)) for key in (
        "first_dealer", "seat_wind", "reserve_rule", "multi_win", "kong_from_left", "discard_kong_replacement_win")),
    HouseRule("passed_win_blocks_self_draw", _named("passed_win_blocks_self_draw"), _YES_NO),
    HouseRule("passed_win_released_by_kong", _named("passed_win_released_by_kong"),
              _YES_NO),
    HouseRule("may_decline_last_tile", _named("may_decline_last_tile"), _YES_NO),
    HouseRule("draw_keeps_deal", _named("draw_keeps_deal"), _YES_NO),
    HouseRule("streak_cap", _named("streak_cap"), (
        ("none", Words("不限", "no cap")), *((str(n), _in_a_row(n)) for n in range(1, 13)))),
    *(HouseRule(key, _named(key), _options(key)) for key in ("false_win_after", "wrong_count", "human_win_window")),
)
"""Every procedure switch a table may set, in the order the spec lists them (its value words as the spec has
them: :class:`companion.game.switches.Switches` reads the same words)."""


_ON_OFF = (("true", Words("算", "on")), ("false", Words("不算", "off")))

INSTANT_RULES: tuple[HouseRule, ...] = tuple(HouseRule(key, Words(REGISTRY[key].zh, REGISTRY[key].en), _ON_OFF)
                                             for key in ("seven_rob_one", "eight_flowers", "four_kongs"))
"""The switches of the instant wins (spec §4.4: 七搶一, 八仙過海, 四槓), named as their tai items are everywhere: not
house rules a table sets at seating (they come with the rule set's tai), yet a change between hands may switch
them (a change review: such a change was said as "nothing")."""

TABLE_SWITCHES: tuple[HouseRule, ...] = HOUSE_RULES + INSTANT_RULES
"""Every switch a table can play otherwise than its rule set: the house rules, then the instant wins'. The terms
line (:func:`played_rules`) and the line of a change between hands (:func:`terms_change`) both list these (a
review: the terms line left out the instant wins a change had switched, which the change's own line named)."""


SEATING_RULES = ("first_dealer", "seat_wind")
"""The house rules fixed at seating for the whole session (the tracker refuses a change of them between hands)."""


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


def rule_values(switches: Switches, rules: tuple[HouseRule, ...] = HOUSE_RULES) -> dict[str, str]:
    """Each of the ``rules``' value in ``switches`` (the house rules a table sets at seating, by default), as its
    option's key."""
    data = switches.as_profile()  # (kong_from_left "allowed"/"forbidden", as its options are keyed)
    return {r.key: _text(data[r.key]) for r in rules}


def with_rules(switches: Switches, chosen: Mapping[str, str]) -> Switches:
    """``switches`` with the switches ``chosen`` (rule key -> option key): the house rules, and the instant wins a
    table seated again keeps (:data:`TABLE_SWITCHES`). A rule or value that does not exist raises
    :class:`SwitchError` naming it, in both languages."""
    rules = {r.key: r for r in TABLE_SWITCHES}
    data: dict[str, object] = {}
    for key, value in chosen.items():
        rule = rules.get(key)
        if rule is None:
            raise SwitchError(f"no such house rule: {key}", f"沒有這條規矩：{key}")
        if key == "streak_cap":  # any cap a rule set takes, refused in its words (a change review: the app listed
            # 1-12 alone, so a table under streak_cap = 20 or 0 had its own value refused on the way back in)
            cap = _streak(value)
            data[key] = None if value == "none" else value if cap is None else cap  # (the tracker refuses a text)
            continue
        if value not in (v for v, _ in rule.options):  # (said as the app names the rule and its choices, each
            # choice's value and the rule's key in brackets: a review read "multi_win is one of nearest, all, …")
            raise value_refused(key, value, [(v, w.zh, w.en) for v, w in rule.options])
        elif value in ("true", "false"):
            data[key] = value == "true"
        else:
            data[key] = value
    # the streak cap ``switches`` plays under kept as it is, over today's bound too (a table an earlier version
    # seated so): its terms changed between hands send it back, and were refused; a new one stays bounded
    kept = data.get("streak_cap", switches.streak_cap) == switches.streak_cap
    return Switches.from_mapping({**switches.to_mapping(), **data}, strict=True, stored=kept)


def seating_rules(state: TableState) -> dict[str, str]:
    """What the form that seats the table at ``state`` again starts from (rule key -> option key): every switch
    (:data:`TABLE_SWITCHES`) the table plays otherwise than its rule set, the instant wins as the house rules (a
    review: a table that had switched 八仙過海 between hands was seated again with the rule set's, unsaid, while its
    house rules were kept). Empty before anyone is seated; the house rules as played where the rule set is not
    known here."""
    if not state.players:
        return {}
    played = rule_values(state.switches, TABLE_SWITCHES)
    try:
        usual = rule_values(switches_for(state.profile), TABLE_SWITCHES)
    except ProfileError:
        return {k: v for k, v in played.items() if k in {r.key for r in HOUSE_RULES}}
    return {k: v for k, v in played.items() if usual[k] != v}


def seating_line(profile: str, chosen: Mapping[str, str]) -> Words | None:
    """What a table seated under the rule set ``profile`` with the switches ``chosen`` (rule key -> option key) will
    play otherwise than that rule set, for the line under the seating form: "入座後跟這套規則不同的：八仙過海：不算、…";
    None where it plays the rule set as it is, or where either cannot be read (the form says why elsewhere)."""
    try:
        usual = switches_for(profile)
        changed = changed_rules(usual, with_rules(usual, chosen))
    except (ProfileError, SwitchError):
        return None
    if not changed:
        return None
    return ui("live_seat_otherwise", rules="、".join(w.zh for w in changed),
              rules_en="; ".join(w.en for w in changed))


def changed_rules(profile: Switches, played: Switches) -> tuple[Words, ...]:
    """The switches (:data:`TABLE_SWITCHES`) ``played`` sets otherwise than the rule set's ``profile``, each as "rule:
    value"."""
    mine, theirs = rule_values(played, TABLE_SWITCHES), rule_values(profile, TABLE_SWITCHES)
    return tuple(r.listed(mine[r.key]) for r in TABLE_SWITCHES if mine[r.key] != theirs[r.key])


def played_rules(profile: str, played: Switches) -> Words | None:
    """The house rules a table seated under the rule set ``profile`` plays otherwise, joined for one line; None
    when it plays the rule set as it is, or when ``profile`` is unknown here (a table file of another install)."""
    try:
        changed = changed_rules(switches_for(profile), played)
    except ProfileError:
        return None
    return Words("、".join(w.zh for w in changed), "; ".join(w.en for w in changed)) if changed else None


def terms_change(base: int, per_tai: int, was: Switches, new_base: int, new_per_tai: int, now: Switches,
                 profile: str = "", when: Words | None = None) -> Words:
    """What a change of stakes and house rules between hands (``StakesChanged``) changes, for one line: "從下一把起：
    底 30／台 10 改成 底 50／台 20；可以不摸海底（否）" (``when`` replaces "from the next hand"). Every switch a log
    can change is said (:data:`TABLE_SWITCHES`, as the terms line lists them). A rule back to the rule
    set's own value says so, in the switch's own brackets (「七搶一（算，照規則）」)."""
    parts: list[Words] = []
    if (base, per_tai) != (new_base, new_per_tai):
        parts.append(Words(f"底 {base}／台 {per_tai} 改成 底 {new_base}／台 {new_per_tai}",
                           f"stakes {base} + {per_tai} a tai become {new_base} + {new_per_tai}"))
    mine, theirs = rule_values(was, TABLE_SWITCHES), rule_values(now, TABLE_SWITCHES)
    try:
        own = switches_for(profile) if profile else None
    except ProfileError:
        own = None
    usual = rule_values(own, TABLE_SWITCHES) if own is not None else {}
    # one back to the set's value said so in its own brackets, 「七搶一（算，照規則）」 (a review read 「七搶一（算）（照規則）」)
    for r in TABLE_SWITCHES:
        if mine[r.key] != theirs[r.key]:
            parts.append(r.listed(theirs[r.key], ui("switch_as_the_set") if usual.get(r.key) == theirs[r.key] else None))
    said = Words("；".join(w.zh for w in parts), "; ".join(w.en for w in parts)) if parts else Words("不變", "nothing")
    return (when if when is not None else Words("從下一把起", "From the next hand")) + Words("：", ": ") + said


def stakes_changed(before: TableState, e: StakesChanged) -> Words:
    """A ``StakesChanged`` entered on the table ``before`` it, said as :func:`terms_change` says it: the Table tab's
    step caption and ``companion replay``'s line alike (replay printed the switches' raw codes, "一炮多響：all",
    "declined: False", a code review)."""
    base, per_tai, switches = terms_ahead(before)  # (a change made before it, after the same hand)
    return terms_change(base, per_tai, switches, e.base, e.per_tai, e.switches if e.switches is not None else switches,
                        before.profile)


def rules_named(key: str) -> Words:
    """The name every screen gives the rule set a table plays (``key``: the table's, as it kept it at seating, or a
    rule set's id): its names, "as seated" where the rule set of that id here is no longer what the table kept (its
    file edited since, deleted, or damaged), for the two then score alike-named hands otherwise (a review: "Scored
    with: Friday house" both for the table's 5 tai and for the edited file's 3). Its id where it is not known here
    (a kept key's digest left out: "home8#0f3a…" is no name a player knows)."""
    try:
        kept = load_profile(key or None)
    except ProfileError:
        return Words(profile_id(key), profile_id(key))
    names = Words(kept.name_zh, kept.name_en)
    if not rules_as_seated(key, kept):
        return names
    return ui("rules_as_seated", name=names.zh, name_en=names.en)


def rules_as_seated(key: str, kept: Profile | None = None) -> bool:
    """Whether the rule set a table kept at seating (``key``, as :func:`rules_named` takes it) is no longer what the
    set of its id here says (its file edited since, deleted or damaged): its hands are scored with the values kept,
    said "as seated". False for a rule set's own id, and for one not known here. ``kept``: that rule set, where the
    caller loaded it already."""
    if profile_id(key) == key:  # a rule set's own id: what its file says now
        return False
    try:
        return not as_its_file(kept or load_profile(key))
    except ProfileError:
        return False


@dataclass(frozen=True, slots=True)
class TableTerms:
    """What a seated table plays by now: its rule set with its house rules in (the scorer reads some of them),
    its stakes, both in words, and the rule set's name (:func:`rules_named`)."""

    profile: Profile
    stakes: Stakes
    words: Words  # "底 50／台 20，規則 中華競技麻將 2009；各家規矩：……"
    name: Words


def table_terms(state: TableState) -> TableTerms | None:
    """The terms of the table at ``state``; None before anyone is seated, or when its rule set is not known here
    (a table file of another install)."""
    if not state.players:
        return None
    try:
        rules = load_profile(state.profile or None)
    except ProfileError:
        return None
    name = rules_named(state.profile)
    words = ui("ledger_stakes", base=state.base, per_tai=state.per_tai, profile=name.zh, profile_en=name.en)
    played = played_rules(state.profile, state.switches)
    if played is not None:
        words += ui("ledger_house", rules=played.zh, rules_en=played.en)
    return TableTerms(table_profile(rules, state.switches), Stakes(state.base, state.per_tai), words, name)
