package dev.omcp.adapters.http.metrics;

/**
 * The per-address limits (spec 8, "IP-level limit of other endpoints"; docs/access-control.md): the {@code limit}
 * label of {@code omcp_address_limit_refusals_total} and {@code omcp_address_limit_uncounted_total}. A fixed set.
 */
public enum AddressLimit {
    /** Requests to {@code /api} per address per minute ({@code OMCP_API_RATE_PER_IP_PER_MIN}). */
    API_REQUESTS("api-requests"),
    /**
     * Failed credentials per address per minute at {@code /mcp}, {@code /mcp/ws} and {@code /scim/v2}
     * ({@code OMCP_AUTH_FAILURES_PER_IP_PER_MIN}).
     */
    CREDENTIAL_FAILURES("credential-failures");

    private final String label;

    AddressLimit(String label) {
        this.label = label;
    }

    /** The label value. */
    public String label() {
        return label;
    }
}
