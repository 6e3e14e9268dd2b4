"""The events of a stored log that today's rules refuse, let in under the older rules of their stamp, and what is
said of them.

A log kept by an earlier version replays as kept (:func:`companion.game.check.stored_step`: the checks newer than an
event's ``rules_version`` are not asked of it), so a game saved before a check came in still opens. Where only those
newer checks refuse an event, the player is told: ``companion replay``, the app's table replay (``companion app
LOG``), the import of a saved log (``companion app --from-log``) and the Live tab of a table holding such a log all
say it in the words of :meth:`OlderRules.said`, one function for all of them (the app let them in without a word).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.game import events as ev
from companion.game.check import step, stored_step
from companion.game.state import TableState
from companion.game.text import EVENT_ZH, IllegalEvent, Msg, msg

__all__ = ["LetIn", "OlderRules", "refused_at"]


def refused_at(at: int, event: str, reason: Msg, stored: bool = False) -> Msg:
    """The refusal of the event of type ``event`` at ``at``: its line in a log (from 1), or (``stored``: a table
    file's events, numbered from 1 as :func:`companion.game.service.read_log` numbers them) its stored number, as
    the app numbers them (#0 first)."""
    if stored:
        return msg("illegal_stored", seq=at - 1, event=EVENT_ZH.get(event, event), event_en=event, zh=reason.zh,
                   en=reason.en)
    return msg("illegal_at", line=at, event=EVENT_ZH.get(event, event), event_en=event, zh=reason.zh, en=reason.en)


@dataclass(frozen=True, slots=True)
class LetIn:
    """An event let in under the older rules of its stamp: where it is (``at``, as :func:`refused_at` takes it), its
    type and what today's rules say of it."""

    at: int
    event: str
    reason: Msg


@dataclass(slots=True)
class OlderRules:
    """A stored log's events stepped under the rules of their stamps, noting those that today's rules refuse
    (``stored``: the events are a table file's, said by their stored number)."""

    stored: bool = False
    let_in: list[LetIn] = field(default_factory=list)

    def step(self, state: TableState, event: ev.Event, at: int) -> TableState:
        """:func:`~companion.game.check.stored_step` of ``event`` (at ``at``): :class:`IllegalEvent` where the rules
        of its own stamp refuse it; noted in :attr:`let_in` where they take it and today's refuse it.

        Each event is stepped once where once will do: one of an older stamp that today's rules take makes the table
        its own stamp's rules make (a check added since only refuses:
        :func:`~companion.game.check_win.checked_since`), so it is stepped under today's alone; only one they refuse
        is stepped again under its stamp's. (Both steps for every old event made an old log load 60% slower in the
        app: a change review.) An event stamped with today's rules is checked once: its stamp asks every check."""
        if event.rules_version >= ev.RULES_VERSION:
            return stored_step(state, event)
        try:
            return step(state, event)
        except IllegalEvent as now:
            new = stored_step(state, event)  # (refused under its own stamp's rules too: that refusal is said)
            self.let_in.append(LetIn(at, type(event).__name__, now.reason))
            return new

    def said(self) -> Msg | None:
        """How many events were let in under older rules and the first of them (where, and what today's rules say
        of it), in both languages; None where there is none (a log that needs no word gets none)."""
        if not self.let_in:
            return None
        first = self.let_in[0]
        why = refused_at(first.at, first.event, first.reason, self.stored)
        return msg("let_in", n=len(self.let_in), first=why.zh, first_en=why.en)
