#!/usr/bin/env python3
"""Feeds a file of receiver output into a pseudo-terminal as fast as its reader takes it.

usage: feed-pty.py LINK FILE READY
Makes a pty in raw mode, links LINK to its device, waits until the file READY exists (the
reader has opened the port), writes FILE through the master (a write blocks while the reader is
behind: the pty is the flow control), then keeps the pty open until killed, so the reader sees
a quiet receiver, not a hang-up.
"""
import os
import signal
import sys
import time
import tty


def open_linked_pty(link: str) -> int:
    """A pty in raw mode with LINK pointing to its device; returns the master (the slave stays
    open, so what is written before the reader opens it waits in the pty)."""
    master, slave = os.openpty()
    tty.setraw(slave)
    if os.path.lexists(link):
        os.unlink(link)
    os.symlink(os.ttyname(slave), link)
    return master


def wait_for(path: str, name: str) -> None:
    """Returns once PATH exists; exits after 60 s."""
    deadline = time.monotonic() + 60
    while not os.path.exists(path):
        if time.monotonic() > deadline:
            sys.exit(f"{name}: {path} did not appear within 60 s")
        time.sleep(0.05)


def write_all(fd: int, data: bytes) -> None:
    """Writes all of DATA (a write blocks while the reader is behind)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def main() -> None:
    link, path, ready = sys.argv[1:4]
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
    master = open_linked_pty(link)
    wait_for(ready, "feed-pty")
    with open(path, "rb") as source:
        while chunk := source.read(4096):
            write_all(master, chunk)
    print("fed", flush=True)
    signal.sigwait({signal.SIGTERM, signal.SIGINT})


if __name__ == "__main__":
    main()
