"""Every shipped model has its card in models/MODEL_CARD.md: data with credits, the exact
training command, metrics on real photos, size and CPU latency, failure modes, licence."""

from __future__ import annotations

from pathlib import Path

import pytest

MODELS = Path(__file__).resolve().parents[1] / "models"
SECTIONS = (
    "### Data and credits",
    "### Training command",
    "### Metrics on real photos",
    "### Size and CPU latency",
    "### Known failure modes",
    "### Licence",
)


def cards() -> dict[str, str]:
    """The cards of models/MODEL_CARD.md by model file name (its ``## `name.onnx``` section)."""
    text = (MODELS / "MODEL_CARD.md").read_text(encoding="utf-8")
    out = {}
    for part in text.split("\n## `")[1:]:
        name, _, body = part.partition("`")
        out[name] = body
    return out


@pytest.mark.parametrize("model", sorted(p.name for p in MODELS.glob("*.onnx")))
def test_every_model_has_a_card_with_every_section(model: str) -> None:
    card = cards().get(model)
    assert card is not None, f"{model} has no card"
    headings = [line for line in card.splitlines() if line.startswith("### ")]
    for section in SECTIONS:
        assert any(h.startswith(section) for h in headings), f"{model}: no {section!r}"
    assert "python -m datasets." in card, f"{model}: no training command"
    assert "ms" in card.split("### Size and CPU latency", 1)[1], f"{model}: no latency"


def test_every_card_is_of_a_shipped_model_and_the_readme_links_it() -> None:
    shipped = {p.name for p in MODELS.glob("*.onnx")}
    assert set(cards()) == shipped
    readme = (MODELS / "README.md").read_text(encoding="utf-8")
    for name in shipped:
        assert f"](MODEL_CARD.md#{name.replace('.', '')})" in readme
