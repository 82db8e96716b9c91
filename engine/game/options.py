"""A game's rule options as JSON and back: what a new game may set, how it is stored.

``{"aka_5man": true, "uma": 20, "rank_ties": "split", "hand_rules": {"riichi_deposit": 1000}}``
— every field of :class:`GameRules` by name, and under ``hand_rules`` the engine's options as a
hand JSON's ``rules`` object takes them (``engine.rules.rules_from_json``, under the game's
preset). ``"preset"`` picks the rule system (``engine.game.presets``: sanma-1.3, ecip,
standard) whose values the other options override. Absent options keep the preset's values
(sanma-1.3's when no preset is named), so a game stored before an option existed folds as it
always did; :func:`game_rules_to_json` writes every option, so a stored game keeps its rules
even if a default changes later.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from sanma_lens.engine.errors import InputError
from sanma_lens.engine.game.presets import GAME_PRESETS, SCORING_ONLY_PRESETS
from sanma_lens.engine.game.state import ABILITY_OPTIONS, TEXT_CHOICES, GameRules

#: the JSON key of ``GameRules.hand_options``: the rules each hand is scored under
HAND_RULES_KEY = "hand_rules"
#: the JSON key of ``GameRules.roles``: each player's role in ability mahjong
ROLES_KEY = "roles"
#: the JSON key of ``GameRules.byakko_silent_before``: set by a block, shown when set
CARRIED_KEY = "byakko_silent_before"

#: JSON type of each plain option of GameRules (``hand_options`` is read on its own)
GAME_OPTION_TYPES: dict[str, type] = {
    f.name: {"bool": bool, "int": int, "str": str}[str(f.type)]
    for f in fields(GameRules)
    if f.name not in ("hand_options", ROLES_KEY, CARRIED_KEY)
}

#: the allowed values of the text options (GameRules checks them; listed for the API schema)
GAME_OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "preset": tuple(GAME_PRESETS),
    **TEXT_CHOICES,
    "kanpa_at_once": ("nearer", "farther"),
}

_TYPE_WORDS = {bool: "true or false", int: "an integer", str: "a string"}


def game_rules_from_json(obj: Any) -> GameRules:
    """A game's rule options from JSON (absent or null → defaults).

    InputError ``bad_rules`` (not an object, or values that do not fit together, e.g. an odd
    uma with ``rank_ties: "split"``), ``unknown_rule_option``, ``bad_rule_option`` (wrong type),
    ``unknown_preset``, ``preset_not_kept`` (a hand preset no game is kept under, e.g.
    ``ecip-3p``: ``presets.SCORING_ONLY_PRESETS`` says why).

    >>> game_rules_from_json({"uma": 20, "hand_rules": {"kiriage_mangan": True}}).uma
    20
    """
    if obj is None:
        return GameRules()
    if not isinstance(obj, dict):
        raise InputError("bad_rules", "rules must be an object of rule options")
    preset = obj.get("preset", "sanma-1.3")
    if isinstance(preset, str) and preset in SCORING_ONLY_PRESETS:
        raise InputError("preset_not_kept", SCORING_ONLY_PRESETS[preset])
    if not isinstance(preset, str) or preset not in GAME_PRESETS:
        raise InputError(
            "unknown_preset",
            f"a game is kept under one of the presets {sorted(GAME_PRESETS)}, not {preset!r}",
        )
    values: dict[str, Any] = {}
    for key, value in obj.items():
        if key == HAND_RULES_KEY:
            values["hand_options"] = _hand_options(value)
            continue
        if key == ROLES_KEY:
            values[ROLES_KEY] = _roles(value)
            continue
        if key == CARRIED_KEY:
            values[CARRIED_KEY] = _carried(value)
            continue
        want = GAME_OPTION_TYPES.get(key)
        if want is None:
            known = sorted([*GAME_OPTION_TYPES, HAND_RULES_KEY])
            raise InputError("unknown_rule_option", f"unknown rule option {key!r}; known: {known}")
        if isinstance(value, bool) is not (want is bool) or not isinstance(value, want):
            raise InputError("bad_rule_option", f"rule option {key!r} must be {_TYPE_WORDS[want]}")
        values[key] = value
    return replace(GAME_PRESETS[preset], **values)


def _hand_options(value: Any) -> tuple[tuple[str, Any], ...]:
    """The engine options as GameRules keeps them; values are checked by GameRules."""
    if value is None:
        return ()
    if not isinstance(value, dict):
        raise InputError(
            "bad_rules", f'{HAND_RULES_KEY} must be an object like {{"riichi_deposit": 1000}}'
        )
    return tuple(sorted(value.items()))


def _roles(value: Any) -> tuple[str, ...]:
    """The players' roles as GameRules keeps them; the names are checked by GameRules."""
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(r, str) for r in value):
        raise InputError("bad_roles", 'roles must be a list of role names like ["tenshi", …]')
    return tuple(value)


def _carried(value: Any) -> tuple[int, ...]:
    """The byakko counts carried into a block's hanchan; their values are checked by
    GameRules."""
    if value is None:
        return ()
    if not isinstance(value, list):
        raise InputError("bad_rules", f"{CARRIED_KEY} must be a list of integers")
    return tuple(value)


def game_rules_to_json(rules: GameRules) -> dict[str, Any]:
    """Every option of the game, as stored and shown (read back by game_rules_from_json)."""
    out: dict[str, Any] = {
        key: getattr(rules, key)
        for key in GAME_OPTION_TYPES
        if rules.ability or key not in ABILITY_OPTIONS  # a game without roles: as it always was
    }
    if rules.ability:
        out[ROLES_KEY] = list(rules.roles)
    if rules.byakko_silent_before:
        out[CARRIED_KEY] = list(rules.byakko_silent_before)
    out[HAND_RULES_KEY] = dict(rules.hand_options)
    return out
