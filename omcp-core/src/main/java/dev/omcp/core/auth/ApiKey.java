package dev.omcp.core.auth;

import dev.omcp.ports.identity.AllowLists;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.text.BackendText;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A named bearer credential for the agent transport (spec 5.4). Only the SHA-256 digest of the
 * token is kept, so a heap dump does not hand out tokens.
 *
 * <p>A key may be bound to a tenant ({@code OMCP_KEY_TENANTS}): its caller then sees, through the tools, only the
 * sources of that tenant and the unbound ones, as a session of that tenant does. It may also be limited to some tools
 * and some sources ({@link AllowLists}: {@code OMCP_KEY_TOOLS}, {@code OMCP_KEY_SOURCES}). Both travel with the
 * {@link dev.omcp.ports.identity.Principal} the key authenticates as, so every tool and the tool list honour them
 * without further wiring.
 */
public final class ApiKey {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.@-]{1,64}");
    /** Shorter tokens are guessable; refuse them at start rather than run with them. */
    public static final int MIN_TOKEN_LENGTH = 16;

    private final String name;
    private final byte[] digest;
    private final String tenant;
    private final AllowLists allowLists;
    private final Set<String> roles;

    private ApiKey(String name, byte[] digest, String tenant, AllowLists allowLists, Set<String> roles) {
        this.name = name;
        this.digest = digest;
        this.tenant = tenant;
        this.allowLists = allowLists;
        this.roles = roles;
    }

    /**
     * A key from its plaintext token, limited by nothing but its tenant.
     *
     * @param tenant the tenant the key is bound to, or the empty string for none
     * @throws IllegalArgumentException as {@link #of(String, String, String, AllowLists)}
     */
    public static ApiKey of(String name, String token, String tenant) {
        return of(name, token, tenant, AllowLists.none());
    }

    /**
     * A key from its plaintext token, limited to the tools and sources of {@code allowLists}.
     *
     * @param tenant the tenant the key is bound to, or the empty string for none
     * @throws IllegalArgumentException when the name is not 1-64 of {@code A-Z a-z 0-9 _ . @ -}, the
     *     token is shorter than 16 characters, or the tenant is blank or not one a source can be bound to
     *     ({@link SourceConfig#TENANT_RULE}); the message never contains the token
     */
    public static ApiKey of(String name, String token, String tenant, AllowLists allowLists) {
        return of(name, token, tenant, allowLists, Set.of());
    }

    /**
     * A key as {@link #of(String, String, String, AllowLists)}, holding {@code roles} ({@code OMCP_KEY_ROLES}) for the
     * permission checks of the agent side, such as {@code redaction:bypass}.
     */
    public static ApiKey of(String name, String token, String tenant, AllowLists allowLists, Set<String> roles) {
        Objects.requireNonNull(roles, "roles");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(allowLists, "allowLists");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("API key name '" + name + "' must be 1-64 of A-Z, a-z, 0-9, '_', '.', '@', '-'");
        }
        if (token.length() < MIN_TOKEN_LENGTH) {
            throw new IllegalArgumentException("API key '" + name + "' has a token shorter than " + MIN_TOKEN_LENGTH
                    + " characters; generate one with: openssl rand -hex 32");
        }
        if (!tenant.isEmpty() && (tenant.isBlank() || !SourceConfig.isValidTenant(tenant))) {
            // matched exactly against the sources' tenants: a tenant no source can be bound to would leave the key only the
            // unbound sources, without a word
            throw new IllegalArgumentException("API key '" + name + "' has tenant '" + BackendText.quoted(tenant, 64)
                    + "', which must be non-blank with " + SourceConfig.TENANT_RULE + " (shown as ?)");
        }
        return new ApiKey(name, sha256(token), tenant, allowLists, Set.copyOf(roles));
    }

    public String name() {
        return name;
    }

    /** The tenant the key is bound to; the empty string when none. */
    public String tenant() {
        return tenant;
    }

    /** The roles the key holds ({@code OMCP_KEY_ROLES}); none by default. */
    public Set<String> roles() {
        return roles;
    }

    /** The tools and sources the key is limited to. */
    public AllowLists allowLists() {
        return allowLists;
    }

    /** Compares a presented token's digest with this key's in constant time. */
    boolean matches(byte[] presentedDigest) {
        return MessageDigest.isEqual(digest, presentedDigest);
    }

    /** Whether {@code other} has the same token as this key. */
    boolean sameToken(ApiKey other) {
        return MessageDigest.isEqual(digest, other.digest);
    }

    static byte[] sha256(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK provides SHA-256", e);
        }
    }

    @Override
    public String toString() {
        // Never print the digest: it would let an attacker test guesses offline.
        return "ApiKey[" + name + "]";
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ApiKey key && key.name.equals(name) && Arrays.equals(key.digest, digest);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }
}
