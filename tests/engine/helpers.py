"""Small helpers for the engine tests."""

from __future__ import annotations

from typing import Any

from sanma_lens.engine.service import score_json, tenpai_json


def score(hand: str, win: str, **kw: Any) -> dict[str, Any]:
    return score_json({"hand": hand, "win": win, **kw})


def tenpai(hand: str, **kw: Any) -> dict[str, Any]:
    return tenpai_json({"hand": hand, **kw})


def yaku(result: dict[str, Any]) -> dict[str, int]:
    """id → han (yakuhai summed over its sets)."""
    out: dict[str, int] = {}
    for y in result["yaku"]:
        out[y["id"]] = out.get(y["id"], 0) + y["han"]
    return out
