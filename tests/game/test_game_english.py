"""The English of the game's messages is plain English: an English player reads the tracker's refusals, the replay's
lines and the app's table in it, and a wording review read Chinese glosses there ("the session (一將) is over",
"has not discarded since (過水)", "(相公)"), as an earlier one had in the photo's notes and the rule names."""

from __future__ import annotations

import re
import string

from companion.game.events import ReadyKind, WinKind
from companion.game.state import OutcomeKind, Phase
from companion.game.text import RETRACT_NOTES, SWITCH_SAID, TEMPLATES, WIND_EN, WIND_ZH, msg

CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f]")


def _fields(template: str) -> set[str]:
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_game_message_says_its_english_without_chinese() -> None:
    """Every template of the game's messages, filled as :func:`msg` fills it (a field and its ``_en`` from sample
    ASCII values: tile faces and player names are data, not the words), says its English without a Chinese
    character, and its Chinese in Chinese."""
    said = {}
    for key, (zh, en) in TEMPLATES.items():
        sample = {name.removesuffix("_en"): f"x{i}" for i, name in enumerate(sorted(_fields(zh) | _fields(en)))}
        filled = msg(key, **sample)
        assert "{" not in filled.en and "{" not in filled.zh, (key, filled)  # every field filled in
        said[key] = filled
    assert len(said) == len(TEMPLATES) > 100
    assert {k: m.en for k, m in said.items() if CJK.search(m.en)} == {}
    assert [k for k, m in said.items() if not CJK.search(m.zh)] == []


def test_the_names_the_messages_put_in_their_english_carry_no_chinese() -> None:
    """The names the messages fill in (phases, outcomes, kinds of win and ready, procedure switches, retraction
    notes, winds, the refusals' rules and claims, a refusal's evidence) are English in the English."""
    from companion.game.check import _SEATING_ONLY
    from companion.game.check_claims import _RANK_NAME
    from companion.game.view import _COUNT_KEYS, _SEAT_KEYS

    named = ([(p.zh, p.en) for p in Phase] + [(o.zh, o.en) for o in OutcomeKind]
             + [(w.zh, w.en) for w in WinKind] + [(w.zh, w.won_en) for w in WinKind]
             + [(r.zh, r.en) for r in ReadyKind] + list(SWITCH_SAID.values()) + list(RETRACT_NOTES.values())
             + list(zip(WIND_ZH, WIND_EN, strict=True)) + list(_SEATING_ONLY.values()) + list(_RANK_NAME.values())
             + list(_SEAT_KEYS.values()) + list(_COUNT_KEYS.values()))
    assert len(named) > 50
    assert [en for _, en in named if CJK.search(en)] == []
    assert [zh for zh, _ in named if not CJK.search(zh)] == []


def test_the_refusals_that_named_a_gloss_say_the_thing_in_english() -> None:
    """The refusals that carried a gloss name the thing as the rest of the product's English does: a session, a
    passed win, too many or too few tiles, a wrong count, another round of replacements."""
    assert msg("session_over").en == "the session is over"
    assert "passed a win" in msg("barred", seat="Amy").en
    assert "too many tiles" in msg("big_count", seat="Amy").en
    assert "too few tiles" in msg("small_count", seat="Amy").en
    assert "wrong tile count" in msg("no_win", seat="Amy").en
    assert "another round of replacements" in msg("held_back", seat="Amy").en
