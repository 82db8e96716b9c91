"""Random four-player riichi hands and the `mahjong` library's verdict on them.

Shared by ``tests/test_differential.py`` (modest N, in CI) and ``benchmarks/differential.py``
(large N). The generator draws legal winning hands — closed and open, chi/pon/kan, seven
pairs, kokushi — with random situations; ``library_result`` scores one with the `mahjong`
library (PyPI 2.1.0) under ``OptionalRules(has_open_tanyao=True, has_aka_dora=True)`` and
returns it in our result JSON's vocabulary, so the two can be compared field by field.

This module is test/benchmark code: it imports `mahjong` and must never be imported by
``engine/``, ``vision/`` or ``api/``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

SUITS = "mps"
WINDS = "ESWN"
# 34-kind index: 0–8 man, 9–17 pin, 18–26 sou, 27–33 E S W N haku hatsu chun.
TERMINAL_HONOR = frozenset([0, 8, 9, 17, 18, 26, *range(27, 34)])
RED_KINDS = {4: "0m", 13: "0p", 22: "0s"}  # the library's red fives are 136-ids 16, 52, 88


def kind_name(kind: int) -> str:
    if kind >= 27:
        return f"{kind - 26}z"
    return f"{kind % 9 + 1}{SUITS[kind // 9]}"


def tile_name(t136: int) -> str:
    """MPSZ name of a 136-id; copy 0 of each five is the red one (0m/0p/0s)."""
    kind = t136 // 4
    if kind in RED_KINDS and t136 % 4 == 0:
        return RED_KINDS[kind]
    return kind_name(kind)


def mpsz(tiles136: list[int]) -> str:
    """Compact MPSZ string ("123m55p0s") of 136-ids, sorted by kind."""
    out: list[str] = []
    by_suit: dict[str, list[str]] = {s: [] for s in "mpsz"}
    for t in sorted(tiles136, key=lambda t: (t // 4, t % 4)):
        name = tile_name(t)
        by_suit[name[1]].append(name[0])
    for suit in "mpsz":
        if by_suit[suit]:
            out.append("".join(by_suit[suit]) + suit)
    return "".join(out)


@dataclass(frozen=True)
class MeldSpec:
    """A called or concealed set: kind is chi | pon | minkan | kakan | ankan."""

    kind: str
    tiles: tuple[int, ...]  # 136-ids
    called: int | None = None

    def to_json(self) -> str:
        return f"{self.kind}:{mpsz(list(self.tiles))}"


@dataclass(frozen=True)
class Deal:
    """One generated winning hand with its situation, in both vocabularies."""

    concealed: tuple[int, ...]  # 136-ids without the winning tile
    win: int
    melds: tuple[MeldSpec, ...]
    situation: dict[str, Any] = field(default_factory=dict)
    dora: tuple[int, ...] = ()
    ura: tuple[int, ...] = ()

    def hand_json(self) -> dict[str, Any]:
        return {
            "hand": mpsz(list(self.concealed)),
            "win": tile_name(self.win),
            "melds": [m.to_json() for m in self.melds],
            "dora": [tile_name(t) for t in self.dora],
            "ura": [tile_name(t) for t in self.ura],
            **self.situation,
            "rules": {"preset": "riichi-4p"},
        }


class _Wall:
    """Hands out 136-ids kind by kind so no kind is used more than four times."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.left = {k: rng.sample(range(k * 4, k * 4 + 4), 4) for k in range(34)}

    def free(self, kind: int) -> int:
        return len(self.left[kind])

    def take(self, kind: int, n: int = 1) -> list[int]:
        if self.free(kind) < n:
            raise ValueError("kind used up")
        return [self.left[kind].pop() for _ in range(n)]


def _sequence_starts() -> list[int]:
    return [s * 9 + n for s in range(3) for n in range(7)]


def _standard(rng: random.Random, wall: _Wall, n_open: int) -> tuple[list[int], list[MeldSpec]]:
    closed: list[int] = []
    melds: list[MeldSpec] = []
    for i in range(4):
        is_open = i < n_open
        roll = rng.random()
        if roll < 0.55:  # sequence
            for _ in range(20):
                start = rng.choice(_sequence_starts())
                if all(wall.free(start + d) >= 1 for d in range(3)):
                    tiles = [wall.take(start + d)[0] for d in range(3)]
                    break
            else:
                raise ValueError("no sequence")
            if is_open:
                melds.append(MeldSpec("chi", tuple(tiles), called=rng.choice(tiles)))
            else:
                closed += tiles
            continue
        kind = rng.randrange(34)
        kan = roll > 0.9
        need = 4 if kan else 3
        if wall.free(kind) < need:
            raise ValueError("kind used up")
        tiles = wall.take(kind, need)
        if kan:
            melds.append(
                MeldSpec(rng.choice(["minkan", "kakan"]) if is_open else "ankan", tuple(tiles))
            )
        elif is_open:
            melds.append(MeldSpec("pon", tuple(tiles), called=tiles[0]))
        else:
            closed += tiles
    kind = rng.randrange(34)
    closed += wall.take(kind, 2)
    return closed, melds


