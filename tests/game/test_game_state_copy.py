"""The tracker's own copy-with-changes of its records is ``dataclasses.replace``, made faster."""

from __future__ import annotations

import dataclasses

import pytest

from companion.game import state as st
from companion.game.check import step
from companion.game.simulator import simulate


def test_the_fast_copy_is_dataclasses_replace_on_every_record_of_a_game() -> None:
    events, _ = simulate(seed=3, hands=2)
    table = st.TableState()
    seen: set[type] = set()
    for e in events:
        table = step(table, e)
        for record in (table, *table.seats, table.outcome, table.wall):
            if record is None:
                continue
            seen.add(type(record))
            name = dataclasses.fields(record)[0].name
            value = getattr(record, name)
            assert st.replace(record) == dataclasses.replace(record)
            assert st.replace(record, **{name: value}) == dataclasses.replace(record, **{name: value})
    assert {st.TableState, st.SeatState, st.Outcome} <= seen


def test_the_fast_copy_refuses_a_field_the_record_lacks() -> None:
    with pytest.raises(TypeError, match="TableState has no field 'no_such'"):
        st.replace(st.TableState(), no_such=1)
