"""Small helpers shared by tests that run a real server and a real browser."""

from __future__ import annotations

import socket

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
