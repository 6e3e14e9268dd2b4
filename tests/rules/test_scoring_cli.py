"""``companion tai``: JSON lines in, JSON lines out, errors per line, --explain, profiles."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from companion.cli import main

EX1 = {"concealed": "123m456m234p678p45s88s", "win_tile": "3s", "win_type": "discard", "seat_wind": "W",
       "round_wind": "S", "discarder": "S", "stakes": {"base": 30, "per_tai": 10}}
EX2 = {"concealed": "678m777s12m55p", "melds": [{"kind": "pung", "tiles": "222z", "from": "O"},
                                                {"kind": "chow", "tiles": "345p", "from": "L"}],
       "flowers": "27f", "win_tile": "3m", "win_type": "self_draw", "seat_wind": "S", "round_wind": "E",
       "dealer": "E", "streak": 1, "discarder": None}
DISCARD_KONG = {"concealed": "123m456p789s23s55z", "melds": [{"kind": "kong", "tiles": "9999m", "from": "O"}],
                "win_tile": "4s", "win_type": "self_draw", "seat_wind": "S", "round_wind": "E",
                "flags": {"after_kong": False, "replacement_after": "kong"}}


def _run(capsys: pytest.CaptureFixture[str], lines: list[str], *args: str, tmp_path: Path) -> tuple[int, str]:
    path = tmp_path / "in.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rc = main(["tai", str(path), *args])
    return rc, capsys.readouterr().out


def test_json_lines_in_and_out(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rc, out = _run(capsys, [json.dumps(EX1), json.dumps(EX2)], "--stakes", "30/10", tmp_path=tmp_path)
    assert rc == 0
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["hand_tai"] == 3 and first["dealer_tai"] == 0  # the dealer neither wins nor pays: none counts
    # 平胡 on a concealed hand is a house rule of the default (spec §5.4 item 3); 門清 is not
    assert first["items"] == [{"id": "menqing", "zh": "門清", "en": "Concealed hand", "tai": 1, "count": 1,
                               "house_rule": False},
                              {"id": "pinghu", "zh": "平胡", "en": "Plain hand", "tai": 2, "count": 1,
                               "house_rule": True}]
    assert first["house_rule_otherwise"] == []
    assert first["waits"] == ["3s", "6s"] and first["wait_shape"] == "two-sided"
    # each payment carries the dealer tai it includes (spec §3.2): none, the dealer neither wins nor pays
    assert first["payments"] == [{"payer": "S", "payee": "W", "tai": 3, "dealer_tai": 0, "amount": 60}]
    assert first["dealer_in"] is False and second["dealer_in"] is True  # the dealer's tai counts only in the second
    # spec §7 Payment A: the line has no stakes of its own, --stakes applies
    assert [(p["payer"], p["amount"]) for p in second["payments"]] == [("W", 70), ("N", 70), ("E", 100)]
    assert [p["dealer_tai"] for p in second["payments"]] == [0, 0, second["dealer_tai"]] != [0, 0, 0]
    assert second["total"] == 240


def test_bad_lines_name_the_field_and_the_batch_goes_on(capsys: pytest.CaptureFixture[str],
                                                        tmp_path: Path) -> None:
    bad_meld = dict(EX1, melds=[{"kind": "chow", "tiles": "135p"}], concealed="456m234p678p45s88s")
    bad_tiles = dict(EX1, concealed="123m456m234p678p45s8q")
    unknown = dict(EX1, seat="W")
    not_win = dict(EX1, win_tile="9s")
    fifth = dict(EX1, melds=["kong:55555z@O"], concealed="456m234p678p45s88s")  # (a review: the batch stopped)
    seven = {k: v for k, v in EX1.items() if k not in ("win_tile", "discarder")} | {
        "win_type": "eight_flowers", "flowers": "1234567f"}  # short in its flowers, not in a winning tile it has none of
    lines = [json.dumps(bad_meld), "{not json", json.dumps(bad_tiles), json.dumps(unknown), json.dumps(not_win),
             json.dumps(fifth), json.dumps(EX1), json.dumps(seven)]
    rc, out = _run(capsys, lines, tmp_path=tmp_path)
    results = [json.loads(line) for line in out.splitlines()]
    assert rc == 1 and len(results) == 8
    assert results[7]["error"]["kind"] == "not_a_win" and results[7]["error"]["field"] == "flowers"
    assert results[0]["error"]["field"] == "melds[0]"
    assert results[1]["error"]["kind"] == "json"
    assert results[2]["error"]["field"] == "concealed"
    assert results[3]["error"]["field"] == "seat"
    assert results[4]["error"]["kind"] == "not_a_win" and "9s" in results[4]["error"]["message"]
    assert results[5]["error"]["field"] == "melds[0]" and "5 copies of 5z" in results[5]["error"]["message"]
    assert "白板有 5 張" in results[5]["error"]["message_zh"]
    assert results[6]["hand_tai"] == 3


def test_discard_kong_replacement_is_reported_as_false_win(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    rc, out = _run(capsys, [json.dumps(DISCARD_KONG)], "--stakes", "30/10", tmp_path=tmp_path)
    result = json.loads(out)
    assert rc == 0 and result["false_win"] is True
    assert "drawn after a kong of another player's discard" in result["reason"] and "§" not in result["reason"]
    # spec §6.6: 8 tai to each other player, plus D (N = 0: 1) with the dealer
    assert [(p["payee"], p["amount"]) for p in result["payments"]] == [("W", 110), ("N", 110), ("E", 120)]


def test_stdin_and_profile_option(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    ex8 = {"concealed": "333z444z22z345s67s", "melds": ["pung:111z@O"], "win_tile": "8s", "win_type": "discard",
           "seat_wind": "W", "round_wind": "N", "discarder": "S"}
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(ex8) + "\n" + json.dumps(dict(ex8, profile="atawmj_2009"))))
    assert main(["tai", "--profile", "sml_2026"]) == 0
    a, b = (json.loads(line) for line in capsys.readouterr().out.splitlines())
    assert (a["profile"], a["hand_tai"]) == ("sml_2026", 12)  # spec §7 Example 8, last line
    assert (b["profile"], b["hand_tai"]) == ("atawmj_2009", 14)  # a line's own profile wins


def test_explain_in_both_languages(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rc, out = _run(capsys, [json.dumps(EX2)], "--explain", "--stakes", "30/10", tmp_path=tmp_path)
    assert rc == 0
    for word in ("自摸", "門風", "正花", "獨聽", "邊張", "手牌合計 4 台", "莊家 +3 台", "連1拉1", "東 → 南：7 台 = 100"):
        assert word in out
    rc, out = _run(capsys, [json.dumps(EX2)], "--explain", "--lang", "en", tmp_path=tmp_path)
    for word in ("Self-draw", "Seat-wind pung", "Seat flower", "Single wait", "edge", "Hand total 4 tai",
                 "Dealer +3 tai"):
        assert word in out


def test_explain_gives_dealer_tai_only_where_the_dealer_wins_or_pays(capsys: pytest.CaptureFixture[str],
                                                                    tmp_path: Path) -> None:
    third_party = {**EX1, "dealer": "E", "streak": 2}  # West wins on South's discard; the dealer East is neither
    rc, out = _run(capsys, [json.dumps(third_party)], "--explain", "--lang", "en", tmp_path=tmp_path)
    assert rc == 0 and "the dealer neither wins nor pays: no dealer tai" in out and "Dealer +" not in out
    rc, out = _run(capsys, [json.dumps({**third_party, "discarder": "E"})], "--explain", tmp_path=tmp_path)
    assert "莊家 +5 台（莊家 1、連2拉2）" in out and "不加莊家台" not in out


def test_house_profile_file_show_and_save(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    assert main(["tai", "--show-profile", "sml_2026"]) == 0
    text = capsys.readouterr().out
    house = tmp_path / "myhouse.toml"
    assert text.startswith("# A house profile from this: give it an id, name_zh and name_en of its own")
    house.write_text(text.replace('id = "sml_2026"', 'id = "myhouse"').replace("SML 2026", "Our SML"), encoding="utf-8")
    house.write_text(house.read_text(encoding="utf-8").replace("all_honours = 16", "all_honours = 12"),
                     encoding="utf-8")
    ex10 = {"concealed": "555z666z777z11z22z", "melds": ["pung:333z@R"], "win_tile": "1z", "win_type": "discard",
            "seat_wind": "N", "round_wind": "E", "discarder": "S"}
    rc, out = _run(capsys, [json.dumps(ex10)], "--profile", str(house), tmp_path=tmp_path)
    assert rc == 0 and json.loads(out)["hand_tai"] == 12 + 8 + 4 + 2 + 1
    assert main(["tai", "--save-profile", str(house)]) == 0
    assert (tmp_path / "data" / "profiles" / "myhouse.toml").is_file()
    capsys.readouterr()
    assert main(["tai", "--list-profiles"]) == 0
    assert "myhouse" in capsys.readouterr().out
    rc, out = _run(capsys, [json.dumps(dict(ex10, profile="myhouse"))], tmp_path=tmp_path)
    assert json.loads(out)["profile"] == "myhouse"
    saved = tmp_path / "data" / "profiles"  # one saved profile damaged: said, and the ones after it still listed
    (saved / "aaa.toml").write_text('id = "aaa"\n[tai\n', encoding="utf-8")
    assert main(["tai", "--list-profiles"]) == 1
    said = capsys.readouterr()
    assert "myhouse" in said.out and "aaa" not in said.out and "aaa.toml" in said.err


def test_saving_a_house_profile_over_one_of_its_id_needs_replace(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A review's second ``--save-profile`` of an id replaced the saved set without a word, its names and values
    gone (``calibrate`` asks --replace for the same). Refused naming the saved set and --replace; with it, replaced
    and said so, the id in the quotes every rule-set message says one in (it was in Python's: 'home8')."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    first, second = tmp_path / "first.toml", tmp_path / "second.toml"
    first.write_text('id = "home8"\ninherits = "atawmj_2009"\nname_zh = "週五"\nname_en = "Friday"\n', "utf-8")
    second.write_text('id = "home8"\ninherits = "atawmj_2009"\nname_zh = "新"\nname_en = "New"\n', "utf-8")
    saved = tmp_path / "data" / "profiles" / "home8.toml"
    assert main(["tai", "--save-profile", str(first)]) == 0
    capsys.readouterr()
    kept = saved.read_bytes()
    assert main(["tai", "--save-profile", str(second)]) == 2
    err = capsys.readouterr().err
    assert "the house profile “home8” (Friday) is saved already; give --replace" in err
    assert "已經存了自訂規則「home8」（週五）；要取代它請加上 --replace" in err and saved.read_bytes() == kept
    assert main(["tai", "--save-profile", str(second), "--replace"]) == 0
    out = capsys.readouterr().out
    assert "replaced “home8”: saved" in out and "已取代「home8」：已儲存" in out and "'" not in out
    assert 'name_en = "New"' in saved.read_text("utf-8")


def test_replace_without_save_profile_is_refused_naming_both(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """``tai --replace`` without ``--save-profile`` was left aside without a word, the hands scored (a review)."""
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(EX1) + "\n"))
    assert main(["tai", "--replace"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "--replace goes with --save-profile only" in err and "--replace 只能搭配 --save-profile" in err


def test_unknown_profile_is_a_clear_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["tai", "--profile", "atawmj_2010"]) == 2
    err = capsys.readouterr().err
    assert "unknown profile “atawmj_2010”" in err and "atawmj_2009" in err
    line = json.dumps(dict(EX1, profile="nope"))
    rc, out = _run(capsys, [line], tmp_path=tmp_path)
    assert rc == 1 and json.loads(out)["error"]["field"] == "profile"


def test_explain_flags_house_rule_values(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Spec §5.4: uncertain values are shown as house rules (天胡's value, 見風見台 of zhaishenye)."""
    heaven = {"concealed": "123m456m789m234p66s79s", "win_tile": "8s", "win_type": "self_draw", "seat_wind": "E",
              "round_wind": "E", "dealer": "E", "flags": {"heavenly": True}}
    _, out = _run(capsys, [json.dumps(heaven)], "--explain", tmp_path=tmp_path)
    assert "天胡" in out and "（各家規矩）" in out
    ex8 = {"concealed": "333z444z22z345s67s", "melds": ["pung:111z@O"], "win_tile": "8s", "win_type": "discard",
           "seat_wind": "W", "round_wind": "N", "discarder": "S"}
    _, out = _run(capsys, [json.dumps(ex8)], "--explain", "--lang", "en", "--profile", "zhaishenye",
                  tmp_path=tmp_path)
    line = next(x for x in out.splitlines() if x.startswith("Any wind pung"))
    assert "(house rule)" in line


