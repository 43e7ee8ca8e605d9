# An nbdkit plugin (python, API 2) for scripts/board-test: a disk with a volatile write cache
# that loses power on its own.
#
#   nbdkit -U SOCKET python volatile-disk.py file=DISK run=DIR seed=N boot=NAME [sector=BYTES]
#
# Every write that is not yet flushed waits in a cache of sectors (4096 bytes unless sector=
# says otherwise; the guest is told the same size, and ext4 is made with blocks of it); reads see the cache
# (as a disk's own reads do). A flush makes the cache durable (written to DISK and fsync'ed); a
# write with FUA goes to DISK at once and replaces what the cache held for its sectors.
#
# Once DIR/arm exists the disk picks k in 0..8 and cuts the power at the k-th write after the
# arming or after the last flush, so cuts land in the middle of ext4's and trackd's writes; k = 0
# cuts at the next flush (before it is done), or at the 9th write when no flush comes (a file
# system mounted without barriers sends none). A flush that comes after fewer than k writes draws
# k again. At the cut the cache is lost in one of four ways, chosen at random:
#
#   all      every unflushed write is lost
#   subset   each cached sector (its latest content) survives or not, at random
#   prefix   the writes reached the flash in the order they came, up to one that is torn: only
#            its first sectors got there
#   torn     a random subset of the writes survives, one multi-sector write among them torn at a
#            sector boundary
#
# A sector itself is never torn inside (part new, part old): disks write a sector whole or not at
# all, and ext4 relies on that for its metadata blocks. With 512-byte sectors under 1 KiB blocks
# a torn block is possible, and ext4 does not mount after one ("error loading journal", "invalid
# superblock checksum": the journal superblock and the superblock are written in place, and
# virtio-blk has no FUA, so they wait in the cache like any write). So the disk's sector is the
# file system's block, 4 KiB, as on a 4Kn disk or a card with 4 KiB pages.
#
# While DIR/eio exists every write and flush fails with EIO (a card that stopped writing; reads
# still work): the storage check's I/O error, after which ext4 goes read-only.
#
# Then the disk SIGKILLs qemu (DIR/qemu.pid), fails every request after that, and appends one
# JSON line to DIR/cuts.jsonl saying what it did. When qemu goes away while armed without a cut
# by the disk (the host cut the power itself), the cache is lost whole and the line says so; when
# it goes away unarmed (a clean poweroff) the cache is written out, as a disk does at shutdown.
import builtins
import errno
import json
import os
import random
import signal

import nbdkit

API_VERSION = 2
SECTOR = 4096
MAX_K = 8
MODES = ("all", "subset", "prefix", "torn")

settings = {"file": None, "run": None, "seed": "0", "boot": "?", "sector": "4096"}


def config(key, value):
    if key not in settings:
        raise RuntimeError("volatile-disk: unknown parameter %r (file, run, seed, boot, sector)" % key)
    settings[key] = value


def config_complete():
    for key in ("file", "run"):
        if not settings[key]:
            raise RuntimeError("volatile-disk: %s= is required" % key)
    global SECTOR
    SECTOR = int(settings["sector"])
    if SECTOR < 512 or SECTOR & (SECTOR - 1):
        raise RuntimeError("volatile-disk: sector=%s is not a power of two of at least 512" % settings["sector"])


def thread_model():
    return nbdkit.THREAD_MODEL_SERIALIZE_ALL_REQUESTS


class Disk:
    def __init__(self):
        self.fd = os.open(settings["file"], os.O_RDWR)
        self.size = os.fstat(self.fd).st_size
        self.rng = random.Random("%s/%s" % (settings["seed"], settings["boot"]))
        # dirty: sector -> its latest cached content. writes: the unflushed writes in order, each
        # a list of (sector, content); a FUA write removes its sectors from the earlier ones.
        self.dirty = {}
        self.writes = []
        self.armed = False
        self.k = 0
        self.count = 0
        self.cut = False
        self.flushes = 0
        self.total_writes = 0
        self.failed = 0


def open(readonly):
    return Disk()


def get_size(h):
    return h.size


def can_write(h):
    return True


def can_flush(h):
    return True


def can_fua(h):
    return nbdkit.FUA_NATIVE


def can_multi_conn(h):
    return False


def dead(h):
    if h.cut:
        nbdkit.set_error(errno.EIO)
        raise RuntimeError("volatile-disk: the power is off")


def failing(h):
    if os.path.exists(os.path.join(settings["run"], "eio")):
        h.failed += 1
        nbdkit.set_error(errno.EIO)
        raise RuntimeError("volatile-disk: I/O error (the eio file is there)")


def pread(h, buf, offset, flags):
    dead(h)
    n = len(buf)
    data = bytearray(os.pread(h.fd, n, offset))
    if len(data) != n:
        raise RuntimeError("volatile-disk: short read at %d" % offset)
    first, last = offset // SECTOR, (offset + n - 1) // SECTOR
    if h.dirty:
        for s in range(first, last + 1):
            c = h.dirty.get(s)
            if c is None:
                continue
            lo, hi = max(s * SECTOR, offset), min((s + 1) * SECTOR, offset + n)
            data[lo - offset:hi - offset] = c[lo - s * SECTOR:hi - s * SECTOR]
    buf[:] = data


