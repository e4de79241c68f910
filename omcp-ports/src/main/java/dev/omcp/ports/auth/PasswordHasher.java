package dev.omcp.ports.auth;

/**
 * Driven port: scrypt hashing and verification. Verification takes real time and memory on
 * purpose (about 32 MiB and tens of milliseconds with the minting parameters); callers bound how
 * many run at once. Thread-safe.
 */
public interface PasswordHasher {

    /** Hashes {@code password} with a fresh random salt and the minting parameters of spec 2.5. */
    PasswordHash hash(String password);

    /** Whether {@code password} matches {@code hash}; the comparison runs in constant time. */
    boolean verify(String password, PasswordHash hash);
}
