"""Every shipped model has its card beside it, models/<model>.md: data with credits, the exact
training command, metrics on real photos, size and CPU latency, failure modes, licence; the
index models/MODEL_CARD.md and the models' README link every card."""

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
SHIPPED = sorted(p.name for p in MODELS.glob("*.onnx"))


def card(model: str) -> str | None:
    """The card of ``model`` (``name.onnx``): models/name.md, or None where there is none."""
    path = MODELS / f"{model.removesuffix('.onnx')}.md"
    return path.read_text(encoding="utf-8") if path.is_file() else None


@pytest.mark.parametrize("model", SHIPPED)
def test_every_model_has_a_card_with_every_section(model: str) -> None:
    text = card(model)
    assert text is not None, f"{model} has no card"
    assert text.startswith(f"# Model card: `{model}`\n")
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    for section in SECTIONS:
        assert any(h.startswith(section) for h in headings), f"{model}: no {section!r}"
    assert "python -m datasets." in text, f"{model}: no training command"
    assert "ms" in text.split("## Size and CPU latency", 1)[1], f"{model}: no latency"


def test_the_index_and_the_readme_link_every_card_and_only_shipped_ones() -> None:
    index = (MODELS / "MODEL_CARD.md").read_text(encoding="utf-8")
    readme = (MODELS / "README.md").read_text(encoding="utf-8")
    for model in SHIPPED:
        link = f"]({model.removesuffix('.onnx')}.md)"
        assert link in index and link in readme, model
    cards = {p.name for p in MODELS.glob("*.md")} - {"MODEL_CARD.md", "README.md", "HISTORY.md"}
    assert cards == {f"{m.removesuffix('.onnx')}.md" for m in SHIPPED}
