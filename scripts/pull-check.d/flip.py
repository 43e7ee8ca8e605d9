#!/usr/bin/env python3
"""Copies standard input to standard output, flipping one bit of byte N (counted from 0).

Used two ways by scripts/pull-check: as `ssh`'s output filter (the transfer's plaintext, after
ssh decrypted it) and inside a ProxyCommand (the encrypted stream, which ssh itself refuses).
usage: flip.py N [HOST PORT]   with HOST PORT: a ProxyCommand relaying to HOST:PORT
       flip.py chunk            a transfer on standard input: one bit of the middle byte of its
                                first chunk (past the framing, so the chunk's CRC must catch it);
                                the transfer goes through unchanged if it has no chunk
"""
import os
import select
import socket
import sys



def varint(data, at):
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, at


if sys.argv[1] == "chunk":
    data = bytearray(sys.stdin.buffer.read())
    at = 8  # the magic
    if at < len(data) and data[at] == ord("S"):
        _, at = varint(data, at + 1)
        _, at = varint(data, at)
        # 'C' a chunk ending with its CRC, 'V' one with its CRC after it in the framing.
        if at < len(data) and data[at] in (ord("C"), ord("V")):
            length, at = varint(data, at + 1)
            data[at + length // 2] ^= 0x10
    sys.stdout.buffer.write(data)
    sys.exit(0)

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
