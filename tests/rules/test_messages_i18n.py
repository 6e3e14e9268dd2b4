"""Every message of the scoring input, the profiles and ``companion tai`` in Traditional Chinese and English;
``tai --explain`` with house files; a closed pipe; the Python API's checks on streak and claimed_tai."""

from __future__ import annotations

import ast
import io
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from companion.cli import build_parser, main
from companion.rules.profiles import ProfileError, load_profile
from companion.rules.profiles._store import list_profiles, save_profile
from companion.rules.scoring import NotAWin, score
from companion.rules.settlement import Stakes, settle_false_win
from companion.rules.win import Win, WinInputError

CJK = re.compile("[\u4e00-\u9fff]")
ROOT = Path(__file__).resolve().parents[2] / "companion"
HAND = "123m456m234p678p45s88s"
LINE = {"concealed": HAND, "win_tile": "3s", "win_type": "self_draw", "seat_wind": "E", "round_wind": "E"}


def _run(capsys: pytest.CaptureFixture[str], tmp_path: Path, lines: list[Any],
         *args: str) -> tuple[int, str, str]:
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    rc = main(["tai", str(path), *args])
    got = capsys.readouterr()
    return rc, got.out, got.err


def _calls(path: Path, name: str) -> list[ast.Call]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call)
            and (getattr(n.func, "id", None) == name or getattr(n.func, "attr", None) == name)]


# --- every raise site says it in Chinese too ---------------------------------------------------------


@pytest.mark.parametrize(("name", "n_args", "files"), [
    ("WinInputError", 3, ["rules/win.py", "rules/_win_json.py", "rules/settlement.py", "commands/tai.py"]),
    ("ProfileError", 2, ["rules/profiles/__init__.py", "rules/profiles/_store.py"]),
])
def test_every_raise_site_gives_a_chinese_reason(name: str, n_args: int, files: list[str]) -> None:
    missing = []
    for rel in files:
        for call in _calls(ROOT / rel, name):
            if len(call.args) < n_args and not any(k.arg == "zh" for k in call.keywords):
                missing.append(f"{rel}:{call.lineno}")
    assert not missing, f"{name} without its Chinese reason at {', '.join(missing)}"


API_ERRORS: list[tuple[str, dict[str, Any], str]] = [
    (HAND, {"seat_wind": "X"}, "seat_wind"),
    (HAND, {"replacement": "bloom"}, "replacement"),
    ("123m456m234p678p45s1f", {}, "concealed"),
    (HAND, {"flowers": "1s"}, "flowers"),
    ("123m456m234p45s88s", {"melds": ["ckong:0000x"]}, "melds"),
    (HAND, {"win_type": "four_kongs"}, "win_tile"),
    (HAND, {"win_tile": None}, "win_tile"),
    (HAND, {"win_tile": "1f"}, "win_tile"),
    ("123m456m234p678p45s8s", {}, "concealed"),
    (HAND, {"flowers": "11f"}, "flowers"),
    (HAND, {"win_type": "discard"}, "discarder"),
    (HAND, {"win_type": "discard", "seat_wind": "S", "discarder": "S"}, "discarder"),
    (HAND, {"discarder": "S"}, "discarder"),
    (HAND, {"win_type": "discard", "discarder": "S", "replacement": "flower"}, "flags.replacement_after"),
    (HAND, {"seat_wind": "S", "heavenly": True}, "flags.heavenly"),
    (HAND, {"earthly": True}, "flags.earthly"),
    (HAND, {"human": True}, "flags.human"),
    (HAND, {"heavenly": True, "replacement": "flower"}, "flags.replacement_after"),
    ("123m456m234p45s88s", {"melds": ["pung:222z@O"], "heavenly": True}, "flags.heavenly"),
    ("123m456m234p45s88s", {"melds": ["pung:222z@O"], "ready_on_deal": True}, "flags.ready_on_deal"),
    (HAND, {"ready_first_discard": True}, "flags.ready_first_discard"),
    (HAND, {"seat_wind": "S", "ready_on_deal": True, "ready_first_discard": True}, "flags.ready_first_discard"),
    (HAND, {"win_type": "discard", "discarder": "S", "flowers": "12345678f"}, "flowers"),
    (HAND, {"replacement": "ckong"}, "flags.replacement_after"),
    (HAND, {"win_type": "rob_kong", "discarder": "S", "last_tile": True}, "flags.last_tile"),
    (HAND, {"last_discard": True}, "flags.last_discard"),
    (HAND, {"win_type": "rob_kong", "discarder": "S", "win_tile": "4s"}, "win_tile"),
    ("123m456m234p678p45s8q", {}, "concealed"),
    (HAND, {"win_tile": "3s4s"}, "win_tile"),
    (HAND, {"win_type": "tsumo"}, "win_type"),
    ("123m456m234p45s88s", {"melds": ["peng:222z"]}, "melds"),
    (HAND, {"streak": -1}, "streak"),
    # (the first go-around's wins and the last tile; seven rob one with 17 tiles; eight flowers typed with 天胡)
    (HAND, {"heavenly": True, "last_tile": True}, "flags.last_tile"),
    ("123m456m234p45s88s", {"melds": ["pung:222z@O"], "earthly": True, "seat_wind": "S"}, "flags.earthly"),
    (HAND + "9s", {"win_tile": None, "win_type": "seven_flowers_rob", "seat_wind": "S", "flowers": "1234567f",
                   "discarder": "W"}, "concealed"),
    (HAND, {"win_tile": None, "win_type": "eight_flowers", "flowers": "12345678f", "heavenly": True},
     "flags.heavenly"),
]


