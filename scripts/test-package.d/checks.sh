# The checks of scripts/test-package (sourced), each run in the current target (target.sh).

# check_depends SUITE DEB: the Depends dpkg-deb -I shows are the suite's, and they cover what the
# binaries inside need: the libgpiod soname (libgpiod.so.N is Debian's package libgpiodN) and
# the highest glibc symbol version (GLIBC_ABI_DT_RELR: 2.36).
check_depends() {
    local suite=$1 deb=$2 depends arch dir gpiod wanted_gpiod glibc libc_min
    depends=$(dpkg-deb -f "$deb" Depends) arch=$(dpkg-deb -f "$deb" Architecture)
    dir=$work/contents-$suite-$arch
    rm -rf "$dir"; dpkg-deb -x "$deb" "$dir"
    gpiod=$(readelf -d "$dir/usr/bin/trackd" | sed -n 's/.*(NEEDED).*\[libgpiod\.so\.\([0-9]*\)\]/\1/p')
    [[ -n $gpiod ]] || die "${deb##*/}: trackd needs no libgpiod"
    case $suite in bookworm) wanted_gpiod="libgpiod2 (>= 1.6)" ;; trixie) wanted_gpiod="libgpiod3 (>= 2.1)" ;; esac
    [[ ", $depends," == *", $wanted_gpiod,"* ]] || die "${deb##*/}: Depends '$depends' lacks '$wanted_gpiod'"
    [[ $wanted_gpiod == "libgpiod$gpiod "* ]] ||
        die "${deb##*/}: trackd needs libgpiod.so.$gpiod, but the package depends on $wanted_gpiod"
    glibc=$(for binary in "$dir"/usr/bin/*; do readelf -V "$binary"; done |
        grep -oE 'Name: GLIBC_(2\.[0-9.]+|ABI_DT_RELR)' | sed -e 's/Name: GLIBC_//' -e 's/^ABI_DT_RELR$/2.36/' | sort -V | tail -n 1)
    libc_min=$(sed -n 's/.*libc6 (>= \([0-9.]*\)).*/\1/p' <<<"$depends")
    [[ -n $libc_min ]] || die "${deb##*/}: Depends '$depends' names no libc6 version"
    dpkg --compare-versions "$libc_min" ge "$glibc" ||
        die "${deb##*/}: the binaries need glibc $glibc, the package asks for libc6 >= $libc_min"
    if [[ $suite == bookworm ]]; then
        [[ $libc_min == 2.36 ]] || die "${deb##*/}: bookworm's package must ask for glibc 2.36, not $libc_min"
    else
        dpkg --compare-versions "$libc_min" le 2.41 || die "${deb##*/}: trixie has glibc 2.41, the package asks for $libc_min"
    fi
    say "dpkg-deb -I ${deb##*/}: Depends: $depends (binaries need libgpiod.so.$gpiod, glibc $glibc)"
}

