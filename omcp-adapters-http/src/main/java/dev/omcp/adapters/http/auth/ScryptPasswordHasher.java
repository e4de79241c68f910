package dev.omcp.adapters.http.auth;

import dev.omcp.ports.auth.PasswordHash;
import dev.omcp.ports.auth.PasswordHasher;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import org.bouncycastle.crypto.generators.SCrypt;

/**
 * scrypt with BouncyCastle (ARCHITECTURE.md, crypto): the password as UTF-8 bytes, a 16-byte
 * random salt, a 64-byte key; new hashes use N=32768, r=8, p=1 (spec 2.5). {@link PasswordHash}
 * already refuses parameters above N=2^20, r=16, p=4, so a verification never allocates more
 * than {@code 128 * r * N} bytes of that bound.
 */
public final class ScryptPasswordHasher implements PasswordHasher {
    private final SecureRandom random;

    public ScryptPasswordHasher(SecureRandom random) {
        this.random = random;
    }

    @Override
    public PasswordHash hash(String password) {
        byte[] salt = new byte[PasswordHash.SALT_BYTES];
        random.nextBytes(salt);
        byte[] key = derive(password, salt, PasswordHash.MINT_N, PasswordHash.MINT_R, PasswordHash.MINT_P, PasswordHash.HASH_BYTES);
        return new PasswordHash(PasswordHash.MINT_N, PasswordHash.MINT_R, PasswordHash.MINT_P, salt, key);
    }

    @Override
    public boolean verify(String password, PasswordHash hash) {
        byte[] key = derive(password, hash.salt(), hash.n(), hash.r(), hash.p(), PasswordHash.HASH_BYTES);
        return MessageDigest.isEqual(key, hash.hash());
    }

    static byte[] derive(String password, byte[] salt, int n, int r, int p, int length) {
        return SCrypt.generate(password.getBytes(StandardCharsets.UTF_8), salt, n, r, p, length);
    }
}
