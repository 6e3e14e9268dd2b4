"""The one way the vision models get an onnxruntime session: CPU, ``threads`` intra-op threads, sequential
execution and thread spinning off between runs. Two or three sessions share the table's 2 cores in one
process; with spinning on, each one's idle threads burn the cores the other needs (the pipeline gets 55-90%
slower); the detector's threads spin only while its run lasts (:func:`cpu_session`'s ``spin``). Also
:func:`shared_chunks`: a batch shared with a second thread once that one has nothing else to do."""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import Executor, wait
from importlib import resources
from pathlib import Path

import numpy as np
import onnxruntime as ort

__all__ = ["cpu_session", "model_session", "shipped_model", "input_kind", "shared_chunks", "MAX_THREADS"]

MAX_THREADS = 256
"""Most intra-op threads a command asks onnxruntime for (``--threads``); more is surely a typing slip."""


def shipped_model(name: str) -> Path:
    """The model file ``name`` shipped in the package (``companion/models``), else the repository's
    ``models/`` (a source checkout)."""
    packaged = resources.files("companion").joinpath("models", name)
    if packaged.is_file():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "models" / name


def cpu_session(path: Path, threads: int, spin: bool = False) -> ort.InferenceSession:
    """A session whose 8-bit models compute the same bits on every x86 CPU (exact sums, with VNNI or without).
    ``spin``: the intra-op threads spin while a run lasts (waiting for the next operator's work instead of
    sleeping) and stop the moment it returns (``session.force_spinning_stop``), so they burn no core the
    other sessions need between runs. The detector asks for it: its network is some forty small
    convolutions, and waking the second thread for each cost most of what it brought (the network alone on
    the busy frame: 4.23 ms on one thread, 3.56 on two, 2.61 on two spinning; models/README.md, "The
    detector's threads spin while it runs"). The small networks do not: spinning made the reader slower."""
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = max(1, threads)
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.add_session_config_entry("session.intra_op.allow_spinning", "1" if spin else "0")
    opts.add_session_config_entry("session.inter_op.allow_spinning", "0")
    # 8-bit weights as uint8 where the CPU lacks VNNI: there onnxruntime adds int8 products in pairs in 16 bits,
    # which saturate, and the shipped classifier read held-out crops 1.3 points worse (96.63% against the
    # 97.97% of a VNNI CPU, which adds in 32 bits); with this it reads them to the bit as there, for about 6%
    # more of its time (models/README.md, "R G B patches"; float models are not touched)
    opts.add_session_config_entry("session.x64quantprecision", "1")
    if spin:
        opts.add_session_config_entry("session.force_spinning_stop", "1")
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def model_session(model: Path | None, default: Callable[[], Path], threads: int, error: type[Exception],
                  what: str, spin: bool = False) -> tuple[Path, ort.InferenceSession]:
    """The file ``model`` (or ``default()``) and a :func:`cpu_session` of it; ``error`` naming the path, in
    English and Traditional Chinese, when there is no such file or onnxruntime cannot load it (not an ONNX
    model, or a damaged one)."""
    path = Path(model) if model is not None else default()
    if not path.is_file():
        raise error(f"{what} not found at {path} / 找不到模型檔 {path}")
    try:
        session = cpu_session(path, threads, spin)
    except Exception as e:  # onnxruntime's errors (InvalidProtobuf, Fail...) derive from Exception alone
        raise error(f"{path}: not an ONNX model, or the file is damaged ({_ort_reason(e)}) / "
                    "不是 ONNX 模型檔，或檔案已損壞") from e
    return path, session


def _ort_reason(e: Exception) -> str:
    """The gist of an onnxruntime load error: ``[ONNXRuntimeError] : 7 : INVALID_PROTOBUF : Load model from
    X failed:Protobuf parsing failed.`` -> ``Protobuf parsing failed.``."""
    text = (str(e).strip().splitlines() or [type(e).__name__])[0]
    return text.rpartition("failed:")[2].strip() or text


