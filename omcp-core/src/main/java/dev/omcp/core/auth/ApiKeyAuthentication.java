package dev.omcp.core.auth;

import dev.omcp.ports.identity.AgentAuthResult;
import dev.omcp.ports.identity.AgentAuthentication;
import dev.omcp.ports.identity.Principal;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Authenticates the agent transport with the keys of {@code OMCP_API_KEYS} (spec 5.4). Without
 * keys every caller is anonymous.
 */
public final class ApiKeyAuthentication implements AgentAuthentication {
    /** Longer presented tokens are refused before hashing, so a huge header costs nothing. */
    private static final int MAX_PRESENTED_TOKEN = 4096;

    private final List<ApiKey> keys;

    /**
     * @throws IllegalArgumentException when two keys share a name, or share a token: a token then
     *     authenticates only the first of them, with its tenant, and the other key never works
     */
    public ApiKeyAuthentication(List<ApiKey> keys) {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < keys.size(); i++) {
            ApiKey key = keys.get(i);
            if (!names.add(key.name())) {
                throw new IllegalArgumentException("API key name '" + key.name() + "' appears twice; names must be unique");
            }
            for (ApiKey earlier : keys.subList(0, i)) {
                if (earlier.sameToken(key)) {
                    throw new IllegalArgumentException("API keys '" + earlier.name() + "' and '" + key.name()
                            + "' have the same token; give each key a token of its own");
                }
            }
        }
        this.keys = List.copyOf(keys);
    }

    @Override
    public AgentAuthResult authenticate(Optional<String> bearerToken) {
        if (keys.isEmpty()) {
            return new AgentAuthResult.Authenticated(Principal.anonymous());
        }
        if (bearerToken.isEmpty() || bearerToken.get().isEmpty()) {
            return new AgentAuthResult.Refused("a bearer token is required: send Authorization: Bearer <token> or X-API-Key: <token>");
        }
        String token = bearerToken.get();
        if (token.length() > MAX_PRESENTED_TOKEN) {
            return new AgentAuthResult.Refused("the bearer token is not valid");
        }
        byte[] presented = ApiKey.sha256(token);
        ApiKey matched = null;
        // Compare against every key, without stopping early, so timing says nothing about which matched.
        for (ApiKey key : keys) {
            if (key.matches(presented) && matched == null) {
                matched = key;
            }
        }
        if (matched == null) {
            return new AgentAuthResult.Refused("the bearer token is not valid");
        }
        return new AgentAuthResult.Authenticated(Principal.apiKey(matched.name(), matched.tenant(), matched.allowLists(), matched.roles()));
    }

    @Override
    public boolean keysConfigured() {
        return !keys.isEmpty();
    }
}
