"""Rule sets (規則) as a host keeps them: the built-in ones and the house ones saved in the data folder, offered by
the rule dropdowns; and the editor of the Settings tab, which copies any of them under a new id and names, edits
its values as the profile schema (:mod:`companion.rules.profiles._schema`) and the tai catalogue give them, saves
it through the same store as ``companion tai --save-profile``, and deletes a house one. Plain Python (no flet).

A built-in rule set is never written or removed here. A table seated under a house rule set keeps every value of it
in its log (:func:`companion.rules.profiles.keep_rules`), so editing or deleting the file re-prices no hand played.
"""

from __future__ import annotations

import errno
import json
import re
import tomllib
import unicodedata
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from companion.app.words import Words, ui
from companion.files import read_plain_bytes, read_plain_text, what_stands_at
from companion.names import name_key, shown_name
from companion.rules.profiles import (
    BUILTIN,
    DEFAULT_PROFILE,
    MinAboveCap,
    Profile,
    ProfileError,
    _is_path,
    check_caps,
    load_profile,
    os_error_zh,
    parent_ref,
    parse_profile,
)
from companion.rules.profiles._schema import SWITCHES, TAI_MOST, check_switch
from companion.rules.profiles._store import (
    data_dir,
    list_profiles,
    odd_character,
    save_profile,
    user_profile_path,
    valid_id,
)
from companion.rules.tai import ITEMS, SWITCH_VALUED

__all__ = ["RuleSet", "RuleField", "FIELDS", "GROUPS", "RuleSetDraft", "RuleSetRefused", "rule_sets",
           "rule_set_options", "listed_name", "rule_set_used", "unusable", "why_unusable", "not_there", "clone", "edit", "delete",
           "MOST", "NAME_MAX", "NAME_WIDTH"]

MOST = TAI_MOST
"""The largest number a field of the editor takes (an item's tai, the most a rule-set file takes; no item of the spec
is worth more than 40 tai, and a cap or a streak of 100 is as good as none)."""
NAME_MAX = 40  # characters of an id
NAME_WIDTH = 24
"""The widest a name may be, a Chinese character counting two: 12 of them or 24 letters show whole in the rule
dropdowns on a phone (a 40-character name was cut once chosen, and two alike could not be told apart: a review)."""
_CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")


class RuleSetRefused(ValueError):
    """What the editor would not do, and why, in both languages. ``stale``: the set was changed ("changed") or
    deleted ("gone") by another phone since the editor opened it, and the save was refused so as to lose neither."""

    def __init__(self, words: Words, stale: str = "") -> None:
        super().__init__(words.en)
        self.words = words
        self.stale = stale


def _refused(error: ProfileError) -> RuleSetRefused:
    return RuleSetRefused(Words(error.zh, str(error)))


# --- the rule sets offered ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RuleSet:
    id: str
    name: Words  # the profile's own names (for a file that cannot be read, as it was last read, else its id)
    builtin: bool
    problem: Words | None = None  # why a house file cannot be played (damaged): it is listed, never offered


def rule_sets() -> tuple[RuleSet, ...]:
    """The built-in rule sets, then the house ones saved in the data folder (as ``companion tai
    --list-profiles`` lists them)."""
    out: list[RuleSet] = []
    builtin_lower = {b.lower(): b for b in BUILTIN}
    for pid in list_profiles():
        if pid not in BUILTIN and pid.lower() in builtin_lower:  # a file placed by hand: never saved, so it is
            # listed with why, never offered or edited, and can be deleted (a review: neither could be done)
            out.append(RuleSet(pid, Words(pid, pid), False, ui("rs_case_builtin", id=pid, builtin=builtin_lower[
                pid.lower()])))
            continue
        try:
            p = load_profile(pid)
            check_caps(p)
        except ProfileError as bad:  # (named as its file names it where it still reads, or as it was last read)
            out.append(RuleSet(pid, _name_of(pid), False, _problem(pid, bad)))
            continue
        out.append(RuleSet(pid, Words(p.name_zh, p.name_en), pid in BUILTIN))
        _seen(pid, out[-1].name)
    return tuple(out)


def _raw(pid: str) -> dict[str, Any]:
    """The house file ``pid`` as TOML (empty where it cannot be read)."""
    try:
        return _raw_file(user_profile_path(pid))
    except ProfileError:
        return {}


def _raw_file(path: Path) -> dict[str, Any]:
    """The rule-set file at ``path`` as TOML (empty where it cannot be read)."""
    try:
        return tomllib.loads(read_plain_text(path).removeprefix("\ufeff"))  # (a pipe hung the list: a review)
    except (OSError, UnicodeDecodeError, ValueError):
        return {}


def _house_folder() -> Path:
    """The folder of the house sets' files (each ``<id>.toml``)."""
    return data_dir() / "profiles"


def _parent_path(parent: str) -> Path | None:
    """The file a house set (its file in :func:`_house_folder`) inherits where it names ``parent`` by its path, found
    as the store finds it (:func:`companion.rules.profiles.parent_ref`); None where it names an id."""
    if not _is_path(parent):
        return None
    path = Path(parent_ref(parent, _house_folder()))
    try:
        return path.resolve()
    except RuntimeError:  # a link that loops (Python 3.11; an OSError ELOOP after): that link, named as written
        return path.absolute()  # (it was called gone by its whole path: a change review)
    except OSError as e:
        return path.absolute() if e.errno == errno.ELOOP else None
    except ValueError:
        return None


def _load_parent(parent: str) -> Profile:
    """The set a house set inherits, by its id or by its path, as the store reads it (a change review: the editor
    read ``par.toml`` from the app's own folder, refused every save of such a set, and "Save it again" made it
    inherit the default)."""
    return load_profile(parent_ref(parent, _house_folder()))


_SEEN: dict[str, Words] = {}
"""The names each house set's file gave when it was last read here, by the file's path: a set deleted since, or
whose file no longer reads, is still named as the host saw it (a review: a parent deleted or damaged was named by
its id in the Live tab's line)."""


