import TrackCore

/// The writer on a full or read-only file system, and after a failed chunk: nothing synced is
/// ever deleted for it, what cannot be written is counted, and logging resumes by itself.
extension LogWriter {
    /// Free space a full file system must have again before the writer tries: 64 KiB, room for
    /// a keyframe, the segment's metadata and more than a few chunks, so it does not try (and
    /// fail) at every sync while another program hovers at the brim.
    public static var resumeFreeBytes: Int { 64 << 10 }

    /// Whether a blocked log should try to write now: a full file system once it has
    /// `resumeFreeBytes` free again (statvfs; allocates nothing); a read-only one always (an
    /// open there fails at once and creates nothing).
    mutating func mayRetryBlocked() -> Bool {
        switch status.blocked {
        case .noSpace:
            let free = (try? files.availableBytes(in: settings.directory)) ?? 0
            return free >= Self.resumeFreeBytes
        case .readOnly, nil:
            return true
        }
    }

    /// Gives up the held records, counting them (and their fixes, with the first and last
    /// fix time for the gap record), and starts the next chunk with `sequence`.
    mutating func drop(sequence: UInt32) {
        for record in pending {
            guard case .fix(let fix) = record else { continue }
            status.droppedFixCount += 1
            if unwrittenFrom == nil { unwrittenFrom = fix.time }
            unwrittenTo = fix.time
        }
        status.droppedRecordCount += pending.count
        pending.removeAll(keepingCapacity: true)
        status.pendingRecordCount = 0
        encoder.reset(sequence: sequence)
    }

    /// Before the first chunk after an outage: a gap record from the last fix written (or the
    /// first one lost) to the first one held, so readers and exports see the hole. The held
    /// records are encoded again behind it, as the keyframe of a new segment.
    mutating func prependGapAfterOutage(sequence: UInt32) {
        guard let lostFrom = unwrittenFrom else { return }
        let from = status.lastDurableFixTime ?? lostFrom
        var to = unwrittenTo ?? lostFrom
        for record in pending {
            if case .fix(let fix) = record {
                to = fix.time
                break
            }
        }
        guard from < to else { return }
        pending.insert(.gap(from: from, to: to), at: 0)
        reencode(sequence: sequence)
    }

    /// The first sync after an outage worked: the log is no longer blocked (a suspect flash
    /// keeps the storage flag raised).
    mutating func unblock() {
        status.blocked = nil
        status.blockedSince = nil
        status.storageError = status.flashSuspect
        unwrittenFrom = nil
        unwrittenTo = nil
    }

    /// Cuts segment `number` back to the bytes already synced, so a chunk whose write or sync
    /// failed (perhaps half written) cannot be read as data; a segment left empty is removed.
    /// `failedChunkRemoved` says whether that worked (on a read-only file system it cannot).
    mutating func removeFailedChunk(_ number: UInt64, now: MonotonicTime) {
        failedChunkRemoved = false
        guard let last = segments.indices.last, segments[last].number == number else { return }
        let durable = segments[last].byteCount
        do throws(Errno) {
            if durable == 0 {
                if let current = handle { try? files.close(current) }
                handle = nil
                try files.remove(path(number))
                segments.removeLast()
                status.segmentCount = segments.count
            } else {
                try files.truncate(path(number), to: durable)
            }
            failedChunkRemoved = true
        } catch {
            // Left for the reader: a torn chunk at a segment's end costs nothing synced.
        }
    }
}
