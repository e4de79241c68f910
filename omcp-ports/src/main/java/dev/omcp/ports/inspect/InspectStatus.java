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
 * @param wouldBlock calls a dry run found outside the profile since start
 * @param blocked calls enforcement refused since start
 * @param acceptedRules accepted rules in the profile now
 * @param suggestedRules suggested rules waiting for review now
 * @param profileStorage where the profile is kept: {@code memory} or {@code file}
 */
public record InspectStatus(InspectMode mode, long observed, long dropped, String storage, Duration window, long wouldBlock,
        long blocked, int acceptedRules, int suggestedRules, String profileStorage) {
    public InspectStatus {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(storage, "storage");
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(profileStorage, "profileStorage");
    }
}
