package dev.omcp.core.auth.oidc;

import dev.omcp.ports.auth.ClientRegistrationStore;
import dev.omcp.ports.auth.RegisteredClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Client registrations kept in memory only (no {@code OMCP_OIDC_DCR_STORE}); lost on restart. */
public final class InMemoryClientRegistrationStore implements ClientRegistrationStore {
    // replaced whole on every change, so a reader never sees the removals without the addition
    private volatile List<RegisteredClient> clients = List.of();

    @Override
    public synchronized void replace(Set<String> removedClientIds, RegisteredClient client) {
        List<RegisteredClient> next = new ArrayList<>(clients.size() + 1);
        clients.stream().filter(kept -> !removedClientIds.contains(kept.clientId())).forEach(next::add);
        next.add(client);
        clients = List.copyOf(next);
    }

    @Override
    public List<RegisteredClient> registrations() {
        return clients;
    }

    @Override
    public int count() {
        return clients.size();
    }
}
