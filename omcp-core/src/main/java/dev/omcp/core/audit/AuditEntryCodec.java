package dev.omcp.core.audit;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.core.canonical.CanonicalJson;
import dev.omcp.ports.audit.AuditEntry;
import dev.omcp.sdk.text.BackendText;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Set;

/**
 * Turns entries into JSON and back, and computes their hash: SHA-256 (lower-case hex) of the
 * RFC 8785 canonical JSON of the entry without {@code hash} (DECISIONS.md "Audit entry").
 */
public final class AuditEntryCodec {
    static final Set<String> FIELDS = Set.of("ts", "seq", "actor", "tenant", "resource", "action", "method", "path",
            "status", "ip", "target", "prevHash", "hash");

    private AuditEntryCodec() {}

    /** The entry's fields as JSON, with {@code hash} when {@code withHash}. Absent values are {@code null}. */
    public static JsonObject toJson(Entry entry, boolean withHash) {
        JsonObjectBuilder json = Jsonp.object()
                .add("ts", AuditEntry.formatTimestamp(entry.ts()))
                .add("seq", entry.seq())
                .add("actor", entry.actor())
                .add("resource", entry.resource())
                .add("action", entry.action())
                .add("status", entry.status())
                .add("prevHash", entry.prevHash());
        nullable(json, "tenant", entry.tenant());
        nullable(json, "method", entry.method());
        nullable(json, "path", entry.path());
        nullable(json, "ip", entry.ip());
        nullable(json, "target", entry.target());
        if (withHash) {
            json.add("hash", entry.hash());
        }
        return json.build();
    }

    /** {@link #toJson(Entry, boolean)} for a complete entry. */
    public static JsonObject toJson(AuditEntry entry) {
        return toJson(Entry.of(entry), true);
    }

    /** The line a store writes: the canonical JSON of the whole entry. */
    public static String line(AuditEntry entry) {
        return CanonicalJson.canonicalize(toJson(entry));
    }

    /** The hash of an entry: covers every field but {@code hash} itself, including {@code prevHash}. */
    public static String hash(Entry entry) {
        byte[] canonical = CanonicalJson.canonicalBytes(toJson(entry, false));
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-256, which every Java platform must provide", e);
        }
    }

    /**
     * Reads an entry from JSON. Every field must be present with its type, and no other field.
     *
     * @throws IllegalArgumentException naming the first field that is wrong
     */
    public static AuditEntry fromJson(JsonObject json) {
        for (String name : json.keySet()) {
            if (!FIELDS.contains(name)) {
                // the name comes from the file: bounded and on one line, so it cannot drive the terminal showing it
                throw new IllegalArgumentException("unexpected field '" + BackendText.quoted(name, 64) + "'");
            }
        }
        Instant ts;
        try {
            ts = AuditEntry.parseTimestamp(text(json, "ts"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("field 'ts': " + e.getMessage(), e);
        }
        long seq = integer(json, "seq");
        long status = integer(json, "status");
        if (status < 0 || status > 999) {
            throw new IllegalArgumentException("field 'status' must be 0 to 999");
        }
        String prevHash = text(json, "prevHash");
        String hash = text(json, "hash");
        if (!AuditEntry.isHash(prevHash) || !AuditEntry.isHash(hash)) {
            throw new IllegalArgumentException("fields 'prevHash' and 'hash' must be 64 lower-case hex digits");
        }
        if (seq < 1 || seq > AuditEntry.MAX_SEQ) {
            // past MAX_SEQ two seqs share one canonical spelling, so the hash could not tell the entries apart
            throw new IllegalArgumentException("field 'seq' must be 1 to " + AuditEntry.MAX_SEQ);
        }
        return new AuditEntry(ts, seq, text(json, "actor"), textOrNull(json, "tenant"), text(json, "resource"),
                text(json, "action"), textOrNull(json, "method"), textOrNull(json, "path"), (int) status,
                textOrNull(json, "ip"), textOrNull(json, "target"), prevHash, hash);
    }

    private static void nullable(JsonObjectBuilder json, String name, String value) {
        if (value == null) {
            json.addNull(name);
        } else {
            json.add(name, value);
        }
    }

    private static JsonValue required(JsonObject json, String name) {
        JsonValue value = json.get(name);
        if (value == null) {
            throw new IllegalArgumentException("field '" + name + "' is missing");
        }
        return value;
    }

    private static String text(JsonObject json, String name) {
        if (!(required(json, name) instanceof JsonString string)) {
            throw new IllegalArgumentException("field '" + name + "' must be a string");
        }
        return string.getString();
    }

    private static String textOrNull(JsonObject json, String name) {
        JsonValue value = required(json, name);
        if (value == JsonValue.NULL) {
            return null;
        }
        if (!(value instanceof JsonString string)) {
            throw new IllegalArgumentException("field '" + name + "' must be a string or null");
        }
        return string.getString();
    }

    private static long integer(JsonObject json, String name) {
        if (!(required(json, name) instanceof JsonNumber number) || !number.isIntegral()) {
            throw new IllegalArgumentException("field '" + name + "' must be an integer");
        }
        try {
            return number.longValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("field '" + name + "' is out of range", e);
        }
    }

    /** The fields of an entry, possibly before its hash is known. */
    public record Entry(Instant ts, long seq, String actor, String tenant, String resource, String action,
            String method, String path, int status, String ip, String target, String prevHash, String hash) {

        static Entry of(AuditEntry e) {
            return new Entry(e.ts(), e.seq(), e.actor(), e.tenant(), e.resource(), e.action(), e.method(), e.path(),
                    e.status(), e.ip(), e.target(), e.prevHash(), e.hash());
        }

        AuditEntry withHash(String hash) {
            return new AuditEntry(ts, seq, actor, tenant, resource, action, method, path, status, ip, target, prevHash, hash);
        }
    }
}
