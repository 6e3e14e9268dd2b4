"""Profiles as data (spec §5): loading, inheritance, validation with clear errors, export and saving."""

from __future__ import annotations

import dataclasses
import errno
import io
import re
from pathlib import Path

import pytest

from companion.rules.profiles import BUILTIN, ProfileError, load_profile, parent_ref, parse_profile
from companion.rules.profiles._schema import SWITCHES
from companion.rules.profiles._store import export_profile, list_profiles, save_profile
from companion.rules.tai import ITEMS, ORDER, REGISTRY, REPLACES, SWITCH_REPLACES, SWITCH_VALUED

SPEC_TABLE = {  # spec §4.2: id -> (Chinese as the table writes it, tai)
    "dealer": ("莊家", 1), "streak": ("連莊", 1), "streak_pull": ("拉莊", 1), "menqing": ("門清", 1),
    "buqiu": ("不求 (門清自摸)", 1), "zimo": ("自摸", 1), "seat_wind": ("門風 (正風)", 1),
    "round_wind": ("圈風 (風圈)", 1), "seat_flower": ("正花", 1), "dragon_pung": ("三元牌", 1),
    "single_wait": ("獨聽 (邊張 / 中洞 / 單吊)", 1), "half_seek": ("半求", 1), "rob_kong": ("搶槓", 1),
    "kong_bloom": ("槓上開花", 1), "last_tile": ("海底撈月", 1), "last_discard": ("河底撈魚", 1),
    "pinghu": ("平胡", 2), "all_seek": ("全求 (全求人)", 2), "flower_kong": ("花槓", 2),
    "three_concealed": ("三暗刻", 2), "earth_ready": ("地聽 (咪幾)", 4), "all_pungs": ("碰碰胡", 4),
    "small_dragons": ("小三元", 4), "half_flush": ("混一色", 4), "four_concealed": ("四暗刻", 5),
    "heaven_ready": ("天聽", 8), "five_concealed": ("五暗刻", 8), "big_dragons": ("大三元", 8),
    "small_winds": ("小四喜", 8), "full_flush": ("清一色", 8), "all_honours": ("字一色", 8),
    "eight_flowers": ("八仙過海", 8), "heaven_win": ("天胡", 16), "human_win": ("人胡", 16),
    "earth_win": ("地胡", 16), "big_winds": ("大四喜", 16),
}


def test_catalogue_matches_the_spec_table() -> None:
    assert set(ORDER) == set(REGISTRY) == set(ITEMS)
    assert list(ORDER[: len(SPEC_TABLE)]) == list(SPEC_TABLE)
    default = load_profile(None)
    for item_id, (zh, tai) in SPEC_TABLE.items():
        it = ITEMS[item_id]
        assert (f"{it.zh} ({it.zh_alt})" if it.zh_alt else it.zh) == zh
        assert default.value(item_id) == tai, item_id
    # 36 entries: 16 of 1 tai, 4 of 2, 4 of 4, 1 of 5, 7 of 8, 4 of 16 (spec §4)
    values = sorted(tai for _, tai in SPEC_TABLE.values())
    assert [values.count(v) for v in (1, 2, 4, 5, 8, 16)] == [16, 4, 4, 1, 7, 4]


def test_every_item_is_documented_in_both_languages() -> None:
    for it in ITEMS.values():
        assert it.zh and it.en and it.explain_zh and it.explain_en
        assert re.search(r"[\u4e00-\u9fff]", it.explain_zh), it.id
        assert (it.unit.__doc__ or "").startswith(it.zh), f"{it.id}: the docstring opens with its Chinese name"


def test_exclusion_tables_name_real_items_and_switches() -> None:
    for bigger, smaller in REPLACES.items():
        assert bigger in ITEMS and all(s in ITEMS for s in smaller)
    for switch, value, bigger, smaller in SWITCH_REPLACES:
        assert SWITCHES[switch].kind == "bool" and isinstance(value, bool)
        assert bigger in ITEMS and all(s in ITEMS for s in smaller)


@pytest.mark.parametrize("pid", BUILTIN)
def test_builtin_profiles_load_complete(pid: str) -> None:
    p = load_profile(pid)
    assert p.id == pid and p.name_zh and p.name_en
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in p.name_en)  # the English menus say it in English (a review)
    assert set(p.tai) >= set(ITEMS) - set(SWITCH_VALUED)
    assert set(p.switches) == set(SWITCHES)
    assert all(p.is_house_rule(h) for h in p.house_rules)


@pytest.mark.parametrize("pid", BUILTIN)
def test_export_round_trips(pid: str) -> None:
    p = load_profile(pid)
    for resolved in (False, True):
        again = parse_profile(__import__("tomllib").loads(export_profile(p, resolved=resolved)), "export")
        assert dict(again.tai) == dict(p.tai) and dict(again.switches) == dict(p.switches)


def test_spec_profile_values() -> None:
    sml = load_profile("sml_2026")  # spec §5.1 record
    assert (sml.value("all_honours"), sml.value("flower_kong"), sml.value("heaven_win")) == (16, 1, 24)
    assert sml.switch("multi_win") == "nearest_unless_three" and sml.inherits == "atawmj_2009"
    z = load_profile("zhaishenye")  # spec §5.3
    assert (z.value("menqing"), z.value("zimo"), z.value("seat_wind"), z.value("any_wind_pung")) == (2, 2, 0, 1)
    assert load_profile("star31").switch("streak_cap") == 10
    assert load_profile("wikibooks_base").switch("seat_wind") == "fixed_seats"
    assert load_profile("atawmj_2009").switch("seat_wind") == "dealer_east"
    assert load_profile("atawmj_2009").is_house_rule("switches.seat_wind")  # spec §5.4 item 1


