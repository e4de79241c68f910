package dev.omcp.adapters.storage.plugins;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.omcp.adapters.storage.files.JsonSyntaxLocation;
import dev.omcp.sdk.hook.HookKind;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.manifest.Capabilities;
import dev.omcp.sdk.manifest.ConnectorManifest;
import dev.omcp.sdk.manifest.HookEntry;
import dev.omcp.sdk.text.BackendText;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads {@code manifest.json} and {@code package.json}: the one class of the plugin adapter where
 * Jackson (parsing, schema validation) meets jakarta.json (the SDK's {@code configSchema}).
 */
final class ManifestMapping {
    /** Duplicate keys are refused: two parsers reading one manifest differently is a classic bypass. */
    static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    static {
        JSON.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build());
    }

    /** How much of the JSON parser's own message a refusal quotes. */
    private static final int MAX_PARSER_MESSAGE = 200;

    private ManifestMapping() {}

    /** Parses JSON text, or says why it is not a JSON object. */
    static Parsed parse(byte[] bytes, String what) {
        String text;
        try {
            // strict: a lenient decoder would turn invalid bytes into U+FFFD, so the text parsed would not
            // be the bytes that were signed, and another reader of the same file could see other text
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return new Parsed(null, what + " is not valid UTF-8 (JSON text must be, RFC 8259 section 8.1); save it as UTF-8");
        }
        try {
            JsonNode node = JSON.readTree(text);
            if (node == null || !node.isObject()) {
                return new Parsed(null, what + " is not a JSON object");
            }
            return new Parsed(node, null);
        } catch (JsonProcessingException e) {
            // the parser quotes the file's own text (a bad token, a duplicate key): an unsigned or
            // uploaded file's text must not forge a log line or run on for kilobytes in a refusal
            String where = JsonSyntaxLocation.of(e);
            return new Parsed(null, what + " is not valid JSON" + where + ": " + BackendText.clean(e.getOriginalMessage(), MAX_PARSER_MESSAGE));
        }
    }

    /** A parse outcome: a node, or the problem. */
    record Parsed(JsonNode node, String problem) {}

    /** The manifest record of a manifest that passed the schema. */
    static ConnectorManifest toManifest(JsonNode node) {
        JsonNode caps = node.path("capabilities");
        Capabilities capabilities = new Capabilities(
                caps.path("queryMetrics").asBoolean(false),
                caps.path("queryLogs").asBoolean(false),
                caps.path("listServices").asBoolean(false),
                caps.path("queryTraces").asBoolean(false),
                caps.path("topology").asBoolean(false));
        List<String> signalTypes = new ArrayList<>();
        node.path("signalTypes").forEach(t -> signalTypes.add(t.asText()));
        List<HookEntry> hooks = new ArrayList<>();
        for (JsonNode hook : node.path("hooks")) {
            HookKind kind = HookKind.fromWireName(hook.path("kind").asText())
                    .orElseThrow(() -> new IllegalArgumentException("hook kind was validated by the schema"));
            hooks.add(new HookEntry(kind, hook.path("module").asText(),
                    hook.has("priority") ? hook.path("priority").asInt() : HookEntry.DEFAULT_PRIORITY,
                    text(hook, "mode")));
        }
        JsonNode configSchema = node.path("configSchema");
        return new ConnectorManifest(
                node.path("schemaVersion").asInt(),
                node.path("name").asText(),
                node.path("displayName").asText(),
                node.path("version").asText(),
                node.path("description").asText(),
                signalTypes,
                capabilities,
                configSchema.isObject() ? toJsonObject(configSchema) : JsonObject.EMPTY_JSON_OBJECT,
                text(node.path("compat"), "serverVersion"),
                text(node, "integrity"),
                hooks,
                text(node, "homepage"),
                text(node, "license"));
    }

    private static Optional<String> text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && value.isTextual() ? Optional.of(value.asText()) : Optional.empty();
    }

    private static JsonObject toJsonObject(JsonNode node) {
        try (JsonReader reader = Jsonp.reader((node.toString()))) {
            return reader.readObject();
        }
    }
}
