"""`companion replay` names the rule set a log was played with, its stakes and house rules (spec §5.1): on the
Seated line, over each session's hands, and in the ledger's JSON, "as seated" where the house set of that id here
now says otherwise (a house-rules review read "#0 Seated (simulated)" alone, and "profile": "shared_set")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.live_model import LiveGame
from companion.cli import main
from companion.rules import profiles


def test_replay_says_the_rule_set_stakes_and_house_rules_it_was_seated_with(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "sim.jsonl"
    assert main(["simulate", "--seed", "7", "--hands", "2", "--out", str(log)]) == 0
    capsys.readouterr()
    assert main(["replay", "--lang", "en", str(log)]) == 0
    text = capsys.readouterr().out
    seated = text.splitlines()[0]
    assert seated.startswith("#0 Seated (simulated): stakes 30 + 10 a tai, rules ATAWMJ 2009")
    each = text.split("== each hand ==\n", 1)[1].splitlines()
    assert each[0] == " " + seated.split(": ", 1)[1]  # the session's terms over its hands, as the Seated line
    assert main(["replay", "--json", str(log)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["profile_name"] == {"zh": "中華競技麻將 2009", "en": "ATAWMJ 2009"}
    assert data["profile_as_seated"] is False


def test_replay_names_a_house_set_edited_since_as_seated(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from companion.rules.profiles._store import save_profile

    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    house = tmp_path / "pub.toml"
    house.write_text('id = "pub"\ninherits = "atawmj_2009"\nname_zh = "酒吧規則"\nname_en = "Pub rules"\n'
                     '[tai]\nmenqing = 3\n', encoding="utf-8")
    saved = save_profile(house)
    game = LiveGame(tmp_path / "table.sqlite", seed=1)
    assert game.start(("甲", "乙", "丙", "丁"), "pub", 50, 20, house={"first_dealer": "east_deals"}) is None
    game.close()
    saved.write_text(saved.read_text(encoding="utf-8").replace("menqing = 3", "menqing = 1"), encoding="utf-8")
    monkeypatch.setattr(profiles, "_KEPT", {})  # as another process reads it
    assert main(["replay", "--lang", "en", "--quiet", str(tmp_path / "table.sqlite")]) == 0
    text = capsys.readouterr().out
    assert " stakes 50 + 20 a tai, rules Pub rules (as seated)" in text.split("== each hand ==\n", 1)[1]
    assert main(["replay", "--lang", "zh", str(tmp_path / "table.sqlite")]) == 0
    assert "底 50／台 20，規則 酒吧規則（入座時的版本）" in capsys.readouterr().out.splitlines()[0]
    monkeypatch.setattr(profiles, "_KEPT", {})
    assert main(["replay", "--json", str(tmp_path / "table.sqlite")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["profile"] == "pub" and data["profile_name"] == {"zh": "酒吧規則", "en": "Pub rules"}
    assert data["profile_as_seated"] is True
