"""From a photo of a hand to the hand JSON: find the tiles, read them, lay out the hand.

::

    photo bytes
      │ decode.py            check the file (type, size, whole), decode, EXIF-turn, shrink
      ▼
    image ─► find ──────────── Recognizer.find: detect.py (tile centres, boxes, sideways,
      │       │                stacked) and classify.py (class probabilities per hit, turned,
      │       │                looser cuts); limits.py: too many hits → too_many_tiles,
      │       │                deadline → photo_timeout
      │       ▼ Detections (pipeline.py: one value, each stage fills in its part)
      │      sift ──────────── Recognizer.sift: hits → reported tiles; doubles, unsure hits,
      │       │                not-tiles kept as evidence; flowers left out → flowers_ignored
      │       │                faces.py: a face-up report showing no tile face is set aside
      │       │                blanks.py: a report read as haku or back read by its colour
      │       │                tile_check.py: a face-up report a small network calls no tile, too
      │       │                (patches.py: the pieces of a photo these checks measure)
      │       ▼
      │      join ──────────── Recognizer.join (join.py): two small reports on parts of one
      │       │                tile read as one → parts_joined
      │       ▼
      │      lay out ───────── lay_out (layout/): the concealed row, the winning tile, melds,
      │       │                kita, dora; the rule-aware reading (rulefix.py) re-reads unsure
      │       │                tiles → the layout's warnings
      │       ▼ Hypothesis (decoder.py: tiles, layout, warnings so far)
      └────► second looks ──── decode_hand (decoder.py): a loop over whole-hand readings;
              │                  Recognizer.looks builds the looks, most trusted first,
              │                  each proposing edits with their evidence and goal:
              │                   hole / win / missed (probe.py)   tiles the row lacks
              │                   halves (join.py), split (split.py)  boxes joined or cut
              │                   refill (refill.py)               an unsure hit put back
              │                   ankan (backs.py)                 an ankan's face-down ends
              │                   kakan (probe.py, stacked.py)     a kakan's added tile
              │                   askew (axes.py)                  a tile lying askew read
              │                                                    again along its own axes
              │                   pond (discards.py)               another player's discard
              │                                                    dropped as a double
              │                verdict(): laid out again, is the hand better as the edit
              │                meant (count, winning tile, kakan, a surer reading, …), no
              │                fifth tile made?
              │                the most trusted accepted edit is taken with its warnings;
              │                repeat until none is taken
              ▼
            report ──────────── report (pipeline.py): tiles, hand, warnings (+ warning_details:
                                warning_catalogue.py), the recognize JSON of docs/api.md

Each warning is made by the step that chose it: sift and join add theirs to the Detections,
the layout its own, the decoder those of the edits it takes; each comes with a stable code.
Every crop is read once per photo (Recognizer.reader), whichever stage asks. The tuning
knobs of all stages are one value, settings.py.
"""
