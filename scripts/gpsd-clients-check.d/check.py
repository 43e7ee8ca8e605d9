#!/usr/bin/env python3
"""Checks what Debian's gpsd clients made of trackd's gpsd service (scripts/gpsd-clients-check).

usage: check.py WORK CHRONY_RESULT
WORK holds what the clients wrote while trackd read a paced capture: phases.tsv (one line per
permission state: index, name, what a position may become: withheld, snapped or precise),
py-N.jsonl (python3-gps's reports in phase N), raw-N.txt (gpspipe -r in phase N), watch.json
(gpspipe -w through every phase), track.gpx (gpxlogger through every phase), cgps-N.txt (cgps's
screen in phase N, from tmux), sent.nmea (every byte the receiver sent) and log.csv (trackctl log
export of what trackd logged). CHRONY_RESULT is scripts/chrony-check's last line, prefixed "ok "
or "FAIL ". Prints one line per client and last `gpsd-clients: C of C clients agree`."""
import datetime
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

POSITION = ('lat', 'lon')
# What withheld and snapped TPVs must not carry (docs/privacy.md).
NARROWING = ('alt', 'altHAE', 'altMSL', 'speed', 'track', 'climb', 'epx', 'epy', 'epv', 'eph', 'eps', 'epd', 'geoidSep')


def seconds(text):
    """ISO 8601 UTC ("2019-03-12T10:54:04.408Z" or without the fraction) to epoch seconds."""
    text = text.strip().rstrip('Z')
    fmt = '%Y-%m-%dT%H:%M:%S.%f' if '.' in text else '%Y-%m-%dT%H:%M:%S'
    stamp = datetime.datetime.strptime(text, fmt).replace(tzinfo=datetime.timezone.utc)
    return round(stamp.timestamp(), 3)


def read_lines(path):
    if not os.path.exists(path):
        return []
    with open(path, 'rb') as f:
        return f.read().decode('utf-8', 'replace').splitlines()


def objects(lines):
    out = []
    for line in lines:
        if line.startswith('{'):
            try:
                out.append(json.loads(line))
            except ValueError:
                out.append({'class': 'unparsable', 'line': line})
    return out


class Check:
    def __init__(self, name):
        self.name, self.problems, self.facts = name, [], []

    def fail(self, text):
        self.problems.append(text)

    def fact(self, text):
        self.facts.append(text)

    def report(self):
        status = 'ok  ' if not self.problems else 'FAIL'
        print(f"{status} {self.name:<13} {'; '.join(self.facts)}")
        for problem in self.problems[:8]:
            print(f"       {problem}")
        return not self.problems


def rule_problems(tpv, expect, precise_at):
    """What is wrong with TPV for a phase whose positions are `expect`."""
    where = tpv.get('time', '?')
    if expect == 'withheld':
        leaked = [k for k in POSITION + NARROWING if k in tpv]
        problems = [f"{where}: withheld, yet it carries {', '.join(leaked)}"] if leaked else []
        # Clients read mode 2 or 3 as "lat and lon are here" (gpxlogger writes lat="nan").
        if tpv.get('mode') != 1:
            problems.append(f"{where}: withheld, yet mode {tpv.get('mode')}, not 1")
        return problems
    if any(k not in tpv for k in POSITION):
        return [f"{where}: {expect}, yet no lat/lon"]
    if expect == 'snapped':
        problems = [f"{where}: snapped, yet it carries {k}" for k in NARROWING if k in tpv]
        true = precise_at.get(seconds(tpv['time'])) if 'time' in tpv else None
        if true and abs(tpv['lat'] - true[0]) < 1e-6 and abs(tpv['lon'] - true[1]) < 1e-6:
            problems.append(f"{where}: snapped, yet it is the receiver's own position")
        return problems
    return []