def _write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(("body", "message"), [
    ('[tai]\nmenqin = 2', "unknown tai item “menqin” (did you mean “menqing”?)"),
    ('[switches]\ntai_capp = 8', "unknown switch “tai_capp”"),
    ('[switches]\nmulti_win = "everyone"', "(multi_win) must be one of “the nearest wins” (nearest)"),
    ('[switches]\nsmall_winds_adds_winds = 1', "must be one of “yes” (true), “no” (false); got “1”"),
    ('[tai]\nzimo = -1', "tai.zimo must be a whole number from 0 to 100; got “-1”"),
    ('[tai]\nzimo = "2"', 'tai.zimo must be a whole number from 0 to 100; got "2"'),  # (a text TOML would read as a
    ('[switches]\nstreak_cap = "3"', 'or a whole number from 0 to 99 (e.g. 3); got "3"'),  # number: its quotes, once)
    ('[tai]\neight_pairs_half = 8', "eight pairs and a half: the scoring rules of this program do not define its"),
    ('[tai]\ndeclared_ready = 1', "set by the switch declared_ready_tai"),
    ('house_rules = ["tai.nothing"]', "names no item or switch"),
    ('colour = "red"', "unknown key “colour”"),
])
def test_validation_errors_name_the_key(tmp_path: Path, body: str, message: str) -> None:
    path = _write(tmp_path, f'id = "house"\ninherits = "atawmj_2009"\n{body}\n')
    with pytest.raises(ProfileError, match=re.escape(message)) as info:
        load_profile(path)
    assert "house.toml" in str(info.value)


@pytest.mark.parametrize(("body", "zh", "en"), [
    ('multi_win = "everyone"', ["一炮多響（multi_win）", "「截胡（最近的一家胡）」（nearest）", "「都胡」（all）", "收到「everyone」"],
     ["Several winners on one discard (multi_win)", "“the nearest wins” (nearest)", "“all of them win” (all)",
      "(three_is_draw)", "got “everyone”"]),
    ('false_win_penalty = "double"', ["詐胡罰則（false_win_penalty）", "「不罰」（none）"],
     ["False-win penalty (false_win_penalty)", "“no penalty” (none)", "“the tai claimed, to each” (claimed_tai)"]),
    ("min_tai = -1", ["起胡台數（min_tai）只能是 0 以上的整數"], ["Minimum tai (min_tai) must be a whole number 0 or more"]),
])
def test_a_switch_value_a_file_does_not_take_is_said_by_the_names_the_app_shows(
        tmp_path: Path, body: str, zh: list[str], en: list[str]) -> None:
    """A rule-set file edited by hand read "switch multi_win must be one of nearest, all, …": in English alone (the
    Chinese named the choices by their codes too), no name a player sees in the app; the switch's key and each
    choice's value stay, in brackets, for the host mending the file."""
    path = _write(tmp_path, f'id = "house"\ninherits = "atawmj_2009"\n[switches]\n{body}\n')
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    for part in zh:
        assert part in info.value.zh
    for part in en:
        assert part in str(info.value)
    assert not re.search(r"[\u3000-\u9fff\uff00-\uffef]", str(info.value).replace(str(tmp_path), ""))


@pytest.mark.parametrize(("body", "value", "got"), [
    ('multi_win = "everyone"', "everyone", "everyone"),
    ("multi_win = 3", 3, "3"),
    ('kong_from_left = "yes"', "yes", "yes"),
    ("streak_cap = -1", -1, "-1"),
    ("streak_cap = 2.5", 2.5, "2.5"),
    ("streak_cap = true", True, "true"),
    ("draw_keeps_deal = 1", 1, "1"),
])
def test_a_switch_value_a_file_does_not_take_is_said_as_the_app_and_simulate_say_it(
        tmp_path: Path, body: str, value: object, got: str) -> None:
    """A rule-set file's ``multi_win = "everyone"`` was said ``收到 'everyone'``, ``streak_cap = true`` ``got True``
    (Python's spelling), while the app's house rules and ``companion simulate --switch`` said ``收到「everyone」``: one
    wording now for the same mistake wherever it is made, the value as the file wrote it."""
    from companion.game.switches import SwitchError, Switches

    path = _write(tmp_path, f'id = "house"\ninherits = "atawmj_2009"\n[switches]\n{body}\n')
    with pytest.raises(ProfileError) as info:
        load_profile(path)
    with pytest.raises(SwitchError) as said:  # the tracker's refusal, which the app and simulate say
        Switches.from_mapping({body.partition(" =")[0]: value})
    assert str(info.value).endswith(f": {said.value}") and info.value.zh.endswith(f"：{said.value.zh}")
    assert str(said.value).endswith(f"; got “{got}”") and said.value.zh.endswith(f"，收到「{got}」")


_ESC = "\\u001b[2J"  # (as a TOML file writes ESC [ 2 J: a screen cleared)


@pytest.mark.parametrize(("body", "got_en", "got_zh"), [
    ('multi_win = "all\\u007f"', "“all\\u007f”", "「all\\u007f」"),  # (DEL: said ``got “all”`` before; then in
    ('multi_win = "a\\tb\\n"', "“a\\tb\\n”", "「a\\tb\\n」"),  # two pairs of quotes, ``“"all\\u007f"”``; then
    ('multi_win = """a\nb"""', "“a\\nb”", "「a\\nb」"),  # ``收到"a\\nb"``, Python's way: in the quotes the rest says)
    ('multi_win = "\\u202eevil"', "“\\u202eevil”", "「\\u202eevil」"),  # (a bidi override)
    ('multi_win = "x\\u200by"', "“x\\u200by”", "「x\\u200by」"),  # (a zero-width space)
    ('multi_win = "all\\u00a0"', "“all\\u00a0”", "「all\\u00a0」"),  # (a no-break space: read ``“all ”`` before)
    ('multi_win = "\\u3000"', "“\\u3000”", "「\\u3000」"),  # (an ideographic space: ``「　」``)
    ('multi_win = "  "', '"  "', '"  "'),  # (spaces alone: ``“  ”``)
    ('multi_win = ""', "an empty value", "空值"),  # (said ``got “”`` before, then "an empty text")
    ('multi_win = "' + _ESC * 20 + '"', "“" + _ESC * 8 + "…”", "「" + _ESC * 8 + "…」"),  # (cut after
    # it was escaped: read ``…\\u001b[2…``, an escape split and the closing quote lost)
    ("streak_cap = 1979-05-27T07:32:00Z", "“1979-05-27T07:32:00Z”", "「1979-05-27T07:32:00Z」"),  # (+00:00 before)
])
def test_a_switch_value_is_said_with_what_cannot_be_seen_escaped(tmp_path: Path, body: str, got_en: str,
                                                                  got_zh: str) -> None:
    """A value with a character not seen (a control, DEL, a format or bidi character) was said raw: ``multi_win =
    "all\\u007f"`` read ``got “all”``, a valid choice to the eye, and ``--switch multi_win=$'all\\x1b[2J'`` cleared
    the terminal. Said now in quotes with TOML's escapes, as a key is; an empty text said so; a date as TOML
    writes it."""
    from companion.commands.simulate import _switches
    from companion.game.switches import SwitchError

    with pytest.raises(ProfileError) as info:
        load_profile(_write(tmp_path, f'id = "house"\ninherits = "atawmj_2009"\n[switches]\n{body}\n'))
    assert str(info.value).endswith(f"; got {got_en}") and info.value.zh.endswith(f"，收到{got_zh}")
    with pytest.raises(SwitchError) as said:
        _switches(["multi_win=all\x1b[2J\t"])
    assert str(said.value).endswith("; got “all\\u001b[2J\\t”") and "\x1b" not in said.value.zh
    with pytest.raises(SwitchError) as said:
        _switches(["multi_win="])
    assert str(said.value).endswith("; got an empty value") and said.value.zh.endswith("，收到空值")
    with pytest.raises(SwitchError) as said:
        _switches(["multi_win=all\u00a0"])
    assert str(said.value).endswith('; got “all\\u00a0”') and said.value.zh.endswith('，收到「all\\u00a0」')


