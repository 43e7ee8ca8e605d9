"""scripts/watch-check's driver: trackctl's live views in tmux, as a person sees them.

trackd reads the simulator on a pseudo-terminal; `trackctl status --watch` and `leds --watch`
run in a tmux pane of a private tmux server. They reach trackd through a relay (a Unix socket
here) that passes every request on and can hold still: while held it answers `status` and
`leds` with the last reply trackd gave, so the pane and a single `trackctl status` through the
same relay show the same instant. The pane (`tmux capture-pane -p`) must then equal that
output fitted to the pane by this file's own reading of display widths: every line cut with an
ellipsis, never wrapped, nothing left of an earlier frame on it or below the last line.

usage: check.py BIN_DIR WORK_DIR ROUTE [PLACES]   (prints `watch-check: ...` lines; exit 1 on a
difference, naming the step and showing both screens)
"""
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import unicodedata

BIN, WORK, ROUTE = sys.argv[1:4]
PLACES = sys.argv[4] if len(sys.argv) > 4 else ""
TRACKCTL = os.path.join(BIN, "trackctl")
TRACKD = os.path.join(BIN, "trackd")
SOCKET = os.path.join(WORK, "control.sock")
RELAY = os.path.join(WORK, "relay.sock")
TMUX = ["tmux", "-u", "-L", f"trackd-watch-check-{os.getpid()}", "-f", "/dev/null"]
checks = 0
processes = {}


def say(text):
    print(f"watch-check: {text}", flush=True)


def fail(step, text):
    say(f"FAILED: {step}: {text}")
    sys.exit(1)


# ---- display widths, independently of trackctl's own table ---------------------------------

def cells(character):
    value = ord(character)
    if value < 0x300:
        return 1
    if unicodedata.category(character) in ("Mn", "Me") or (unicodedata.category(character) == "Cf" and value != 0xAD):
        return 0
    if 0x1160 <= value <= 0x11FF:
        return 0
    return 2 if unicodedata.east_asian_width(character) in ("W", "F") else 1


def shown(line):
    """The characters a terminal shows for `line` and their cells: tabs to the next stop of 8,
    control characters as `?` (trackctl never sends them raw)."""
    out = []
    used = 0
    for character in line:
        if character == "\t":
            out.extend([(" ", 1)] * (8 - used % 8))
            used += 8 - used % 8
            continue
        width = cells(character)
        control = ord(character) < 0x20 or 0x7F <= ord(character) <= 0x9F
        out.append(("?" if control else character, width))
        used += width
    return out


def fit(line, columns):
    parts = shown(line)
    if sum(width for _, width in parts) <= columns:
        return "".join(character for character, _ in parts)
    kept, used = [], 0
    for character, width in parts:
        if used + width > columns - 1:
            break
        kept.append(character)
        used += width
    return "".join(kept) + "\u2026"


def screen(text, columns, rows):
    """What a pane of `columns` × `rows` must show for a frame `text`: rows lines, trailing
    blanks trimmed as capture-pane trims them."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    lines = [fit(line, columns).rstrip() for line in lines[:rows]]
    return lines + [""] * (rows - len(lines))


# ---- the relay ------------------------------------------------------------------------------

class Relay:
    """Passes control requests to trackd; while `held`, repeats trackd's last `status` and
    `leds` replies instead of asking again."""

    def __init__(self):
        self.held = False
        self.replies = {}
        self.lock = threading.Lock()
        self.up()

    def up(self):
        """Listens (again) at RELAY."""
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.server.bind(RELAY)
        self.server.listen(16)
        threading.Thread(target=self.serve, args=(self.server,), daemon=True).start()

    def down(self):
        """Stops listening, as trackd's socket goes when trackd stops: trackctl then says why."""
        self.server.close()
        os.unlink(RELAY)
        with self.lock:
            self.replies.clear()

    def serve(self, server):
        while True:
            try:
                connection, _ = server.accept()
            except OSError:
                return
            threading.Thread(target=self.answer, args=(connection,), daemon=True).start()

    def answer(self, connection):
        with connection:
            request = b""
            while not request.endswith(b"\n"):
                chunk = connection.recv(4096)
                if not chunk:
                    return
                request += chunk
            key = request.strip()
            with self.lock:
                held = self.replies.get(key) if self.held and key in (b"status", b"leds") else None
            if held is None:
                try:
                    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as upstream:
                        upstream.connect(SOCKET)
                        upstream.sendall(request)
                        held = b""
                        while chunk := upstream.recv(65536):
                            held += chunk
                except OSError:
                    # trackd is down: the client sees a closed socket, as it would see trackd's.
                    return
                with self.lock:
                    self.replies[key] = held
            connection.sendall(held)

    def hold(self):
        with self.lock:
            self.held = True

    def release(self):
        with self.lock:
            self.held = False


