package dev.omcp.adapters.storage.config;

import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Where a setting stands in its connector's configSchema: the subschema that describes it, found through
 * {@code properties}, {@code additionalProperties}, {@code items} and a {@code $ref} into the same schema ({@code $defs}),
 * the keywords a manifest describes settings with. Composition ({@code allOf}, {@code oneOf}, {@code anyOf}, {@code if})
 * and {@code patternProperties} are not followed: a setting found only through them has no declared type here, and a
 * {@code ${VAR}} there stays text, as it always did.
 *
 * @param schema the subschema here, if the schema describes this place
 * @param root the whole schema, which a {@code $ref} points into
 */
record SchemaPlace(Optional<JsonObject> schema, JsonObject root) {
    /** No schema, or a place it does not describe. */
    static final SchemaPlace NONE = new SchemaPlace(Optional.empty(), JsonValue.EMPTY_JSON_OBJECT);
    /** More references in a row than a schema needs: a cycle ({@code "$ref": "#"} inside itself) ends here. */
    private static final int MAX_REFERENCES = 16;

    /** The place of a whole source's settings. */
    static SchemaPlace of(Optional<JsonObject> schema) {
        return new SchemaPlace(schema, schema.orElse(JsonValue.EMPTY_JSON_OBJECT));
    }

    /** The place of the key {@code key} of the object described here. */
    SchemaPlace property(String key) {
        Optional<JsonObject> here = resolved();
        Optional<JsonObject> properties = member(here, "properties");
        boolean declared = properties.filter(p -> p.containsKey(key)).isPresent();
        return at(declared ? member(properties, key) : member(here, "additionalProperties"));
    }

    /** The place of each item of the array described here. */
    SchemaPlace items() {
        return at(member(resolved(), "items"));
    }

    /** The JSON types declared here ({@code type}: one name or a list of them), in the order declared; empty when none. */
    Set<String> types() {
        Set<String> types = new LinkedHashSet<>();
        JsonValue type = resolved().map(s -> s.get("type")).orElse(null);
        if (type instanceof JsonString one) {
            types.add(one.getString());
        } else if (type != null && type.getValueType() == JsonValue.ValueType.ARRAY) {
            type.asJsonArray().forEach(t -> {
                if (t instanceof JsonString name) {
                    types.add(name.getString());
                }
            });
        }
        return types;
    }

    private SchemaPlace at(Optional<JsonObject> subschema) {
        return new SchemaPlace(subschema, root);
    }

    /** The subschema here, with a {@code $ref} into the same schema followed where the subschema declares no type itself. */
    private Optional<JsonObject> resolved() {
        Optional<JsonObject> current = schema;
        for (int hops = 0; hops < MAX_REFERENCES; hops++) {
            if (current.isEmpty() || current.get().containsKey("type")
                    || !(current.get().get("$ref") instanceof JsonString reference) || !reference.getString().startsWith("#")) {
                return current;
            }
            current = pointed(reference.getString().substring(1));
        }
        return Optional.empty();
    }

    private Optional<JsonObject> pointed(String pointer) {
        if (pointer.isEmpty()) {
            return Optional.of(root);
        }
        try {
            JsonValue value = Jsonp.provider().createPointer(pointer).getValue(root);
            return value.getValueType() == JsonValue.ValueType.OBJECT ? Optional.of(value.asJsonObject()) : Optional.empty();
        } catch (JsonException | IllegalArgumentException e) {
            return Optional.empty(); // a reference to nowhere: the schema check names it, here it only means no type
        }
    }

    private static Optional<JsonObject> member(Optional<JsonObject> object, String key) {
        return object.map(o -> o.get(key)).filter(v -> v.getValueType() == JsonValue.ValueType.OBJECT).map(JsonValue::asJsonObject);
    }
}