@pytest.mark.parametrize("written", ["1e400", "-1e400"])
def test_a_number_too_large_is_said_as_the_file_wrote_it(tmp_path: Path, written: str) -> None:
    """``seven_rob_one = 1e400`` said ``got “inf”``, a word the file never wrote (a review)."""
    with pytest.raises(ProfileError) as info:
        load_profile(_write(tmp_path, f'id = "house"\ninherits = "atawmj_2009"\n[tai]\nseven_rob_one = {written}\n'))
    assert str(info.value).endswith(f"; got “{written}”") and info.value.zh.endswith(f"，收到「{written}」"), info.value
    assert "inf" not in str(info.value) + info.value.zh


def test_structural_profile_errors(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="every item and switch must be set"):
        load_profile(_write(tmp_path, 'id = "lonely"\n[tai]\nzimo = 1\n'))
    with pytest.raises(ProfileError, match="not valid TOML"):
        load_profile(_write(tmp_path, "id = \n"))
    with pytest.raises(ProfileError, match="unknown profile “nosuch”"):
        load_profile(_write(tmp_path, 'id = "child"\ninherits = "nosuch"\n'))
    with pytest.raises(ProfileError, match="cannot read"):
        load_profile(str(tmp_path / "missing.toml"))
    with pytest.raises(ProfileError, match="inheritance cycle"):
        load_profile(_write(tmp_path, 'id = "loop"\ninherits = "loop"\n'))


def test_house_profile_saved_in_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    path = _write(tmp_path, 'id = "ours"\ninherits = "sml_2026"\n[tai]\nfull_flush = 10\n'
                            '[switches]\ntai_cap = 16\n')
    saved = save_profile(path)
    assert saved == tmp_path / "data" / "profiles" / "ours.toml"
    ours = load_profile("ours")
    assert (ours.value("full_flush"), ours.value("all_honours"), ours.switch("tai_cap")) == (10, 16, 16)
    assert "ours" in list_profiles()
    with pytest.raises(ProfileError, match="built in"):
        save_profile(_write(tmp_path, 'id = "sml_2026"\ninherits = "atawmj_2009"\n'))
    with pytest.raises(ProfileError, match="built in"):  # (a case variant: one file name on some disks)
        save_profile(_write(tmp_path, 'id = "SML_2026"\ninherits = "atawmj_2009"\n'))


def test_a_house_profile_is_refused_an_id_another_has_in_another_case_or_another_saved_ones_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--save-profile`` took HOME8 beside home8 (one file on a disk that ignores case: the second save wrote over
    the first) and a set named as another saved one (two "Friday house" in every rule dropdown); the Settings editor
    refuses both (a review). Refused in both languages naming the set it clashes with, nothing written; names are
    compared with case and full-width forms folded, and in either language; the set itself saves again."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    folder = tmp_path / "data" / "profiles"
    save_profile(_write(tmp_path, 'id = "home8"\ninherits = "atawmj_2009"\nname_zh = "週五家規"\n'
                                  'name_en = "Friday house"\n[switches]\ntai_cap = 8\n'))
    before = (folder / "home8.toml").read_bytes()
    for pid in ("HOME8", "Home8"):
        with pytest.raises(ProfileError, match="“home8” is saved already.*differ only in case") as bad:
            save_profile(_write(tmp_path, f'id = "{pid}"\ninherits = "atawmj_2009"\nname_zh = "大寫"\n'
                                          'name_en = "Upper"\n'))
        assert "已經存了自訂規則「home8」" in bad.value.zh and "只差大小寫" in bad.value.zh
    for zh, en in (("週五家規", "Other"), ("別的", "Friday house"), ("別的", "FRIDAY HOUSE"), ("別的", "Ｆｒｉｄａｙ house"),
                   ("別的", "週五家規"), ("Friday house", "Other"), ("別的", "Friday  house ")):  # (either language's name, in either field)
        with pytest.raises(ProfileError, match="is taken by the saved house profile “home8” \\(Friday house\\)") as bad:
            save_profile(_write(tmp_path, f'id = "home11"\ninherits = "atawmj_2009"\nname_zh = "{zh}"\n'
                                          f'name_en = "{en}"\n'))
        assert "是已儲存的自訂規則「home8」（週五家規）的名稱" in bad.value.zh
    assert sorted(p.name for p in folder.iterdir()) == ["home8.toml"] and (folder / "home8.toml").read_bytes() == before
    # the set itself, edited, saves again under its names; another set of names of its own is saved beside it
    save_profile(_write(tmp_path, 'id = "home8"\ninherits = "atawmj_2009"\nname_zh = "週五家規"\n'
                                  'name_en = "Friday house"\n[switches]\ntai_cap = 16\n'))
    assert load_profile("home8").switch("tai_cap") == 16
    save_profile(_write(tmp_path, 'id = "home11"\ninherits = "atawmj_2009"\nname_zh = "週六家規"\n'
                                  'name_en = "Saturday house"\n'))
    assert sorted(p.name for p in folder.iterdir()) == ["home11.toml", "home8.toml"]
    # a built-in's name is compared alike (it was compared as typed: a look-alike of its own was taken)
    with pytest.raises(ProfileError, match="is the built-in atawmj_2009's name"):
        save_profile(_write(tmp_path, 'id = "home12"\ninherits = "atawmj_2009"\nname_zh = "別的"\n'
                                      'name_en = "atawmj 2009"\n'))
    # a set without names is named by its id: two such sets do not clash
    save_profile(_write(tmp_path, 'id = "plain1"\ninherits = "atawmj_2009"\n'))
    save_profile(_write(tmp_path, 'id = "plain2"\ninherits = "atawmj_2009"\n'))


