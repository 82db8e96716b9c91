"""The output JSON of docs/api.md, field by field and with its types, over HTTP (the CLI
prints the same objects: tests/engine/test_cli.py). Extra fields are allowed (the contract
may grow); the listed ones must be there with the listed types and values."""

from __future__ import annotations

from typing import Any

import pytest

LIMITS = (None, "mangan", "haneman", "baiman", "sanbaiman", "yakuman")
REASONS = ("no_win_shape", "insufficient_yaku", "furiten", "yakuman_only")

WIN = {"hand": "234p456p789s11z22z", "win": "2z", "riichi": "riichi"}
HANDS = [
    WIN,  # child ron
    {**WIN, "tsumo": True, "honba": 2, "deposits": 1, "dora": ["1z"]},  # child tsumo
    {**WIN, "tsumo": True, "seat": "E"},  # dealer tsumo: two child payers
    {"hand": "19m19p19s1234567z", "win": "1m"},  # yakuman
    {"hand": "1399p1357s123z44z", "win": "5z"},  # no_win_shape
    {**WIN, "riichi": "none"},  # insufficient_yaku
    {**WIN, "discards": "1z"},  # furiten (extension field)
]


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def check_result(r: dict[str, Any], hand: dict[str, Any]) -> None:
    assert isinstance(r["valid"], bool)
    assert r["reason"] is None if r["valid"] else r["reason"] in REASONS
    for key in ("han", "yaku_han", "fu", "yakuman_multiple", "total"):
        assert _is_int(r[key]), key
    assert r["limit"] in LIMITS
    assert (r["limit"] == "yakuman") == (r["yakuman_multiple"] >= 1)
    for y in r["yaku"]:
        assert isinstance(y["id"], str) and _is_int(y["han"])
    assert set(r["dora"]) >= {"dora", "ura", "aka", "kita", "aka5man_bonus"}
    assert all(_is_int(v) for v in r["dora"].values())
    froms = [p["from"] for p in r["payments"]]
    assert all(_is_int(p["amount"]) for p in r["payments"])
    if r["valid"]:
        if not hand.get("tsumo"):
            assert froms == ["discarder"]
        elif hand.get("seat") == "E":
            assert froms == ["child", "child"]
        else:
            assert sorted(froms) == ["child", "dealer"]
        assert all(p["amount"] > 0 for p in r["payments"])
    else:
        assert all(p["amount"] < 0 for p in r["payments"])  # chombo, paid by the claimant
    received = 1000 * hand.get("deposits", 0) if r["valid"] else 0
    assert r["total"] == sum(p["amount"] for p in r["payments"]) + received
    g = r["guarantee"]
    assert _is_int(g["required"]) and isinstance(g["ok"], bool)
    assert g["minimum_over_waits"] is None or _is_int(g["minimum_over_waits"])
    for w in g["waits"]:
        assert isinstance(w["tile"], str) and _is_int(w["yaku_han"])
    for f in r["fu_breakdown"]:
        assert isinstance(f["reason"], str) and _is_int(f["fu"])


@pytest.mark.parametrize("hand", HANDS, ids=lambda h: f"{h['hand']}-{h['win']}")
def test_contract_result_json_fields_and_types(client, hand):
    r = client.post("/v1/score", json=hand)
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    check_result(r.json(), hand)


def test_contract_result_reasons_are_reached(client):
    reasons = {client.post("/v1/score", json=h).json()["reason"] for h in HANDS}
    assert reasons >= {None, "no_win_shape", "insufficient_yaku", "furiten"}


@pytest.mark.parametrize(
    "hand",
    [
        {"hand": "234p456p789s11z22z", "riichi": "riichi"},
        {"hand": "234p456p789s11z22z"},
        {"hand": "1379p1379s1234z5z", "riichi": "riichi"},  # noten riichi
    ],
)
def test_contract_tenpai_json_fields_and_types(client, hand):
    r = client.post("/v1/tenpai", json=hand)
    assert r.status_code == 200, r.text
    t = r.json()
    for key in ("tenpai", "guarantee_ok", "noten_riichi"):
        assert isinstance(t[key], bool), key
    assert t["tenpai"] == bool(t["waits"])
    for w in t["waits"]:
        assert isinstance(w["tile"], str) and _is_int(w["yaku_han"])
        assert isinstance(w["valid_ron"], bool) and isinstance(w["valid_tsumo"], bool)
    assert t["noten_riichi"] == (not t["tenpai"] and hand.get("riichi", "none") != "none")