@pytest.mark.parametrize(("concealed", "context", "field"), API_ERRORS)
def test_win_errors_from_code_are_bilingual(concealed: str, context: dict[str, Any], field: str) -> None:
    ctx = dict(context)
    win_tile, win_type = ctx.pop("win_tile", "3s"), ctx.pop("win_type", "self_draw")
    with pytest.raises(WinInputError) as info:
        Win.of(concealed, win_tile, win_type, **ctx)
    e = info.value
    assert e.field == field and str(e) == f"{field}: {e.reason}"  # the English message as before
    assert CJK.search(e.zh) and e.zh != e.reason, e.zh
    # plain English: the app's Score tab shows it to an English player (a wording review read "天胡 is the
    # dealer's self-drawn win", "not 槓上開花", "(八仙過海, spec §4.2)")
    assert not CJK.search(e.reason), e.reason
    assert e.message_zh == f"欄位 {field} 有誤：{e.zh}"


JSON_ERRORS: list[tuple[Any, str, str]] = [
    ({**LINE, "seat": "W"}, "seat", "不認得的欄位"),
    ({k: v for k, v in LINE.items() if k != "round_wind"}, "round_wind", "缺少"),
    ({**LINE, "concealed": 123}, "concealed", "字串"),
    ({**LINE, "concealed": "123m456m234p678p45s8q"}, "concealed", "123m456m234p678p45s8q"),
    ({**LINE, "melds": {"a": 1}}, "melds", "清單"),
    ({**LINE, "concealed": "123m456m234p45s88s", "melds": [5]}, "melds[0]", "吃碰槓"),
    ({**LINE, "concealed": "123m456m234p45s88s", "melds": [{"kind": "pung", "tiles": "222z", "x": 1}]},
     "melds[0].x", "不認得"),
    ({**LINE, "concealed": "123m456m234p45s88s", "melds": [{"kind": "pang", "tiles": "222z"}]},
     "melds[0].kind", "吃碰槓的種類"),
    ({**LINE, "concealed": "123m456m234p45s88s", "melds": [{"kind": "pung", "tiles": "222z", "from": "Q"}]},
     "melds[0].from", "上家"),
    ({**LINE, "concealed": "123m456m234p45s88s", "melds": [{"kind": "chow", "tiles": "135p"}]}, "melds[0]",
     "chow:135p"),
    ({**LINE, "concealed": "123m456m234p45s88s", "melds": ["pung:222z@Q"]}, "melds[0]", "來源"),
    ({**LINE, "flags": [1]}, "flags", "物件"),
    ({**LINE, "flags": {"tenhou": True}}, "flags.tenhou", "不認得的旗標"),
    ({**LINE, "flags": {"heavenly": "yes"}}, "flags.heavenly", "true 或 false"),
    ({**LINE, "flags": {"replacement_after": "moon"}}, "flags.replacement_after", "補牌"),
    ([1, 2], "(line)", "JSON 物件"),
    ({**LINE, "win_tile": "3s4s"}, "win_tile", "一張"),
    ({**LINE, "win_type": "tsumo"}, "win_type", "自摸"),
    ({**LINE, "streak": "2"}, "streak", "連莊"),
    ({**LINE, "profile": 7}, "profile", "規則"),
    ({**LINE, "flowers": "11f"}, "flowers", "春"),
    ({**LINE, "stakes": {"base": -1, "per_tai": 10}}, "stakes.base", "底"),
    ({**LINE, "stakes": [30, 10]}, "stakes", "底"),
    ({**LINE, "concealed": "123m456m234p45s88s", "melds": ["槓:7777s"]}, "melds[0]", "暗槓"),
    ({**LINE, "concealed": "123m456m234p45s88s", "melds": [{"kind": "槓", "tiles": "7777s"}]}, "melds[0].kind",
     "暗槓"),
]


