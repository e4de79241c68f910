package dev.omcp.core.entitlements;

import dev.omcp.ports.entitlements.Entitlements;
import dev.omcp.ports.entitlements.SignatureCheck;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The features of a verified entitlement token, each held only inside the token's window
 * ({@code iat} to {@code exp}) as the clock reads at the moment of asking: a token that expires
 * while the gateway runs stops granting then, not at the next restart (spec 5.6). A token that did
 * not verify holds nothing, and says why.
 */
public final class TokenEntitlements implements Entitlements {
    private final Optional<EntitlementToken.Claims> claims;
    private final String refusal;
    private final Clock clock;

    private TokenEntitlements(Optional<EntitlementToken.Claims> claims, String refusal, Clock clock) {
        this.claims = claims;
        this.refusal = refusal;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** The entitlements {@code token} grants, checked against {@code key}; never throws. */
    public static TokenEntitlements of(String token, SignatureCheck key, Clock clock) {
        return switch (EntitlementToken.verify(token, key)) {
            case EntitlementToken.Verification.Verified verified -> new TokenEntitlements(Optional.of(verified.claims()), "", clock);
            case EntitlementToken.Verification.Refused refused ->
                new TokenEntitlements(Optional.empty(), "the entitlement token is not usable: " + refused.reason(), clock);
        };
    }

    /** Nothing is held, for {@code reason} (no key, a key that does not read). */
    public static TokenEntitlements refused(String reason, Clock clock) {
        return new TokenEntitlements(Optional.empty(), reason, clock);
    }

    /** The verified claims, when the token verified (for the start-up log line: sub, features, window). */
    public Optional<EntitlementToken.Claims> claims() {
        return claims;
    }

    @Override
    public Optional<String> missing(String feature) {
        if (claims.isEmpty()) {
            return Optional.of(refusal);
        }
        EntitlementToken.Claims held = claims.get();
        Instant now = clock.instant();
        if (now.isBefore(held.issuedAt())) {
            return Optional.of("the entitlement token is not yet valid: it is valid from " + held.issuedAt());
        }
        if (!now.isBefore(held.expiresAt())) {
            return Optional.of("the entitlement token expired at " + held.expiresAt() + "; install a renewed token");
        }
        if (!held.features().contains(feature)) {
            return Optional.of("the entitlement token does not grant the feature " + feature + " (it grants "
                    + (held.features().isEmpty() ? "none" : String.join(", ", held.features())) + ")");
        }
        return Optional.empty();
    }
}
