package dev.omcp.ports.auth;

import java.time.Duration;
import java.util.Objects;

/** The outcome of an RFC 7591 registration request. */
public sealed interface RegistrationResult {

    /**
     * Registered.
     *
     * @param client what was stored
     * @param clientSecret the plaintext secret, shown once; empty for public clients
     */
    record Registered(RegisteredClient client, String clientSecret) implements RegistrationResult {
        public Registered {
            Objects.requireNonNull(client, "client");
            Objects.requireNonNull(clientSecret, "clientSecret");
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

    /** Too many registrations from this address, or the registry is full. */
    record TooMany(Duration retryAfter) implements RegistrationResult {
        public TooMany {
            Objects.requireNonNull(retryAfter, "retryAfter");
        }
    }
}
