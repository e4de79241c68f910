package dev.omcp.ports.budget;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The token budget as {@code GET /api/usage} reports it (spec 2.9).
 *
 * @param defaultLimit the cap of every credential ({@code OMCP_TOOL_DAILY_TOKENS}); empty when the
 *     budget is off (uncapped), which the usage route shows as {@code null}
 * @param windowMs the rolling window, 86,400,000 (24 h)
 * @param credentials every credential with tokens charged in the window, sorted by actor; a
 *     credential that is absent has used nothing. Empty when the budget is off: nothing is counted then
 */
public record TokenUsageSnapshot(OptionalLong defaultLimit, long windowMs, List<CredentialTokenUsage> credentials) {
    public TokenUsageSnapshot {
        Objects.requireNonNull(defaultLimit, "defaultLimit");
        credentials = List.copyOf(credentials);
    }

    /** Whether a budget is in force (spec 2.9: only then does {@code /api/usage} carry {@code tokens}). */
    public boolean active() {
        return defaultLimit.isPresent();
    }
}
