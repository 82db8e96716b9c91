"""Differential test: the ``riichi-4p`` preset against the `mahjong` library (2.1.0).

The library, with ``OptionalRules(has_open_tanyao=True, has_aka_dora=True)`` and its defaults
otherwise, *is* the definition of the preset (rules.py ``RIICHI_4P``). For N seeded random
legal winning hands (``benchmarks.ref4p``) the two must agree on the yaku set and each yaku's
han, total han, fu, dora / ura / red fives, the limit and yakuman multiple, every payment and
the total — and a hand the library refuses for having no yaku must be our ``valid: false,
reason: insufficient_yaku``. The only field ever left out is one named in
``ref4p.DOCUMENTED``, and each of those has its own test below that pins both answers.

``benchmarks/differential.py`` runs the same comparison for a million hands.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

pytest.importorskip("mahjong")

from benchmarks.ref4p import (  # noqa: E402
    DOCUMENTED,
    TERMINAL_HONOR,
    VARIANTS,
    Deal,
    MeldSpec,
    compare,
    library_result,
    random_deal,
)
from sanma_lens.engine.rules import RIICHI_4P  # noqa: E402
from sanma_lens.engine.service import score_json, tenpai_json  # noqa: E402

pytestmark = pytest.mark.differential

N = 5000
SEED = 20261122


@pytest.fixture(scope="module")
def deals() -> list[Deal]:
    rng = random.Random(SEED)
    return [random_deal(rng) for _ in range(N)]


@pytest.fixture(scope="module")
def verdicts(deals: list[Deal]) -> list:
    return [compare(d) for d in deals]


def test_differential_riichi4p_agrees_with_the_library_on_every_hand(deals, verdicts) -> None:
    """Yaku, han, fu, dora, limit, payments and total agree on all N hands (no-yaku ↔ invalid)."""
    bad = [(d.hand_json(), v) for d, v in zip(deals, verdicts, strict=True) if not v.agrees]
    assert not bad, f"{len(bad)} of {N} disagree; first: {bad[0]}"
    counts = Counter(v.category for v in verdicts)
    # both outcomes are exercised: valid wins and hands without yaku
    assert counts["agree"] > N // 2
    assert counts["agree_no_yaku"] > N // 20


@pytest.mark.parametrize("variant", sorted(set(VARIANTS) - {"default"}))
def test_differential_rule_variants_agree_with_the_library_options(variant: str) -> None:
    """Options of the preset against the library's OptionalRules (ref4p.VARIANTS):
    kiriage_mangan ↔ kiriage, kazoe_max_multiple 0 ↔ KAZOE_NO_LIMIT, kazoe_yakuman false ↔
    KAZOE_SANBAIMAN, double_yakuman false ↔ has_double_yakuman false, renhou_han 13 ↔
    renhou_as_yakuman (the last three are seed 003 variants)."""
    rng = random.Random(SEED + 1)
    verdicts = [compare(random_deal(rng), variant) for _ in range(N // 5)]
    bad = [v for v in verdicts if not v.agrees]
    assert not bad, f"{len(bad)} disagree under {variant}; first: {bad[0]}"


def test_differential_renhou_as_yakuman_on_renhou_deals() -> None:
    """seed 003's renhou variations: renhou_han 13 against the library's renhou_as_yakuman,
    on generated renhou deals only (a few in every hundred deals are)."""
    rng = random.Random(SEED + 2)
    renhou = [d for d in (random_deal(rng) for _ in range(N // 2)) if d.situation["renhou"]]
    assert len(renhou) >= 10
    verdicts = [compare(d, "renhou_yakuman") for d in renhou]
    bad = [v for v in verdicts if not v.agrees]
    assert not bad, f"{len(bad)} disagree; first: {bad[0]}"
    assert any(v.library["yaku"].get("renhou") == 13 for v in verdicts)


def test_differential_covers_every_yaku_of_the_preset(verdicts) -> None:
    """The generator's themes reach every yaku of the riichi-4p table within N hands."""
    seen = Counter(y for v in verdicts if v.category == "agree" for y in v.library["yaku"])
    missing = [spec.id for spec in RIICHI_4P.yaku if seen[spec.id] == 0]
    assert not missing, f"never generated: {missing}"


