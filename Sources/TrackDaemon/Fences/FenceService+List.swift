import TrackCore
import TrackIO

extension FenceService {
    /// `fence list`: one line per fence, `ID STATE since TIME` (`since start` before any fix
    /// decided it), as many as the reply holds, then how many more there are.
    func writeList(to reply: inout ReplyBuffer) {
        // Every id comes from the fence image: none of its pages need stay resident after.
        defer { monitor.fences.image.storage.releasePages() }
        var line = TextBuffer()
        line.append("ok")
        let set = monitor.fences
        for index in 0..<set.count {
            // Leave room for the last line.
            guard reply.count + line.count < ControlServer.replyCapacity - 200 else {
                line.append("… and ")
                line.append(integer: Int64(set.count - index))
                line.append(" more fences")
                emit(&line, &reply)
                return
            }
            emit(&line, &reply)
            line.append(string: set.id(of: index))
            line.append(" ")
            let track = monitor.track(index)
            line.append(track.state.name)
            if let since = track.sinceMilliseconds {
                line.append(" since ")
                UTCTime(millisecondsSinceEpoch: since).write(to: &line)
            } else {
                line.append(" since start")
            }
        }
        if set.count == 0 {
            line.append("no fences (")
            line.append(string: file)
            line.append(" is missing or empty)")
        }
        emit(&line, &reply)
    }
}
