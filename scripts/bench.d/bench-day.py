#!/usr/bin/env python3
"""A simulated day of 1 Hz fixes for scripts/bench pull, as the shared tracks' CSV
(time_utc,lat,lon,ele_m,speed_mps): a smooth ride around Tübingen at 2-8 m/s, always moving,
its course turning slowly, from 2026-06-21T00:00:00Z.  usage: bench-day.py COUNT
"""
import datetime
import math
import sys

count = int(sys.argv[1])
start = datetime.datetime(2026, 6, 21, tzinfo=datetime.timezone.utc)
lat, lon, course = 48.5216, 9.0576, 0.0
print("time_utc,lat,lon,ele_m,speed_mps")
for second in range(count):
    speed = 5.0 + 3.0 * math.sin(second / 900.0)
    course += 0.6 * math.sin(second / 311.0) + 0.25 * math.sin(second / 53.0)
    lat += speed * math.cos(math.radians(course)) / 111_320.0
    lon += speed * math.sin(math.radians(course)) / (111_320.0 * math.cos(math.radians(lat)))
    elevation = 340.0 + 60.0 * math.sin(second / 1700.0)
    time = (start + datetime.timedelta(seconds=second)).strftime("%Y-%m-%dT%H:%M:%SZ")
    print("%s,%.7f,%.7f,%.1f,%.2f" % (time, lat, lon, elevation, speed))
