"""Small helpers shared by tests: the contract's field names, a real server, a real browser."""

from __future__ import annotations

import socket

# The hand JSON's fields as CONTRACT.md lists them, written out here on purpose: the tests check
# the implementation against the contract, not against the implementation's own field lists.
CONTRACT_HAND_FIELDS = (
    "hand",
    "win",
    "melds",
    "kita",
    "kita_aka",
    "dora",
    "ura",
    "tsumo",
    "seat",
    "round",
    "riichi",
    "ippatsu",
    "haitei",
    "houtei",
    "rinshan",
    "kanburi",
    "chankan",
    "tenhou",
    "chihou",
    "renhou",
    "first_draw",
    "discarder_riichi",
    "aka5man_as",
    "honba",
    "deposits",
    "rules",
)

# Debian's Chromium; Playwright's own browser download does not work here.
CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags Chromium keeps dialling out on a closed network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
