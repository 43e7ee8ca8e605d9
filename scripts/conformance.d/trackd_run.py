"""The trackd side of scripts/conformance: `trackctl decode` on a capture's bytes, and the
objects a `gpspipe -w` client receives from the real trackd reading the same bytes on a pty
(see scripts/conformance's own description)."""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
import tty

# Seconds a capture may take before it fails (the longest takes a few seconds).
TIMEOUT = 120


def decode(bin_dir, data):
    """(objects, accepted sentences) of `trackctl decode` on `data`: its lines without CR."""
    run = subprocess.run([os.path.join(bin_dir, "trackctl"), "decode"], input=data,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if run.returncode != 0:
        raise RuntimeError(f"trackctl decode exit {run.returncode}: {run.stderr.decode(errors='replace')[-200:]}")
    accepted = re.search(rb"accepted=(\d+)", run.stderr)
    if accepted is None:
        raise RuntimeError("trackctl decode printed no counters")
    return run.stdout.decode().replace("\r", "").splitlines(), int(accepted.group(1))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Lines:
    """The lines a process prints, read by a thread of their own so that it never blocks."""

    def __init__(self, stream):
        self.lines = []
        self.changed = threading.Condition()
        self.thread = threading.Thread(target=self.read, args=(stream,), daemon=True)
        self.thread.start()

    def read(self, stream):
        for raw in stream:
            with self.changed:
                self.lines.append(raw.decode(errors="replace").rstrip("\r\n"))
                self.changed.notify_all()

    def wait(self, predicate, deadline):
        with self.changed:
            while not predicate(self.lines):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.changed.wait(left)
            return True


def status(bin_dir, control):
    run = subprocess.run([os.path.join(bin_dir, "trackctl"), "status", "--json", "--socket", control],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        return json.loads(run.stdout)
    except ValueError:
        return {}


def through_trackd(bin_dir, data, closing, expected, accepted):
    """The JSON objects a `gpspipe -w` client of trackd receives while trackd reads `data` and
    then the sentence `closing` on a pty (its VERSION, DEVICES and WATCH replies left out),
    `"device"` made `-` as decode's. `expected` objects must arrive and `accepted` sentences
    and the closing one be accepted."""
    work = tempfile.mkdtemp(prefix="trackd-conformance.")
    master, slave = os.openpty()
    tty.setraw(slave)
    link = os.path.join(work, "gps")
    os.symlink(os.ttyname(slave), link)
    control = os.path.join(work, "control.sock")
    port = free_port()
    with open(os.path.join(work, "trackd.conf"), "w") as conf:
        conf.write(f"""[receiver]
device = {link}
baud = 460800
[control]
socket = {control}
[state]
file = {work}/state
[log]
directory = {work}/log
[places]
enabled = no
[board]
simulated = yes
[gpsd]
listen = 127.0.0.1:{port}
[time]
shm = off
""")
    # 460800 baud: after a read, trackd holds the port for the time 800 bytes take at the line's
    # rate, at least 100 ms (SerialPort+Coalescing.swift); at 9600 baud 833 ms, long for a pty
    # that the writer fills as fast as trackd reads.
    processes = []
    deadline = time.monotonic() + TIMEOUT
    trackd_out = open(os.path.join(work, "trackd.out"), "wb")
    try:
        trackd = subprocess.Popen([os.path.join(bin_dir, "trackd"), "--config", os.path.join(work, "trackd.conf")],
                                  stdout=trackd_out, stderr=subprocess.STDOUT)
        processes.append(trackd)
        while not os.path.exists(control):
            if trackd.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("trackd did not start: " + open(os.path.join(work, "trackd.out"), errors="replace").read()[-300:])
            time.sleep(0.02)
        allow = subprocess.run([os.path.join(bin_dir, "trackctl"), "privacy", "allow", "always", "--socket", control],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if allow.returncode != 0:
            raise RuntimeError("trackctl privacy allow always: " + allow.stdout.decode(errors="replace"))
        client = subprocess.Popen(["gpspipe", "-w", f"127.0.0.1:{port}"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        processes.append(client)
        lines = Lines(client.stdout)
        if not lines.wait(lambda seen: any('"class":"WATCH"' in line for line in seen), deadline):
            raise RuntimeError("gpspipe got no WATCH reply")
        view = memoryview(data + closing)
        while view:
            view = view[os.write(master, view):]
        # Every sentence read (the ZDA too): every object has been sent.
        while True:
            counters = status(bin_dir, control).get("receiver", {}).get("counters", {})
            if counters.get("accepted") == accepted + 1:
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"trackd accepted {counters.get('accepted')} sentences, decode {accepted} and the ZDA")
            time.sleep(0.02)
        gpsd = status(bin_dir, control).get("gpsd", {})
        if gpsd.get("lostObjects", 0) or gpsd.get("dropped", 0):
            raise RuntimeError(f"trackd lost {gpsd.get('lostObjects')} objects to its client, dropped {gpsd.get('dropped')}")
        greeting = 3

        def arrived(seen):
            return len(seen) >= greeting + expected
        if not lines.wait(arrived, deadline):
            raise RuntimeError(f"gpspipe received {len(lines.lines) - greeting} of {expected} objects")
        received = lines.lines[greeting:]
        return [re.sub(r'"device":"[^"]*"', '"device":"-"', line) for line in received]
    finally:
        for process in reversed(processes):
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        trackd_out.close()
        os.close(master)
        os.close(slave)
        shutil.rmtree(work, ignore_errors=True)
