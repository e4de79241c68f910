package dev.omcp.ports.plugins;

import java.util.Objects;

/**
 * What became of one source when a plugin change connected it again: its status afterwards, as
 * {@code GET /api/sources} shows it, and the reason when it is not connected. The source's
 * definition is never changed by a reconnect, whatever its outcome.
 *
 * @param source the source's name
 * @param status {@code connected}, {@code failed}, {@code disabled} or {@code unknown-type}
 * @param problem why it is not connected (no URL, no secret), or empty
 */
public record SourceReconnection(String source, String status, String problem) {
    public SourceReconnection {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(problem, "problem");
    }

    /** Whether the source has a connector again. */
    public boolean connected() {
        return status.equals("connected");
    }
}
