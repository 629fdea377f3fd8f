import CMalloc

/// How glibc's allocator is told to give memory back. By default it raises its threshold for
/// mapping a block on its own each time such a block is freed (up to 32 MiB), so after one
/// burst of large buffers (a trail export reads files of megabytes) later ones come from the
/// heap and stay resident when freed: the daemon's RSS stayed 18 MB higher after one export
/// (issue 30, item 8). A fixed threshold keeps large blocks mapped on their own and unmapped
/// when freed; small ones, all the steady state uses, are unaffected.
public enum HeapPolicy {
    /// Blocks of this many bytes or more are mapped on their own: glibc's default threshold,
    /// fixed. Also how much free memory at the top of the heap is kept rather than trimmed.
    public static let largeBlockBytes: Int32 = 128 * 1024

    /// Applies the policy to the process (`mallopt(3)`); true when glibc took both settings.
    @discardableResult
    public static func returnLargeBlocks() -> Bool {
        mallopt(M_MMAP_THRESHOLD, largeBlockBytes) == 1 && mallopt(M_TRIM_THRESHOLD, largeBlockBytes) == 1
    }

    /// Gives the free memory of every arena back to the system (`malloc_trim(3)`), after a
    /// burst of allocations the steady state does not need: the small blocks of a burst (the
    /// points of an export's pages) are spread over the arenas of the threads that served it,
    /// and no threshold returns those.
    public static func releaseFreeMemory() { _ = malloc_trim(0) }
}
