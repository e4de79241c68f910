package dev.omcp.app.access;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Instant;
import java.util.Base64;

/**
 * A test's own entitlement issuer (DECISIONS.md "Entitlements"): an Ed25519 key pair whose public half
 * goes into {@code OMCP_ENTITLEMENT_PUBKEY} and whose private half signs {@code OMCP_ENTITLEMENT_TOKEN}s.
 */
final class EntitlementIssuer {
    private final KeyPair keys;

    EntitlementIssuer() {
        try {
            keys = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The public key as PEM, for {@code OMCP_ENTITLEMENT_PUBKEY}. */
    String publicKeyPem() {
        return "-----BEGIN PUBLIC KEY-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(keys.getPublic().getEncoded()) + "\n-----END PUBLIC KEY-----\n";
    }

    /** A token granting {@code feature} from {@code iat} to {@code exp}, for {@code OMCP_ENTITLEMENT_TOKEN}. */
    String token(String feature, Instant iat, Instant exp) {
        String payload = "{\"exp\":" + exp.getEpochSecond() + ",\"features\":[\"" + feature + "\"],\"iat\":" + iat.getEpochSecond()
                + ",\"sub\":\"test\"}";
        Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
        String first = b64.encodeToString(payload.getBytes(StandardCharsets.UTF_8));
        try {
            Signature signer = Signature.getInstance("Ed25519");
            signer.initSign(keys.getPrivate());
            signer.update(first.getBytes(StandardCharsets.US_ASCII));
            return first + "." + b64.encodeToString(signer.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
