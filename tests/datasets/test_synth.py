"""Synthetic scene/crop renderer (datasets/synth): determinism, geometry, legal ground truth.

Rules pinned: docs/rules.md "Tiles" §1, §3, §A1–A2 (108 tiles, no 2m–8m, four of a kind,
red fives count as fives, the aka-5-man is a north, one red 5p/5s under the base rule) and the
table conventions of called melds / ankan / kita (§23–24).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.synth.hands import (
    HandSpec,
    Meld,
    base_kind,
    hand_problems,
    parse_mpsz,
    random_hand_spec,
    to_mpsz,
    winning_hand_spec,
)

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"
SIZE = (640, 480)


@pytest.fixture(scope="module")
def bank():
    if not (SHARED / "art/fluffystuff").is_dir():
        pytest.skip("shared datasets absent")
    from datasets.synth.faces import load_bank

    return load_bank(str(SHARED))


@pytest.fixture(scope="module")
def scene_bank():
    """The real face bank when the shared datasets are here, else drawn stand-in faces (the
    geometry and ground-truth checks do not depend on the artwork)."""
    from datasets.synth.faces import load_bank, placeholder_bank

    if (SHARED / "art/fluffystuff").is_dir():
        return load_bank(str(SHARED))
    return placeholder_bank()


def _render(seed, bank, spec=None, size=SIZE, distractors=None):
    from datasets.synth.scene import render_scene

    return render_scene(
        np.random.default_rng(seed), spec=spec, size=size, bank=bank, distractors=distractors
    )


# ---------------------------------------------------------------- hands (no data needed)


def test_mpsz_round_trip():
    tiles = ["2p", "3p", "0p", "1z", "9m", "1m"]
    assert to_mpsz(tiles) == "19m230p1z"
    assert sorted(parse_mpsz(to_mpsz(tiles))) == sorted(tiles)


def test_rule_1_every_random_hand_is_legal():
    rng = np.random.default_rng(0)
    for _ in range(1500):
        spec = random_hand_spec(rng)
        hand = spec.to_hand()
        assert hand_problems(hand) == [], hand
        tiles = spec.all_tiles() + list(spec.dora)
        assert not any(t[1] == "m" and t[0] in "2345678" for t in tiles)
        assert max(Counter(base_kind(t) for t in tiles).values()) <= 4
        n_kan = sum(1 for m in spec.melds if m.kind != "pon")
        n_hand = (
            len(spec.concealed) + (1 if spec.win else 0) + sum(len(m.tiles) for m in spec.melds)
        )
        assert n_hand - n_kan in (13, 14)


def test_rule_1_hand_check_rejects_illegal_hands():
    ok = {"hand": "123p456p789s1122z", "win": "2z", "melds": [], "kita": 0, "kita_aka": 0}
    assert hand_problems(ok) == []
    assert hand_problems({**ok, "hand": "234m456p789s1122z"})  # 2m–8m not in sanma
    assert hand_problems({**ok, "hand": "11111p7899s1122z"})  # five 1p
    assert hand_problems({**ok, "hand": "12300p789s11222z", "win": "2z"})  # two 0p, base rule
    assert hand_problems({**ok, "hand": "12304p789s11222z", "kita": 1, "kita_aka": 1})  # 0m w/o opt
    four_norths = {**ok, "hand": "123p456p789s4442z", "win": "2z", "kita": 2, "kita_aka": 0}
    assert hand_problems(four_norths)  # 3 in hand + 2 kita = 5 norths
    aka = {**ok, "rules": {"aka_5man": True}, "hand": "123p406p789s1122z", "kita": 1, "kita_aka": 1}
    assert hand_problems(aka) == []
    assert hand_problems({**aka, "hand": "123p456p789s1122z"})  # plain 5p under the option


def test_rule_a1_red_fives_often():
    rng = np.random.default_rng(1)
    specs = [random_hand_spec(rng) for _ in range(600)]
    with_red = sum(any(t[0] == "0" for t in s.all_tiles()) for s in specs)
    assert with_red / len(specs) >= 0.3
    assert any("0m" in s.kita for s in specs)
    assert any(s.aka_5man for s in specs) and any(not s.aka_5man for s in specs)


def test_meld_frequencies_cover_every_kind():
    rng = np.random.default_rng(2)
    kinds = Counter(m.kind for _ in range(800) for m in random_hand_spec(rng).melds)
    assert set(kinds) == {"pon", "minkan", "kakan", "ankan"}
    assert kinds["pon"] > kinds["ankan"]


def _concealed_counts(spec: HandSpec) -> tuple[int, ...]:
    from sanma_lens.engine.tiles import kind_of

    counts = [0] * 34
    for t in list(spec.concealed) + ([spec.win] if spec.win else []):
        counts[kind_of(base_kind(t))] += 1
    return tuple(counts)


def test_rule_1_winning_hands_are_legal_complete_shapes_or_tenpai():
    """winning_hand_spec: 14 tiles plus one per kan in a winning shape (four sets and a pair,
    or seven pairs), or a 13-tile hand one tile from one (tenpai)."""
    from sanma_lens.engine.decompose import is_chiitoitsu, shape_waits, standard_decomps

    rng = np.random.default_rng(3)
    specs = [winning_hand_spec(rng) for _ in range(600)]
    for spec in specs:
        assert hand_problems(spec.to_hand()) == [], spec
        counts = _concealed_counts(spec)
        if spec.win:
            assert standard_decomps(counts) or is_chiitoitsu(counts), spec
        else:
            assert len(spec.concealed) + 3 * len(spec.melds) == 13
            assert shape_waits(counts, frozenset(range(34))), spec
    tenpai = sum(s.win is None for s in specs) / len(specs)
    assert 0.12 < tenpai < 0.28, tenpai
    kinds = Counter(m.kind for s in specs for m in s.melds)
    assert set(kinds) == {"pon", "minkan", "kakan", "ankan"}
    assert any(s.kita for s in specs) and any("0m" in s.kita for s in specs)
    assert sum(any(t[0] == "0" for t in s.all_tiles()) for s in specs) / len(specs) >= 0.3
    assert any(s.plain for s in specs) and any(s.dora for s in specs)
    assert any(len(set(s.concealed)) == 7 and len(s.concealed) == 13 for s in specs)  # 7 pairs


def test_winning_hand_options_are_honoured():
    rng = np.random.default_rng(4)
    for _ in range(50):
        assert winning_hand_spec(rng, tenpai=True).win is None
        spec = winning_hand_spec(rng, tenpai=False, plain=True, aka_5man=True)
        assert spec.win and spec.plain and spec.aka_5man and not spec.melds


# ---------------------------------------------------------------- face bank


def test_face_bank_has_every_class(bank):
    from datasets.synth.faces import CLASSES, FACE_H, FACE_W

    counts = bank.count()
    assert all(counts[c] >= 3 for c in CLASSES), counts
    for c in ("0p", "0s", "flower", "back"):
        assert bank.faces[c][0].image.shape == (FACE_H, FACE_W, 3)


def test_rule_a1_red_fives_are_red_and_plain_fives_are_not(bank):
    from datasets.synth.faces import red_fraction

    rng = np.random.default_rng(3)
    for cls in ("0p", "0s", "0m"):
        fr = [red_fraction(bank.pick(rng, cls)) for _ in range(40)]
        assert min(fr) > 0.5, (cls, min(fr))
    for cls in ("5p", "5s"):
        fr = [red_fraction(f.image) for f in bank.faces[cls]]
        assert max(fr) < 0.5, (cls, max(fr))


def test_jp_upright_heldout_rule():
    from datasets.synth.faces import jp_upright_is_heldout

    names = [f"img{i:02d}.jpg" for i in range(59)]
    held = [n for n in names if jp_upright_is_heldout(n, names)]
    assert held == [f"img{i:02d}.jpg" for i in range(0, 59, 5)]


def test_face_bank_uses_no_heldout_jp_image(bank):
    from datasets.synth.faces import jp_upright_is_heldout

    names = sorted(p.name for p in (SHARED / "real/jp-upright/images").glob("*.jpg"))
    jp = [f for fs in bank.faces.values() for f in fs if f.source == "jp"]
    assert jp
    assert not any(jp_upright_is_heldout(f.style.split(".jpg")[0] + ".jpg", names) for f in jp)


# ---------------------------------------------------------------- scenes


def test_scene_hands_option_draws_winning_hands_and_defaults_to_random(scene_bank):
    """``hands="winning"`` draws with winning_hand_spec; the default draws as before (the
    training seeds and benchmark seeds render the same scenes)."""
    from datasets.synth.scene import render_scene

    def render(seed, **kw):
        return render_scene(np.random.default_rng(seed), size=SIZE, bank=scene_bank, **kw)

    for seed in (11, 12):
        default, random_ = render(seed), render(seed, hands="random")
        assert np.array_equal(default.image, random_.image)
        assert default.hand == random_hand_spec(np.random.default_rng(seed)).to_hand()
        assert (
            render(seed, hands="winning").hand
            == winning_hand_spec(np.random.default_rng(seed)).to_hand()
        )
    with pytest.raises(ValueError, match="hands must be one of"):
        render(11, hands="sorted")


def test_render_is_deterministic_per_seed(scene_bank):
    a, b, c = _render(11, scene_bank), _render(11, scene_bank), _render(12, scene_bank)
    assert np.array_equal(a.image, b.image)
    assert [t.to_json() for t in a.tiles] == [t.to_json() for t in b.tiles]
    assert a.hand == b.hand
    assert not np.array_equal(a.image, c.image) or a.hand != c.hand
    assert a.image.shape == (SIZE[1], SIZE[0], 3) and a.image.dtype == np.uint8


def test_boxes_lie_inside_the_image_and_match_the_quads(scene_bank):
    w, h = SIZE
    for seed in range(12):
        s = _render(seed, scene_bank)
        assert s.tiles
        for t in s.tiles:
            x0, y0, x1, y1 = t.box
            assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h, t
            assert t.truncated == (t.visible < 0.999)
            if t.truncated:  # only distractors may be cut by the border; the box is clipped
                assert t.group == "other" and 0 < t.visible < 1
                continue
            q = np.array(t.quad)
            assert q.shape == (4, 2)
            assert (q[:, 0] >= x0 - 0.5).all() and (q[:, 0] <= x1 + 0.5).all()
            assert (q[:, 1] >= y0 - 0.5).all() and (q[:, 1] <= y1 + 0.5).all()
            if t.standing:  # a standing face seen from above is thin; only flat tiles below
                continue
            d1, d2 = q[2] - q[0], q[3] - q[1]
            qa = 0.5 * abs(d1[0] * d2[1] - d1[1] * d2[0])
            assert qa > 0.2 * (x1 - x0) * (y1 - y0), t  # the face is a good part of the box


def test_labels_hold_exactly_the_ground_truth_hand(scene_bank):
    for seed in range(10):
        s = _render(100 + seed, scene_bank)
        mine = [
            t.hidden if t.face_down else t.tile
            for t in s.tiles
            if t.group in ("hand", "win", "meld", "kita")
        ]
        h = s.hand
        want = parse_mpsz(h["hand"]) + ([h["win"]] if h.get("win") else [])
        for m in h["melds"]:
            want += parse_mpsz(m.split(":")[1])
        want += ["0m"] * h["kita_aka"] + ["4z"] * (h["kita"] - h["kita_aka"])
        assert sorted(mine) == sorted(want)
        assert sorted(t.tile for t in s.tiles if t.group == "dora") == sorted(h.get("dora", []))
        for k, m in enumerate(h["melds"]):  # each meld's tiles carry its index
            tiles = [t.hidden if t.face_down else t.tile for t in s.tiles if t.meld == k]
            assert sorted(tiles) == sorted(parse_mpsz(m.split(":")[1]))
        assert all((t.meld is not None) == (t.group == "meld") for t in s.tiles)
        assert hand_problems(h) == []


def test_rule_a1_red_fives_appear_in_renders(scene_bank):
    reds = sum(any(t.red for t in _render(200 + i, scene_bank).tiles) for i in range(12))
    assert reds >= 3


def test_sideways_called_tiles_have_angle_90(scene_bank):
    spec = HandSpec(
        ("1p", "2p", "3p", "5s", "6s", "7s", "1z"),
        "1z",
        (
            Meld("pon", ("7z", "7z", "7z"), called=0),
            Meld("kakan", ("9s", "9s", "9s", "9s"), called=2, stacked=False),
        ),
    )
    s = _render(5, scene_bank, spec, distractors=False)
    meld = [t for t in s.tiles if t.group == "meld"]
    assert len(meld) == 7
    side = [t for t in meld if t.angle == 90]
    assert sorted(t.tile for t in side) == ["7z", "9s", "9s"]
    assert all(t.angle == 0 for t in s.tiles if t.group in ("hand", "win"))
    # the pon's sideways tile is the leftmost of its meld (called from the left player)
    pon = sorted((t for t in meld if t.tile == "7z"), key=lambda t: t.box[0] + t.box[2])
    assert pon[0].angle == 90 and pon[1].angle == 0


def test_a_face_seen_edge_on_or_from_behind_is_not_visible():
    """Whole-table render 8460038: the player's tiles stood up, the camera steeply above
    them, showed their top edges, yet were labelled as faces in full view. A face counts as
    seen only as squarely as the camera sees it (draw.facing)."""
    from datasets.synth.draw import facing
    from datasets.synth.geometry import Body, Dims, flat_axes, look_at, standing_axes

    d = Dims(26.0, 35.0, 18.0, 0.6)
    here = np.zeros(3)

    def seen(body: Body, pitch: float) -> float:
        return facing(body, d, look_at(pitch, 600.0, here, 1000.0, 640.0, 480.0))

    lying = Body("1p", "hand", here + [0, 0, d.t / 2], flat_axes(0), 0)
    back = Body("back", "other", here + [0, 0, d.t / 2], flat_axes(0, True), 0, face_down=True)
    standing = Body("1p", "hand", here + [0, 0, d.h / 2], standing_axes(0), 0, standing=True)
    turned = Body(
        "back",
        "other",
        here + [0, 0, d.h / 2],
        standing_axes(180),
        0,
        face_down=False,
        standing=True,
    )
    assert seen(lying, 60) == seen(back, 60) == 1.0  # a face lying on the table, from above
    assert seen(standing, 30) == 1.0  # a standing hand seen from the player's seat
    assert seen(standing, 88) == 0.0  # ... from straight above: its top edge only
    assert seen(turned, 30) == 0.0  # another player's standing tile: its face turned away


def test_stacked_kakan_marks_the_covered_tile(scene_bank):
    spec = HandSpec(
        ("1p", "2p", "3p", "5s", "6s", "7s", "1z", "1z", "2z", "2z"),
        "2z",
        (Meld("kakan", ("9s", "9s", "9s", "9s"), called=1, stacked=True),),
    )
    s = _render(6, scene_bank, spec, distractors=False)
    nines = [t for t in s.tiles if t.tile == "9s"]
    assert len(nines) == 4
    assert sum(t.occluded for t in nines) == 1
    assert sum(t.angle == 90 for t in nines) == 2
    covered = next(t for t in nines if t.occluded)
    assert covered.face_visible < 0.3
    assert all(t.face_visible > 0.5 for t in nines if not t.occluded)


def test_ankan_ends_are_face_down(scene_bank):
    spec = HandSpec(
        ("1p", "2p", "3p", "5s", "6s", "7s", "1z", "1z", "2z", "2z"),
        "2z",
        (Meld("ankan", ("6z", "6z", "6z", "6z")),),
    )
    for seed in (7, 8, 9):
        s = _render(seed, scene_bank, spec, distractors=False)
        meld = [t for t in s.tiles if t.group == "meld"]
        # order along the row: project the centres on the row direction (hand → melds)
        hand = [t for t in s.tiles if t.group == "hand"]
        a = (
            np.mean([(t.box[0] + t.box[2]) / 2 for t in hand[:2]]),
            np.mean([(t.box[1] + t.box[3]) / 2 for t in hand[:2]]),
        )

        def pos(t, a=a):
            return np.hypot((t.box[0] + t.box[2]) / 2 - a[0], (t.box[1] + t.box[3]) / 2 - a[1])

        meld.sort(key=pos)
        assert [t.face_down for t in meld] == [True, False, False, True]
        assert [t.tile for t in meld] == ["back", "6z", "6z", "back"]
        assert all(t.hidden == "6z" for t in meld if t.face_down)


def test_kita_are_labelled_and_set_apart(scene_bank):
    spec = HandSpec(
        ("1p", "2p", "3p", "5s", "6s", "7s", "1z"),
        "1z",
        (Meld("pon", ("7z", "7z", "7z"), called=1),),
        kita=("4z", "0m"),
        aka_5man=True,
    )
    s = _render(10, scene_bank, spec, distractors=False)
    kita = [t for t in s.tiles if t.group == "kita"]
    assert sorted(t.tile for t in kita) == ["0m", "4z"]
    assert s.hand["kita"] == 2 and s.hand["kita_aka"] == 1
    qa, qb = (np.array(t.quad, np.float32) for t in kita)
    area, _ = cv2.intersectConvexConvex(qa, qb)
    assert area < 1.0  # set aside singly: the two faces do not overlap


def test_plain_scene_is_a_single_row(scene_bank):
    rng = np.random.default_rng(4)
    spec = random_hand_spec(rng, plain=True)
    s = _render(13, scene_bank, spec)
    assert s.meta["plain"] is True
    assert not s.hand["melds"] and s.hand["kita"] == 0
    assert {t.group for t in s.tiles} <= {"hand", "win", "other"}


# ---------------------------------------------------------------- crops and CLI


def test_crops_are_upright_48x64_with_known_classes(scene_bank):
    from datasets.synth.crops import crop_scene, crops_from_scene
    from datasets.synth.faces import CLASSES

    rng = np.random.default_rng(5)
    crops = crops_from_scene(crop_scene(rng, scene_bank, size=SIZE), rng)
    assert crops
    for cls, img in crops:
        assert cls in CLASSES
        assert img.shape == (64, 48, 3) and img.dtype == np.uint8


def test_generate_cli_is_deterministic(scene_bank, tmp_path):
    from datasets.synth import generate

    src = ["--shared", str(SHARED)] if (SHARED / "art").is_dir() else ["--placeholder-faces"]
    for d in ("a", "b"):
        assert (
            generate.main(
                ["--out", str(tmp_path / d), "--n", "2", "--seed", "9", "--size", "320x240", *src]
            )
            == 0
        )
    la = json.loads((tmp_path / "a/labels/000001.json").read_text())
    lb = json.loads((tmp_path / "b/labels/000001.json").read_text())
    assert la == lb and la["width"] == 320 and la["image"] == "images/000001.jpg"
    assert (tmp_path / "a/images/000000.jpg").stat().st_size > 1000
    assert (
        generate.main(["--crops", "--out", str(tmp_path / "c"), "--n", "1", "--seed", "1", *src])
        == 0
    )
    z = np.load(tmp_path / "c/crops_000000.npz")
    assert z["images"].shape[1:] == (64, 48, 3) and len(z["labels"]) == len(z["images"])


def test_closeup_zooms_in_and_labels_cut_tiles(scene_bank):
    from datasets.synth.scene import render_scene

    w, h = SIZE
    wide = render_scene(np.random.default_rng(21), size=SIZE, bank=scene_bank)
    close = render_scene(np.random.default_rng(21), size=SIZE, bank=scene_bank, closeup=True)
    assert close.meta["closeup"] is True and wide.meta["closeup"] is False
    assert close.hand == wide.hand

    def median_width(s):
        return np.median([t.box[2] - t.box[0] for t in s.tiles if not t.truncated])

    assert median_width(close) > 1.3 * median_width(wide)
    for t in close.tiles:
        x0, y0, x1, y1 = t.box
        assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
        assert t.truncated == (t.visible < 0.999)


def _win_gap(s):
    """(gap before the winning tile, gap between the last two row tiles) along the row, px."""

    def centre(t):
        return np.array([(t.box[0] + t.box[2]) / 2, (t.box[1] + t.box[3]) / 2])

    row = [centre(t) for t in s.tiles if t.group == "hand"]
    win = [centre(t) for t in s.tiles if t.group == "win"]
    assert len(win) == 1
    axis = (row[-1] - row[0]) / np.linalg.norm(row[-1] - row[0])
    along = sorted(float(p @ axis) for p in row)
    w_along = float(win[0] @ axis)
    assert w_along > along[-1]  # the winning tile is at the end of the row
    return w_along - along[-1], along[-1] - along[-2]


def test_winning_tile_is_set_apart_at_the_end_of_the_row(scene_bank):
    spec = HandSpec(
        ("1p", "2p", "3p", "5s", "6s", "7s", "1z", "1z", "1z", "2z", "3z", "3z", "9m"), "9m"
    )
    for seed in range(30, 36):
        s = _render(seed, scene_bank, spec, distractors=False)
        assert s.meta["win_apart"]
        gap, step = _win_gap(s)
        assert gap > 1.15 * step


def test_plain_rows_keep_the_winning_tile_touching(scene_bank):
    spec = HandSpec(
        ("1p", "2p", "3p", "5s", "6s", "7s", "1z", "1z", "1z", "2z", "3z", "3z", "9m"),
        "9m",
        plain=True,
    )
    for seed in range(40, 44):
        s = _render(seed, scene_bank, spec, distractors=False)
        assert s.meta["win_apart"] is False
        gap, step = _win_gap(s)
        assert gap < 1.1 * step


def test_tiles_of_a_layout_never_intersect():
    from datasets.synth.geometry import Dims, corners
    from datasets.synth.layout import distractors, hand_layout

    rng = np.random.default_rng(9)
    d = Dims(26.0, 35.0, 18.0, 0.6)
    for _ in range(40):
        bodies = hand_layout(random_hand_spec(rng), d, rng)
        bodies += [b for b in distractors(rng, d, (0, 0, 400, 40)) if b.important]
        feet = []
        for b in bodies:
            p = corners(b, d)
            low = p[p[:, 2] <= p[:, 2].min() + 1e-6][:, :2].astype(np.float32)
            feet.append((b, cv2.convexHull(low)))
        for i, (a, fa) in enumerate(feet):
            for b, fb in feet[i + 1 :]:
                if abs(a.center[2] - b.center[2]) > d.t / 2:
                    continue  # stacked (kakan on its sideways tile)
                area, _ = cv2.intersectConvexConvex(fa, fb)
                assert area < 0.5, (a.tile, a.group, b.tile, b.group, area)


def test_quads_read_upright_even_for_sideways_tiles():
    """Warping a label's quad to a rectangle gives the face as it reads (text stays level)."""
    from datasets.synth.crops import rectify
    from datasets.synth.faces import placeholder_bank
    from datasets.synth.scene import render_scene

    bank = placeholder_bank()  # faces are their class name written left to right
    spec = HandSpec(
        ("1p", "2p", "3p", "5s", "6s", "7s", "1z"),
        "1z",
        (Meld("pon", ("7z", "7z", "7z"), called=0), Meld("pon", ("2z", "2z", "2z"), called=2)),
    )
    checked = 0
    for seed in range(4):
        s = render_scene(
            np.random.default_rng(seed), spec=spec, size=(1280, 960), bank=bank, distractors=False
        )
        for t in s.tiles:
            if t.face_down or t.face_visible < 0.9:
                continue
            crop = rectify(s.image, np.array(t.quad)).astype(np.float32)
            ink = crop.mean(axis=2) < 0.75 * np.median(crop.mean(axis=2))
            ys, xs = np.nonzero(ink[4:-4, 4:-4])
            assert len(xs) > 10
            assert np.ptp(xs) > np.ptp(ys), (t.tile, t.angle)  # a line of text: wider than tall
            checked += t.angle == 90
    assert checked >= 4
