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


def main() -> None:
    link, path, ready = sys.argv[1:4]
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM, signal.SIGINT})
    master, slave = os.openpty()
    tty.setraw(slave)
    if os.path.lexists(link):
        os.unlink(link)
    os.symlink(os.ttyname(slave), link)
    deadline = time.monotonic() + 60
    while not os.path.exists(ready):
        if time.monotonic() > deadline:
            sys.exit(f"feed-pty: {ready} did not appear within 60 s")
        time.sleep(0.05)
    with open(path, "rb") as source:
        while chunk := source.read(4096):
            view = memoryview(chunk)
            while view:
                view = view[os.write(master, view):]
    print("fed", flush=True)
    signal.sigwait({signal.SIGTERM, signal.SIGINT})


if __name__ == "__main__":
    main()