def _name_of(pid: str) -> Words:
    """The names of the house set ``pid`` as its file says them (its id where it says none); where its file cannot
    be read (deleted, damaged), as it said them when last read here, else its id."""
    raw = _raw(pid)
    try:
        path = str(user_profile_path(pid))
    except ProfileError:
        return Words(pid, pid)
    if not raw:
        return _SEEN.get(path, Words(pid, pid))
    zh, en = raw.get("name_zh"), raw.get("name_en")
    name = Words(zh if isinstance(zh, str) and zh else pid, en if isinstance(en, str) and en else pid)
    _SEEN[path] = name
    return name


def not_there(pid: str) -> Words:
    """That the house set ``pid`` is no longer here, named as the list showed it (a review: by its id)."""
    name = _name_of(pid) if valid_id(pid) else Words(pid, pid)
    return ui("rs_not_there", name=name.zh, name_en=name.en)


def _seen(pid: str, name: Words) -> None:
    """Note that the house set ``pid`` is named ``name`` (read from its file now)."""
    if pid not in BUILTIN and valid_id(pid):
        _SEEN[str(user_profile_path(pid))] = name


def _file_named(path: Path | None, written: str) -> Words:
    """The name of the set whose file is ``path`` (None: not known; ``written`` is then how it was named): a house
    set's names (:func:`_name_of`), another file's name with its ``.toml`` (no folder: the app shows none), whether
    it reads, is damaged or is gone (a change review: “secret.toml” damaged, “secret” deleted)."""
    if path is None:
        there = _parent_path(written)
        if there is None:
            return _name_of(written) if valid_id(written) else Words(written, written)
        path = there
    try:  # (its folder resolved, not the file: a link that leads nowhere is still the house set's own)
        house = path.absolute().parent.resolve() == _house_folder().resolve()
    except (OSError, RuntimeError):
        house = False
    return _name_of(path.stem) if house and valid_id(path.stem) else Words(path.name, path.name)


@dataclass(frozen=True, slots=True)
class _Walk:
    """A rule-set file and the sets it inherits, near to far, as the store finds them (by id in the house folder,
    by path from the folder of the file that names it), read until one cannot be followed. ``files``: those that
    are files, the first one's own first; ``end``: why the walk stopped: "gone" (``stop``, as ``written``, is not
    there), "not_a_file" (``stop`` is a folder, a link that leads nowhere, or one that loops), "loop" (the last file inherits
    ``files[loop]``), "bad_id" (the last file inherits ``written``, which no set can be called: empty, or a name
    with a space), or "" (a built-in set, or a file that does not read: the store's reason says it)."""

    files: tuple[Path, ...]
    end: str = ""
    stop: Path | None = None
    written: str = ""
    loop: int = 0


def _walk(start: Path) -> _Walk:
    files: list[Path] = []
    seen: list[Path] = []
    at, written = start, start.stem
    for _ in range(100):
        try:
            key = at.resolve()
        except RuntimeError:  # a link that loops (Python 3.11; an OSError ELOOP after): no file to read, as a folder
            return _Walk(tuple(files), "not_a_file", at, written)  # (the store's "unknown profile": a review)
        except OSError as e:
            return _Walk(tuple(files), "not_a_file", at, written) if e.errno == errno.ELOOP else _Walk(tuple(files))
        if key in seen:
            return _Walk(tuple(files), "loop", loop=seen.index(key))
        if not at.is_file():
            end = "not_a_file" if at.exists() or at.is_symlink() else "gone"
            return _Walk(tuple(files), end, at, written)
        files.append(at)
        seen.append(key)
        parent = _raw_file(at).get("inherits")
        if not isinstance(parent, str) or parent in BUILTIN:
            return _Walk(tuple(files))
        written = parent
        if _is_path(parent):
            at = Path(parent_ref(parent, at.parent))
        elif valid_id(parent):
            at = user_profile_path(parent)
        else:  # (no file can have that id: never here, so not said to be gone, "“” no longer here": a review)
            return _Walk(tuple(files), "bad_id", None, parent)
    return _Walk(tuple(files))


def _gone(pid: str) -> Words | None:
    """The name of the set that the house set ``pid`` inherits, near or far, which is no longer here; None where
    there is none."""
    try:
        walk = _walk(user_profile_path(pid))
    except ProfileError:
        return None
    return _file_named(walk.stop, walk.written) if walk.end == "gone" and walk.files else None


@dataclass(frozen=True, slots=True)
class _Fault:
    """Why a house set cannot be played, its parts apart for each line to say it its way: ``why``, said whole where
    ``whole`` (a set it inherits gone, a file not a file, sets that inherit each other); else the reason, with no
    path, and where a set it inherits is at fault, ``via`` (the set it inherits) and ``culprit`` (the one at fault:
    ``via``, or one that ``via`` comes from), each by its name."""

    why: Words
    whole: bool = False
    via: Words | None = None
    culprit: Words | None = None


def _reason(bad: ProfileError) -> Words:
    """What the store says is wrong, the file unnamed (:attr:`ProfileError.reason`); else its whole message. The
    data folder is taken out of either (a change review: a reason that quoted the store's refusal of a set not here
    carried the folder's whole path)."""
    folder = str(_house_folder())
    zh, en = (bad.reason[1], bad.reason[0]) if bad.reason is not None else (bad.zh, str(bad))
    return Words(zh.replace(folder, "…"), en.replace(folder, "…"))


def _fault(pid: str, bad: ProfileError) -> _Fault:
    """Why the house file ``pid`` cannot be played (``bad``: the store's refusal of it), as the host sees it: no
    folder, no command-line wording, each set by its name (a review: "profile file '…/home8.toml': not valid
    TOML", and a parent named by its id)."""
    try:
        path = user_profile_path(pid)
    except ProfileError:
        return _Fault(_reason(bad))
    return _fault_at(path, bad)


