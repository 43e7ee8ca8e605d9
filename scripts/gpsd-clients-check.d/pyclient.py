#!/usr/bin/python3
"""A client of Debian's python3-gps module (`gps.gps`, the library Python programs use) against
trackd's gpsd service: watches, and writes every report it receives as one JSON line.

usage: /usr/bin/python3 pyclient.py HOST PORT FIXES SECONDS OUT
Stops after FIXES TPVs with a time (a withheld fix says mode 1), or after SECONDS. Debian's module is installed for
Debian's own python3, hence /usr/bin/python3."""
import json
import signal
import sys

import gps


def main() -> None:
    host, port, fixes, seconds, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
    signal.signal(signal.SIGALRM, lambda *_: sys.exit(0))
    signal.setitimer(signal.ITIMER_REAL, seconds)
    session = gps.gps(host=host, port=port, mode=gps.WATCH_ENABLE | gps.WATCH_JSON)
    seen = 0
    with open(out, 'w') as sink:
        for report in session:
            # A dictwrapper: the module's own view of the object (KeyError on a SKY satellite
            # without PRN or used would end the script here, as it ends any client).
            record = {key: report[key] for key in report.keys()}
            if 'satellites' in record:
                record['satellites'] = [{k: s[k] for k in s.keys()} for s in record['satellites']]
            sink.write(json.dumps(record) + '\n')
            sink.flush()
            if record.get('class') == 'TPV' and 'time' in record:
                seen += 1
                if seen >= fixes:
                    break


if __name__ == '__main__':
    main()