# pick_capture: the shared capture with the most RMC sentences, else the repository's fixture.
pick_capture() {
    local shared=$root/../shared/data/gpsd-regress
    if [[ -d $shared ]]; then
        grep -c 'RMC' "$shared"/*.log | sort -t: -k2 -n | tail -n 1 | cut -d: -f1
    else
        say "the shared captures are absent beside the repository: replaying the repository's fixture" >&2
        printf '%s\n' "$root/Tests/TrackCoreTests/Fixtures/nmea/ublox-m8-1hz.nmea"
    fi
}

# replay_config DIR STATE LOG GROUP: a trackd.conf that records nearly every fix of a replay
# (a 1 m distance trigger), with the control socket in DIR.
replay_config() {
    printf '[receiver]\ndevice = %s/no-receiver\n[sampling]\nmin-period = 1s\nmin-distance = 1\n' "$1"
    printf '[control]\nsocket = %s/control.sock\ngroup = %s\n[state]\nfile = %s\n[log]\ndirectory = %s\n' "$1" "$4" "$2" "$3"
}

# wait_for_socket PATH PID: until trackd (PID) listens at PATH.
wait_for_socket() {
    local _
    for _ in $(seq 200); do
        [[ -S $1 ]] && return 0
        kill -0 "$2" 2>/dev/null || return 1
        sleep 0.05
    done
    return 1
}

# replay_in_target DIR TRACKD TRACKCTL AS...: in the current target, tracking allowed in a run
# without a receiver, then TRACKD --replay DIR/input-N.nmea --speed 0 for each input in turn,
# each until it has ended; AS is the command prefix that runs trackd as its user (nothing for
# the current one).
replay_in_target() {
    local dir=$1 trackd=$2 trackctl=$3 pid _ input=0
    shift 3
    t_spawn "$@" "$trackd" --config "$dir/trackd.conf" 2>"$work/seed.err"
    pid=$!; spawned+=("$pid")
    wait_for_socket "$(t_path "$dir/control.sock")" "$pid" || { cat "$work/seed.err" >&2; die "$(t_name): trackd did not start"; }
    t_run "$trackctl" privacy allow always --socket "$dir/control.sock" >/dev/null
    kill -TERM "$pid"; wait "$pid" || true
    while ((input < ${#replay_inputs[@]})); do
        input=$((input + 1))
        t_spawn "$@" "$trackd" --config "$dir/trackd.conf" --replay "$dir/input-$input.nmea" --speed 0 2>"$work/replay.err"
        pid=$!; spawned+=("$pid")
        wait_for_socket "$(t_path "$dir/control.sock")" "$pid" || { cat "$work/replay.err" >&2; die "$(t_name): trackd --replay did not start"; }
        for _ in $(seq 600); do
            t_run "$trackctl" status --json --socket "$dir/control.sock" 2>/dev/null |
                python3 -c 'import json, sys; sys.exit(json.load(sys.stdin)["receiver"]["open"])' 2>/dev/null && break
            sleep 0.1
        done
        kill -TERM "$pid"; wait "$pid" || true
    done
}

# copy_inputs DIR: the replay inputs into DIR (a host path), as input-1.nmea, input-2.nmea, ...
copy_inputs() {
    local i=0 input
    for input in "${replay_inputs[@]}"; do
        i=$((i + 1))
        run_root cp "$input" "$1/input-$i.nmea"
    done
}

# host_replay: the host build's log of the replay inputs as CSV (the reference).
host_replay() {
    local dir=$work/host-replay
    mkdir -p "$dir"
    copy_inputs "$dir"
    replay_config "$dir" "$dir/state" "$dir/log" "$(id -gn)" >"$dir/trackd.conf"
    local saved=("${target_prefix[@]}") saved_root=$target_root
    target_prefix=() target_root=""
    replay_in_target "$dir" "$host_bin/trackd" "$host_bin/trackctl"
    target_prefix=("${saved[@]}") target_root=$saved_root
    "$host_bin/trackctl" log export --format csv --log "$dir/log"
}

# check_replay SUITE: the installed trackd, as user trackd, replays the inputs into the package's
# log folder; the fixes it logged must be the host build's.
check_replay() {
    local suite=$1 dir=/tmp/trackd-package-test/replay fixes
    t_run install -d -o trackd -g trackd -m 0750 "$dir"
    copy_inputs "$(t_path "$dir")"
    replay_config "$dir" /var/lib/trackd/state /var/lib/trackd/log trackd | run_root tee "$(t_path "$dir/trackd.conf")" >/dev/null
    t_run chown -R trackd:trackd "$dir"
    replay_in_target "$dir" /usr/bin/trackd /usr/bin/trackctl setpriv --reuid=trackd --regid=trackd --init-groups
    t_run /usr/bin/trackctl log export --format csv --log /var/lib/trackd/log >"$work/replay-$suite.csv"
    fixes=$(($(wc -l <"$work/replay-$suite.csv") - 1))
    if ! cmp -s "$work/host-replay.csv" "$work/replay-$suite.csv"; then
        diff -u --label "host build" --label "$suite package" "$work/host-replay.csv" "$work/replay-$suite.csv" | head -n 20 >&2
        die "$suite: the installed trackd logged $fixes fixes from $replay_names, not the host build's $reference_fixes"
    fi
    say "$suite: the installed trackd (as user trackd) replayed $replay_names into /var/lib/trackd/log: the host build's $fixes fixes"
}

# What "nothing left behind" compares: every path under the folders a package may touch (dpkg's
# and apt's own records, caches and logs aside) and the user and group databases. /run/adduser
# is the lock folder trixie's adduser makes the first time it runs (on /run's tmpfs on a real
# system), not the package's.
snapshot() {
    {
        t_run find /etc /usr /lib /var/lib /run -xdev \
            \( -path /var/lib/dpkg -o -path /var/lib/apt -o -path /run/user -o -path /proc \
               -o -path /var/lib/systemd/timers -o -path '/run/systemd/*' -o -path /run/adduser \) -prune -o -print |
            grep -v -e '^/etc/\(passwd\|group\|shadow\|gshadow\|subuid\|subgid\)-$' \
                    -e '^/etc/ld.so.cache$' | LC_ALL=C sort
        printf -- '--- passwd\n'; t_run getent passwd | LC_ALL=C sort
        printf -- '--- group\n'; t_run getent group | LC_ALL=C sort
    } >"$1"
}
expect_clean() { # expect_clean SUITE HOW
    snapshot "$work/after-$1"
    if ! diff -u "$work/before-$1" "$work/after-$1" >"$work/diff-$1"; then
        cat "$work/diff-$1" >&2
        die "$1: $2 left $(t_name) different (diff above)"
    fi
    say "$1: $2: nothing left behind in $(t_name)"
}

# check_installed HOW DEB: the package's files, user, groups and folder, and trackd --check.
check_installed() {
    local how=$1 deb=$2 path unit_dir=/lib
    [[ $(dpkg-deb -f "$deb" Version) != *+deb13 ]] || unit_dir=/usr/lib
    for path in /usr/bin/trackd /usr/bin/trackctl $unit_dir/systemd/system/trackd.service \
        $unit_dir/udev/rules.d/60-trackd.rules /etc/trackd/trackd.conf /usr/share/trackd/board/pi4.conf; do
        [[ -e $(t_path "$path") ]] || die "$how: $path is missing"
    done
    [[ $(t_run dpkg-query -W -f='${Version}' trackd) == "$(dpkg-deb -f "$deb" Version)" ]] ||
        die "$how: the installed trackd is not $(dpkg-deb -f "$deb" Version)"
    t_run getent passwd trackd >/dev/null || die "$how: no trackd user"
    local groups
    groups=$(t_run id -nG trackd)
    [[ " $groups " == *" dialout "* && " $groups " == *" gpio "* ]] ||
        die "$how: trackd is in '$groups', not in dialout and gpio"
    [[ $(t_run stat -c %U:%G /var/lib/trackd) == trackd:trackd ]] || die "$how: /var/lib/trackd is $(t_run stat -c %U:%G /var/lib/trackd)"
    # The installed daemon, as its user, accepts the installed default config.
    t_run setpriv --reuid=trackd --regid=trackd --init-groups \
        /usr/bin/trackd --check --config /etc/trackd/trackd.conf >"$work/check.out" 2>&1 ||
        { cat "$work/check.out" >&2; die "$how: trackd --check on the installed config failed"; }
    t_run /usr/bin/trackctl --help >/dev/null || die "$how: trackctl --help failed"
    say "$how: installed in $(t_name); trackd --check as user trackd: $(head -n 1 "$work/check.out")"
}

# check_unit: the unit's syntax and exposure, with this machine's systemd (bookworm only).
check_unit() {
    systemd-analyze verify /lib/systemd/system/trackd.service 2>&1 | grep -v 'Failed to ' | tee "$work/verify.out" >&2 || true
    [[ ! -s $work/verify.out ]] || die "systemd-analyze verify complained about trackd.service"
    exposure=$(systemd-analyze security --offline=yes /lib/systemd/system/trackd.service 2>/dev/null |
        sed -n 's/.*Overall exposure level for trackd.service: \([0-9.]*\).*/\1/p')
    say "unit exposure (systemd-analyze security): ${exposure:-?}"
    awk -v e="${exposure:-99}" 'BEGIN { exit !(e <= 2.0) }' || die "exposure ${exposure:-?} is over 2.0"
}

