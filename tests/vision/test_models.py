"""Where the recognizer finds its models (vision/models.py): the package's own, found with
importlib.resources, or the folder $SANMA_MODELS names; a missing or unreadable model is a
ModelError (code model_unavailable) that names the model and no path."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from sanma_lens.engine.errors import InputError
from sanma_lens.vision.models import PACKAGED, ModelError, models_folder, session
from sanma_lens.vision.pipeline import CLASSIFIER, DETECTOR, Recognizer

SHIPPED = (
    "tile_detector.onnx",
    "tile_classifier.onnx",
    "tile_classifier_second.onnx",
    "stack_classifier.onnx",
    "tile_check.onnx",
)


def test_the_package_holds_every_model_with_its_card() -> None:
    folder = resources.files("sanma_lens") / "models"
    assert Path(str(folder)) == PACKAGED
    index = (folder / "MODEL_CARD.md").read_text(encoding="utf-8")
    for name in SHIPPED:
        assert (folder / name).is_file(), name
        card = folder / name.replace(".onnx", ".md")
        assert card.read_text(encoding="utf-8").startswith(f"# Model card: `{name}`"), name
        assert f"]({card.name})" in index, name


def test_models_come_from_the_package_unless_sanma_models_names_a_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("SANMA_MODELS", raising=False)
    assert models_folder() == PACKAGED
    monkeypatch.setenv("SANMA_MODELS", str(tmp_path))
    assert models_folder() == tmp_path


def test_a_missing_model_is_a_model_error_naming_the_model_not_the_path(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("SANMA_MODELS", str(tmp_path))
    with pytest.raises(ModelError) as caught:
        Recognizer(models_folder())
    err = caught.value
    assert isinstance(err, InputError) and err.code == "model_unavailable"
    assert DETECTOR.removesuffix(".onnx") in err.message and "SANMA_MODELS" in err.message
    assert ".onnx" not in err.message
    assert str(tmp_path) not in err.message


def test_an_unreadable_model_is_a_model_error(tmp_path: Path) -> None:
    (tmp_path / DETECTOR).write_bytes(b"not an onnx model")
    with pytest.raises(ModelError, match="cannot be read") as caught:
        session(tmp_path, DETECTOR, 1)
    assert str(tmp_path) not in caught.value.message


def test_the_classifier_missing_beside_a_detector_is_a_model_error(tmp_path: Path) -> None:
    if not (PACKAGED / DETECTOR).is_file():
        pytest.skip("no detector model here")
    (tmp_path / DETECTOR).write_bytes((PACKAGED / DETECTOR).read_bytes())
    with pytest.raises(ModelError, match=CLASSIFIER.removesuffix(".onnx")):
        Recognizer(tmp_path)
