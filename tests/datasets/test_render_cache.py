"""datasets.train's render cache: a scene rendered once is read back exactly, labels and
pixels, by later runs with the same seeds, and a changed renderer never reuses it."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from datasets import train  # noqa: E402


def _same(a, b) -> None:
    assert a.path == b.path
    assert a.labels == b.labels
    assert a.sideways == b.sideways
    assert a.stacked == b.stacked
    np.testing.assert_allclose(a.boxes, b.boxes, rtol=0, atol=1e-3)
    assert np.array_equal(a.load(), b.load())


def test_cached_scenes_read_back_as_rendered_without_rendering_again(tmp_path, monkeypatch):
    first = train.render_scenes(2, 8_960_000, 1, extras="clutter", cache=tmp_path)
    assert len(first) == 2 and any("none" in p.labels for p in first)

    def no_render(*_a, **_k):
        raise AssertionError("a kept scene was rendered again")

    monkeypatch.setattr(train, "_render_seed", no_render)
    again = train.render_scenes(2, 8_960_000, 1, extras="clutter", cache=tmp_path)
    by_path = {p.path: p for p in first}
    assert sorted(p.path for p in again) == sorted(by_path)
    for p in again:
        _same(by_path[p.path], p)


def test_cache_folder_names_the_scene_kind_and_changes_with_the_renderer(tmp_path, monkeypatch):
    a = train.cache_folder(tmp_path, "random", "backs,clutter")
    assert a == train.cache_folder(tmp_path, "random", "clutter, backs")
    assert a != train.cache_folder(tmp_path, "random", "")
    assert a != train.cache_folder(tmp_path, "kakan", "backs,clutter")
    assert a.name.startswith("random-backs,clutter-")

    from pathlib import Path

    real = Path.read_bytes

    def edited(self):
        data = real(self)
        return data + b"# edited" if self.name == "scene.py" else data

    monkeypatch.setattr(Path, "read_bytes", edited)
    assert train.cache_folder(tmp_path, "random", "backs,clutter") != a


def test_a_half_written_scene_is_rendered_again(tmp_path):
    folder = train.cache_folder(tmp_path, "random", "")
    folder.mkdir(parents=True)
    (folder / "8960100.png").write_bytes(b"not a picture")  # labels never written
    assert train.read_cached(folder, 8_960_100) is None
    (folder / "8960100.json").write_text(
        '{"labels": ["1m"], "boxes": [[0, 0, 1, 1]], "sideways": [false], "stacked": [false]}'
    )
    assert train.read_cached(folder, 8_960_100) is None  # unreadable image: not kept
