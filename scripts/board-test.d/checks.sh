# The checks of scripts/board-test (sourced): power cuts, LEDs and button, UART equality.

# records R of the "verify: S segments, C chunks, R records; P problems, B bytes skipped" line
verify_field() {  # verify_field LOGFILE records|problems
    { grep -oE "BOARD: verify: .*" "$1" || true; } | { grep -oE "[0-9]+ $2" || true; } | head -1 | cut -d' ' -f1
}

# cut_power: the volatile disk is armed and cuts the power itself at one of its next writes or
# flushes (volatile-disk.py); when it has not within 15 s (trackd wrote nothing), the host does,
# by SIGKILL, and the disk loses its whole cache (cuts.jsonl counts those "by the host").
cut_power() {
    local i
    : > "$RUN/arm"
    for ((i = 0; i < 300; i++)); do kill -0 "$QPID" 2>/dev/null || break; sleep 0.05; done
    kill -0 "$QPID" 2>/dev/null && kill -KILL "$QPID"
    wait "$QPID" 2>/dev/null || true
}

# power_cuts BUILD N [CONTROL]: N boots on the volatile disk, each cut at a random moment while
# trackd logs a paced capture: the host arms the disk 0.8-4 s after trackd's first sync and the
# disk cuts at one of its next writes; the next boot verifies the log. Lost synced fixes: the log
# holds fewer records than it did before the boot plus those trackd announced durable in it, or
# the last fix trackd announced durable (by its time) is not in the log. With CONTROL (nofsync or
# nobarrier, see init.sh) the boots run a writer that does not make its fixes durable; its losses
# go to control_lost, it ends at its first cut that loses a synced fix, and nothing it finds
# ends the run.
power_cuts() {
    local build=$1 n=$2 control=${3:-} i l prev_log="" before=0 durable=0 now_records problems rc ms start=0 pace last="" looked=0 lost
    local name=$build${control:+-$control}
    for ((i = 1; i <= n + 1; i++)); do
        l=$RUN/cut-$name-$i.log
        # The CSV export writes whole seconds without ".000".
        BOOT_KARGS="${last:+board.lastfix=${last/.000Z/Z}}${control:+ board.control=$control}"
        VOLATILE_DISK=yes boot_ready "$l" "$build" "boot $i${control:+ of the $control control}"
        if [ -n "$prev_log" ]; then
            lost=0
            now_records=$(verify_field "$l" records)
            problems=$(verify_field "$l" problems)
            rc=$({ grep -oE 'BOARD: verify-rc=[0-9]+' "$l" || true; } | cut -d= -f2)
            if [ -z "$control" ]; then
                grep -q 'trackd: track log: ' "$l" && { grep 'trackd: track log: ' "$l"; die "boot $i ($name): the log did not open"; }
                [ -n "$now_records" ] || { tail -20 "$l"; die "boot $i ($name): no verify line"; }
            fi
            # A control's log may not be there at all (its directory never reached the flash).
            now_records=${now_records:-0}
            if (( now_records < before + durable )); then
                lost=$(( before + durable - now_records ))
                say "cut $((i - 1)) ($name): $lost synced records missing (had $before, $durable announced, found $now_records)"
            fi
            if [ "${rc:-0}" != 0 ] || [ "${problems:-0}" != 0 ]; then
                [ -n "$control" ] || total_corrupt=$(( total_corrupt + ${problems:-1} ))
                grep 'BOARD: ' "$l" | grep -v 'verify:' | head -5
            fi
            before=$now_records
            if [ -n "$last" ]; then
                if ! grep -qE "BOARD: last-fix .* found=[1-9]" "$l"; then
                    lost=$(( lost > 0 ? lost : 1 ))
                    say "cut $((i - 1)) ($name): the last fix announced durable ($last) is not in the log"
                    grep 'BOARD: last-fix' "$l" || true
                fi
                looked=$(( looked + 1 ))
            fi
            if [ -n "$control" ]; then
                control_lost=$(( control_lost + lost ))
                (( lost == 0 )) || n=$(( i - 1 ))
            else
                total_lost=$(( total_lost + lost ))
            fi
        fi
        (( i > n )) && { guest "poweroff -f"; wait "$QPID" 2>/dev/null || true; unboot; break; }
        # A different stretch of the capture each boot, so fix times differ from boot to boot, and
        # at least 124 of its 224 epochs (12 s), so trackd still writes when the disk is armed.
        start=$(( (i * 37) % 100 ))
        python3 "$here/pace.py" "$CAPTURE" "$RUN/gps.in" 100 "$start" > /dev/null & pace=$!
        # The random moment counts from trackd's first sync (its boot marker is durable).
        wait_marker "$l" 'trackd: log synced' >/dev/null || { stop_qemu; unboot; tail -20 "$l"; die "boot $i ($name): trackd never synced"; }
        ms=$(( 800 + RANDOM % 3200 ))
        sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
        cut_power 2>/dev/null  # (no "Killed" notice from the shell for the qemu the disk killed)
        kill "$pace" 2>/dev/null || true; wait "$pace" 2>/dev/null || true
        unboot
        durable=$({ grep -oE 'trackd: log synced: [0-9]+' "$l" || true; } | tail -1 | grep -oE '[0-9]+$' || echo 0)
        # Only a whole line counts (the cut may end the console mid-line) and only a fix time.
        last=$({ grep -oE 'trackd: log synced: [0-9]+ records durable, last fix [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}(\.[0-9]+)?Z$' "$l" || true; } |
            tail -1 | grep -oE '[0-9T:.Z-]+$' || true)
        [ -n "$control" ] || total_cuts=$(( total_cuts + 1 ))
        prev_log=$l
        (( i % 10 == 0 )) && say "$name: $i cuts, log holds $before records; last boot announced $durable durable ($ms ms after ready)"
    done
    [ -n "$control" ] || checked_fixes=$(( checked_fixes + looked ))
    if [ -n "$control" ]; then
        say "board control $control: $n cuts, $control_lost synced fixes lost"
    else
        say "$name: $n cuts done, log holds $before records; after $looked of them the last fix announced durable was looked up by its time"
    fi
}

