package dev.omcp.core.testing;

import dev.omcp.ports.auth.PasswordHash;
import dev.omcp.ports.auth.PasswordHasher;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A fast stand-in for scrypt in core unit tests: salted SHA-512 in the scrypt hash format. It
 * counts verifications, so tests can prove when no hash was computed.
 */
public final class Sha512Hasher implements PasswordHasher {
    private final AtomicInteger verifications = new AtomicInteger();
    private final AtomicReference<PasswordHash.Cost> lastVerifiedCost = new AtomicReference<>();
    private int saltCounter;

    @Override
    public synchronized PasswordHash hash(String password) {
        byte[] salt = new byte[PasswordHash.SALT_BYTES];
        salt[0] = (byte) ++saltCounter;
        return new PasswordHash(PasswordHash.MINT_N, PasswordHash.MINT_R, PasswordHash.MINT_P, salt, digest(salt, password));
    }

    /** A hash as minted with another cost, as older or hand-made users files hold. */
    public synchronized PasswordHash hash(String password, PasswordHash.Cost cost) {
        byte[] salt = new byte[PasswordHash.SALT_BYTES];
        salt[0] = (byte) ++saltCounter;
        return new PasswordHash(cost.n(), cost.r(), cost.p(), salt, digest(salt, password));
    }

    @Override
    public boolean verify(String password, PasswordHash hash) {
        verifications.incrementAndGet();
        lastVerifiedCost.set(hash.cost());
        return MessageDigest.isEqual(digest(hash.salt(), password), hash.hash());
    }

    public int verifications() {
        return verifications.get();
    }

    /** The cost of the hash verified last: what that verification would take with scrypt. */
    public PasswordHash.Cost lastVerifiedCost() {
        return lastVerifiedCost.get();
    }

    private static byte[] digest(byte[] salt, String password) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-512");
            digest.update(salt);
            return digest.digest(password.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