def _fault_at(path: Path, bad: ProfileError) -> _Fault:
    """Why the set of the file ``path`` (a house set's, or a file a house set inherits by its path) cannot be played,
    ``bad`` being the store's refusal of it: what cannot be followed is said in the app's words, whatever file it
    lies behind (a change review: a set gone behind a file outside the house folder was said in the store's words,
    the data folder's whole path and "or give a path to a .toml file" in them; a parent's file turned into a folder
    was called "unknown profile 'fri'"; two sets that inherit each other were each said to have a damaged file)."""
    walk = _walk(path)
    names = [_file_named(p, "") for p in walk.files]
    if walk.end in ("gone", "not_a_file"):
        stop = _file_named(walk.stop, walk.written)
        if not walk.files:  # its own file (deleted since it was listed, or no longer a file)
            return _Fault(ui("rs_not_there" if walk.end == "gone" else "rs_not_a_file", name=stop.zh,
                             name_en=stop.en, file=path.name, **_what(walk.stop)), whole=True)
        if walk.end == "gone" and len(walk.files) == 1:
            return _Fault(_own_inherits(walk), whole=True)
        if walk.end == "gone":
            key, via = "rs_ancestor_gone", names[1]
        else:
            key, via = ("rs_parent_not_a_file", stop) if len(walk.files) == 1 else ("rs_ancestor_not_a_file",
                                                                                   names[1])
        return _Fault(ui(key, via=via.zh, via_en=via.en, parent=stop.zh, parent_en=stop.en, **_what(walk.stop)),
                      whole=True)
    if walk.end == "bad_id":
        if len(walk.files) > 1:
            written = json.dumps(walk.written, ensure_ascii=False)
            return _Fault(ui("rs_ancestor_inherits_bad", via=names[1].zh, via_en=names[1].en, parent=written,
                             parent_en=written), whole=True)
        return _Fault(_own_inherits(walk), whole=True)
    if walk.end == "loop":
        chain = [*names, names[walk.loop]]
        return _Fault(ui("rs_loop", chain="→".join(f"「{n.zh}」" for n in chain),
                         chain_en=" → ".join(f"“{n.en}”" for n in chain)), whole=True)
    raw = _raw_file(path).get("inherits")
    written = raw if isinstance(raw, str) else ""
    if bad.inherited is not None:  # its own file reads; a set it inherits, near or far, does not
        inner = bad.inherited
        while inner.inherited is not None and inner.inherited.file is not None:
            inner = inner.inherited
        parent = names[1] if len(names) > 1 else _file_named(bad.inherited.file, written)
        culprit = parent if inner is bad.inherited else _file_named(inner.file, "")
        return _Fault(_reason(inner), via=parent, culprit=culprit)
    if bad.file is None and written and written not in BUILTIN:  # a value it inherits refused (a cap)
        try:
            check_caps(load_profile(parent_ref(written, path.parent)))
        except ProfileError:
            parent = names[1] if len(names) > 1 else _file_named(None, written)
            return _Fault(_reason(bad), via=parent, culprit=parent)
    return _Fault(_reason(bad))


def _own_inherits(walk: _Walk, name: Words | None = None) -> Words:
    """Why a set whose file is here cannot be played where what its own file inherits cannot be followed (``walk``
    stopped after its own file: "gone", "bad_id"): a set not here, an inherits empty, blank (only spaces or tabs:
    a review read "is empty" for ``inherits = "   "``), or an id no set can have. Said of "it", for a line that
    names the set already; by its ``name`` where given, for a refusal that names another set first (a review read
    "This was not saved: it inherits “secret.toml”, which cannot be used now. It inherits “gone_one”, which is no
    longer here", as if the parent were gone)."""
    of = {} if name is None else {"name": name.zh, "name_en": name.en}
    parent = _file_named(walk.stop, walk.written) if walk.end == "gone" else Words(walk.written, walk.written)
    if walk.end == "gone":
        key = "rs_parent_gone" if name is None else "rs_named_parent_gone"
    elif not walk.written:
        key = "rs_inherits_empty" if name is None else "rs_named_inherits_empty"
    elif not walk.written.strip():
        key = "rs_inherits_blank" if name is None else "rs_named_inherits_blank"
    else:
        key = "rs_inherits_bad_id" if name is None else "rs_named_inherits_bad_id"
    return ui(key, parent=parent.zh, parent_en=parent.en, **of)


def _problem(pid: str, bad: ProfileError) -> Words:
    """Why the house file ``pid`` cannot be played, for a line that names the set already (the Settings list, the
    Live tab's line): "Its file is damaged: not valid TOML …", "It inherits “Friday house”, which …"."""
    return _said(_fault(pid, bad))


def _said(f: _Fault) -> Words:
    """``f`` said as a sentence of its own, of a set named before it."""
    if f.whole:
        return f.why
    if f.via is None or f.culprit is None:
        return ui("rs_own_damaged", why=f.why.zh, why_en=f.why.en)
    if f.via == f.culprit:
        return ui("rs_parent_damaged", parent=f.via.zh, parent_en=f.via.en, why=f.why.zh, why_en=f.why.en)
    return ui("rs_ancestor_damaged", via=f.via.zh, via_en=f.via.en, parent=f.culprit.zh, parent_en=f.culprit.en,
              why=f.why.zh, why_en=f.why.en)


def _parent_problem(parent: str, bad: ProfileError) -> Words:
    """Why a save was refused where the set that the set saved inherits (``parent``, by its id or its path) cannot be
    read now: gone, or damaged, named as the host knows it (a file outside the house folder by its file's name, as
    the list names it), with no folder and no command-line advice (a change review: the data folder's whole path,
    the store's file keys, "or give a path to a .toml file"), and what is wrong with it as a sentence of its own (a
    review read "…, which cannot be used now: Its file is damaged: …"). Every set in that sentence is named, the
    parent's own line of sets down to the one at fault (a change review read "…, which cannot be used now. It
    inherits “Middle”, and the set “gone_one” that one comes from is no longer here", "it" read as the set saved)."""
    there = _parent_path(parent)
    if there is None:
        try:
            there = user_profile_path(parent)
        except ProfileError:  # (no house set can have that id)
            return ui("rs_save_parent_gone", parent=parent, parent_en=parent)
    name = _file_named(there, parent)
    walk = _walk(there)
    if not walk.files and walk.end in ("gone", "not_a_file"):
        key = "rs_save_parent_gone" if walk.end == "gone" else "rs_save_parent_not_a_file"
        return ui(key, parent=name.zh, parent_en=name.en, **_what(walk.stop))
    at, why = _at_fault(there, walk, bad)
    if at:  # the parent's line of sets, down to the one at fault
        names = [_file_named(p, "") for p in walk.files[:at + 1]]
        line = [ui("rs_inherits_link", name=a.zh, name_en=a.en, parent=b.zh, parent_en=b.en)
                for a, b in pairwise(names)]
        why = ui("rs_line_then", line="，".join(w.zh for w in line), line_en=", ".join(w.en for w in line),
                 why=why.zh, why_en=why.en)
    key = "rs_save_parent_broken" if at or walk.end in ("gone", "bad_id") else "rs_save_parent_damaged"
    return ui(key, parent=name.zh, parent_en=name.en, why=why.zh, why_en=why.en)


