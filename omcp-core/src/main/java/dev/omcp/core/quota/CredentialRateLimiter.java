package dev.omcp.core.quota;

import dev.omcp.ports.identity.AuthKind;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.ratelimit.RateDecision;
import dev.omcp.ports.ratelimit.RateLimit;
import dev.omcp.ports.ratelimit.RateUsage;
import dev.omcp.ports.ratelimit.RequestRateLimit;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The request rate limit of the agent transport (spec 8, "MCP rate"): each named credential may send
 * its limit of requests within any 60 s, counted in a {@link SlidingWindowLog} of its own.
 *
 * <p>Only the credentials given at construction are tracked, one log each, so memory is bounded by
 * the configuration, not by what callers present. Anonymous callers (spec 8: exempt) and principals
 * of any other kind or id are never counted. A credential's limit is its override when it has one,
 * else the default. Thread-safe without a lock of its own: the map of logs never changes after
 * construction, and each log locks itself.
 */
public final class CredentialRateLimiter implements RequestRateLimit {
    private final Clock clock;
    private final RateLimit defaultLimit;
    /** Principal id to its log and tenant; fixed at construction. */
    private final Map<String, Tracked> credentials;

    /** A credential to limit: the {@link Principal#apiKey} of its key name, and the tenant it is bound to. */
    public record Credential(String keyName, String tenant) {
        public Credential {
            Objects.requireNonNull(keyName, "keyName");
            Objects.requireNonNull(tenant, "tenant");
        }

        String principalId() {
            return Principal.apiKey(keyName, tenant).id();
        }
    }

    private record Tracked(SlidingWindowLog log, String tenant) {}

    /**
     * @param credentials the credentials to limit and count
     * @param defaultLimit the limit of a credential without an override
     * @param overrides key name to its own limit; each must name one of {@code credentials}
     * @throws IllegalArgumentException when an override names no credential: it would never apply, and
     *     the credential meant (a typo) would get the default without a word
     */
    public CredentialRateLimiter(List<Credential> credentials, RateLimit defaultLimit, Map<String, RateLimit> overrides, Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.defaultLimit = Objects.requireNonNull(defaultLimit, "defaultLimit");
        Objects.requireNonNull(overrides, "overrides");
        List<String> names = credentials.stream().map(Credential::keyName).toList();
        List<String> unknown = overrides.keySet().stream().filter(name -> !names.contains(name)).sorted().toList();
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("rate limit overrides name API keys that are not configured: " + unknown
                    + "; the keys are " + names.stream().sorted().toList());
        }
        Map<String, Tracked> tracked = new LinkedHashMap<>();
        for (Credential credential : credentials) {
            RateLimit limit = Objects.requireNonNull(overrides.getOrDefault(credential.keyName(), defaultLimit),
                    () -> "the rate limit override of '" + credential.keyName() + "' is null");
            tracked.put(credential.principalId(), new Tracked(new SlidingWindowLog(limit), credential.tenant()));
        }
        this.credentials = Map.copyOf(tracked);
    }

    @Override
    public RateDecision admit(Principal principal) {
        Tracked tracked = trackedOf(principal);
        return tracked == null ? new RateDecision.Unlimited() : tracked.log().admit(clock.millis());
    }

    @Override
    public RateUsage usage() {
        long now = clock.millis();
        List<RateUsage.Identity> identities = new ArrayList<>(credentials.size());
        credentials.forEach((actor, tracked) -> identities.add(new RateUsage.Identity(actor, tracked.tenant(),
                tracked.log().count(now), tracked.log().limit().requestsPerMinute(), RateLimit.WINDOW_MS)));
        identities.sort(Comparator.comparing(RateUsage.Identity::actor));
        return new RateUsage(identities, defaultLimit.requestsPerMinute(), RateLimit.WINDOW_MS);
    }

    /** The default limit: the one a credential without an override has. */
    public RateLimit defaultLimit() {
        return defaultLimit;
    }

    private Tracked trackedOf(Principal principal) {
        // spec 8: only named bearer credentials are limited; anonymous traffic is exempt and not counted
        return principal.authKind() == AuthKind.API_KEY ? credentials.get(principal.id()) : null;
    }
}
