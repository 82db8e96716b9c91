"""Random four-player riichi hands and the `mahjong` library's verdict on them.

Shared by ``tests/test_differential.py`` (modest N, in CI) and ``benchmarks/differential.py``
(large N). The generator draws legal winning hands — closed and open, chi/pon/kan, seven
pairs, kokushi, chuuren, dense one-suit hands with many readings — with random situations
(riichi / double / open riichi, ippatsu, haitei, houtei, rinshan, chankan, tenhou, chiihou,
renhou, dealer or not, honba, deposits, dora / ura / red fives). A *theme* biases the tiles
so that rare yaku come up often enough to be checked (honitsu, chinitsu, chanta/junchan,
honroutou, toitoi, sankantsu, sanshoku, ittsu, the four-winds and three-dragons hands,
all-green, all-honours, all-terminals).

``library_result`` scores a deal with the `mahjong` library (PyPI 2.1.0) under
``OptionalRules(has_open_tanyao=True, has_aka_dora=True)`` and returns it in our result JSON's
vocabulary; ``compare`` puts the two side by side and names every disagreement.

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
TERMINALS = frozenset([0, 8, 9, 17, 18, 26])
HONORS = frozenset(range(27, 34))
TERMINAL_HONOR = TERMINALS | HONORS
GREEN = frozenset([19, 20, 21, 23, 25, 32])  # 2s 3s 4s 6s 8s hatsu
ALL_STARTS = tuple(s * 9 + n for s in range(3) for n in range(7))
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
    theme: str = "any"

    def hand_json(
        self, preset: str = "riichi-4p", options: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        return {
            "hand": mpsz(list(self.concealed)),
            "win": tile_name(self.win),
            "melds": [m.to_json() for m in self.melds],
            "dora": [tile_name(t) for t in self.dora],
            "ura": [tile_name(t) for t in self.ura],
            **self.situation,
            "rules": {"preset": preset, **(options or {})},
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


@dataclass(frozen=True)
class Theme:
    """Which kinds a hand's triplets/pair (``kinds``) and runs (``starts``) are drawn from.

    ``forced`` sets come first: ("run", start) or ("pung", kind). ``run_p`` is the chance that
    a free set is a run, ``kan_p`` that a triplet is a kan.
    """

    name: str
    kinds: tuple[int, ...]
    starts: tuple[int, ...]
    run_p: float = 0.55
    kan_p: float = 0.1
    forced: tuple[tuple[str, int], ...] = ()


def _theme(rng: random.Random) -> Theme:
    """A random theme (weights favour plain hands; the rest make rare yaku common)."""
    suit = rng.randrange(3) * 9
    suit_kinds = tuple(range(suit, suit + 9))
    suit_starts = tuple(range(suit, suit + 7))
    honors = tuple(sorted(HONORS))
    outside_starts = tuple(s for s in ALL_STARTS if s % 9 in (0, 6))
    simples = tuple(k for k in range(27) if k not in TERMINALS)
    name = rng.choices(
        [
            "any",
            "honitsu",
            "chinitsu",
            "outside",
            "junchan",
            "tanyao",
            "toitoi",
            "kans",
            "sanshoku",
            "ittsu",
            "dragons",
            "winds",
            "honors",
            "terminals",
            "green",
            "peikou",
        ],
        weights=[40, 8, 6, 6, 4, 6, 5, 4, 5, 5, 4, 4, 2, 2, 2, 6],
    )[0]
    all_kinds = tuple(range(34))
    if name == "honitsu":
        return Theme(name, suit_kinds + honors, suit_starts)
    if name == "chinitsu":
        return Theme(name, suit_kinds, suit_starts)
    if name == "outside":
        return Theme(name, tuple(sorted(TERMINAL_HONOR)), outside_starts)
    if name == "junchan":
        return Theme(name, tuple(sorted(TERMINALS)), outside_starts, run_p=0.7)
    if name == "tanyao":
        return Theme(name, simples, tuple(s for s in ALL_STARTS if s % 9 in range(1, 6)))
    if name == "toitoi":
        return Theme(name, all_kinds, ALL_STARTS, run_p=0.0, kan_p=0.15)
    if name == "kans":
        return Theme(name, all_kinds, ALL_STARTS, run_p=0.2, kan_p=0.7)
    if name == "sanshoku":
        n = rng.randrange(7)
        forced = (("run", n), ("run", n + 9), ("run", n + 18))
        if rng.random() < 0.3:  # sanshoku doukou instead
            n = rng.randrange(9)
            forced = (("pung", n), ("pung", n + 9), ("pung", n + 18))
        return Theme(name, all_kinds, ALL_STARTS, forced=forced)
    if name == "ittsu":
        forced = (("run", suit), ("run", suit + 3), ("run", suit + 6))
        return Theme(name, all_kinds, ALL_STARTS, forced=forced)
    if name == "dragons":  # shousangen (the pair is then a dragon) or daisangen
        dragons = rng.sample([31, 32, 33], rng.choice([2, 3]))
        kinds = (31, 32, 33) if len(dragons) == 2 else all_kinds
        return Theme(name, kinds, ALL_STARTS, forced=tuple(("pung", d) for d in dragons))
    if name == "winds":  # shousuushii (the pair is then a wind) or daisuushii
        winds = rng.sample([27, 28, 29, 30], rng.choice([3, 4]))
        kinds = (27, 28, 29, 30) if len(winds) == 3 else all_kinds
        return Theme(name, kinds, ALL_STARTS, forced=tuple(("pung", w) for w in winds))
    if name == "peikou":  # iipeikou / ryanpeikou / three equal runs (read as three triplets too)
        a, b = rng.choice(ALL_STARTS), rng.choice(ALL_STARTS)
        forced = rng.choice([(a, a), (a, a, b, b), (a, a, a), (a, a + 1, a + 2)])
        return Theme(
            name,
            suit_kinds + honors,
            suit_starts,
            forced=tuple(("run", x) for x in forced if x in ALL_STARTS),
        )
    if name == "honors":
        return Theme(name, honors, (), run_p=0.0)
    if name == "terminals":
        return Theme(name, tuple(sorted(TERMINALS)), (), run_p=0.0)
    if name == "green":
        return Theme(name, tuple(sorted(GREEN)), (19,), run_p=0.4)
    return Theme(name, all_kinds, ALL_STARTS)


def _set_tiles(rng: random.Random, wall: _Wall, theme: Theme, forced: tuple[str, int] | None):
    """One set as ``(kind, 136-ids)`` with kind "run" | "pung" | "kan"."""
    if forced is not None:
        what, k = forced
        if what == "run":
            return "run", [wall.take(k + d)[0] for d in range(3)]
        kan = rng.random() < theme.kan_p
        return ("kan" if kan else "pung"), wall.take(k, 4 if kan else 3)
    if theme.starts and rng.random() < theme.run_p:
        start = rng.choice(theme.starts)
        return "run", [wall.take(start + d)[0] for d in range(3)]
    kind = rng.choice(theme.kinds)
    kan = rng.random() < theme.kan_p
    return ("kan" if kan else "pung"), wall.take(kind, 4 if kan else 3)


def _standard(
    rng: random.Random, wall: _Wall, theme: Theme, n_open: int
) -> tuple[list[int], list[MeldSpec]]:
    closed: list[int] = []
    melds: list[MeldSpec] = []
    open_sets = set(rng.sample(range(4), n_open))
    for i in range(4):
        forced = theme.forced[i] if i < len(theme.forced) else None
        what, tiles = _set_tiles(rng, wall, theme, forced)
        is_open = i in open_sets
        if what == "run":
            if is_open:
                melds.append(MeldSpec("chi", tuple(tiles), called=rng.choice(tiles)))
            else:
                closed += tiles
        elif what == "kan":
            kind = rng.choice(["minkan", "kakan"]) if is_open else "ankan"
            melds.append(MeldSpec(kind, tuple(tiles)))
        elif is_open:
            melds.append(MeldSpec("pon", tuple(tiles), called=tiles[0]))
        else:
            closed += tiles
    closed += wall.take(rng.choice(theme.kinds), 2)
    return closed, melds


def _chiitoitsu(rng: random.Random, wall: _Wall, theme: Theme) -> list[int]:
    pool = theme.kinds if len(theme.kinds) >= 7 else tuple(range(34))
    kinds = rng.sample(pool, 7)
    return [t for k in kinds for t in wall.take(k, 2)]


def _kokushi(rng: random.Random, wall: _Wall) -> list[int]:
    kinds = sorted(TERMINAL_HONOR)
    pair = rng.choice(kinds)
    return [t for k in kinds for t in wall.take(k, 2 if k == pair else 1)]


def _chuuren(rng: random.Random, wall: _Wall) -> list[int]:
    base = rng.randrange(3) * 9
    counts = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    counts[rng.randrange(9)] += 1
    return [t for i, n in enumerate(counts) for t in wall.take(base + i, n)]


def _dense(rng: random.Random, wall: _Wall) -> list[int]:
    """14 random tiles of one suit (sometimes with honours) that happen to be complete:
    hands with many readings (runs vs triplets, chiitoitsu vs ryanpeikou, several waits)."""
    from mahjong.agari import Agari

    base = rng.randrange(3) * 9
    pool = [k for k in range(base, base + 9) for _ in range(4)]
    if rng.random() < 0.3:
        pool += [k for k in range(27, 34) for _ in range(4)]
    while True:
        counts = [0] * 34
        for k in rng.sample(pool, 14):
            counts[k] += 1
        if Agari.is_agari(counts):
            return [t for k in range(34) for t in wall.take(k, counts[k])]


def random_deal(rng: random.Random) -> Deal:
    """A legal four-player winning hand and situation (retries until the draw fits)."""
    while True:
        try:
            return _try_deal(rng)
        except ValueError:
            continue


def _try_deal(rng: random.Random) -> Deal:
    wall = _Wall(rng)
    theme = _theme(rng)
    shape = rng.random()
    melds: list[MeldSpec] = []
    if shape < 0.06:
        closed = _chiitoitsu(rng, wall, theme)
    elif shape < 0.07:
        closed = _kokushi(rng, wall)
    elif shape < 0.075:
        closed = _chuuren(rng, wall)
    elif shape < 0.125:
        closed = _dense(rng, wall)
    else:
        n_open = rng.choices([0, 1, 2, 3, 4], weights=[50, 20, 15, 10, 5])[0]
        closed, melds = _standard(rng, wall, theme, n_open)
    win = rng.choice(closed)
    concealed = list(closed)
    concealed.remove(win)
    situation, dora, ura = _situation(rng, wall, closed, melds, win)
    return Deal(tuple(concealed), win, tuple(melds), situation, dora, ura, theme.name)


def _situation(
    rng: random.Random, wall: _Wall, closed: list[int], melds: list[MeldSpec], win: int
) -> tuple[dict[str, Any], tuple[int, ...], tuple[int, ...]]:
    """A random situation that the hand allows, and dora / ura indicators from the wall."""
    is_closed = all(m.kind == "ankan" for m in melds)
    has_kan = any(m.kind in ("minkan", "kakan", "ankan") for m in melds)
    seat = rng.choice(WINDS)
    tsumo = rng.random() < 0.45
    first_turn = ""
    if not melds and rng.random() < 0.04:  # tenhou / chiihou / renhou: no call, no riichi
        if seat == "E":
            first_turn, tsumo = "tenhou", True
        else:
            tsumo = rng.random() < 0.5
            first_turn = "chihou" if tsumo else "renhou"
    riichi = "none"
    if is_closed and not first_turn and rng.random() < 0.5:
        riichi = rng.choices(["riichi", "double", "open", "double_open"], [80, 10, 5, 5])[0]
    rinshan = tsumo and has_kan and not first_turn and rng.random() < 0.3
    situation: dict[str, Any] = {
        "tsumo": tsumo,
        "seat": seat,
        "round": rng.choice(WINDS),
        "riichi": riichi,
        "ippatsu": riichi != "none" and rng.random() < 0.2,
        "rinshan": rinshan,
        "haitei": tsumo and not rinshan and not first_turn and rng.random() < 0.05,
        "houtei": (not tsumo) and not first_turn and rng.random() < 0.05,
        "tenhou": first_turn == "tenhou",
        "chihou": first_turn == "chihou",
        "renhou": first_turn == "renhou",
        "honba": rng.choice([0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 8]),
        "deposits": rng.choice([0, 0, 0, 1, 2, 3]),
    }
    win_kind_count = sum(1 for t in closed if t // 4 == win // 4) + sum(
        1 for m in melds for t in m.tiles if t // 4 == win // 4
    )
    situation["chankan"] = (
        (not tsumo)
        and not first_turn
        and not situation["houtei"]
        and win_kind_count == 1
        and rng.random() < 0.1
    )
    n_kans = sum(1 for m in melds if m.kind in ("minkan", "kakan", "ankan"))
    n_dora = min(5, rng.choice([1, 1, 1, 2, 3]) + n_kans)
    dora = tuple(_indicator(rng, wall) for _ in range(n_dora))
    ura: tuple[int, ...] = ()
    if riichi != "none":
        ura = tuple(_indicator(rng, wall) for _ in range(n_dora))
    return situation, dora, ura


def _indicator(rng: random.Random, wall: _Wall) -> int:
    free_kinds = [k for k in range(34) if wall.free(k) > 0]
    return wall.take(rng.choice(free_kinds))[0]


# --- the library's side -------------------------------------------------------------------

# Library yaku name → our yaku id (yakuhai entries are folded into one id per set).
LIBRARY_YAKU_IDS = {
    "Menzen Tsumo": "menzen_tsumo",
    "Riichi": "riichi",
    "Double Riichi": "double_riichi",
    "Open Riichi": "open_riichi",
    "Double Open Riichi": "open_riichi",
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
    "Renhou (yakuman)": "renhou",
    "Kokushi Musou": "kokushi",
    "Kokushi Musou Juusanmen Matchi": "kokushi_13",
    "Chuuren Poutou": "chuuren",
    "Daburu Chuuren Poutou": "chuuren_9",
    "Suu Ankou": "suuankou",
    "Suu Ankou Tanki": "suuankou_tanki",
    "Daisangen": "daisangen",
    "Shousuushii": "shousuushii",
    "Dai Suushii": "daisuushii",
    "Ryuuiisou": "ryuuiisou",
    "Suu Kantsu": "suukantsu",
    "Tsuu Iisou": "tsuuiisou",
    "Chinroutou": "chinroutou",
    "Tenhou": "tenhou",
    "Chiihou": "chihou",
}
DORA_NAMES = {"Dora": "dora", "Ura Dora": "ura", "Aka Dora": "aka"}


def _yaku_id(name: str) -> str:
    if name.startswith("Yakuhai"):
        return "yakuhai"
    if name in LIBRARY_YAKU_IDS:
        return LIBRARY_YAKU_IDS[name]
    return "library:" + name  # a yaku the preset does not know: always a disagreement


def _limit(level: str) -> tuple[str | None, int]:
    """The library's ``yaku_level`` as our ``(limit, yakuman_multiple)``."""
    if not level:
        return None, 0
    if level in ("yakuman", "kazoe yakuman"):
        return "yakuman", 1
    if level == "kiriage mangan":
        return "mangan", 0
    if level == "kazoe sanbaiman":
        return "sanbaiman", 0
    if level.endswith("x yakuman"):
        return "yakuman", int(level[0])
    return level, 0