def _what(stop: Path | None) -> dict[str, str]:
    """What stands at ``stop`` where a set's file must be read (:func:`companion.files.what_stands_at`), as the
    words' ``what`` (a change review: the three it might be were listed, where the app could say which)."""
    kind = what_stands_at(stop) if stop is not None else "other"  # (a file gone, or one again, since the walk: said
    said = ui(f"rs_what_{kind}")  # so, where both were called "no plain file": a review)
    return {"what": said.zh, "what_en": said.en}


def _at_fault(path: Path, walk: _Walk, bad: ProfileError) -> tuple[int, Words]:
    """Which set of ``walk`` (the walk from the file ``path``, whose set the store refused as ``bad``) is at fault, by
    its place in ``walk.files`` (0: the set of ``path`` itself), and what is wrong with it, said of it by its name."""
    names = [_file_named(p, "") for p in walk.files]
    last = len(names) - 1
    if walk.end in ("gone", "bad_id"):  # what the last file inherits cannot be followed
        return last, _own_inherits(walk, names[last])
    if walk.end == "not_a_file":
        stop = _file_named(walk.stop, walk.written)
        return last, ui("rs_named_parent_not_a_file", name=names[last].zh, name_en=names[last].en, parent=stop.zh,
                        parent_en=stop.en, **_what(walk.stop))
    if walk.end == "loop":  # (said of the sets in the circle, the first of them at fault: the line down to it
        # is said before it; the circle was said as the inheritance of the first set, in it or not: a change review)
        ring = names[walk.loop:]
        if len(ring) == 1:
            return walk.loop, ui("rs_named_loop_self", name=ring[0].zh, name_en=ring[0].en)
        if len(ring) == 2:
            return walk.loop, ui("rs_named_loop_pair", name=ring[0].zh, name_en=ring[0].en, other=ring[1].zh,
                                 other_en=ring[1].en)
        chain = [*ring, ring[0]]
        return walk.loop, ui("rs_named_loop", chain="→".join(f"「{n.zh}」" for n in chain),
                             chain_en=" → ".join(f"“{n.en}”" for n in chain))
    f = _fault_at(path, bad)
    if f.whole:  # (the walk's ends are said above: not reached)
        return 0, f.why
    culprit = names[0] if f.culprit is None else f.culprit
    at = names.index(culprit) if culprit in names else None
    if at is None:  # (a set at fault not on the walk: said as the list says it, by the parent's name)
        return 0, ui("rs_parent_damaged_set" if f.via == f.culprit else "rs_ancestor_damaged_set",
                     name=names[0].zh, name_en=names[0].en, via=(f.via or culprit).zh, via_en=(f.via or culprit).en,
                     parent=culprit.zh, parent_en=culprit.en, why=f.why.zh, why_en=f.why.en)
    return at, ui("rs_damaged_set", name=culprit.zh, name_en=culprit.en, why=f.why.zh, why_en=f.why.en)


def rule_set_options(current: str | None = None) -> tuple[tuple[str, Words], ...]:
    """A rule dropdown's options (id, name): every rule set a table can play, built-in first. ``current`` (a rule set
    picked before) is said to be gone where it is no longer here, or unusable where its file is here but cannot be
    played (damaged: a change review saw one said to be gone), so the dropdown still shows what it holds."""
    sets = rule_sets()
    out = [(r.id, listed_name(r.id, r.name)) for r in sets if r.problem is None]
    if current is not None and current not in (pid for pid, _ in out):
        here = any(r.id == current for r in sets)
        name = _name_of(current) if valid_id(current) else Words(current, current)  # (as the host saw it: a review)
        out.append((current, ui("rs_unusable_named" if here else "rs_gone_named", name=name.zh, name_en=name.en)))
    return tuple(out)


def listed_name(pid: str, name: Words) -> Words:
    """The rule set ``pid``'s ``name`` where the rule sets are listed (the dropdowns, Settings' list): the default
    one marked 預設 / default, in both languages (its English name said it, and a header's brackets nested it)."""
    return ui("rs_default_named", name=name.zh, name_en=name.en) if pid == DEFAULT_PROFILE else name


def why_unusable(pid: str) -> Words | None:
    """Why the house rule set ``pid``, whose file is here, cannot be played, for a line that names it already (as
    the Settings list says it); None where it can be played or is not here at all (deleted)."""
    return next((r.problem for r in rule_sets() if r.id == pid), None)


def unusable(pid: str) -> Words | None:
    """Why the house rule set ``pid``, whose file is here, cannot be played (its file damaged, a value refused, a
    set it inherits gone or damaged), in both languages and naming it and the set at fault by their names; None
    where it can be played or is not here at all (deleted)."""
    problem = why_unusable(pid)
    if problem is None:
        return None
    try:
        check_caps(load_profile(pid))
    except ProfileError as bad:
        f = _fault(pid, bad)
    else:  # (listed with why, yet it loads: a file named like a built-in set in another case)
        return problem
    if f.whole:  # (its own words name the set)
        return f.why
    name = _name_of(pid)
    if f.via is None or f.culprit is None:
        return ui("rs_damaged_set", name=name.zh, name_en=name.en, why=f.why.zh, why_en=f.why.en)
    if f.via == f.culprit:  # (a change review: its own file, which is fine, was said to be damaged)
        return ui("rs_parent_damaged_set", name=name.zh, name_en=name.en, parent=f.via.zh, parent_en=f.via.en,
                  why=f.why.zh, why_en=f.why.en)
    return ui("rs_ancestor_damaged_set", name=name.zh, name_en=name.en, via=f.via.zh, via_en=f.via.en,
              parent=f.culprit.zh, parent_en=f.culprit.en, why=f.why.zh, why_en=f.why.en)


