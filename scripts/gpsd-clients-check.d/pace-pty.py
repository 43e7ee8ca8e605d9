#!/usr/bin/env python3
"""Paces a receiver capture into a pseudo-terminal as a receiver sends it: one epoch at a time,
EPOCH_MS apart, through a pty in raw mode that LINK points to (trackd opens LINK as its UART).

usage: pace-pty.py CAPTURE LINK EPOCH_MS GO SENT
Starts sending when the file GO exists (trackd holds the port open by then), writes every byte it
sends to SENT as well, prints "pace: N epochs" when the capture is done, then keeps the pty open
until killed (SIGTERM, also while a write blocks because nobody reads), so the reader sees a
quiet receiver rather than a hang-up. Epochs are split as scripts/board-test.d/pace.py splits
them (by the capture's leading sentence type)."""
import importlib.util
import os
import signal
import sys
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..', 'board-test.d'))
from pace import epochs  # noqa: E402

# The pty, its link and the wait as scripts/bench.d/feed-pty.py has them (a file name with a
# hyphen, so loaded by path).
_spec = importlib.util.spec_from_file_location('feed_pty', os.path.join(here, '..', 'bench.d', 'feed-pty.py'))
feed_pty = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(feed_pty)


def main() -> None:
    capture, link, ms, go, sent_path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
    master = feed_pty.open_linked_pty(link)
    feed_pty.wait_for(go, 'pace-pty')
    count = 0
    with open(sent_path, 'wb', buffering=0) as sent:
        for epoch in epochs(capture):
            feed_pty.write_all(master, epoch)
            sent.write(epoch)
            count += 1
            time.sleep(ms / 1000)
    print(f"pace: {count} epochs", flush=True)
    # SIGTERM's default action ends it, here or in a write the reader no longer takes.
    while True:
        signal.pause()


if __name__ == '__main__':
    main()
