package dev.omcp.ports.budget;

/**
 * Tokens one credential was charged in one stretch of time (a minute, in the gateway's ledger).
 *
 * @param startEpochMs when the stretch began, milliseconds since the epoch
 * @param tokens the tokens charged in it, at least 1
 */
public record TokenBucket(long startEpochMs, long tokens) {
    public TokenBucket {
        if (tokens < 1) {
            throw new IllegalArgumentException("a token bucket holds at least 1 token, got " + tokens);
        }
    }
}
