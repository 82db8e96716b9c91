"""Ability mahjong at the table (能力麻雀 ver 1.1, docs/rules/ability.md): what the game keeper does
with the players' roles (``GameRules.roles``).

- the seiryuu's deposit at each hand's start: 2,000, or 4,000 after a seiryuu win whose
  role-only indicators added no han (¶2.1, ¶2.3);
- the byakko's declarations (¶2.7; at least once in every three consecutive hands, ver 1.1), and
  after the hand its mangan payment when it declared and did not win with 6+ han;
- the genbu's kanpa declarations (¶10): which hold, and the tile each player is under kanpa for;
- the kouryuu's 1,000 from every other player at each hand's end (¶12);
- a suzaku receives half (``engine.roles.suzaku_share``, applied where wins are settled).

Start points and the oka (¶8, ¶11, ruling 1) are ``GameRules``' (``start_of``, ``oka``). Every
option of docs/rules/ability.md's **[interp]** is a field of ``GameRules`` (see its docstring).
"""

from __future__ import annotations

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.game.events import HandResult, Kanpa, Outcome
from sanma_lens.engine.game.seats import others_in_settlement_order, turn_order_from
from sanma_lens.engine.game.state import GameState, HandRecord
from sanma_lens.engine.game.transfers import Ledger
from sanma_lens.engine.game.validate import check_distinct, check_player
from sanma_lens.engine.parse import tiles_of
from sanma_lens.engine.points import chombo_amounts
from sanma_lens.engine.roles import Role, suzaku_chombo


def players_with(state: GameState, role: Role) -> tuple[int, ...]:
    """The players holding ``role``, in turn order from the dealer (two may hold one role)."""
    if not state.rules.ability:
        return ()
    order = turn_order_from(state.dealer, state.players)
    return tuple(p for p in order if state.rules.roles[p] == role.value)


def _last_dealt(state: GameState) -> HandRecord | None:
    """The last hand that was played out: a chombo's hand is replayed, so it is skipped."""
    for record in reversed(state.log):
        if record.result.outcome is not Outcome.CHOMBO:
            return record
    return None


# ---- 青龍 seiryuu ------------------------------------------------------------------------


def seiryuu_deposit_due(state: GameState, player: int) -> int:
    """¶2.1, ¶2.3: what the seiryuu ``player`` puts into the deposits at the next hand's start:
    4,000 after a win of theirs whose role-only indicators added no han, else 2,000."""
    rules = state.rules
    last = _last_dealt(state)
    if last is not None:
        for win in last.result.wins:
            if win.winner == player and win.seiryuu_han == 0:
                return rules.seiryuu_deposit_after_blank
    return rules.seiryuu_deposit


def seiryuu_deposits(state: GameState) -> tuple[tuple[int, int], ...]:
    """Each seiryuu's deposit at the next hand's start, ``(player, amount)`` in turn order from
    the dealer (what the scoreboard shows on the table)."""
    return tuple((p, seiryuu_deposit_due(state, p)) for p in players_with(state, Role.SEIRYUU))


def put_up_seiryuu_deposits(state: GameState, ledger: Ledger) -> None:
    """¶2.1: at the hand's start the seiryuu's deposit goes to the table, like a riichi stick
    (the next winner takes it). Owed even below zero, a bust with no receiver
    (``seiryuu_deposit_below_zero`` **[interp]**); off, a seiryuu puts up what it has."""
    for player, due in seiryuu_deposits(state):
        amount = due
        if not state.rules.seiryuu_deposit_below_zero:
            amount = min(due, max(0, ledger.scores[player]))
        ledger.move(player, None, amount, "seiryuu_deposit")


# ---- 白虎 byakko -------------------------------------------------------------------------


def byakko_silent_hands(state: GameState, player: int) -> int:
    """How many hands in a row, up to now, the byakko ``player`` has not declared in. A hand
    replayed after a chombo is the same hand: the chombo's deal does not count
    (``byakko_chombo_hand_counts`` **[interp]**). With no declaration in this hanchan, the
    count carried in from the block's hanchan before is added (``byakko_silent_before``, set
    under ``byakko_count_across_hanchan`` **[interp]**)."""
    count = 0
    for record in reversed(state.log):
        result = record.result
        if result.outcome is Outcome.CHOMBO and not state.rules.byakko_chombo_hand_counts:
            continue
        if player in result.byakko_declared:
            return count
        count += 1
    carried = state.rules.byakko_silent_before
    return count + (carried[player] if carried else 0)


