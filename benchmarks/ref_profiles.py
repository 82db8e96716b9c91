"""The ``ecip`` and ``standard`` profiles against the `mahjong` library, where the two agree by
construction.

Each deal of ``benchmarks.ref4p`` (random legal four-player winning hands) is rewritten for
these profiles — red fives as plain fives and open riichi as riichi (neither exists in them) —
and scored by our profile and by the library set to the profile's nearest rules
(:data:`LIBRARY_OPTIONS`). Compared, as for ``riichi-4p``: the yaku (id → han), han, fu, dora,
limit, yakuman multiple, every payment and the total; a hand the library refuses for having
no yaku must be our ``insufficient_yaku``.

Where a profile's rule differs from the library's by design, the hand is not a disagreement:
:func:`compare_profile` names the rule (:data:`RULE_DIFFERENCES`), leaves out the fields it
moves, and checks what our side must show instead (e.g. ECIP's mangan cap: our limit is
mangan). Everything else must agree. ``tests/test_differential_profiles.py`` runs it.

Test and benchmark code: imports `mahjong`, never imported by the product.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from benchmarks.ref4p import COMPARED, Deal, library_result, our_result_view

#: the library's OptionalRules nearest to each profile
LIBRARY_OPTIONS: dict[str, dict[str, Any]] = {
    # ECIP: open tanyao, no red fives, renhou (ECIP's 地和) a yakuman, double yakuman hands
    "ecip": {"has_open_tanyao": True, "has_aka_dora": False, "renhou_as_yakuman": True},
    # standard: open tanyao, no red fives, no double yakuman, kazoe stops at sanbaiman
    "standard": {
        "has_open_tanyao": True,
        "has_aka_dora": False,
        "has_double_yakuman": False,
        "kazoe_limit": 1,  # KAZOE_SANBAIMAN
    },
}

#: without double yakuman the library still names the double hands; the standard proposal
#: has only their single forms (四暗刻 単騎待ちでも四倍満)
SINGLE_NAMES = {"suuankou_tanki": "suuankou", "kokushi_13": "kokushi", "chuuren_9": "chuuren"}

#: why a hand may differ, by profile: the rule, and what it moves
RULE_DIFFERENCES: dict[str, str] = {
    "guarantee": "the yaku must hold for every wait (ECIP 役の確定; standard 先づけ for open "
    "hands); the library asks the actual win only: ours is a chombo (insufficient_yaku, "
    "guarantee not ok) where the library scores the hand",
    "two_han": "ECIP: 2 han from 5 honba; the library always asks 1: ours is a chombo",
    "tenpane": "ECIP: nothing above mangan below yakuman (kazoe included); the library has "
    "haneman … and counted yakuman: our limit is mangan, payments differ",
    "tsumo_pinfu": "ECIP: no pinfu on a tsumo, which keeps its 2 fu; the library gives pinfu "
    "and 20 fu (tenhou's pinfu shape too): yaku, han, fu, limit and payments differ",
    "open_pinfu_20_fu": "ECIP: an open pinfu shape is 20 fu (30 only at 1 han); the library "
    "always 30: fu and payments differ at 2 han and more",
    "double_wind_pair": "standard: a double wind pair is 2 fu; the library 4: fu may differ",
    "rinshan_fu": "standard: a rinshan kaihou has no tsumo fu; the library adds 2: fu may differ",
    "renhou_4": "standard: renhou is 4 han; the library's is 5",
    "one_yakuman": "standard: several yakuman are one; the library adds them up",
    "chankan_kan_dora": "standard: the robbed kan's indicator (the last) does not count on a "
    "chankan; the library counts every indicator given",
}


@dataclass(frozen=True)
class ProfileVerdict:
    """``category``: "agree", "agree_no_yaku", "rule:<name>" (a documented difference, checked)
    or a description of a disagreement; ``rules`` names the differences applied."""

    category: str
    rules: tuple[str, ...]
    ours: dict[str, Any]
    library: dict[str, Any]

    @property
    def agrees(self) -> bool:
        return self.category.startswith(("agree", "rule:"))


def profile_deal(deal: Deal) -> Deal:
    """The deal as these profiles can have it: open riichi as riichi (no red fives: the hand
    JSON writes them as plain fives, see :func:`profile_hand`)."""
    s = dict(deal.situation)
    s["riichi"] = {"open": "riichi", "double_open": "double"}.get(s["riichi"], s["riichi"])
    return replace(deal, situation=s)


def profile_hand(deal: Deal, profile: str) -> dict[str, Any]:
    """Our hand JSON of ``deal`` under ``profile``, red fives written as plain fives."""
    obj = deal.hand_json(preset=profile)
    obj["hand"] = _plain_fives(obj["hand"])
    obj["win"] = _plain_fives(obj["win"])
    obj["melds"] = [_plain_fives(m) for m in obj["melds"]]
    obj["dora"] = [_plain_fives(t) for t in obj["dora"]]
    obj["ura"] = [_plain_fives(t) for t in obj["ura"]]
    return obj


def _plain_fives(text: str) -> str:
    """MPSZ text with every red five (a 0 digit) written as a plain five."""
    return text.replace("0", "5")


def compare_profile(deal: Deal, profile: str) -> ProfileVerdict:
    """Score ``deal`` under ``profile`` and with the library; name any difference."""
    from sanma_lens.engine.service import score_json

    deal = profile_deal(deal)
    lib = library_result(deal, options=LIBRARY_OPTIONS[profile])
    if profile == "standard" and "yaku" in lib:
        lib["yaku"] = {SINGLE_NAMES.get(y, y): h for y, h in lib["yaku"].items()}
    ours = score_json(profile_hand(deal, profile))
    s = deal.situation
    if "error" in lib:
        if lib["error"] == "no_yaku" and ours["reason"] == "insufficient_yaku":
            return ProfileVerdict("agree_no_yaku", (), ours, lib)
        return ProfileVerdict(f"library {lib['error']} / ours {ours['reason']}", (), ours, lib)
    if not ours["valid"]:
        rule = _why_invalid(ours, lib, s, profile)
        if rule:
            return ProfileVerdict(f"rule:{rule}", (rule,), ours, lib)
        return ProfileVerdict(f"library valid / ours invalid: {ours['reason']}", (), ours, lib)
    view = our_result_view(ours)
    fields = set(COMPARED)
    rules: list[str] = []
    if ours.get("form") == "kokushi" and lib["fu"] == 0:
        fields.discard("fu")  # ref4p.DOCUMENTED["kokushi_fu"]
    for rule, moved, holds in _differences(view, ours, lib, s, profile):
        if holds:
            rules.append(rule)
            fields -= moved
    bad = sorted(f for f in fields if view[f] != lib[f])
    if bad:
        return ProfileVerdict("differs: " + ", ".join(bad), tuple(rules), view, lib)
    if rules:
        return ProfileVerdict("rule:" + "+".join(rules), tuple(rules), view, lib)
    return ProfileVerdict("agree", (), view, lib)


def _why_invalid(
    ours: dict[str, Any], lib: dict[str, Any], s: dict[str, Any], profile: str
) -> str | None:
    """The profile's rule that makes a hand the library scores a chombo here, if it holds."""
    if ours["reason"] != "insufficient_yaku":
        return None
    g = ours["guarantee"]
    lib_yaku_han = sum(lib["yaku"].values())
    if profile == "ecip" and s["honba"] >= 5 and lib_yaku_han < 2:
        return "two_han"
    if not g["ok"] and lib_yaku_han >= g["required"]:
        return "guarantee"
    return None


