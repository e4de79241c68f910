package dev.omcp.adapters.storage.delivery;

import java.time.Duration;

/** Pauses between retries; a parameter so tests can run retries without waiting. */
@FunctionalInterface
public interface Pacer {
    void pause(Duration duration) throws InterruptedException;
}