def byakko_must_declare(state: GameState) -> tuple[int, ...]:
    """The byakko players who must declare this hand: ver 1.1 asks for a declaration in every
    ``byakko_declare_within`` (3) consecutive hands."""
    within = state.rules.byakko_declare_within
    if within <= 0:
        return ()
    return tuple(
        p for p in players_with(state, Role.BYAKKO) if byakko_silent_hands(state, p) >= within - 1
    )


def byakko_payments(state: GameState, result: HandResult, ledger: Ledger) -> None:
    """¶2.7 (ii)/(iii): each declared byakko that did not win with 6+ han (then its win was
    counted one limit higher) makes a mangan payment (child 4,000 to each other, dealer 6,000
    to each), byakko players in turn order from the dealer."""
    rules = state.rules.hand_rules
    won = {w.winner: w for w in result.wins}
    for player in players_with(state, Role.BYAKKO):
        if player not in result.byakko_declared:
            continue
        win = won.get(player)
        if win is not None and (win.han or 0) >= rules.byakko_upgrade_min_han:
            continue
        ledger.mangan_payment(player, state.dealer, rules, "byakko_mangan")


# ---- 黄龍 kouryuu ------------------------------------------------------------------------


def kouryuu_collections(state: GameState, ledger: Ledger) -> None:
    """¶12 (ver 1.1): the kouryuu players one at a time, from the dealer in turn order, each
    receive 1,000 from every other player (§17 order). A busted player still pays; a busted
    kouryuu receives nothing. A payer taken below zero is busted by the kouryuu, with its
    prize (``kouryuu_bust_prize`` **[interp]**; off: a bust without a receiver)."""
    rules = state.rules
    for player in players_with(state, Role.KOURYUU):
        if ledger.busted(player):
            continue
        for other in others_in_settlement_order(player, state.players):
            ledger.move(
                other,
                player,
                rules.kouryuu_collection,
                "kouryuu",
                prize=rules.kouryuu_bust_prize,
            )


def end_of_hand(state: GameState, result: HandResult, ledger: Ledger) -> None:
    """After the hand's own exchanges: the byakko's mangan payments, then the kouryuu's
    collections (``kouryuu_before_byakko`` **[interp]** swaps them). After a chombo neither,
    unless ``byakko_pays_after_chombo`` / ``kouryuu_collects_after_chombo`` **[interp]**."""
    if not state.rules.ability:
        return
    chombo = result.outcome is Outcome.CHOMBO or bool(result.noten_riichi)
    byakko = not chombo or state.rules.byakko_pays_after_chombo
    kouryuu = not chombo or state.rules.kouryuu_collects_after_chombo
    if kouryuu and state.rules.kouryuu_before_byakko:
        kouryuu_collections(state, ledger)
        kouryuu = False
    if byakko:
        byakko_payments(state, result, ledger)
    if kouryuu:
        kouryuu_collections(state, ledger)


# ---- 朱雀 suzaku -------------------------------------------------------------------------


def chombo_payment(state: GameState, ledger: Ledger, offender: int) -> None:
    """§R1.3: the offender's mangan payment; a suzaku's halved only under the rule option
    ``suzaku_halves_chombo`` (not halved **[interp]**)."""
    rules = state.rules.hand_rules
    if state.rules.role_of(offender) != Role.SUZAKU.value or not rules.suzaku_halves_chombo:
        ledger.mangan_payment(offender, state.dealer, rules, "chombo")
        return
    amounts = dict(chombo_amounts(offender == state.dealer, rules))
    for other in others_in_settlement_order(offender, state.players):
        owed = amounts["dealer" if other == state.dealer else "child"]
        ledger.move(offender, other, suzaku_chombo(owed, rules), "chombo")


# ---- 玄武 genbu: kanpa -------------------------------------------------------------------


def kanpa_holding(state: GameState, declarations: tuple[Kanpa, ...]) -> tuple[Kanpa, ...]:
    """The declarations that hold, in order: of several made at once (``at_once``, at the same
    discard) only one, the declarer's nearer the discarder in turn order (¶10.2.1 "the upstream
    one"; ``kanpa_at_once``)."""
    out: list[Kanpa] = []
    group: list[Kanpa] = []
    for k in declarations:
        if k.at_once and group:
            group.append(k)
            continue
        if group:
            out.append(_upstream(state, group))
        group = [k]
    if group:
        out.append(_upstream(state, group))
    return tuple(out)


def _upstream(state: GameState, group: list[Kanpa]) -> Kanpa:
    if len(group) == 1:
        return group[0]
    discarder = group[0].discarder
    assert discarder is not None  # checked by check_kanpa
    order = turn_order_from(discarder, state.players)
    ranked = sorted(group, key=lambda k: order.index(k.by))
    return ranked[0] if state.rules.kanpa_at_once == "nearer" else ranked[-1]