def _chiitoitsu(rng: random.Random, wall: _Wall) -> list[int]:
    kinds = rng.sample(range(34), 7)
    return [t for k in kinds for t in wall.take(k, 2)]


def _kokushi(rng: random.Random, wall: _Wall) -> list[int]:
    kinds = sorted(TERMINAL_HONOR)
    pair = rng.choice(kinds)
    return [t for k in kinds for t in wall.take(k, 2 if k == pair else 1)]


def random_deal(rng: random.Random) -> Deal:
    """A legal four-player winning hand and situation (retries until the draw fits)."""
    while True:
        try:
            return _try_deal(rng)
        except ValueError:
            continue


def _try_deal(rng: random.Random) -> Deal:
    wall = _Wall(rng)
    shape = rng.random()
    melds: list[MeldSpec] = []
    if shape < 0.05:
        closed = _chiitoitsu(rng, wall)
    elif shape < 0.06:
        closed = _kokushi(rng, wall)
    else:
        n_open = rng.choices([0, 1, 2, 3, 4], weights=[50, 20, 15, 10, 5])[0]
        closed, melds = _standard(rng, wall, n_open)
    win = rng.choice(closed)
    concealed = list(closed)
    concealed.remove(win)
    is_closed = all(m.kind == "ankan" for m in melds)
    has_kan = any(m.kind in ("minkan", "kakan", "ankan") for m in melds)
    tsumo = rng.random() < 0.45
    riichi = "none"
    if is_closed and rng.random() < 0.5:
        riichi = "double" if rng.random() < 0.1 else "riichi"
    situation: dict[str, Any] = {
        "tsumo": tsumo,
        "seat": rng.choice(WINDS),
        "round": rng.choice("ES"),
        "riichi": riichi,
        "ippatsu": riichi != "none" and rng.random() < 0.2,
        "haitei": tsumo and rng.random() < 0.05,
        "houtei": (not tsumo) and rng.random() < 0.05,
        "rinshan": tsumo and has_kan and rng.random() < 0.3,
        "honba": rng.choice([0, 0, 0, 1, 2, 3]),
        "deposits": rng.choice([0, 0, 0, 1, 2]),
    }
    if situation["rinshan"]:
        situation["haitei"] = False
    win_kind_count = sum(1 for t in closed if t // 4 == win // 4) + sum(
        1 for m in melds for t in m.tiles if t // 4 == win // 4
    )
    situation["chankan"] = (
        (not tsumo) and (not situation["houtei"]) and win_kind_count == 1 and rng.random() < 0.1
    )
    n_dora = rng.choice([1, 1, 1, 2, 3])
    free_kinds = [k for k in range(34) if wall.free(k) > 0]
    dora = tuple(wall.take(rng.choice(free_kinds))[0] for _ in range(n_dora) if free_kinds)
    ura: tuple[int, ...] = ()
    if riichi != "none":
        free_kinds = [k for k in range(34) if wall.free(k) > 0]
        ura = tuple(wall.take(rng.choice(free_kinds))[0] for _ in range(len(dora)))
    return Deal(tuple(concealed), win, tuple(melds), situation, dora, ura)


# --- the library's side -------------------------------------------------------------------

# Library yaku name → our yaku id (yakuhai entries are folded into one id per set).
LIBRARY_YAKU_IDS = {
    "Menzen Tsumo": "menzen_tsumo",
    "Riichi": "riichi",
    "Double Riichi": "double_riichi",
    "Open Riichi": "open_riichi",
    "Double Open Riichi": "double_open_riichi",
    "Ippatsu": "ippatsu",
    "Rinshan Kaihou": "rinshan",
    "Haitei Raoyue": "haitei",
    "Houtei Raoyui": "houtei",
    "Chankan": "chankan",
    "Pinfu": "pinfu",
    "Tanyao": "tanyao",
    "Iipeiko": "iipeikou",
    "Ittsu": "ittsu",
    "Chiitoitsu": "chiitoitsu",
    "Toitoi": "toitoi",
    "Chantai": "chanta",
    "Honroutou": "honroutou",
    "San Ankou": "sanankou",
    "San Kantsu": "sankantsu",
    "Sanshoku Doujun": "sanshoku_doujun",
    "Sanshoku Doukou": "sanshoku_doukou",
    "Shou Sangen": "shousangen",
    "Honitsu": "honitsu",
    "Junchan": "junchan",
    "Ryanpeikou": "ryanpeikou",
    "Chinitsu": "chinitsu",
    "Renhou": "renhou",
}
DORA_NAMES = {"Dora": "dora", "Ura Dora": "ura", "Aka Dora": "aka"}


