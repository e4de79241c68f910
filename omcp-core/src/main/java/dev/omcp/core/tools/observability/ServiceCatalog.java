package dev.omcp.core.tools.observability;

import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The service catalog of {@code OMCP_SERVICE_CATALOG_FILE} (spec 2.11): owner, tier, on-call, SLO
 * and further fields per service, attached to tool results as {@code .catalog}. Immutable.
 */
public final class ServiceCatalog {
    private static final ServiceCatalog EMPTY = new ServiceCatalog(Map.of(), false);
    private final Map<String, JsonObject> entries;
    /** Read from a document, as opposed to {@link #empty()}: what spec 2.10 calls configured. */
    private final boolean read;

    private ServiceCatalog(Map<String, JsonObject> entries, boolean read) {
        this.entries = Map.copyOf(entries);
        this.read = read;
    }

    /**
     * The output schema of a {@code .catalog} member: the operator's fields as written, so open on
     * purpose ({@code additionalProperties: true}).
     */
    static JsonObject schema() {
        return Jsonp.object().add("type", "object").add("additionalProperties", true)
                .add("description", "The service-catalog entry as the operator wrote it: owner, tier, onCall, slo and any other "
                        + "fields.").build();
    }

    /** No catalog: nothing is enriched. */
    public static ServiceCatalog empty() {
        return EMPTY;
    }

    /** The outcome of reading a catalog document. */
    public sealed interface Parsed {
        record Loaded(ServiceCatalog catalog) implements Parsed {}

        record Rejected(List<String> problems) implements Parsed {}
    }

    /**
     * Reads a catalog document: either {@code {"services": {"<name>": {...}}}} or
     * {@code {"services": [{"name": "<name>", ...}]}}. Every problem is reported.
     */
    public static Parsed parse(JsonObject document) {
        JsonValue services = document.get("services");
        Map<String, JsonObject> entries = new LinkedHashMap<>();
        List<String> problems = new java.util.ArrayList<>();
        if (services instanceof JsonObject byName) {
            byName.forEach((name, value) -> {
                if (name.isBlank()) {
                    // no service is named so: the entry could never enrich anything, and was a slip
                    problems.add("services has an entry with an empty name; name the service it describes");
                } else if (value instanceof JsonObject entry) {
                    entries.put(name, entry);
                } else {
                    problems.add("services." + name + " must be an object of catalog fields");
                }
            });
        } else if (services instanceof jakarta.json.JsonArray list) {
            Map<String, Integer> firstAt = new java.util.HashMap<>();
            for (int i = 0; i < list.size(); i++) {
                if (list.get(i) instanceof JsonObject entry && entry.get("name") instanceof jakarta.json.JsonString name) {
                    // as the object form, whose reader refuses a repeated key: which of two entries was meant is a guess
                    if (name.getString().isBlank()) {
                        problems.add("services[" + i + "] has an empty \"name\"; name the service it describes");
                        continue;
                    }
                    Integer first = firstAt.putIfAbsent(name.getString(), i);
                    if (first != null) {
                        problems.add("services[" + i + "] names '" + name.getString() + "' again (first in services[" + first
                                + "]); give each service one entry");
                        continue;
                    }
                    JsonObject without = Jsonp.provider().createObjectBuilder(entry).remove("name").build();
                    entries.put(name.getString(), without);
                } else {
                    problems.add("services[" + i + "] must be an object with a string \"name\"");
                }
            }
        } else {
            problems.add("the catalog needs a \"services\" object (name to fields) or array (objects with \"name\")");
        }
        return problems.isEmpty() ? new Parsed.Loaded(new ServiceCatalog(entries, true)) : new Parsed.Rejected(problems);
    }

    /**
     * The catalog fields of {@code service}, if it is listed: under that name, else, for
     * {@code shop/payments}, under {@code payments}, else, for {@code payments}, under the one
     * {@code <namespace>/payments} the catalog lists (none when several namespaces list it: the
     * entry would be a guess). The tools accept both spellings of one service, so its catalog entry
     * must not depend on which one the agent used.
     */
    public Optional<JsonObject> entry(String service) {
        JsonObject exact = entries.get(service);
        if (exact != null) {
            return Optional.of(exact);
        }
        int slash = service.lastIndexOf('/');
        if (slash > 0 && slash < service.length() - 1) {
            return Optional.ofNullable(entries.get(service.substring(slash + 1)));
        }
        List<JsonObject> namespaced = entries.entrySet().stream()
                .filter(e -> e.getKey().endsWith("/" + service) && e.getKey().length() > service.length() + 1).map(Map.Entry::getValue).toList();
        return namespaced.size() == 1 ? Optional.of(namespaced.getFirst()) : Optional.empty();
    }

    /**
     * Whether this catalog was read from a document ({@link #parse}), though it may list no service yet; false for
     * {@link #empty()}, the catalog of a gateway that has none (spec 2.10 {@code catalogConfigured}). An operator who
     * set the catalog file and sees it read should not be told that no catalog is configured.
     */
    public boolean configured() {
        return read;
    }

    public int size() {
        return entries.size();
    }
}