def test_tai_input_errors_say_the_reason_in_chinese_once(capsys: pytest.CaptureFixture[str],
                                                         tmp_path: Path) -> None:
    """Before: "欄位 X 有誤：X: <English reason>"; now the field once and the reason in Chinese."""
    rc, out, _ = _run(capsys, tmp_path, [obj for obj, _, _ in JSON_ERRORS])
    got = [json.loads(x)["error"] for x in out.splitlines()]
    assert rc == 1 and len(got) == len(JSON_ERRORS)
    for err, (_, field, word) in zip(got, JSON_ERRORS, strict=True):
        assert err["kind"] == "input" and err["field"] == field
        assert err["message"].startswith(f"{field}: ")  # English as before
        zh = err["message_zh"]
        if field == "(line)":  # the whole line, not a field of it
            assert zh.startswith("這一行有誤：") and "list" not in zh, zh
        else:
            assert zh.startswith(f"欄位 {field} 有誤：") and zh.count(field) == 1, zh
        assert word in zh and err["message"].partition(": ")[2] not in zh, zh
    from companion.commands.tai import explain

    buf = io.StringIO()
    explain({"error": got[0]}, "zh", buf, "x")
    assert buf.getvalue().splitlines()[1] == "錯誤：欄位 seat 有誤：不認得的欄位"