def test_a_house_profile_saved_before_beside_one_of_its_names_still_saves(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """Two sets of one name saved before the check (by an older version): each still saves under the names its own
    file has, as the Settings editor lets a set keep them; a name it takes anew is checked."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    folder = tmp_path / "data" / "profiles"
    folder.mkdir(parents=True)
    for pid in ("home8", "home11"):
        (folder / f"{pid}.toml").write_text(f'id = "{pid}"\ninherits = "atawmj_2009"\nname_zh = "週五家規"\n'
                                             'name_en = "Friday house"\n', encoding="utf-8")
    save_profile(_write(tmp_path, 'id = "home11"\ninherits = "atawmj_2009"\nname_zh = "週五家規"\n'
                                  'name_en = "Friday house"\n[switches]\ntai_cap = 8\n'))
    assert load_profile("home11").switch("tai_cap") == 8
    (folder / "home12.toml").write_text('id = "home12"\ninherits = "atawmj_2009"\nname_zh = "小台"\n'
                                        'name_en = "Small"\n', encoding="utf-8")
    with pytest.raises(ProfileError, match="“Small” is taken by the saved house profile “home12”"):
        save_profile(_write(tmp_path, 'id = "home11"\ninherits = "atawmj_2009"\nname_zh = "週五家規"\n'
                                      'name_en = "Small"\n'))


@pytest.mark.parametrize("name", ["有\x7f刪除", "兩\n行", "tab\there", "rtl\u202eevil", "zero\u200bwidth"])
def test_a_house_profile_named_with_a_control_character_is_refused(name: str, tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A DEL in a name made the file saved unreadable at once (TOML takes none), and a tab or a newline broke
    ``--list-profiles``' columns (a change review): refused in both languages, nothing written."""
    import json

    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    path = _write(tmp_path, f'id = "odd"\ninherits = "atawmj_2009"\nname_zh = {json.dumps(name)}\nname_en = "Odd"\n')
    with pytest.raises(ProfileError, match="control character") as bad:
        save_profile(path)
    assert "控制字元" in bad.value.zh
    assert not (tmp_path / "data" / "profiles" / "odd.toml").exists()


def test_an_id_that_reads_as_an_option_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The id ``-h`` was taken, and ``companion tai --profile -h`` then printed the help (a change review)."""
    from companion.rules.profiles._store import valid_id

    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    assert not valid_id("-h") and not valid_id("--x") and valid_id("a-h") and valid_id("家規")
    with pytest.raises(ProfileError, match="not first"):
        save_profile(_write(tmp_path, 'id = "-h"\ninherits = "atawmj_2009"\n'))
    assert not (tmp_path / "data" / "profiles").exists() or not list((tmp_path / "data" / "profiles").iterdir())


@pytest.mark.parametrize("line, got", [("name_zh = 16", "16"), ("name_en = 2026-01-01", "2026-01-01"),
                                       ("name_en = 2024-01-01T10:00:00", "2024-01-01T10:00:00"),
                                       ("source = true", "true")])
def test_a_house_file_s_names_are_text(line: str, got: str, tmp_path: Path) -> None:
    """A number or a date given as a name was written out as text and listed (a bad-input review); refused, the
    value said as the file wrote it (it was said as Python writes it: ``datetime.date(2026, 1, 1)``)."""
    with pytest.raises(ProfileError, match="must be text in quotes") as bad:
        load_profile(_write(tmp_path, f'id = "ours"\ninherits = "atawmj_2009"\n{line}\n'))
    assert str(bad.value).endswith(f"got “{got}”") and bad.value.zh.endswith(f"要是加引號的文字，收到「{got}」")


def test_an_inherits_that_is_no_id_is_said_as_written(tmp_path: Path) -> None:
    """``inherits = ["a"]`` was said ``got ['a']``, as Python writes a list; and a file with no ``inherits`` was
    told ``no 'inherits'`` in straight quotes, where every other rule-set message quotes “ ” (a review)."""
    with pytest.raises(ProfileError, match="inherits must be a profile id") as bad:
        load_profile(_write(tmp_path, 'id = "ours"\ninherits = ["a"]\n'))
    assert str(bad.value).endswith('got “["a"]”') and bad.value.zh.endswith('inherits 要寫規則的 id，收到「["a"]」')
    with pytest.raises(ProfileError, match="no “inherits”, so every item and switch must be set") as bad:
        load_profile(_write(tmp_path, 'id = "ours"\nname_en = "x"\n'))
    assert "'" not in str(bad.value)


def test_code_never_branches_on_a_profile_name() -> None:
    root = Path(__file__).resolve().parents[2] / "companion" / "rules"
    for path in [root / "scoring.py", root / "settlement.py", *sorted((root / "tai").glob("*.py"))]:
        text = path.read_text(encoding="utf-8")
        for pid in BUILTIN[1:]:
            assert pid not in text, f"{path.name} names profile {pid}"


def test_a_house_file_an_editor_saved_with_a_byte_order_mark_loads(tmp_path: Path) -> None:
    """A review's house profile, saved by an editor that puts a byte-order mark first, was refused at line 1."""
    house = tmp_path / "ours.toml"
    house.write_bytes("\ufeff".encode() + b'id = "ours"\ninherits = "atawmj_2009"\n[tai]\nall_honours = 12\n')
    assert load_profile(house).tai["all_honours"] == 12


def _tai(hand: dict[str, object], profile: str) -> dict[str, int]:
    from companion.rules.scoring import score
    from companion.rules.win import Win

    return {i.id: i.tai for i in score(Win.from_dict({**hand, "profile": profile})).items}


def test_zhaishenye_inherits_the_default_in_every_cell_the_spec_leaves_open() -> None:
    """Spec §5.2: a "?" cell inherits the default (§5.4 item 7), and §5.3 lists the values 宅神爺 raises. An earlier
    version took [Y]'s own lines (正花 0, 槓上開花 2, 小四喜 12, 七搶一 16, 地聽 0); a scoring review found Example 8
    paid 21 tai there against the spec's 17. The cells stay flagged as house rules (§5.4)."""
    z = load_profile("zhaishenye")
    keys = ("seat_flower", "kong_bloom", "small_winds", "seven_rob_one", "earth_ready", "heaven_ready")
    assert {k: z.value(k) for k in keys} == {k: load_profile("atawmj_2009").value(k) for k in keys}
    assert all(z.is_house_rule(f"tai.{k}") for k in keys)
    ex8 = {"concealed": "333z444z22z345s67s", "melds": ["pung:111z@O"], "win_tile": "8s", "win_type": "discard",
           "seat_wind": "W", "round_wind": "N", "discarder": "S"}  # spec §7 Example 8
    assert _tai(ex8, "zhaishenye") == {"half_flush": 6, "small_winds": 8, "any_wind_pung": 3}  # 17
    bloom = {"concealed": "123m456m789m234p66s78s", "win_tile": "9s", "win_type": "self_draw", "seat_wind": "S",
             "round_wind": "E", "flowers": "1f", "flags": {"replacement_after": "flower"}}
    assert _tai(bloom, "zhaishenye") == {"menqing": 2, "zimo": 2, "buqiu": 1, "kong_bloom": 1}
    seat = {"concealed": "123m456m789m234p666s7s", "flowers": "2f", "win_tile": "7s", "win_type": "discard",
            "discarder": "W", "seat_wind": "S", "round_wind": "E"}
    assert _tai(seat, "zhaishenye") == {"menqing": 2, "seat_flower": 1}


def test_wikibooks_scores_a_win_on_the_dealers_first_discard_as_it_names_it() -> None:
    """[W] gives a win on the dealer's first discard 16 under the name 地胡 (the spec's 人胡); the profile scored it 0
    because [W] has no item of the spec's name (a rules review)."""
    hand = {"concealed": "123m456m789m234p66s78s", "win_tile": "9s", "win_type": "discard", "seat_wind": "S",
            "round_wind": "E", "discarder": "E", "dealer": "E", "flags": {"human": True}}
    assert _tai(hand, "wikibooks_base") == {"pinghu": 2, "human_win": 16}
    assert load_profile("wikibooks_base").is_house_rule("tai.human_win")


def test_a_house_file_inherits_a_file_beside_it_and_is_saved_whole(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A rules review: ``inherits = "base.toml"`` was read from wherever the command ran, and the saved copy in the
    data folder named a file it could not reach."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    folder = tmp_path / "house"
    folder.mkdir()
    (folder / "base.toml").write_text('id = "base"\ninherits = "atawmj_2009"\n[tai]\nflower_kong = 1\n',
                                      encoding="utf-8")
    (folder / "child.toml").write_text('id = "child"\ninherits = "base.toml"\n[tai]\nmenqing = 2\n',
                                       encoding="utf-8")
    monkeypatch.chdir(tmp_path)  # not the files' folder
    child = load_profile(folder / "child.toml")
    assert (child.value("flower_kong"), child.value("menqing")) == (1, 2)
    save_profile(folder / "child.toml")
    (folder / "base.toml").unlink()  # the saved copy stands alone
    saved = load_profile("child")
    assert (saved.value("flower_kong"), saved.value("menqing"), saved.inherits) == (1, 2, None)
    assert dict(saved.tai) == dict(child.tai) and dict(saved.switches) == dict(child.switches)


def test_a_parent_named_by_path_is_read_from_the_folder_of_the_file_naming_it_with_its_tilde_expanded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One rule for where a parent named by its path lies (:func:`parent_ref`), which the app's editor uses too (a
    review: ``inherits = "~/par.toml"`` was read as a folder named ``~``, and a ``~user`` unknown here stopped every
    rule set being listed with a RuntimeError)."""
    home, folder = tmp_path / "home", tmp_path / "house"
    home.mkdir()
    folder.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.chdir(tmp_path)
    assert parent_ref("star31", folder) == "star31"  # an id, as it is
    assert parent_ref("sub/par.toml", folder) == str(folder / "sub" / "par.toml")
    assert parent_ref(str(tmp_path / "par.toml"), folder) == str(tmp_path / "par.toml")
    assert parent_ref("~/par.toml", folder) == parent_ref("~/par.toml", None) == str(home / "par.toml")
    (home / "par.toml").write_text('id = "par"\ninherits = "star31"\n[tai]\nzimo = 3\n', encoding="utf-8")
    (folder / "kid.toml").write_text('id = "kid"\ninherits = "~/par.toml"\n', encoding="utf-8")
    kid = load_profile(folder / "kid.toml")  # (refused: "profile file '~/par.toml': cannot read it")
    assert (kid.value("zimo"), kid.switch("streak_cap")) == (3, load_profile("star31").switch("streak_cap"))
    (folder / "odd.toml").write_text('id = "odd"\ninherits = "~nosuchuser9/par.toml"\n', encoding="utf-8")
    with pytest.raises(ProfileError, match=r"odd\.toml.*inherits: .*nosuchuser9.*cannot read it"):
        load_profile(folder / "odd.toml")


@pytest.mark.parametrize(("body", "message", "message_zh"), [
    # (each switch by the name the app shows, its key in brackets: "switch min_tai (10) is above tai_cap (8)" before)
    ("tai_cap = 8\nmin_tai = 10", "Minimum tai (min_tai, 10) is above the tai cap (tai_cap, 8)",
     "起胡台數（min_tai，10）大於滿台（tai_cap，8）"),
    # (said as the file's check says -1: "must be at least 1 (or "none"), got 0" before, "1 or more" for -1)
    ("tai_cap = 0", "Tai cap (tai_cap) must be “no cap” (none) or a whole number 1 or more (e.g. 8); got “0”",
     "滿台（tai_cap）只能是「不限」（none）或 1 以上的整數（例如 8），收到「0」"),
])
def test_a_cap_no_win_could_be_paid_under_is_refused(tmp_path: Path, body: str, message: str,
                                                     message_zh: str) -> None:
    """A rules review saved a house file whose every win needed more tai than any was paid (and one paying 底 only).
    Refused where a profile is saved, given to ``companion tai`` or seated now; a table already played under one
    still replays (the review of that: a table seated before the refusal would no longer open)."""
    from companion.cli import main
    from companion.game import events as ev
    from companion.game.check import replay, step
    from companion.game.state import TableState
    from companion.game.text import IllegalEvent
    from companion.rules.profiles import check_caps

    path = _write(tmp_path, f'id = "house"\ninherits = "atawmj_2009"\n[switches]\n{body}\n')
    with pytest.raises(ProfileError, match=re.escape(message)) as info:
        check_caps(load_profile(path))
    assert message_zh in info.value.zh and "“house”" in str(info.value)
    with pytest.raises(ProfileError, match=re.escape(message)):
        save_profile(path)
    assert main(["tai", "--profile", path, str(tmp_path / "none.jsonl")]) == 2
    seated = ev.Seated(("甲", "乙", "丙", "丁"), profile=path)
    with pytest.raises(IllegalEvent, match=re.escape(message)):
        step(TableState(), seated)
    # a log kept before the refusal (before events were stamped with their rules) replays as kept; one written today
    # is refused as the entry is
    assert replay([dataclasses.replace(seated, rules_version=0)]).profile == path
    with pytest.raises(IllegalEvent, match=re.escape(message)):
        replay([seated])


def test_the_rules_a_table_keeps_load_as_kept_whatever_a_later_version_knows() -> None:
    """A table keeps its rule set's every value (:func:`keep_rules`): the default kept loads as itself (a reading of
    it as a file inheriting the default went round in a circle), a value this version no longer knows is dropped,
    and one it added since comes from the default."""
    from companion.rules.profiles import keep_rules, profile_id
    from companion.rules.profiles._store import rules_text

    for pid in BUILTIN:
        key = keep_rules(pid, rules_text(load_profile(pid)))
        kept, builtin = load_profile(key), load_profile(pid)
        assert profile_id(key) == pid and key != pid
        assert (dict(kept.tai), dict(kept.switches), kept.house_rules) == \
            (dict(builtin.tai), dict(builtin.switches), builtin.house_rules)
    text = rules_text(load_profile("zhaishenye"))
    older = text.replace("\nzimo = 2\n", "\nzimo = 2\nretired_item = 3\n").replace("\nall_seek = 3\n", "\n")
    assert "retired_item = 3" in older and "\nall_seek = " not in older
    kept = load_profile(keep_rules("zhaishenye", older))
    assert kept.value("zimo") == 2 and kept.value("all_seek") == load_profile(None).value("all_seek") == 2
    later = text.replace('name_en = "', 'description = "a key of a later version"\nname_en = "').replace(
        'multi_win = "nearest"', 'multi_win = "all_but_the_dealer"')  # (a review: each made the table unopenable)
    assert "description" in later and "all_but_the_dealer" in later
    kept = load_profile(keep_rules("zhaishenye", later))
    assert kept.switch("multi_win") == load_profile(None).switch("multi_win") and kept.value("zimo") == 2
    with pytest.raises(ProfileError, match="they are the rules of “zhaishenye”"):
        keep_rules("star31", text)


def test_a_tai_cap_of_the_wrong_type_is_said_as_the_cap_check_says_it(tmp_path: Path) -> None:
    """">= 0" for a cap given as text, "at least 1" for a cap of 0: one rule, said one way (a newcomer review)."""
    path = _write(tmp_path, 'id = "house"\ninherits = "atawmj_2009"\n[switches]\ntai_cap = "8"\n')
    with pytest.raises(ProfileError, match=re.escape('Tai cap (tai_cap) must be “no cap” (none) or a whole number 1 or '
                                                     'more (e.g. 8); got "8"')) as info:
        load_profile(path)
    assert info.value.zh.endswith('滿台（tai_cap）只能是「不限」（none）或 1 以上的整數（例如 8），收到"8"')


def test_a_house_file_whose_id_is_not_its_file_name_is_refused(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """home9.toml copied by hand from home8.toml, ``id = "home8"`` left in it, was played as home8: a table seated
    under "home9" kept home8's id, and the form to seat it again said its set had been deleted."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    folder = tmp_path / "data" / "profiles"
    folder.mkdir(parents=True)
    (folder / "home9.toml").write_text('id = "home8"\ninherits = "atawmj_2009"\n[tai]\nzimo = 3\n', encoding="utf-8")
    with pytest.raises(ProfileError) as got:
        load_profile("home9")
    assert "“home8”" in str(got.value) and "“home9”" in str(got.value)
    assert "「home8」" in got.value.zh and "「home9」" in got.value.zh
    assert load_profile(folder / "home9.toml").id == "home8"  # (a file given by its path keeps the id it says)


