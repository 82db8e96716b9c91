"""Ability mahjong (能力麻雀 ver 1.1, docs/rules/ability.md): what a winner's role changes in
scoring.

A hand JSON may name the winner's role (``role``) and the role's facts: ``byakko_declared``,
``kanpa`` (the tile the winner is under kanpa for), ``discarder_genbu``, ``extra_dora`` (the
seiryuu's next kan-dora indicator and its ura) and ``kanpa_discards`` (own discards that made no
furiten because they were the kanpa tile, ¶10.3). :func:`read_role` checks them into a
:class:`RoleHand`; ``engine.score`` applies the effects through the pure functions here, and
the game keeper (``engine.game``) uses the same functions for the amounts it settles.

The roles (¶1, ver 1.1): 天子 tenshi (no change), 青龍 seiryuu, 朱雀 suzaku, 白虎 byakko,
玄武 genbu, 黄龍 kouryuu. Start points, deposits and the payments at a hand's end are the game
keeper's; scoring sees only the winner's role.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Final

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.evaluate import Dora, hand_counts, indicator_hits
from sanma_lens.engine.parse import ROLE_FIELDS, HandInput, Situation, Tile, tiles_of
from sanma_lens.engine.points import round_up
from sanma_lens.engine.rules import Rules
from sanma_lens.engine.tiles import NAMES

#: the seiryuu's role-only kan indicators: the next kan-dora indicator and its ura
MAX_EXTRA_DORA: Final = 2


class Role(StrEnum):
    """A player's role for a block of four hanchan (役職, ¶1)."""

    TENSHI = "tenshi"  # 天子: no change (ver 1.1 ¶2.1)
    SEIRYUU = "seiryuu"  # 青龍: deposit each hand, more indicators (¶2.1–2.3)
    SUZAKU = "suzaku"  # 朱雀: chi, 1 han from yaku, half payments (¶2.4–2.6)
    BYAKKO = "byakko"  # 白虎: declaration, limit upgrade or mangan payment (¶2.7)
    GENBU = "genbu"  # 玄武: 5,000 fewer points, kanpa (¶8–¶10)
    KOURYUU = "kouryuu"  # 黄龍: 20,000 fewer points, 1,000 from each at every hand's end (¶11–¶12)


ROLE_NAMES: Final = tuple(r.value for r in Role)


@dataclass(frozen=True)
class RoleHand:
    """The winner's role and the role's facts of one hand (hand JSON fields, checked).

    ``kanpa``: the tile kind the winner is under kanpa for (看破, the latest one holds, ¶10.1);
    ``discarder_genbu``: the winning discard came from a genbu player; ``extra_dora``: the
    seiryuu's next kan-dora indicator and its ura; ``kanpa_discards``: kinds of own discards
    exempt from furiten (¶10.3), one entry per discard.
    """

    role: Role
    byakko_declared: bool = False
    kanpa: int | None = None
    discarder_genbu: bool = False
    extra_dora: tuple[Tile, ...] = ()
    kanpa_discards: tuple[int, ...] = ()


def read_role(obj: dict[str, Any], rules: Rules) -> tuple[RoleHand | None, Rules]:
    """The role fields of a hand JSON → (:class:`RoleHand` or None, the rules to score under).

    A suzaku's hand is scored under rules that allow chi and ask for the suzaku's minimum
    without the §18 guarantee (:func:`suzaku_rules`). Facts of another role are refused.
    """
    name = obj.get("role")
    declared = _flag(obj, "byakko_declared")
    genbu = _flag(obj, "discarder_genbu")
    if name is None:
        given = [k for k in sorted(ROLE_FIELDS) if k != "role" and obj.get(k) not in (None, False)]
        if given:
            raise InputError(
                "role_required",
                f"{', '.join(given)}: ability mahjong fields need the winner's role "
                f"(role: one of {list(ROLE_NAMES)})",
            )
        return None, rules
    if name not in ROLE_NAMES:
        raise InputError(
            "bad_value", f"role must be null or one of {list(ROLE_NAMES)}, got {name!r}"
        )
    role = Role(name)
    if declared and role is not Role.BYAKKO:
        raise _inconsistent("byakko_declared is the byakko's declaration (role byakko)")
    kanpa = None
    if obj.get("kanpa") is not None:
        tiles = tiles_of(obj["kanpa"], rules, "kanpa")
        if len(tiles) != 1:
            raise InputError("bad_tiles", f"kanpa must be exactly one tile, got {obj['kanpa']!r}")
        kanpa = tiles[0].kind  # a tile kind: a red five is a five, the aka-5-man a north
    extra = _tile_list(obj, "extra_dora", rules)
    if extra and role is not Role.SEIRYUU:
        raise _inconsistent("extra_dora are the seiryuu's role-only indicators (role seiryuu)")
    if extra and not rules.seiryuu_next_kan_indicators:
        raise _inconsistent("extra_dora need the rule option seiryuu_next_kan_indicators")
    if len(extra) > MAX_EXTRA_DORA:
        raise InputError(
            "bad_tiles",
            "extra_dora holds at most the next kan-dora indicator and its ura (2 tiles)",
        )
    exempt = tuple(t.kind for t in _tile_list(obj, "kanpa_discards", rules))
    if role is not Role.SUZAKU:
        melds = obj.get("melds")
        if isinstance(melds, list) and any(
            isinstance(m, str) and m.strip().lower().startswith("chi:") for m in melds
        ):
            raise InputError(
                "chi_not_allowed", "only the suzaku may call chi (ability mahjong ¶2.4; §19)"
            )
    else:
        rules = suzaku_rules(rules)
    return RoleHand(role, declared, kanpa, genbu, extra, exempt), rules


