"""Every shipped model has its card beside it (models/README.md): data with credits, the exact
training command, metrics on real photos, size and CPU latency, failure modes, licence."""

from __future__ import annotations

from pathlib import Path

import pytest

MODELS = Path(__file__).resolve().parents[1] / "models"
SECTIONS = (
    "## Data and credits",
    "## Training command",
    "## Metrics on real photos",
    "## Size and CPU latency",
    "## Known failure modes",
    "## Licence",
)


@pytest.mark.parametrize("model", sorted(p.name for p in MODELS.glob("*.onnx")))
def test_every_model_has_a_card_with_every_section(model: str) -> None:
    card = MODELS / model.replace(".onnx", ".MODEL_CARD.md")
    assert card.is_file(), f"{model} has no card"
    text = card.read_text(encoding="utf-8")
    assert text.startswith(f"# Model card: `{model}`")
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    for section in SECTIONS:
        assert any(h.startswith(section) for h in headings), f"{model}: no {section!r}"
    assert "python -m datasets." in text, f"{model}: no training command"
    assert "ms" in text.split("## Size and CPU latency", 1)[1], f"{model}: no latency"


def test_the_models_readme_links_every_card() -> None:
    readme = (MODELS / "README.md").read_text(encoding="utf-8")
    for onnx in MODELS.glob("*.onnx"):
        assert f"]({onnx.stem}.MODEL_CARD.md)" in readme