def test_a_file_error_keeps_its_reason_apart_from_the_files_name(tmp_path: Path) -> None:
    """The app names a set its own way and shows no path: the store's error of a rule-set file keeps what is wrong
    apart from "profile file '/…/x.toml'" (with the parser's line and column), and that of a set whose parent's
    file is at fault keeps the parent's own error (a review: the Live tab showed the command line's words)."""
    par, kid = tmp_path / "par.toml", tmp_path / "kid.toml"
    par.write_text('id = "par"\ninherits = "atawmj_2009"\n[tai]\nzimo = = 2\n', encoding="utf-8")
    kid.write_text(f'id = "kid"\ninherits = "{par.name}"\n', encoding="utf-8")
    with pytest.raises(ProfileError) as own:
        load_profile(par)
    assert own.value.file == par and own.value.inherited is None and own.value.reason is not None
    en, zh = own.value.reason
    assert en.startswith("not valid TOML: ") and "(at line 4, column 8)" in en
    assert zh == "不是有效的 TOML：值寫得不對（第 4 行第 8 欄）"  # (the parser's detail too: a change review read it in English alone)
    assert str(own.value) == f"profile file “{par}”: {en}"  # (the command line's words as before)
    assert own.value.zh == f"規則檔「{par}」：{zh}"  # (the reason too, not the line and column alone: a review)
    with pytest.raises(ProfileError) as inherited:
        load_profile(kid)
    assert inherited.value.file == kid and inherited.value.inherited is not None
    assert inherited.value.inherited.file == par and inherited.value.inherited.reason == own.value.reason
    assert str(par) in str(inherited.value)  # (the command line still names the file at fault)


