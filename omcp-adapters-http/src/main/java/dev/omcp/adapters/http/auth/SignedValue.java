package dev.omcp.adapters.http.auth;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * {@code base64url(payload).base64url(HMAC-SHA256(key, base64url(payload)))}: the format of the
 * session cookie (DECISIONS.md) and of the short-lived OIDC login state. The signature is checked
 * in constant time before the payload is looked at.
 */
public final class SignedValue {
    /** Longest signed value accepted; cookies are far smaller. */
    public static final int MAX_LENGTH = 4096;
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    private final SecretKeySpec key;

    /** @param key the HMAC key; at least 32 bytes */
    public SignedValue(byte[] key) {
        if (key.length < 32) {
            throw new IllegalArgumentException("an HMAC key needs at least 32 bytes");
        }
        this.key = new SecretKeySpec(key.clone(), "HmacSHA256");
    }

    /** A key derived from {@code secret} for one purpose, so values of one purpose never verify as another. */
    public static byte[] derive(byte[] secret, String purpose) {
        return hmac(new SecretKeySpec(secret, "HmacSHA256"), purpose.getBytes(StandardCharsets.UTF_8));
    }

    /** Signs a payload. */
    public String sign(byte[] payload) {
        String encoded = ENCODER.encodeToString(payload);
        return encoded + "." + ENCODER.encodeToString(hmac(key, encoded.getBytes(StandardCharsets.US_ASCII)));
    }

    /** The payload of a value whose signature is valid; empty for anything else. */
    public Optional<byte[]> verify(String value) {
        if (value == null || value.isEmpty() || value.length() > MAX_LENGTH) {
            return Optional.empty();
        }
        int dot = value.lastIndexOf('.');
        if (dot <= 0 || dot == value.length() - 1) {
            return Optional.empty();
        }
        String encoded = value.substring(0, dot);
        byte[] presented;
        byte[] payload;
        try {
            presented = Base64.getUrlDecoder().decode(value.substring(dot + 1));
            payload = Base64.getUrlDecoder().decode(encoded);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        byte[] expected = hmac(key, encoded.getBytes(StandardCharsets.US_ASCII));
        return MessageDigest.isEqual(expected, presented) ? Optional.of(payload) : Optional.empty();
    }

    private static byte[] hmac(SecretKeySpec key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(data);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("every JDK provides HmacSHA256", e);
        }
    }
}
