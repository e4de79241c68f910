package dev.omcp.adapters.storage.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** Key names: user-chosen values (usernames, subjects) are hashed, so keys are short and inert. */
final class RedisKeys {
    static final String PREFIX = "omcp:";

    private RedisKeys() {}

    static String hashed(String value) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK provides SHA-256", e);
        }
    }
}
