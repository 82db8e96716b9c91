"""From a photo of a hand to the hand JSON: find the tiles, read them, lay out the hand.

::

    photo bytes
      │ decode.py            check the file (type, size, whole), decode, EXIF-turn, shrink
      ▼
    image ──► find ─────────── detect.py: tile centres, boxes, sideways (+ stacked) per hit
      │        │               classify.py: class probabilities per hit (turned, looser cuts)
      │        │               limits.py: too many hits → too_many_tiles; deadline → photo_timeout
      │        ▼
      │      sift ──────────── pipeline.py: hits → reported tiles (doubles, unsure, not-tiles
      │        │               and flowers set aside, kept as evidence for the second looks)
      │        ▼
      │      join ──────────── join.py: two small reports on parts of one tile, read as one
      │        ▼
      │      lay out ───────── layout/: the concealed row, the winning tile, melds, kita, dora;
      │        │               the rule-aware reading (rulefix.py) re-reads unsure tiles
      │        ▼
      └────► second looks ──── decoder.py: a loop over whole-hand readings
               │                 looks propose edits, each with its evidence and goal:
               │                   hole / win / missed (probe.py)   tiles the row lacks
               │                   halves (join.py), split (split.py)  boxes joined or cut
               │                   refill (refill.py)               an unsure hit put back
               │                   ankan (backs.py)                 an ankan's face-down ends
               │                   kakan (probe.py, stacked.py)     a kakan's added tile
               │                 verdict(): laid out again, is the hand better as the edit
               │                 meant (count, winning tile, kakan, …), no fifth tile made?
               │                 the most trusted accepted edit is taken; repeat
               ▼
             report ──────────── pipeline.py: tiles, hand, warnings (+ warning_details:
                                 warning_catalogue.py), the recognize JSON of docs/api.md

Each warning is made where its change is chosen (the layout's by the layout, the second
looks' by the decoder when it takes their edit) and comes with a stable code.
"""
