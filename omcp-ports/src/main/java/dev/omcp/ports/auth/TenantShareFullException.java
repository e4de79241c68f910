package dev.omcp.ports.auth;

import java.time.Instant;
import java.util.Objects;

/**
 * A revocation by an admin bound to a tenant is refused because that tenant holds its whole share of
 * the session blocklist ({@link BlocklistShares#perTenant()}); nothing already recorded is dropped,
 * and other tenants, admins without a tenant and logouts keep their room. An
 * {@link IllegalStateException}, the form a full blocklist has always had, so a caller that knows
 * only that one still refuses.
 */
public final class TenantShareFullException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    private final String tenant;
    private final int share;
    private final Instant roomAt;

    /**
     * @param tenant the tenant whose share is used up
     * @param share the live entries one tenant may hold
     * @param roomAt when the tenant's oldest entry expires, making room for one more
     */
    public TenantShareFullException(String tenant, int share, Instant roomAt) {
        super("tenant '" + tenant + "' has used its whole share of the session blocklist, " + share + " live entries; its"
                + " oldest entry expires at " + roomAt + ", and until then an admin without a tenant can revoke for it");
        this.tenant = Objects.requireNonNull(tenant, "tenant");
        this.share = share;
        this.roomAt = Objects.requireNonNull(roomAt, "roomAt");
    }

    /** The tenant whose share is used up. */
    public String tenant() {
        return tenant;
    }

    /** The live entries one tenant may hold. */
    public int share() {
        return share;
    }

    /** When the tenant's oldest entry expires, so that it may add one more. */
    public Instant roomAt() {
        return roomAt;
    }
}
