"""House profiles in the user's data folder: where they live, saving, exporting as TOML.

The data folder is ``$COMPANION_DATA_DIR`` if set, otherwise ``%APPDATA%\\companion`` on Windows and
``$XDG_DATA_HOME/companion`` (default ``~/.local/share/companion``) elsewhere; profiles go in its
``profiles/`` sub-folder as ``<id>.toml``.
"""

from __future__ import annotations

import json
import os
import sys
import tomllib
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.files import make_folder, read_plain_text, write_whole
from companion.names import name_key
from companion.rules.profiles import (
    BUILTIN,
    DEFAULT_PROFILE,
    Profile,
    ProfileError,
    check_caps,
    load_profile,
    named_now,
    parse_profile,
)
from companion.rules.profiles._schema import as_written, got_said

__all__ = ["data_dir", "export_profile", "list_profiles", "odd_character", "record_rules",
           "rules_of_record", "save_profile", "user_profile_path", "valid_id"]


def data_dir() -> Path:
    env = os.environ.get("COMPANION_DATA_DIR")
    if env:
        return Path(env)
    if sys.platform == "win32" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "companion"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "companion"


def valid_id(pid: str) -> bool:
    """A house profile's id names its file: letters, digits, ``_`` and ``-`` only, not first a ``-`` (``--profile
    -h`` printed the help: a review)."""
    return bool(pid) and not pid.startswith("-") and all(c.isalnum() or c in "_-" for c in pid)


