"""Where the ONNX models are, and loading one into an onnxruntime session.

The models ship inside the package (``sanma_lens/models``: the repository's ``models/`` in a
checkout, package data in a wheel), found with :mod:`importlib.resources`; the environment
variable ``SANMA_MODELS`` names another folder instead. A model that is missing or that
onnxruntime cannot read is a :class:`ModelError`: the CLI answers it with exit 2 and the HTTP
API with a 503, both with the code ``model_unavailable`` and a message naming the model, never
the file or the path it was looked for at.
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

from sanma_lens.engine.errors import InputError

#: the models shipped with the package
PACKAGED = Path(str(resources.files("sanma_lens") / "models"))
#: the environment variable that names another models folder
ENV = "SANMA_MODELS"


class ModelError(InputError):
    """A model the recognizer needs is missing or unreadable (code ``model_unavailable``)."""

    def __init__(self, message: str) -> None:
        super().__init__("model_unavailable", message)


def models_folder() -> Path:
    """``$SANMA_MODELS`` when set, else the package's own models."""
    chosen = os.environ.get(ENV)
    return Path(chosen) if chosen else PACKAGED


def _where(folder: Path) -> str:
    return f"the folder {ENV} names" if os.environ.get(ENV) else "the installed package"


def session(folder: Path, name: str, threads: int) -> object:
    """The model ``folder/name`` in a CPU onnxruntime session; :class:`ModelError` when the
    file is missing or is not a model onnxruntime can load."""
    path = folder / name
    model = name.removesuffix(".onnx")  # messages name the model, not a file or path
    if not path.is_file():
        raise ModelError(
            f"the recognition model {model} is missing from {_where(folder)}; reinstall "
            f"sanma-lens, or set {ENV} to a folder that holds it"
        )
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # No busy-waiting between calls: a photo runs many small classifier calls, and an idle
    # session's spinning threads take the cores from the session at work (latency photo: the
    # classifiers' share 212 -> 169 ms with the second opinion, 167 -> 131 ms without).
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001 - onnxruntime's errors share no base class
        raise ModelError(
            f"the recognition model {model} in {_where(folder)} cannot be read (damaged or "
            f"not an ONNX model); reinstall sanma-lens, or set {ENV} to a folder that holds it"
        ) from exc