def kanpa_on(state: GameState, result: HandResult, player: int) -> str | None:
    """The tile ``player`` is under kanpa for at the hand's end: the latest that holds
    (¶10.1), or None."""
    tile = None
    for k in kanpa_holding(state, result.kanpa):
        if k.target == player:
            tile = k.tile
    return tile


def check_kanpa(state: GameState, declarations: tuple[Kanpa, ...]) -> None:
    """¶10 (ver 1.1): a genbu declares against another player, at most once per player per hand
    (declarations that did not hold do not count), at another player's discard; a tile of the
    set. Declarations at once name the same discard."""
    n = state.players
    made: set[tuple[int, int]] = set()
    for i, k in enumerate(declarations):
        check_player(k.by, "kanpa by", n)
        check_player(k.target, "kanpa target", n)
        if state.rules.role_of(k.by) != Role.GENBU.value:
            raise InputError("bad_kanpa", f"{state.names[k.by]} is not a genbu: no kanpa")
        if k.target == k.by:
            raise InputError("bad_kanpa", "a genbu declares kanpa against another player")
        tiles = tiles_of(k.tile, state.rules.hand_rules, "kanpa tile")
        if len(tiles) != 1:
            raise InputError("bad_kanpa", f"a kanpa names one tile, got {k.tile!r}")
        if k.discarder is not None:
            check_player(k.discarder, "kanpa discarder", n)
            if k.discarder == k.by:
                raise InputError(
                    "bad_kanpa", "a kanpa is declared at another player's discard (¶10.2)"
                )
        if k.at_once:
            before = declarations[i - 1] if i else None
            if before is None or k.discarder is None or before.discarder != k.discarder:
                raise InputError(
                    "bad_kanpa",
                    "kanpa at_once: declared at the same discard as the entry before it "
                    "(both name that discarder)",
                )
            if before.by == k.by:
                raise InputError("bad_kanpa", "a genbu declares one kanpa at a time (¶10.2)")
    for k in kanpa_holding(state, declarations):
        if (k.by, k.target) in made:
            raise InputError(
                "bad_kanpa",
                f"{state.names[k.by]} already declared kanpa against {state.names[k.target]} "
                "this hand (once per player, ¶10)",
            )
        made.add((k.by, k.target))


# ---- checking a hand result ------------------------------------------------------------


def check_ability(state: GameState, result: HandResult) -> None:
    """Refuse ability facts that cannot be at this table: declarations in a game without roles,
    a declaration by a player of another role, a byakko who had to declare and did not."""
    if not state.rules.ability:
        if result.byakko_declared or result.kanpa:
            raise InputError(
                "ability_off", "byakko_declared and kanpa are for ability mahjong games"
            )
        for win in result.wins:
            if win.seiryuu_han is not None or win.upgraded_from is not None:
                raise InputError("ability_off", "this game is played without roles")
        return
    declared = check_distinct(result.byakko_declared, "byakko_declared", state.players)
    for p in declared:
        if state.rules.role_of(p) != Role.BYAKKO.value:
            raise InputError(
                "bad_byakko", f"{state.names[p]} is not a byakko: only a byakko declares"
            )
    for p in byakko_must_declare(state):
        if p not in declared:
            silent = byakko_silent_hands(state, p)
            raise InputError(
                "byakko_must_declare",
                f"{state.names[p]} (byakko) has not declared for {silent} hands in a row and "
                f"must declare this hand (at least once in every "
                f"{state.rules.byakko_declare_within} hands, ver 1.1)",
            )
    check_kanpa(state, result.kanpa)
    for win in result.wins:
        if win.seiryuu_han is not None and (
            state.rules.role_of(win.winner) != Role.SEIRYUU.value or win.seiryuu_han < 0
        ):
            raise InputError("bad_win", "seiryuu_han is a seiryuu winner's, 0 or more")
        if win.upgraded_from is not None and win.winner not in declared:
            raise InputError("bad_win", "only a declared byakko's win is counted one limit higher")


def table_json(state: GameState) -> dict[str, object] | None:
    """What the scoreboard shows of the roles before the next hand (None without roles): each
    player's role, the seiryuu's deposits the next hand starts with, and each byakko's hands
    without a declaration and whether it must declare now."""
    if not state.rules.ability:
        return None
    must = byakko_must_declare(state)
    return {
        "roles": list(state.rules.roles),
        "seiryuu_deposits": [{"player": p, "amount": a} for p, a in seiryuu_deposits(state)],
        "byakko": [
            {
                "player": p,
                "silent_hands": byakko_silent_hands(state, p),
                "must_declare": p in must,
            }
            for p in players_with(state, Role.BYAKKO)
        ],
        "start_points": list(state.rules.starting_scores),
        "oka": state.rules.oka,
    }