def rule_set_used(pid: str) -> tuple[Profile, Words | None]:
    """The rules a form scores with when ``pid`` is picked: its own, or, where it can no longer be read (deleted or
    damaged since it was picked), the default, with words that say so (spec §5.1: a score screen names the rules
    it used; a review saw a deleted set named while the default was charged)."""
    try:
        profile = load_profile(pid)
        check_caps(profile)
    except ProfileError:
        default = load_profile(DEFAULT_PROFILE)
        parent = _gone(pid) if valid_id(pid) and pid in list_profiles() else None
        if parent is not None:  # (a review: a set whose parent was deleted was said to be deleted itself)
            name = _name_of(pid)
            return default, ui("rs_used_default_parent", name=name.zh, name_en=name.en, parent=parent.zh,
                               parent_en=parent.en, default=default.name_zh, default_en=default.name_en)
        damaged = unusable(pid) if valid_id(pid) else None
        if damaged is not None:  # (a change review: a damaged file was said to be deleted or unreadable)
            return default, ui("rs_used_damaged", why=damaged.zh, why_en=damaged.en, default=default.name_zh,
                               default_en=default.name_en)
        name = _name_of(pid) if valid_id(pid) else Words(pid, pid)  # (as the dropdown showed it: a review)
        return default, ui("rs_used_default", name=name.zh, name_en=name.en, default=default.name_zh,
                           default_en=default.name_en)
    return profile, None


# --- the fields a rule set has -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RuleField:
    key: str  # "switches.<name>" or "tai.<item>", as a profile's house_rules name them
    name: Words
    kind: str  # "bool", "choice", "int", "int_or_none" (blank: none)
    group: str
    choices: tuple[tuple[str, Words], ...] = ()  # a dropdown's (value, words), for "bool" and "choice"
    least: int = 0  # the smallest number taken, for "int" and "int_or_none"


GROUPS = ("caps", "scoring", "items", "procedure")
"""The editor's groups, in order: caps and minimum, scoring switches (spec §5.1), item tai (§4.4), and the
procedure of the table (§2.17, the rules a table may also set at seating)."""

_CAPS = ("tai_cap", "min_tai", "streak_cap", "false_win_penalty")
_SCORING = ("pinghu_concealed_allowed", "pinghu_check_honours_flowers", "small_winds_adds_winds",
            "seek_adds_single_wait", "heaven_earth_keep_zimo", "all_pungs_with_five_concealed",
            "kong_bloom_with_last_tile", "eight_flowers_compound", "any_wind_pung_tai", "declared_ready_tai")
_YES_NO = (("true", Words("是", "yes")), ("false", Words("否", "no")))


def _choices(name: str) -> tuple[tuple[str, Words], ...]:
    spec = SWITCHES[name]
    if spec.kind == "bool":
        return _YES_NO
    return tuple((c, Words(*spec.choice_name(c))) for c in spec.choices)  # (named as the schema names them)


def _switch_field(name: str, group: str) -> RuleField:
    spec = SWITCHES[name]
    return RuleField(f"switches.{name}", Words(spec.zh, spec.en), spec.kind, group,
                     _choices(name) if spec.kind in ("bool", "choice") else (), 1 if name == "tai_cap" else 0)


def _fields() -> tuple[RuleField, ...]:
    out = [_switch_field(n, "caps") for n in _CAPS]
    out += [_switch_field(n, "scoring") for n in _SCORING]
    out += [RuleField(f"tai.{i}", Words(item.zh, item.en), "int", "items") for i, item in ITEMS.items()
            if i not in SWITCH_VALUED]
    out += [_switch_field(n, "procedure") for n in SWITCHES if n not in _CAPS and n not in _SCORING]
    return tuple(out)


FIELDS: tuple[RuleField, ...] = _fields()
"""Every value of a rule set the editor sets: each switch of the schema and each item's tai, once."""
_BY_KEY = {f.key: f for f in FIELDS}


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value == "none" else str(value)


# --- a rule set being edited -------------------------------------------------------------------------


