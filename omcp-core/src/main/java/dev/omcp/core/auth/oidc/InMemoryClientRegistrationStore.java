package dev.omcp.core.auth.oidc;

import dev.omcp.ports.auth.ClientRegistrationStore;
import dev.omcp.ports.auth.RegisteredClient;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Client registrations kept in memory only (no {@code OMCP_OIDC_DCR_STORE}); lost on restart. */
public final class InMemoryClientRegistrationStore implements ClientRegistrationStore {
    private final List<RegisteredClient> clients = new CopyOnWriteArrayList<>();

    @Override
    public void save(RegisteredClient client) {
        clients.add(client);
    }

    @Override
    public int count() {
        return clients.size();
    }
}
