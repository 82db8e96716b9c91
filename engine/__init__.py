"""Pure-Python scoring engine for sanma under the sanma-1.3 house rules (docs/rules.md),
with a ``riichi-4p`` preset (standard four-player riichi, checked against the ``mahjong``
library by tests/test_differential.py).

Modules, in the order a hand flows through them:

- ``rules``: the frozen ``Rules`` value (yaku han table, limits, payments, every [interp]
  option); ``rules_from_json`` reads the hand JSON's ``rules`` field.
- ``tiles``: integer kind indices (0–33) and tile facts; ``parse``: hand JSON → checked
  ``HandInput`` + ``Situation`` (InputError on bad input).
- ``suits`` (per-suit tables keyed by a group's pattern code: flags, decompositions,
  completing kinds), ``decompose`` (win shapes, every wait with its decompositions,
  readings); ``fold`` (every wait's yaku han in one pass over the per-suit tables).
- ``yaku`` (one pure test per yaku), ``yaku_eval`` (the tests compiled per rule set into
  bitmask plans; how yaku combine), ``fu``, ``evaluate`` (best reading, dora),
  ``points`` (hand_base, ron_amount, tsumo_amounts, chombo_amounts).
- ``waits`` (waits, the §18 guarantee, tenpai), ``score`` (Result JSON),
  ``service`` (``score_json`` / ``tenpai_json``, the entry points).

``game`` (the game state) is built on ``points`` and ``service``. No vision or api imports.

``values`` is the base of the small immutable values (readings, evaluations, dora, waits):
plain slotted classes rather than NamedTuples, so that compiled code builds and reads them
natively. ``native`` is imported first: the install compiles the hot modules with mypyc
(setup.py), and it decides whether those compiled copies are used (only while their sources
are unchanged, and not under ``SANMA_PURE_PYTHON=1``). The answers are the same either way.
"""

from sanma_lens.engine import native  # noqa: F401, E402 - first: decides compiled or source modules
