package dev.omcp.core.sources;

import dev.omcp.ports.sources.SourceDefinition;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.json.Jsonp;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The version of a stored source definition ({@code ETag}, {@code If-Match}): an HMAC-SHA256 of the
 * whole definition, secrets included, under a key that never leaves the process.
 *
 * <p>Keyed because the definition holds secrets: a plain digest in a header that every reader of the
 * source sees would let one guess a password or token offline, one candidate a hash. Secrets are
 * hashed as stored, not as shown, so a masked secret does not make two reads differ and a secret
 * another operator changed makes another version. The price of the key: versions are new at every
 * restart, and another replica's versions differ; a change sent with an old one is refused, never
 * made unseen.
 *
 * <p>A source's version is kept with the definition it was computed from, so reading an unchanged
 * source again (every {@code GET}, the check of an {@code If-Match}) reuses it instead of
 * serializing and hashing the definition again. It is reused only for that very definition object:
 * a changed source is a new definition, whose version is computed anew. Thread-safe.
 */
final class SourceVersions {
    private static final String ALGORITHM = "HmacSHA256";
    private static final int KEY_BYTES = 32;

    private final SecretKeySpec key;
    /** Per source name, the last version computed and the definition it is of. */
    private final Map<String, Computed> lastComputed = new ConcurrentHashMap<>();

    private record Computed(SourceDefinition definition, String version) {}

    /** @param key at least 32 random bytes */
    SourceVersions(byte[] key) {
        if (key.length < KEY_BYTES) {
            throw new IllegalArgumentException("a source version key has at least " + KEY_BYTES + " bytes, got " + key.length);
        }
        this.key = new SecretKeySpec(key.clone(), ALGORITHM);
    }

    /** Versions under a fresh key drawn from {@code random}. */
    static SourceVersions drawnFrom(SecureRandom random) {
        byte[] key = new byte[KEY_BYTES];
        random.nextBytes(key);
        return new SourceVersions(key);
    }

    /** 32 lower-case hex digits; the same for equal definitions under this key. */
    String of(SourceDefinition definition) {
        Computed last = lastComputed.get(definition.name());
        // identity, not equals: comparing two definitions field by field would cost about what hashing one does
        if (last != null && last.definition() == definition) {
            return last.version();
        }
        String version = computed(definition);
        lastComputed.put(definition.name(), new Computed(definition, version));
        return version;
    }

    /** Drops the version kept for a source that is gone, so a removed definition is not held. */
    void forget(String name) {
        lastComputed.remove(name);
    }

    /** Drops every version kept (the registry serves no source any more). */
    void forgetAll() {
        lastComputed.clear();
    }

    private String computed(SourceDefinition definition) {
        SourceConfig config = definition.config();
        // every field in a fixed order, the settings as stored (secrets unmasked)
        String canonical = Jsonp.object().add("name", config.name()).add("type", config.type()).add("url", config.url())
                .add("tenant", config.tenant()).add("enabled", definition.enabled())
                .add("origin", definition.origin().name().toLowerCase(Locale.ROOT)).add("settings", config.settings())
                .build().toString();
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return HexFormat.of().formatHex(mac.doFinal(canonical.getBytes(StandardCharsets.UTF_8)), 0, 16);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("every Java runtime has HmacSHA256", e);
        }
    }
}
