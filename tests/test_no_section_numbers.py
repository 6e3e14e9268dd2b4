"""What a player reads cites no section of the rule book (a beginner review): the command line's refusals said
"(spec §2.10)" and 「（atawmj_2009，規格 §2.10）」, the demo's first heading "(rules §7 Example 14)", and the
English false win of four kongs "四槓 (Four kongs) is off in profile atawmj_2009". The rule is said instead, in
each language, and the rule set by the name it shows."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

import companion
from companion.cli import main

CJK = re.compile(r"[\u3400-\u9fff]")

DISCARD_KONG = {"concealed": "456m55p789p67s888s", "melds": ["kong:9999m@O"], "win_tile": "5s",
                "win_type": "self_draw", "seat_wind": "S", "round_wind": "E",
                "flags": {"replacement_after": "kong"}}
EARTHLY_CKONG = {**DISCARD_KONG, "melds": ["ckong:9999m"], "flags": {"earthly": True}}
FOUR_KONGS = {"concealed": "5p5p5p5p", "melds": ["ckong:1111m", "ckong:2222m", "kong:3333m@O", "kong:4444m@O"],
              "win_tile": None, "win_type": "four_kongs", "seat_wind": "S", "round_wind": "E"}


def _literals(path: Path) -> list[tuple[int, str]]:
    """The string literals of a module, its docstrings left out (comments are none)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bodies = [node.body for node in ast.walk(tree) if isinstance(getattr(node, "body", None), list)]
    docs = {id(s.value) for body in bodies for s in body if isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant)}
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


def test_no_string_of_the_package_cites_a_section_of_the_rule_book() -> None:
    root = Path(companion.__file__).parent
    cited = [f"{path.relative_to(root)}:{line}: {text[:80]}" for path in sorted(root.rglob("*.py"))
             for line, text in _literals(path) if "§" in text]
    assert not cited, "\n".join(cited)


def _values(data: object) -> list[str]:
    """Every text in a TOML record, at any depth."""
    if isinstance(data, dict):
        return [t for v in data.values() for t in _values(v)]
    if isinstance(data, list):
        return [t for v in data for t in _values(v)]
    return [data] if isinstance(data, str) else []


def test_no_rule_set_file_cites_a_section_of_the_rule_book(capsys: pytest.CaptureFixture[str]) -> None:
    """A change review: ``companion tai --show-profile sml_2026`` printed ``source = "spec §5.1 (profile record), §5.2;
    [S]"``, from each of the five built-in files, which the literals of the .py files above do not reach. Their
    values, and what --show-profile prints of each, name their sources without a section."""
    import tomllib

    from companion.rules.profiles import BUILTIN

    root = Path(companion.__file__).parent / "rules" / "profiles"
    files = sorted(root.glob("*.toml"))
    assert {f.stem for f in files} >= set(BUILTIN)
    cited = [f"{f.name}: {text[:80]}" for f in files for text in _values(tomllib.loads(f.read_text(encoding="utf-8")))
             if "§" in text]
    assert not cited, "\n".join(cited)
    for pid in BUILTIN:
        assert main(["tai", "--show-profile", pid]) == 0
        shown = capsys.readouterr().out
        assert "source = " in shown and "§" not in shown, shown


def _tai(capsys: pytest.CaptureFixture[str], tmp_path: Path, line: dict[str, object], *args: str, rc: int = 0) -> str:
    path = tmp_path / "in.jsonl"
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    assert main(["tai", str(path), *args]) == rc
    return capsys.readouterr().out


def test_the_false_wins_say_the_rule_and_the_rule_sets_name(capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    kong = json.loads(_tai(capsys, tmp_path, DISCARD_KONG))
    assert kong["false_win"] is True
    assert kong["reason"] == ("the rule set “ATAWMJ 2009” does not allow a win on the replacement drawn "
                              "after a kong of another player's discard")
    assert kong["reason_zh"] == "明槓（槓別人打出的牌）後摸的補牌，「中華競技麻將 2009」規定不能拿來胡"
    four = json.loads(_tai(capsys, tmp_path, FOUR_KONGS))
    assert four["false_win"] is True
    assert four["reason"] == "Four kongs does not count as a win under the rule set “ATAWMJ 2009”"
    assert four["reason_zh"] == "「中華競技麻將 2009」不計四槓，不算胡牌"
    explained = _tai(capsys, tmp_path, FOUR_KONGS, "--explain", "--lang", "en")
    said = next(line for line in explained.splitlines() if line.startswith("False win: "))
    assert not CJK.search(said) and "atawmj_2009" not in said, said


def test_an_earthly_win_after_a_concealed_kong_says_why(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for lang, said in (("en", "an earthly win comes before anyone calls a tile or makes a kong (a concealed one "
                               "too), but the winner has ckong:9999m"),
                       ("zh", "地胡要在任何人吃碰槓（暗槓也算）之前，但胡牌的人有 ckong:9999m")):
        out = _tai(capsys, tmp_path, EARTHLY_CKONG, "--explain", "--lang", lang, rc=1)  # (the line refused)
        assert said in out and "§" not in out, out


def test_the_demos_headings_cite_no_example_number(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--no-photo", "--lang", "both"]) == 0
    out = capsys.readouterr().out
    assert "== 自己的槓用掉了聽牌 ==" in out and "== A wait used up by one's own kong ==" in out
    assert "§" not in out