def test_files_and_lines_that_are_not_text_or_too_deep_are_refused_by_name(capsys: pytest.CaptureFixture[str],
                                                                           tmp_path: Path) -> None:
    """Not UTF-8 (an input file, a house profile, one line's own profile), JSON nested past what Python parses,
    a second copy of a flower: each named, and the batch's other lines still scored."""
    latin = tmp_path / "bad.jsonl"  # a line that is not text among good ones, a byte-order mark first, a gap
    latin.write_bytes(b'\xef\xbb\xbf' + json.dumps(EX1).encode() + b'\n\xff\xfe{"a": 1}\n\n' + json.dumps(EX1).encode())
    missing = tmp_path / "missing.jsonl"
    assert main(["tai", str(latin), str(missing), str(latin)]) == 2  # a file unread: said, and the next one read
    said = capsys.readouterr()
    got = [json.loads(x) for x in said.out.splitlines()]
    assert [g.get("hand_tai") for g in got] == [3, None, 3] * 2 and "missing.jsonl: cannot read it" in said.err
    assert got[1]["error"]["line"] == 2 and got[1]["error"]["file"] == str(latin) and got[1]["error"]["kind"] == "text"
    assert "not UTF-8 text (byte 1" in got[1]["error"]["message"] and "不是 UTF-8 文字" in got[1]["error"]["message_zh"]
    monkey = pytest.MonkeyPatch()  # the same lines on standard input: the line by number, no file
    monkey.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(latin.read_bytes()), encoding="utf-8",
                                                 errors="strict"))
    try:
        assert main(["tai"]) == 1
    finally:
        monkey.undo()
    got = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [g.get("hand_tai") for g in got] == [3, None, 3] and got[1]["error"] | {"message": "", "message_zh": ""} == {
        "kind": "text", "field": None, "file": None, "line": 2, "message": "", "message_zh": ""}
    house = tmp_path / "latin.toml"
    house.write_bytes(b'\xff\xfeid = "x"\n')
    assert main(["tai", "--profile", str(house), str(latin)]) == 2
    assert "latin.toml”: not UTF-8 text" in capsys.readouterr().err
    assert main(["tai", "--lang", "en", "--profile", str(house), str(latin)]) == 2
    assert "not UTF-8 text" in (err := capsys.readouterr().err) and "不是" not in err  # English only where asked
    lines = [json.dumps({**EX1, "profile": str(house)}), "[" * 100_000 + "]" * 100_000,
             json.dumps({**EX1, "flowers": "11f"}), json.dumps(EX1)]
    rc, out = _run(capsys, lines, tmp_path=tmp_path)
    got = [json.loads(x) for x in out.splitlines()]
    assert rc == 1 and len(got) == 4
    assert got[0]["error"]["kind"] == "profile" and "not UTF-8" in got[0]["error"]["message"]
    assert got[1]["error"]["kind"] == "json" and "nested too deep" in got[1]["error"]["message"]
    assert got[2]["error"]["field"] == "flowers" and "2 copies of 1f" in got[2]["error"]["message"]
    assert got[3]["hand_tai"] == 3
    assert all(g["error"]["message_zh"] for g in got[:3])  # each error in Chinese too, for --explain's default
    from companion.commands.tai import explain

    buf = io.StringIO()
    explain(got[2], "zh", buf, "x")
    assert "欄位 flowers 有誤" in buf.getvalue()


