package dev.omcp.core.analysis.blast;

/**
 * Limits of a blast-radius walk.
 *
 * @param maxNodes the most nodes listed (targets included); beyond it the result is marked
 *     truncated and says how many more were reachable
 * @param maxHops the deepest hop distance followed
 */
public record BlastRadiusOptions(int maxNodes, int maxHops) {
    /** The default cap on listed nodes. */
    public static final int DEFAULT_MAX_NODES = 200;
    /** The default depth. */
    public static final int DEFAULT_MAX_HOPS = 10;
    /** The hard upper bound a caller may ask for. */
    public static final int LIMIT_MAX_NODES = 5000;

    public BlastRadiusOptions {
        if (maxNodes < 1 || maxNodes > LIMIT_MAX_NODES) {
            throw new IllegalArgumentException("maxNodes must be between 1 and " + LIMIT_MAX_NODES + ", got " + maxNodes);
        }
        if (maxHops < 1 || maxHops > 100) {
            throw new IllegalArgumentException("maxHops must be between 1 and 100, got " + maxHops);
        }
    }

    public static BlastRadiusOptions defaults() {
        return new BlastRadiusOptions(DEFAULT_MAX_NODES, DEFAULT_MAX_HOPS);
    }
}