@pytest.mark.parametrize("text", ["id = [\n", "id = = 1\n", 'id = "x\n', "[tai\n", "id = 1 2\n", "id = 1\nid = 2\n",
                                  "a = {b = 1\n", "= 1\n", 'id = "\\x"\n', "[[t]\n", 'id = "\x01"\n',
                                  "a.b = 1\n[a]\nb = 2\n", "a = [1,\n", "a = {b = 1, b = 2}\n"])
def test_the_parsers_reason_is_said_in_chinese_for_the_app(tmp_path: Path, text: str) -> None:
    """A change review: the app's English said the parser's reason ("Invalid value (at end of document)"), its
    Chinese only "不是有效的 TOML" (and where, in the middle of a file). The command line's Chinese is as it was."""
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ProfileError) as got:
        load_profile(path)
    assert got.value.reason is not None
    en, zh = got.value.reason
    detail = en.removeprefix("not valid TOML: ")
    assert zh.startswith("不是有效的 TOML：") and len(zh) > len("不是有效的 TOML：") + 3, zh
    said = re.sub(r"'[^']*'|\('[^']*',\)|TOML|Unicode", "", zh)  # (what the parser quotes, and names)
    assert not re.search(r"[A-Za-z]{2,}", said), (detail, zh)
    at = re.search(r"line (\d+), column (\d+)", detail)
    assert (f"（第 {at[1]} 行第 {at[2]} 欄）" if at else "（在檔案結尾）") in zh, (detail, zh)
    # the command line's Chinese says the reason too (it gave the line and column alone: a review)
    assert got.value.zh == f"規則檔「{path}」：{zh}"
    # and the English in plain words, not the parser's sentence ("Illegal character '\n'": a review)
    assert not re.search(r"Invalid|Illegal|Unterminated|Unclosed|Expected|Cannot|Duplicate|Found|Unescaped|"
                         r"document", detail), detail