def test_explain_marks_house_rules_and_says_what_other_tables_add(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    """Spec §5.4 item 6: 槓上開花 with 海底撈月. The default stacks them (海底撈月 marked); a profile that does not
    stack them, and lists that as a house rule, says another table would count it."""
    line = {"concealed": "123m456m789p22s78s", "melds": ["ckong:5555z"], "win_tile": "9s", "win_type": "self_draw",
            "seat_wind": "S", "round_wind": "E", "flags": {"replacement_after": "ckong", "last_tile": True}}
    rc, out = _run(capsys, [json.dumps(line)], "--explain", "--lang", "en", tmp_path=tmp_path)
    rows = {r.split("  ")[0]: r for r in out.splitlines()}
    assert rc == 0 and rows["Last-tile draw"].endswith("(house rule)")
    assert not rows["Win on a replacement"].endswith("(house rule)") and "some tables" not in out
    house = tmp_path / "apart.toml"
    house.write_text('inherits = "atawmj_2009"\nid = "apart"\nname_zh = "分開"\nname_en = "Apart"\n'
                     'house_rules = ["switches.kong_bloom_with_last_tile"]\n'
                     "[switches]\nkong_bloom_with_last_tile = false\n", encoding="utf-8")
    rc, out = _run(capsys, [json.dumps(line)], "--explain", "--lang", "en", "--profile", str(house),
                   tmp_path=tmp_path)
    assert rc == 0 and "Last-tile draw  " not in out
    assert "House rule: some tables also count “Last-tile draw” (1 tai) for this hand; this rule set does not (its " \
        "rule: Win on a replacement and last-tile draw stack: no)" in out
    rc, out = _run(capsys, [json.dumps(line)], "--profile", str(house), tmp_path=tmp_path)
    assert [i["id"] for i in json.loads(out)["house_rule_otherwise"]] == ["last_tile"]


def test_explain_says_the_caps_the_payments_count(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A rules review read "Hand total 18 tai · Dealer +5" beside payments of 21 under a cap of 16, and 連12拉12
    beside a dealer's 21 tai under a streak cap of 10: both caps are said where they bite."""
    house = tmp_path / "cap16.toml"
    house.write_text('id = "cap16"\ninherits = "atawmj_2009"\nname_zh = "封頂"\nname_en = "cap"\n\n[tai]\n\n'
                     '[switches]\ntai_cap = 16\n', encoding="utf-8")
    ex10 = {"concealed": "555z666z777z11z22z", "melds": ["pung:333z@R"], "win_tile": "1z", "win_type": "discard",
            "seat_wind": "N", "round_wind": "E", "discarder": "S"}
    rc, out = _run(capsys, [json.dumps(ex10)], "--explain", "--profile", str(house), tmp_path=tmp_path)
    assert rc == 0 and "（滿台 16 台）" in out
    rc, out = _run(capsys, [json.dumps(ex10)], "--explain", "--lang", "en", "--profile", str(house), tmp_path=tmp_path)
    assert "(capped at 16 tai)" in out
    rc, out = _run(capsys, [json.dumps(ex10)], "--explain", tmp_path=tmp_path)  # no cap: nothing said
    assert "滿台" not in out
    streak = dict(EX1, seat_wind="E", discarder="N", dealer="E", streak=12)  # the dealer wins
    rc, out = _run(capsys, [json.dumps(streak)], "--explain", "--profile", "star31", tmp_path=tmp_path)
    # the streak as counted, so that the parts add up to 21 (1 + 10 + 10), the real streak beside it (a change
    # review read 「連12拉12，算到上限 10」, parts adding up to 25)
    assert rc == 0 and "+21 台（莊家 1、連10拉10，連12算到上限 10）" in out, out
    rc, out = _run(capsys, [json.dumps(dict(streak, streak=9))], "--explain", "--profile", "star31", tmp_path=tmp_path)
    assert "（莊家 1、連9拉9）" in out
    # a cap of 0: the dealer's 1 alone, no parts that add up to more (a change review read 「莊家 +1 台（莊家 1、連2拉2，
    # 算到上限 0）」), and the table's cap said as the app says it, not "Streak tai counted up to: 0"
    none = json.dumps(dict(streak, streak=2, switches={"streak_cap": 0}))
    rc, out = _run(capsys, [none], "--explain", tmp_path=tmp_path)
    assert rc == 0 and "手牌合計 3 台 · 莊家 +1 台\n" in out and "上限 0" not in out, out
    assert "本桌規矩：不算連莊台\n" in out, out
    rc, out = _run(capsys, [none], "--explain", "--lang", "en", tmp_path=tmp_path)
    assert "House rules: no streak tai\n" in out and "up to: 0" not in out, out


def test_a_first_go_around_win_on_the_walls_last_tile_is_refused_naming_the_flag(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A rules review scored 地胡 with 海底撈月 (18 tai): a first draw is never the wall's last tile."""
    line = {"concealed": "123m456m789m234p66s78s", "win_tile": "9s", "win_type": "self_draw", "seat_wind": "S",
            "round_wind": "E", "flowers": "2f", "flags": {"earthly": True, "last_tile": True}}
    rc, out = _run(capsys, [json.dumps(line)], tmp_path=tmp_path)
    error = json.loads(out)["error"]
    assert rc != 0 and error["field"] == "flags.last_tile" and "地胡" in error["message_zh"], error
    del line["flags"]["last_tile"]  # 地胡 alone stands
    rc, out = _run(capsys, [json.dumps(line)], tmp_path=tmp_path)
    assert rc == 0 and "error" not in json.loads(out)


def test_a_dealer_other_than_east_is_refused_where_the_winds_count_from_the_dealer(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Under dealer_east (the default, spec §2.15) the dealer is East: a line with the dealer North is two tables
    at once, refused naming the field; a rule set with fixed seats scores it (the dealer North neither wins nor pays)."""
    from companion.rules.scoring import score
    from companion.rules.win import Win, WinInputError

    line = {**EX1, "dealer": "N", "streak": 2}
    rc, out = _run(capsys, [json.dumps(line)], tmp_path=tmp_path)
    error = json.loads(out)["error"]
    assert rc == 1 and error["field"] == "dealer" and "莊家坐東" in error["message_zh"] and "not N" in error["message"]
    rc, out = _run(capsys, [json.dumps(line)], "--profile", "wikibooks_base", tmp_path=tmp_path)
    assert rc == 0 and [p["dealer_tai"] for p in json.loads(out)["payments"]] == [0]
    with pytest.raises(WinInputError, match="^dealer: "):
        score(Win.from_dict(line))


def test_the_help_lists_every_field_of_a_hand(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A first-use review found the fields of a hand's JSON only in the source; the help lists them all."""
    from companion.commands.tai import FIELDS
    from companion.rules._win_json import FLAG_KEYS, TOP_KEYS

    assert all(f"    {key} " in FIELDS for key in TOP_KEYS)
    assert all(f'"{flag}"' in FIELDS for flag in FLAG_KEYS)
    example = next(line for line in FIELDS.splitlines() if line.strip().startswith("echo '"))
    hand = json.loads(example.split("'")[1])  # one hand a line, as tai reads it (a review pasted two lines)
    monkeypatch.setattr("sys.stdin", io.StringIO(example.split("'")[1] + "\n"))
    assert set(hand) <= TOP_KEYS and main(["tai"]) == 0 and json.loads(capsys.readouterr().out)["hand_tai"] > 0


@pytest.mark.parametrize(("change", "field", "words"), [
    ({"streak": 100_000}, "streak", "surely a typo"),  # it paid 200,001 dealer tai unsaid (a review)
    ({"streak": 100}, "streak", "surely a typo"),
    ({"stakes": {"base": 10**30, "per_tai": 10}}, "stakes", "too large"),
    ({"melds": 0}, "melds", "expected a list"),  # 0, false and "" were taken as no melds
    ({"melds": False}, "melds", "expected a list"),
    ({"melds": ""}, "melds", "expected a list"),
])
def test_an_impossible_line_is_refused_naming_its_field(change: dict[str, object], field: str, words: str,
                                                          capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    rc, out = _run(capsys, [json.dumps({**EX1, **change})], tmp_path=tmp_path)
    error = json.loads(out)["error"]
    assert rc == 1 and error["field"] == field and words in error["message"], error
    assert "{" not in error["message_zh"] and error["message_zh"] != error["message"]


def test_the_streak_and_stakes_a_table_can_play_are_taken(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    line = {**EX1, "seat_wind": "E", "dealer": "E", "streak": 99, "stakes": {"base": 10_000_000, "per_tai": 10_000_000}}
    rc, out = _run(capsys, [json.dumps(line), json.dumps({**EX1, "melds": None})], tmp_path=tmp_path)
    first, second = (json.loads(x) for x in out.splitlines())
    assert rc == 0 and first["dealer_tai"] == 1 + 2 * 99 and "error" not in second


def test_stakes_on_the_command_line_past_a_table_s_are_refused(capsys: pytest.CaptureFixture[str],
                                                               tmp_path: Path) -> None:
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(EX1) + "\n", encoding="utf-8")
    rc = main(["tai", str(path), "--stakes", "99999999999/1"])
    err = capsys.readouterr().err
    assert rc == 2 and "--stakes" in err and "10,000,000" in err, err


def test_explain_says_a_limit_penalty_is_one_payment_shared_and_a_dealer_tai_of_none(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A settlement review read "North → East: 8 tai = 37" beside 37, 37 and 36 (one limit of 110 split three ways,
    spec §6.6), "Dealer +3 tai (streak 1)" where 連1拉1 counts the pull too, and "Dealer +0 tai (streak 2)" under a
    house file that counts no dealer tai."""
    house = tmp_path / "limit.toml"
    house.write_text('id = "lim"\ninherits = "atawmj_2009"\nname_zh = "限額"\nname_en = "limit"\n\n[switches]\n'
                     'min_tai = 2\nfalse_win_penalty = "limit"\n', encoding="utf-8")
    low = {"concealed": "789m11p66z", "win_tile": "1p", "win_type": "discard", "seat_wind": "N", "round_wind": "N",
           "melds": ["pung:222m@L", "chow:567m@L", "chow:567m@L"], "dealer": "E", "streak": 1, "discarder": "W"}
    rc, out = _run(capsys, [json.dumps(low)], "--explain", "--stakes", "30/10", "--profile", str(house),
                   tmp_path=tmp_path)
    assert rc == 0 and "詐胡罰滿台 8 台＝110，由另外三家平分：" in out
    assert [line.strip() for line in out.splitlines()[-3:]] == ["北 → 東：37", "北 → 南：37", "北 → 西：36"]
    rc, out = _run(capsys, [json.dumps(low)], "--explain", "--lang", "en", "--stakes", "30/10", "--profile", str(house),
                   tmp_path=tmp_path)
    assert rc == 0 and "one limit payment, 8 tai = 110, split among the other three" in out and "tai = 37" not in out
    rc, out = _run(capsys, [json.dumps(low)], "--explain", "--lang", "en", "--profile", str(house), tmp_path=tmp_path)
    assert rc == 0 and out.splitlines()[-1] == ("False-win penalty: one limit payment, 8 tai, split among the other "
                                                "three (the shares need --stakes)")  # not "8 tai" from each (a change review)
    rc, out = _run(capsys, [json.dumps(dict(EX1, seat_wind="E", discarder="N", dealer="E", streak=1))], "--explain",
                   "--lang", "en", tmp_path=tmp_path)
    assert rc == 0 and "Dealer +3 tai (dealer 1, dealer continuation 1 and streak pull 1)" in out
    none = tmp_path / "nodealer.toml"
    none.write_text('id = "nodealer"\ninherits = "atawmj_2009"\nname_zh = "不算莊"\nname_en = "no dealer tai"\n\n'
                    '[tai]\ndealer = 0\nstreak = 0\nstreak_pull = 0\n', encoding="utf-8")
    rc, out = _run(capsys, [json.dumps(dict(EX1, seat_wind="E", discarder="N", dealer="E", streak=2))], "--explain",
                   "--lang", "en", "--profile", str(none), tmp_path=tmp_path)
    assert rc == 0 and "this rule set counts no dealer tai" in out and "Dealer +0" not in out


def test_a_house_file_counting_the_streak_alone_is_not_said_to_count_no_dealer_tai(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`dealer = 0` with the streak still counted: +0 at streak 0 and +4 at streak 2, never "counts no dealer tai"
    (a change review found the first version said so at streak 0)."""
    house = tmp_path / "streakonly.toml"
    house.write_text('id = "streakonly"\ninherits = "atawmj_2009"\nname_zh = "只算連莊"\nname_en = "streak only"\n\n'
                     '[tai]\ndealer = 0\n', encoding="utf-8")
    for streak, said in ((0, "Dealer +0 tai"), (2, "Dealer +4 tai (dealer continuation 2 and streak pull 2)")):
        rc, out = _run(capsys, [json.dumps(dict(EX1, seat_wind="E", discarder="N", dealer="E", streak=streak))],
                       "--explain", "--lang", "en", "--profile", str(house), tmp_path=tmp_path)
        assert rc == 0 and said in out and "counts no dealer tai" not in out, out


def test_explain_says_the_dealers_tai_by_the_parts_the_rule_set_counts(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A review: a house set counting 連莊 alone (莊家 and 拉莊 at 0) printed "Dealer +12 tai (streak 12 and pull 12)"
    at streak 12, parts adding up to 24. Each part is the set's own value, adding up to the tai: 連莊 alone, 連莊 at 2
    a hand, and a set counting the dealer alone (no streak said)."""
    dealer = dict(EX1, seat_wind="E", discarder="N", dealer="E", streak=12)
    for tai, zh, en in (("dealer = 0\nstreak_pull = 0", "莊家 +12 台（連12）", "Dealer +12 tai (dealer continuation 12)"),
                        ("streak = 2\nstreak_pull = 0", "莊家 +25 台（莊家 1、連12（每次 2 台））",
                         "Dealer +25 tai (dealer 1, dealer continuation 12 (2 tai each))"),
                        # a 2-tai 連莊 beside 拉莊 (a change review read 「連12，每次 2 台拉12」)
                        ("streak = 2", "莊家 +37 台（莊家 1、連12（每次 2 台）、拉12）",
                         "Dealer +37 tai (dealer 1, dealer continuation 12 (2 tai each) and streak pull 12)"),
                        ("streak = 0\nstreak_pull = 0", "莊家 +1 台\n", "Dealer +1 tai\n")):
        house = tmp_path / "d.toml"
        house.write_text(f'id = "d"\ninherits = "atawmj_2009"\nname_zh = "莊"\nname_en = "d"\n\n[tai]\n{tai}\n',
                         encoding="utf-8")
        rc, out = _run(capsys, [json.dumps(dealer)], "--explain", "--profile", str(house), tmp_path=tmp_path)
        assert rc == 0 and zh in out, out
        rc, out = _run(capsys, [json.dumps(dealer)], "--explain", "--lang", "en", "--profile", str(house),
                       tmp_path=tmp_path)
        assert rc == 0 and en in out, out


def test_explain_says_a_capped_hands_payment_with_the_dealers_tai_as_the_cap_and_the_dealers_apart(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A review read "Hand total 9 tai (capped at 8 tai) · Dealer +1 tai" then "South → East: 9 tai = 120": the 9 is
    8 + 1, read as the cap not applied. It says "(8 + 1) tai = 120", as the Ledger does; a payment without the
    dealer's tai, or of a hand under the cap, as before."""
    house = tmp_path / "cap6.toml"
    house.write_text('id = "cap6"\ninherits = "atawmj_2009"\n[switches]\ntai_cap = 6\n', encoding="utf-8")
    # the dealer's self-draw: concealed 1, concealed self-draw 1, self-draw 1, seat flower 1, two dragon pungs 2
    dealer = {"concealed": "123m56m555z666z234p11s", "win_tile": "4m", "win_type": "self_draw", "seat_wind": "E",
              "round_wind": "E", "flowers": "1f5f"}
    rc, out = _run(capsys, [json.dumps(dealer)], "--explain", "--lang", "en", "--stakes", "30/10", "--profile",
                   str(house), tmp_path=tmp_path)
    assert rc == 0 and "Hand total 7 tai (capped at 6 tai) · Dealer +1 tai" in out
    assert [line.strip() for line in out.splitlines()[-3:]] == [
        "South → East: (6 + 1) tai = 100", "West → East: (6 + 1) tai = 100", "North → East: (6 + 1) tai = 100"]
    rc, out = _run(capsys, [json.dumps(dealer)], "--explain", "--lang", "zh", "--profile", str(house),
                   tmp_path=tmp_path)
    assert rc == 0 and [line.strip() for line in out.splitlines()[-3:]] == ["南 → 東：(6 + 1) 台", "西 → 東：(6 + 1) 台",
                                                                          "北 → 東：(6 + 1) 台"]
    # South wins it: the dealer's payment carries his tai, the others' do not; and uncapped it says the sum
    south = dict(dealer, seat_wind="S", flowers="2f6f")  # (7 tai: both seat flowers)
    rc, out = _run(capsys, [json.dumps(south)], "--explain", "--lang", "en", "--stakes", "30/10", "--profile",
                   str(house), tmp_path=tmp_path)
    assert rc == 0 and [line.strip() for line in out.splitlines()[-3:]] == [
        "West → South: 6 tai = 90", "North → South: 6 tai = 90", "East → South: (6 + 1) tai = 100"]
    rc, out = _run(capsys, [json.dumps(south)], "--explain", "--lang", "en", "--stakes", "30/10", tmp_path=tmp_path)
    assert rc == 0 and "East → South: 8 tai = 110" in out and "(" not in out.splitlines()[-1]


def test_a_records_rules_are_scored_with_and_a_bad_one_is_said_naming_it(capsys: pytest.CaptureFixture[str],
                                                                       tmp_path: Path) -> None:
    """A ledger's record of a house set carries every value its table kept (``rules``): scored with them, not a
    file's, with the default's where one is left out; a bad one is an error naming ``rules`` and the key, and the
    batch goes on."""
    dealer = {"concealed": "123m56m555z666z234p11s", "win_tile": "4m", "win_type": "self_draw", "seat_wind": "E",
              "round_wind": "E", "flowers": "1f5f", "profile": "nowhere"}
    good = dict(dealer, rules={"name_zh": "週五家規", "name_en": "Friday house", "tai": {"seat_flower": 2},
                               "switches": {"tai_cap": 8}})
    bad = [dict(dealer, rules=5), dict(dealer, rules={"tai": {"seat_flowr": 2}}), dict(dealer, rules={"id": "x"}),
           dict(dealer, rules={"switches": {"tai_cap": -1}}), dict(dealer, rules={"tai": [1]})]
    rc, out = _run(capsys, [json.dumps(good), *map(json.dumps, bad)], tmp_path=tmp_path)
    first, *errors = [json.loads(x) for x in out.splitlines()]
    assert rc == 1 and (first["profile"], first["hand_tai"], first["capped_tai"]) == ("nowhere", 9, 8)
    assert [e["error"]["field"] for e in errors] == ["rules"] * len(bad)
    said = [e["error"]["message"] for e in errors]
    assert "expected an object of the rule set's values" in said[0] and said[0].endswith("got “5”")
    assert errors[0]["error"]["message_zh"].endswith("收到「5」")
    assert "unknown tai item “seat_flowr” (did you mean “seat_flower”?)" in said[1]
    assert "unknown key “id”" in said[2] and "tai_cap" in said[3] and "[tai] must be a table" in said[4]
    assert all(not e["error"]["message_zh"].startswith("rules") for e in errors)  # (named by the field, once)
    rc, out = _run(capsys, [json.dumps(good)], "--explain", "--lang", "en", tmp_path=tmp_path)
    assert rc == 0 and "Rules: Friday house (nowhere)" in out and "Seat flower ×2            4" in out


def test_explain_says_as_seated_where_a_records_rules_are_not_its_sets_file_here(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A change review read "Profile: home8 (Friday house)" beside 9 tai for a record scored with its own ``rules``
    and beside 7 for the same hand scored with the set's file as edited since: the record's own values, where the
    set of that id here no longer has them, are said "(as seated)" as the app's screens say it, and its JSON says
    ``profile_as_seated``."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    from companion.rules.profiles import load_profile
    from companion.rules.profiles._store import record_rules

    house = tmp_path / "home8.toml"
    house.write_text('id = "home8"\ninherits = "atawmj_2009"\nname_zh = "週五家規"\nname_en = "Friday house"\n'
                     "[tai]\nseat_flower = 2\n[switches]\ntai_cap = 8\n", encoding="utf-8")
    assert main(["tai", "--save-profile", str(house)]) == 0
    capsys.readouterr()
    hand = {"concealed": "123m56m555z666z234p11s", "win_tile": "4m", "win_type": "self_draw", "seat_wind": "E",
            "round_wind": "E", "flowers": "1f5f", "stakes": {"base": 30, "per_tai": 10}}
    record = dict(hand, profile="home8", rules=record_rules(load_profile("home8")))

    def told(line: dict[str, object], lang: str) -> tuple[str, str]:
        rc, out = _run(capsys, [json.dumps(line)], "--explain", "--lang", lang, tmp_path=tmp_path)
        assert rc == 0
        return out.splitlines()[1], out.splitlines()[-1].strip()

    def as_seated(line: dict[str, object]) -> object:
        rc, out = _run(capsys, [json.dumps(line)], tmp_path=tmp_path)
        assert rc == 0
        return json.loads(out)["profile_as_seated"]

    # the file says what the record kept: its plain name
    assert told(record, "en") == ("Rules: Friday house (home8)", "North → East: (8 + 1) tai = 120")
    assert told(record, "zh")[0] == "規則：週五家規（home8）" and as_seated(record) is False
    # the file edited since: the record still scores as played, said as seated; the file's own hand is not
    house.write_text(house.read_text(encoding="utf-8").replace("seat_flower = 2", "seat_flower = 1"), "utf-8")
    assert main(["tai", "--save-profile", str(house), "--replace"]) == 0
    capsys.readouterr()
    assert told(record, "en") == ("Rules: Friday house (home8) (as seated)", "North → East: (8 + 1) tai = 120")
    assert told(record, "zh")[0] == "規則：週五家規（home8）（入座時的版本）" and as_seated(record) is True
    plain = {k: v for k, v in record.items() if k != "rules"}
    assert told(plain, "en") == ("Rules: Friday house (home8)", "North → East: 8 tai = 110")
    assert as_seated(plain) is False
    # the file deleted: as seated too
    (tmp_path / "data" / "profiles" / "home8.toml").unlink()
    assert told(record, "en")[0] == "Rules: Friday house (home8) (as seated)" and as_seated(record) is True
    # a built-in set's record as an earlier version kept it (seat flower 2, cap 8), beside the set as it is now
    old = {**record["rules"], "name_zh": "中華競技麻將 2009", "name_en": "ATAWMJ 2009 (default)"}
    builtin = dict(hand, profile="atawmj_2009", rules=old)
    # (its earlier English name, "ATAWMJ 2009 (default)", read as its name now: a language review read it nested)
    assert told(builtin, "en")[0] == "Rules: ATAWMJ 2009 (atawmj_2009) (as seated)"
    assert told(dict(hand, profile="atawmj_2009"), "en")[0] == "Rules: ATAWMJ 2009 (atawmj_2009)"
    now = dict(hand, profile="atawmj_2009", rules=record_rules(load_profile("atawmj_2009")))
    assert told(now, "zh")[0] == "規則：中華競技麻將 2009（atawmj_2009）" and as_seated(now) is False
    # a record of the set as it is now but written under its earlier name: not "as seated" for a name alone
    renamed = dict(now, rules={**now["rules"], "name_en": "ATAWMJ 2009 (default)"})  # type: ignore[dict-item]
    assert told(renamed, "en")[0] == "Rules: ATAWMJ 2009 (atawmj_2009)" and as_seated(renamed) is False


def test_a_records_rules_without_a_profile_are_said_as_the_records_not_as_a_profile_named_rules(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A review: a win record carrying ``rules`` but no ``profile`` (one from ``replay --json`` with its profile taken
    out) was said "Profile: rules (Friday house) (as seated)", and without names "rules (rules)": a key printed as
    a name. It is said by the name the record gives its rules, else as the rules the record carries, "(as seated)"
    as a record with a profile is; its JSON names no profile."""
    from companion.rules.profiles import load_profile
    from companion.rules.profiles._store import record_rules

    hand = {"concealed": "123m56m555z666z234p11s", "win_tile": "4m", "win_type": "self_draw", "seat_wind": "E",
            "round_wind": "E", "flowers": "1f5f"}
    kept = {**record_rules(load_profile("atawmj_2009")), "name_zh": "週五家規", "name_en": "Friday house"}
    bare = {k: v for k, v in kept.items() if k not in ("name_zh", "name_en")}
    zh_only = {**bare, "name_zh": "週五家規"}

    def heads(rules: dict[str, object]) -> tuple[str, str]:
        said = []
        for lang in ("en", "zh"):
            rc, out = _run(capsys, [json.dumps(dict(hand, rules=rules))], "--explain", "--lang", lang,
                           tmp_path=tmp_path)
            assert rc == 0, out
            said.append(out.splitlines()[1])
        return said[0], said[1]

    assert heads(kept) == ("Rules: Friday house (as seated)", "規則：週五家規（入座時的版本）")
    assert heads(bare) == ("Rules: the rules this record carries (as seated)", "規則：這筆紀錄帶的規則（入座時的版本）")
    assert heads(zh_only) == ("Rules: the rules this record carries (as seated)", "規則：週五家規（入座時的版本）")
    rc, out = _run(capsys, [json.dumps(dict(hand, rules=kept))], tmp_path=tmp_path)
    result = json.loads(out)
    assert rc == 0 and result["profile"] is None and result["profile_as_seated"] is True
    assert not any(k.startswith("_") for k in result)
    # a false win's record too
    false = dict(DISCARD_KONG, rules=kept)  # (§2.10 under the default's switches the record keeps)
    rc, out = _run(capsys, [json.dumps(false)], "--explain", "--lang", "en", tmp_path=tmp_path)
    assert "False win" in out and out.splitlines()[1] == "Rules: Friday house (as seated)", out


def test_a_records_rules_with_no_payable_cap_are_named_not_the_profiles_file(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A change review: a record whose ``rules`` had min_tai above tai_cap (or a cap of 0) was blamed on the field
    ``profile``, "profile 'home8': …", though the host's file was fine; it names the record's ``rules``, as every
    other bad value of them is named, and a cap the line's ``switches`` make unpayable names ``switches``."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    house = tmp_path / "home8.toml"
    house.write_text('id = "home8"\ninherits = "atawmj_2009"\nname_zh = "週五家規"\nname_en = "Friday house"\n',
                     encoding="utf-8")
    assert main(["tai", "--save-profile", str(house)]) == 0
    capsys.readouterr()
    hand = {"concealed": "123m56m555z666z234p11s", "win_tile": "4m", "win_type": "self_draw", "seat_wind": "E",
            "round_wind": "E", "flowers": "1f5f", "profile": "home8"}
    lines = [dict(hand, rules={"switches": {"tai_cap": 4, "min_tai": 6}}), dict(hand, rules={"switches": {"tai_cap": 0}}),
             dict(hand, switches={"tai_cap": 4, "min_tai": 6}),
             dict(hand, rules={"switches": {"tai_cap": 4}}, switches={"min_tai": 6})]
    rc, out = _run(capsys, [json.dumps(x) for x in lines], tmp_path=tmp_path)
    errors = [json.loads(x)["error"] for x in out.splitlines()]
    assert rc == 1 and [(e["kind"], e["field"]) for e in errors] == [("input", "rules")] * 2 + [("input", "switches")] * 2
    assert errors[0]["message"] == ("rules: Minimum tai (min_tai, 6) is above the tai cap (tai_cap, 4): no win could be "
                                    "paid what it needs")
    assert errors[0]["message_zh"].startswith("欄位 rules 有誤：起胡台數（min_tai，6）大於滿台（tai_cap，4）")
    assert "home8" not in errors[0]["message"] + errors[0]["message_zh"]
    assert errors[1]["message"].startswith("rules: Tai cap (tai_cap) must be “no cap” (none) or a whole number 1 or "
                                           "more (e.g. 8); got “0”")
    assert errors[2]["message"].startswith("switches: Minimum tai (min_tai, 6) is above the tai cap (tai_cap, 4)")
    # a file of its own with such a cap is still the profile's
    house.write_text(house.read_text(encoding="utf-8") + "[switches]\ntai_cap = 4\nmin_tai = 6\n", "utf-8")
    rc, out = _run(capsys, [json.dumps(dict(hand, profile=str(house)))], tmp_path=tmp_path)
    assert rc == 1 and json.loads(out)["error"]["field"] == "profile"


@pytest.mark.parametrize("lang", [None, "en"])
def test_a_house_file_edited_by_hand_with_a_choice_it_lacks_is_said_by_its_names(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, lang: str | None) -> None:
    """`companion tai --profile FILE` said "switch multi_win must be one of nearest, all, …": English words with
    codes, the Chinese the same codes; now the switch and each choice by the names the app shows, key and values
    in brackets for the host to mend the file."""
    house = tmp_path / "home8.toml"
    house.write_text('id = "home8"\ninherits = "atawmj_2009"\n[switches]\nmulti_win = "everyone"\n', encoding="utf-8")
    assert main(["tai", "--profile", str(house), *(["--lang", lang] if lang else [])]) == 2
    err = capsys.readouterr().err
    assert "Several winners on one discard (multi_win) must be one of “the nearest wins” (nearest)" in err
    assert ("一炮多響（multi_win）只能是「截胡（最近的一家胡）」（nearest）" in err) is (lang is None)



def test_an_item_other_tables_add_is_said_with_the_rule_that_leaves_it_out(capsys: pytest.CaptureFixture[str],
                                                                          tmp_path: Path) -> None:
    """A review's plain hand with one flower read "some tables also count 'Plain hand' (2 tai); this rule set does
    not", as if it had no 平胡, while the same hand without the flower scored it: the rule that leaves it out is said."""
    line = {"concealed": "123m456m789m234p55s67s", "melds": [], "flowers": "1f", "win_tile": "8s",
            "win_type": "discard", "discarder": "S", "seat_wind": "W", "round_wind": "E"}
    rc, out = _run(capsys, [json.dumps(line)], "--explain", "--lang", "en", tmp_path=tmp_path)
    assert rc == 0 and "some tables also count “Plain hand” (2 tai) for this hand; this rule set does not (its " \
        "rule: \u201cPlain hand: no honours, no flowers\u201d)" in out
    rc, out = _run(capsys, [json.dumps(line)], "--explain", tmp_path=tmp_path)
    assert rc == 0 and "有的牌桌這手另計「平胡」2 台；這套規則不計（它的規矩：平胡無字無花）" in out
    from companion.app.ledger_model import marked_items  # the app's card says it alike
    from companion.rules.scoring import score
    from companion.rules.win import Win

    notes = marked_items(score(Win.from_dict(line)))[1]
    assert [n.en for n in notes] == ["Some tables also count “Plain hand” (2 tai) for this hand; this rule set does "
                                     "not (its rule: \u201cPlain hand: no honours, no flowers\u201d)"]
    assert notes[0].zh == "有的牌桌這手另計「平胡」2 台；這套規則不計（它的規矩：平胡無字無花）"


def test_an_empty_file_is_said_to_hold_no_hand(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    # `tai empty.jsonl --explain` printed nothing and ended 0, where replay says "no events to replay" (a review)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n  \n", encoding="utf-8")
    rc = main(["tai", str(empty), "--explain"])
    out, err = capsys.readouterr()
    assert rc == 2 and out == "" and f"no hand in {empty}" in err and f"{empty} 裡沒有任何一手牌" in err


@pytest.mark.parametrize("args", [[], ["-"]])
def test_empty_standard_input_is_said_to_hold_no_hand(args: list[str], capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """``tai < /dev/null`` printed nothing and ended 0, where an empty file says it holds no hand and ends 2; and
    ``tai - < /dev/null`` looked for a file named ``-`` ("cannot read it"): ``-`` is standard input, as the
    convention has it (a review)."""
    monkeypatch.setattr("sys.stdin", io.StringIO("\n  \n"))
    assert main(["tai", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "no hand on standard input" in err and "標準輸入沒有任何一手牌" in err
    assert "cannot read" not in err


def test_a_dash_reads_standard_input_among_the_files(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """``tai wins.jsonl -``: the file's hands, then standard input's, in that order."""
    wins = tmp_path / "wins.jsonl"
    wins.write_text(json.dumps({**EX1, "id": "file"}) + "\n", encoding="utf-8")
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps({**EX1, "id": "piped"}) + "\n"))
    assert main(["tai", str(wins), "-"]) == 0
    assert [json.loads(x)["id"] for x in capsys.readouterr().out.splitlines()] == ["file", "piped"]


def test_an_unknown_profile_lists_the_saved_house_ones_too(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # `tai --profile h8` listed only the built-in rule sets, not the house set h9 saved beside them (a review)
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    house = tmp_path / "h9.toml"
    house.write_text('id = "h9"\nname_zh = "家規"\nname_en = "Home"\ninherits = "atawmj_2009"\n', encoding="utf-8")
    assert main(["tai", "--save-profile", str(house)]) == 0
    capsys.readouterr()
    assert main(["tai", "--profile", "h8"]) == 2
    err = capsys.readouterr().err
    assert "built in are atawmj_2009" in err and "saved here: h9" in err and "已存的自訂規則有 h9" in err


def test_standard_input_given_twice_is_read_once_and_the_second_refused(capsys: pytest.CaptureFixture[str],
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """``tai - - < g.jsonl`` scored the hand, then read standard input again and said "no hand on standard input"
    (a review): it is read once, and the second ``-`` refused by its name."""
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps({**EX1, "id": "twice"}) + "\n"))
    assert main(["tai", "--lang", "en", "-", "-"]) == 2
    out, err = capsys.readouterr()
    assert [json.loads(x)["id"] for x in out.splitlines()] == ["twice"]
    assert "no hand on standard input" not in err, err
    assert "“-”" in err and "standard input" in err and "once" in err, err


def test_a_lines_own_switches_are_said_as_the_tables_rules_not_the_profiles(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A house-rules review gave a plain 3-tai hand "switches": {"min_tai": 5}: --explain said "Profile: atawmj_2009"
    and "below the minimum 5 of profile atawmj_2009", whose minimum is 0. The header and the reason say the
    minimum is the table's own, and the set's."""
    line = json.dumps({**EX1, "switches": {"min_tai": 5}})
    rc, out = _run(capsys, [line], tmp_path=tmp_path)
    result = json.loads(out)
    assert rc == 0 and result["false_win"] is True
    assert "of profile atawmj_2009" not in result["reason"]
    # said alike in both languages, with no switch's id (a change review read "(switches: min_tai; …)" and
    # 「（本桌自己的規矩 min_tai；…）」)
    # a set without a minimum has none, not "0" (a change review)
    assert "(the table's own minimum; ATAWMJ 2009 has no minimum)" in result["reason"]
    assert "（本桌規矩的起胡台數；「中華競技麻將 2009」本身不限台數）" in result["reason_zh"]
    assert "min_tai" not in result["reason"] + result["reason_zh"]
    # the table's own rules a list on a line of their own (a review read "; the table's own rules: Minimum tai: 5",
    # colons in colons, capitals mid-sentence)
    wide = json.dumps({**EX1, "switches": {"min_tai": 5, "discard_kong_replacement_win": "kong_bloom"}})
    _, en = _run(capsys, [wide], "--explain", "--lang", "en", tmp_path=tmp_path)
    assert "Rules: ATAWMJ 2009 (atawmj_2009)\nHouse rules: minimum tai 5; a win on a discard kong's " \
           "replacement (scored as a win on a replacement)\n" in en, en
    _, zh = _run(capsys, [wide], "--explain", "--lang", "zh", tmp_path=tmp_path)
    assert "規則：中華競技麻將 2009（atawmj_2009）\n本桌規矩：起胡台數 5、明槓後補牌胡（算槓上開花）\n" in zh, zh
    # a discard kong's replacement allowed by the set, forbidden by the line: the table's rule too
    house = tmp_path / "kongwin.toml"
    house.write_text('id = "kongwin"\ninherits = "atawmj_2009"\n[switches]\ndiscard_kong_replacement_win = "self_draw"\n',
                     encoding="utf-8")
    kong = json.dumps({**DISCARD_KONG, "switches": {"discard_kong_replacement_win": "forbidden"}})
    _, out = _run(capsys, [kong], "--profile", str(house), tmp_path=tmp_path)
    said = json.loads(out)
    assert said["reason"].startswith("the house rules do not allow a win on the replacement"), said
    assert "照本桌規矩不能拿來胡" in said["reason_zh"] and "switches" not in said["reason"], said
    # the set's own minimum, the set's name, as before
    _, out = _run(capsys, [json.dumps({**EX1, "profile": "sml_2026"})], "--explain", "--lang", "en", tmp_path=tmp_path)
    assert "the table's own rules" not in out


def test_explain_names_the_rule_set_by_its_name_first_its_id_after(capsys: pytest.CaptureFixture[str],
                                                                    tmp_path: Path) -> None:
    """A review read "Profile: atawmj_2009 (ATAWMJ 2009)" and 「規則：atawmj_2009（中華競技麻將 2009）」: the id first
    reads as code. The header says the rules by the name the app and the replay give them, the id (what --profile
    takes) after it, and only the name where the name is the id."""
    for lang, head in (("en", "Rules: SML 2026 league (sml_2026)"), ("zh", "規則：SML 2026 聯賽（sml_2026）")):
        rc, out = _run(capsys, [json.dumps({**EX1, "profile": "sml_2026"})], "--explain", "--lang", lang,
                       tmp_path=tmp_path)
        assert rc == 0 and out.splitlines()[1] == head, out
    bare = tmp_path / "bare1.toml"  # no names of its own: said by its id, once
    bare.write_text('id = "bare1"\ninherits = "atawmj_2009"\n', encoding="utf-8")
    rc, out = _run(capsys, [json.dumps(EX1)], "--explain", "--lang", "en", "--profile", str(bare), tmp_path=tmp_path)
    assert rc == 0 and out.splitlines()[1] == "Rules: bare1", out


def test_a_tables_own_minimum_over_a_sets_own_says_the_sets(capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    """A table's minimum of 5 over a set whose own is 3 says the set's 3 (one with none says it has none)."""
    house = tmp_path / "m3.toml"
    house.write_text('id = "m3"\ninherits = "atawmj_2009"\nname_zh = "三台"\nname_en = "Three"\n[switches]\n'
                     'min_tai = 3\n', encoding="utf-8")
    rc, out = _run(capsys, [json.dumps({**EX1, "switches": {"min_tai": 5}})], "--profile", str(house),
                   tmp_path=tmp_path)
    result = json.loads(out)
    assert rc == 0 and result["false_win"] is True
    assert "(the table's own minimum; Three's own is 3)" in result["reason"]
    assert "（本桌規矩的起胡台數；「三台」原本是 3 台）" in result["reason_zh"]


@pytest.mark.parametrize(("penalty", "zh", "en"), [
    ("fixed8_plus_dealer", "詐胡罰 8 台 · 莊家 +3 台（莊家 1、連1拉1；莊家付或收的才加）",
     "False-win penalty: 8 tai · dealer +3 tai (dealer 1, dealer continuation 1 and streak pull 1; on what the dealer "
     "pays or is paid)"),
    ("claimed_tai", "詐胡罰 0 台 · 莊家 +3 台（莊家 1、連1拉1；莊家付或收的才加）",
     "False-win penalty: 0 tai · dealer +3 tai (dealer 1, dealer continuation 1 and streak pull 1; on what the dealer "
     "pays or is paid)"),
    ("none", "這套規則詐胡不罰，不用付錢", "False-win penalty: none under these rules, nothing is paid"),
])
def test_explain_says_the_false_win_penalty_the_payments_make(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                              penalty: str, zh: str, en: str) -> None:
    """A settlement review: below ``min_tai`` (a 詐胡, spec §6.4) --explain gave the reason and then payments of 8 and
    11 tai with nothing saying they were the penalty and the dealer's 3 tai (§6.6); under ``none`` it said nothing of
    money at all. The line under the reason says the penalty, as the hand's end card does, in each language."""
    house = tmp_path / "pen.toml"
    house.write_text(f'id = "pen"\ninherits = "atawmj_2009"\nname_zh = "罰"\nname_en = "pen"\n\n[switches]\n'
                     f'min_tai = 2\nfalse_win_penalty = "{penalty}"\n', encoding="utf-8")
    low = {"concealed": "789m11p66z", "win_tile": "1p", "win_type": "discard", "seat_wind": "N", "round_wind": "N",
           "melds": ["pung:222m@L", "chow:567m@L", "chow:567m@L"], "dealer": "E", "streak": 1, "discarder": "W"}
    for lang, want in (("zh", zh), ("en", en)):
        rc, out = _run(capsys, [json.dumps(low)], "--explain", "--lang", lang, "--stakes", "30/10", "--profile",
                       str(house), tmp_path=tmp_path)
        lines = out.splitlines()
        assert rc == 0 and lines[3] == want, out
        assert len(lines) == (4 if penalty == "none" else 7)  # the three payments after it, where there are any


def test_stakes_typed_with_a_full_width_slash_are_read(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A settlement review: the app and the ledger write the stakes 「底 30／台 10」 and a Chinese keyboard types ／;
    --stakes read full-width digits (３０/１０) but refused "30／10". It reads it as 30/10."""
    rc, out = _run(capsys, [json.dumps({k: v for k, v in EX1.items() if k != "stakes"})], "--stakes", "30／10",
                   tmp_path=tmp_path)
    assert rc == 0 and json.loads(out)["total"] == 30 + 10 * json.loads(out)["hand_tai"]
    assert main(["tai", str(tmp_path / "in.jsonl"), "--stakes", "30／", "--lang", "en"]) != 0
    assert "“30／”" in capsys.readouterr().err  # still refused when incomplete, said as typed