class RuleSetDraft:
    """A house rule set being made: a copy of another's values under its own id and names, edited field by field.
    A value refused leaves the draft's value as it was; the draft is not saved while one is refused."""

    def __init__(self, base: Profile, pid: str, name: Words, editing: bool, loaded: bytes | None = None) -> None:
        self.base = base  # the rule set copied (or edited)
        self.id, self.name, self.editing = pid, name, editing
        self.loaded = loaded  # the file as the editor read it (editing): a save is refused where it has changed
        self.remade = False  # an edited set deleted meanwhile, to be saved again as the editor has it
        self.was = name if editing else None  # the names its file had (one saved before the cap keeps them)
        self.values: dict[str, Any] = {f"tai.{k}": v for k, v in base.tai.items() if f"tai.{k}" in _BY_KEY}
        self.values |= {f"switches.{k}": v for k, v in base.switches.items() if f"switches.{k}" in _BY_KEY}
        # the built-in set it comes from, found while its parents are here: one made again after they were deleted
        # too keeps it as its base (a change review: it inherited the default)
        self.root = _root(base)
        self.typed: dict[str, str] = {}  # what a number field holds where it is refused
        self.bad: dict[str, Words] = {}  # why, by field

    def text(self, key: str) -> str:
        """What the field ``key`` shows: the text typed where refused, else its value ("" for none, "true"/"false")."""
        return self.typed[key] if key in self.typed else _shown(self.values[key])

    def changed(self, key: str) -> bool:
        """Whether the field differs from the rule set copied."""
        kind, _, name = key.partition(".")
        was = self.base.tai[name] if kind == "tai" else self.base.switches[name]
        return bool(self.values[key] != was)

    def set(self, key: str, text: str) -> Words | None:
        """Set the field ``key`` from what the form holds; why not (both languages), the value then kept."""
        f = _BY_KEY.get(key)
        if f is None:
            raise KeyError(key)
        value = _parse(f, text.strip())
        if isinstance(value, Words):
            self.typed[key], self.bad[key] = text, value
            return value
        self.typed.pop(key, None)
        self.bad.pop(key, None)
        self.values[key] = value
        return None

    def profile(self) -> Profile:
        """The rule set as it stands. A copy: the nearest built-in one it comes from, and what it sets otherwise. A
        set edited keeps what its file says (its own ``inherits``, its ``source``) and writes what differs from its
        own parent (a review: a file saved by the command lost its house parent and its source)."""
        base = self.base
        own_tai = {k: v for k, v in self.values.items() if k.startswith("tai.")}
        own_switches = {k: v for k, v in self.values.items() if k.startswith("switches.")}
        data: dict[str, Any] = {"id": self.id, "name_zh": self.name.zh, "name_en": self.name.en}
        if self.editing and base.inherits is None:  # a stand-alone file stays whole
            data["tai"] = {**base.own_tai, **{k.partition(".")[2]: v for k, v in own_tai.items()}}
            data["switches"] = {**base.own_switches, **{k.partition(".")[2]: v for k, v in own_switches.items()}}
            own_house = list(base.own_house_rules)
        else:
            parent_id = base.inherits if self.editing and base.inherits is not None else self.root
            try:
                parent = _load_parent(parent_id)
            except ProfileError as bad:
                raise RuleSetRefused(_parent_problem(parent_id, bad)) from None
            data["inherits"] = parent_id
            if self.editing:  # the file's own values as they were, and what this editor changed where it differs
                # from the parent as it is now: a value the editor loaded from the parent is never pinned (a review:
                # another phone's change to the parent was undone for the child by the child's save)
                data["tai"], data["switches"] = dict(base.own_tai), dict(base.own_switches)
                for key, v in self.values.items():
                    kind, _, name = key.partition(".")
                    if not self.changed(key):
                        continue
                    mine, theirs = (data["tai"], parent.tai) if kind == "tai" else (data["switches"],
                                                                                      parent.switches)
                    if theirs[name] != v:
                        mine[name] = v
                    else:
                        mine.pop(name, None)
            else:
                data["tai"] = {k.partition(".")[2]: v for k, v in own_tai.items()
                               if parent.tai[k.partition(".")[2]] != v}
                data["switches"] = {k.partition(".")[2]: v for k, v in own_switches.items()
                                    if parent.switches[k.partition(".")[2]] != v}
            # the items the rule set copied marks "house rule" (uncertain) beyond its parent's; a value this table
            # sets otherwise is agreed, and loses the mark as it does in any file that overrides its parent
            own_house = [h for h in base.house_rules if h not in parent.house_rules]
        if own_house:
            data["house_rules"] = own_house
        if (self.editing or self.remade) and base.source:
            data["source"] = base.source
        return parse_profile(data, f"rule set “{self.id}”", where_zh=f"規則「{self.id}」",
                             folder=_house_folder())

    def _check_unchanged(self) -> None:
        """Refuse to save a set edited where another phone changed or deleted its file since the editor read it."""
        try:
            now = read_plain_bytes(user_profile_path(self.id))
        except FileNotFoundError:
            raise RuleSetRefused(ui("rs_gone_meanwhile", name=self.name.zh, name_en=self.name.en), "gone") from None
        except (OSError, ProfileError) as e:  # a file this cannot read is never written over unseen (a change
            # review: the write went ahead); said as the list says it where it can (a folder in its place)
            why = why_unusable(self.id) or (Words(os_error_zh(e), e.strerror or str(e)) if isinstance(e, OSError)
                                             else _reason(e))
            raise RuleSetRefused(ui("rs_damaged_meanwhile", name=self.name.zh, name_en=self.name.en, why=why.zh,
                                    why_en=why.en)) from None
        if now != self.loaded:
            damaged = why_unusable(self.id)
            if damaged is not None:  # (a change review: said to be changed, then "no longer here")
                raise RuleSetRefused(ui("rs_damaged_meanwhile", name=self.name.zh, name_en=self.name.en,
                                        why=damaged.zh, why_en=damaged.en))
            raise RuleSetRefused(ui("rs_changed_meanwhile", name=self.name.zh, name_en=self.name.en), "changed")

    def _check_not_remade(self) -> None:
        """Refuse to make a set deleted meanwhile again where another phone has since saved one under its id or one
        of its names: it is neither written over nor doubled (a change review: a second set of the same names was
        saved, the two alike in every dropdown)."""
        for r in rule_sets():
            if r.id == self.id:  # (one in another case only: refused below as an id taken)
                if r.problem is not None:
                    _check_new_id(self.id)  # (a file here but damaged: said so, and left as it is)
                raise RuleSetRefused(ui("rs_remade_same_id", id=r.id, other=r.name.zh, other_en=r.name.en),
                                     "changed")
            theirs = {name_key(r.name.zh), name_key(r.name.en)}
            clash = [n for n in (self.name.zh, self.name.en) if name_key(n) in theirs]
            if clash:  # each language names the name that clashes, its own where both do (a change review: the
                # English named the other set's English name, though only the Chinese names clashed)
                raise RuleSetRefused(ui("rs_remade_same_name", id=r.id, other=r.name.zh, other_en=r.name.en,
                                        name=clash[0], name_en=clash[-1]))

    def as_new(self) -> None:
        """Save it again though another phone deleted it meanwhile: as a new set under its id (refused if that
        id was taken since), as the editor has it: its ``inherits`` where that set is still here, and its ``source``
        (a review: both were dropped, the old parent's values flattened in)."""
        self.loaded, self.remade = None, True
        if self.editing and self.base.inherits is not None:
            try:
                _load_parent(self.base.inherits)
            except ProfileError:  # its parent is gone too: a copy of the built-in set it came from
                self.editing = False

    def save(self) -> Words:
        """Save it as ``companion tai --save-profile`` does; what was done, or :class:`RuleSetRefused`."""
        if self.bad:
            key, why = next(iter(self.bad.items()))
            name = _BY_KEY[key].name
            raise RuleSetRefused(ui("rs_field_bad", field=name.zh, field_en=name.en, why=why.zh, why_en=why.en))
        if self.editing and not self.remade:  # (another phone may have changed or deleted it since it was read)
            self._check_unchanged()
        else:  # (another phone may have saved one under this id since the copy was made)
            if self.remade:  # (or remade it, under its id or its names, since it was deleted)
                self._check_not_remade()
            _check_new_id(self.id)
        # (another phone may have taken a name since: a review); a set made again has both names checked: its old
        # file no longer holds them
        _check_names(self.name, self.id, self.was)
        try:
            profile = self.profile()
            # (the store writes a set that inherits a file whole: a copy saved elsewhere could not reach it; this
            # file is written where it lay, so its path still reaches its parent, and the parent's later changes
            # still reach it as they do a set that names its parent by id: a change review, an edit cut it off)
            save_profile(profile, keep_path_parent=True)
        except MinAboveCap as bad:  # (the store's rule, said as the editor names its fields, not its file's keys)
            least, cap = _BY_KEY["switches.min_tai"].name, _BY_KEY["switches.tai_cap"].name
            raise RuleSetRefused(ui("rs_min_above_cap", least=bad.least, cap=bad.cap, min_name=least.zh,
                                    min_name_en=least.en, cap_name=cap.zh, cap_name_en=cap.en)) from None
        except ProfileError as bad:
            raise _refused(bad) from None
        except OSError as e:
            raise RuleSetRefused(ui("rs_write_failed", why=os_error_zh(e), why_en=e.strerror or str(e))) from None
        self.loaded, self.remade = _read(self.id), False
        if self.editing:
            self.was = self.name
        return ui("rs_saved", name=self.name.zh, name_en=self.name.en, id=self.id)


