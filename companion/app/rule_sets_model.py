"""Rule sets (規則) as a host keeps them: the built-in ones and the house ones saved in the data folder, offered by
the rule dropdowns (the Live tab's seating, the Score view's form). Plain Python (no flet).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.app.words import Words, ui
from companion.rules.profiles import BUILTIN, ProfileError, check_caps, load_profile
from companion.rules.profiles._store import list_profiles

__all__ = ["RuleSet", "rule_sets", "rule_set_options"]

# --- the rule sets offered ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RuleSet:
    id: str
    name: Words  # the profile's own names (its id for a file that cannot be read)
    builtin: bool
    problem: Words | None = None  # why a house file cannot be played (damaged): it is listed, never offered


def rule_sets() -> tuple[RuleSet, ...]:
    """The built-in rule sets, then the house ones saved in the data folder (as ``companion tai
    --list-profiles`` lists them)."""
    out: list[RuleSet] = []
    for pid in list_profiles():
        try:
            p = load_profile(pid)
            check_caps(p)
        except ProfileError as bad:
            out.append(RuleSet(pid, Words(pid, pid), False, Words(bad.zh, str(bad))))
            continue
        out.append(RuleSet(pid, Words(p.name_zh, p.name_en), pid in BUILTIN))
    return tuple(out)


def rule_set_options(current: str | None = None) -> tuple[tuple[str, Words], ...]:
    """A rule dropdown's options (id, name): every rule set a table can play, built-in first. ``current`` (a rule set
    picked before) is said to be gone where it is no longer here, so the dropdown still shows what it holds."""
    out = [(r.id, r.name) for r in rule_sets() if r.problem is None]
    if current is not None and current not in (pid for pid, _ in out):
        out.append((current, ui("rs_gone", id=current)))
    return tuple(out)
