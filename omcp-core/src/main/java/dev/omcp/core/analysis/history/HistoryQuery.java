package dev.omcp.core.analysis.history;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@code get_anomaly_history} asks for.
 *
 * @param tenant the caller's tenant (empty string when single-tenant); other tenants' rows are never returned
 * @param service only this service (a bare name also finds that name recorded in any namespace, {@code shop/payments}), or all
 * @param signal only this signal, or all
 * @param from inclusive start
 * @param to inclusive end
 * @param limit the most rows returned (the newest are kept), 1..{@value #MAX_LIMIT}
 * @param anomalousOnly only rows whose verdict was an anomaly
 */
public record HistoryQuery(
        String tenant, Optional<String> service, Optional<String> signal, Instant from, Instant to, int limit, boolean anomalousOnly) {
    public static final int MAX_LIMIT = 10_000;
    public static final int DEFAULT_LIMIT = 500;

    public HistoryQuery {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(signal, "signal");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        if (to.isBefore(from)) {
            throw new IllegalArgumentException("history query 'to' (" + to + ") is before 'from' (" + from + ")");
        }
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("history limit must be between 1 and " + MAX_LIMIT + ", got " + limit);
        }
    }
}
