package dev.omcp.adapters.storage.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.omcp.ports.audit.AuditEntry;
import dev.omcp.ports.audit.AuditRecord;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Records shaped as the chain writes them (members sorted, no whitespace). The storage adapter
 * does not check hashes, so the hashes here are stand-ins derived from the seq; the real chain
 * and its hashes are exercised end to end in the launcher's tests.
 */
final class TestRecords {
    private static final ObjectMapper SORTED = new ObjectMapper().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);

    private TestRecords() {}

    static String fakeHash(long seq) {
        return SigV4Signer.sha256Hex(("entry " + seq).getBytes(StandardCharsets.UTF_8));
    }

    static AuditRecord record(long seq, Instant ts, String actor, String action, String target) {
        return record(seq, ts, actor, null, action, target);
    }

    static AuditRecord record(long seq, Instant ts, String actor, String tenant, String action, String target) {
        AuditEntry entry = new AuditEntry(ts, seq, actor, tenant, "sources", action, "POST", "/api/sources", 201,
                "127.0.0.1", target, seq == 1 ? AuditEntry.GENESIS_HASH : fakeHash(seq - 1), fakeHash(seq));
        return new AuditRecord(entry, json(entry));
    }

    static String json(AuditEntry entry) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("ts", AuditEntry.formatTimestamp(entry.ts()));
        fields.put("seq", entry.seq());
        fields.put("actor", entry.actor());
        fields.put("tenant", entry.tenant());
        fields.put("resource", entry.resource());
        fields.put("action", entry.action());
        fields.put("method", entry.method());
        fields.put("path", entry.path());
        fields.put("status", entry.status());
        fields.put("ip", entry.ip());
        fields.put("target", entry.target());
        fields.put("prevHash", entry.prevHash());
        fields.put("hash", entry.hash());
        try {
            return SORTED.writeValueAsString(fields);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
