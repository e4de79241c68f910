package dev.omcp.ports.entitlements;

/**
 * Driven port: checks a detached signature with the issuer's public key (Ed25519 for entitlement
 * tokens), so the token rules stay free of key parsing and crypto providers. Thread-safe.
 */
@FunctionalInterface
public interface SignatureCheck {

    /** Whether {@code signature} is the key holder's signature of exactly {@code data}; never throws. */
    boolean verifies(byte[] data, byte[] signature);
}
