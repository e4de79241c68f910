package dev.omcp.ports.auth;

/** Driven port: where dynamically registered clients are kept (a 0600 JSON file, or memory). */
public interface ClientRegistrationStore {

    /** Stores a new registration durably before the client learns its id. */
    void save(RegisteredClient client);

    /** How many clients are registered. */
    int count();
}
