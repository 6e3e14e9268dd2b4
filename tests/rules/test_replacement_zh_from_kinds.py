"""The Chinese names of a replacement's kong are the meld kinds' own (two tables drifted: 补槓 was a meld's only)."""

import pytest

from companion.rules._win_json import _REPLACEMENT_ZH
from companion.rules.win import Replacement


@pytest.mark.parametrize(("said", "kind"), [("补槓", Replacement.ADDKONG), ("补杠", Replacement.ADDKONG),
                                            ("補槓", Replacement.ADDKONG), ("加杠", Replacement.ADDKONG),
                                            ("暗杠", Replacement.CKONG), ("明槓", Replacement.KONG),
                                            ("补花", Replacement.FLOWER), ("補花", Replacement.FLOWER)])
def test_a_replacement_takes_each_chinese_kong_name_a_meld_takes(said: str, kind: Replacement) -> None:
    assert Replacement(_REPLACEMENT_ZH[said]) is kind


def test_a_bare_kong_and_the_other_kinds_are_no_replacement() -> None:
    assert not {"槓", "杠", "碰", "吃"} & set(_REPLACEMENT_ZH)
