package dev.omcp.core.scim;

import dev.omcp.ports.scim.ScimError;
import dev.omcp.ports.scim.ScimOutcome;
import dev.omcp.ports.scim.ScimResourceType;

import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The attribute rules of both resource types: which attributes are kept, their types, and the
 * required unique one. Attributes are held as a name to value map while a request changes them,
 * and checked as a whole once it has.
 */
final class ScimAttributes {
    /** Longest accepted string attribute. */
    static final int MAX_TEXT = 1024;
    /** Most elements of a multi-valued attribute (members of one group). */
    static final int MAX_ELEMENTS = 10_000;
    private static final List<String> ELEMENT_TEXTS = List.of("value", "display", "type", "$ref");

    private ScimAttributes() {}

    /** The allow-listed attributes of {@code body}, keyed as the type spells them; others are dropped. */
    static Map<String, JsonValue> accepted(ScimResourceType type, JsonObject body) {
        Map<String, JsonValue> out = new LinkedHashMap<>();
        body.forEach((name, value) -> type.attribute(name).ifPresent(attribute -> out.put(attribute, value)));
        return out;
    }

    /**
     * Checks and normalizes {@code attributes} in place: {@code null} values removed, {@code active}
     * given as the text {@code "True"} / {@code "False"} (as some directories send it) made a boolean,
     * sub-attributes of elements narrowed to the known ones.
     *
     * @return the problem, or empty when the attributes are valid
     */
    static Optional<ScimError> normalize(ScimResourceType type, Map<String, JsonValue> attributes) {
        attributes.values().removeIf(value -> value.getValueType() == JsonValue.ValueType.NULL);
        for (Map.Entry<String, JsonValue> entry : attributes.entrySet()) {
            String name = entry.getKey();
            JsonValue value = entry.getValue();
            if (name.equals("active")) {
                Optional<JsonValue> flag = bool(value);
                if (flag.isEmpty()) {
                    return Optional.of(ScimError.invalidValue("active must be true or false"));
                }
                entry.setValue(flag.get());
            } else if (type.multiValued(name)) {
                if (!(value instanceof JsonArray array) || array.size() > MAX_ELEMENTS) {
                    return Optional.of(ScimError.invalidValue(name + " must be an array of at most " + MAX_ELEMENTS
                            + " objects, each with a value"));
                }
                JsonArrayBuilder elements = Jsonp.array();
                for (JsonValue element : array) {
                    Optional<JsonObject> narrowed = element(element);
                    if (narrowed.isEmpty()) {
                        return Optional.of(ScimError.invalidValue("each element of " + name + " must be an object with value (a string"
                                + " of at most " + MAX_TEXT + " characters)"));
                    }
                    elements.add(narrowed.get());
                }
                entry.setValue(elements.build());
            } else if (!(value instanceof JsonString text) || text.getString().length() > MAX_TEXT) {
                return Optional.of(ScimError.invalidValue(name + " must be a string of at most " + MAX_TEXT + " characters"));
            }
        }
        String unique = type.uniqueAttribute();
        if (!(attributes.get(unique) instanceof JsonString text) || text.getString().isBlank()) {
            return Optional.of(ScimError.invalidValue(type.resourceName() + " needs " + unique + " (a non-empty string)"));
        }
        return Optional.empty();
    }

    /** The element as kept: {@code value}, {@code display}, {@code type}, {@code $ref} (strings), {@code primary} (boolean). */
    static Optional<JsonObject> element(JsonValue element) {
        if (!(element instanceof JsonObject object) || !(object.get("value") instanceof JsonString value)
                || value.getString().isEmpty() || value.getString().length() > MAX_TEXT) {
            return Optional.empty();
        }
        JsonObjectBuilder kept = Jsonp.object();
        for (String name : ELEMENT_TEXTS) {
            if (object.get(name) instanceof JsonString text && text.getString().length() <= MAX_TEXT) {
                kept.add(name, text);
            }
        }
        bool(object.getOrDefault("primary", JsonValue.NULL)).ifPresent(primary -> kept.add("primary", primary));
        return Optional.of(kept.build());
    }

    private static Optional<JsonValue> bool(JsonValue value) {
        if (value == JsonValue.TRUE || value == JsonValue.FALSE) {
            return Optional.of(value);
        }
        if (value instanceof JsonString text) {
            String lower = text.getString().toLowerCase(Locale.ROOT);
            if (lower.equals("true")) {
                return Optional.of(JsonValue.TRUE);
            }
            if (lower.equals("false")) {
                return Optional.of(JsonValue.FALSE);
            }
        }
        return Optional.empty();
    }
}