def odd_character(text: str) -> str | None:
    """The first control or format character in ``text`` (a tab, a newline, DEL, a right-to-left override, a
    zero-width space), or None: a name holding one broke ``--list-profiles``' columns, and a DEL made the saved file
    unreadable at once (TOML takes none: a review)."""
    return next((c for c in text if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")), None)


def user_profile_path(pid: str) -> Path:
    if not valid_id(pid):
        raise ProfileError(f"profile id “{pid}”: use letters, digits, '_' or '-' (not first)",
                           f"規則 id「{pid}」：只能用字母、數字、_ 或 -（- 不能在最前面）")
    return data_dir() / "profiles" / f"{pid}.toml"


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return json.dumps(str(v), ensure_ascii=False)


def export_profile(profile: Profile, *, resolved: bool = False) -> str:
    """TOML text that :func:`load_profile` reads back to the same values.

    By default only the profile's own overrides are written (with ``inherits``); ``resolved=True`` writes
    every item and switch, a stand-alone copy.
    """
    lines = [f"id = {_value(profile.id)}"]
    if profile.inherits and not resolved:
        lines.append(f"inherits = {_value(profile.inherits)}")
    lines += [f"name_zh = {_value(profile.name_zh)}", f"name_en = {_value(profile.name_en)}"]
    if profile.source:
        lines.append(f"source = {_value(profile.source)}")
    house = profile.house_rules if resolved or not profile.inherits else profile.own_house_rules
    if house:
        lines.append(f"house_rules = {_value(list(house))}")
    tai = profile.tai if resolved or not profile.inherits else profile.own_tai
    switches = profile.switches if resolved or not profile.inherits else profile.own_switches
    lines += ["", "[tai]"] + [f"{k} = {_value(v)}" for k, v in tai.items()]
    lines += ["", "[switches]"] + [f"{k} = {_value(v)}" for k, v in switches.items()]
    return "\n".join(lines) + "\n"


def rules_text(profile: Profile) -> str:
    """What a table keeps of the rule set its players sat down under (:func:`companion.rules.profiles.keep_rules`):
    every item and switch, stand-alone."""
    return export_profile(profile, resolved=True)


_RECORD_KEYS = ("name_zh", "name_en", "source", "house_rules", "tai", "switches")


def record_rules(profile: Profile) -> dict[str, Any]:
    """Every value of ``profile`` (a rule set as a table played it) as a scoring record carries it (``companion
    tai``'s ``rules``): the record then scores as played wherever it is read, its house file edited, deleted or
    never there (a review: an exported record re-scored with the file's values as edited, and elsewhere not at
    all). :func:`rules_of_record` reads it back."""
    return {"name_zh": profile.name_zh, "name_en": profile.name_en,
            **({"house_rules": list(profile.house_rules)} if profile.house_rules else {}),
            "tai": dict(profile.tai), "switches": dict(profile.switches)}


def rules_of_record(pid: str, rules: Any) -> Profile:
    """The rule set ``pid`` from a record's ``rules`` (:func:`record_rules`), read as a profile file is (a value of
    the wrong kind, an unknown item or switch: a :class:`ProfileError` naming ``rules`` and the key); an item or a
    switch it lacks (a record of a version that had none) has the default rule set's value, as a table's kept rules
    do (:func:`companion.rules.profiles.keep_rules`)."""
    if not isinstance(rules, Mapping):  # (the value as the record wrote it, not as Python does: a review)
        got, got_zh = got_said(as_written(rules, toml=True))
        raise ProfileError(f"rules: expected an object of the rule set's values ({{\"tai\": {{…}}, \"switches\": "
                           f"{{…}}}}), got {got}", f"rules：要是規則各項數值的物件（{{\"tai\": {{…}}, \"switches\": "
                           f"{{…}}}}），收到{got_zh}")
    unknown = sorted(k for k in rules if k not in _RECORD_KEYS)
    if unknown:
        raise ProfileError(f"rules: unknown key “{unknown[0]}” ({', '.join(_RECORD_KEYS)})",
                           f"rules：不認得的鍵「{unknown[0]}」（只有 {'、'.join(_RECORD_KEYS)}）")
    default = load_profile(DEFAULT_PROFILE)
    data: dict[str, Any] = {"id": pid, **rules}
    for key, values in (("tai", default.own_tai), ("switches", default.own_switches)):
        given = rules.get(key, {})
        if isinstance(given, Mapping):  # (else refused by parse_profile, naming it)
            data[key] = {**values, **given}
    return parse_profile(named_now(pid, data), "rules", where_zh="rules", stored=True)  # (as the table played: a streak_cap over
    # today's bound, which an earlier version took, scores as it did)


def save_profile(profile: Profile | str | Path, keep_path_parent: bool = False) -> Path:
    """Validate a house profile (or a TOML file) and save it as ``<data>/profiles/<id>.toml``. One that inherits a
    file is saved whole, every item and switch written out: the copy in the data folder cannot reach a file named
    from where the original lay (a review's saved profile could not be read). ``keep_path_parent``: the profile is
    one of the house folder's own, whose path to its parent reads from there as before (the rule-set editor's
    edit), so its ``inherits`` is kept and its parent's later changes still reach it."""
    from companion.rules.profiles import _is_path

    p = load_profile(profile)
    check_caps(p)
    if p.id.lower() in {b.lower() for b in BUILTIN}:  # (ATAWMJ_2009 beside atawmj_2009: one file on some disks)
        raise ProfileError(f"profile “{p.id}” is built in; give the house profile its own id",
                           f"規則「{p.id}」是內建規則的名稱，請給自訂規則取別的 id")
    for key in ("name_zh", "name_en"):
        odd = odd_character(getattr(p, key))
        if odd is not None:
            raise ProfileError(f"profile “{p.id}”: {key} holds the control character U+{ord(odd):04X}; write it "
                               "on one line, of visible characters",
                               f"規則「{p.id}」：{key} 含有控制字元 U+{ord(odd):04X}；請寫成一行看得見的字")
    for key in ("name_zh", "name_en"):  # a copy of a built-in's `--show-profile` with its id changed: every score
        # under the house rules was labelled as the built-in (a newcomer review). Asked of a profile saved, not of one
        # loaded: a file saved so before still opens, and the tables seated under it
        named = getattr(p, key).strip()
        owner = next((b for b in BUILTIN if name_key(named) == name_key(getattr(load_profile(b), key))), None)
        if owner is not None:
            raise ProfileError(f"profile “{p.id}”: {key} “{named}” is the built-in {owner}'s name; give the house "
                               "profile a name of its own (or leave the line out: it is then named by its id)",
                               f"規則「{p.id}」：{key}「{named}」是內建規則 {owner} 的名稱，請給自訂規則取自己的名稱"
                               "（或刪掉這一行，就用 id 當名稱）")
    _check_house_clash(p)
    path = user_profile_path(p.id)
    make_folder(path.parent)  # (a file in the way is named: a review read "File exists")
    whole = p.inherits is not None and _is_path(p.inherits) and not keep_path_parent
    write_whole(path, export_profile(p, resolved=whole).encode("utf-8"))  # (a crash midway had left a profile cut short)
    return path


def _saved_names(pid: str) -> tuple[str, str]:
    """The names the house file ``pid`` gives itself (its id where it gives none, or where it cannot be read: the
    Settings list names it so)."""
    try:
        raw = tomllib.loads(read_plain_text(user_profile_path(pid)).removeprefix("\ufeff"))
    except (OSError, UnicodeDecodeError, ValueError):
        return pid, pid
    zh, en = raw.get("name_zh"), raw.get("name_en")
    return (zh.strip() if isinstance(zh, str) and zh.strip() else pid,
            en.strip() if isinstance(en, str) and en.strip() else pid)


def _check_house_clash(p: Profile) -> None:
    """Refuse a house profile whose id differs only in case from a saved one's (``HOME8`` beside ``home8``: one file
    on a disk that ignores case, Windows' and macOS', so the second save wrote over the first), or one named as
    another saved one is in either language (:func:`name_key`: two sets no rule dropdown could tell apart), as the
    Settings editor refuses both (a review saved both with ``--save-profile``). A name the profile's own saved file
    has already passes: a set saved so before still saves."""
    others = [pid for pid in list_profiles() if pid not in BUILTIN and pid != p.id]
    twin = next((pid for pid in others if pid.lower() == p.id.lower()), None)
    if twin is not None:
        raise ProfileError(f"profile “{p.id}”: the house profile “{twin}” is saved already, and ids that differ only "
                           "in case are one file on some disks (Windows, macOS); give it another id, or save it as "
                           f"“{twin}” to replace that one",
                           f"規則「{p.id}」：已經存了自訂規則「{twin}」，只差大小寫的 id 在有些磁碟（Windows、macOS）上是同一個"
                           f"檔案；請換一個 id，或用「{twin}」存來取代它")
    own = {name_key(n) for n in _saved_names(p.id)} if user_profile_path(p.id).is_file() else set()
    for key in ("name_zh", "name_en"):
        named = getattr(p, key).strip()
        if name_key(named) in own:
            continue
        for other in others:
            zh, en = _saved_names(other)
            if name_key(named) in (name_key(zh), name_key(en)):
                raise ProfileError(f"profile “{p.id}”: the name “{named}” is taken by the saved house profile "
                                   f"“{other}” ({en}); give it a name of its own, or save it as “{other}” to replace "
                                   "that one",
                                   f"規則「{p.id}」：名稱「{named}」是已儲存的自訂規則「{other}」（{zh}）的名稱；請取別的名稱，"
                                   f"或用「{other}」存來取代它")


def list_profiles() -> tuple[str, ...]:
    """Built-in ids, then the house profiles saved in the data folder."""
    folder = data_dir() / "profiles"
    saved = sorted(p.stem for p in folder.glob("*.toml") if valid_id(p.stem)) if folder.is_dir() else []
    return BUILTIN + tuple(s for s in saved if s not in BUILTIN)
