"""Yaku of a reading (docs/rules.md "Yaku"; the han values live in ``Rules.yaku``, one table).

Each yaku's test is a pure function ``(reading, context) -> bool`` registered in ``TESTS``
with the win forms it can apply to, and the necessary conditions (least triplets and runs, one
suit, ...) that let the evaluator skip a test. :mod:`engine.yaku_eval` runs them for a reading
and applies the rules of how yaku combine.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from operator import attrgetter
from typing import Any, Final

from sanma_lens.engine.decompose import CHIITOITSU, KOKUSHI, SHIISAN, STANDARD, HandFacts, Reading
from sanma_lens.engine.parse import Situation
from sanma_lens.engine.rules import Rules
from sanma_lens.engine.tiles import (
    BENI,
    CHUN,
    DRAGONS,
    GREEN,
    HAKU,
    HATSU,
    IS_TH,
    NORTH,
    SUIT,
    TERMINALS_HONORS,
    WINDS,
)


class Context:
    """The situation a reading is judged in: the hand JSON's situation and the rule set.

    ``cache`` keeps the situational yaku (they depend on nothing else) for this context.
    ``first_turn``: a tsumo on the dealer's dealt 14 or a child's first draw, where 十三不塔 may
    be read (a concealed hand only); ``yakuhai``: the han per triplet kind, filled on first
    use (:func:`yakuhai_kinds`). A plain slotted class (not a frozen dataclass): one is
    built per evaluated hand, and ``sit`` and ``rules`` are never reassigned.
    """

    __slots__ = ("sit", "rules", "cache", "first_turn", "yakuhai")

    def __init__(self, sit: Situation, rules: Rules) -> None:
        self.sit = sit
        self.rules = rules
        self.cache: dict[tuple[bool, str], Any] = {}
        self.first_turn = sit.tsumo and (sit.tenhou or sit.chihou or sit.first_draw)
        self.yakuhai: dict[int, int] | None = None  # see yakuhai_kinds


YakuTest = Callable[[Reading, Context], bool]
ALL_FORMS: Final = frozenset({STANDARD, CHIITOITSU, KOKUSHI, SHIISAN})
REGULAR: Final = frozenset({STANDARD, CHIITOITSU, KOKUSHI})
SHAPES: Final = frozenset({STANDARD, CHIITOITSU})
STD: Final = frozenset({STANDARD})


# ---- situational yaku (no shape restriction) ----------------------------------------------


def menzen_tsumo(r: Reading, c: Context) -> bool:
    """門前清自模和: a closed hand won by tsumo (closedness is the table's '—' open value)."""
    return c.sit.tsumo


def riichi(r: Reading, c: Context) -> bool:
    return c.sit.riichi == "riichi"


def double_riichi(r: Reading, c: Context) -> bool:
    return c.sit.riichi == "double"


def open_riichi(r: Reading, c: Context) -> bool:
    """§21: open riichi (2 han; 15 on a ron from a player not in riichi; open double 3)."""
    return c.sit.riichi in ("open", "double_open")


def ippatsu(r: Reading, c: Context) -> bool:
    return c.sit.ippatsu


def rinshan(r: Reading, c: Context) -> bool:
    """§25: also on the replacement draw after extracting a north."""
    return c.sit.rinshan and c.sit.tsumo


def kanburi(r: Reading, c: Context) -> bool:
    """§26: ron on the discard right after any replacement draw."""
    return c.sit.kanburi and not c.sit.tsumo


def haitei(r: Reading, c: Context) -> bool:
    return c.sit.haitei and c.sit.tsumo


def houtei(r: Reading, c: Context) -> bool:
    return c.sit.houtei and not c.sit.tsumo


def chankan(r: Reading, c: Context) -> bool:
    return c.sit.chankan and not c.sit.tsumo


def _first_turn_ok(r: Reading, c: Context) -> bool:
    return r.form != SHIISAN or c.rules.shiisan_puutaa_with_tenhou


def renhou(r: Reading, c: Context) -> bool:
    return c.sit.renhou and not c.sit.tsumo and _first_turn_ok(r, c)


def tenhou(r: Reading, c: Context) -> bool:
    return c.sit.tenhou and c.sit.tsumo and c.sit.is_dealer and _first_turn_ok(r, c)


def chihou(r: Reading, c: Context) -> bool:
    return c.sit.chihou and c.sit.tsumo and not c.sit.is_dealer and _first_turn_ok(r, c)


def paarenchan(r: Reading, c: Context) -> bool:
    """§35: the winner is the dealer with 8 or more honba."""
    return c.sit.is_dealer and c.sit.honba >= c.rules.paarenchan_honba


def shiisan_puutaa(r: Reading, c: Context) -> bool:
    """十三不塔: the shape is checked only on the dealt 14 / a child's first draw (readings)."""
    return r.form == SHIISAN


# ---- shape yaku ---------------------------------------------------------------------------

# C-level helpers for the tests the §18 guarantee runs for every wait
_KIND: Final = attrgetter("kind")
_ITTSU: Final = tuple(frozenset({b, b + 3, b + 6}) for b in (0, 9, 18))  # 123 456 789 run starts
_OUTSIDE_RUNS: Final = frozenset(s for s in range(27) if s % 9 in (0, 6))  # 123 and 789 runs


def yakuhai_kinds(c: Context) -> dict[int, int]:
    """Han per triplet kind: dragons, seat wind, round wind (double wind 2), North if option.

    Depends only on the context: worked out lazily once per Context (``c.yakuhai``).
    """
    table = c.yakuhai
    if table is None:
        table = c.yakuhai = yakuhai_table(c.sit.seat, c.sit.round, c.rules.north_is_yakuhai)
    return table


@cache
def yakuhai_table(seat: int, round_wind: int, north: bool) -> dict[int, int]:
    """:func:`yakuhai_kinds` by seat, round and the North option (at most 4·4·2 tables;
    callers never modify them)."""
    out = {d: 1 for d in DRAGONS}
    out[seat] = out.get(seat, 0) + 1
    out[round_wind] = out.get(round_wind, 0) + 1
    if north and NORTH not in out:
        out[NORTH] = 1
    return out


def yakuhai_sets(r: Reading, c: Context) -> list[tuple[int, int]]:
    """(kind, han) for each yakuhai triplet/kan; one entry of 2 for a double wind."""
    table = yakuhai_kinds(c)
    return [(p.kind, table[p.kind]) for p in r.pungs if p.kind in table]


def yakuhai(r: Reading, c: Context) -> bool:
    return not yakuhai_kinds(c).keys().isdisjoint(map(_KIND, r.pungs))


def _pair_is_yakuhai(r: Reading, c: Context) -> bool:
    return r.pair in yakuhai_kinds(c)


def pinfu(r: Reading, c: Context) -> bool:
    """平和: four runs, a pair that is not yakuhai, a two-sided wait (and, under
    ``pinfu_on_tsumo`` off, a ron: ECIP ツモピン)."""
    return (
        len(r.runs) == 4
        and r.wait == "ryanmen"
        and not _pair_is_yakuhai(r, c)
        and (c.rules.pinfu_on_tsumo or not c.sit.tsumo)
    )


def kui_pinfu(r: Reading, c: Context) -> bool:
    """喰い平和 (standard proposal §点数計算, option ``kui_pinfu_han``): an open hand of
    pinfu's shape, four runs, a pair that is not yakuhai, a two-sided wait; the table makes
    it open only."""
    return len(r.runs) == 4 and r.wait == "ryanmen" and not _pair_is_yakuhai(r, c)


def tanyao(r: Reading, c: Context) -> bool:
    return not (r.facts.has_honor or r.facts.has_terminal)


def iipeikou(r: Reading, c: Context) -> bool:
    return len(set(r.runs)) < len(r.runs)


def ryanpeikou(r: Reading, c: Context) -> bool:
    s = sorted(r.runs)
    return len(s) == 4 and s[0] == s[1] and s[2] == s[3]


def sanshoku_doujun(r: Reading, c: Context) -> bool:
    """三色同順 (riichi-4p): the same run in all three suits (needs chi/manzu runs)."""
    runs = set(r.runs)
    return any(s in runs and s + 9 in runs and s + 18 in runs for s in range(7))


def ittsu(r: Reading, c: Context) -> bool:
    """一気通貫: 123, 456 and 789 of one suit."""
    runs = set(r.runs)
    return runs >= _ITTSU[0] or runs >= _ITTSU[1] or runs >= _ITTSU[2]


def chiitoitsu(r: Reading, c: Context) -> bool:
    return r.form == CHIITOITSU


def toitoi(r: Reading, c: Context) -> bool:
    return not r.runs


def _all_sets_outside(r: Reading) -> bool:
    return (
        IS_TH[r.pair]
        and TERMINALS_HONORS.issuperset(map(_KIND, r.pungs))
        and _OUTSIDE_RUNS.issuperset(r.runs)
    )


def chanta(r: Reading, c: Context) -> bool:
    """混全帯么九: every set and the pair hold a terminal or honor; at least one run [interp]."""
    return (bool(r.runs) or not c.rules.chanta_needs_run) and _all_sets_outside(r)


def junchan(r: Reading, c: Context) -> bool:
    return not r.facts.has_honor and chanta(r, c)


def honroutou(r: Reading, c: Context) -> bool:
    f = r.facts
    if not f.all_th:
        return False
    if not c.rules.honroutou_needs_terminals_and_honors:
        return True
    return f.has_honor and f.has_terminal


def sanankou(r: Reading, c: Context) -> bool:
    """三暗刻: three concealed triplets (ankan count; a ron-completed shanpon triplet doesn't)."""
    return r.concealed_pungs >= 3


def sankantsu(r: Reading, c: Context) -> bool:
    return r.facts.n_kans >= 3


def _longest_pung_chain(r: Reading) -> int:
    kinds = {p.kind for p in r.pungs if p.kind < 27}
    best = 0
    for k in kinds:
        if k - 1 in kinds and SUIT[k - 1] == SUIT[k]:
            continue
        n = 1
        while k + n in kinds and SUIT[k + n] == SUIT[k]:
            n += 1
        best = max(best, n)
    return best


def sanrenkou(r: Reading, c: Context) -> bool:
    """三連刻: three triplets of consecutive numbers in one suit."""
    return _longest_pung_chain(r) >= 3


def suurenkou(r: Reading, c: Context) -> bool:
    return _longest_pung_chain(r) >= 4


def _dragon_pungs(r: Reading) -> int:
    n = 0
    for p in r.pungs:
        if p.kind >= HAKU:
            n += 1
    return n


def shousangen(r: Reading, c: Context) -> bool:
    return _dragon_pungs(r) == 2 and r.pair in DRAGONS


def daisangen(r: Reading, c: Context) -> bool:
    return _dragon_pungs(r) == 3


def honitsu(r: Reading, c: Context) -> bool:
    return r.facts.n_suits == 1 and r.facts.has_honor


def chinitsu(r: Reading, c: Context) -> bool:
    return r.facts.n_suits == 1 and not r.facts.has_honor


def manzu_honitsu(r: Reading, c: Context) -> bool:
    """§38: a honitsu in manzu."""
    return r.facts.only_suit == 0 and r.facts.has_honor


def shousharin(r: Reading, c: Context) -> bool:
    """§36: honitsu + chiitoitsu (a composite; replaces both)."""
    return chiitoitsu(r, c) and honitsu(r, c)


def daisharin(r: Reading, c: Context) -> bool:
    """§37: pinfu + tanyao + ryanpeikou + chinitsu (a composite; replaces all four)."""
    return pinfu(r, c) and tanyao(r, c) and ryanpeikou(r, c) and chinitsu(r, c)


def sanshoku_doukou(r: Reading, c: Context) -> bool:
    kinds = {p.kind for p in r.pungs}
    return any(i in kinds and i + 9 in kinds and i + 18 in kinds for i in range(9))


def kokushi(r: Reading, c: Context) -> bool:
    return r.form == KOKUSHI


def kokushi_13(r: Reading, c: Context) -> bool:
    return r.form == KOKUSHI and r.wait == "kokushi_13"


def suuankou(r: Reading, c: Context) -> bool:
    return r.concealed_pungs == 4


def suuankou_tanki(r: Reading, c: Context) -> bool:
    return r.concealed_pungs == 4 and r.wait == "tanki"


def tsuuiisou(r: Reading, c: Context) -> bool:
    if r.form == CHIITOITSU and not c.rules.tsuuiisou_chiitoitsu:
        return False
    return r.facts.all_honor


def _wind_pungs(r: Reading) -> int:
    return sum(1 for p in r.pungs if p.kind in WINDS)


def suushii(r: Reading, c: Context) -> bool:
    """四喜和: four wind triplets, or three and a wind pair."""
    n = _wind_pungs(r)
    return n == 4 or (n == 3 and r.pair in WINDS)


def shousuushii(r: Reading, c: Context) -> bool:
    """小四喜 (riichi-4p): three wind triplets and a wind pair."""
    return _wind_pungs(r) == 3 and r.pair in WINDS


def daisuushii(r: Reading, c: Context) -> bool:
    """大四喜 (riichi-4p): four wind triplets."""
    return _wind_pungs(r) == 4


def _souzu_only(f: HandFacts) -> bool:
    """No manzu or pinzu anywhere in the shape (honors allowed): the facts' suit count says
    so without building the set of kinds, which the one-colour yakuman below then read."""
    return f.n_suits == 0 or (f.n_suits == 1 and f.only_suit == 2)


def ryuuiisou(r: Reading, c: Context) -> bool:
    if not _souzu_only(r.facts):
        return False
    kinds = r.facts.all_kinds
    if c.rules.ryuuiisou_requires_hatsu and HATSU not in kinds:
        return False
    return kinds <= GREEN


def chinroutou(r: Reading, c: Context) -> bool:
    return r.facts.all_terminal


def suukantsu(r: Reading, c: Context) -> bool:
    return r.facts.n_kans == 4


_CHUUREN: Final = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def _chuuren_suit(counts: tuple[int, ...]) -> int:
    total = sum(counts)
    for base in (0, 9, 18):
        if sum(counts[base : base + 9]) == total:
            return base
    return -1


def chuuren(r: Reading, c: Context) -> bool:
    """九蓮宝燈: 1112345678999 plus one tile of the suit, all concealed, no kan."""
    f = r.facts
    if f.melds:
        return False
    base = _chuuren_suit(f.counts)
    if base < 0:
        return False
    return all(f.counts[base + i] >= n for i, n in enumerate(_CHUUREN))


def chuuren_9(r: Reading, c: Context) -> bool:
    """九面待ち九蓮宝燈: the hand before the win is exactly 1112345678999."""
    if not chuuren(r, c):
        return False
    pre = r.facts.pre_win
    base = _chuuren_suit(pre)
    return base >= 0 and tuple(pre[base : base + 9]) == _CHUUREN


def beni_kujaku(r: Reading, c: Context) -> bool:
    """§39 紅孔雀: only 1s 5s 7s 9s and chun."""
    if not _souzu_only(r.facts):
        return False
    kinds = r.facts.all_kinds
    if c.rules.beni_kujaku_requires_chun and CHUN not in kinds:
        return False
    return kinds <= BENI


# id -> (test, forms it applies to). The han values are in Rules.yaku, not here.
TESTS: Final[dict[str, tuple[YakuTest, frozenset[str]]]] = {
    "menzen_tsumo": (menzen_tsumo, ALL_FORMS),
    "riichi": (riichi, ALL_FORMS),
    "double_riichi": (double_riichi, ALL_FORMS),
    "open_riichi": (open_riichi, ALL_FORMS),
    "ippatsu": (ippatsu, ALL_FORMS),
    "rinshan": (rinshan, ALL_FORMS),
    "kanburi": (kanburi, ALL_FORMS),
    "haitei": (haitei, ALL_FORMS),
    "houtei": (houtei, ALL_FORMS),
    "chankan": (chankan, ALL_FORMS),
    "renhou": (renhou, ALL_FORMS),
    "paarenchan": (paarenchan, ALL_FORMS),
    "shiisan_puutaa": (shiisan_puutaa, frozenset({SHIISAN})),
    "tenhou": (tenhou, ALL_FORMS),
    "chihou": (chihou, ALL_FORMS),
    "yakuhai": (yakuhai, STD),
    "pinfu": (pinfu, STD),
    "kui_pinfu": (kui_pinfu, STD),
    "tanyao": (tanyao, SHAPES),
    "iipeikou": (iipeikou, STD),
    "ittsu": (ittsu, STD),
    "sanshoku_doujun": (sanshoku_doujun, STD),
    "chiitoitsu": (chiitoitsu, frozenset({CHIITOITSU})),
    "toitoi": (toitoi, STD),
    "chanta": (chanta, STD),
    "honroutou": (honroutou, SHAPES),
    "sanankou": (sanankou, STD),
    "sankantsu": (sankantsu, STD),
    "sanrenkou": (sanrenkou, STD),
    "shousangen": (shousangen, STD),
    "honitsu": (honitsu, SHAPES),
    "junchan": (junchan, STD),
    "ryanpeikou": (ryanpeikou, STD),
    "chinitsu": (chinitsu, SHAPES),
    "shousharin": (shousharin, frozenset({CHIITOITSU})),
    "sanshoku_doukou": (sanshoku_doukou, STD),
    "daisharin": (daisharin, STD),
    "suurenkou": (suurenkou, STD),
    "kokushi": (kokushi, frozenset({KOKUSHI})),
    "suuankou": (suuankou, STD),
    "daisangen": (daisangen, STD),
    "tsuuiisou": (tsuuiisou, SHAPES),
    "suushii": (suushii, STD),
    "shousuushii": (shousuushii, STD),
    "daisuushii": (daisuushii, STD),
    "ryuuiisou": (ryuuiisou, SHAPES),
    "chinroutou": (chinroutou, SHAPES),
    "suukantsu": (suukantsu, STD),
    "chuuren": (chuuren, STD),
    "suuankou_tanki": (suuankou_tanki, STD),
    "kokushi_13": (kokushi_13, frozenset({KOKUSHI})),
    "chuuren_9": (chuuren_9, STD),
    "beni_kujaku": (beni_kujaku, SHAPES),
    "manzu_honitsu": (manzu_honitsu, SHAPES),
}

# Tests whose answer depends only on the situation (cached per Context), or only on the tiles
# of the whole hand, not on the reading or the form (reused across the readings of one
# completed hand in one context through ``yaku_of``'s ``memo``).
# (Both caches are kept per form, so tests that look at the form only may be listed.)
SITUATION_TESTS: Final = frozenset(
    {
        "menzen_tsumo",
        "riichi",
        "double_riichi",
        "open_riichi",
        "ippatsu",
        "rinshan",
        "kanburi",
        "haitei",
        "houtei",
        "chankan",
        "paarenchan",
        "renhou",
        "tenhou",
        "chihou",
    }
)
HAND_TESTS: Final = frozenset(
    {
        "tanyao",
        "honroutou",
        "honitsu",
        "chinitsu",
        "manzu_honitsu",
        "ryuuiisou",
        "chinroutou",
        "beni_kujaku",
        "chuuren",
        "chuuren_9",
        "sankantsu",
        "suukantsu",
        "tsuuiisou",
    }
)

# Necessary conditions on the whole hand (never sufficient), to skip hand-level tests
# (gate codes in the plan: 1 one suit, 2 all terminals/honors, 3 three kans):
ONE_SUIT: Final = frozenset(
    {"honitsu", "chinitsu", "manzu_honitsu", "ryuuiisou", "beni_kujaku", "chuuren", "chuuren_9"}
)
ALL_TH: Final = frozenset({"honroutou", "chinroutou", "tsuuiisou"})
THREE_KANS: Final = frozenset({"sankantsu", "suukantsu"})

# Necessary conditions (never sufficient) used only to skip tests that cannot hold:
# the least number of triplets/kans and of runs a reading needs for the yaku.
MIN_PUNGS: Final = {
    "yakuhai": 1,
    "shousangen": 2,
    "sanankou": 3,
    "sanrenkou": 3,
    "daisangen": 3,
    "sanshoku_doukou": 3,
    "suushii": 3,
    "shousuushii": 3,
    "daisuushii": 4,
    "suurenkou": 4,
    "suuankou": 4,
    "suuankou_tanki": 4,
    "toitoi": 4,
}
MIN_RUNS: Final = {
    "pinfu": 4,
    "kui_pinfu": 4,
    "iipeikou": 2,
    "ryanpeikou": 4,
    "ittsu": 3,
    "sanshoku_doujun": 3,
    "daisharin": 4,
}

# Reading-level yaku whose every set and pair hold a terminal or honor: the pair must be one.
TERMINAL_PAIR: Final = frozenset({"chanta", "junchan"})
# Reading-level yaku that need an honor tile in the hand (their sets are honors), that need
# none (junchan), or that need all three suits (sanshoku).
NEEDS_HONOR: Final = frozenset(
    {"yakuhai", "shousangen", "daisangen", "suushii", "shousuushii", "daisuushii"}
)
NO_HONOR: Final = frozenset({"junchan"})
THREE_SUITS: Final = frozenset({"sanshoku_doujun", "sanshoku_doukou"})