def _differences(
    view: dict[str, Any],
    ours: dict[str, Any],
    lib: dict[str, Any],
    s: dict[str, Any],
    profile: str,
) -> list[tuple[str, set[str], bool]]:
    """Each documented difference of ``profile``: (name, the fields it moves, whether it
    applies to this hand — after checking what our side must show)."""
    money = {"payments", "total"}
    if profile == "ecip":
        over = lib["limit"] not in (None, "mangan") and not (
            lib["limit"] == "yakuman" and any(h >= 13 for h in lib["yaku"].values())
        )
        return [
            ("tenpane", {"limit", "yakuman_multiple"} | money, over and view["limit"] == "mangan"),
            (
                "tsumo_pinfu",
                {"yaku", "han", "fu", "limit"} | money,
                s["tsumo"]
                and "pinfu" not in view["yaku"]
                # a yakuman lists no pinfu: its pinfu-shaped reading had 20 fu in the library
                and ("pinfu" in lib["yaku"] or lib["limit"] == "yakuman")
                and lib["fu"] < view["fu"],
            ),
            (
                "open_pinfu_20_fu",
                {"fu"} | money,
                any(f["reason"] == "base" for f in ours["fu_breakdown"])
                and view["fu"] == 20
                and lib["fu"] == 30,
            ),
        ]
    pair_items = [f for f in ours["fu_breakdown"] if f["reason"].startswith("pair_")]
    double_wind = s["seat"] == s["round"] and any(
        f["reason"] == f"pair_{'ESWN'.index(s['seat']) + 1}z" for f in pair_items
    )
    return [
        ("double_wind_pair", {"fu", "limit"} | money, double_wind and lib["fu"] >= view["fu"]),
        ("rinshan_fu", {"fu", "limit"} | money, bool(s["rinshan"])),
        ("renhou_4", {"yaku", "han", "limit"} | money, bool(s.get("renhou"))),
        (
            "one_yakuman",
            {"yakuman_multiple"} | money,
            lib["yakuman_multiple"] > 1 and view["yakuman_multiple"] == 1,
        ),
        (
            "chankan_kan_dora",
            {"dora", "han", "limit"} | money,
            bool(s["chankan"]) and len(ours.get("dora", {})) > 0 and view["dora"] != lib["dora"],
        ),
    ]
