#!/usr/bin/env python3
"""Copies standard input to standard output, flipping one bit of byte N (counted from 0).

Used two ways by scripts/pull-check: as `ssh`'s output filter (the transfer's plaintext, after
ssh decrypted it) and inside a ProxyCommand (the encrypted stream, which ssh itself refuses).
usage: flip.py N [HOST PORT]   with HOST PORT: a ProxyCommand relaying to HOST:PORT
"""
import os
import select
import socket
import sys

at = int(sys.argv[1])


def flipped(data, seen):
    if seen <= at < seen + len(data):
        data = bytearray(data)
        data[at - seen] ^= 0x10
        data = bytes(data)
    return data


if len(sys.argv) == 2:
    seen = 0
    while True:
        data = os.read(0, 65536)
        if not data:
            break
        os.write(1, flipped(data, seen))
        seen += len(data)
    sys.exit(0)

peer = socket.create_connection((sys.argv[2], int(sys.argv[3])))
seen = 0
while True:
    ready, _, _ = select.select([0, peer], [], [])
    if 0 in ready:
        data = os.read(0, 65536)
        if not data:
            peer.shutdown(socket.SHUT_WR)
        else:
            peer.sendall(data)
    if peer in ready:
        data = peer.recv(65536)
        if not data:
            break
        os.write(1, flipped(data, seen))
        seen += len(data)