# control_cuts CONTROL N: the volatile disk must catch a writer that does not make its fixes
# durable: at most N cuts of the host build with CONTROL on a fresh disk; none losing a synced
# fix fails the run (the power-cut check could not fail).
control_cuts() {
    control_lost=0
    fresh_disk
    power_cuts host "$2" "$1"
    (( control_lost > 0 )) || die "the $1 control lost no synced fix in $2 cuts: the power cuts cannot tell a writer that does not sync"
}

# check_guest_libs LOG BUILD: the guest ran BUILD's trackd on the libraries meant for it:
# libgpiod.so.3 and trixie's glibc 2.41 for fw-trixie, libgpiod.so.2 (and the host's glibc) else.
check_guest_libs() {
    local line; line=$(grep -o 'BOARD: libs .*' "$1" | head -n 1)
    case $2 in
        fw-trixie) [[ $line == *"release version 2.41"*"needs libgpiod.so.3"* ]] ;;
        *) [[ $line == *"needs libgpiod.so.2"* ]] ;;
    esac || die "$2: the guest's trackd ran on other libraries than its build's: ${line:-no BOARD: libs line}"
    say "$2: guest ${line#BOARD: libs }"
}

# check_leds_and_button BUILD: one boot of BUILD on a fresh disk. Silent receiver, then the
# capture paced at 4 epochs/s (its first 37 epochs have no fix: searching), a short press
# (waypoint), a 3.5 s press (private mode on), another (off). waveform.py checks the sampled
# edges per phase.
LED_TOLERANCE_MS=${BOARD_LED_TOLERANCE_MS:-60}
check_leds_and_button() {
    local build=$1 l=$RUN/leds-$1.log p=$RUN/phases-$1.txt t_ready t_pace pace
    boot_ready "$l" "$build" "LED boot"
    t_ready=$READY_AT
    wait_marker "$l" 'trackd: log synced' >/dev/null || true
    : > "$p"
    local s=$EPOCHREALTIME; sleep 3
    echo "silent $s $EPOCHREALTIME" >> "$p"
    t_pace=$EPOCHREALTIME
    python3 "$here/pace.py" "$CAPTURE" "$RUN/gps.in" 250 0 > /dev/null & pace=$!
    # 37 epochs without a fix at 250 ms: 9.25 s; margins of 2 s at both ends
    echo "searching $(fadd "$t_pace" 2) $(fadd "$t_pace" 7.5)" >> "$p"
    sleep 13
    echo "fix $(fadd "$t_pace" 11.5) $EPOCHREALTIME" >> "$p"
    s=$EPOCHREALTIME; guest "press 0.2"; sleep 2.5
    echo "waypoint $s $EPOCHREALTIME" >> "$p"
    guest 'trackctl status | grep -o "[0-9]* waypoints.*" | sed "s/^/BOARD: status /"'
    sleep 1
    guest "press 3.5"; sleep 4.5
    s=$EPOCHREALTIME; sleep 11
    echo "private $s $EPOCHREALTIME" >> "$p"
    guest "press 3.5"; sleep 4.5
    s=$EPOCHREALTIME; sleep 3
    echo "public $s $EPOCHREALTIME" >> "$p"
    guest 'kill -TERM $(pidof trackd); sleep 1; poweroff -f'
    wait "$QPID" 2>/dev/null || true
    kill "$pace" 2>/dev/null || true; wait "$pace" 2>/dev/null || true
    unboot
    check_guest_libs "$l" "$build"
    python3 "$here/waveform.py" "$l" "$p" "$LED_TOLERANCE_MS" | tee "$RUN/waveform-$build.txt" | grep -E '^(PASS|FAIL)' \
        || { cat "$RUN/waveform-$build.txt"; die "$build: LED waveforms do not match the pattern table"; }
    grep -q 'FAIL' "$RUN/waveform-$build.txt" && die "$build: LED waveforms do not match the pattern table"
    grep -q 'BOARD: status 1 waypoints' "$l" || { grep 'BOARD: ' "$l" | tail -5; die "$build: the short press saved no waypoint"; }
    say "button ($build): short press saved a waypoint ($(grep -o 'BOARD: status .*' "$l" | cut -d' ' -f3-))"
    check_private_log "$l" "$p"
}

