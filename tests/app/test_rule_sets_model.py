"""House rule sets in the app (spec §5.1): the rule dropdowns offer the ones saved beside the built-in ones."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.app.rule_sets_model import rule_set_options, rule_sets
from companion.app.words import Words
from companion.rules.profiles import BUILTIN, load_profile
from companion.rules.profiles._store import save_profile

CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def test_the_dropdowns_offer_the_house_rule_sets_saved_by_the_command_beside_the_built_in_ones(
        data: Path, tmp_path: Path) -> None:
    assert [pid for pid, _ in rule_set_options()] == list(BUILTIN)
    house = tmp_path / "home8.toml"
    house.write_text('id = "home8"\ninherits = "atawmj_2009"\nname_zh = "家裡滿八台"\nname_en = "Home, cap 8"\n'
                     "[switches]\ntai_cap = 8\n", encoding="utf-8")
    save_profile(house)  # as `companion tai --save-profile home8.toml`
    (data / "profiles" / "broken.toml").write_text("id = [", encoding="utf-8")  # a damaged file
    offered = dict(rule_set_options())
    assert list(offered) == [*BUILTIN, "home8"]  # built in first; the damaged one is never offered
    assert offered["home8"] == Words("家裡滿八台", "Home, cap 8")  # named by the profile, in both languages
    assert offered["atawmj_2009"] == Words(load_profile("atawmj_2009").name_zh, load_profile("atawmj_2009").name_en)
    broken = next(r for r in rule_sets() if r.id == "broken")  # listed in Settings, with why
    assert broken.problem is not None and not broken.builtin
    gone = dict(rule_set_options("home9"))["home9"]  # a rule set picked before and deleted since is said gone
    assert "home9" in gone.zh and "home9" in gone.en and not CJK.search(gone.en.replace("home9", ""))


