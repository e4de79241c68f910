package dev.omcp.ports.plugins;

import dev.omcp.sdk.text.BackendText;
import java.util.Objects;

/**
 * What became of one source when a plugin change connected it again: its status afterwards, as
 * {@code GET /api/sources} shows it, and the reason when it is not connected. The source's
 * definition is never changed by a reconnect, whatever its outcome.
 *
 * @param source the source's name
 * @param status {@code connected}, {@code failed}, {@code disabled} or {@code unknown-type}
 * @param problem why it is not connected (no URL, no secret), or empty; one printable line of at
 *     most {@link #MAX_PROBLEM_CHARS} characters, as {@code GET /api/sources} shows it
 */
public record SourceReconnection(String source, String status, String problem) {
    /** The bound of a source's problem in {@code GET /api/sources}; not shared, so that plugins need not know sources. */
    public static final int MAX_PROBLEM_CHARS = 1_000;

    public SourceReconnection {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(status, "status");
        // the problem may quote a connector's message, which may quote its backend's answer
        problem = BackendText.clean(Objects.requireNonNull(problem, "problem"), MAX_PROBLEM_CHARS);
    }

    /** Whether the source has a connector again. */
    public boolean connected() {
        return status.equals("connected");
    }
}