def test_not_json_and_not_a_win_in_chinese(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rc, out, _ = _run(capsys, tmp_path, ["{not json", {**LINE, "win_tile": "9s"}])
    bad_json, not_win = (json.loads(x)["error"] for x in out.splitlines())
    # in plain words, not the reader's sentence ("Expecting property name enclosed in double quotes": a review)
    assert bad_json["message"].startswith("not JSON at column 2: a key must be a text in double quotes")
    assert "Expecting" not in bad_json["message"] and "one JSON object per line" in bad_json["message"]
    assert bad_json["message"].endswith("(tai reads one JSON object per line, e.g. from jq -c)")  # the same in both
    assert bad_json["message_zh"] == ("不是有效的 JSON：第 2 個字元：鍵要用雙引號括起來，例如 \"key\": …"
                                      "（tai 每行讀一個 JSON 物件，例如 jq -c 的輸出）")  # (it left out the jq hint)
    rc, out, _ = _run(capsys, tmp_path, ['{"concealed": "123m", "x'])  # unclosed: its own line, not "line 2"
    said = json.loads(out)["error"]
    assert said["message"].startswith("not JSON at column 23: a text is not closed by its double quote")
    assert "line 2" not in said["message"] and "Unterminated" not in said["message"] and "（" not in said["message"]
    assert said["message_zh"].startswith("不是有效的 JSON：第 23 個字元：字串少了結尾的雙引號")
    # each wait listed on its own (it read "(real waits: 36s)" and 「聽：三條 六條」: a final review)
    assert "(real waits: 3s and 6s)" in not_win["message"]
    assert not_win["message_zh"] == "不是胡牌：123456m234678p4588s win=9s@self：九條不能湊成五組加一對（聽：三條、六條）"
    with pytest.raises(NotAWin) as info:  # no wait at all: 無, not "none"
        score(Win.of("1357m1357p1357s1357z", "9m", "self_draw"))
    assert "(real waits: none)" in str(info.value) and info.value.reason_zh.endswith("（聽：無）")
    assert not re.search("[a-z0-9]", info.value.reason_zh)


def test_tai_stderr_errors_are_bilingual(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    assert main(["tai", "--stakes", "3x"]) == 2
    err = capsys.readouterr().err
    assert "--stakes: expected base/per tai such as 30/10, got “3x”" in err and "選項 --stakes 有誤：要寫成 底／台，例如 30／10" in err
    assert main(["tai", "--profile", "nope"]) == 2
    err = capsys.readouterr().err
    assert "unknown profile “nope”" in err and "不認得規則「nope」" in err
    missing = tmp_path / "missing.jsonl"
    assert main(["tai", str(missing)]) == 2
    err = capsys.readouterr().err
    assert f"{missing}: cannot read it" in err and f"無法讀取 {missing}（找不到這個檔案）" in err
    assert "Errno" not in err
    house = tmp_path / "ours.toml"
    house.write_text('id = "ours"\ninherits = "atawmj_2009"\n', encoding="utf-8")
    assert main(["tai", "--save-profile", str(house)]) == 0
    saved = tmp_path / "data" / "profiles" / "ours.toml"
    assert capsys.readouterr().out.strip() == f"saved {saved} / 已儲存 {saved}"
    monkeypatch.setenv("COMPANION_DATA_DIR", str(house))  # a file: the profiles folder cannot be made
    assert main(["tai", "--save-profile", str(house)]) == 2
    err = capsys.readouterr().err
    assert "cannot write" in err and "無法寫入" in err and str(house) in err
    rc, out, _ = _run(capsys, tmp_path, [{**LINE, "profile": "nope"}])
    zh = json.loads(out)["error"]["message_zh"]
    assert zh.startswith("規則設定有誤：不認得規則「nope」") and "unknown" not in zh


# --- profiles ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("body", "word"), [
    ('[tai]\nmenqin = 2', "不認得的台數項目「menqin」（是不是「menqing」？）"),
    ('[switches]\ntai_capp = 8', "不認得的開關「tai_capp」"),
    ('[switches]\nmulti_win = "everyone"', "一炮多響"),
    ('[switches]\nsmall_winds_adds_winds = 1', "只能是「是」（true）、「否」（false）其中之一，收到「1」"),
    ('[tai]\nzimo = -1', "0 到 100 的整數"),
    ('[tai]\neight_pairs_half = 8', "沒有定義它的牌型"),
    ('[tai]\ndeclared_ready = 1', "由開關 declared_ready_tai 設定"),
    ('house_rules = ["tai.nothing"]', "不是任何項目或開關"),
    ('house_rules = "x"', "清單"),
    ('colour = "red"', "不認得的鍵「colour」"),
    ('tai = 3', "[tai]"),
    ('switches = 3', "[switches]"),
    ('zimo = ', "第 3 行第 8 欄"),
])
def test_profile_errors_are_bilingual_and_name_the_path_as_given(tmp_path: Path, body: str, word: str) -> None:
    path = tmp_path / "sub" / "house.toml"
    path.parent.mkdir()
    path.write_text(f'id = "house"\ninherits = "atawmj_2009"\n{body}\n', encoding="utf-8")
    with pytest.raises(ProfileError) as info:
        load_profile(str(path))
    e = info.value
    assert f"profile file “{path}”" in str(e)  # the path as given, not only house.toml
    assert e.zh.startswith(f"規則檔「{path}」：") and word in e.zh, e.zh
    assert CJK.search(e.zh.partition("：")[2])


