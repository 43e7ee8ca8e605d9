#!/bin/sh
# The guest's /init for scripts/board-test (busybox sh). Boots into: gpio-sim chip
# "trackd-sim", the track log's ext4 disk on /mnt, the last boot's log verified, then trackd
# (board.bin=host|fw) with the LED sampler, and a command loop on ttyS2 for the host.
export PATH=/bin:/sbin:/usr/bin:/usr/local/bin
mount -t devtmpfs devtmpfs /dev
exec </dev/console >/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mkdir -p /run /tmp /mnt
# Hold the GPS UART open from the start: a tty that nobody holds open drops what arrives.
exec 3</dev/ttyS1
stty -F /dev/ttyS1 9600 raw -echo
ln -sf ttyS1 /dev/serial0
up() { cut -d' ' -f1 /proc/uptime; }
for a in $(cat /proc/cmdline); do case $a in board.*=*) k=${a#board.}; eval "BOARD_${k%%=*}=\"${k#*=}\"";; esac; done
echo "BOARD: init uptime=$(up)"
# Which glibc and libgpiod trackd runs on here (the host checks them for each build).
LDSO=/lib64/ld-linux-x86-64.so.2
echo "BOARD: libs $($LDSO --version | head -n 1) / trackd needs $($LDSO --list /usr/local/bin/trackd | grep -o 'libgpiod[.]so[.][0-9]*')"

modprobe configfs
mount -t configfs configfs /sys/kernel/config
modprobe gpio-sim || echo "BOARD: ERROR modprobe gpio-sim"
G=/sys/kernel/config/gpio-sim/trackd
mkdir $G $G/gpio-bank0
echo 8 > $G/gpio-bank0/num_lines
echo trackd-sim > $G/gpio-bank0/label
i=0; for n in led-fix led-status led-fence led-log button in-use; do
    mkdir $G/gpio-bank0/line$i; echo $n > $G/gpio-bank0/line$i/name; i=$((i+1))
done
echo 1 > $G/live
SIM=/sys/devices/platform/$(cat $G/dev_name)/$(cat $G/gpio-bank0/chip_name)
# Button and in-use are active low: released / not in use.
echo pull-up > $SIM/sim_gpio4/pull
echo pull-up > $SIM/sim_gpio5/pull
press() { echo pull-down > $SIM/sim_gpio4/pull; sleep "$1"; echo pull-up > $SIM/sim_gpio4/pull; echo "BOARD: pressed $1"; }

modprobe virtio_pci; modprobe virtio_blk; modprobe crc32c_generic; modprobe ext4
timeout 10 sh -c 'until [ -b /dev/vda ]; do sleep 0.05; done'
# board.control: a writer the power cuts must catch losing synced fixes. nobarrier: ext4 sends
# the disk no flushes; nofsync: trackd's fsync and fdatasync do nothing (libeatmydata).
# board.errors=remount-ro: ext4 goes read-only at an I/O error (as Debian mounts its root);
# board.fsck=yes: e2fsck -p first, as a boot after such an error does.
MOPT=
[ "$BOARD_control" = nobarrier ] && MOPT="-o barrier=0"
# The storage check's I/O errors make the kernel log every failed write; on the serial console
# that floods the line trackd's own messages and the host's commands share, so keep them in dmesg.
[ -n "$BOARD_errors" ] && { MOPT="-o errors=$BOARD_errors"; dmesg -n 1; }
if [ "$BOARD_fsck" = yes ]; then
    e2fsck -p /dev/vda > /tmp/fsck.txt 2>&1; echo "BOARD: fsck rc=$? $(tr '\n' ' ' < /tmp/fsck.txt)"
fi
mount -t ext4 $MOPT /dev/vda /mnt || echo "BOARD: ERROR mount"
echo "BOARD: mounted uptime=$(up) disk write cache: $(cat /sys/block/vda/queue/write_cache) control=${BOARD_control:-none}"
if [ -d /mnt/log ]; then
    trackctl log verify --log /mnt/log > /tmp/verify.txt; rc=$?
    sed 's/^/BOARD: /' /tmp/verify.txt
    echo "BOARD: verify-rc=$rc uptime=$(up)"
    # The last fix the previous boot announced as durable (from the host), looked up by its time.
    if [ -n "$BOARD_lastfix" ]; then
        n=$(trackctl log export --format csv --log /mnt/log 2>/dev/null | grep -c "^$BOARD_lastfix,")
        echo "BOARD: last-fix $BOARD_lastfix found=$n"
    fi
fi

# board.minperiod: record fixes this often at most (the storage check's dense log).
[ -n "$BOARD_minperiod" ] && sed -i "/^profile = /a min-period = $BOARD_minperiod" /etc/trackd/trackd.conf
ledsample $SIM led-fix led-status led-fence led-log button in-use &
if [ "$BOARD_control" = nofsync ]; then
    LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libeatmydata.so.1 trackd --config /etc/trackd/trackd.conf &
else
    trackd --config /etc/trackd/trackd.conf &
fi
echo "BOARD: trackd-started bin=$BOARD_bin uptime=$(up)"
export TRACKD_SOCKET=/run/trackd.sock
if [ ! -f /mnt/state ]; then
    timeout 10 sh -c 'until [ -S /run/trackd.sock ]; do sleep 0.05; done'
    trackctl privacy allow always | sed 's/^/BOARD: /'
fi
echo "BOARD: ready"
# Commands from the host, one shell line each, on the third UART.
exec 4</dev/ttyS2
stty -F /dev/ttyS2 -echo
while read -r line <&4; do
    eval "$line"
done
