#!/usr/bin/env python3
"""Paces an NMEA capture into a pipe as a receiver would: one epoch (the sentences sharing a
first sentence type) at a time, EPOCH_MS apart, since the emulated UART does not pace at its baud rate.

usage: pace.py CAPTURE FIFO EPOCH_MS [START_EPOCH [COUNT [SENT_FILE [TIMES_FILE]]]]
Comment lines (#) of gpsd's captures are left out. Prints "pace: N epochs" when done; stops
quietly when the reader goes away (qemu was killed). SENT_FILE gets the bytes written, for a
replay of exactly what the guest received; TIMES_FILE one line per epoch, "<host epoch seconds
when written> <the epoch's receiver time hhmmss.ss, or ->", to tie LED edges to fixes."""
import sys, time

def epochs(path):
    # An epoch begins with the sentence type the capture begins with (a receiver sends its
    # epoch in a fixed order); times cannot tell epochs apart while they are still empty.
    out, cur, leader = [], [], None
    with open(path, 'rb') as f:
        for line in f:
            if not line.startswith(b'$'):
                continue
            line = line.rstrip(b'\r\n') + b'\r\n'
            kind = line.split(b',')[0][3:]
            leader = leader or kind
            if kind == leader and cur:
                out.append(b''.join(cur))
                cur = []
            cur.append(line)
    if cur:
        out.append(b''.join(cur))
    return out

# Sentence types whose first field is the receiver's UTC time of day (GLL has it in the fifth).
TIME_FIELD = {b'RMC': 1, b'GGA': 1, b'GNS': 1, b'ZDA': 1, b'GLL': 5}

def epoch_time(epoch):
    for line in epoch.split(b'\r\n'):
        fields = line.split(b'*')[0].split(b',')
        index = TIME_FIELD.get(fields[0][3:])
        if index is not None and len(fields) > index and fields[index]:
            return fields[index].decode('ascii', 'replace')
    return '-'

def main():
    capture, fifo, ms = sys.argv[1], sys.argv[2], int(sys.argv[3])
    start = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    all_epochs = epochs(capture)
    count = int(sys.argv[5]) if len(sys.argv) > 5 else len(all_epochs) - start
    sent = 0
    copy = open(sys.argv[6], 'wb') if len(sys.argv) > 6 else None
    times = open(sys.argv[7], 'w') if len(sys.argv) > 7 else None
    try:
        with open(fifo, 'wb', buffering=0) as out:
            for epoch in all_epochs[start:start + count]:
                out.write(epoch)
                if times:
                    times.write('%.6f %s\n' % (time.time(), epoch_time(epoch)))
                    times.flush()
                if copy:
                    copy.write(epoch)
                sent += 1
                time.sleep(ms / 1000)
    except (BrokenPipeError, OSError):
        pass
    if copy:
        copy.close()
    if times:
        times.close()
    print('pace: %d epochs' % sent, flush=True)

if __name__ == '__main__':
    main()
