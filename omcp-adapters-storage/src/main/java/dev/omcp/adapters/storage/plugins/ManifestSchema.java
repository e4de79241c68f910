package dev.omcp.adapters.storage.plugins;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.omcp.sdk.text.BackendText;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The manifest JSON Schema (draft 2020-12) of spec 2.2 with the required fields and signal types of
 * DECISIONS.md. Every violation (up to {@link #MAX_VIOLATIONS}) is reported, each with the JSON path
 * it concerns. The validator never fetches anything: the draft 2020-12 meta-schema the
 * {@code configSchema} is checked against ships inside the validator.
 */
final class ManifestSchema {
    /** Violations a check reports, the count of the rest after them. */
    static final int MAX_VIOLATIONS = 20;
    /** Characters of one violation. */
    static final int MAX_VIOLATION_CHARS = 300;
    private static final String RESOURCE = "/dev/omcp/adapters/storage/plugins/manifest.schema.json";
    /** Guarded by {@code this}; compiled on first use (see {@link #compiled()}). */
    private Compiled compiled;

    /**
     * The schema, and the {@code maxLength} of each top-level string property that also has a
     * {@code pattern}.
     */
    private record Compiled(Schema schema, Map<String, Integer> patternedMaxLengths) {}

    /**
     * Compiles the schema on first use: compiling it (with the draft 2020-12 meta-schema) costs
     * about 60 ms, a tenth of the gateway's start-up, and most starts validate no manifest at all.
     */
    private synchronized Compiled compiled() {
        if (compiled == null) {
            compiled = compile();
        }
        return compiled;
    }

    private static Compiled compile() {
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                builder -> builder.schemaLoader(loader -> loader.fetchRemoteResources(false)));
        byte[] bytes;
        try (InputStream in = ManifestSchema.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the manifest schema " + RESOURCE + " is missing from the jar");
            }
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("the manifest schema in the jar is unreadable", e);
        }
        Map<String, Integer> patterned = new LinkedHashMap<>();
        try {
            new ObjectMapper().readTree(bytes).path("properties").properties().forEach(property -> {
                if (property.getValue().has("pattern") && property.getValue().path("maxLength").canConvertToInt()) {
                    patterned.put(property.getKey(), property.getValue().path("maxLength").intValue());
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("the manifest schema in the jar is not JSON", e);
        }
        return new Compiled(registry.getSchema(new ByteArrayInputStream(bytes), InputFormat.JSON), Collections.unmodifiableMap(patterned));
    }

    /**
     * The violations of {@code manifest}, each as {@code /json/pointer: message} (or just the message
     * for the root object), on one line of at most {@link #MAX_VIOLATION_CHARS} characters; empty when
     * valid. After {@link #MAX_VIOLATIONS} of them one more says how many were left out: a manifest of a
     * megabyte can break the schema tens of thousands of times, each violation quoting its property's
     * name, and every one of them was logged and shown by the connectors listing.
     */
    List<String> violations(JsonNode manifest) {
        Compiled schema = compiled();
        List<String> overLong = overLongPatterned(manifest, schema.patternedMaxLengths());
        if (!overLong.isEmpty()) {
            // refused on their length alone: a pattern such as the version's repeats a group per dot-separated
            // part, and java.util.regex recurses once per repetition (a catalog's 20,000-part version overflowed
            // the stack). The manifest may come from a hub's catalog, read before any signature.
            return overLong;
        }
        List<Error> errors;
        try {
            errors = schema.schema().validate(manifest);
        } catch (StackOverflowError e) {
            // the validator recursed past the stack on some other value or nesting; its frames are gone by now
            return List.of("the manifest could not be checked: a value is too long or nested too deeply for the manifest "
                    + "schema; shorten it");
        }
        List<String> all = errors.stream().map(ManifestSchema::describe).distinct().toList();
        if (all.size() <= MAX_VIOLATIONS) {
            return all;
        }
        List<String> shown = new ArrayList<>(all.subList(0, MAX_VIOLATIONS));
        shown.add("and " + (all.size() - MAX_VIOLATIONS) + " more violations of the manifest schema; fix the ones above and check again");
        return shown;
    }

    /** The violation of each patterned property longer than its {@code maxLength}, worded as the validator words it. */
    private static List<String> overLongPatterned(JsonNode manifest, Map<String, Integer> maxLengths) {
        List<String> out = new ArrayList<>();
        maxLengths.forEach((name, max) -> {
            JsonNode value = manifest.get(name);
            if (value != null && value.isTextual() && value.asText().codePointCount(0, value.asText().length()) > max) {
                out.add("/" + name + ": must be at most " + max + " characters long");
            }
        });
        return out;
    }

    /** A violation quotes the manifest (a property name, a JSON pointer): one line, cut, as any text of a plugin's files. */
    private static String describe(Error error) {
        String location = error.getInstanceLocation() == null ? "" : error.getInstanceLocation().toString();
        String message = error.getMessage();
        String violation = location.isEmpty() || message.startsWith(location) ? message : location + ": " + message;
        return BackendText.quoted(violation, MAX_VIOLATION_CHARS);
    }
}
