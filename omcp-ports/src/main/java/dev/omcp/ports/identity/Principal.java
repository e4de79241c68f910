package dev.omcp.ports.identity;

import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The identity behind one request, as every layer of the gateway sees it.
 *
 * @param id stable identifier used for binding, counting and audit, for example {@code anonymous},
 *     {@code key:ci-bot} or {@code user:alice}
 * @param name display name
 * @param authKind how the identity was proven
 * @param tenant tenant the identity is scoped to; empty string when none
 * @param roles role names held (for example {@code viewer}); empty for API keys without roles
 * @param sessionId the {@code sid} of a cookie session; empty otherwise
 * @param allowLists the tools and sources the identity is limited to besides its tenant (an API key's
 *     {@code OMCP_KEY_TOOLS} and {@code OMCP_KEY_SOURCES}); {@link AllowLists#none()} when it is not
 */
public record Principal(
        String id, String name, AuthKind authKind, String tenant, Set<String> roles, Optional<String> sessionId,
        AllowLists allowLists) {

    private static final Principal ANONYMOUS =
            new Principal("anonymous", "anonymous", AuthKind.ANONYMOUS, "", Set.of(), Optional.empty());

    public Principal {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(authKind, "authKind");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(allowLists, "allowLists");
        if (id.isBlank()) {
            throw new IllegalArgumentException("principal id must not be blank");
        }
        roles = Set.copyOf(roles);
    }

    /** An identity limited by nothing but its tenant and roles. */
    public Principal(String id, String name, AuthKind authKind, String tenant, Set<String> roles, Optional<String> sessionId) {
        this(id, name, authKind, tenant, roles, sessionId, AllowLists.none());
    }

    /** The caller of a deployment without authentication. */
    public static Principal anonymous() {
        return ANONYMOUS;
    }

    /** The caller holding the API key named {@code keyName}. */
    public static Principal apiKey(String keyName, String tenant) {
        return apiKey(keyName, tenant, AllowLists.none());
    }

    /** The caller holding the API key named {@code keyName}, limited to {@code allowLists}. */
    public static Principal apiKey(String keyName, String tenant, AllowLists allowLists) {
        return apiKey(keyName, tenant, allowLists, Set.of());
    }

    /**
     * The caller holding the API key named {@code keyName}, limited to {@code allowLists}, holding {@code roles}
     * ({@code OMCP_KEY_ROLES}): the roles answer the permission checks of the agent side, such as
     * {@code redaction:bypass} (spec 5.7); the management API takes no API key.
     */
    public static Principal apiKey(String keyName, String tenant, AllowLists allowLists, Set<String> roles) {
        return new Principal("key:" + keyName, keyName, AuthKind.API_KEY, tenant, roles, Optional.empty(), allowLists);
    }

    /** Whether this is the anonymous caller. */
    public boolean isAnonymous() {
        return authKind == AuthKind.ANONYMOUS;
    }
}
