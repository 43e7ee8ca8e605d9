#!/usr/bin/env python3
"""Paces a receiver capture into a pseudo-terminal as a receiver sends it: one epoch at a time,
EPOCH_MS apart, through a pty in raw mode that LINK points to (trackd opens LINK as its UART).

usage: pace-pty.py CAPTURE LINK EPOCH_MS GO SENT
Starts sending when the file GO exists (trackd holds the port open by then), writes every byte it
sends to SENT as well, prints "pace: N epochs" when the capture is done, then keeps the pty open
until killed (SIGTERM, also while a write blocks because nobody reads), so the reader sees a quiet receiver rather than a hang-up. Epochs are split as
scripts/board-test.d/pace.py splits them (by the capture's leading sentence type)."""
import os
import signal
import sys
import time
import tty

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'board-test.d'))
from pace import epochs  # noqa: E402


def main() -> None:
    capture, link, ms, go, sent_path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
    master, slave = os.openpty()
    tty.setraw(slave)
    if os.path.lexists(link):
        os.unlink(link)
    os.symlink(os.ttyname(slave), link)
    deadline = time.monotonic() + 60
    while not os.path.exists(go):
        if time.monotonic() > deadline:
            sys.exit(f"pace-pty: {go} did not appear within 60 s")
        time.sleep(0.05)
    count = 0
    with open(sent_path, 'wb', buffering=0) as sent:
        for epoch in epochs(capture):
            view = memoryview(epoch)
            while view:
                view = view[os.write(master, view):]
            sent.write(epoch)
            count += 1
            time.sleep(ms / 1000)
    print(f"pace: {count} epochs", flush=True)
    # SIGTERM's default action ends it, here or in a write the reader no longer takes.
    while True:
        signal.pause()


if __name__ == '__main__':
    main()
