"""The Rules value: the yaku table and every option match docs/rules.md, and a second preset's
needs."""

from __future__ import annotations

import json
import re
from dataclasses import fields, replace
from pathlib import Path

from sanma_lens.engine.game.options import GAME_OPTION_TYPES, HAND_RULES_KEY, game_rules_to_json
from sanma_lens.engine.game.state import GameRules
from sanma_lens.engine.points import hand_base, ron_amount, tsumo_amounts
from sanma_lens.engine.rules import (
    OPTION_TYPES,
    PRESETS,
    SANMA_13,
    LimitStep,
    Rules,
    rules_from_json,
)
from sanma_lens.engine.tiles import ALL_KINDS
from sanma_lens.engine.yaku import TESTS

RULES_MD = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def _rules_md_table() -> dict[str, tuple[int | None, int | None]]:
    out = {}
    rules_text = RULES_MD.read_text(encoding="utf-8").split("## Every option", 1)[0]
    for line in rules_text.splitlines():
        m = re.match(r"\| (\w+) \| [^|]+ \| ([^|]+) \| ([^|]+) \|", line)
        if not m or m.group(1) in ("id", "hand"):
            continue

        def han(cell: str) -> int | None:
            cell = cell.strip().strip("*")
            return None if cell == "—" else int(cell)

        out[m.group(1)] = (han(m.group(2)), han(m.group(3)))
    return out


def test_yaku_table_matches_rules_md_exactly() -> None:
    table = _rules_md_table()
    ours = {s.id: (s.closed, s.open) for s in SANMA_13.yaku}
    assert ours == table


def _options_table(heading: str) -> tuple[list[str], dict[str, list[str]]]:
    """The header and the rows (option → cells) of the options table under ``heading``."""
    lines = RULES_MD.read_text(encoding="utf-8").split(heading, 1)[1].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("|")), len(lines))
    table = lines[start:end]
    cells = [[c.strip().strip("`") for c in row.strip("|").split("|")] for row in table]
    header, rows = cells[0], cells[2:]
    return header, {row[0]: row[1:] for row in rows}


def test_rules_md_lists_every_hand_option_with_each_presets_default() -> None:
    """docs/rules.md "Hand options": one row per option of Rules (no more, no fewer), and the
    default of every preset that has a column there, as JSON."""
    header, rows = _options_table("### Hand options")
    assert set(rows) == set(OPTION_TYPES), "document each option in docs/rules.md"
    columns = [(i, PRESETS[name]) for i, name in enumerate(header[1:]) if name in PRESETS]
    assert [name for name in header[1:] if name in PRESETS][:2] == ["sanma-1.3", "riichi-4p"]
    for option, cells in rows.items():
        for i, preset in columns:
            assert cells[i] == json.dumps(getattr(preset, option)), (option, preset.preset)


def test_rules_md_lists_every_game_option_with_its_default() -> None:
    _, rows = _options_table("### Game options")
    # ability mahjong's options are written only for a game with roles: their defaults too
    defaults = {f.name: getattr(GameRules(), f.name) for f in fields(GameRules)}
    defaults.update(game_rules_to_json(GameRules()))
    assert set(rows) == {*GAME_OPTION_TYPES, HAND_RULES_KEY}
    for option, cells in rows.items():
        assert cells[0] == json.dumps(defaults[option]), option


def _paragraphs(text: str) -> list[str]:
    """Bullets, table rows and paragraphs of a Markdown text, each as one string."""
    blocks: list[list[str]] = []
    for line in text.splitlines():
        starts = line.startswith(("- ", "|")) or not line.strip()
        if starts or not blocks:
            blocks.append([])
        blocks[-1].append(line)
    return [" ".join(block) for block in blocks]


def test_every_interp_of_rules_md_names_its_option() -> None:
    """Each [interp] choice of docs/rules.md names the option that changes it, or says that
    the game keeper's reading is fixed."""
    options = {*OPTION_TYPES, *GAME_OPTION_TYPES}
    text = RULES_MD.read_text(encoding="utf-8").split("## Every option", 1)[0]
    text = text[text.index("\n## ") :]  # the rules, after the introduction
    for block in _paragraphs(text):
        if "[interp]" in block:
            named = set(re.findall(r"`(\w+)`", block)) & options
            assert named or "(fixed)" in block, block


def test_every_yaku_in_the_table_has_a_pure_test() -> None:
    assert all(spec.id in TESTS for spec in SANMA_13.yaku)


def test_interp_options_default_as_written() -> None:
    r = SANMA_13
    assert not r.kiriage_mangan and not r.north_is_yakuhai and not r.yakuman_exclusive
    assert r.riichi_deposit == 1000 and r.kita_count_as_dora_when_north_indicated
    assert r.open_double_riichi_han == 3 and not r.ryuuiisou_requires_hatsu
    assert r.tsuuiisou_chiitoitsu and r.min_yaku_han == 2 and r.min_yaku_han_many_honba == 3