def _parse(f: RuleField, text: str) -> Any:
    """The value ``text`` gives the field ``f``, or why not."""
    if f.kind in ("bool", "choice"):
        if text not in (v for v, _ in f.choices):
            return ui("rs_not_a_choice", got=text)
        return text == "true" if f.kind == "bool" else text
    if f.kind == "int_or_none" and text == "":
        return "none"
    if not re.fullmatch(r"[0-9]+", text) or len(text) > 3:
        return ui("rs_not_a_number_or_none" if f.kind == "int_or_none" else "rs_not_a_number", got=text,
                  least=f.least, most=MOST)
    value = int(text)
    if not f.least <= value <= MOST:
        return ui("rs_out_of_range", got=value, least=f.least, most=MOST)
    if f.key.startswith("switches."):
        check_switch(f.key.partition(".")[2], value, "editor")  # (the schema's own check: never refused here)
    return value


def _root(p: Profile) -> str:
    """The built-in rule set ``p`` (a house set, or a built-in one) comes from (itself where built in; the default
    where none is found), each parent read as the store reads it: a path from the folder of the file that names it
    (a review: a set below the house sets' folder was read from that folder, and its copy inherited the default)."""
    folder = _house_folder()
    for _ in range(20):
        if p.id in BUILTIN:
            return p.id
        if not p.inherits:
            break
        ref = parent_ref(p.inherits, folder)
        try:
            p = load_profile(ref)
        except ProfileError:
            break
        folder = Path(ref).parent if _is_path(ref) else _house_folder()
    return DEFAULT_PROFILE


def _read(pid: str) -> bytes | None:
    try:
        return read_plain_bytes(user_profile_path(pid))
    except (OSError, ProfileError):
        return None


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _lower_ids() -> dict[str, str]:
    return {pid.lower(): pid for pid in list_profiles()}


def _check_new_id(pid: str, saving: bool = True) -> None:
    """Refuse an id a new set cannot have; ``saving``: asked at a save (else at the copy, where nothing is saved
    yet, and the refusal says nothing of a save: a change review)."""
    if not pid:
        raise RuleSetRefused(ui("rs_id_missing"))
    if len(pid) > NAME_MAX or not valid_id(pid):
        raise RuleSetRefused(ui("rs_id_bad", id=pid, most=NAME_MAX))
    taken = _lower_ids().get(pid.lower())  # (home8 beside HOME8: one file on some disks)
    if taken in BUILTIN:
        raise RuleSetRefused(ui("rs_id_builtin", id=pid))
    damaged = unusable(taken) if taken is not None else None
    if damaged is not None:  # (its Edit is not offered: said so, and the file is left as it is)
        raise RuleSetRefused(ui("rs_id_damaged" if saving else "rs_id_damaged_copy", why=damaged.zh,
                                why_en=damaged.en))
    if taken is not None:
        raise RuleSetRefused(ui("rs_id_taken", id=taken))


