package dev.omcp.ports.postmortems;

import java.util.Objects;
import java.util.Optional;

/**
 * Which stored post-mortems a caller may see: those of one tenant, or every tenant's (a caller
 * without a tenant operates the whole gateway).
 *
 * @param tenant the only tenant admitted; empty means every tenant
 */
public record TenantScope(Optional<String> tenant) {
    public TenantScope {
        Objects.requireNonNull(tenant, "tenant");
    }

    /** Every entry, whatever its tenant. */
    public static TenantScope everyTenant() {
        return new TenantScope(Optional.empty());
    }

    /** Only the entries of {@code tenant}. */
    public static TenantScope only(String tenant) {
        if (tenant == null || tenant.isEmpty()) {
            throw new IllegalArgumentException("a single-tenant scope needs a tenant; use everyTenant() for a caller without one");
        }
        return new TenantScope(Optional.of(tenant));
    }

    /** Whether an entry of {@code entryTenant} is inside this scope. */
    public boolean admits(String entryTenant) {
        return tenant.map(t -> t.equals(entryTenant)).orElse(true);
    }
}