#: Rule variants checked both ways: name → (our rule options, the library's OptionalRules
#: arguments besides has_open_tanyao/has_aka_dora). "default" is the riichi-4p preset itself.
VARIANTS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "default": ({}, {}),
    "kiriage": ({"kiriage_mangan": True}, {"kiriage": True}),
    "kazoe_unlimited": ({"kazoe_max_multiple": 0}, {"kazoe_limit": 2}),  # KAZOE_NO_LIMIT
    # seed 003 (standard rules proposal): kazoe stops at sanbaiman, no double yakuman hands
    "kazoe_sanbaiman": ({"kazoe_yakuman": False}, {"kazoe_limit": 1}),  # KAZOE_SANBAIMAN
    "no_double_yakuman": ({"double_yakuman": False}, {"has_double_yakuman": False}),
    # seed 003's renhou variations (renhou_han): renhou as a yakuman
    "renhou_yakuman": ({"renhou_han": 13}, {"renhou_as_yakuman": True}),
}


def library_result(
    deal: Deal, variant: str = "default", options: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Score ``deal`` with the `mahjong` library; our result vocabulary, or ``{"error": …}``.
    ``options``: the library's OptionalRules arguments instead of the riichi-4p ones (open
    tanyao, red fives, the ``variant``'s)."""
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
        is_daburu_riichi=s["riichi"] in ("double", "double_open"),
        is_open_riichi=s["riichi"] in ("open", "double_open"),
        is_ippatsu=s["ippatsu"],
        is_rinshan=s["rinshan"],
        is_chankan=s["chankan"],
        is_haitei=s["haitei"],
        is_houtei=s["houtei"],
        is_tenhou=s.get("tenhou", False),
        is_chiihou=s.get("chihou", False),
        is_renhou=s.get("renhou", False),
        player_wind=winds[s["seat"]],
        round_wind=winds[s["round"]],
        tsumi_number=s["honba"],
        kyoutaku_number=s["deposits"],
        options=OptionalRules(
            **(
                options
                if options is not None
                else {"has_open_tanyao": True, "has_aka_dora": True, **VARIANTS[variant][1]}
            )
        ),
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
        han = y.han_open if r.is_open_hand and y.han_open else y.han_closed
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
    limit, multiple = _limit(cost["yaku_level"])
    return {
        "han": r.han,
        "fu": r.fu,
        "yaku": yaku,
        "dora": dora,
        "limit": limit,
        "yakuman_multiple": multiple,
        "payments": sorted(payments),
        "total": cost["total"],
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
        "limit": result.get("limit"),
        "yakuman_multiple": result.get("yakuman_multiple"),
        "payments": sorted((p["from"], p["amount"]) for p in result.get("payments", [])),
        "total": result.get("total"),
    }


# --- comparison -----------------------------------------------------------------------------

COMPARED = ("yaku", "han", "fu", "dora", "limit", "yakuman_multiple", "payments", "total")

#: Documented differences: where the library's answer is a convention we do not share (or is
#: wrong), the field is left out of the comparison for that hand, and the reason is here.
#: Each has a test in tests/test_differential.py that pins both sides.
DOCUMENTED = {
    "kokushi_fu": (
        "Kokushi musou has no sets, so it has no fu of its own: the library reports 0 fu, we "
        "report the fu a hand without sets earns (20 base + 10 closed ron or 2 tsumo, rounded "
        "up: 30). A yakuman's payment does not depend on fu, so payments agree."
    ),
    "kiriage_mangan_label": (
        "Variant kiriage only: for a hand under 5 han whose basic points exceed 2,000 (e.g. "
        "4 han 40 fu) the library pays a mangan but leaves its yaku_level empty — in "
        "scores.py the branch that names it 'mangan' is the `elif` of `if options.kiriage` "
        "and so never runs with kiriage on. Such a hand is a mangan (base capped at 2,000) "
        "with or without kiriage; we say limit 'mangan'. Payments agree."
    ),
}


@dataclass(frozen=True)
class Verdict:
    """The outcome of comparing one deal: ``category`` is "agree", "agree_no_yaku" or a
    description of the disagreement; ``documented`` names the DOCUMENTED entries applied."""

    category: str
    documented: tuple[str, ...]
    ours: dict[str, Any]
    library: dict[str, Any]

    @property
    def agrees(self) -> bool:
        return self.category.startswith("agree")


def compare(deal: Deal, variant: str = "default") -> Verdict:
    """Score ``deal`` with our ``riichi-4p`` preset and with the library (both under the same
    rule ``variant``, see VARIANTS); name any difference."""
    from sanma_lens.engine.service import score_json

    lib = library_result(deal, variant)
    ours = score_json(deal.hand_json(options=VARIANTS[variant][0]))
    if "error" in lib:
        if lib["error"] == "no_yaku" and ours["reason"] == "insufficient_yaku":
            return Verdict("agree_no_yaku", (), ours, lib)
        return Verdict(f"library {lib['error']} / ours {ours['reason']}", (), ours, lib)
    if not ours["valid"]:
        return Verdict(f"library valid / ours invalid: {ours['reason']}", (), ours, lib)
    view = our_result_view(ours)
    fields = list(COMPARED)
    documented: list[str] = []
    if ours.get("form") == "kokushi" and lib["fu"] == 0 and view["fu"] != 0:
        fields.remove("fu")
        documented.append("kokushi_fu")
    if (
        VARIANTS[variant][1].get("kiriage")
        and lib["limit"] is None
        and view["limit"] == "mangan"
        and lib["han"] < 5
    ):
        fields.remove("limit")
        documented.append("kiriage_mangan_label")
    bad = [f for f in fields if view[f] != lib[f]]
    if not bad:
        return Verdict("agree", tuple(documented), ours, lib)
    return Verdict("differs: " + ", ".join(bad), tuple(documented), view, lib)
