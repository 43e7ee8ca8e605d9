"""Runs a command with its standard error on a pseudo-terminal of 100 x 24 (as a person's
terminal), its standard output and input as given, and writes everything the terminal
received to TRANSCRIPT: what a person would have seen of standard error, escapes and all.

usage: python3 scripts/lib/stderr-pty.py TRANSCRIPT COMMAND [ARGUMENT...]   (exit: the command's)
"""
import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios

transcript, command = sys.argv[1], sys.argv[2:]
master, slave = pty.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
child = subprocess.Popen(command, stderr=slave)
os.close(slave)
received = b""
while True:
    ready, _, _ = select.select([master], [], [], 0.2)
    if ready:
        try:
            data = os.read(master, 65536)
        except OSError:
            # EIO: every holder of the terminal's other side has closed it.
            break
        if not data:
            break
        received += data
    elif child.poll() is not None:
        break
with open(transcript, "wb") as out:
    out.write(received)
sys.exit(child.wait())
