"""A win given as a hand JSON (docs/api.md), scored by ``engine.service.score_json`` with this
table's seat, round, honba, deposits and aka-5-man option; the §A8 doubling is left to the fold.
In ability mahjong the table also gives the winner's role and its facts (the byakko's
declaration, the kanpa in force, whether a genbu discarded), and the suzaku's halving is left to
the fold too."""

from __future__ import annotations

from typing import Any

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.game.ability import kanpa_on, seiryuu_deposits
from sanma_lens.engine.game.events import HandResult, Outcome, Payment, Win
from sanma_lens.engine.game.results import MIS_CALL_PENALTY
from sanma_lens.engine.game.seats import others_in_settlement_order, seat_winds
from sanma_lens.engine.game.state import GameState
from sanma_lens.engine.parse import tiles_of
from sanma_lens.engine.roles import Role
from sanma_lens.engine.rules import rules_from_json


def win_from_hand(
    state: GameState,
    result: HandResult,
    spec: dict[str, Any],
    winner: int,
    honba: int,
    riichi: list[int],
    collects_deposits: bool = True,
) -> tuple[Win, bool, bool]:
    """Score a hand JSON at this table: seat, round, honba and tsumo/ron come from the game.

    Returns the win, whether the hand was in riichi and whether it extracted the aka-5-man.
    A hand that is not a legal win is refused (``invalid_win``): if it was claimed at the
    table, record a chombo instead (§18.1).
    """
    from sanma_lens.engine.service import score_json

    rules = state.rules.hand_rules
    if "seiryuu_han" in spec:
        raise InputError(
            "bad_win", "seiryuu_han comes from the hand's indicators (ura, extra_dora)"
        )
    if set(spec) - {"winner", "hand", "pao"}:
        raise InputError("bad_win", "give a win's value as han/fu, a limit or a hand, not two")
    hand = spec["hand"]
    if not isinstance(hand, dict):
        raise InputError("bad_hand", "hand must be a hand JSON object (docs/api.md)")
    hand = dict(hand)
    hand["rules"] = _rules_of_hand(state, hand.get("rules"))
    tsumo = result.outcome is Outcome.TSUMO
    hand.update(
        seat=state.seat_wind(winner),
        round=state.round_wind,
        honba=state.honba,  # the real count: it also decides §18.4 and paarenchan (§35)
        tsumo=tsumo,
    )
    declared = hand.get("riichi", "none")
    if "riichi" not in hand and winner in riichi:
        hand["riichi"] = declared = "riichi"
    elif declared == "none" and winner in riichi:
        raise InputError(
            "riichi_mismatch", "the winner is listed in riichi but the hand says riichi 'none'"
        )
    if collects_deposits:
        sticks = set(riichi) | ({winner} if declared != "none" else set())
        on_table = (
            state.deposits
            + rules.riichi_deposit * len(sticks)
            + MIS_CALL_PENALTY * len(result.mis_calls)
        )
    else:
        on_table = 0
    # The engine counts ``deposits`` in sticks of its riichi_deposit; the table holds points
    # (riichi sticks and §R3 mis-call penalties, all whole thousands), so they go as 1,000s.
    hand["deposits"] = on_table // _DEPOSIT_UNIT
    hand["rules"]["riichi_deposit"] = _DEPOSIT_UNIT
    if not tsumo and "discarder_riichi" not in hand:
        hand["discarder_riichi"] = result.discarder in riichi
    if state.rules.ability:
        _role_fields(state, result, winner, hand)
        hand["deposits"] += sum(a for _, a in seiryuu_deposits(state)) // _DEPOSIT_UNIT
    scored = score_json(hand)
    if not scored.get("valid"):
        raise InputError(
            "invalid_win",
            f"the hand is not a legal win ({scored.get('reason')}); if it was claimed at the "
            "table, record a chombo",
        )
    extracted_aka = bool(hand.get("kita_aka", 0))
    by_role = _payments_by_role(scored)
    seats = [e.get("seat") for e in scored.get("payments", ()) if isinstance(e, dict)]
    payers = others_in_settlement_order(winner, state.players)
    if tsumo and seats and all(w in seat_winds(state.players) for w in seats):
        # the score result names each payer's seat: map it to the player sitting there
        by_seat = {state.seat_wind(p): p for p in range(state.players)}
        payments = tuple(
            sorted(
                (
                    Payment(by_seat[str(w)], amount)
                    for w, (_, amount) in zip(seats, by_role, strict=True)
                ),
                key=lambda p: payers.index(p.payer),
            )
        )
        if sorted(p.payer for p in payments) != sorted(payers):
            raise InputError("engine_mismatch", f"unexpected tsumo payments {by_role}")
    elif tsumo:
        roles = ["dealer" if p == state.dealer else "child" for p in payers]
        if sorted(roles) != sorted(r for r, _ in by_role):
            raise InputError("engine_mismatch", f"unexpected tsumo payments {by_role}")
        amounts = dict(by_role)
        payments = tuple(Payment(p, amounts[r]) for p, r in zip(payers, roles, strict=True))
    else:
        if [r for r, _ in by_role] != ["discarder"]:
            raise InputError("engine_mismatch", f"unexpected ron payments {by_role}")
        assert result.discarder is not None
        payments = (Payment(result.discarder, by_role[0][1]),)
    han, fu = int(scored["han"]), scored.get("fu")
    if honba != state.honba:
        # double_ron_honba="first": a later winner's ron carries no honba
        (ron,) = payments
        payments = (Payment(ron.payer, ron.amount - (state.honba - honba) * rules.honba_ron),)
    multiple = int(scored.get("yakuman_multiple") or 0)
    seiryuu_han, upgraded_from = None, None
    ability = scored.get("ability")
    if isinstance(ability, dict):
        if ability.get("seiryuu"):
            seiryuu_han = int(ability["seiryuu"]["han"])
        upgrade = (ability.get("byakko") or {}).get("upgrade")
        if upgrade:
            upgraded_from = str(upgrade["from"])
            if not state.rules.byakko_upgrade_earns_prize:
                multiple = multiple - 1 if upgraded_from == "yakuman" else 0
    win = Win(
        winner,
        payments,
        multiple,
        han,
        fu,
        scored.get("limit"),
        tuple(str(y.get("id")) for y in scored.get("yaku", ()) if isinstance(y, dict)),
        seiryuu_han=seiryuu_han,
        upgraded_from=upgraded_from,
        closed=_closed(hand),
        pao=spec.get("pao"),
    )
    return win, declared != "none", extracted_aka


