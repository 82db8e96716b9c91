"""The rule systems a game can be kept under, as :class:`GameRules` values (the game's
``"preset"``): sanma-1.3 (docs/rules.md) and the four-player ECIP and standard systems
(docs/rules/ecip.md, docs/rules/standard.md). A game's options override its preset's values."""

from __future__ import annotations

from typing import Final

from sanma_lens.engine.game.state import GameRules

SANMA_GAME: Final = GameRules()

#: ECIP (seed 004): 27,000 start, 30,000 return, the +12 oka to the top only, rounding toward
#: the origin, 西入 to 33,100 with sudden death from the North round, no bust end, double ron,
#: deposits to closed wins, pao, chombo and abortive draws as draws, nagashi mangan,
#: no-ten payments of 3,000 in all.
ECIP_GAME: Final = GameRules(
    preset="ecip",
    start_points=27_000,
    return_points=30_000,
    uma=0,
    bust_prize=0,
    double_bust_bonus=0,
    yakuman_prize_tsumo=0,
    yakuman_prize_ron=0,
    noten_payment=3_000,
    point_unit=100,
    noten_pool=True,
    bust_ends_game=False,
    extension_target=33_100,
    deposits_need_closed_win=True,
    last_hand_deposits="winners",
    pao=True,
    chombo_rewinds=False,
    abortive_draws=True,
    nagashi="mangan",
    manemann=False,
    settle_rounding="toward_origin",
)

#: The standard proposal (seed 003): tenpai renchan in every round, head bump only, no
#: abortive draw, no nagashi, no pao, a no-ten riichi is only no-ten, no-ten payments of 3,000
#: in all. The text leaves points to the table: 25,000 / 30,000, no uma, a bust ends the game
#: [interp].
STANDARD_GAME: Final = GameRules(
    preset="standard",
    start_points=25_000,
    return_points=30_000,
    uma=0,
    bust_prize=0,
    double_bust_bonus=0,
    yakuman_prize_tsumo=0,
    yakuman_prize_ron=0,
    noten_payment=3_000,
    point_unit=100,
    noten_pool=True,
    south_draw_keeps_dealer=False,
    max_ron_winners=1,
    nagashi="none",
    noten_riichi_is_chombo=False,
    manemann=False,
    settle_rounding="toward_origin",
)

GAME_PRESETS: Final[dict[str, GameRules]] = {
    "sanma-1.3": SANMA_GAME,
    "ecip": ECIP_GAME,
    "standard": STANDARD_GAME,
}

#: Hand presets (engine.rules) that no game is kept under, and why: the game keeper would have
#: to invent the whole table. ECIP's text (seed 004, §懸賞牌) says of three players only that
#: every north is a dora; start and return points, the oka and uma, the rounds and 西入, the
#: no-ten payments and a tsumo's missing North share are all written for four (§持ち点,
#: §流局時の罰符), so the keeper refuses ``ecip-3p`` (docs/rules/ecip.md) rather than guess.
SCORING_ONLY_PRESETS: Final[dict[str, str]] = {
    "ecip-3p": (
        "ECIP's rule text says of three players only that every north is a dora; it does not "
        "say how a three-player game is kept (start points, seats and rounds, payments, "
        "no-ten payments), so games are kept under 'ecip' with four players; score "
        "three-player hands with the hand preset 'ecip-3p'"
    ),
}