# ---- trackd, the simulator, tmux -----------------------------------------------------------

def write_config(gpsd=True, restricted=False, broken=False):
    with open(os.path.join(WORK, "trackd.conf"), "w") as config:
        config.write(f"""[receiver]
device = {WORK}/gps
baud = 9600
[control]
socket = {SOCKET}
[state]
file = {WORK}/state
[log]
directory = {WORK}/log
[board]
simulated = yes
[time]
shm = off
[privacy]
restricted = {"yes" if restricted else "no"}
[gpsd]
listen = {"127.0.0.1:" + str(GPSD_PORT) if gpsd else ""}
""")
        if PLACES:
            config.write(f"[places]\nfile = {PLACES}\n")
        if broken:
            config.write("[receiver]\nbaud = fast\n")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


GPSD_PORT = free_port()


def start(name, argv, ready=None):
    log = open(os.path.join(WORK, name + ".log"), "w")
    processes[name] = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    for _ in range(100):
        if ready is None or os.path.exists(ready):
            return
        time.sleep(0.05)
    fail(name, f"did not start (see {name}.log)")


def stop(name):
    process = processes.pop(name)
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=10)


def start_simulator():
    start("simulate", [TRACKCTL, "simulate", ROUTE, "--pty", f"{WORK}/gps", "--speed", "4",
                       "--cold-start", "1", "--loop"], ready=f"{WORK}/gps")


def start_trackd():
    if os.path.exists(SOCKET):
        os.unlink(SOCKET)
    start("trackd", [TRACKD, "--config", os.path.join(WORK, "trackd.conf")], ready=SOCKET)


def reload():
    processes["trackd"].send_signal(signal.SIGHUP)


def trackctl(*arguments, socket_path=RELAY):
    run = subprocess.run([TRACKCTL, *arguments, "--socket", socket_path], capture_output=True, text=True, timeout=10)
    return run.stdout


def tmux(*arguments):
    return subprocess.run(TMUX + list(arguments), capture_output=True, text=True, check=True).stdout


def pane():
    return tmux("capture-pane", "-p", "-t", "watch").split("\n")[:-1]


def pane_format(name):
    return tmux("display-message", "-p", "-t", "watch", "#{" + name + "}").strip()


def open_pane(view, columns, rows):
    # The shell stays after the view ends, as a person's would: it says the exit code below
    # the view's last frame, on a screen tmux keeps as it is.
    tmux("new-session", "-d", "-s", "watch", "-x", str(columns), "-y", str(rows),
         f"{TRACKCTL} {view} --watch --socket {RELAY}; echo \"exit $?\"; sleep 60")


def resize(columns, rows):
    tmux("resize-window", "-t", "watch", "-x", str(columns), "-y", str(rows))


