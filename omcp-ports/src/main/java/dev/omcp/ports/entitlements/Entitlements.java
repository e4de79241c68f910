package dev.omcp.ports.entitlements;

import java.util.Optional;

/**
 * Driven port: the licensed features held now (spec 5.6). A feature may stop being held while the
 * gateway runs (the token expires), so callers ask on every use rather than once at start. Never
 * throws: a missing, invalid or expired entitlement only means the feature is not held, and the
 * gateway keeps running without it. Implementations are thread-safe.
 */
public interface Entitlements {
    /** The feature SCIM provisioning needs (spec 4.5). */
    String SCIM = "scim";
    /** The feature Inspect enforcement needs (spec 3.1). */
    String INSPECT_ENFORCE = "inspect-enforce";

    /**
     * Why {@code feature} is not held now, or empty when it is. The reason is for the operator's log:
     * it never holds the token.
     */
    Optional<String> missing(String feature);

    /** Whether {@code feature} is held now. */
    default boolean holds(String feature) {
        return missing(feature).isEmpty();
    }

    /** No feature is held: no entitlement was installed. */
    static Entitlements none() {
        return feature -> Optional.of("no entitlement is installed");
    }
}
