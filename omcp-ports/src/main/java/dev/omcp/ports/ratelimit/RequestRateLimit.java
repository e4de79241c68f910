package dev.omcp.ports.ratelimit;

import dev.omcp.ports.identity.Principal;
import java.util.List;
import java.util.OptionalInt;

/**
 * Driving port: the per-credential request rate limit of the agent transport (spec 7.2, 8). A
 * transport asks it once per request (an HTTP request to {@code /mcp}, a WebSocket message) after
 * authenticating the caller, and runs the request only when it is not {@link RateDecision.Limited}.
 *
 * <p>Only the named credentials the limit was configured with are limited and counted; anonymous
 * traffic is exempt. Implementations are called concurrently from many virtual threads and must be
 * thread-safe; each call returns quickly and does no I/O.
 */
public interface RequestRateLimit {

    /**
     * Counts one request of {@code principal} when it is admitted.
     *
     * @return {@link RateDecision.Admitted} (counted), {@link RateDecision.Limited} (not counted; do
     *     not run the request) or {@link RateDecision.Unlimited}
     */
    RateDecision admit(Principal principal);

    /** The usage of every configured credential now. */
    RateUsage usage();

    /** A limit that limits nobody and counts nothing: a gateway without one. */
    static RequestRateLimit none() {
        return new RequestRateLimit() {
            @Override
            public RateDecision admit(Principal principal) {
                return new RateDecision.Unlimited();
            }

            @Override
            public RateUsage usage() {
                return new RateUsage(List.of(), OptionalInt.empty(), RateLimit.WINDOW_MS);
            }
        };
    }
}