def _yaku_id(name: str) -> str:
    if name.startswith("Yakuhai"):
        return "yakuhai"
    if name in LIBRARY_YAKU_IDS:
        return LIBRARY_YAKU_IDS[name]
    # Yakuman names: lower-case, words joined ("Kokushi Musou" → "kokushi_musou").
    return name.lower().replace(" ", "_").replace("-", "_")


def library_result(deal: Deal) -> dict[str, Any]:
    """Score ``deal`` with the `mahjong` library; our result vocabulary, or ``{"error": …}``."""
    from mahjong.constants import EAST, NORTH, SOUTH, WEST
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
    from mahjong.meld import Meld

    winds = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH}
    types = {"chi": Meld.CHI, "pon": Meld.PON, "minkan": Meld.KAN, "kakan": Meld.KAN}
    s = deal.situation
    melds = [
        Meld(
            meld_type=types.get(m.kind, Meld.KAN),
            tiles=list(m.tiles),
            opened=m.kind != "ankan",
            called_tile=m.called,
        )
        for m in deal.melds
    ]
    tiles = [*deal.concealed, deal.win, *(t for m in deal.melds for t in m.tiles)]
    config = HandConfig(
        is_tsumo=s["tsumo"],
        is_riichi=s["riichi"] != "none",
        is_daburu_riichi=s["riichi"] == "double",
        is_ippatsu=s["ippatsu"],
        is_rinshan=s["rinshan"],
        is_chankan=s["chankan"],
        is_haitei=s["haitei"],
        is_houtei=s["houtei"],
        player_wind=winds[s["seat"]],
        round_wind=winds[s["round"]],
        tsumi_number=s["honba"],
        kyoutaku_number=s["deposits"],
        options=OptionalRules(has_open_tanyao=True, has_aka_dora=True),
    )
    r = HandCalculator.estimate_hand_value(
        tiles,
        deal.win,
        melds=melds,
        dora_indicators=list(deal.dora),
        ura_dora_indicators=list(deal.ura) or None,
        config=config,
    )
    if r.error:
        return {"error": r.error}
    yaku: dict[str, int] = {}
    dora = {"dora": 0, "ura": 0, "aka": 0}
    for y in r.yaku or []:
        han = y.han_open if r.is_open_hand else y.han_closed
        if y.name in DORA_NAMES:
            dora[DORA_NAMES[y.name]] += han
        else:
            key = _yaku_id(y.name)
            yaku[key] = yaku.get(key, 0) + han
    cost = r.cost
    assert cost is not None
    dealer = s["seat"] == "E"
    if not s["tsumo"]:
        payments = [("discarder", cost["main"] + cost["main_bonus"])]
    elif dealer:
        payments = [("child", cost["main"] + cost["main_bonus"])] * 3
    else:
        payments = [("dealer", cost["main"] + cost["main_bonus"])] + [
            ("child", cost["additional"] + cost["additional_bonus"])
        ] * 2
    return {
        "han": r.han,
        "fu": r.fu,
        "yaku": yaku,
        "dora": dora,
        "payments": sorted(payments),
        "total": cost["total"],
        "limit": cost["yaku_level"] or None,
    }


def our_result_view(result: dict[str, Any]) -> dict[str, Any]:
    """Our engine's result JSON reduced to the fields ``library_result`` returns."""
    yaku: dict[str, int] = {}
    for y in result.get("yaku", []):
        yaku[y["id"]] = yaku.get(y["id"], 0) + y["han"]
    d = result.get("dora", {})
    return {
        "han": result.get("han"),
        "fu": result.get("fu"),
        "yaku": yaku,
        "dora": {"dora": d.get("dora", 0), "ura": d.get("ura", 0), "aka": d.get("aka", 0)},
        "payments": sorted((p["from"], p["amount"]) for p in result.get("payments", [])),
        "total": result.get("total"),
    }