def _closed(hand: dict[str, Any]) -> bool:
    """Whether a scored hand JSON is closed: no pon, chi or open kan (its melds were read)."""
    return all(str(m).partition(":")[0].strip().lower() == "ankan" for m in hand.get("melds") or ())


def _role_fields(state: GameState, result: HandResult, winner: int, hand: dict[str, Any]) -> None:
    """ABILITY.md: the winner's role and its facts as this table knows them: the role, the
    byakko's declaration, the kanpa in force on the winner and whether a genbu discarded.
    A hand that says otherwise is refused; a kanpa the table did not record may be given."""
    known: dict[str, object] = {"role": state.rules.role_of(winner)}
    if known["role"] == Role.BYAKKO.value:
        known["byakko_declared"] = winner in result.byakko_declared
    if result.outcome is Outcome.RON and result.discarder is not None:
        known["discarder_genbu"] = state.rules.role_of(result.discarder) == Role.GENBU.value
    kanpa = kanpa_on(state, result, winner)
    if kanpa is not None:
        known["kanpa"] = kanpa
    for key, value in known.items():
        given = hand.get(key)
        if (
            given is not None
            and given != value
            and not (key == "kanpa" and _same_tile(state, given, value))
        ):
            raise InputError(
                "role_mismatch",
                f"the hand says {key}={given!r}, but at this table it is {value!r}",
            )
        hand[key] = value


def _same_tile(state: GameState, a: Any, b: Any) -> bool:
    """Whether two tile texts name the same kind (a red five is a five)."""
    rules = state.rules.hand_rules
    try:
        return [t.kind for t in tiles_of(a, rules, "kanpa")] == [
            t.kind for t in tiles_of(b, rules, "kanpa")
        ]
    except InputError:
        return False


_DEPOSIT_UNIT = 1000


def _rules_of_hand(state: GameState, given: Any) -> dict[str, Any]:
    """The hand's ``rules`` for the engine: the game's own (its ``hand_rules`` and aka-5-man
    option). A hand may restate them; an option that differs from the game's is refused, since
    the table's deposits, honba and settlement follow the game's rules."""
    game = state.rules.hand_rules
    preset = state.rules.preset
    if given is None:
        given = {}
    if not isinstance(given, dict) or given.get("preset", preset) != preset:
        raise InputError("bad_rules", f"a hand of this game is scored under its {preset} preset")
    own = rules_from_json({"preset": preset, **given})  # unknown options, wrong types: refused
    for name in given:
        if name != "preset" and getattr(own, name) != getattr(game, name):
            raise InputError(
                "rules_mismatch",
                f"this game plays {name}={getattr(game, name)!r}; a hand cannot change it "
                "(set the game's rules when it is created)",
            )
    # The fold applies the §A8 doubling and the suzaku's halving itself, so the score must
    # come back undoubled and whole.
    return {
        **dict(state.rules.hand_options),
        "preset": preset,
        "aka_5man": state.rules.aka_5man,
        "aka5man_payment_multiplier": 1,
        "suzaku_payment_divisor": 1,
    }


def _payments_by_role(scored: dict[str, Any]) -> list[tuple[str, int]]:
    out = []
    for entry in scored.get("payments", ()):
        out.append((str(entry.get("from")), int(entry.get("amount"))))
    return out
