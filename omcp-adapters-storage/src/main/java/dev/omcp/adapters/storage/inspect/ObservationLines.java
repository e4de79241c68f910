package dev.omcp.adapters.storage.inspect;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.omcp.ports.inspect.Observation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One observation as one JSONL line, and back. Lines written before the caller's {@code roles} and {@code products}
 * were kept have neither field and read with none.
 */
final class ObservationLines {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ObservationLines() {}

    /** The line, with its newline. */
    static byte[] line(Observation observation) {
        Map<String, Object> json = observation.wireFields();
        try {
            return (MAPPER.writeValueAsString(json) + "\n").getBytes(StandardCharsets.UTF_8);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an observation of strings and numbers cannot fail to serialize", e);
        }
    }

    /** The observation of a line, or empty when the line is not one (torn, edited, of another version). */
    static Optional<Observation> parse(byte[] line) {
        try {
            JsonNode json = MAPPER.readTree(line);
            if (json == null || !json.isObject()) {
                return Optional.empty();
            }
            Observation.Outcome outcome = Observation.Outcome.parse(json.path("outcome").asText());
            Observation.Decision decision = Observation.Decision.parse(json.path("decision").asText());
            Set<String> roles = names(json.get("roles"));
            Set<String> products = names(json.get("products"));
            if (outcome == null || decision == null || !json.path("ts").isTextual() || !json.path("principal").isTextual()
                    || !json.path("tool").isTextual() || !json.path("latencyMs").canConvertToLong() || roles == null || products == null) {
                return Optional.empty();
            }
            return Optional.of(new Observation(Instant.parse(json.get("ts").asText()), json.get("principal").asText(),
                    json.path("authKind").asText(""), json.path("tenant").asText(""), roles, products, json.get("tool").asText(),
                    strings(json.path("resources")), strings(json.path("args")), outcome, Math.max(0, json.get("latencyMs").asLong()),
                    decision));
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // a torn or foreign line is skipped, never fatal for the read
        }
    }

    /**
     * The names of an array of strings; none when the field is absent (a line of an older version); null when it is
     * something else, which this store never wrote: the line is then not an observation, as a record read with the
     * wrong roles would be judged against the wrong {@code role:} rules.
     */
    private static Set<String> names(JsonNode node) {
        if (node == null) {
            return Set.of();
        }
        if (!node.isArray()) {
            return null;
        }
        Set<String> names = new TreeSet<>();
        for (JsonNode name : node) {
            if (!name.isTextual()) {
                return null;
            }
            names.add(name.asText());
        }
        return names;
    }

    private static Map<String, String> strings(JsonNode node) {
        Map<String, String> map = new TreeMap<>();
        if (node.isObject()) {
            node.properties().forEach(entry -> map.put(entry.getKey(), entry.getValue().asText()));
        }
        return map;
    }
}
