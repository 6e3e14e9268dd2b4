"""The one way the vision models get an onnxruntime session: CPU, ``threads`` intra-op threads, sequential
execution and thread spinning off. Two or three sessions share the table's 2 cores in one process; with
spinning on, each one's idle threads burn the cores the other needs (the pipeline gets 55-90% slower)."""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from pathlib import Path

import onnxruntime as ort

__all__ = ["cpu_session", "model_session", "shipped_model"]


def shipped_model(name: str) -> Path:
    """The model file ``name`` shipped in the package (``companion/models``), else the repository's
    ``models/`` (a source checkout)."""
    packaged = resources.files("companion").joinpath("models", name)
    if packaged.is_file():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "models" / name


def cpu_session(path: Path, threads: int) -> ort.InferenceSession:
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = max(1, threads)
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    opts.add_session_config_entry("session.inter_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def model_session(model: Path | None, default: Callable[[], Path], threads: int, error: type[Exception],
                  what: str) -> tuple[Path, ort.InferenceSession]:
    """The file ``model`` (or ``default()``) and a :func:`cpu_session` of it; ``error`` naming the path when
    there is no such file."""
    path = Path(model) if model is not None else default()
    if not path.is_file():
        raise error(f"{what} not found at {path}")
    return path, cpu_session(path, threads)
