"""Where a phone at the table finds the server: the LAN address ``sanma serve`` prints, with a QR
code of it to scan (``segno``), so that nobody types an address at the table."""

from __future__ import annotations

import socket
from typing import TextIO

ANY_ADDRESS = ("0.0.0.0", "::", "")
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def lan_address() -> str | None:
    """This computer's address on its local network (the interface of its default route), or
    None without one. A UDP socket's connect() picks the route and sends nothing."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.254.254.254", 1))
            address = str(s.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def phone_url(host: str, port: int) -> str | None:
    """The URL a phone on the same network opens, or None when the server cannot be reached
    from another device (it listens on loopback only) or no LAN address is known."""
    if host in LOOPBACK:
        return None
    address = lan_address() if host in ANY_ADDRESS else host
    if address is None:
        return None
    return f"http://{f'[{address}]' if ':' in address else address}:{port}/"


def print_banner(host: str, port: int, out: TextIO) -> None:
    """What ``sanma serve`` says before it starts: the local URL, and the phone's URL with its
    QR code, or how to get one."""
    local = f"http://{'127.0.0.1' if host in ANY_ADDRESS else host}:{port}/"
    print(f"sanma-lens on this computer: {local}", file=out)
    url = phone_url(host, port)
    if url is None:
        if host in LOOPBACK:
            print(
                "A phone cannot reach 127.0.0.1: run `sanma serve --host 0.0.0.0` to serve the "
                "local network.",
                file=out,
            )
        else:
            print("No local network address found: connect this computer to Wi-Fi.", file=out)
        out.flush()
        return
    import segno

    print(f"On a phone on the same Wi-Fi, open {url} or scan:", file=out)
    segno.make(url, error="m").terminal(out=out, compact=True)
    out.flush()
