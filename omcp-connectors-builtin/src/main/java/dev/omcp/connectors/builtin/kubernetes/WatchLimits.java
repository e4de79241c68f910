package dev.omcp.connectors.builtin.kubernetes;

/**
 * How much of a cluster the watchers of one source keep in memory. Past either bound a watcher
 * refuses further objects and says so in the source's health, so a broken or hostile API server
 * streaming endless new objects cannot exhaust the gateway's heap.
 *
 * @param resourcesPerKind the most objects of one kind
 * @param bytesPerSource the most estimated heap bytes ({@link Resource#footprint()}) of all kinds together
 */
record WatchLimits(int resourcesPerKind, long bytesPerSource) {
    /**
     * 100,000 objects of one kind is two thirds of Kubernetes' largest supported cluster (150,000
     * pods); lists are read in pages ({@link KindWatcher#PAGE_SIZE}), so no one answer bounds a kind
     * and this does. 64 MiB of estimated heap (about 2 KiB a typical pod, so some 30,000 objects)
     * keeps a source within the launcher's default 256 MiB heap, next to the one page being parsed.
     */
    static final WatchLimits DEFAULT = new WatchLimits(100_000, 64L << 20);

    WatchLimits {
        if (resourcesPerKind < 1) {
            throw new IllegalArgumentException("resourcesPerKind must be at least 1, was " + resourcesPerKind);
        }
        if (bytesPerSource < 1) {
            throw new IllegalArgumentException("bytesPerSource must be at least 1, was " + bytesPerSource);
        }
    }
}
