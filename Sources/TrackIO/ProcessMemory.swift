import CLinux

/// How the daemon keeps what it allocates once from staying resident after it is freed.
///
/// Loading a fences file parses it into a tree of nodes that grows by doubling (448 KiB of
/// nodes for 12 fences in 23 KB of GeoJSON) and is freed once the fences are built. On glibc's
/// heap that memory stayed resident, and the buffers allocated after it (control replies, gpsd
/// clients' output, the log's chunk) took its touched pages, resident whether they were used or
/// not: about 300 KiB of the aarch64 daemon's 2 MiB.
public enum ProcessMemory {
    /// Allocations of 16 KiB and more get mappings of their own: a buffer is resident only
    /// where it is written, and a freed parse array goes back to the kernel at once. The
    /// daemon calls this first, before it reads its configuration.
    public static func mapLargeAllocations() { clinux_map_allocations_from(16_384) }

    /// Gives the heap's free memory back to the kernel (glibc's `malloc_trim`) and takes the
    /// code pages start-up touched out of resident memory (`releaseCodePages`); the daemon
    /// calls it once started and after each reload.
    public static func releaseFree() {
        clinux_release_free_memory()
        releaseCodePages()
    }
}