@pytest.mark.parametrize(("text", "table"), [("[switches]\ntai_cap = 8\n[switches]\n", "[switches]"),
                                           ("a = {b = 1}\n[a.c]\n", "[a.c]"),
                                           ('["a b".c]\nx = 1\n["a b".c]\n', '["a b".c]')])
def test_a_table_written_twice_is_named_as_in_the_file_not_as_a_python_tuple(
        tmp_path: Path, text: str, table: str) -> None:
    """A change review: "not valid TOML: Cannot declare ('switches',) twice" / "('switches',) 寫了兩次": the parser's
    Python tuple reached the host in both languages."""
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ProfileError) as got:
        load_profile(path)
    assert got.value.reason is not None
    en, zh = got.value.reason
    assert f"{table} is written twice" in en and f"{table} 寫了兩次" in zh, (en, zh)
    assert "('" not in en + zh + str(got.value)


@pytest.mark.parametrize(("text", "en_said", "zh_said"), [
    ('["a\\\\b"]\nx = 1\n["a\\\\b"]\n', '["a\\\\b"] is written twice', '["a\\\\b"] 寫了兩次'),
    ('["a\'\\"b"]\n["a\'\\"b"]\n', '["a\'\\"b"] is written twice', '["a\'\\"b"] 寫了兩次'),
    ('["a\\"b"]\n["a\\"b"]\n', '["a\\"b"] is written twice', '["a\\"b"] 寫了兩次'),
    ('a."b\\\\c" = {}\na."b\\\\c".d = 1\n', '[a."b\\\\c"] is already set',
     '[a."b\\\\c"] 已經寫定'),
    ('x = {a."b.c" = 1, a."b.c" = 2}\n', 'the key "b.c" is written twice', '行內表裡的鍵 "b.c" 重複了'),
    ("x = {bc = 1, bc = 2}\n", "the key bc is written twice", "行內表裡的鍵 bc 重複了"),
    ('["a\\u007fb"]\n["a\\u007fb"]\n', '["a\\u007fb"] is written twice', '["a\\u007fb"] 寫了兩次'),  # (DEL)
])
def test_a_key_with_quotes_or_a_backslash_is_named_as_toml_writes_it(
        tmp_path: Path, text: str, en_said: str, zh_said: str) -> None:
    """A change review: a table whose name held a backslash, or both quotes, was still said as a Python tuple
    ("Cannot declare ('a\\\\b',) twice", in both languages): Python's repr escapes them, and the pattern took the tuple
    for no key; an inline table's key kept Python's quotes ('b.c'). Each is said as the file writes it."""
    path = tmp_path / "bad.toml"
    path.write_text(f'id = "house"\ninherits = "atawmj_2009"\n{text}', encoding="utf-8")
    with pytest.raises(ProfileError) as got:
        load_profile(path)
    assert got.value.reason is not None
    en, zh = got.value.reason
    assert en_said in en and zh_said in zh, (en, zh)
    assert "('" not in en + zh + str(got.value) and "'b" not in en + zh


@pytest.mark.parametrize(("text", "en_said", "zh_said"), [
    ('x = {"(\'a\',)" = 1, "(\'a\',)" = 2}\n', 'the key "(\'a\',)" is written twice',
     '行內表裡的鍵 "(\'a\',)" 重複了'),
    ('["(\'a\',)"]\n["(\'a\',)"]\n', '["(\'a\',)"] is written twice', '["(\'a\',)"] 寫了兩次'),
])
def test_a_key_written_like_a_python_tuple_is_named_as_the_file_writes_it(
        tmp_path: Path, text: str, en_said: str, zh_said: str) -> None:
    """A change review: the keys were written back in two passes, so an inline table's key "('a',)", written back as
    itself, was then read as a table and said "Duplicate inline table key "[a]"". Said as the file writes it."""
    path = tmp_path / "bad.toml"
    path.write_text(f'id = "house"\ninherits = "atawmj_2009"\n{text}', encoding="utf-8")
    with pytest.raises(ProfileError) as got:
        load_profile(path)
    assert got.value.reason is not None
    en, zh = got.value.reason
    assert en_said in en and zh_said in zh, (en, zh)
    assert "[a]" not in en + zh + str(got.value)


