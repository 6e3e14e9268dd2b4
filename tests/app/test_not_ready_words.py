"""A hand not ready says in English how many useful draws it still needs (a teacher's review: "8 useful tiles to
draw" stood right above "28 kinds improve it… 100 tiles unseen", and "1 useful tile to draw" beside draws of 12
copies in all, read as a count of tiles that help)."""

from __future__ import annotations

import pytest

from companion.app.hand_model import HandPanel, analyse
from companion.app.words import shanten_words, ui
from companion.cli import main


@pytest.mark.parametrize(("hand", "said"), [
    ("123m456m789m123p45p1s5z", "Not ready: 1 useful draw from ready"),
    ("123m456m789m123p4p7p1s5z", "Not ready: 2 useful draws from ready"),
    ("147m147p147s1234567z9m", "After the best discard: 9 useful draws from ready"),
])
def test_my_hand_says_the_useful_draws_it_needs(hand: str, said: str) -> None:
    panel = analyse(hand)
    assert isinstance(panel, HandPanel)
    assert panel.headline.en == said
    assert "useful tile" not in panel.headline.en


@pytest.mark.parametrize("n", [1, 2, 8])
def test_every_not_ready_wording_counts_draws(n: int) -> None:
    for key in ("not_ready", "drawn_not_ready"):
        en = ui(key, **shanten_words(n)).en
        assert en.endswith(f": {n} useful draw{'' if n == 1 else 's'} from ready"), en
        assert "step" not in en, en  # the count said once: steps from ready are the draws it needs (a teacher's review)


@pytest.mark.parametrize("hand", ["123m456m789m123p45p1s5z", "123579m13579p13579s"])
def test_my_hand_says_not_ready_as_the_waits_command_does(hand: str, capsys: pytest.CaptureFixture[str]) -> None:
    """My hand said 「未聽牌（還差兩張才聽，二向聽）」 where ``waits`` said 「未聽牌：還差兩張才聽（二向聽）」: one phrase
    now, in both languages (the app's sentence capitalised, the command's line not)."""
    panel = analyse(hand)
    assert isinstance(panel, HandPanel)
    for lang in ("zh", "en"):
        assert main(["waits", "--lang", lang, hand]) == 0
        line = capsys.readouterr().out.rstrip()
        said = panel.headline.text(lang)
        assert said.startswith("未聽牌：" if lang == "zh" else "Not ready: ")
        assert line.endswith(said if lang == "zh" else said[0].lower() + said[1:]), (line, said)