def main():
    work, chrony = sys.argv[1], sys.argv[2]
    phases = [line.split('\t') for line in read_lines(os.path.join(work, 'phases.tsv')) if line]
    sent = set(read_lines(os.path.join(work, 'sent.nmea')))
    log = {}
    for line in read_lines(os.path.join(work, 'log.csv'))[1:]:
        fields = line.split(',')
        if len(fields) >= 3 and fields[1] and fields[2]:
            log[seconds(fields[0])] = (float(fields[1]), float(fields[2]))
    watch_lines = read_lines(os.path.join(work, 'watch.json'))
    watch = objects(watch_lines)
    watch_tpvs = [o for o in watch if o.get('class') == 'TPV' and 'time' in o]
    # The receiver's own positions by time, as precise TPVs carried them.
    precise_at = {seconds(o['time']): (o['lat'], o['lon']) for o in watch_tpvs
                  if 'lat' in o and 'speed' in o}
    results = []

    # --- python3-gps: every phase as the privacy table says ------------------------------------
    check = Check('python3-gps')
    phase_of = {}   # TPV time -> expectation, from the phases python3-gps saw
    total = 0
    for index, name, expect in phases:
        reports = objects(read_lines(os.path.join(work, f'py-{index}.jsonl')))
        tpvs = [r for r in reports if r.get('class') == 'TPV' and 'time' in r]
        if expect != 'withheld':
            tpvs = [r for r in tpvs if r.get('mode', 0) >= 2]
        if not tpvs:
            check.fail(f"{name}: no TPV arrived")
        for tpv in tpvs:
            check.problems += [f"{name}: {p}" for p in rule_problems(tpv, expect, precise_at)]
            if 'time' in tpv:
                phase_of[seconds(tpv['time'])] = expect
        if expect == 'precise':
            skies = [r for r in reports if r.get('class') == 'SKY' and r.get('satellites')]
            if not skies:
                check.fail(f"{name}: no SKY with satellites")
            for sky in skies:
                if any('PRN' not in s or 'used' not in s for s in sky['satellites']):
                    check.fail(f"{name}: a SKY satellite without PRN or used")
            for tpv in tpvs:
                true = log.get(seconds(tpv['time']))
                if true and (abs(tpv['lat'] - true[0]) > 1e-6 or abs(tpv['lon'] - true[1]) > 1e-6):
                    check.fail(f"{name}: {tpv['time']} at {tpv['lat']},{tpv['lon']}, logged at {true}")
        total += len(tpvs)
    check.fact(f"{len(phases)} permission states, {total} TPVs, each as docs/privacy.md says")
    results.append(check.report())

    # --- gpspipe -r: raw sentences as received, and only while precise --------------------------
    check = Check('gpspipe -r')
    shown = 0
    for index, name, expect in phases:
        raw = [line.rstrip('\r') for line in read_lines(os.path.join(work, f'raw-{index}.txt'))]
        sentences = [line for line in raw if line.startswith('$')]
        if expect == 'precise':
            if len(sentences) < 3:
                check.fail(f"{name}: {len(sentences)} sentences, wanted at least 3")
            strange = [s for s in sentences if s not in sent]
            if strange:
                check.fail(f"{name}: not as the receiver sent it: {strange[0]}")
            shown += len(sentences)
        elif sentences:
            check.fail(f"{name}: {len(sentences)} raw sentences while positions are {expect}: {sentences[0]}")
    check.fact(f"{shown} sentences byte for byte as sent while precise, none in the other states")
    results.append(check.report())

    # --- gpspipe -w: framing, the first objects, every TPV by its phase --------------------------
    check = Check('gpspipe -w')
    classes = [o.get('class') for o in watch[:3]]
    if classes != ['VERSION', 'DEVICES', 'WATCH']:
        check.fail(f"first objects {classes}, wanted VERSION, DEVICES, WATCH")
    for line in watch_lines:
        if line.startswith('{') and (': ' in line or 'null' in line or not line.endswith('}')):
            check.fail(f"not gpsd's framing: {line[:80]}")
            break
    judged = 0
    for tpv in watch_tpvs:
        expect = phase_of.get(seconds(tpv['time']))
        if expect:
            judged += 1
            check.problems += rule_problems(tpv, expect, precise_at)
        true = log.get(seconds(tpv['time']))
        if true and 'lat' in tpv and (abs(tpv['lat'] - true[0]) > 1e-6 or abs(tpv['lon'] - true[1]) > 1e-6):
            check.fail(f"{tpv['time']}: {tpv['lat']},{tpv['lon']}, logged at {true}")
    skies = sum(1 for o in watch if o.get('class') == 'SKY')
    if skies < len(watch_tpvs) - 2:
        check.fail(f"{skies} SKY for {len(watch_tpvs)} TPVs: wanted one per epoch")
    check.fact(f"{len(watch_tpvs)} TPVs and {skies} SKY, {judged} of the TPVs in a known state and as it says")
    results.append(check.report())

    # --- gpxlogger: its GPX holds what trackd logged, and nothing withheld ------------------------
    check = Check('gpxlogger')
    points = {}
    try:
        tree = ET.parse(os.path.join(work, 'track.gpx'))
        ns = {'g': 'http://www.topografix.com/GPX/1/1'}
        for point in tree.getroot().iterfind('.//g:trkpt', ns):
            stamp = point.find('g:time', ns)
            if stamp is not None:
                points[seconds(stamp.text)] = (float(point.get('lat')), float(point.get('lon')))
    except (ET.ParseError, OSError) as error:
        check.fail(f"track.gpx: {error}")
    if len(points) < 5:
        check.fail(f"{len(points)} track points, wanted at least 5")
    for stamp, (lat, lon) in points.items():
        if phase_of.get(stamp) == 'withheld':
            check.fail(f"a track point at {stamp} while positions were withheld")
    matched = 0
    if points:
        first, last = min(points), max(points)
        for stamp, (lat, lon) in sorted(log.items()):
            if first <= stamp <= last:
                point = points.get(stamp)
                if point is None:
                    check.fail(f"the fix logged at {stamp} is not in gpxlogger's GPX")
                elif abs(point[0] - lat) > 1e-6 or abs(point[1] - lon) > 1e-6:
                    check.fail(f"{stamp}: gpxlogger {point}, logged {lat},{lon}")
                else:
                    matched += 1
    if matched < 3:
        check.fail(f"{matched} logged fixes within gpxlogger's span, wanted at least 3")
    check.fact(f"{len(points)} track points; every one of the {matched} fixes trackd logged in their span among them, none withheld")
    results.append(check.report())

    # --- cgps: its screen shows the position and the satellites, or n/a when withheld ------------
    check = Check('cgps')
    skies = [o for o in watch if o.get('class') == 'SKY' and o.get('satellites')]
    sky_sets = [frozenset((s['PRN'], s['used']) for s in o['satellites']) for o in skies]
    screens = 0
    for index, name, expect in phases:
        path = os.path.join(work, f'cgps-{index}.txt')
        if not os.path.exists(path):
            continue
        screens += 1
        screen = '\n'.join(read_lines(path))
        lat = re.search(r'Latitude:\s+(n/a|[0-9.]+ [NS])', screen)
        lon = re.search(r'Longitude:\s+(n/a|[0-9.]+ [EW])', screen)
        if not lat or not lon:
            check.fail(f"{name}: no Latitude/Longitude on the screen")
            continue
        if expect == 'withheld':
            if lat.group(1) != 'n/a' or lon.group(1) != 'n/a':
                check.fail(f"{name}: shows {lat.group(1)} {lon.group(1)} while withheld")
            else:
                check.fact(f"{name}: n/a")
            continue
        if 'FIX' not in screen or 'NO FIX' in screen:
            check.fail(f"{name}: the status shows no fix")
        value = lambda m: float(m.group(1).split()[0]) * (-1 if m.group(1)[-1] in 'SW' else 1)
        shown = (value(lat), value(lon))
        if not any(abs(t[0] - shown[0]) < 1e-7 and abs(t[1] - shown[1]) < 1e-7 for t in precise_at.values()):
            check.fail(f"{name}: shows {shown}, a position no TPV carried")
        rows = re.findall(r'x\s+\d+\s+(\d+)\s+[-0-9.na/]+\s+[-0-9.na/]+\s+[-0-9.na/]+\s+([YN])\s+x', screen)
        satellites = frozenset((int(prn), flag == 'Y') for prn, flag in rows)
        if not satellites:
            check.fail(f"{name}: no satellites on the screen")
        elif satellites not in sky_sets:
            check.fail(f"{name}: satellites {sorted(satellites)} are no SKY's")
        else:
            check.fact(f"{name}: {shown[0]:.8f} {shown[1]:.8f} and {len(satellites)} satellites as sent")
    if screens < 2:
        check.fail(f"{screens} screens captured, wanted one precise and one withheld")
    results.append(check.report())

    # --- chronyd: the receiver's time through the NTP shared memory -------------------------------
    check = Check('chronyd')
    status, _, line = chrony.partition(' ')
    if status != 'ok':
        check.fail(line or 'scripts/chrony-check did not run')
    check.fact(line.replace('chrony-check: ', ''))
    results.append(check.report())

    agree = sum(results)
    print(f"gpsd-clients: {agree} of {len(results)} clients agree")
    sys.exit(0 if agree == len(results) else 1)


if __name__ == '__main__':
    main()
