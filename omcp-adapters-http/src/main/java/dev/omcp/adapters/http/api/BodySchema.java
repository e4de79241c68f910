package dev.omcp.adapters.http.api;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The JSON Schema (draft 2020-12, as OpenAPI 3.1 reads it) of a JSON request body, published in
 * {@code /api/openapi.json} so a client generator or an operator knows what to send. It states what the
 * route's handler enforces, no more: a schema that promised less or more than the handler checks would
 * mislead the very reader it is for. Each route keeps its schema next to the code that reads the body.
 *
 * <p>The leaf factories ({@link #string}, {@link #positiveNumber}, ...) return plain maps; an object is built with
 * {@link #object} and ended with {@link #build}.
 */
public final class BodySchema {
    private final String description;
    private final Map<String, Object> properties = new LinkedHashMap<>();
    private final List<String> required = new ArrayList<>();
    private final Map<String, Object> extra = new LinkedHashMap<>();
    private Object additionalProperties = Boolean.FALSE;

    private BodySchema(String description) {
        this.description = Objects.requireNonNull(description, "description");
    }

    /** An object that takes only the properties it is given (the management API refuses any other member). */
    public static BodySchema object(String description) {
        return new BodySchema(description);
    }

    /** A property the body may carry. */
    public BodySchema property(String name, Map<String, Object> schema) {
        properties.put(name, schema);
        return this;
    }

    /** A property the body must carry; the handler answers 400 without it. */
    public BodySchema requiredProperty(String name, Map<String, Object> schema) {
        required.add(name);
        return property(name, schema);
    }

    /** Properties already given that the body must carry; the handler answers 400 without one. */
    public BodySchema required(List<String> names) {
        for (String name : names) {
            if (!properties.containsKey(name)) {
                throw new IllegalArgumentException("required property " + name + " is not among the properties");
            }
            required.add(name);
        }
        return this;
    }

    /** Members other than the listed properties are taken too, as {@code description} says (free-form or ignored). */
    public BodySchema otherMembers(String description) {
        this.additionalProperties = Map.of("description", description);
        return this;
    }

    /** Any further keyword of the object's schema ({@code minProperties}, {@code oneOf}, ...). */
    public BodySchema keyword(String name, Object value) {
        extra.put(name, value);
        return this;
    }

    /** The schema as a JSON-ready map. */
    public Map<String, Object> build() {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("description", description);
        if (!properties.isEmpty()) {
            schema.put("properties", Collections.unmodifiableMap(new LinkedHashMap<>(properties)));
        }
        if (!required.isEmpty()) {
            schema.put("required", List.copyOf(required));
        }
        schema.put("additionalProperties", additionalProperties);
        schema.putAll(extra);
        return Collections.unmodifiableMap(schema);
    }

    /** Whether {@code schema} says more than {@code {"type": "object"}}: properties, or what its members may be. */
    public static boolean describes(Map<String, Object> schema) {
        boolean members = schema.containsKey("properties") || schema.containsKey("additionalProperties")
                || schema.containsKey("anyOf") || schema.containsKey("oneOf");
        return members && schema.get("description") instanceof String text && !text.isBlank();
    }

    public static Map<String, Object> string(String description) {
        return Map.of("type", "string", "description", description);
    }

    /** A string of {@code minLength} to {@code maxLength} characters. */
    public static Map<String, Object> string(String description, int minLength, int maxLength) {
        return Map.of("type", "string", "description", description, "minLength", minLength, "maxLength", maxLength);
    }

    /** A string the whole of which matches {@code pattern} (the handler's {@link java.util.regex.Matcher#matches}). */
    public static Map<String, Object> string(String description, Pattern pattern) {
        return Map.of("type", "string", "description", description, "pattern", "^(?:" + pattern.pattern() + ")$");
    }

    public static Map<String, Object> bool(String description) {
        return Map.of("type", "boolean", "description", description);
    }

    /** A number greater than 0 and at most {@code maximum}. */
    public static Map<String, Object> positiveNumber(String description, Number maximum) {
        return Map.of("type", "number", "description", description, "exclusiveMinimum", 0, "maximum", maximum);
    }

    /** An array of at most {@code maxItems} strings. */
    public static Map<String, Object> strings(String description, int maxItems) {
        return Map.of("type", "array", "description", description, "items", Map.of("type", "string"), "maxItems", maxItems);
    }

    /** A free-form object: its members are judged by someone else (a connector, a tool's input schema). */
    public static Map<String, Object> freeObject(String description) {
        return Map.of("type", "object", "description", description, "additionalProperties", true);
    }
}