def test_differential_covers_limits_payments_and_situations(deals, verdicts) -> None:
    """Every limit tier, kazoe and double yakuman, dealer/child, ron/tsumo, honba, deposits."""
    valid = [(d, v) for d, v in zip(deals, verdicts, strict=True) if v.category == "agree"]
    limits = Counter((v.ours["limit"], v.ours["yakuman_multiple"]) for _, v in valid)
    for tier in [(None, 0), ("mangan", 0), ("haneman", 0), ("baiman", 0), ("sanbaiman", 0)]:
        assert limits[tier] > 0, tier
    assert limits[("yakuman", 1)] > 0 and limits[("yakuman", 2)] > 0
    kazoe = [v for _, v in valid if v.ours["limit"] == "yakuman" and v.ours["yaku_han"] < 13]
    assert kazoe, "no counted (kazoe) yakuman"
    situations = Counter()
    for d, _ in valid:
        s = d.situation
        situations["dealer" if s["seat"] == "E" else "child"] += 1
        situations["tsumo" if s["tsumo"] else "ron"] += 1
        situations["honba"] += s["honba"] > 0
        situations["deposits"] += s["deposits"] > 0
        situations["chi"] += any(m.kind == "chi" for m in d.melds)
        situations["kan"] += any(m.kind.endswith("kan") for m in d.melds)
        situations["red"] += any(t // 4 in (4, 13, 22) and t % 4 == 0 for t in d.concealed)
        situations["north_seat"] += s["seat"] == "N"
    assert all(situations[k] > 0 for k in situations) and len(situations) == 10


def test_differential_generator_deals_are_legal(deals) -> None:
    """At most four of a kind (one red five per suit) over hand, melds and indicators; the
    library reads every deal as a winning hand (never ``hand_not_winning``)."""
    for d in deals:
        tiles = [*d.concealed, d.win, *(t for m in d.melds for t in m.tiles), *d.dora, *d.ura]
        assert len(tiles) == len(set(tiles)), d  # 136-ids: each physical tile once
        assert len(d.concealed) + 3 * len(d.melds) == 13, d
        for m in d.melds:
            kinds = sorted(t // 4 for t in m.tiles)
            if m.kind == "chi":
                assert kinds == [kinds[0], kinds[0] + 1, kinds[0] + 2] and kinds[0] < 27
                assert kinds[0] // 9 == kinds[2] // 9
            else:
                assert len(set(kinds)) == 1 and len(kinds) == (3 if m.kind == "pon" else 4)
    errors = Counter(library_result(d).get("error") for d in deals[:500])
    assert set(errors) <= {None, "no_yaku"}, errors


def test_differential_waits_agree_with_the_library_agari(deals) -> None:
    """Our tenpai waits of each deal's 13 tiles are the kinds the library's ``Agari`` reads as
    complete (manzu runs and chi included), less kinds the player already holds four of."""
    from mahjong.agari import Agari

    from sanma_lens.engine.tiles import name

    agari = Agari()
    for d in deals[:2000]:
        hand = {k: v for k, v in d.hand_json().items() if k != "win"}
        ours = [w["tile"] for w in tenpai_json(hand)["waits"]]
        concealed = [0] * 34
        for t in d.concealed:
            concealed[t // 4] += 1
        held = list(concealed)
        for m in d.melds:
            for t in m.tiles:
                held[t // 4] += 1
        theirs = []
        for k in range(34):
            if held[k] < 4:
                concealed[k] += 1
                if agari.is_agari(concealed):
                    theirs.append(name(k))
                concealed[k] -= 1
        assert ours == theirs, hand


# --- documented differences: each pins the library's answer, ours and why ------------------


def _kokushi_deal(tsumo: bool) -> Deal:
    kinds = sorted(TERMINAL_HONOR)
    tiles = [k * 4 + 1 for k in kinds] + [0 * 4 + 2]  # 13 orphans, the pair on 1m
    win = tiles.pop(1)  # 9m: the hand waited on 9m alone (not the 13-sided wait)
    situation = {
        "tsumo": tsumo, "seat": "S", "round": "E", "riichi": "none", "ippatsu": False,
        "rinshan": False, "haitei": False, "houtei": False, "tenhou": False, "chihou": False,
        "renhou": False, "honba": 0, "deposits": 0, "chankan": False,
    }  # fmt: skip
    return Deal(tuple(tiles), win, (), situation, (), ())


@pytest.mark.parametrize("tsumo", [False, True])
def test_documented_kokushi_fu_library_reports_zero(tsumo: bool) -> None:
    """DOCUMENTED["kokushi_fu"]: kokushi has no sets; the library reports 0 fu, we report the
    fu of a set-less closed hand (20 base + 10 closed ron, or + 2 tsumo → 30). The fu of a
    yakuman never reaches the payment, so payments agree and only fu is left out."""
    deal = _kokushi_deal(tsumo)
    lib = library_result(deal)
    ours = score_json(deal.hand_json())
    assert lib["yaku"] == {"kokushi": 13} and lib["fu"] == 0
    assert ours["fu"] == 30 and [y["id"] for y in ours["yaku"]] == ["kokushi"]
    verdict = compare(deal)
    assert verdict.category == "agree" and verdict.documented == ("kokushi_fu",)
    assert set(DOCUMENTED) == {"kokushi_fu", "kiriage_mangan_label"}


def _deal(
    concealed: str, win: str, dora: str = "", melds: tuple[str, ...] = (), **situation: Any
) -> Deal:
    """A hand-written deal: MPSZ tiles (no red fives) → 136-ids, copies counted up per kind."""
    used: Counter[int] = Counter()

    def ids(text: str) -> list[int]:
        out, digits = [], ""
        for ch in text:
            if ch.isdigit():
                digits += ch
                continue
            base = "mpsz".index(ch) * 9
            for d in digits:
                kind = base + int(d) - 1
                red_copy = kind in (4, 13, 22)  # copy 0 of a five is its red one: skip it
                out.append(kind * 4 + used[kind] + red_copy)
                used[kind] += 1
            digits = ""
        return out

    sit = {
        "tsumo": False, "seat": "S", "round": "E", "riichi": "none", "ippatsu": False,
        "rinshan": False, "haitei": False, "houtei": False, "tenhou": False, "chihou": False,
        "renhou": False, "honba": 0, "deposits": 0, "chankan": False, **situation,
    }  # fmt: skip
    specs = tuple(MeldSpec(m.split(":")[0], tuple(ids(m.split(":")[1]))) for m in melds)
    return Deal(tuple(ids(concealed)), ids(win)[0], specs, sit, tuple(ids(dora)), ())


def test_documented_kiriage_mangan_label_library_leaves_it_empty() -> None:
    """DOCUMENTED["kiriage_mangan_label"]: with kiriage on, a 4-han 40-fu hand (base 2,560,
    over the mangan cap: riichi, ippatsu, tanyao, dora) is paid 8,000 by the library but
    labelled '' instead of mangan."""
    deal = _deal("222m456p777s33p78s", "6s", "5p", riichi="riichi", ippatsu=True)
    lib = library_result(deal, "kiriage")
    ours = score_json(deal.hand_json(options=VARIANTS["kiriage"][0]))
    assert (lib["han"], lib["fu"], lib["limit"], lib["payments"]) == (
        4,
        40,
        None,
        [("discarder", 8000)],
    )
    assert (ours["han"], ours["fu"], ours["limit"]) == (4, 40, "mangan")
    assert [(p["from"], p["amount"]) for p in ours["payments"]] == [("discarder", 8000)]
    without = library_result(deal)  # the same hand without kiriage: labelled mangan
    assert without["limit"] == "mangan"
    verdict = compare(deal, "kiriage")
    assert verdict.category == "agree" and verdict.documented == ("kiriage_mangan_label",)


def test_kiriage_variant_rounds_4_han_30_fu_to_mangan_both_ways() -> None:
    """Option kiriage_mangan (seed 003/004 variant): 4 han 30 fu pays 8,000, as the library."""
    deal = _deal("234m456p345s33p67s", "5s", riichi="riichi", ippatsu=True)
    assert compare(deal).ours["payments"] != compare(deal, "kiriage").ours["payments"]
    verdict = compare(deal, "kiriage")
    assert verdict.category == "agree" and verdict.library["limit"] == "mangan"
    assert verdict.library["payments"] == [("discarder", 8000)]


def test_differential_tie_between_readings_goes_to_more_fu_before_rounding() -> None:
    """444m 4444p(ankan) 444 567 77s or 44 456 777s, ron 4s: tanyao + sanshoku doukou and
    tanyao + sanankou are both 3 han 60 fu (1 of 1.0 M random hands). The library keeps the
    reading with more fu before rounding (56 > 52: sanankou); so does riichi-4p
    (``tie_break_by_raw_fu``)."""
    deal = _deal("444m4456777s", "4s", melds=("ankan:4444p",), seat="N", round="W")
    verdict = compare(deal)
    assert verdict.category == "agree", verdict
    assert verdict.library["yaku"] == {"tanyao": 1, "sanankou": 2}