# prepare_sshd_folders: what sshd needs in the target and a running system's service would make
# (its privilege-separation folder), made before the snapshot so it is not counted as left behind.
prepare_sshd_folders() {
    [[ -x $(t_path /usr/sbin/sshd) ]] || die "$(t_name) has no /usr/sbin/sshd (run scripts/setup)"
    t_run mkdir -p /run/sshd
}

# start_sshd SUITE: the target's own sshd on 127.0.0.1 with a config, host key and authorized
# key of the test's own (in the target's /tmp, outside what the snapshot compares). Sets
# sshd_pid (sshd's own pid), ssh_port, ssh_user and ssh_options.
start_sshd() {
    local suite=$1 dir=/tmp/trackd-package-sshd
    t_run rm -rf "$dir"; t_run mkdir -m 0700 "$dir"
    rm -f "$work/client_key" "$work/client_key.pub" "$work/host_key" "$work/host_key.pub"
    ssh-keygen -q -t ed25519 -N '' -f "$work/host_key"
    ssh-keygen -q -t ed25519 -N '' -f "$work/client_key"
    run_root install -m 0600 "$work/host_key" "$(t_path "$dir/host_key")"
    run_root install -m 0600 "$work/client_key.pub" "$(t_path "$dir/authorized_keys")"
    ssh_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    if [[ -z $target_root ]]; then ssh_user=$(id -un); else ssh_user=root; fi
    cat <<CONFIG | run_root tee "$(t_path "$dir/sshd_config")" >/dev/null
ListenAddress 127.0.0.1
Port $ssh_port
HostKey $dir/host_key
AuthorizedKeysFile $dir/authorized_keys
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers $ssh_user
UsePAM no
StrictModes no
PidFile $dir/sshd.pid
Subsystem sftp internal-sftp
CONFIG
    t_run /usr/sbin/sshd -t -f "$dir/sshd_config" || die "$suite: sshd rejects its test config"
    t_spawn /usr/sbin/sshd -D -e -f "$dir/sshd_config" 2>"$work/sshd.log"
    sshd_pid=$!
    local _
    for _ in $(seq 50); do
        (exec 3<>"/dev/tcp/127.0.0.1/$ssh_port") 2>/dev/null && break
        kill -0 "$sshd_pid" 2>/dev/null || { cat "$work/sshd.log" >&2; die "$suite: sshd exited"; }
        sleep 0.1
    done
    [[ $(run_root cat "$(t_path "$dir/sshd.pid")" 2>/dev/null || true) == "$sshd_pid" ]] ||
        say "note: sshd's pid file does not name pid $sshd_pid (sudo in between?)"
    ssh_options=("IdentityFile=$work/client_key" "Port=$ssh_port" "StrictHostKeyChecking=accept-new"
        "UserKnownHostsFile=$work/known_hosts-$suite" "IdentitiesOnly=yes")
}

# stop_sshd: the sshd start_sshd started, by its pid; returns 1 if it still runs after SIGTERM.
stop_sshd() {
    [[ -n ${sshd_pid:-} ]] || return 0
    kill -TERM "$sshd_pid" 2>/dev/null || true
    wait "$sshd_pid" 2>/dev/null || true
    if kill -0 "$sshd_pid" 2>/dev/null; then
        printf 'test-package: sshd (pid %s) is still running after SIGTERM\n' "$sshd_pid" >&2
        return 1
    fi
    # The pid was sshd's own only if nothing (sudo, a wrapper function's subshell) stood in
    # between: ps says whether an sshd with this test's config still runs.
    local left
    left=$(ps -eo pid=,args= | grep -F -- "-f /tmp/trackd-package-sshd/sshd_config" | grep -v -F grep || true)
    if [[ -n $left ]]; then
        printf 'test-package: an sshd of this test still runs after its pid %s was stopped:\n%s\n' "$sshd_pid" "$left" >&2
        return 1
    fi
    sshd_pid=""
    t_run rm -rf /tmp/trackd-package-sshd
}
