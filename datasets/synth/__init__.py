"""Synthetic scene and crop renderer (see datasets/synth/scene.py, faces.py, generate.py)."""

from datasets.synth.faces import jp_upright_is_heldout

__all__ = ["jp_upright_is_heldout"]