def check_role_situation(role: RoleHand, sit: Situation, discards: tuple[int, ...]) -> None:
    """Role facts that do not fit the win: ``discarder_genbu`` on a tsumo, exempt discards
    that are not among the player's discards."""
    if role.discarder_genbu and sit.tsumo:
        raise _inconsistent("discarder_genbu describes a ron; set tsumo false")
    left = list(discards)
    for kind in role.kanpa_discards:
        if kind not in left:
            raise _inconsistent(f"kanpa_discards: {NAMES[kind]} is not among the player's discards")
        left.remove(kind)


def _flag(obj: dict[str, Any], key: str) -> bool:
    v = obj.get(key, False)
    if v is None:
        return False
    if not isinstance(v, bool):
        raise InputError("bad_type", f"{key} must be true or false")
    return v


def _tile_list(obj: dict[str, Any], key: str, rules: Rules) -> tuple[Tile, ...]:
    v = obj.get(key)
    if v is None:
        return ()
    if isinstance(v, str):
        return tiles_of(v, rules, key)
    if not isinstance(v, list):
        raise InputError("bad_type", f'{key} must be a list of tiles like ["3p"]')
    out: list[Tile] = []
    for i, item in enumerate(v):
        out.extend(tiles_of(item, rules, f"{key}[{i}]"))
    return tuple(out)


def _inconsistent(msg: str) -> InputError:
    return InputError("inconsistent_situation", msg)


_SUZAKU_RULES: dict[int, tuple[Rules, Rules]] = {}


def suzaku_rules(rules: Rules) -> Rules:
    """The rules a suzaku wins under (¶2.4–¶2.5): chi allowed (in sanma only in pinzu and
    souzu: 2m–8m do not exist), and the minimum of ``suzaku_min_yaku_han`` (with many honba
    ``suzaku_min_yaku_han_many_honba``) from yaku in the actual hand, without the §18
    guarantee (不完全一翻縛り)."""
    entry = _SUZAKU_RULES.get(id(rules))
    if entry is not None and entry[0] is rules:
        return entry[1]
    derived = replace(
        rules,
        chi_allowed=True,
        min_yaku_han=rules.suzaku_min_yaku_han,
        min_yaku_han_many_honba=rules.suzaku_min_yaku_han_many_honba,
        guarantee=False,
    )
    if len(_SUZAKU_RULES) > 256:
        _SUZAKU_RULES.clear()
    _SUZAKU_RULES[id(rules)] = (rules, derived)
    return derived


# ---- effects, each a pure function -------------------------------------------------------


def seiryuu_indicators(
    role: RoleHand, hand: HandInput, win_kind: int | None, sit: Situation, rules: Rules
) -> tuple[int, int]:
    """¶2.2 [interp]: the han from indicators a seiryuu counts only because of the role, as
    ``(ura, extra)``: the ura indicators when not in riichi (open, or closed without riichi),
    and for a closed hand the next kan-dora indicator and its ura (``extra_dora``)."""
    if role.role is not Role.SEIRYUU:
        return 0, 0
    counts = hand_counts(hand)
    if win_kind is not None:
        counts[win_kind] += 1
    ura = 0
    if sit.riichi == "none" and hand.ura:
        ura = indicator_hits(hand.ura, counts, hand.kita, rules)
    extra = 0
    if hand.is_closed and role.extra_dora:
        extra = indicator_hits(role.extra_dora, counts, hand.kita, rules)
    return ura, extra


def with_role_ura(dora: Dora, ura: int) -> Dora:
    """The hand's dora with the seiryuu's role-only ura added to its ura."""
    return Dora(dora.dora, dora.ura + ura, dora.aka, dora.kita, dora.aka5man_bonus)