def input_kind(session: ort.InferenceSession, size: tuple[int, int], path: Path,
               error: type[Exception]) -> tuple[str, tuple[np.ndarray, int, bool] | None]:
    """The input's name, and ``(lookup table, patch side, whether each pixel's values come R G B)`` when the model
    takes quantised patches (``training/onnx_rewrite.patch_input``: ``N x H/k x W/k x k*k*3`` uint8; see
    :func:`companion.vision.preprocess.quantised_patches`) rather than ``N x 3 x H x W`` float32 normalised RGB
    (``None``). ``size``: the model's (width, height); a mismatch is ``error`` naming ``path``."""
    inp = session.get_inputs()[0]
    w, h = size
    meta = session.get_modelmeta().custom_metadata_map
    if "patch_input" not in meta:
        if inp.type != "tensor(float)" or list(inp.shape[1:]) != [3, h, w]:
            raise error(f"{path}: input {inp.type} {inp.shape} is not N x 3 x {h} x {w} floats / "
                        "模型的輸入格式不符")
        return inp.name, None
    try:
        patch = json.loads(meta["patch_input"])
        k, values, channels = patch["patch"], patch["pixel_lut"], patch.get("channels", "bgr")
        if type(k) is not int or not isinstance(values, list) or not all(type(v) is int for v in values):
            raise TypeError("patch and pixel_lut must be integers")
        if channels not in ("rgb", "bgr"):
            raise ValueError(f"channels {channels!r} is neither rgb nor bgr")
        lut = np.array(values, np.int64)
    except (KeyError, ValueError, TypeError, OverflowError) as e:
        raise error(f"{path}: patch_input metadata {e} missing or bad / 模型的 patch_input 資料缺少或有誤") from e
    if k < 1 or h % k or w % k or lut.shape != (256,) or lut.min() < 0 or lut.max() > 255 or \
            inp.type != "tensor(uint8)" or list(inp.shape[1:]) != [h // k, w // k, k * k * 3]:
        raise error(f"{path}: input {inp.type} {inp.shape} is not N x {h} x {w} crops in {k} x {k} patches "
                    "with a 256-value table / 模型的輸入格式不符")
    return inp.name, (lut.astype(np.uint8), k, channels == "rgb")


def shared_chunks(fn: Callable[[int, int], np.ndarray], n: int, chunk: int,
                  helper: Executor | None = None) -> np.ndarray:
    """``fn(0, n)`` computed as ``fn(start, stop)`` over consecutive chunks of ``chunk`` rows, concatenated in
    order. With ``helper`` (an executor of one thread, which may be busy with other work queued before), the
    calling thread works through the chunks from the first and the helper, once it comes free, from the last:
    the caller takes back each chunk the helper has not started. So a batch is shared between two threads
    only when the second one has nothing else to do, and costs the caller nothing more than the chunks' calls
    when it never does. An error of any chunk is raised once every chunk has stopped."""
    if n <= chunk or helper is None:
        return fn(0, n)
    bounds = [(a, min(a + chunk, n)) for a in range(0, n, chunk)]
    jobs = [helper.submit(fn, a, b) for a, b in reversed(bounds[1:])][::-1]  # the helper starts at the end
    out: list[np.ndarray | None] = [None] * len(bounds)
    try:
        out[0] = fn(*bounds[0])
        for i, job in enumerate(jobs, 1):
            if not job.cancel():
                break  # the helper has it, and every chunk after it
            out[i] = fn(*bounds[i])
    finally:
        # a cancelled job is not "done" for wait() until the helper has come to it: wait for the others only
        wait([job for job in jobs if not job.cancel()])
    for i, job in enumerate(jobs, 1):
        if out[i] is None:
            out[i] = job.result()
    return np.concatenate(out)  # type: ignore[arg-type]

