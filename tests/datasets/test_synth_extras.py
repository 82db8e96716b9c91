"""What real Japanese tables add to the renders (datasets.synth.extras): things that are not
tiles, coloured backs beside blank white dragons, loose tiles at any angle, slanted hands and
the whole automatic table. The labels stay exact: boxes, classes, groups and angles.

Rules pinned: docs/rules.md "Tiles" §1, §3, §A1–A2 (four of a kind at most, the sanma set)
and the table conventions of called melds (§23: one tile sideways, an ankan's ends face down).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.synth.extras import NONE, SET_BACKS, Extras, parse_extras
from datasets.synth.hands import backs_hand_spec, base_kind, hand_problems, parse_mpsz

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "datasets"
SIZE = (960, 720)


@pytest.fixture(scope="module")
def bank():
    """The real face bank when the shared datasets are here, else drawn stand-in faces."""
    from datasets.synth.faces import load_bank, placeholder_bank

    if (SHARED / "art/fluffystuff").is_dir():
        return load_bank(str(SHARED))
    return placeholder_bank()


def _render(seed, bank, extras, **kw):
    from datasets.synth.scene import render_scene

    return render_scene(
        np.random.default_rng(seed), size=kw.pop("size", SIZE), bank=bank, extras=extras, **kw
    )


def _hand_tiles(hand: dict) -> list[str]:
    want = parse_mpsz(hand["hand"]) + ([hand["win"]] if hand.get("win") else [])
    for m in hand["melds"]:
        want += parse_mpsz(m.split(":")[1])
    return want + ["0m"] * hand["kita_aka"] + ["4z"] * (hand["kita"] - hand["kita_aka"])


def _mine(scene) -> list[str]:
    return [
        t.hidden if t.face_down else t.tile
        for t in scene.tiles
        if t.group in ("hand", "win", "meld", "kita")
    ]


def _footprints_apart(scene) -> None:
    """No two labelled tiles lying on the table share image area beyond a sliver, unless
    one is stacked on the other (a wall's two layers, a kakan)."""
    flat = [t for t in scene.tiles if not t.standing and not t.occluded and not t.truncated]
    for i, a in enumerate(flat):
        qa = np.array(a.quad, np.float32)
        for b in flat[i + 1 :]:
            area, _ = cv2.intersectConvexConvex(qa, np.array(b.quad, np.float32))
            assert area < 0.05 * cv2.contourArea(qa) + 1, (a, b)


# ---------------------------------------------------------------- the options value


def test_extras_parse_names_and_reject_unknown_ones():
    assert parse_extras("") == NONE == Extras() and not NONE.any
    e = parse_extras("clutter, backs")
    assert e == Extras(clutter=True, backs=True) and e.names() == ["clutter", "backs"]
    assert parse_extras("none") == NONE
    with pytest.raises(ValueError, match="unknown scene extra 'dice'"):
        parse_extras("dice")
    with pytest.raises(ValueError, match="exclude each other"):
        parse_extras("scatter,table")


def test_no_extras_render_as_before(bank):
    """All options off is the default: the training and benchmark seeds keep their scenes."""
    from datasets.synth.scene import render_scene

    for seed in (3, 4):
        a = render_scene(np.random.default_rng(seed), size=SIZE, bank=bank)
        b = _render(seed, bank, NONE)
        assert np.array_equal(a.image, b.image) and a.hand == b.hand
        assert "extras" not in a.meta


def test_image_turn_reads_the_quad():
    from datasets.synth.scene import image_turn

    upright = np.array([[0, 0], [10, 0], [10, 14], [0, 14]], float)  # TL TR BR BL, y down
    assert image_turn(upright) == pytest.approx(0.0)
    left = np.array([[0, 10], [0, 0], [14, 0], [14, 10]], float)  # top edge on the left
    assert image_turn(left) == pytest.approx(90.0)
    assert image_turn(upright[[2, 3, 0, 1]]) == pytest.approx(180.0)


# ---------------------------------------------------------------- things that are not tiles


def test_seven_segment_digits_light_their_segments():
    from datasets.synth.clutter import SEGMENTS, seven_segment

    assert len(SEGMENTS["8"]) == 7 and SEGMENTS["1"] == "bc"
    red = (40, 40, 255)
    eight, one = seven_segment("8", red, ghost=0.0), seven_segment("1", red, ghost=0.0)
    assert eight.shape == one.shape
    lit8, lit1 = eight[..., 2] > 128, one[..., 2] > 128
    assert lit8.sum() > 2.5 * lit1.sum() > 0
    xs = np.nonzero(lit1)[1]
    assert xs.min() > one.shape[1] / 2  # a 1 lights only the right-hand segments
    assert eight[..., 2].mean() > eight[..., 0].mean()  # a red display glows red


def test_clutter_scenes_label_every_kind_of_thing_apart_from_the_tiles(bank):
    from datasets.synth.clutter import KINDS

    w, h = SIZE
    kinds: Counter = Counter()
    for seed in range(14):
        s = _render(seed, bank, Extras(clutter=True))
        assert s.meta["extras"] == ["clutter"]
        kinds.update(t.kind for t in s.things)
        for thing in s.things:
            x0, y0, x1, y1 = thing.box
            assert 0 <= x0 <= x1 <= w and 0 <= y0 <= y1 <= h
            assert 0 < thing.visible <= 1
        assert sorted(_mine(s)) == sorted(_hand_tiles(s.hand))
        for t in s.tiles:  # a thing never hides a tile's face
            if t.group != "other" and not t.occluded:
                assert t.face_visible > 0.5, t
    assert set(KINDS) <= set(kinds), kinds


def test_discs_are_drawn_round_with_their_holes():
    """A coin is drawn as a disc; a 5-yen coin's hole shows the table through it."""
    from datasets.synth.clutter import coin
    from datasets.synth.draw import Style, draw_body
    from datasets.synth.geometry import Body, Dims, flat_axes, look_at

    rng = np.random.default_rng(0)
    prop = coin(rng)
    while prop.top.shape[0] != int(22.0 * 4):  # the 5-yen coin (22 mm, a hole)
        prop = coin(rng)
    cam = look_at(90, 150, np.zeros(3), 800, 200, 200)
    img = np.zeros((400, 400, 3), np.uint8)
    body = Body(
        "prop",
        "prop",
        np.array([0, 0, prop.dims.t / 2]),
        flat_axes(0),
        0,
        important=False,
        prop=prop,
    )
    st = Style(
        None, np.zeros(3), np.zeros((4, 4, 3), np.uint8), np.zeros(3), np.array([0, 0, 1.0]), 0.6
    )
    draw_body(img, body, Dims(26, 35, 18, 0.6), cam, prop.top, st, 1.0)
    lit = img.max(axis=2) > 20
    ys, xs = np.nonzero(lit)
    assert abs(np.ptp(xs) - np.ptp(ys)) <= 3  # round, not a square
    assert not lit[200, 200] and lit[200, 200 + np.ptp(xs) // 3]  # hole in the middle


# ---------------------------------------------------------------- backs of every colour


def test_rule_23_backs_hands_lay_a_called_haku_set_beside_backs():
    rng = np.random.default_rng(0)
    ankans = 0
    for _ in range(200):
        spec = backs_hand_spec(rng)
        assert hand_problems(spec.to_hand()) == [], spec
        haku = [m for m in spec.melds if base_kind(m.tiles[0]) == "5z"]
        assert len(haku) == 1 and haku[0].called >= 0 and haku[0].kind != "ankan"
        ankans += any(m.kind == "ankan" for m in spec.melds)
        assert spec.dora
    assert 100 < ankans < 180


def test_backs_scenes_show_backs_and_haku_in_a_japanese_back_colour(bank):
    families = {tuple(c) for shades in SET_BACKS.values() for c in shades}
    sideways_haku = backs = 0
    for seed in range(8):
        s = _render(seed, bank, Extras(backs=True))
        back = np.array(s.meta["back"], float)
        assert min(np.abs(back - np.array(c)).max() for c in families) <= 0.1 * 255 + 1
        assert sorted(_mine(s)) == sorted(_hand_tiles(s.hand))
        assert hand_problems(s.hand) == []
        haku = [t for t in s.tiles if t.tile == "5z" and t.group == "meld"]
        assert len(haku) >= 3
        sideways_haku += sum(t.angle == 90 for t in haku)
        downs = [t for t in s.tiles if t.face_down]
        assert downs and all(t.tile == "back" for t in downs)
        backs += sum(t.group == "other" for t in downs)
    assert sideways_haku >= 8  # each called haku set has its sideways tile
    assert backs >= 8  # loose backs at any angle beyond the row


# ---------------------------------------------------------------- any angle


def test_scattered_tiles_lie_at_any_angle_and_read_upright_along_their_quads():
    """Loose tiles turn every way; warping a label's quad to a rectangle gives the face as it
    reads, whatever the angle (the stand-in faces' text starts at the left)."""
    from datasets.synth.crops import rectify
    from datasets.synth.faces import placeholder_bank
    from datasets.synth.scene import image_turn

    bank = placeholder_bank()
    turns, checked = [], 0
    for seed in range(6):
        s = _render(seed, bank, Extras(scatter=True), size=(1280, 960))
        assert s.hand == {"hand": None, "loose": len(s.tiles)}
        assert all(t.group == "other" for t in s.tiles) and len(s.tiles) >= 6
        _footprints_apart(s)
        for t in s.tiles:
            assert t.turn == pytest.approx(image_turn(np.array(t.quad)), abs=0.02)
            turns.append(t.turn)
            if t.face_down or t.face_visible < 0.9 or t.truncated:
                continue
            crop = rectify(s.image, np.array(t.quad)).astype(np.float32)
            ink = crop.mean(axis=2) < 0.75 * np.median(crop.mean(axis=2))
            ys, xs = np.nonzero(ink[4:-4, 4:-4])
            if len(xs) < 10:
                continue
            assert np.ptp(xs) > np.ptp(ys), (t.tile, t.turn)  # text level
            assert xs.mean() < (crop.shape[1] - 8) / 2, (t.tile, t.turn)  # ... not upside down
            checked += 1
    assert checked >= 30
    off_axis = [a for a in turns if 15 < a % 90 < 75]
    assert len(off_axis) > 0.3 * len(turns)
    assert {int(a // 90) for a in turns} == {0, 1, 2, 3}


def test_slanted_hands_keep_their_labels_and_turn_far(bank):
    tilts = []
    for seed in range(8):
        s = _render(seed, bank, Extras(slant=True))
        assert sorted(_mine(s)) == sorted(_hand_tiles(s.hand))
        tilts.append(abs(s.meta["tilt"]))
        row = [t.turn for t in s.tiles if t.group == "hand"]
        spread = max((a - row[0] + 180) % 360 - 180 for a in row) - min(
            (a - row[0] + 180) % 360 - 180 for a in row
        )
        assert spread < 60  # askew, still one row
    assert max(tilts) > 60


# ---------------------------------------------------------------- the whole table


def test_whole_table_keeps_the_hand_apart_from_the_others_tiles(bank):
    shown = 0
    for seed in range(6):
        s = _render(seed, bank, Extras(table=True), size=(1280, 960))
        assert sorted(_mine(s)) == sorted(_hand_tiles(s.hand))
        # the dora indicators lie face up on the dead wall, and only those are in the hand
        dora = [t for t in s.tiles if t.group == "dora"]
        assert sorted(t.tile for t in dora) == sorted(s.hand.get("dora", []))
        assert not any(t.face_down for t in dora)
        shown += bool(dora)
        assert hand_problems(s.hand) == []
        other = [t for t in s.tiles if t.group == "other"]
        assert len(other) >= 20
        face_up = Counter(base_kind(t.tile) for t in s.tiles if not t.face_down)
        assert max(face_up.values()) <= 4, face_up  # one set on the table
        assert any(t.kind == "panel" for t in s.things)
        # the others' discards face them: turned a quarter or a half for the camera
        turned = [t for t in other if not t.face_down and 45 < t.turn < 315]
        assert turned
        mine = [t for t in s.tiles if t.group in ("hand", "win")]
        near = max(t.box[3] for t in other if not t.truncated)
        assert np.median([t.box[3] for t in mine]) > 0.8 * near  # the hand is nearest
    assert shown


def test_whole_table_dora_indicators_lie_inside_a_wall():
    """The indicators are the top tiles of the dead wall's third stack from its end and the
    next (kan dora): face up, on a face-down tile, with wall stacks on both sides."""
    from datasets.synth.geometry import Dims
    from datasets.synth.hands import random_hand_spec
    from datasets.synth.whole import table_layout

    rng = np.random.default_rng(5)
    seen = 0
    for _ in range(12):
        d = Dims(rng.uniform(24, 28), 35.0, 18.0, 0.6)
        spec = replace(random_hand_spec(rng), dora=("3p", "7z"))
        bodies = table_layout(rng, spec, d)
        dora = [b for b in bodies if b.group == "dora"]
        if not dora:
            continue
        if len(dora) < 2:
            continue  # a stack that would meet the player's tiles is left out
        seen += 1
        assert sorted(b.tile for b in dora) == ["3p", "7z"] and not any(b.face_down for b in dora)
        tops = [
            b
            for b in bodies
            if b.face_down and not b.standing and abs(b.center[2] - dora[0].center[2]) < 1e-6
        ]
        for b in dora:
            under = [
                u
                for u in bodies
                if u.face_down
                and np.allclose(u.center[:2], b.center[:2])
                and u.center[2] < b.center[2]
            ]
            assert under and under[0].occluded
            beside = [float(np.linalg.norm(t.center[:2] - b.center[:2])) for t in tops]
            assert sum(x < 2.2 * d.w for x in beside) >= 1
        gap = float(np.linalg.norm(dora[0].center[:2] - dora[1].center[:2]))
        assert d.w < gap < 1.2 * d.w  # side by side on the wall
    assert seen >= 6


def test_whole_table_parts_never_intersect():
    """Tiles, stacks, standing hands and the centre panel of a whole table are laid apart on
    the table (a wall's top layer rests on its bottom one)."""
    from datasets.synth.geometry import Dims
    from datasets.synth.hands import random_hand_spec
    from datasets.synth.loose import footprint
    from datasets.synth.whole import table_layout

    rng = np.random.default_rng(9)
    for _ in range(12):
        d = Dims(rng.uniform(24, 28), 35.0, 18.0, 0.6)
        bodies = table_layout(rng, random_hand_spec(rng), d)
        assert all(b.important for b in bodies)
        feet = [(b, footprint(b, d)) for b in bodies]
        for i, (a, fa) in enumerate(feet):
            for b, fb in feet[i + 1 :]:
                if (
                    a.prop is None
                    and b.prop is None
                    and not (a.standing or b.standing)
                    and abs(a.center[2] - b.center[2]) > d.t / 2
                ):
                    continue  # one stacked on the other
                area, _ = cv2.intersectConvexConvex(fa, fb)
                assert area < 0.5, (a.tile, a.group, b.tile, b.group, area)


# ---------------------------------------------------------------- crops and the CLI


def test_none_crops_are_cut_on_things_not_on_tiles(bank):
    from datasets.synth.crops import none_crops

    n = 0
    for seed in range(4):
        s = _render(seed, bank, Extras(clutter=True))
        crops = none_crops(s, np.random.default_rng(seed))
        assert all(c == "none" and img.shape == (64, 48, 3) for c, img in crops)
        n += len(crops)
    assert n >= 6


def test_generate_cli_renders_extras_and_none_crops(bank, tmp_path):
    import json

    from datasets.synth import generate

    src = ["--shared", str(SHARED)] if (SHARED / "art").is_dir() else ["--placeholder-faces"]
    assert (
        generate.main(
            [
                "--out",
                str(tmp_path / "s"),
                "--n",
                "2",
                "--seed",
                "3",
                "--size",
                "320x240",
                "--extras",
                "table,clutter",
                *src,
            ]
        )
        == 0
    )
    lab = json.loads((tmp_path / "s/labels/000000.json").read_text())
    assert lab["meta"]["extras"] == ["clutter", "table"]
    assert any(t["kind"] == "panel" for t in lab["things"])
    assert all(0 <= t["turn"] < 360 for t in lab["tiles"])
    assert (
        generate.main(
            [
                "--crops",
                "--out",
                str(tmp_path / "c"),
                "--n",
                "3",
                "--seed",
                "1",
                "--extras",
                "clutter",
                *src,
            ]
        )
        == 0
    )
    classes = json.loads((tmp_path / "c/classes.json").read_text())["classes"]
    z = np.load(tmp_path / "c/crops_000000.npz")
    assert classes[-1] == "none" and classes.index("none") in set(z["labels"].tolist())
    with pytest.raises(SystemExit):
        generate.main(["--out", str(tmp_path / "x"), "--n", "1", "--extras", "dice", *src])


def test_training_renders_label_things_none_for_the_classifier_only():
    """datasets.train's renders with extras carry ``none`` windows on the things: classifier
    crops of not-a-tile; the detector's targets hold the tiles alone."""
    pytest.importorskip("torch")
    from datasets import train

    plain = train._render_one(8_950_000)
    assert "none" not in plain.labels
    p = train._render_one(8_950_000, extras="clutter,table")
    assert p is not None and "none" in p.labels
    assert len(p.labels) == len(p.boxes) == len(p.sideways) == len(p.stacked)
    assert any(p.labels[j] == "none" for _, j in train.rend_crops([p]))
    seen = []

    class Spy(train.DetData):
        def targets(self, boxes, side, stack=None):
            seen.append(len(boxes))
            return super().targets(boxes, side, stack)

    data = Spy([p], np.ones(1), 1, size=256)
    data[0]
    assert seen == [sum(lab != "none" for lab in p.labels)]


def test_training_render_blocks_follow_one_another_in_seeds():
    """`datasets.train --renders-extras` is repeatable: each block's seeds start where the
    one before ends, so a render cache keeps serving the same scenes."""
    pytest.importorskip("torch")
    from datasets.train import render_blocks

    blocks = render_blocks(7000, 300, 0, ["500:clutter,backs,slant", "200:table", "200:scatter"])
    assert blocks == [
        (300, 1_007_000, "random", ""),
        (0, 1_007_300, "kakan", ""),
        (500, 1_007_300, "random", "clutter,backs,slant"),
        (200, 1_007_800, "random", "table"),
        (200, 1_008_000, "random", "scatter"),
    ]
    for bad in ("clutter", "x:table", "10:", "10:dice"):
        with pytest.raises(ValueError):
            render_blocks(0, 1, 0, [bad])
