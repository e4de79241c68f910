package dev.omcp.ports.auth;

import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;

/**
 * A scrypt password hash as stored in the users file:
 * {@code scrypt$<N>$<r>$<p>$<salt base64>$<hash base64>} (spec 2.5, DECISIONS.md), salt and hash
 * in standard base64 (RFC 4648 section 4).
 *
 * <p>Only parameters a login can afford are representable: N a power of two from 2 to 2^20, r
 * 1-16, p 1-4, a 16-byte salt and a 64-byte hash. Anything else is malformed, so a users file
 * cannot make one login allocate gigabytes.
 *
 * @param n CPU/memory cost
 * @param r block size
 * @param p parallelization
 * @param salt 16 random bytes
 * @param hash the 64-byte derived key
 */
public record PasswordHash(int n, int r, int p, byte[] salt, byte[] hash) {
    /** N of newly minted hashes (spec 2.5). */
    public static final int MINT_N = 32768;
    /** r of newly minted hashes. */
    public static final int MINT_R = 8;
    /** p of newly minted hashes. */
    public static final int MINT_P = 1;
    /** Largest N a hash may use. */
    public static final int MAX_N = 1 << 20;
    /** Largest r a hash may use. */
    public static final int MAX_R = 16;
    /** Largest p a hash may use. */
    public static final int MAX_P = 4;
    /** Salt length in bytes. */
    public static final int SALT_BYTES = 16;
    /** Derived key length in bytes. */
    public static final int HASH_BYTES = 64;

    private static final String PREFIX = "scrypt";

    public PasswordHash {
        Objects.requireNonNull(salt, "salt");
        Objects.requireNonNull(hash, "hash");
        if (n < 2 || n > MAX_N || Integer.bitCount(n) != 1) {
            throw new IllegalArgumentException("scrypt N must be a power of two from 2 to " + MAX_N + ", got " + n);
        }
        if (r < 1 || r > MAX_R) {
            throw new IllegalArgumentException("scrypt r must be 1-" + MAX_R + ", got " + r);
        }
        if (p < 1 || p > MAX_P) {
            throw new IllegalArgumentException("scrypt p must be 1-" + MAX_P + ", got " + p);
        }
        if (salt.length != SALT_BYTES) {
            throw new IllegalArgumentException("scrypt salt must be " + SALT_BYTES + " bytes, got " + salt.length);
        }
        if (hash.length != HASH_BYTES) {
            throw new IllegalArgumentException("scrypt hash must be " + HASH_BYTES + " bytes, got " + hash.length);
        }
        salt = salt.clone();
        hash = hash.clone();
    }

    /**
     * Parses the stored form.
     *
     * @throws IllegalArgumentException naming what is malformed; the message never repeats the
     *     salt or hash
     */
    public static PasswordHash parse(String encoded) {
        Objects.requireNonNull(encoded, "encoded");
        String[] parts = encoded.split("\\$", -1);
        if (parts.length != 6 || !parts[0].equals(PREFIX)) {
            throw new IllegalArgumentException(
                    "password hash must be scrypt$N$r$p$<salt base64>$<hash base64>; mint one with: omcp hash-password <username>");
        }
        int n = number(parts[1], "N");
        int r = number(parts[2], "r");
        int p = number(parts[3], "p");
        byte[] salt = base64(parts[4], "salt");
        byte[] hash = base64(parts[5], "hash");
        return new PasswordHash(n, r, p, salt, hash);
    }

    /** The stored form. */
    public String encode() {
        Base64.Encoder encoder = Base64.getEncoder();
        return PREFIX + "$" + n + "$" + r + "$" + p + "$" + encoder.encodeToString(salt) + "$" + encoder.encodeToString(hash);
    }

    @Override
    public byte[] salt() {
        return salt.clone();
    }

    @Override
    public byte[] hash() {
        return hash.clone();
    }

    /** Whether this hash uses the same cost parameters as {@code other}. */
    public boolean sameCost(PasswordHash other) {
        return cost().equals(other.cost());
    }

    /** The cost parameters of this hash: what one verification against it takes. */
    public Cost cost() {
        return new Cost(n, r, p);
    }

    /**
     * The scrypt cost parameters of a hash, within the bounds a hash may use.
     *
     * @param n CPU/memory cost
     * @param r block size
     * @param p parallelization
     */
    public record Cost(int n, int r, int p) {
        /** The cost of newly minted hashes (spec 2.5). */
        public static final Cost MINT = new Cost(MINT_N, MINT_R, MINT_P);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PasswordHash h && h.n == n && h.r == r && h.p == p
                && Arrays.equals(h.salt, salt) && Arrays.equals(h.hash, hash);
    }

    @Override
    public int hashCode() {
        return Objects.hash(n, r, p, Arrays.hashCode(salt));
    }

    @Override
    public String toString() {
        // Never print the hash: it would allow offline guessing.
        return "PasswordHash[scrypt N=" + n + " r=" + r + " p=" + p + "]";
    }

    private static int number(String text, String name) {
        if (text.isEmpty() || text.length() > 8 || !text.chars().allMatch(Character::isDigit)) {
            throw new IllegalArgumentException("scrypt " + name + " must be a decimal number");
        }
        return Integer.parseInt(text);
    }

    private static byte[] base64(String text, String name) {
        try {
            return Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("scrypt " + name + " must be standard base64 (RFC 4648 section 4)");
        }
    }
}