fadd() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.6f", a+b}'; }

# No fix made durable while private: the "last fix" of trackd's sync lines does not advance
# between the two long presses (their announcements are in the phase file's private span).
check_private_log() { # LOG PHASES
    local l=$1 s e before after
    read -r _ s e < <(grep '^private ' "$2")
    before=$(awk -v t="$s" '$1 < t && /log synced/ {x=$NF} END{print x}' "$l")
    after=$(awk -v t="$e" '$1 <= t && /log synced/ {x=$NF} END{print x}' "$l")
    [ -n "$before" ] && [ "$before" = "$after" ] || die "fixes were logged in private mode (last fix $before → $after)"
    say "private mode: no fix logged (last durable fix stayed $before)"
}

# host_replay DIR BINDIR: the guest's log and state read off the disk image into DIR, then
# `trackd --replay` of DIR/sent.nmea on the host with the guest's config (and its state file),
# logging to DIR/replay-log.
host_replay() {
    local r=$1
    debugfs -R "rdump /log $r" "$DISK" > /dev/null 2>&1
    debugfs -R "dump /state $r/state" "$DISK" > /dev/null 2>&1
    [ -d "$r/log" ] && [ -f "$r/state" ] || die "no log or state on the guest's disk"
    guest_config | sed "s#/dev/serial0#/dev/null#; s#/run/trackd.sock#$r/control.sock#; s#/mnt/state#$r/state#;
        s#/mnt/log#$r/replay-log#; s#/etc/trackd/fences.geojson#$here/fence-route.geojson#;
        /^\[board\]/,/^\[/{/^\[board\]/d; /^file/d}" > "$r/replay.conf"
    timeout -s TERM 20 "$2/trackd" --config "$r/replay.conf" --replay "$r/sent.nmea" --speed 0 > "$r/replay.out" 2>&1 || true
}

# paced_guest_run NAME BUILD BINDIR CAPTURE EPOCH_MS: one boot of BUILD on a fresh disk that
# receives the whole CAPTURE through its UART, EPOCH_MS per epoch (pace.py keeps the bytes in
# $RUN/NAME/sent.nmea and the send times in $RUN/NAME/times.txt); trackd is stopped with
# SIGTERM once it has read the last epoch, and host_replay replays the same bytes on the host.
# The console is $RUN/NAME.log.
paced_guest_run() {
    local name=$1 build=$2 bin=$3 capture=$4 ms=$5 l=$RUN/$1.log r=$RUN/$1 pace
    rm -rf "$r"; mkdir -p "$r"
    fresh_disk
    boot_ready "$l" "$build" "$name boot"
    python3 "$here/pace.py" "$capture" "$RUN/gps.in" "$ms" 0 100000 "$r/sent.nmea" "$r/times.txt" > /dev/null & pace=$!
    wait "$pace" || true
    # trackd has read the last epoch when its counters stop moving; give it a few seconds
    sleep 4
    guest 'kill -TERM $(pidof trackd); sleep 1; umount /mnt; poweroff -f'
    wait "$QPID" 2>/dev/null || true
    unboot
    host_replay "$r" "$bin"
}

# check_fence_led BUILD BINDIR: one boot of BUILD on a fresh disk. A boat's capture (gpsd's bundg_zeus_9:
# 1 Hz fixes, ~3 m/s on the IJsselmeer) paced at 400 ms per epoch crosses a 60 m circle
# (fence-route.geojson). fencecheck.py checks the guest's fence events against a host replay
# and the circle's geometry, and led-fence's edges against when the enter and exit epochs
# were sent. The host replay is the host build's (BINDIR is the guest's build; a trixie build
# does not run on this machine's libraries).
FENCE_CAPTURE=$DATA/gpsd-regress/bundg_zeus_9.log
check_fence_led() {
    local build=$1 l=$RUN/fence-$1.log r=$RUN/fence-$1
    paced_guest_run "fence-$build" "$build" "$host_bin" "$FENCE_CAPTURE" 400
    check_guest_libs "$l" "$build"
    "$host_bin/trackctl" log export --format geojson --log "$r/log" > "$r/guest.geojson"
    "$host_bin/trackctl" log export --format geojson --log "$r/replay-log" > "$r/host.geojson"
    "$host_bin/trackctl" decode "$r/sent.nmea" > "$r/decoded.json" 2>/dev/null
    python3 "$here/fencecheck.py" "$l" "$r/times.txt" "$here/fence-route.geojson" "$r/guest.geojson" \
        "$r/host.geojson" "$r/decoded.json" "$FENCE_TOLERANCE_MS" | tee "$RUN/fencecheck-$build.txt" | grep -E '^(PASS|FAIL|fence:)' \
        || { cat "$RUN/fencecheck-$build.txt"; die "$build: the fence check failed"; }
    grep -q '^FAIL' "$RUN/fencecheck-$build.txt" && { cat "$RUN/fencecheck-$build.txt"; die "$build: led-fence or the fence events are wrong"; }
    say "fence ($build): led-fence lit over the stretch inside the circle, events equal a host replay"
}
# One pacing interval (a fix is complete when the next epoch begins) plus 600 ms.
FENCE_TOLERANCE_MS=${BOARD_FENCE_TOLERANCE_MS:-1000}

# check_uart_equality BUILD BINDIR: the whole capture through the guest's UART at 10 epochs/s,
# trackd stopped with SIGTERM; the fixes in the guest's log (read off the disk image with
# debugfs) must equal those of BINDIR's `trackd --replay` of the same bytes on the host, with the
# guest's state file.
check_uart_equality() {
    local build=$1 r=$RUN/uart-$1
    paced_guest_run "uart-$build" "$build" "$2" "$CAPTURE" 100
    check_guest_libs "$RUN/uart-$build.log" "$build"
    "$2/trackctl" log export --format csv --log "$r/log" > "$r/guest.csv"
    "$2/trackctl" log export --format csv --log "$r/replay-log" > "$r/host.csv"
    local fixes; fixes=$(($(wc -l < "$r/guest.csv") - 1))
    if ! cmp -s "$r/guest.csv" "$r/host.csv" || (( fixes < 1 )); then
        diff "$r/guest.csv" "$r/host.csv" | head -10
        die "UART: the guest logged other fixes than a host replay of the same $(wc -c < "$r/sent.nmea") bytes"
    fi
    say "UART ($build): the guest logged the same $fixes fixes as a host replay of the same $(wc -c < "$r/sent.nmea") bytes"
}

# durable_count LOG: the record count of trackd's last "log synced" announcement in LOG (0: none).
durable_count() {
    { grep -oE 'trackd: log synced: [0-9]+' "$1" || true; } | tail -1 | grep -oE '[0-9]+$' || echo 0
}

# check_storage BUILD: trackd on real ext4 when the flash fills and when it fails. One boot on a
# fresh volatile disk, ext4 mounted errors=remount-ro, the demo drive (trackctl simulate: 10 fixes
# a second with 3 m of noise) paced at 20 epochs/s, every fix recorded (min-period = 100ms), so
# trackd writes over 100 bytes a second:
# ext4 says ENOSPC only when a write needs a new block, so the disk has 1 KiB blocks (on 512-byte
# sectors; this check cuts no power, so a torn block cannot happen) and a full
# disk reaches trackd within seconds (with 4 KiB blocks trackd goes on writing into its last
# block for up to a minute, as it would on a card). Then
# another program fills the file system (dd), then deletes its file; then the disk fails every
# write (volatile-disk.py's eio file) until ext4 has remounted itself read-only, and works again.
# trackd must keep running, say each outage on its console, in `trackctl doctor` and with the
# storage LED (led-status: on 100 off 100), and resume logging by itself once space is free. A
# second boot (e2fsck -p first, as a boot after an I/O error runs it) must find every record
# trackd announced durable, its last fix by time, the log verified, and trackd logging again.
check_storage() {
    local build=$1 l=$RUN/storage-$1.log l2=$RUN/storage-$1-next.log pace t s e synced last rc records
    local drive=$RUN/demo-drive.nmea DISK_SECTOR=512
    "$host_bin/trackctl" simulate "$root/board/demo-route.gpx" --stdout --seed 3 --rate 10 --noise 3 > "$drive"
    fresh_disk 1024
    BOOT_KARGS="board.errors=remount-ro board.minperiod=100ms" VOLATILE_DISK=yes boot_ready "$l" "$build" "storage boot"
    python3 "$here/pace.py" "$drive" "$RUN/gps.in" 50 0 > /dev/null & pace=$!
    wait_marker "$l" 'trackd: log synced: [0-9]+ records durable, last fix 2' > /dev/null || { stop_qemu; unboot; die "storage ($build): trackd never logged a fix"; }
    sleep 2
    # 1. Full: dd fills it (as root, the reserved blocks too, as trackd's writes may use them).
    # ext4 reserves blocks for data not yet written out (delayed allocation) by an estimate and
    # gives back what writeback did not need: after a sync a second dd takes those blocks too,
    # or trackd could go on writing into them for minutes.
    guest 'dd if=/dev/zero of=/mnt/fill bs=64k 2>/dev/null; sync; dd if=/dev/zero of=/mnt/fill2 bs=1k 2>/dev/null; sync; echo "BOARD: filled $(df -k /mnt | tail -1)"'
    wait_marker "$l" 'BOARD: filled' 60 > /dev/null || { stop_qemu; unboot; die "storage ($build): dd never filled the disk"; }
    t=$(wait_marker "$l" 'trackd: track log: .*the file system is full' 60) || { stop_qemu; unboot; tail -20 "$l"; die "storage ($build): trackd never said the file system is full"; }
    synced=$(durable_count "$l")
    s=$(fadd "$t" 0.5); sleep 4; e=$EPOCHREALTIME
    guest 'trackctl doctor > /tmp/doctor.txt; echo "BOARD: doctor-full rc=$?"; sed "s/^/BOARD: doctor-full /" /tmp/doctor.txt'
    wait_marker "$l" 'BOARD: doctor-full rc=' > /dev/null || true
    python3 "$here/blinkcheck.py" "$l" led-status "$s" "$e" 100 100 "$LED_TOLERANCE_MS" 10 | tee "$RUN/storage-led-full.txt"
    grep -q '^PASS' "$RUN/storage-led-full.txt" || die "storage ($build): led-status did not show the storage error while the disk was full"
    grep -q 'BOARD: doctor-full rc=1' "$l" && grep -q 'BOARD: doctor-full error storage: nothing is written to the track log' "$l" ||
        { grep 'BOARD: doctor-full' "$l"; die "storage ($build): doctor did not say the track log is not written while full"; }
    (( $(durable_count "$l") == synced )) || die "storage ($build): trackd announced records durable on a full disk"
    say "storage ($build): full: trackd said so ($(grep -m1 -oE 'the file system is full \([^)]*\)' "$l")), doctor too, led-status blinked the storage error"
    # 2. Freed: logging resumes with nobody touching trackd.
    guest 'rm /mnt/fill /mnt/fill2; echo BOARD: freed'
    wait_marker "$l" 'trackd: track log: writable again, logging resumed' 30 > /dev/null || { stop_qemu; unboot; tail -20 "$l"; die "storage ($build): logging did not resume once space was freed"; }
    sleep 2
    (( $(durable_count "$l") > synced )) || die "storage ($build): no record made durable after the disk was freed"
    say "storage ($build): freed: $(grep -m1 -oE 'writable again, logging resumed; .*' "$l")"
    # 3. The disk fails every write until ext4 is read-only, then works again.
    synced=$(durable_count "$l")
    last=$({ grep -oE 'trackd: log synced: [0-9]+ records durable, last fix [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}(\.[0-9]+)?Z$' "$l" || true; } | tail -1 | grep -oE '[0-9T:.Z-]+$' || true)
    : > "$RUN/eio"
    # ext4 6.1 aborts its journal at the first failed commit and refuses every change that needs
    # it with EROFS from then on (a new directory does; a touch of a file does not); /proc/mounts
    # says "ro" only once a path that checks for errors remounts it.
    guest 'while { mkdir /mnt/probe && rmdir /mnt/probe; } 2>/tmp/probe.err; do sleep 0.2; done; echo "BOARD: read-only: $(cat /tmp/probe.err) ($(grep " /mnt " /proc/mounts | cut -d" " -f4 | cut -d, -f1))"'
    wait_marker "$l" 'BOARD: read-only: .*Read-only file system' 60 > /dev/null || { rm -f "$RUN/eio"; stop_qemu; unboot; tail -20 "$l"; die "storage ($build): ext4 did not go read-only after the disk's I/O errors"; }
    rm -f "$RUN/eio"
    t=$(wait_marker "$l" 'trackd: track log: .*the file system is read-only' 30) || { stop_qemu; unboot; tail -30 "$l"; die "storage ($build): trackd never said the file system is read-only"; }
    s=$(fadd "$t" 0.5); sleep 4; e=$EPOCHREALTIME
    guest 'trackctl doctor > /tmp/doctor.txt; echo "BOARD: doctor-ro rc=$?"; sed "s/^/BOARD: doctor-ro /" /tmp/doctor.txt; pidof trackd > /dev/null && echo BOARD: trackd-running'
    wait_marker "$l" 'BOARD: doctor-ro rc=' > /dev/null || true
    sleep 1
    python3 "$here/blinkcheck.py" "$l" led-status "$s" "$e" 100 100 "$LED_TOLERANCE_MS" 10 | tee "$RUN/storage-led-ro.txt"
    grep -q '^PASS' "$RUN/storage-led-ro.txt" || die "storage ($build): led-status did not show the storage error on the read-only file system"
    grep -q 'BOARD: doctor-ro .*the file system is read-only' "$l" || { grep 'BOARD: doctor-ro' "$l"; die "storage ($build): doctor did not say the file system is read-only"; }
    grep -q 'BOARD: trackd-running' "$l" || die "storage ($build): trackd did not keep running"
    guest 'dmesg | grep -m3 -E "Aborting journal|Detected aborted journal|Remounting filesystem read-only" | sed "s/^/BOARD: dmesg /"'
    sleep 1
    say "storage ($build): I/O error: ext4 went read-only ($(grep -oE 'BOARD: dmesg .*' "$l" | sed 's/BOARD: dmesg \[ *[0-9.]*\] //' | paste -sd';' -)), trackd kept running and said so, doctor too, led-status blinked the storage error"
    guest "poweroff -f"; wait "$QPID" 2>/dev/null || true
    kill "$pace" 2>/dev/null || true; wait "$pace" 2>/dev/null || true
    unboot
    # 4. The next boot: e2fsck, every record announced durable, and logging again.
    BOOT_KARGS="board.fsck=yes board.minperiod=100ms${last:+ board.lastfix=${last/.000Z/Z}}" boot_ready "$l2" "$build" "boot after the storage trouble"
    python3 "$here/pace.py" "$drive" "$RUN/gps.in" 50 3000 > /dev/null & pace=$!
    records=$(verify_field "$l2" records)
    rc=$({ grep -oE 'BOARD: verify-rc=[0-9]+' "$l2" || true; } | cut -d= -f2)
    [ "$rc" = 0 ] && [ "$(verify_field "$l2" problems)" = 0 ] || { grep 'BOARD: ' "$l2" | head -20; die "storage ($build): the log did not verify after the storage trouble"; }
    (( ${records:-0} >= synced )) || die "storage ($build): $((synced - records)) records announced durable are gone (had $synced, found $records)"
    [ -z "$last" ] || grep -qE "BOARD: last-fix .* found=[1-9]" "$l2" || die "storage ($build): the last fix announced durable ($last) is gone"
    wait_marker "$l2" 'trackd: log synced: [0-9]+ records durable, last fix 2' > /dev/null || { stop_qemu; unboot; die "storage ($build): trackd did not log after the next boot"; }
    guest "poweroff -f"; wait "$QPID" 2>/dev/null || true
    kill "$pace" 2>/dev/null || true; wait "$pace" 2>/dev/null || true
    unboot
    say "storage ($build): next boot: $(grep -m1 -o 'BOARD: fsck rc=[0-9]*' "$l2" | cut -d' ' -f3-), $records records verified (trackd had announced $synced durable), the last one by its time, logging again"
}