def sectors_of(h, buf, offset):
    """The write as whole sectors: a partial sector is merged with what the disk reads there."""
    n = len(buf)
    first, last = offset // SECTOR, (offset + n - 1) // SECTOR
    out = []
    for s in range(first, last + 1):
        lo, hi = max(s * SECTOR, offset), min((s + 1) * SECTOR, offset + n)
        if lo == s * SECTOR and hi == (s + 1) * SECTOR:
            out.append((s, bytes(buf[lo - offset:hi - offset])))
        else:
            old = bytearray(h.dirty.get(s) or os.pread(h.fd, SECTOR, s * SECTOR))
            old[lo - s * SECTOR:hi - s * SECTOR] = buf[lo - offset:hi - offset]
            out.append((s, bytes(old)))
    return out


def arm_check(h):
    if not h.armed and os.path.exists(os.path.join(settings["run"], "arm")):
        h.armed = True
        h.k = h.rng.randint(0, MAX_K)
        h.count = 0


def pwrite(h, buf, offset, flags):
    dead(h)
    failing(h)
    arm_check(h)
    secs = sectors_of(h, buf, offset)
    h.total_writes += 1
    if h.armed:
        h.count += 1
        if (h.k > 0 and h.count == h.k) or (h.k == 0 and h.count > MAX_K):
            # The write that the power cut meets was never acknowledged: it is in the cache.
            remember(h, secs)
            power_cut(h, "write", fua=bool(flags & nbdkit.FLAG_FUA))
    if flags & nbdkit.FLAG_FUA:
        persist(h, secs)
        forget(h, {s for s, _ in secs})
        os.fdatasync(h.fd)
    else:
        remember(h, secs)


def remember(h, secs):
    h.writes.append(secs)
    for s, c in secs:
        h.dirty[s] = c


def forget(h, sectors):
    for s in sectors:
        h.dirty.pop(s, None)
    h.writes = [[(s, c) for s, c in w if s not in sectors] for w in h.writes]
    h.writes = [w for w in h.writes if w]


def persist(h, secs):
    for s, c in secs:
        os.pwrite(h.fd, c, s * SECTOR)


def flush(h, flags):
    dead(h)
    failing(h)
    arm_check(h)
    if h.armed:
        if h.k == 0:
            power_cut(h, "flush")
        if 0 < h.count < h.k:
            h.k = h.rng.randint(0, MAX_K)
        h.count = 0
    persist(h, sorted(h.dirty.items()))
    os.fdatasync(h.fd)
    h.dirty.clear()
    h.writes = []
    h.flushes += 1


def power_cut(h, at, fua=False, by="disk"):
    mode = h.rng.choice(MODES) if by == "disk" else "all"
    kept, torn = lose_cache(h, mode)
    os.fdatasync(h.fd)
    report = {
        "boot": settings["boot"], "by": by, "at": at, "k": h.k, "fua": fua, "mode": mode,
        "writes": len(h.writes), "sectors": len(h.dirty), "kept": kept, "torn": torn,
        "flushes": h.flushes, "total_writes": h.total_writes,
    }
    h.cut = True
    h.dirty.clear()
    h.writes = []
    with builtins.open(os.path.join(settings["run"], "cuts.jsonl"), "a") as f:
        f.write(json.dumps(report) + "\n")
    if by == "disk":
        try:
            with builtins.open(os.path.join(settings["run"], "qemu.pid")) as f:
                os.kill(int(f.read().strip()), signal.SIGKILL)
        except (OSError, ValueError) as e:
            nbdkit.debug("volatile-disk: could not kill qemu: %s" % e)
        dead(h)


def lose_cache(h, mode):
    """Writes to the file what survives of the cache; returns (sectors kept, writes torn)."""
    kept = torn = 0
    if mode == "subset":
        for s, c in sorted(h.dirty.items()):
            if h.rng.random() < 0.5:
                os.pwrite(h.fd, c, s * SECTOR)
                kept += 1
    elif mode == "prefix" and h.writes:
        j = h.rng.randrange(len(h.writes))
        for w in h.writes[:j]:
            persist(h, w)
            kept += len(w)
        w = h.writes[j]
        if len(w) > 1:
            m = h.rng.randrange(1, len(w))
            persist(h, w[:m])
            kept += m
            torn = 1
    elif mode == "torn" and h.writes:
        multi = [i for i, w in enumerate(h.writes) if len(w) > 1]
        tear = h.rng.choice(multi) if multi else -1
        for i, w in enumerate(h.writes):
            if i == tear:
                m = h.rng.randrange(1, len(w))
                persist(h, w[:m])
                kept += m
                torn = 1
            elif h.rng.random() < 0.5:
                persist(h, w)
                kept += len(w)
    return kept, torn


def close(h):
    if not h.cut:
        if h.armed:
            # qemu went away while armed, and not by this disk: the host cut the power.
            power_cut(h, "host", by="host")
        else:
            persist(h, sorted(h.dirty.items()))
            os.fdatasync(h.fd)
    os.close(h.fd)
