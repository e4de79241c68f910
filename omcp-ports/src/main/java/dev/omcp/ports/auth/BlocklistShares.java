package dev.omcp.ports.auth;

/**
 * How the live entries of the session blocklist are shared out, so that no tenant can take what the
 * others need (docs/access-control.md, "Revocation"). Every tenant's revocations and every logout
 * go to one list of {@code capacity} entries; without shares, an admin bound to one tenant could
 * fill it with its own tenant's entries, and then no other tenant could revoke a stolen session and
 * nobody could log out (507). So:
 *
 * <ul>
 *   <li>a logout may fill the list to its last entry: ending one's own session never depends on what
 *       admins did, and a logout that cannot be recorded is still reported as not ended;
 *   <li>a revocation by an admin without a tenant may fill all but the last {@link #reserve()} entries,
 *       which are kept for logouts;
 *   <li>a revocation by an admin bound to a tenant may fill all but the last two reserves (kept for
 *       logouts and for admins without a tenant), and only while its tenant holds fewer than
 *       {@code perTenant} entries.
 * </ul>
 *
 * <p>A tenant's entries are all the entries of its tenant, its users' logouts included: those are
 * never refused for the share, but they are the tenant's load on the list all the same. A revocation
 * of a target already in the list takes no new entry and is never refused.
 *
 * @param capacity live entries the list holds at most
 * @param perTenant live entries one tenant may hold before revocations by its admins are refused;
 *     from 1 to {@link #maxPerTenant(int)}
 */
public record BlocklistShares(int capacity, int perTenant) {
    /** Live entries the blocklist holds at most. */
    public static final int DEFAULT_CAPACITY = 100_000;

    public BlocklistShares {
        if (capacity < 1) {
            throw new IllegalArgumentException("the blocklist's capacity must be at least 1, got " + capacity);
        }
        if (perTenant < 1 || perTenant > maxPerTenant(capacity)) {
            throw new IllegalArgumentException("a tenant's share of the session blocklist must be 1-" + maxPerTenant(capacity)
                    + " live entries, got " + perTenant);
        }
    }

    /** A list of {@code capacity} entries, a tenth of it per tenant (at least one entry). */
    public static BlocklistShares of(int capacity) {
        return new BlocklistShares(capacity, Math.max(1, capacity / 10));
    }

    /** The largest share one tenant may have: everything revocations by tenants' admins may fill. */
    public static int maxPerTenant(int capacity) {
        return capacity - 2 * reserve(capacity);
    }

    private static int reserve(int capacity) {
        return capacity / 10;
    }

    /** Entries kept for logouts alone, and as many again kept from tenants' admins for admins without a tenant. */
    public int reserve() {
        return reserve(capacity);
    }

    /**
     * The most live entries the list may hold when an admin of {@code tenant} (empty string: an admin
     * without a tenant) revokes a new target.
     */
    public int adminLimit(String tenant) {
        return capacity - (tenant.isEmpty() ? 1 : 2) * reserve();
    }

    /**
     * The refusal of an admin's revocation because the list holds {@code held} live entries, at or
     * past {@link #adminLimit}: what is kept for whom, and what to do.
     *
     * @param list how the list is named in the message ("session blocklist", "shared session blocklist")
     */
    public BlocklistFullException adminRefusal(String list, String tenant, int held) {
        int limit = adminLimit(tenant);
        String keptFor = tenant.isEmpty() ? "logouts" : "logouts and for admins without a tenant";
        String ask = tenant.isEmpty() ? "" : ", ask an admin without a tenant to revoke it";
        return new BlocklistFullException(capacity, "the " + list + " holds " + held + " live entries, and revocations by "
                + (tenant.isEmpty() ? "admins" : "admins bound to a tenant") + " may fill it up to " + limit + ": the other "
                + (capacity - limit) + " are kept for " + keptFor + ". Wait for old entries to expire" + ask
                + " or rotate OMCP_SESSION_SECRET to void every session");
    }
}
