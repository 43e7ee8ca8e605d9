#!/usr/bin/env python3
"""A ProxyCommand that relays ssh's connection to HOST:PORT and counts the bytes on the wire.

Before passing on what it read it rewrites COUNTFILE with "DOWN UP" (bytes from the server, bytes to it), so
scripts/pull-check can read what a pull cost on the wire and see a transfer under way. With
RATE > 0, bytes from the server past the first FREE go at RATE bytes a second: a slow link, so a
pull can be killed while it is receiving.
usage: relay.py COUNTFILE RATE FREE HOST PORT
"""
import os
import select
import socket
import sys
import time

count_file, rate, free, host, port = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
peer = socket.create_connection((host, port))
down = up = 0
started = None


def record():
    with open(count_file + ".tmp", "w") as out:
        out.write("%d %d\n" % (down, up))
    os.replace(count_file + ".tmp", count_file)


record()
open_in = True
while True:
    ready, _, _ = select.select([0, peer] if open_in else [peer], [], [])
    if 0 in ready:
        data = os.read(0, 65536)
        if not data:
            open_in = False
            peer.shutdown(socket.SHUT_WR)
        else:
            up += len(data)
            record()
            peer.sendall(data)
    if peer in ready:
        data = peer.recv(256 if rate else 65536)
        if not data:
            break
        if rate and down + len(data) > free:
            if started is None:
                started = (time.monotonic(), down)
            # Hold each piece until the rate allows it.
            due = started[0] + (down + len(data) - started[1]) / rate
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        # Counted before ssh can see them: ssh may end this relay as soon as it has the last byte.
        down += len(data)
        record()
        os.write(1, data)
record()
