package dev.omcp.ports.auth;

import java.util.List;
import java.util.Set;

/**
 * Driven port: where dynamically registered clients are kept (a 0600 JSON file, or memory). Callers
 * serialise writes; implementations must still leave a consistent state for concurrent readers.
 */
public interface ClientRegistrationStore {

    /** Stores a new registration durably before the client learns its id. */
    default void save(RegisteredClient client) {
        replace(Set.of(), client);
    }

    /**
     * Removes the registrations with the given ids and stores a new one, in one durable write,
     * before the client learns its id: the registry makes room without a write of its own.
     *
     * @param removedClientIds ids of registrations to drop; ids not stored are ignored
     * @param client the new registration
     */
    void replace(Set<String> removedClientIds, RegisteredClient client);

    /** Every stored registration, in the order they were stored (read when the registry is full). */
    List<RegisteredClient> registrations();

    /** How many clients are registered. */
    int count();
}
