package dev.omcp.ports.auth;

import java.time.Instant;
import java.util.Objects;

/**
 * A client registration as stored: the secret is kept only as its SHA-256 digest.
 *
 * @param clientId the minted {@code client_id}
 * @param secretSha256 lower-case hex SHA-256 of the client secret; empty for public clients
 * @param issuedAt when it was registered
 * @param metadata the registered metadata
 */
public record RegisteredClient(String clientId, String secretSha256, Instant issuedAt, ClientMetadata metadata) {
    public RegisteredClient {
        Objects.requireNonNull(clientId, "clientId");
        Objects.requireNonNull(secretSha256, "secretSha256");
        Objects.requireNonNull(issuedAt, "issuedAt");
        Objects.requireNonNull(metadata, "metadata");
    }
}
