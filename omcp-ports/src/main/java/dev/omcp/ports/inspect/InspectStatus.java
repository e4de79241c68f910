package dev.omcp.ports.inspect;

import java.time.Duration;
import java.util.Objects;

/**
 * The state {@code GET /api/inspect/mode} reports.
 *
 * @param mode the mode in force
 * @param observed tool calls recorded since start
 * @param dropped records the store dropped since start (it could not keep up)
 * @param storage where records are kept: {@code memory} or {@code file}
 * @param window how far back reads reach ({@code OMCP_INSPECT_WINDOW})
 */
public record InspectStatus(InspectMode mode, long observed, long dropped, String storage, Duration window) {
    public InspectStatus {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(storage, "storage");
        Objects.requireNonNull(window, "window");
    }
}