def _check_names(name: Words, pid: str, was: Words | None = None) -> None:
    """Refuse names that are missing, too wide, odd or another set's; ``was``: the names the set's file had (each
    kept name passes unchecked; a set made again has both checked against the others' by ``_check_not_remade``)."""
    if not shown_name(name.zh) or not shown_name(name.en):  # (a Hangul filler or a braille blank shows nothing)
        raise RuleSetRefused(ui("rs_name_missing"))
    before_zh, before_en = (was.zh, was.en) if was is not None else (None, None)
    for text, before in ((name.zh, before_zh), (name.en, before_en)):  # (one saved before the cap keeps
        # it, though the other name is changed: a review)
        if text != before and _width(text) > NAME_WIDTH:
            raise RuleSetRefused(ui("rs_name_long", zh=NAME_WIDTH // 2, most=NAME_WIDTH))
    for text, key in ((name.zh, "rs_name_zh"), (name.en, "rs_name_en")):
        odd = odd_character(text)
        if odd is not None:  # (as the store refuses it, naming the name as the editor does: a review saw name_zh)
            field = ui(key)
            raise RuleSetRefused(ui("rs_name_odd", code=f"U+{ord(odd):04X}", field=field.zh, field_en=field.en))
    wide = _CJK.search(name.en) if name.en != before_en else None
    if wide is not None:  # (a full-width comma a Chinese keyboard typed was refused as "not Latin letters", the
        # letters being Latin: a change review); that one is named, with the form to type instead
        narrow = unicodedata.normalize("NFKC", wide[0])
        if narrow != wide[0] and not _CJK.search(narrow):
            raise RuleSetRefused(ui("rs_name_en_wide", char=wide[0], narrow=narrow))
        raise RuleSetRefused(ui("rs_name_en_cjk"))
    new = [n for n, before in ((name.zh, before_zh), (name.en, before_en)) if n != before]
    for r in rule_sets():
        if r.id == pid:
            continue
        taken = [n for n in new if n in (r.name.zh, r.name.en)]
        if taken:  # (each language names the clash in its own name where both clash); the other set by its id,
            # as the list shows it under its name ("“Friday house” is the name of “Friday house” already", a review)
            raise RuleSetRefused(ui("rs_name_taken", name=taken[0], name_en=taken[-1], id=r.id))
        # one that differs only in case, width, spaces or what shows nothing, as tile-set and player names are
        # compared (code reviews: "Home" and "home", then "Home  rules" and "Home\ufe0f", were saved beside their twins)
        alike = [(n, theirs) for n in new for theirs in (r.name.zh, r.name.en) if name_key(n) == name_key(theirs)]
        if alike:
            (mine, theirs), (mine_en, theirs_en) = alike[0], alike[-1]
            raise RuleSetRefused(ui("rs_name_alike", name=mine, theirs=theirs, name_en=mine_en, theirs_en=theirs_en))


def clone(source: str, pid: str, name_zh: str, name_en: str) -> RuleSetDraft:
    """A copy of the rule set ``source`` as a new house rule set ``pid`` named ``name_zh`` / ``name_en`` (not saved
    yet); :class:`RuleSetRefused` where the id or a name cannot be had."""
    pid, name = pid.strip(), Words(name_zh.strip(), name_en.strip())
    _check_new_id(pid, saving=False)
    _check_names(name, pid)
    if source not in list_profiles():  # (deleted by another phone while the form had it picked: a review was told
        # "unknown profile …, or give a path to a .toml file")
        raise RuleSetRefused(not_there(source))
    try:
        base = load_profile(source)
    except ProfileError as bad:  # (as the Settings list says it: no folder, no file keys)
        raise RuleSetRefused(_problem(source, bad)) from None
    return RuleSetDraft(base, pid, name, editing=False)


def edit(pid: str) -> RuleSetDraft:
    """The house rule set ``pid`` to edit (its id and names kept); a built-in one is refused."""
    if pid in BUILTIN:
        raise RuleSetRefused(ui("rs_builtin_kept", id=pid))
    problem = next((r.problem for r in rule_sets() if r.id == pid), None)
    if problem is not None:
        raise RuleSetRefused(problem)
    loaded = _read(pid)
    if loaded is None or pid not in list_profiles():  # deleted by another phone meanwhile
        raise RuleSetRefused(not_there(pid))
    try:
        base = load_profile(pid)
    except ProfileError as bad:
        raise RuleSetRefused(_problem(pid, bad)) from None
    if _read(pid) != loaded:  # changed while it was read: read as it is now
        return edit(pid)
    return RuleSetDraft(base, pid, Words(base.name_zh, base.name_en), editing=True, loaded=loaded)


def rename(draft: RuleSetDraft, name_zh: str, name_en: str) -> None:
    """Give ``draft`` other names; :class:`RuleSetRefused` (the names kept) where they cannot be had."""
    name = Words(name_zh.strip(), name_en.strip())
    _check_names(name, draft.id, was=draft.name)
    draft.name = name


def delete(pid: str) -> Words:
    """Remove the house rule set ``pid``; what was done, or :class:`RuleSetRefused` (a built-in one, one not there).
    Tables seated under it keep its values and are not changed."""
    if pid in BUILTIN:  # (a house file named like one in another case is the host's to delete)
        raise RuleSetRefused(ui("rs_builtin_kept", id=pid))
    try:
        path = user_profile_path(pid)
    except ProfileError:
        raise RuleSetRefused(not_there(pid)) from None
    # only a set that can be played now is kept from losing its parent: one damaged already (two that inherit each
    # other, a bad value) cannot be used either way, and it would block the delete it is listed to be mended by
    # (a change review: two sets in a loop could never be deleted in the app)
    heirs = [r.id for r in rule_sets() if r.problem is None and not r.builtin and r.id != pid and _inherits(r.id, pid)]
    name = _name_of(pid)
    if heirs:  # each would be left unreadable (a review: they vanished from every dropdown)
        names = [_name_of(h) for h in heirs]
        raise RuleSetRefused(ui("rs_delete_inherited" if len(names) > 1 else "rs_delete_inherited_one",
                                name=name.zh, name_en=name.en, names="、".join(f"「{n.zh}」" for n in names),
                                names_en=", ".join(f"“{n.en}”" for n in names)))
    try:
        if path.is_dir() and not path.is_symlink():  # (a folder in place of its file: the Settings list and the
            # refusals say to delete it here, and "Is a directory" refused it: a change review). An empty one is
            # removed; one holding files is left, with why
            if any(path.iterdir()):
                raise RuleSetRefused(ui("rs_delete_folder", id=pid))
            path.rmdir()
        else:
            path.unlink()
    except FileNotFoundError:
        raise RuleSetRefused(not_there(pid)) from None
    except OSError as e:
        raise RuleSetRefused(ui("rs_delete_failed", why=os_error_zh(e), why_en=e.strerror or str(e))) from None
    return ui("rs_deleted", name=name.zh, name_en=name.en)


def _inherits(other: str, pid: str) -> bool:
    """Whether the house file ``other`` inherits ``pid``, near or far: by its id or by its file's path, and through
    files in other folders, each path read from the folder of the file that names it, as the store reads it (a
    review: a set that named its parent's file, then one that reached it through a file in a sub-folder, was left
    unreadable by the parent's delete)."""
    try:
        target, at = user_profile_path(pid).resolve(), user_profile_path(other).resolve()
    except (OSError, RuntimeError, ProfileError):
        return False
    seen: set[Path] = set()
    while at not in seen:
        seen.add(at)
        parent = _raw_file(at).get("inherits")
        if not isinstance(parent, str) or parent in BUILTIN:
            return False
        try:
            ref = parent_ref(parent, at.parent)
            at = (Path(ref) if _is_path(ref) else user_profile_path(parent)).resolve()
        except (OSError, RuntimeError, ProfileError):
            return False
        if at == target:
            return True
    return False