def test_a_profile_file_that_is_a_looping_link_is_said_in_chinese_too(tmp_path: Path) -> None:
    """A change review: a file that is a link looping back on itself read "無法讀取（系統錯誤：Too many levels of
    symbolic links）", the system's English in the Chinese half."""
    loop = tmp_path / "l.toml"
    loop.symlink_to("l.toml")
    with pytest.raises(ProfileError) as bad:
        load_profile(str(loop))
    assert "Too many levels of symbolic links" in str(bad.value)
    assert "符號連結繞成一圈" in bad.value.zh and "Too many" not in bad.value.zh and "系統錯誤" not in bad.value.zh


@pytest.mark.parametrize("cap", ["0", "-1"])
def test_a_tai_cap_under_1_is_said_in_one_wording_whichever_check_refuses_it(tmp_path: Path, cap: str) -> None:
    """A change review: ``tai_cap = -1`` was refused as "a whole number 1 or more (e.g. 8)" when the file was read,
    while ``tai_cap = 0`` read and was refused later as "must be at least 1 (or "none")". A cap of 0 has no meaning
    in the spec (every win paid 底 alone): it still reads, so that a table played under one replays, and is refused
    wherever a set is saved, listed, scored or seated, in the words that refuse -1."""
    from companion.rules.profiles import check_caps

    path = _write(tmp_path, f'id = "house"\ninherits = "atawmj_2009"\n[switches]\ntai_cap = {cap}\n')
    with pytest.raises(ProfileError) as info:
        check_caps(load_profile(path))
    assert str(info.value).endswith("Tai cap (tai_cap) must be “no cap” (none) or a whole number 1 or more (e.g. 8); "
                                    f"got “{cap}”"), str(info.value)
    assert info.value.zh.endswith(f"滿台（tai_cap）只能是「不限」（none）或 1 以上的整數（例如 8），收到「{cap}」")


def test_an_os_error_without_chinese_words_is_named_in_chinese_not_in_the_systems_english() -> None:
    """A review: an OS error :func:`os_error_zh` had no words for was "系統錯誤：" and the system's English sentence,
    or the whole error, its path too, where it had no errno. One it still has no words for is named by its errno
    name, else its number."""
    from companion.rules.profiles import os_error_zh

    assert os_error_zh(OSError(errno.EPROTO, "Protocol error", "/x/t.sqlite")) == "系統錯誤，代碼 EPROTO"
    assert os_error_zh(OSError(4242, "Unknown error 4242")) == "系統錯誤，代碼 4242"
    assert os_error_zh(OSError("something odd at /x/t.sqlite")) == "系統錯誤"
    assert os_error_zh(PermissionError(errno.EACCES, "Permission denied")) == "沒有權限"  # (its own words kept)


def test_an_items_tai_goes_up_to_100_in_a_file_and_as_a_table_kept_it(tmp_path: Path) -> None:
    """A review's house file with ``seat_flower = 99999999999999999999999`` was saved and scored a hand of 10^23
    tai, paid 10^24. An item's tai is 0-100 in a file, as in the app's editor, said as a cap's bounds are; a table
    that played under more keeps its rules (read as stored)."""
    for value in ("99999999999999999999999", "101"):
        with pytest.raises(ProfileError) as info:
            load_profile(_write(tmp_path, f'id = "house"\ninherits = "atawmj_2009"\n[tai]\nseat_flower = {value}\n'))
        assert f"tai.seat_flower must be a whole number from 0 to 100; got “{value}”" in str(info.value)
        assert f"tai.seat_flower 只能是 0 到 100 的整數，收到「{value}」" in info.value.zh
    top = load_profile(_write(tmp_path, 'id = "house"\ninherits = "atawmj_2009"\n[tai]\nseat_flower = 100\n'))
    assert top.tai["seat_flower"] == 100
    kept = parse_profile({"id": "house", "inherits": "atawmj_2009", "tai": {"seat_flower": 150}}, "rules", stored=True)
    assert kept.tai["seat_flower"] == 150


@pytest.mark.parametrize(("error", "zh"), [
    (OSError(errno.EEXIST, "File exists"), "已經有同名的檔案"), (OSError(errno.EIO, "Input/output error"), "讀寫裝置出錯"),
    (OSError(errno.EDQUOT, "Disk quota exceeded"), "超過磁碟配額"), (OSError(errno.ETIMEDOUT, "timed out"), "逾時"),
    (OSError(errno.EAGAIN, "Resource temporarily unavailable"), "暫時無法使用"),
    (OSError(errno.ENAMETOOLONG, "File name too long"), "檔名或路徑太長"), (OSError(errno.ENOSPC, "No space"), "磁碟已滿"),
    (OSError(errno.EROFS, "Read-only file system"), "唯讀的檔案系統"), (OSError(errno.ELOOP, "Too many levels"), "符號連結繞成一圈"),
    (TimeoutError("took too long at /x/t.sqlite"), "逾時"), (BlockingIOError("busy"), "暫時無法使用"),
    (io.UnsupportedOperation("File or stream is not seekable."), "這種檔案不能這樣讀寫"),
    (FileExistsError("/x/t.sqlite"), "已經有同名的檔案"),
])
def test_a_common_os_error_is_said_in_plain_chinese_not_by_pythons_or_the_errnos_name(error: OSError, zh: str) -> None:
    """A review: 「系統錯誤 UnsupportedOperation」, 「系統錯誤 TimeoutError」, 「系統錯誤 BlockingIOError」 and
    「系統錯誤 EEXIST」: Python's class names and the errno's, for errors a user meets with files."""
    from companion.rules.profiles import os_error_zh

    assert os_error_zh(error) == zh


def test_the_false_win_and_reserve_choices_say_what_they_are() -> None:
    """A house-rules review: false_win_after = void_hand was named "the hand is void", where spec §2.14 has the same
    dealer replay it, and reserve_rule = fixed16 was "16" alone in English."""
    from companion.rules.profiles._schema import SWITCHES

    assert SWITCHES["false_win_after"].choice_name("void_hand") == ("這把作廢，同莊重打", "the hand is replayed (same dealer)")
    zh, en = SWITCHES["reserve_rule"].choice_name("fixed16")
    assert zh == "留 16 張" and en == "16 tiles"