def test_rules_json_overrides_and_aka_5man() -> None:
    r = rules_from_json({"preset": "sanma-1.3", "aka_5man": True, "kiriage_mangan": True})
    assert r.aka_5man and r.kiriage_mangan and r.max_red("p") == 4 and r.aka5man_tiles == 1
    assert SANMA_13.max_red("p") == 1 and SANMA_13.aka5man_tiles == 0


def test_a_four_player_style_rules_value_needs_no_code_change() -> None:
    """riichi-4p differs only in data: tiles, seats, limits, rounding, honba, tsumo bonus."""
    four = replace(
        SANMA_13,
        preset="riichi-4p-sketch",
        tile_kinds=ALL_KINDS,
        chi_allowed=True,
        seats=("E", "S", "W", "N"),
        rounds=("E", "S", "W", "N"),
        min_yaku_han=1,
        min_yaku_han_many_honba=1,
        guarantee=False,
        rounding_unit=100,
        tsumo_bonus_per_payer=0,
        honba_ron=300,
        honba_tsumo_each=100,
        yakuman_han=13,
        yakuman_step_han=0,
        kazoe_max_multiple=1,
        limits=(
            LimitStep(5, 2000, "mangan"),
            LimitStep(6, 3000, "haneman"),
            LimitStep(8, 4000, "baiman"),
            LimitStep(11, 6000, "sanbaiman"),
        ),
    )
    assert isinstance(four, Rules)
    base, _, _ = hand_base(2, 30, four)
    assert ron_amount(base, False, 1, four) == 2000 + 300
    assert tsumo_amounts(base, False, 1, four) == [
        ("dealer", 1000 + 100),
        ("child", 500 + 100),
        ("child", 500 + 100),
    ]
    assert hand_base(13, 30, four) == (8000, "yakuman", 1)
    assert hand_base(26, 30, four) == (8000, "yakuman", 1)  # no multiples by han


def test_option_kita_counts_in_shape_breaks_tanyao() -> None:
    from tests.engine.helpers import score

    hand = {"hand": "23p567p345s678s55p", "win": "4p", "riichi": "riichi", "kita": 1}
    assert any(y["id"] == "tanyao" for y in score(**hand)["yaku"])
    r = score(**hand, rules={"kita_counts_in_shape": True})
    assert not any(y["id"] == "tanyao" for y in r["yaku"])


def test_option_aka5man_doubles_deposits() -> None:
    from tests.engine.helpers import score

    hand = {
        "hand": "23p567p345s678s55p",
        "win": "4p",
        "riichi": "riichi",
        "kita": 1,
        "kita_aka": 1,
        "deposits": 1,
    }
    plain = score(**hand, rules={"aka_5man": True})
    doubled = score(**hand, rules={"aka_5man": True, "aka5man_doubles_deposits": True})
    assert doubled["total"] - plain["total"] == 1000


def test_option_formal_tenpai_and_used_up_waits() -> None:
    from tests.engine.helpers import tenpai

    no_yaku = {"hand": "123p456p78s11z999p"}  # 6s/9s, no yaku for ron
    assert tenpai(**no_yaku)["tenpai"]
    assert not tenpai(**no_yaku, rules={"formal_tenpai": False})["tenpai"]  # 1 han at most
    assert tenpai(hand="23p567p345s678s55p", rules={"formal_tenpai": False})["tenpai"]
    used_up = {"hand": "23p567s678s55p", "melds": ["ankan:1111p"]}  # 1p side used up
    assert [w["tile"] for w in tenpai(**used_up)["waits"]] == ["4p"]
    counted = tenpai(**used_up, rules={"used_up_waits_count": True})
    assert [w["tile"] for w in counted["waits"]] == ["1p", "4p"]


def test_rules_cache_evicts_the_least_recently_used_option_set() -> None:
    """The option-set cache stays bounded and keeps the sets in use: a set read again is
    kept, and a new set beyond the bound evicts the least recently used one (a server
    meets arbitrary option sets; the first 256 must not hold the cache for ever)."""
    from sanma_lens.engine.rules import RULES_CACHE_SIZE, cached_rule_sets, clear_rules_cache

    clear_rules_cache()
    first = rules_from_json({"riichi_deposit": 1})
    second = rules_from_json({"riichi_deposit": 2})
    for deposit in range(3, RULES_CACHE_SIZE + 1):  # the cache is full
        rules_from_json({"riichi_deposit": deposit})
    assert cached_rule_sets() == RULES_CACHE_SIZE
    assert rules_from_json({"riichi_deposit": 1}) is first  # read again: the most recent
    rules_from_json({"riichi_deposit": 10_000})  # one more: evicts deposit 2, not 1
    assert cached_rule_sets() == RULES_CACHE_SIZE
    assert rules_from_json({"riichi_deposit": 1}) is first
    again = rules_from_json({"riichi_deposit": 2})
    assert again is not second and again == second  # built afresh, the same rules
    assert rules_from_json({"riichi_deposit": 10_000}).riichi_deposit == 10_000
    for deposit in range(20_000, 20_000 + 2 * RULES_CACHE_SIZE):
        rules_from_json({"riichi_deposit": deposit})
    assert cached_rule_sets() == RULES_CACHE_SIZE
    clear_rules_cache()
