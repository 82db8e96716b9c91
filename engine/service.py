"""JSON in, JSON out: the engine's entry points for the CLI and the HTTP API (docs/api.md).

``score_json(obj)`` → Result JSON; ``tenpai_json(obj)`` → Tenpai JSON. ``obj`` is the parsed
hand JSON (any type); anything that cannot be evaluated raises
:class:`engine.errors.InputError`.

Documented extensions of the hand JSON (beyond docs/api.md):

- ``discards``: the winner's own discards (MPSZ string or list). A ron while any wait is among
  them is ``valid: false, reason: "furiten"``; tenpai reports ``furiten``.
- ``ron_on``: ``null`` | ``"kita"`` | ``"ankan"`` — the ron is on an extracted north or robs a
  concealed kan (§23, §24); it is valid only with a yakuman-valued hand (15+ han; option
  ``kita_ron_needs_yakuman_yaku`` requires a yakuman yaku), else ``reason: "yakuman_only"``.
- ``deposits`` counts riichi sticks on the table; the winner receives
  ``deposits × rules.riichi_deposit`` (1,000 each [interp]).
- ``first_draw``: a child's first draw with no call before it (for 十三不塔).
- ``rules``: ``{"preset": "sanma-1.3", <option>: value}``; the options are the bool/int fields
  of :class:`engine.rules.Rules` (e.g. ``aka_5man``, ``kiriage_mangan``, ``yakuman_exclusive``,
  ``north_is_yakuhai``, ``riichi_deposit``, ``kita_count_as_dora_when_north_indicated``).
- ``"rules": {"preset": "riichi-4p"}``: standard four-player riichi as the ``mahjong`` library
  2.1.0 computes it (open tanyao, red fives): all 136 tiles (``0m``/``0p``/``0s`` one red five
  each), ``chi:234m`` melds, seats and rounds E S W N, 1 han from any yaku, no kita, yakuman at
  13 han (kazoe one yakuman; double-yakuman hands; only yakuman yaku count, no dora), payments
  rounded to 100, honba 300, no tsumo bonus. Checked hand by hand against the library by
  ``tests/test_differential.py`` / ``benchmarks/differential.py``. Seed variants as options:
  ``kiriage_mangan``, ``kazoe_yakuman`` (false: kazoe stops at sanbaiman), ``kazoe_max_multiple``
  (0: unlimited), ``double_yakuman`` (false: those hands count single), ``yakuman_max_multiple``.

- ``"rules": {"preset": "ecip"}`` and ``{"preset": "standard"}``: the two four-player systems of
  the seeds, as ``docs/rules/ecip.md`` and ``docs/rules/standard.md`` write them (136 tiles, no
  red fives, chi, 1 han; ECIP: the yaku confirmed for every wait, 2 han from 5 honba, tenpane
  capped at mangan, 20 fu 1 han paid as 30 fu; standard: kazoe stops at sanbaiman, one yakuman
  at most, no tsumo fu on rinshan). ``"ecip-3p"``: ECIP at three players, every north a dora.
- ``last_kan``: ``null`` | ``"ankan"`` | ``"minkan"`` | ``"kakan"`` — the kan a chankan robs or a
  ``kanburi`` ron's discard follows, for rule sets whose newest kan dora does not count yet
  then (``kan_dora_on_chankan``, ``kan_dora_on_kan_discard``; the newest indicator is the last
  of ``dora``).
- Ability mahjong (能力麻雀 ver 1.1, docs/rules/ability.md; ``engine.roles``): ``role`` (the
  winner's role: ``tenshi``, ``seiryuu``, ``suzaku``, ``byakko``, ``genbu``, ``kouryuu``),
  ``byakko_declared``, ``kanpa`` (the tile the winner is under kanpa for), ``discarder_genbu``,
  ``extra_dora`` (the seiryuu's next kan-dora indicator and its ura), ``kanpa_discards`` (own
  discards exempt from furiten, ¶10.3); ``chi:XXX`` melds only with role ``suzaku``. The result
  then has ``ability`` (what the role changed, ``net`` after a byakko's mangan payment) and
  ``reason: "kanpa"`` for a forbidden win on the kanpa tile; tenpai marks a kanpa wait.

Defaults follow docs/api.md: absent flags are false, so an open-riichi ron without
``discarder_riichi: true`` is the §21.1 15-han case. Under ``aka_5man`` every 5p/5s counts as a
red five however it is written (§A2 "全赤"). Contradictory flags (ippatsu without riichi, haitei
on a ron, …) are refused as ``inconsistent_situation``; ura indicators without riichi are no
contradiction and count 0.

Extra result fields: ``base`` (basic points), ``deposits`` (points received from deposits),
``form``/``wait`` of the chosen reading, and ``seat`` on tsumo/chombo payments. Tenpai JSON adds
``yaku_han_ron``/``yaku_han_tsumo`` per wait (``yaku_han`` is the ron value),
``guarantee_ok_tsumo``, ``required``, ``minimum_over_waits`` and ``furiten``.
"""

from __future__ import annotations

from typing import Any

from sanma_lens.engine.parse import parse_hand
from sanma_lens.engine.score import score
from sanma_lens.engine.waits import tenpai


def score_json(obj: Any) -> dict[str, Any]:
    """Score one hand JSON (with ``win``) → Result JSON."""
    return score(parse_hand(obj, need_win=True))


def tenpai_json(obj: Any) -> dict[str, Any]:
    """Waits of a hand JSON without ``win`` → Tenpai JSON."""
    return tenpai(parse_hand(obj, need_win=False))
