import TrackCore

extension LogWriter {
    /// Lists the segments, reads the last one with a valid chunk to continue its sequence, and
    /// cuts a torn tail: the bytes from the first damaged chunk on, unless a good keyframe
    /// follows the damage (then the file is left for readers and a new segment is started).
    mutating func recover(now: MonotonicTime) throws(LogStoreError) {
        let numbers = try LogReader<Files>.segmentNumbers(in: settings.directory, files: &files)
        segments.reserveCapacity(numbers.count + settings.quotaBytes / settings.segmentByteLimit + 16)
        for number in numbers {
            let size = (try? files.byteCount(of: path(number))) ?? 0
            segments.append(LogStoredSegment(number: number, byteCount: size))
            status.byteCount += size
        }
        status.segmentCount = segments.count
        lastNumber = numbers.last ?? 0
        rotateBeforeNext = true
        var index = numbers.count - 1
        while index >= 0 {
            let number = numbers[index]
            let bytes: [UInt8]
            do throws(Errno) {
                bytes = try files.readAll(path(number))
            } catch {
                failed(path(number), .read, error, now: now)
                index -= 1
                continue
            }
            var cursor = LogSegmentCursor(bytes: bytes, name: LogSegmentName.name(number), number: number)
            var ignored: UInt32?
            while cursor.next(lastSequence: &ignored) != nil {}
            if index == numbers.count - 1 { cutTail(number, cursor, now: now) }
            if let last = cursor.info.lastSequence {
                encoder.reset(sequence: last &+ 1)
                return
            }
            index -= 1
        }
    }

    private mutating func cutTail(_ number: UInt64, _ cursor: LogSegmentCursor, now: MonotonicTime) {
        guard !cursor.keyframeAfterProblem else { return }
        let end = cursor.validEnd
        if end == 0 {
            // Nothing valid in it (a segment whose first chunk was torn): removed, not kept empty.
            do throws(Errno) {
                try files.remove(path(number))
            } catch {
                failed(path(number), .remove, error, now: now)
                return
            }
            status.cutByteCount = cursor.bytes.count
            status.byteCount -= cursor.bytes.count
            segments.removeLast()
            status.segmentCount = segments.count
            return
        }
        if end < cursor.bytes.count {
            do throws(Errno) {
                try files.truncate(path(number), to: end)
            } catch {
                failed(path(number), .truncate, error, now: now)
                return
            }
            status.cutByteCount = cursor.bytes.count - end
            status.byteCount -= status.cutByteCount
            if let last = segments.indices.last { segments[last].byteCount = end }
        }
        guard end < settings.segmentByteLimit else { return }
        do throws(Errno) {
            handle = try files.openForAppend(path(number))
        } catch {
            failed(path(number), .open, error, now: now)
            return
        }
        status.currentSegment = number
        segmentOpened = now
        rotateBeforeNext = false
        resumeParity(cursor.bytes, from: cursor.parityEnd, to: end)
    }

    /// Deletes the oldest segments the quota needs gone, then creates the next segment and
    /// makes its name durable. False (error recorded) on failure.
    mutating func openSegment(now: MonotonicTime) -> Bool {
        while status.byteCount + settings.segmentByteLimit > settings.quotaBytes, deleteOldest(keeping: 1) {}
        guard lastNumber < LogSegmentName.maximumNumber else {
            status.storageError = true
            status.flashSuspect = true
            status.lastError = .segmentNumbersExhausted(path: settings.directory)
            failedChunkRemoved = true
            return false
        }
        let number = lastNumber + 1
        var step = LogStoreStep.open
        do throws(Errno) {
            let opened = try files.openForAppend(segmentPath(number))
            lastNumber = number
            handle = opened
            segments.append(LogStoredSegment(number: number, byteCount: 0))
            status.segmentCount = segments.count
            status.currentSegment = number
            step = .syncDirectory
            try files.syncDirectory(settings.directory)
        } catch {
            failed(path(number), step, error, now: now)
            // A segment created but not made durable holds nothing yet: not left behind. One
            // that could not be created has nothing of the chunk either.
            if step == .syncDirectory { removeFailedChunk(number, now: now) } else { failedChunkRemoved = true }
            closeSegment()
            return false
        }
        segmentOpened = now
        rotateBeforeNext = false
        return true
    }

    /// Closes the current segment (an error from close is ignored: the data was synced or
    /// its failure already recorded).
    mutating func closeSegment() {
        if let current = handle { try? files.close(current) }
        handle = nil
        status.currentSegment = nil
    }

    /// Deletes the oldest segment unless only `keeping` are left or it is the one open; true
    /// when one was deleted.
    @discardableResult
    mutating func deleteOldest(keeping: Int) -> Bool {
        guard segments.count > keeping, let oldest = segments.first,
              oldest.number != status.currentSegment else { return false }
        do throws(Errno) {
            try files.remove(segmentPath(oldest.number))
        } catch {
            status.lastError = .segmentFailed(path: path(oldest.number), step: .remove, error)
            return false
        }
        segments.removeFirst()
        status.byteCount -= oldest.byteCount
        status.segmentCount = segments.count
        status.deletedSegmentCount += 1
        status.lastDeletedSegment = oldest.number
        return true
    }

    func path(_ number: UInt64) -> String {
        LogSegmentName.path(settings.directory, LogSegmentName.name(number))
    }

    /// The same path as `path(number)`, written into `pathScratch`'s reserved storage: no
    /// allocation while the copy returned last time is gone (a file layer that keeps it, as
    /// the test fakes do, costs one copy at the next call).
    mutating func segmentPath(_ number: UInt64) -> String {
        pathScratch.removeAll(keepingCapacity: true)
        pathScratch.append(settings.directory)
        if !settings.directory.bytesHaveSuffix("/") { pathScratch.append("/") }
        var divisor: UInt64 = 1_000_000_000
        while divisor > 0 {
            pathScratch.unicodeScalars.append(Unicode.Scalar(UInt8(ascii: "0") + UInt8(number / divisor % 10)))
            divisor /= 10
        }
        pathScratch.append(LogSegmentName.suffix)
        return pathScratch
    }
}
