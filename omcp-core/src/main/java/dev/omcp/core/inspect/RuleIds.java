package dev.omcp.core.inspect;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Objects;
import java.util.function.Supplier;

/** New rule ids: {@code r-} and 12 lowercase hex digits (48 random bits), so an id says nothing about the rule. */
public final class RuleIds {
    private static final int BYTES = 6;

    private RuleIds() {}

    /** Ids drawn from {@code random}; the deriver checks each against the profile, so a repeat is never used. */
    public static Supplier<String> from(SecureRandom random) {
        Objects.requireNonNull(random, "random");
        return () -> {
            byte[] bytes = new byte[BYTES];
            random.nextBytes(bytes);
            return "r-" + HexFormat.of().formatHex(bytes);
        };
    }
}
