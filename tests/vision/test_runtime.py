"""Sharing a batch between two threads (companion.vision.runtime.shared_chunks)."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.vision.runtime import shared_chunks


def _rows(calls: list[tuple[int, int, str]]):
    lock = threading.Lock()

    def fn(a: int, b: int) -> np.ndarray:
        with lock:
            calls.append((a, b, threading.current_thread().name))
        return np.arange(a, b, dtype=np.float32) * 2

    return fn


@given(st.integers(0, 70), st.integers(1, 20), st.booleans())
def test_the_chunks_give_the_whole_batch_in_order_each_row_once(n: int, chunk: int, helped: bool) -> None:
    calls: list[tuple[int, int, str]] = []
    with ThreadPoolExecutor(1) as helper:
        got = shared_chunks(_rows(calls), n, chunk, helper if helped else None)
    assert got.tolist() == (np.arange(n, dtype=np.float32) * 2).tolist()
    covered = sorted(r for a, b, _ in calls for r in range(a, b))
    assert covered == list(range(n))  # no row twice, none missing


def test_a_busy_helper_leaves_every_chunk_to_the_caller_and_a_free_one_takes_from_the_end() -> None:
    calls: list[tuple[int, int, str]] = []
    me = threading.current_thread().name
    with ThreadPoolExecutor(1, thread_name_prefix="helper") as helper:
        release = threading.Event()
        busy = helper.submit(release.wait)  # the helper's own work, queued before the chunks
        timer = threading.Timer(10, release.set)  # frees the helper, should the caller wait for it
        timer.start()
        got = shared_chunks(_rows(calls), 50, 16, helper)
        assert not release.is_set()  # the caller did not wait for the busy helper
        release.set()
        timer.cancel()
        busy.result()
        assert len(got) == 50 and {t for *_, t in calls} == {me} and len(calls) == 4  # one call per chunk
        calls.clear()
        started = threading.Event()

        def slow_first(a: int, b: int) -> np.ndarray:
            if a == 0:
                started.wait(5)  # the caller's first chunk waits until the helper has begun on the last
            elif threading.current_thread().name != me:
                started.set()
            return _rows(calls)(a, b)

        got = shared_chunks(slow_first, 50, 16, helper)
    assert got.tolist() == (np.arange(50, dtype=np.float32) * 2).tolist()
    by = {(a, b): t for a, b, t in calls}
    assert len(calls) == 4 and by[(0, 16)] == me and by[(48, 50)].startswith("helper")


def test_an_error_in_a_chunk_is_raised_after_every_chunk_has_stopped() -> None:
    """The caller's chunk fails while the helper is still in its own: the error comes out only once the helper's
    chunk has ended (nothing left running into the next frame)."""
    helper_started = threading.Event()
    ended: list[int] = []

    def fn(a: int, b: int) -> np.ndarray:
        if a == 0:  # the caller's first chunk
            assert helper_started.wait(10)
            raise ValueError("bad chunk")
        helper_started.set()
        time.sleep(0.2)  # still running when the caller fails
        ended.append(a)
        return np.zeros(b - a)

    with ThreadPoolExecutor(1) as helper:
        with pytest.raises(ValueError, match="bad chunk"):
            shared_chunks(fn, 32, 16, helper)
        assert ended == [16]
    assert len(shared_chunks(lambda a, b: np.zeros(b - a), 64, 16)) == 64  # no helper: one call of the batch


def test_only_the_detector_spins_and_only_while_it_runs() -> None:
    """Threads spinning between runs burn the cores the other sessions need; the detector's spin only while
    a run lasts (force_spinning_stop), the other models' not at all."""
    from companion.vision.read import TileReader

    reader = TileReader(detector_threads=2)
    det = reader.detector.session.get_session_options()
    assert det.get_session_config_entry("session.intra_op.allow_spinning") == "1"
    assert det.get_session_config_entry("session.force_spinning_stop") == "1"
    assert reader.detector.backs is not None and reader.detector.orienter is not None
    for session in (reader.classifier.session, reader.detector.backs.session, reader.detector.orienter.session):
        assert session.get_session_options().get_session_config_entry("session.intra_op.allow_spinning") == "0"
    one = TileReader(detector_threads=1).detector.session.get_session_options()
    assert one.get_session_config_entry("session.intra_op.allow_spinning") == "0"  # no pool thread to spin
