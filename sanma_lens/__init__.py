"""sanma-lens: recognise a photographed sanma hand, score it under house rules, keep the game.

The installed package. Its parts live in the repository's top-level folders, and
``sanma_lens/`` links to them, so a checkout imports them by the same names as an install:

- ``sanma_lens.engine`` (``engine/``): the rules, scoring, tenpai and the game state;
- ``sanma_lens.vision`` (``vision/``): a photo to the tiles of a hand;
- ``sanma_lens.api`` (``api/``): the ``sanma`` command, the HTTP API and the phone pages;
- ``sanma_lens/models`` (``models/``): the ONNX models and their cards (package data).

Arrows go one way: api → vision → engine.
"""
