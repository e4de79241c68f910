package dev.omcp.ports.audit;

import java.util.Objects;

/**
 * An entry together with its serialized form, the one line the store writes and the sinks send.
 *
 * @param entry the entry
 * @param json the RFC 8785 canonical JSON of the whole entry (including {@code hash}), without a
 *     line break; stores and sinks write these characters unchanged, so every copy verifies
 */
public record AuditRecord(AuditEntry entry, String json) {
    public AuditRecord {
        Objects.requireNonNull(entry, "entry");
        Objects.requireNonNull(json, "json");
        if (json.indexOf('\n') >= 0 || json.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("the serialized entry must be one line");
        }
    }
}
