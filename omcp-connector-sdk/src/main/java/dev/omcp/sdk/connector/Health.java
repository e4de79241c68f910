package dev.omcp.sdk.connector;

import java.time.Duration;
import java.util.Objects;

/**
 * A backend's answer to a health check.
 *
 * @param up whether the backend answered as expected
 * @param message a short, operator-facing description (the backend's version, or what failed); never
 *     a URL or a credential
 * @param latency how long the check took
 */
public record Health(boolean up, String message, Duration latency) {
    public Health {
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(latency, "latency");
    }
}