def test_other_profile_errors_are_bilingual(tmp_path: Path) -> None:
    cases = {"lonely.toml": ('id = "lonely"\n[tai]\nzimo = 1\n', "每個項目和開關都要設定"),
             "noid.toml": ('inherits = "atawmj_2009"\n', "缺少 id"),
             "loop.toml": ('id = "loop"\ninherits = "loop"\n', "繼承繞成一圈 loop -> loop"),
             "num.toml": ('id = "num"\ninherits = 3\n', "inherits 要寫規則的 id")}
    for name, (text, word) in cases.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
        with pytest.raises(ProfileError) as info:
            load_profile(str(tmp_path / name))
        assert word in info.value.zh, info.value.zh
    with pytest.raises(ProfileError) as info:
        load_profile(str(tmp_path / "missing.toml"))
    assert "cannot read" in str(info.value) and "無法讀取（找不到這個檔案）" in info.value.zh


def test_a_house_file_may_not_take_a_built_in_id(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: accepted, scored with house values and reported (and explained) as the built-in."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    dup = tmp_path / "dup.toml"
    dup.write_text('id = "atawmj_2009"\ninherits = "sml_2026"\n', encoding="utf-8")
    assert main(["tai", "--profile", str(dup)]) == 2
    err = capsys.readouterr().err
    assert "id “atawmj_2009” is built in" in err and "「atawmj_2009」是內建規則的名稱" in err
    rc, out, _ = _run(capsys, tmp_path, [{**LINE, "profile": str(dup)}])
    assert rc == 1 and "built in" in json.loads(out)["error"]["message"]
    looped = tmp_path / "self.toml"  # before: "inheritance cycle atawmj_2009 -> atawmj_2009"
    looped.write_text('id = "atawmj_2009"\ninherits = "atawmj_2009"\n', encoding="utf-8")
    assert main(["tai", "--save-profile", str(looped)]) == 2
    err = capsys.readouterr().err
    assert "is built in" in err and "內建" in err and "cycle" not in err


def test_a_house_file_copied_from_a_built_in_must_be_named_anew(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The README's way (`--show-profile`, a new id, `--save-profile`) kept the built-in's names: every score of the
    house rules said "ATAWMJ 2009 (default)" (a newcomer review). Refused, naming the line; left out, the id names it."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    assert main(["tai", "--show-profile", "atawmj_2009"]) == 0
    shown = capsys.readouterr().out
    copy = tmp_path / "ours.toml"
    copy.write_text(re.sub(r'(?m)^id = .*$', 'id = "ours"', shown), encoding="utf-8")
    assert main(["tai", "--save-profile", str(copy)]) == 2
    err = capsys.readouterr().err
    assert "name_zh “中華競技麻將 2009” is the built-in atawmj_2009's name" in err and "請給自訂規則取自己的名稱" in err
    assert load_profile(str(copy)).name("en") == "ATAWMJ 2009"  # loaded, not saved: a file saved so by
    # an earlier version still opens (a change review: the first version of this refusal locked its tables out)
    copy.write_text(re.sub(r'(?m)^name_(zh|en) = .*$', '', copy.read_text(encoding="utf-8")), encoding="utf-8")
    assert main(["tai", "--save-profile", str(copy)]) == 0
    assert load_profile("ours").name("en") == "ours"


def test_a_saved_profile_id_is_letters_digits_underscore_dash(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    spaced = tmp_path / "h4.toml"
    spaced.write_text('id = "h 4"\ninherits = "atawmj_2009"\n', encoding="utf-8")
    with pytest.raises(ProfileError) as info:
        save_profile(spaced)
    assert "profile id “h 4”: use letters, digits" in str(info.value) and "只能用字母、數字" in info.value.zh
    assert not (tmp_path / "data" / "profiles" / "h 4.toml").exists()
    (tmp_path / "data" / "profiles").mkdir(parents=True)
    (tmp_path / "data" / "profiles" / "h 4.toml").write_text('id = "h 4"\n', encoding="utf-8")  # an old one
    assert "h 4" not in list_profiles()
    with pytest.raises(ProfileError, match="unknown profile “h 4”"):
        load_profile("h 4")
    (tmp_path / "h_4-b.toml").write_text('id = "h_4-b"\ninherits = "atawmj_2009"\n', encoding="utf-8")
    assert save_profile(tmp_path / "h_4-b.toml").name == "h_4-b.toml"


# --- --explain with a house file, wording ----------------------------------------------------------------


def test_explain_with_a_house_file(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: a ProfileError traceback (the house file reloaded by its id)."""
    monkeypatch.chdir(tmp_path)
    Path("ok1.toml").write_text('id = "ok1"\ninherits = "atawmj_2009"\nname_zh = "我家"\n[switches]\n'
                                'false_win_penalty = "claimed_tai"\n', encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(LINE) + "\n"))
    assert main(["tai", "--explain", "--profile", "ok1.toml"]) == 0
    out = capsys.readouterr().out
    assert "規則：我家（ok1）" in out and "手牌合計 3 台" in out
    discard_kong = {"concealed": "123m456p789s23s55z", "melds": ["kong:9999m@O"], "win_tile": "4s",
                    "win_type": "self_draw", "seat_wind": "S", "round_wind": "E",
                    "flags": {"replacement_after": "kong"}, "profile": "ok1.toml"}
    rc, out, err = _run(capsys, tmp_path, [{**LINE, "profile": "ok1.toml"}, discard_kong], "--explain",
                        "--lang", "en")
    assert rc == 0 and not err
    assert out.count("Rules: ok1\n") == 2 and "False win" in out and "Hand total 3 tai" in out


def test_explain_house_rule_tag_and_total_mean_the_same_in_both_languages(capsys: pytest.CaptureFixture[str],
                                                                          tmp_path: Path) -> None:
    from companion.commands.tai import _T

    assert (_T["zh"]["house"], _T["en"]["house"]) == ("（各家規矩）", " (house rule)")
    assert (_T["zh"]["total"], _T["en"]["total"]) == ("手牌合計", "Hand total")
    heaven = {"concealed": "123m456m789m234p66s79s", "win_tile": "8s", "win_type": "self_draw", "seat_wind": "E",
              "round_wind": "E", "dealer": "E", "flags": {"heavenly": True}}
    _, out, _ = _run(capsys, tmp_path, [heaven], "--explain")
    assert "存疑" not in out and next(x for x in out.splitlines() if x.startswith("天胡")).endswith("（各家規矩）")


# --- a closed pipe ---------------------------------------------------------------------------------------


class _ClosedPipe(io.StringIO):
    def write(self, s: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.parametrize("extra", [[], ["--explain"], ["--list-profiles"], ["--show-profile", "sml_2026"]])
def test_a_closed_pipe_is_left_to_cli_to_end_quietly(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch, extra: list[str]) -> None:
    """``companion tai … | head -1``: before, "companion tai: [Errno 32] Broken pipe" and exit 2."""
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(LINE) + "\n", encoding="utf-8")
    args = build_parser().parse_args(["tai", str(path), *extra])
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    with pytest.raises(BrokenPipeError):
        args.func(args)
    assert capsys.readouterr().err == ""


# --- the Python API's checks -----------------------------------------------------------------------------


@pytest.mark.parametrize("streak", [1.5, True, "2", None])
def test_streak_must_be_an_int(streak: Any) -> None:
    """Before: 1.5 gave dealer tai 4.0, True counted as 1, '2' a bare TypeError."""
    with pytest.raises(WinInputError) as info:
        Win.of(HAND, "3s", "self_draw", streak=streak)
    assert info.value.field == "streak" and "integer" in str(info.value) and "連莊數" in info.value.zh


@pytest.mark.parametrize("claimed", [-20, 2.5, "3", True])
def test_claimed_tai_must_be_none_or_an_int_of_zero_or_more(claimed: Any) -> None:
    """Before: -20 made the offender collect, 2.5 gave float money, '3' a bare TypeError."""
    win = Win.of(HAND, "3s", "self_draw", seat_wind="S")
    with pytest.raises(WinInputError) as info:
        settle_false_win(win, Stakes(30, 10), "wikibooks_base", claimed)
    assert info.value.field == "claimed_tai" and "宣稱的台數" in info.value.zh
    for ok in (None, 0, 3):
        assert all(isinstance(p.amount, int) and p.amount >= 0
                   for p in settle_false_win(win, Stakes(30, 10), "wikibooks_base", ok).payments)


def test_a_winning_tile_left_in_the_concealed_tiles_is_said(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    """A review put the winning tile in concealed too, as a hand looks once won, and met "17 structural tiles"."""
    line = {**LINE, "concealed": LINE["concealed"] + LINE["win_tile"]}
    rc, out, _ = _run(capsys, tmp_path, [line])
    error = json.loads(out)["error"]
    assert error["field"] == "concealed" and f"take one {LINE['win_tile']} out" in error["message"]
    assert "拿掉一張" in error["message_zh"]


@pytest.mark.parametrize(("line", "en", "zh"), [
    ("[1, 2]", "(line): expected a JSON object {...}, got a list [...]", "收到 清單 [...]"),
    ('{"streak": true}', "streak: expected a whole number N >= 0, got true (a yes/no)", "收到 true（是非值）"),
    ('{"streak": 1e9}', "got 1e9 (a number with a point or an exponent", "收到 1e9（有小數點或指數的數字"),
    ('{"streak": null, "melds": 3}', "melds: expected a list [...], got 3", "收到 3"),
    ('{"flags": {"heavenly": null}, "melds": {}}', "melds: expected a list [...], got an object {...}",
     "收到 物件 {...}"),
])
def test_a_json_value_refused_is_said_as_json_writes_it(line: str, en: str, zh: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    # "got list", "got True" and "got 1000000000.0" for 1e9: Python's words for the line's JSON (a review)
    if line.startswith("{"):
        line = json.dumps(LINE)[:-1] + ", " + line[1:]
    rc, out, _ = _run(capsys, tmp_path, [line])
    err = json.loads(out)["error"]
    assert rc == 1 and en in err["message"] and zh in err["message_zh"]
    got = err["message"].rpartition("got ")[2]
    assert not re.match(r"(True|False|None|list|dict|float|int|str)\b|\d+\.0\b", got), got


@pytest.mark.parametrize(("fields", "en", "zh"), [
    ({"win_tile": "3s3s"}, 'win_tile: expected one tile, got "3s3s"', '收到 "3s3s"'),
    ({"stakes": {"base": True, "per_tai": 10}}, "stakes.base: expected an integer >= 0, got true (a yes/no)",
     "收到 true（是非值）"),
    ({"stakes": {"base": 30, "per_tai": 10, "extra": 1}}, 'got an object with the keys "base", "per_tai", "extra"',
     '收到 鍵為 "base"、"per_tai"、"extra" 的物件'),
    ({"stakes": [30, 10]}, "got a list [...]", "收到 清單 [...]"),
    ({"win_type": "winning"}, 'win_type: expected one of discard, self_draw', '收到 "winning"'),
    ({"win_type": 3}, "(or its Chinese name), got 3", "收到 3"),
    ({"seat_wind": True}, "seat_wind: expected a wind: E, S, W, N, East, South, West, North, 1z-4z or its Chinese name, got true (a yes/no)", "收到 true（是非值）"),
    ({"flags": {"replacement_after": "vine"}}, 'got "vine"', '收到 "vine"'),
    ({"concealed": "123m456m789m234p66s7s", "win_type": "discard", "discarder": "S",
      "melds": [{"kind": "pung", "tiles": "999p", "from": "X"}]}, 'melds[0].from: expected L, O or R, got "X"',
     '收到 "X"'),
])
def test_a_value_refused_in_a_tai_line_is_said_as_json_not_as_python(fields: dict[str, Any], en: str, zh: str,
                                                                       tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """A language review read 「收到 '3s3s'」, 「收到 True」 and got {'base': 30, …}: Python's spelling of the line's
    JSON. Each value is said as the line wrote it."""
    rc, out, _ = _run(capsys, tmp_path, [{**LINE, **fields}])
    err = json.loads(out)["error"]
    assert rc == 1 and en in err["message"] and zh in err["message_zh"], err
    assert "'" not in err["message"] + err["message_zh"] and "True" not in err["message"] + err["message_zh"]


@pytest.mark.parametrize(("win_type", "kind"), [("自摸", "self_draw"), ("搶槓", "rob_kong"), ("SELF_DRAW", "self_draw")])
def test_a_tai_line_takes_the_chinese_name_of_a_win_as_score_does(win_type: str, kind: str, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``"win_type": "自摸"`` was refused where ``companion score --win-type 自摸`` was taken (a language review)."""
    extra = {"discarder": "S"} if kind == "rob_kong" else {}
    rc, out, _ = _run(capsys, tmp_path, [{**LINE, "win_type": win_type, **extra}, {**LINE, "win_type": kind, **extra}])
    named, plain = (json.loads(line) for line in out.splitlines())
    assert rc == 0 and "error" not in named and named == plain


def test_a_tai_line_takes_the_winds_and_sources_in_chinese(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    chinese = {**LINE, "seat_wind": "南風", "round_wind": "東", "concealed": "123m456m789m55p78s",
               "melds": [{"kind": "碰", "tiles": "999p", "from": "對家"}], "win_tile": "6s"}
    plain = {**chinese, "seat_wind": "S", "round_wind": "E", "melds": [{"kind": "pung", "tiles": "999p", "from": "O"}]}
    rc, out, _ = _run(capsys, tmp_path, [chinese, plain])
    first, second = (json.loads(line) for line in out.splitlines())
    assert rc == 0 and "error" not in first and first == second


def test_a_tai_line_names_its_replacement_and_its_kong_in_chinese(capsys: pytest.CaptureFixture[str],
                                                                 tmp_path: Path) -> None:
    """A review: "replacement_after": "補花" was refused by an error that lists 補花 as a name; a kong written 槓 (no
    source) scored as a discard kong, 1 tai, where 暗槓 scores 3: it is asked (JSON_ERRORS), and with a source or
    its full name it is read."""
    flower = {**LINE, "flowers": "1f"}
    lines = [{**flower, "flags": {"replacement_after": name}} for name in ("flower", "補花", "补花")]
    kong = {**LINE, "concealed": "123m456m234p45s88s"}
    lines += [{**kong, "melds": [m]} for m in ("ckong:7777s", "暗槓:7777s", "kong:7777s@O", "槓:7777s@O", "明槓：7777s")]
    rc, out, _ = _run(capsys, tmp_path, lines)
    got = [json.loads(x) for x in out.splitlines()]
    assert rc == 0 and not any("error" in g for g in got), got
    tai = [g["hand_tai"] for g in got]
    assert tai[0] == tai[1] == tai[2] and tai[3] == tai[4] and tai[5] == tai[6] == tai[7] and tai[3] > tai[5]
