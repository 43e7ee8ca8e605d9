#!/usr/bin/env python3
"""Copies standard input to standard output at RATE bytes a second, in 64-byte pieces, and
after each piece rewrites COUNTFILE with the bytes passed so far: the tracker's side of a slow
link, so scripts/pull-check can kill a pull while its transfer is arriving.
usage: slow.py COUNTFILE RATE
"""
import os
import sys
import time

count_file, rate = sys.argv[1], int(sys.argv[2])
passed = 0
while True:
    data = os.read(0, 64)
    if not data:
        break
    os.write(1, data)
    passed += len(data)
    with open(count_file + ".tmp", "w") as out:
        out.write("%d\n" % passed)
    os.replace(count_file + ".tmp", count_file)
    time.sleep(len(data) / rate)
