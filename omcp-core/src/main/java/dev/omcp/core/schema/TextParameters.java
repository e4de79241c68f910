package dev.omcp.core.schema;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.text.BackendText;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Turns text parameters (URL query parameters) into a JSON arguments object typed by a tool's input
 * schema: {@code limit=5} becomes the number 5 when the schema says {@code integer}, a repeated
 * parameter becomes an array when the schema says {@code array}. A parameter the schema does not
 * describe stays a string, so the schema check that follows reports it instead of it being dropped
 * silently.
 */
public final class TextParameters {
    /** More parameters than any tool has; a longer list is refused before anything is converted. */
    public static final int MAX_PARAMETERS = 64;

    private TextParameters() {}

    /** The outcome of a conversion: the arguments, and every value that could not be converted. */
    public record Converted(JsonObject arguments, List<String> errors) {
        public Converted {
            Objects.requireNonNull(arguments, "arguments");
            errors = List.copyOf(errors);
        }
    }

    /**
     * Converts {@code parameters} against {@code schema} (an object schema with {@code properties}).
     * Errors name the argument path ({@code arguments.limit}) like the schema validator does.
     */
    public static Converted convert(JsonObject schema, Map<String, List<String>> parameters) {
        List<String> errors = new ArrayList<>();
        JsonObjectBuilder arguments = Jsonp.object();
        if (parameters.size() > MAX_PARAMETERS) {
            errors.add("arguments: at most " + MAX_PARAMETERS + " parameters are accepted, got " + parameters.size());
            return new Converted(arguments.build(), errors);
        }
        JsonObject properties = schema.get("properties") instanceof JsonObject p ? p : JsonValue.EMPTY_JSON_OBJECT;
        for (Map.Entry<String, List<String>> parameter : parameters.entrySet()) {
            String name = parameter.getKey();
            List<String> values = parameter.getValue();
            String path = "arguments." + abbreviate(name, 64);
            if (values.isEmpty()) {
                continue;
            }
            JsonObject property = properties.get(name) instanceof JsonObject o ? o : JsonValue.EMPTY_JSON_OBJECT;
            String type = typeOf(property);
            if (type.equals("array")) {
                JsonObject items = property.get("items") instanceof JsonObject i ? i : JsonValue.EMPTY_JSON_OBJECT;
                String itemType = typeOf(items);
                JsonArrayBuilder array = Jsonp.array();
                for (int i = 0; i < values.size(); i++) {
                    JsonValue converted = scalar(values.get(i), itemType, path + "[" + i + "]", errors);
                    if (converted != null) {
                        array.add(converted);
                    }
                }
                arguments.add(name, array);
                continue;
            }
            if (values.size() > 1) {
                errors.add(path + ": given " + values.size() + " times; it takes one value");
                continue;
            }
            JsonValue converted = scalar(values.getFirst(), type, path, errors);
            if (converted != null) {
                arguments.add(name, converted);
            }
        }
        return new Converted(arguments.build(), errors);
    }

    /** The declared type; with a list of types the first that is not {@code null}; else {@code string}. */
    private static String typeOf(JsonObject property) {
        JsonValue type = property.get("type");
        if (type instanceof JsonString s) {
            return s.getString();
        }
        if (type instanceof JsonArray types) {
            for (JsonValue t : types) {
                if (t instanceof JsonString s && !s.getString().equals("null")) {
                    return s.getString();
                }
            }
        }
        return "string";
    }

    private static JsonValue scalar(String text, String type, String path, List<String> errors) {
        switch (type) {
            case "integer" -> {
                try {
                    return Jsonp.value(new BigInteger(text.trim()));
                } catch (NumberFormatException e) {
                    errors.add(path + ": '" + abbreviate(text) + "' is not an integer");
                    return null;
                }
            }
            case "number" -> {
                try {
                    BigDecimal number = new BigDecimal(text.trim());
                    return Jsonp.value(number);
                } catch (NumberFormatException e) {
                    errors.add(path + ": '" + abbreviate(text) + "' is not a number");
                    return null;
                }
            }
            case "boolean" -> {
                String lower = text.trim().toLowerCase(Locale.ROOT);
                if (lower.equals("true")) {
                    return JsonValue.TRUE;
                }
                if (lower.equals("false")) {
                    return JsonValue.FALSE;
                }
                errors.add(path + ": '" + abbreviate(text) + "' is not true or false");
                return null;
            }
            default -> {
                return Jsonp.value(text);
            }
        }
    }

    private static String abbreviate(String text) {
        return abbreviate(text, 40);
    }

    /**
     * At most {@code maxChars} characters, control, format and line-separator characters as {@code ?}:
     * names and values are the caller's, and a message shows them where an escape sequence or a bidi
     * override would act.
     */
    private static String abbreviate(String text, int maxChars) {
        boolean cut = text.length() > maxChars;
        return BackendText.quoted(cut ? text.substring(0, maxChars) : text, maxChars) + (cut ? "..." : "");
    }
}
