# The systems scripts/test-package installs into (sourced): this machine (Debian 12) and a Debian
# 13 userland made by mmdebstrap. A target is used through four helpers, so every check runs
# unchanged on both:
#
#   t_run CMD...    runs CMD as root in the target (waits for it)
#   t_spawn CMD...  starts CMD as root in the target in the background; $! is CMD's own pid
#                   (the command is exec'd, never wrapped in a subshell), so kill $! stops it
#   t_path PATH     the host's path of the target's PATH
#   t_name          a short name for messages
#
# In the userland every command runs in a mount namespace of its own (unshare --mount) with a
# fresh /proc inside it: the namespace, and with it the mount, ends when the command does, so no
# mount outlives the command that made it. use_userland_target checks that at the end too.

target_prefix=()
target_root=""
target_label=""

t_run() { "${target_prefix[@]}" "$@"; }
t_spawn() { ( exec "${target_prefix[@]}" "$@" ) & }
t_path() { printf '%s%s' "$target_root" "$1"; }
t_name() { printf '%s' "$target_label"; }

use_host_target() {
    target_prefix=("${as_root[@]}")
    target_root=""
    target_label="this machine ($(. /etc/os-release && printf '%s' "$PRETTY_NAME"))"
}

# use_userland_target DIR: the userland unpacked in DIR.
use_userland_target() {
    target_root=$1
    target_prefix=("${as_root[@]}" unshare --mount --mount-proc="$1/proc" chroot "$1")
    target_label="the $(. "$1/etc/os-release" && printf '%s' "$PRETTY_NAME") userland"
}

# Nothing started in the userland still runs there, and nothing is mounted under it.
userland_is_idle() {
    local dir=$1 link pid
    if grep -qF " $dir/" /proc/self/mountinfo || grep -qF " $dir " /proc/self/mountinfo; then
        grep -F " $dir" /proc/self/mountinfo >&2
        return 1
    fi
    for link in /proc/[0-9]*/root; do
        pid=${link#/proc/}; pid=${pid%/root}
        if [[ $(readlink "$link" 2>/dev/null) == "$dir"* ]]; then
            printf 'still running in %s: pid %s %s\n' "$dir" "$pid" "$(tr '\0' ' ' <"/proc/$pid/cmdline")" >&2
            return 1
        fi
    done
}

# userland_tarball SUITE PACKAGE...: path of a cached mmdebstrap tarball of SUITE (amd64,
# minbase) with PACKAGES, made on first use. Cached in ${XDG_CACHE_HOME:-~/.cache}/trackd-hil
# beside the board test's kernel, keyed by suite, packages and registry; an older one of the
# same suite is removed when the key changes. The registry is the one scripts/setup took
# trixie's libgpiod from (.build-firmware/trixie/apt/sources.list).
userland_tarball() {
    local suite=$1
    shift
    local cache=${XDG_CACHE_HOME:-$HOME/.cache}/trackd-hil source_line mirror key tarball
    source_line=$(sed -n 's/^deb \[[^]]*\] \([^ ]*\) .*/\1/p' .build-firmware/trixie/apt/sources.list 2>/dev/null | head -n 1)
    mirror=${source_line:-${TRACKD_DEBIAN_MIRROR:-http://deb.debian.org/debian/}}
    key=$(printf '%s\n' "$suite" amd64 minbase "$@" "$mirror" | sha256sum | cut -c1-12)
    tarball=$cache/userland-$suite-amd64-$key.tar
    if [[ ! -s $tarball ]]; then
        command -v mmdebstrap >/dev/null 2>&1 || { say "mmdebstrap is missing (run scripts/setup)" >&2; return 1; }
        mkdir -p "$cache"
        say "making the $suite userland with mmdebstrap from $mirror (once; cached in ${cache/#$HOME/\~})" >&2
        local started=$SECONDS packages
        packages=$(IFS=,; echo "$*")
        run_root mmdebstrap --mode=root --variant=minbase --architectures=amd64 --format=tar \
            --include="$packages" "$suite" "$tarball.partial" \
            "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" \
            >"$cache/userland-$suite.log" 2>&1 ||
            { tail -n 20 "$cache/userland-$suite.log" >&2; rm -f "$tarball.partial"; return 1; }
        find "$cache" -maxdepth 1 -name "userland-$suite-amd64-*.tar" ! -name "${tarball##*/}" -delete
        mv "$tarball.partial" "$tarball"
        say "$suite userland: $(du -h "$tarball" | cut -f1) in $((SECONDS - started)) s" >&2
    fi
    printf '%s\n' "$tarball"
}
