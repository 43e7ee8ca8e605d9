# Host side of scripts/board-test: Debian's kernel, gpio-sim built out of tree, the initramfs and
# qemu. Adapted from a recipe proven on Debian 12 x86_64 hosts; sourced by scripts/board-test.
# Everything downloaded or built is cached in $WORK so a re-run starts in seconds.
ACCEL=${BOARD_ACCEL:-tcg}
MEM=${BOARD_MEM:-256}
TIMEOUT=${BOARD_TIMEOUT:-90}
log() { say "$*"; }

ensure_host_packages() {
    local p pkgs=()
    for p in qemu-system-x86 busybox-static cpio gpiod libgpiod-dev kmod e2fsprogs \
             gcc libc6-dev make binutils xz-utils nbdkit nbdkit-plugin-python libeatmydata1; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || pkgs+=("$p")
    done
    if [ ${#pkgs[@]} -gt 0 ]; then
        log "apt-get install ${pkgs[*]}"
        [ -n "$(find /var/lib/apt/lists -name '*Packages*' -print -quit 2>/dev/null)" ] || apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${pkgs[@]}"
    fi
    export PATH=$PATH:/sbin:/usr/sbin
}

# ---------------------------------------------------------------------------
# 1. kernel: download/unpack the Debian kernel .deb, index its modules
# ---------------------------------------------------------------------------
# Sets KPKG (package), KVER (uname -r), KDEBVER (Debian version), KROOT, VMLINUZ
prepare_kernel() {
    mkdir -p "$WORK/debs"
    local deb=${KERNEL_DEB:-}
    if [ -z "$deb" ]; then
        local pkg
        pkg=$(apt-cache depends linux-image-amd64 | awk '/Depends: linux-image-[0-9]/{print $2; exit}')
        [ -n "$pkg" ] || { say "cannot resolve linux-image-amd64 (run apt-get update?)"; return 1; }
        deb=$(ls "$WORK"/debs/"${pkg}"_*_amd64.deb 2>/dev/null | tail -1 || true)
        if [ -z "$deb" ]; then
            log "apt-get download $pkg"
            (cd "$WORK/debs" && apt-get download "$pkg") || return 1
            deb=$(ls "$WORK"/debs/"${pkg}"_*_amd64.deb | tail -1)
        fi
    fi
    KPKG=$(dpkg-deb -f "$deb" Package)
    KDEBVER=$(dpkg-deb -f "$deb" Version)
    KVER=${KPKG#linux-image-}
    KVER=${KVER%-unsigned}
    KROOT=$WORK/kernel-$KVER
    if [ ! -d "$KROOT/lib/modules/$KVER/kernel" ]; then
        log "unpacking $deb"
        rm -rf "$KROOT"; mkdir -p "$KROOT"
        dpkg-deb -x "$deb" "$KROOT"
    fi
    # the .deb ships no modules.dep (postinst normally runs depmod)
    [ -f "$KROOT/lib/modules/$KVER/modules.dep" ] || depmod -b "$KROOT" "$KVER"
    VMLINUZ=$KROOT/boot/vmlinuz-$KVER
    local cfg=$KROOT/boot/config-$KVER
    log "kernel $KPKG $KDEBVER: $(grep -E '^(# )?CONFIG_(GPIO_SIM|GPIO_MOCKUP|CONFIGFS_FS|GPIO_CDEV_V1)[= ]' "$cfg" | tr '\n' ' ')"
    extract_pvh_vmlinux
}

# The bzImage decompresses itself inside the guest, which under TCG costs
# ~2.5 s per boot.  The kernel has CONFIG_PVH=y, so qemu can instead load the
# uncompressed ELF vmlinux directly (-kernel vmlinux, PVH entry point).  We
# decompress it once on the host: find the xz stream inside the bzImage.
extract_pvh_vmlinux() {
    local elf=$KROOT/vmlinux-$KVER.pvh off
    if [ ! -s "$elf" ]; then
        off=$(LC_ALL=C grep -obUaP '\xFD7zXZ\x00' "$VMLINUZ" | head -1 | cut -d: -f1)
        if [ -n "$off" ]; then
            # xz reports trailing data after the stream as corruption; the
            # ELF is complete by then, so check the result instead of rc
            tail -c +$((off + 1)) "$VMLINUZ" | xz -dc > "$elf.tmp" 2>/dev/null || true
            # PVH entry = Xen ELF note type 0x12 (XEN_ELFNOTE_PHYS32_ENTRY)
            if readelf -h "$elf.tmp" >/dev/null 2>&1 && readelf -n "$elf.tmp" | grep -q '(0x00000012)'; then
                mv "$elf.tmp" "$elf"
            fi
        fi
        rm -f "$elf.tmp"
    fi
    if [ "${BOARD_BOOT:-pvh}" = pvh ] && [ -s "$elf" ]; then
        BOOTIMG=$elf
    else
        BOOTIMG=$VMLINUZ
    fi
}

# ---------------------------------------------------------------------------
# 1b. gpio-sim module: in-tree if the kernel has it, else build out of tree
# ---------------------------------------------------------------------------
# Sets GSIM_KO and IRQSIM_KO (empty when in-tree / built-in)
prepare_gpio_sim() {
    local cfg=$KROOT/boot/config-$KVER
    GSIM_KO=""; IRQSIM_KO=""
    if grep -q '^CONFIG_GPIO_SIM=[ym]' "$cfg"; then
        log "kernel has CONFIG_GPIO_SIM, using its own module"
        return
    fi
    local out=$WORK/gpio-sim-$KVER
    GSIM_KO=$out/gpio-sim.ko; IRQSIM_KO=$out/irq_sim.ko
    # some configs build irq_sim in for another driver; then only gpio-sim
    grep -q '^CONFIG_IRQ_SIM=y' "$cfg" && IRQSIM_KO=""
    [ -f "$GSIM_KO" ] && { [ -z "$IRQSIM_KO" ] || [ -f "$IRQSIM_KO" ]; } && return
    log "CONFIG_GPIO_SIM is not set in $KVER: building gpio-sim.ko out of tree"
    local series=${KVER%%-*}            # 6.1.0
    series=${series%.*}                 # 6.1
    local abi=${KVER%-amd64}            # 6.1.0-57
    local kb=$WORK/kbuild-$KVER
    if [ ! -d "$kb/usr/src/linux-headers-$KVER" ]; then
        mkdir -p "$kb"
        (cd "$WORK/debs" && apt-get download \
            "linux-headers-$KVER=$KDEBVER" "linux-headers-$abi-common=$KDEBVER" \
            "linux-kbuild-$series=$KDEBVER" "linux-source-$series=$KDEBVER") || return 1
        local d
        for d in "linux-headers-$KVER" "linux-headers-$abi-common" "linux-kbuild-$series"; do
            dpkg-deb -x "$WORK/debs/${d}_${KDEBVER/*:/}_"*.deb "$kb"
        done
        dpkg-deb -x "$WORK/debs/linux-source-${series}_${KDEBVER/*:/}_all.deb" "$kb/src-deb"
        # the headers Makefile includes an absolute /usr/src path: point it here
        sed -i "s#^include /usr/src/#include $kb/usr/src/#" "$kb/usr/src/linux-headers-$KVER/Makefile"
    fi
    rm -rf "$out"; mkdir -p "$out"
    local src=linux-source-$series
    tar -xJf "$kb/src-deb/usr/src/$src.tar.xz" -C "$out" --strip-components=3 \
        "$src/drivers/gpio/gpio-sim.c" "$src/drivers/gpio/gpiolib.h"
    if [ -n "$IRQSIM_KO" ]; then
        tar -xJf "$kb/src-deb/usr/src/$src.tar.xz" -C "$out" --strip-components=3 \
            "$src/kernel/irq/irq_sim.c"
        # irq_sim.c is normally built in (CONFIG_IRQ_SIM, bool).  As a module
        # it needs a licence tag, and irq_to_desc() is not exported to modules
        # in 6.1, so dispatch through the exported generic_handle_irq().
        sed -i 's/handle_simple_irq(irq_to_desc(irqnum));/generic_handle_irq(irqnum);/' "$out/irq_sim.c"
        grep -q 'generic_handle_irq(irqnum)' "$out/irq_sim.c" || die "irq_sim.c patch did not apply (source changed?)"
        printf '\nMODULE_LICENSE("GPL");\n' >> "$out/irq_sim.c"
        echo 'obj-m := irq_sim.o gpio-sim.o' > "$out/Kbuild"
    else
        echo 'obj-m := gpio-sim.o' > "$out/Kbuild"
    fi
    make -s -C "$kb/usr/src/linux-headers-$KVER" M="$out" modules
    strip --strip-debug "$out"/*.ko
    log "built $(cd "$out" && ls -1 ./*.ko | tr '\n' ' ')"
}

copy_with_libs() {   # copy_with_libs ROOT BINARY DEST_DIR
    local root=$1 bin=$2 dest=$3 lib
    install -D -m 0755 "$bin" "$root$dest/$(basename "$bin")"
    for lib in $(ldd "$bin" 2>/dev/null | grep -oE '/[^ ]+' || true); do
        [ -e "$root$lib" ] || install -D -m 0755 "$(readlink -f "$lib")" "$root$lib"
    done
}

# install_trixie_libs ROOT BINARY...: the Debian 13 libraries BINARY needs (glibc, libgpiod.so.3),
# resolved by trixie's own loader in .build-firmware/trixie/amd64, into ROOT's /lib/x86_64-linux-gnu
# and the loader into /lib64, where the binaries' PT_INTERP and the host's ldd look.
install_trixie_libs() {
    local r=$1 sysroot=$root/.build-firmware/trixie/amd64 b lib
    local lib_dir=$sysroot/usr/lib/x86_64-linux-gnu
    local loader=$lib_dir/ld-linux-x86-64.so.2
    [ -x "$loader" ] || die "no trixie loader in $sysroot (run scripts/setup)"
    shift
    install -D -m 0755 "$loader" "$r/lib64/ld-linux-x86-64.so.2"
    for b in "$@"; do
        for lib in $("$loader" --library-path "$lib_dir" --list "$b" | grep -oE "$sysroot/[^ ]+"); do
            [ "${lib##*/}" = ld-linux-x86-64.so.2 ] && continue
            install -D -m 0755 "$(readlink -f "$lib")" "$r/lib/x86_64-linux-gnu/${lib##*/}"
        done
    done
    [ -e "$r/lib/x86_64-linux-gnu/libgpiod.so.3" ] || die "the trixie trackd needs no libgpiod.so.3?"
}

stamp() { local l; while IFS= read -r l || [ -n "$l" ]; do printf '%s %s\n' "$EPOCHREALTIME" "${l%$'\r'}"; done; }

# start_qemu LOGFILE TESTNAME "extra kernel args" [extra qemu args...]
# sets QPID and T0 (host time just before exec)
start_qemu() {
    local logf=$1 test=$2 kargs=$3; shift 3
    local accel=(-accel "$ACCEL")
    : > "$logf"
    T0=$EPOCHREALTIME
    rm -f "$RUN/qemu.pid"
    qemu-system-x86_64 "${accel[@]}" -m "$MEM" -smp 1 -nodefaults -no-user-config \
        -display none -no-reboot -pidfile "$RUN/qemu.pid" \
        -kernel "$BOOTIMG" -initrd "$INITRD" \
        -append "console=ttyS0 quiet panic=-1 board.test=$test $kargs" \
        -serial mon:stdio "$@" </dev/null > >(stamp >> "$logf") 2>&1 &
    QPID=$!
}

# wait_marker LOGFILE REGEX [TIMEOUT] -> prints the host timestamp of the line
wait_marker() {
    local logf=$1 re=$2 to=${3:-$TIMEOUT} end line
    end=$(( ${EPOCHREALTIME%.*} + to ))
    while :; do
        line=$(grep -m1 -E "^[0-9.]+ .*$re" "$logf" || true)
        [ -n "$line" ] && { echo "${line%% *}"; return 0; }
        kill -0 "$QPID" 2>/dev/null || { sleep 0.2; line=$(grep -m1 -E "^[0-9.]+ .*$re" "$logf" || true);
                                         [ -n "$line" ] && { echo "${line%% *}"; return 0; }; return 1; }
        [ "${EPOCHREALTIME%.*}" -ge "$end" ] && return 1
        sleep 0.02
    done
}

# boot_ready LOG BUILD WHAT: boot BUILD and wait for the guest's "BOARD: ready" (its host time in
# READY_AT). The guest prints it once its kernel, gpio-sim, the disk and the check of the last
# boot's log are done and trackd has been started, so nothing of trackd's own work is waited for
# here. A guest that never gets there is booted once more on the same disk, its console kept as
# LOG.hung: a hang that the same disk repeats (a check of the log that never ends) fails, and so
# does a second hang in one run.
hung_boots=0
boot_ready() {
    local l=$1 build=$2 what=$3
    boot "$l" "$build"
    READY_AT=$(wait_marker "$l" 'BOARD: ready') && return 0
    stop_qemu; unboot; cp "$l" "$l.hung"; : > "$l"
    say "$what ($build) never got ready in $TIMEOUT s; booting it again. Its console ended:"
    tail -20 "$l.hung"
    hung_boots=$((hung_boots + 1))
    [ "$hung_boots" -le 1 ] || die "$what ($build) never got ready: the second hung boot of this run"
    boot "$l" "$build"
    READY_AT=$(wait_marker "$l" 'BOARD: ready') && return 0
    stop_qemu; unboot; tail -20 "$l"; die "$what ($build) never got ready, twice on the same disk"
}

stop_qemu() { kill "$QPID" 2>/dev/null || true; wait "$QPID" 2>/dev/null || true; }
fsub() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", a-b}'; }

# build_initramfs BUILD BINDIR: busybox, the modules gpio-sim and ext4 need, trackd and trackctl
# from BINDIR with their shared libraries, the sampler, /init and the guest's trackd.conf.
build_initramfs() {
    local build=$1 bin=$2 r=$RUN/initramfs-$1.d a m dep mdir=lib/modules/$KVER
    rm -rf "$r"
    mkdir -p "$r"/{bin,sbin,usr/bin,usr/local/bin,proc,sys,dev,tmp,mnt,run,etc/trackd}
    install -m 0755 /bin/busybox "$r/bin/busybox"
    for a in $(/bin/busybox --list); do [ "$a" = busybox ] || ln -sf busybox "$r/bin/$a"; done
    mkdir -p "$r/$mdir/extra"
    for m in configfs virtio_pci virtio_blk crc32c_generic ext4; do
        for dep in $(awk -v m="/${m//-/[-_]}.ko:" '$1 ~ m {print}' "$KROOT/$mdir/modules.dep" | tr -d ':'); do
            install -D -m 0644 "$KROOT/$mdir/$dep" "$r/$mdir/$dep"
        done
    done
    [ -n "$GSIM_KO" ] && install -m 0644 "$GSIM_KO" $IRQSIM_KO "$r/$mdir/extra/"
    cp "$KROOT/$mdir"/modules.{order,builtin,builtin.modinfo} "$r/$mdir/"
    depmod -b "$r" "$KVER"
    # The trixie build runs on trixie's glibc and libgpiod 2 in the guest, put where the host's
    # would be: copy_with_libs then keeps them and adds only what else a program needs.
    [ "$build" != fw-trixie ] || install_trixie_libs "$r" "$bin/trackd" "$bin/trackctl"
    copy_with_libs "$r" "$bin/trackd" /usr/local/bin
    copy_with_libs "$r" "$bin/trackctl" /usr/local/bin
    copy_with_libs "$r" "$RUN/ledsample" /usr/local/bin
    copy_with_libs "$r" /sbin/e2fsck /sbin
    # The no-fsync control runs trackd under libeatmydata (fsync and fdatasync do nothing).
    install -D -m 0644 "$(readlink -f "$EATMYDATA")" "$r$EATMYDATA"
    # Debug symbols make the archive five times larger and every boot slower under TCG.
    find "$r/usr/local/bin" "$r/lib" "$r/usr/lib" -type f \( -name '*.so*' -o -perm -u+x \) \
        -exec strip --strip-unneeded {} + 2>/dev/null || true
    install -m 0755 "$here/init.sh" "$r/init"
    install -m 0644 "$root/board/gpio-sim.conf" "$r/etc/trackd/board.conf"
    install -m 0644 "$here/fence-route.geojson" "$r/etc/trackd/fences.geojson"
    guest_config > "$r/etc/trackd/trackd.conf"
    (cd "$r" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0) > "$RUN/initramfs-$build.cpio"
    INITRD=$RUN/initramfs-$build.cpio
    say "initramfs ($build build): $(du -h "$INITRD" | cut -f1)"
}

# The guest's trackd.conf; the host replay uses the same with another device and paths.
guest_config() {
    cat <<'CONF'
[receiver]
device = /dev/serial0
# A receiver that sends 1.5 KB epochs (the boat's plotter of the fence check) needs more than
# 9600 baud; at 115200 trackd's read coalescing holds reads for 100 ms, not 833.
baud = 115200

[control]
socket = /run/trackd.sock

[state]
file = /mnt/state

[sampling]
# Dense: every fix of the paced capture is a record the power cuts can lose.
profile = arrival

[log]
directory = /mnt/log
sync-interval = 200ms
announce-syncs = yes

[board]
file = /etc/trackd/board.conf

[fences]
# One circle on the boat's course (the fence check); the other captures are far from it.
file = /etc/trackd/fences.geojson
CONF
}

# fresh_disk [BLOCK_SIZE]: a new 64 MiB ext4 image with blocks of BLOCK_SIZE bytes ($DISK_SECTOR,
# the sector size the guest is told, unless said; mke2fs would pick 1 KiB for a disk this small).
DISK_SECTOR=${DISK_SECTOR:-4096}
fresh_disk() {
    DISK=$RUN/disk.img
    rm -f "$DISK"; truncate -s 64M "$DISK"
    mkfs.ext4 -F -q -L tracklog -b "${1:-$DISK_SECTOR}" "$DISK"
}

EATMYDATA=/usr/lib/x86_64-linux-gnu/libeatmydata.so.1

# start_volatile_disk NAME: nbdkit serving $DISK on a unix socket through volatile-disk.py (a
# disk with a volatile write cache that cuts the power itself once $RUN/arm exists); NAME names
# the boot in its cuts.jsonl lines. The exitlast filter ends nbdkit when qemu disconnects.
start_volatile_disk() {
    local sock=$RUN/disk.sock i
    rm -f "$sock" "$RUN/arm"
    nbdkit -f --filter=exitlast -U "$sock" python "$here/volatile-disk.py" \
        file="$DISK" run="$RUN" seed="$SEED" boot="$1" sector="$DISK_SECTOR" 2>> "$RUN/nbdkit.log" &
    NBD_PID=$!
    for ((i = 0; i < 200; i++)); do [ -S "$sock" ] && return 0; sleep 0.05; done
    die "nbdkit did not start serving the volatile disk (its messages: .build/board-test/nbdkit.log)"
}
# stop_volatile_disk: waits (at most 10 s) for nbdkit to write out or lose the cache as the
# disconnect calls for, then ends it.
stop_volatile_disk() {
    [ -n "${NBD_PID:-}" ] || return 0
    local i
    for ((i = 0; i < 200; i++)); do kill -0 "$NBD_PID" 2>/dev/null || break; sleep 0.05; done
    kill "$NBD_PID" 2>/dev/null || true
    wait "$NBD_PID" 2>/dev/null || true
    NBD_PID=
    rm -f "$RUN/arm"
}

# boot LOGFILE BUILD: qemu with the GPS UART (ttyS1) and the command UART (ttyS2) on fifos; the
# disk is $DISK itself, or, with VOLATILE_DISK=yes, $DISK behind volatile-disk.py (qemu's
# writeback cache mode tells the guest that the disk has a write cache, so ext4 flushes it).
boot() {
    local logf=$1 build=$2 f
    for f in gps cmd; do
        rm -f "$RUN/$f.in" "$RUN/$f.out"; mkfifo "$RUN/$f.in" "$RUN/$f.out"
    done
    # drain what the guest sends back so it never blocks
    cat "$RUN/gps.out" > /dev/null & DRAIN1=$!
    cat "$RUN/cmd.out" > /dev/null & DRAIN2=$!
    local drive="file=$DISK,if=none,id=disk0,format=raw"
    if [ "${VOLATILE_DISK:-no}" = yes ]; then
        start_volatile_disk "$(basename "$logf" .log)"
        drive="file=nbd+unix:///?socket=$RUN/disk.sock,if=none,id=disk0,format=raw,cache=writeback"
    fi
    start_qemu "$logf" "$build" "board.bin=$build ${BOOT_KARGS:-}" -serial "pipe:$RUN/gps" -serial "pipe:$RUN/cmd" \
        -drive "$drive" \
        -device "virtio-blk-pci,drive=disk0,logical_block_size=$DISK_SECTOR,physical_block_size=$DISK_SECTOR"
    exec {CMD}>"$RUN/cmd.in"
}
# guest COMMAND: one shell line run by the guest's command loop
guest() { printf '%s\n' "$*" >&"$CMD"; }
unboot() {
    exec {CMD}>&-
    kill "$DRAIN1" "$DRAIN2" 2>/dev/null || true
    wait "$DRAIN1" "$DRAIN2" 2>/dev/null || true
    stop_volatile_disk
}
