package dev.omcp.app.wiring;

import java.util.ArrayList;
import java.util.List;

/**
 * The parts the assembly opened so far (the audit file, shared-store connections, the source
 * registry, the remote-write sender, the HTTP server), closed newest first.
 *
 * <p>Why: a start refused half-way (an invalid policy file, a port in use) left what it had opened
 * running, so an embedder that fixed the cause and started again in the same JVM found the audit file
 * still locked by the failed start. And one close that threw skipped every close after it: the audit
 * file, closed last, then lost its final fsync and the sinks their queued entries. Every close is
 * attempted; the first failure is thrown once all were, with the others attached to it.
 *
 * <p>Thread-safe: a close that finds another under way waits for it, so it returns once all is closed.
 */
final class OpenedParts {
    private final List<AutoCloseable> opened = new ArrayList<>();

    /** Adds {@code part}, to be closed before everything added earlier. */
    synchronized <T extends AutoCloseable> T add(T part) {
        opened.add(part);
        return part;
    }

    /**
     * After a failed start: closes everything opened and returns {@code failure} to be thrown, with
     * what failed to close attached to it, so the cause of the refusal stays what the operator reads.
     */
    synchronized RuntimeException closeAfter(RuntimeException failure) {
        closeAll().forEach(failure::addSuppressed);
        return failure;
    }

    /**
     * Closes everything, newest first; each close is attempted even when one before it failed.
     *
     * @throws RuntimeException the first failure, once every part was closed; later ones are suppressed in it
     */
    synchronized void close() {
        List<Exception> failures = closeAll();
        if (failures.isEmpty()) {
            return;
        }
        RuntimeException first = failures.getFirst() instanceof RuntimeException runtime
                ? runtime : new IllegalStateException("could not close a part of the gateway: " + failures.getFirst(), failures.getFirst());
        failures.subList(1, failures.size()).forEach(first::addSuppressed);
        throw first;
    }

    private List<Exception> closeAll() {
        List<Exception> failures = new ArrayList<>();
        for (int i = opened.size() - 1; i >= 0; i--) {
            try {
                opened.get(i).close();
            } catch (Exception e) {
                failures.add(e);
            }
        }
        opened.clear();
        return failures;
    }
}
