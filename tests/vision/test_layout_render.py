"""Layout reconstruction on rendered scenes (datasets.synth.scene): ground-truth tile labels
with box jitter as detections → reconstruct → the ground-truth hand.

Skips when the renderer or the shared datasets (its face bank) are absent. Seeds 900000+ are
never used for training (benchmarks/layout.py measures the same range at scale). The renderer
still changes what a seed draws, so these tests assert rates over a batch of scenes (with the
failures named in the message) rather than pinning single scenes.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from benchmarks.layout import FIELDS, jittered, normalise
from sanma_lens.vision.layout import reconstruct
from sanma_lens.vision.types import TileDetection

pytestmark = pytest.mark.slow
SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"
scene_mod = pytest.importorskip("datasets.synth.scene")
hands_mod = pytest.importorskip("datasets.synth.hands")
if not (SHARED / "art").is_dir():
    pytest.skip("shared datasets absent: no face bank to render with", allow_module_level=True)


def _detections(scene: object, seed: int) -> list[TileDetection]:
    dets = [
        TileDetection("back" if lab.face_down else lab.tile, lab.box, lab.angle, 1.0)
        for lab in scene.tiles  # type: ignore[attr-defined]
    ]
    return jittered(dets, random.Random(seed), 0.04)


def _render(seed: int, **spec_kw: object) -> object:
    rng = np.random.default_rng(seed)
    spec = hands_mod.random_hand_spec(rng, **spec_kw) if spec_kw else None
    return scene_mod.render_scene(rng, spec=spec, size=(960, 720))


def _mismatch(scene: object, seed: int) -> str | None:
    """None when the scene reads back exactly (hand fields and hand/win tile groups)."""
    img = scene.image  # type: ignore[attr-defined]
    layout = reconstruct(_detections(scene, seed), (img.shape[1], img.shape[0]))
    got, want = normalise(layout.hand), normalise(scene.hand)  # type: ignore[attr-defined]
    if {k: got[k] for k in FIELDS} != {k: want[k] for k in FIELDS}:
        return f"seed {seed}: got {got} want {want}"
    truth = sorted(lab.group for lab in scene.tiles if lab.group in ("hand", "win"))  # type: ignore[attr-defined]
    ours = sorted(t.group for t in layout.tiles if t.group in ("hand", "win"))
    if truth != ours:
        return f"seed {seed}: hand/win groups {ours} vs {truth}"
    return None


def test_rendered_scenes_read_back_their_hands() -> None:
    seeds = range(900000, 900030)
    misses = [m for s in seeds if (m := _mismatch(_render(s), s)) is not None]
    assert len(misses) <= 3, "\n".join(misses)


def test_rendered_scenes_with_melds_ankan_and_kita() -> None:
    covered = {"meld": 0, "ankan": 0, "kita": 0}
    tried, misses = 0, []
    for seed in range(900100, 900160):
        scene = _render(seed)
        hand = scene.hand  # type: ignore[attr-defined]
        if not hand["melds"] and not hand["kita"]:
            continue
        tried += 1
        covered["meld"] += bool(hand["melds"])
        covered["ankan"] += any(str(m).startswith("ankan") for m in hand["melds"])
        covered["kita"] += bool(hand["kita"])
        if (m := _mismatch(scene, seed)) is not None:
            misses.append(m)
    assert all(covered.values()), covered
    assert len(misses) <= max(2, tried // 10), "\n".join(misses)


def test_plain_rows_read_back() -> None:
    seeds = range(900500, 900508)
    misses = [m for s in seeds if (m := _mismatch(_render(s, plain=True), s)) is not None]
    assert len(misses) <= 1, "\n".join(misses)