def kanpa_forbids(role: RoleHand, win_kind: int | None, tsumo: bool) -> bool:
    """¶10 (ver 1.1): a player under kanpa may not win by tsumo on the kanpa tile, nor by ron
    on it when a genbu discarded it."""
    return role.kanpa is not None and win_kind == role.kanpa and (tsumo or role.discarder_genbu)


def furiten_discards(discards: tuple[int, ...], exempt: tuple[int, ...]) -> tuple[int, ...]:
    """¶10.3: the discards that make furiten: own discards less those of the kanpa tile made
    while under kanpa on it (each exempt entry cancels one discard)."""
    if not exempt:
        return discards
    left = list(discards)
    for kind in exempt:
        if kind in left:
            left.remove(kind)
    return tuple(left)


def byakko_upgrades(role: RoleHand, han: int, rules: Rules) -> bool:
    """¶2.7 (i): a declared byakko's win of 6 han or more counts one limit higher."""
    return role.role is Role.BYAKKO and role.byakko_declared and han >= rules.byakko_upgrade_min_han


def byakko_pays(role: RoleHand, han: int, rules: Rules) -> bool:
    """¶2.7 (ii): a declared byakko's win of 5 han or less is paid as usual, and then the byakko
    makes a mangan payment."""
    return role.role is Role.BYAKKO and role.byakko_declared and han < rules.byakko_upgrade_min_han


def one_limit_higher(
    base: int, limit: str | None, multiple: int, rules: Rules
) -> tuple[int, str | None, int]:
    """¶2.7 (i): haneman as baiman, baiman as sanbaiman, sanbaiman as yakuman, yakuman as
    double yakuman, and so on: the next limit above ``base`` in the rules' table.

    >>> from sanma_lens.engine.rules import SANMA_13 as R
    >>> one_limit_higher(3000, "haneman", 0, R), one_limit_higher(6000, "sanbaiman", 0, R)
    ((4000, 'baiman', 0), (8000, 'yakuman', 1))
    >>> one_limit_higher(16000, "yakuman", 2, R)
    (24000, 'yakuman', 3)
    """
    if limit == "yakuman":
        return rules.yakuman_base * (multiple + 1), "yakuman", multiple + 1
    for step in sorted(rules.limits, key=lambda s: s.base):
        if step.base > base:
            return step.base, step.name, 0
    return rules.yakuman_base, "yakuman", 1


def suzaku_share(amount: int, honba_part: int, factor: int, rules: Rules) -> int:
    """¶2.6 [interp]: one payer's payment to a suzaku: halved, then rounded up to 1,000.

    ``amount`` is what the payer would pay anyone else (hand value, tsumo bonus and honba,
    with the §A8 doubling ``factor`` applied); ``honba_part`` the honba in it before that
    doubling. The honba is halved with the rest unless ``suzaku_halves_honba`` is off; with
    ``suzaku_halves_after_aka5man`` off the undoubled amount is halved, then doubled.

    >>> from sanma_lens.engine.rules import SANMA_13 as R
    >>> suzaku_share(3000, 0, 1, R), suzaku_share(8000, 0, 1, R), suzaku_share(6000, 0, 2, R)
    (2000, 4000, 3000)
    """
    divisor = rules.suzaku_payment_divisor
    if divisor <= 1:
        return amount
    if rules.suzaku_halves_after_aka5man:
        whole, honba, times = amount, honba_part * factor, 1
    else:
        whole, honba, times = amount // factor, honba_part, factor
    if rules.suzaku_halves_honba:
        share = _part(whole, divisor, rules)
    else:
        share = _part(whole - honba, divisor, rules) + honba
    return share * times


def _part(amount: int, divisor: int, rules: Rules) -> int:
    return round_up(-(-amount // divisor), rules.rounding_unit)


def suzaku_deposits(deposits: int, rules: Rules) -> int:
    """[interp] The deposits a suzaku receives: all of them (``suzaku_halves_deposits`` off),
    else half, rounded up (the rest stays on the table)."""
    if not rules.suzaku_halves_deposits or rules.suzaku_payment_divisor <= 1:
        return deposits
    return min(deposits, _part(deposits, rules.suzaku_payment_divisor, rules))


def suzaku_chombo(amount: int, rules: Rules) -> int:
    """[interp] A suzaku's chombo payment to one player: in full unless
    ``suzaku_halves_chombo``."""
    if not rules.suzaku_halves_chombo or rules.suzaku_payment_divisor <= 1:
        return amount
    return _part(amount, rules.suzaku_payment_divisor, rules)