def wait_for(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    fail(what, "timed out")


# ---- the comparisons -----------------------------------------------------------------------

def frame_once(view):
    """What the view's frame is made of, asked once through the held relay, as plain
    `trackctl status` (and `trackctl leds`) print it."""
    status = trackctl("status")
    if view == "status":
        return status
    keys = "keys: b = short press (waypoint), l = long press (private mode), q = quit\n"
    return "LEDs      " + trackctl("leds") + keys + view_message + "\n" + status


view_message = ""


def compare(step, view, expect=None):
    """Holds the relay, waits for the pane to show the held frame, compares it."""
    global checks
    columns, rows = int(pane_format("pane_width")), int(pane_format("pane_height"))
    relay.hold()
    try:
        text = frame_once(view)
        if expect and expect not in text:
            fail(step, f"the status does not say {expect!r}:\n{text}")
        wanted = screen(text, columns, rows)
        deadline = time.monotonic() + 3
        while True:
            got = pane()
            if got == wanted:
                break
            if time.monotonic() > deadline:
                rows_differing = [f"  row {row + 1:2d} pane |{a}|\n         want |{b}|"
                                  for row, (a, b) in enumerate(zip(got + [""] * rows, wanted)) if a != b]
                fail(step, f"{columns}x{rows}: the pane differs from trackctl {view} fitted to it:\n"
                     + "\n".join(rows_differing))
            time.sleep(0.05)
        checks += 1
        widest = max(len(line) for line in text.split("\n"))
        cut = sum(1 for line in wanted if line.endswith("\u2026"))
        say(f"{step}: {columns}x{rows} pane = trackctl {view} fitted ({cut} lines cut, widest {widest})")
    finally:
        relay.release()
    if pane_format("cursor_flag") != "0":
        fail(step, "the cursor is shown while the view runs")


def settle(expect, seconds=6):
    """Waits until trackd's own status says `expect`."""
    wait_for(lambda: expect in trackctl("status", socket_path=SOCKET), seconds, f"status saying {expect!r}")
    # One more refresh of the view, so it drew something at least this new before the hold.
    time.sleep(1.1)


def ended(step, how):
    """The view ended with exit 0, the cursor shown, its last frame left on the screen and the
    shell's next line right below it."""
    wait_for(lambda: any(line.startswith("exit ") for line in pane()), 5, f"{step}: the view ending on {how}")
    lines = pane()
    row = next(index for index, line in enumerate(lines) if line.startswith("exit "))
    if lines[row] != "exit 0":
        fail(step, f"{lines[row]} on {how}")
    if row == 0 or lines[row - 1] == "" or any(lines[row + 1:]):
        fail(step, "the shell's next line is not right below the last frame:\n" + "\n".join(lines))
    if pane_format("cursor_flag") != "1":
        fail(step, f"the cursor stays hidden after {how}")
    tmux("kill-session", "-t", "watch")
    say(f"{step}: {how} ended it with exit 0, the cursor shown below the last frame")


def plain(view, step):
    """Without a terminal: plain lines only; a closed pipe ends the view at once."""
    started = time.monotonic()
    watch = subprocess.Popen([TRACKCTL, view, "--watch", "--socket", SOCKET], stdout=subprocess.PIPE)
    head = subprocess.run(["head", "-n", "3"], stdin=watch.stdout, capture_output=True, timeout=10)
    watch.stdout.close()
    code = watch.wait(timeout=5)
    if code != 0:
        fail(step, f"exit {code} when its reader went away")
    if b"\x1b" in head.stdout or len(head.stdout.splitlines()) != 3:
        fail(step, f"not three plain lines through a pipe: {head.stdout!r}")
    output = os.path.join(WORK, "plain.out")
    with open(output, "wb") as file:
        watch = subprocess.Popen([TRACKCTL, view, "--watch", "--socket", SOCKET], stdout=file)
        time.sleep(2.3)
        watch.send_signal(signal.SIGTERM)
        code = watch.wait(timeout=5)
    data = open(output, "rb").read()
    if code != 0 or b"\x1b" in data or data.count(b"\n\ntrackd    up ") < 1:
        fail(step, f"exit {code}; into a file it wrote {data[:300]!r}")
    say(f"{step}: through a pipe and into a file: plain lines only, {data.count(b'trackd    up ')} frames, "
        f"closed pipe ends it (exit 0, {time.monotonic() - started:.1f} s)")


def progress_line(step):
    """scripts/lib/progress.bash as scripts/test uses it: on a terminal the bottom row says the
    step and its time (a nested script's stage after it) while output scrolls above it, and the
    row is given back at the end; through a pipe, nothing but the script's own lines."""
    global checks
    library = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib", "progress.bash")
    script = os.path.join(WORK, "steps.sh")
    with open(script, "w") as file:
        file.write(f"""set -euo pipefail
source {library}
trap progress_end EXIT
progress_begin "scripts/test"
progress "step 1 of 2: build"
for line in $(seq 30); do echo "output $line"; done
bash -c 'source {library}; progress_begin nested; progress "bench check: callgrind..."; sleep 2.5'
progress_end
for line in $(seq 30); do echo "after $line"; done
echo "steps done"
""")
    tmux("new-session", "-d", "-s", "watch", "-x", "90", "-y", "12", f"bash {script}; sleep 60")
    wait_for(lambda: "bench check: callgrind..." in pane()[-1], 5, f"{step}: the bottom row")
    lines = pane()
    bottom = lines[-1]
    if not bottom.startswith("scripts/test  step 1 of 2: build  bench check: callgrind...  ") or "(total " not in bottom:
        fail(step, f"the bottom row says {bottom!r}")
    if "output 30" not in lines[:-1]:
        fail(step, "the output does not scroll above the bottom row:\n" + "\n".join(lines))
    wait_for(lambda: "steps done" in pane(), 6, f"{step}: the end")
    lines = pane()
    # The row given back: the script's last line reaches the last row but one, the shell's
    # cursor waits on the last.
    if lines[-2:] != ["steps done", ""] or any("scripts/test" in line for line in lines):
        fail(step, "the bottom row was not given back:\n" + "\n".join(lines))
    tmux("kill-session", "-t", "watch")
    piped = subprocess.run(["bash", script], capture_output=True, timeout=20)
    if b"\x1b" in piped.stdout + piped.stderr or b"scripts/test" in piped.stdout + piped.stderr:
        fail(step, f"progress through a pipe: {piped.stderr[:200]!r}")
    checks += 1
    say(f"{step}: the bottom row on a terminal ({bottom.split('  (')[0][:60]}…), given back at the end; "
        "nothing through a pipe")


def main():
    global relay, view_message, checks
    started = time.monotonic()
    write_config(gpsd=True)
    start_simulator()
    start_trackd()
    relay = Relay()

    # status --watch through every permission state, resized mid-run between widths.
    open_pane("status", 80, 40)
    settle("not-determined")
    compare("not-determined", "status", expect="privacy   not-determined")
    resize(110, 40)
    compare("not-determined", "status")
    states = [("allow always", "privacy   always, precise", 200),
              ("approximate", "approximate (1 km grid", 80),
              ("deny", "privacy   denied", 110),
              ("allow when-in-use", "privacy   when-in-use", 200)]
    for request, expect, columns in states:
        trackctl("privacy", *request.split(), socket_path=SOCKET)
        settle(expect)
        resize(columns, 40)
        compare(request.split()[-1], "status", expect=expect)
    write_config(gpsd=True, restricted=True)
    reload()
    settle("privacy   restricted")
    resize(80, 40)
    compare("restricted", "status", expect="privacy   restricted")

    # Sections that come and go: a rejected reload, a change that needs a restart, the
    # receiver's error, trackd itself gone; a screen lower than the frame.
    write_config(gpsd=True, restricted=True, broken=True)
    reload()
    settle("last reload rejected")
    resize(110, 40)
    compare("reload rejected (a line more)", "status", expect="last reload rejected")
    write_config(gpsd=False)
    reload()
    settle("applied when trackd restarts")
    compare("reload applied, [gpsd] at restart", "status", expect="applied when trackd restarts")
    stop("simulate")
    settle(", closed;")
    resize(80, 40)
    compare("receiver gone", "status", expect=", closed;")
    start_simulator()
    relay.down()
    stop("trackd")
    error = subprocess.run([TRACKCTL, "status", "--socket", RELAY], capture_output=True, text=True).stderr
    wait_for(lambda: pane() == screen(error, 80, 40), 4, "trackd stopped: its error, the rest of the pane cleared")
    checks += 1
    say(f"trackd stopped: the pane shows trackctl's one line ({error.strip()[:40]}…), the rest cleared")
    relay.up()
    start_trackd()
    settle("gpsd      off")
    resize(200, 40)
    compare("trackd restarted without gpsd", "status", expect="gpsd      off")
    resize(100, 8)
    compare("8 rows", "status")
    tmux("send-keys", "-t", "watch", "q")
    ended("status --watch", "q")

    # leds --watch: a key press's message appears; Ctrl-C ends it.
    open_pane("leds", 110, 40)
    trackctl("privacy", "allow", "always", socket_path=SOCKET)
    settle("privacy   always")
    view_message = ""
    compare("leds", "leds", expect="gpio")
    tmux("send-keys", "-t", "watch", "b")
    wait_for(lambda: any(line.startswith("button ") for line in pane()), 4, "leds: the press's message")
    view_message = [line for line in pane() if line.startswith("button ")][0]
    time.sleep(1.1)
    resize(80, 30)
    compare("leds after b", "leds")
    tmux("send-keys", "-t", "watch", "C-c")
    ended("leds --watch", "Ctrl-C")

    plain("status", "status --watch")
    plain("leds", "leds --watch")
    progress_line("scripts/lib/progress.bash")
    say(f"{checks} screens as trackctl prints them, in {time.monotonic() - started:.0f} s")


try:
    main()
finally:
    subprocess.run(TMUX + ["kill-server"], capture_output=True)
    for name in list(processes):
        processes[name].send_signal(signal.SIGTERM)
        processes[name].wait(timeout=10)
