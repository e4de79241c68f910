package dev.omcp.ports.ratelimit;

/** The verdict of {@link RequestRateLimit#admit} on one request (spec 7.2, 8). */
public sealed interface RateDecision {

    /**
     * No limit applies, so nothing is stated to the client: the caller is anonymous or not a
     * configured credential (never counted), or its limit is disabled (counted for the usage
     * snapshot only). The request goes on.
     */
    record Unlimited() implements RateDecision {}

    /**
     * The request is admitted and counted.
     *
     * @param limit the requests the credential may send per window
     * @param remaining how many more it may send now, this one counted ({@code X-RateLimit-Remaining})
     * @param windowMs the window, {@link RateLimit#WINDOW_MS}
     */
    record Admitted(int limit, int remaining, long windowMs) implements RateDecision {
        public Admitted {
            if (limit < 1 || remaining < 0 || remaining >= limit || windowMs < 1) {
                throw new IllegalArgumentException("inconsistent admission: limit " + limit + ", remaining " + remaining
                        + ", window " + windowMs + " ms");
            }
        }
    }

    /**
     * The credential has sent its limit within the window: the request must not run, and is not
     * counted (answered 429 with {@code OMCP_IDENTITY_RATE_LIMIT} on Streamable HTTP).
     *
     * @param limit the requests the credential may send per window
     * @param retryAfterMillis how long until the oldest counted request leaves the window, when the
     *     next request is admitted; at least 1
     * @param windowMs the window, {@link RateLimit#WINDOW_MS}
     */
    record Limited(int limit, long retryAfterMillis, long windowMs) implements RateDecision {
        public Limited {
            if (limit < 1 || retryAfterMillis < 1 || retryAfterMillis > windowMs) {
                throw new IllegalArgumentException("inconsistent refusal: limit " + limit + ", retry after " + retryAfterMillis
                        + " ms, window " + windowMs + " ms");
            }
        }

        /** {@link #retryAfterMillis} in whole seconds, rounded up ({@code Retry-After}, {@code retryAfterSeconds}); at least 1. */
        public long retryAfterSeconds() {
            return Math.max(1, (retryAfterMillis + 999) / 1000);
        }
    }
}
