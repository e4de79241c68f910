package dev.omcp.ports.auth;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/** The outcome of an RFC 7591 registration request. */
public sealed interface RegistrationResult {

    /**
     * Registered.
     *
     * @param client what was stored
     * @param clientSecret the plaintext secret, shown once; empty for public clients
     * @param keptUntil until when the registration is certainly kept; after it, the gateway may remove
     *     it to make room for others (RFC 7591 {@code client_secret_expires_at})
     */
    record Registered(RegisteredClient client, String clientSecret, Instant keptUntil) implements RegistrationResult {
        public Registered {
            Objects.requireNonNull(client, "client");
            Objects.requireNonNull(clientSecret, "clientSecret");
            Objects.requireNonNull(keptUntil, "keptUntil");
        }

        @Override
        public String toString() {
            return "Registered[" + client.clientId() + ", secret hidden]";
        }
    }

    /**
     * Refused with an RFC 7591 error code ({@code invalid_redirect_uri},
     * {@code invalid_client_metadata}).
     */
    record Rejected(String error, String description) implements RegistrationResult {
        public Rejected {
            Objects.requireNonNull(error, "error");
            Objects.requireNonNull(description, "description");
        }
    }

    /** Too many registrations from this address. */
    record TooMany(Duration retryAfter) implements RegistrationResult {
        public TooMany {
            Objects.requireNonNull(retryAfter, "retryAfter");
        }
    }

    /**
     * The registry holds as many clients as it may, and none can be removed yet to make room.
     *
     * @param retryAfter how long until one can be removed
     * @param description when room frees and what an operator can do, for the client's error_description
     */
    record RegistryFull(Duration retryAfter, String description) implements RegistrationResult {
        public RegistryFull {
            Objects.requireNonNull(retryAfter, "retryAfter");
            Objects.requireNonNull(description, "description");
        }
    }
}
