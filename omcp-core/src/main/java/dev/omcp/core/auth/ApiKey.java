package dev.omcp.core.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A named bearer credential for the agent transport (spec 5.4). Only the SHA-256 digest of the
 * token is kept, so a heap dump does not hand out tokens.
 */
public final class ApiKey {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.@-]{1,64}");
    /** Shorter tokens are guessable; refuse them at start rather than run with them. */
    public static final int MIN_TOKEN_LENGTH = 16;

    private final String name;
    private final byte[] digest;
    private final String tenant;

    private ApiKey(String name, byte[] digest, String tenant) {
        this.name = name;
        this.digest = digest;
        this.tenant = tenant;
    }

    /**
     * A key from its plaintext token.
     *
     * @throws IllegalArgumentException when the name is not 1-64 of {@code A-Z a-z 0-9 _ . @ -} or
     *     the token is shorter than 16 characters; the message never contains the token
     */
    public static ApiKey of(String name, String token, String tenant) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(tenant, "tenant");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("API key name '" + name + "' must be 1-64 of A-Z, a-z, 0-9, '_', '.', '@', '-'");
        }
        if (token.length() < MIN_TOKEN_LENGTH) {
            throw new IllegalArgumentException("API key '" + name + "' has a token shorter than " + MIN_TOKEN_LENGTH
                    + " characters; generate one with: openssl rand -hex 32");
        }
        return new ApiKey(name, sha256(token), tenant);
    }

    public String name() {
        return name;
    }

    public String tenant() {
        return tenant;
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
