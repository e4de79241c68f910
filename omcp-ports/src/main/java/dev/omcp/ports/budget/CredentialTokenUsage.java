package dev.omcp.ports.budget;

import java.util.Objects;

/**
 * One credential's place in its token budget (spec 2.9, {@code identities[].tokens}).
 *
 * @param actor the principal id, for example {@code key:ci-bot}
 * @param used tokens charged in the last {@code windowMs}
 * @param limit the credential's cap over that window
 * @param windowMs the rolling window, 86,400,000 (24 h)
 */
public record CredentialTokenUsage(String actor, long used, long limit, long windowMs) {
    public CredentialTokenUsage {
        Objects.requireNonNull(actor, "actor");
    }
}
