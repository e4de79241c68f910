package dev.omcp.adapters.storage.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.ports.audit.AuditEntry;
import dev.omcp.sdk.text.BackendText;
import java.io.IOException;
import java.util.Iterator;
import java.util.Set;

/**
 * Reads one line of the audit file back into an entry. Strict: every field with its type and no
 * other. (Verifying the hash is the chain's business; this only reads.)
 */
final class AuditLineParser {
    private static final Set<String> FIELDS = Set.of("ts", "seq", "actor", "tenant", "resource", "action", "method",
            "path", "status", "ip", "target", "prevHash", "hash");
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private AuditLineParser() {}

    /**
     * Parses a line (without its line break).
     *
     * @throws IllegalArgumentException saying what is wrong with it
     */
    static AuditEntry parse(byte[] line) {
        JsonNode node;
        try {
            node = MAPPER.readTree(line);
        } catch (JsonProcessingException e) {
            // the parser's message quotes the offending token, which may hold control characters
            throw new IllegalArgumentException("not valid JSON (" + BackendText.quoted(e.getOriginalMessage(), 200) + ")", e);
        } catch (IOException e) {
            throw new IllegalArgumentException("not readable as JSON", e);
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("not a JSON object");
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!FIELDS.contains(name)) {
                // the name comes from the file: bounded and on one line, so it cannot forge a log line or drive a terminal
                throw new IllegalArgumentException("unexpected field '" + BackendText.quoted(name, 64) + "'");
            }
        }
        try {
            return new AuditEntry(
                    timestamp(text(node, "ts")),
                    integer(node, "seq"),
                    text(node, "actor"),
                    textOrNull(node, "tenant"),
                    text(node, "resource"),
                    text(node, "action"),
                    textOrNull(node, "method"),
                    textOrNull(node, "path"),
                    (int) integer(node, "status"),
                    textOrNull(node, "ip"),
                    textOrNull(node, "target"),
                    text(node, "prevHash"),
                    text(node, "hash"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not an audit entry: " + e.getMessage(), e);
        }
    }

    private static java.time.Instant timestamp(String text) {
        try {
            return AuditEntry.parseTimestamp(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("field 'ts': " + e.getMessage(), e);
        }
    }

    private static JsonNode required(JsonNode node, String name) {
        JsonNode value = node.get(name);
        if (value == null) {
            throw new IllegalArgumentException("field '" + name + "' is missing");
        }
        return value;
    }

    private static String text(JsonNode node, String name) {
        JsonNode value = required(node, name);
        if (!value.isTextual()) {
            throw new IllegalArgumentException("field '" + name + "' must be a string");
        }
        return value.textValue();
    }

    private static String textOrNull(JsonNode node, String name) {
        JsonNode value = required(node, name);
        if (value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw new IllegalArgumentException("field '" + name + "' must be a string or null");
        }
        return value.textValue();
    }

    private static long integer(JsonNode node, String name) {
        JsonNode value = required(node, name);
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw new IllegalArgumentException("field '" + name + "' must be an integer");
        }
        long number = value.longValue();
        if (name.equals("status") && (number < 0 || number > 999)) {
            throw new IllegalArgumentException("field 'status' must be 0 to 999");
        }
        return number;
    }
}
