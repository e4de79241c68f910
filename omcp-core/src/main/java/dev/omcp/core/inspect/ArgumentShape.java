package dev.omcp.core.inspect;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reduces a tool call's arguments to what Inspect keeps (spec 2.14): the resource dimensions with
 * their values, and every other argument as a coarse shape. A raw value other than a resource name
 * or a value the tool's schema enumerates never leaves this class: free text (a LogQL filter, a
 * query) may hold a token or a customer's data, so it is kept only as its length bucket and the
 * classes of characters it uses.
 */
public final class ArgumentShape {
    /** The arguments whose values are kept: names of sources, services and namespaces, not free text. */
    public static final Set<String> RESOURCE_ARGUMENTS = Set.of("source", "service", "namespace");
    /** A resource value is a name; anything longer is cut here so a hostile call cannot fill the store. */
    static final int MAX_RESOURCE = 128;
    /** Argument names come from the caller too. */
    static final int MAX_NAME = 64;
    static final int MAX_ARGUMENTS = 32;
    private static final Pattern DURATION = Pattern.compile("([0-9]{1,9})(ms|s|m|h|d)");

    private ArgumentShape() {}

    /** The resource dimensions the call names: string values only, each cut to {@value #MAX_RESOURCE} characters. */
    public static Map<String, String> resources(JsonObject arguments) {
        Map<String, String> resources = new LinkedHashMap<>();
        for (String name : RESOURCE_ARGUMENTS) {
            if (arguments.get(name) instanceof JsonString value) {
                resources.put(name, bounded(value.getString(), MAX_RESOURCE));
            }
        }
        return resources;
    }

    /** The shape of every argument that is not a resource dimension, by argument name. */
    public static Map<String, String> shapes(JsonObject arguments, JsonObject inputSchema) {
        Map<String, String> shapes = new LinkedHashMap<>();
        JsonObject properties = inputSchema.get("properties") instanceof JsonObject p ? p : JsonValue.EMPTY_JSON_OBJECT;
        for (Map.Entry<String, JsonValue> argument : arguments.entrySet()) {
            String name = argument.getKey();
            if (RESOURCE_ARGUMENTS.contains(name)) {
                continue;
            }
            if (shapes.size() == MAX_ARGUMENTS) {
                shapes.put("(more)", "arguments beyond " + MAX_ARGUMENTS + " not recorded");
                break;
            }
            JsonObject schema = properties.get(name) instanceof JsonObject s ? s : JsonValue.EMPTY_JSON_OBJECT;
            shapes.put(bounded(name, MAX_NAME), shape(argument.getValue(), schema));
        }
        return shapes;
    }

    /** The shape of one value; {@code schema} is its property schema (empty when the tool declares none). */
    static String shape(JsonValue value, JsonObject schema) {
        return switch (value.getValueType()) {
            case NUMBER -> "num:" + numberBucket(((JsonNumber) value).doubleValue());
            case TRUE -> "true";
            case FALSE -> "false";
            case NULL -> "null";
            case ARRAY -> "array:" + numberBucket(((JsonArray) value).size());
            case OBJECT -> "object";
            case STRING -> stringShape(((JsonString) value).getString(), schema);
        };
    }

    private static String stringShape(String text, JsonObject schema) {
        if (schema.get("enum") instanceof JsonArray allowed
                && allowed.stream().anyMatch(v -> v instanceof JsonString listed && listed.getString().equals(text))) {
            return bounded(text, MAX_RESOURCE); // a value the tool itself lists is not the caller's free text
        }
        Matcher duration = DURATION.matcher(text);
        if (duration.matches()) {
            return "dur:" + durationBucket(Long.parseLong(duration.group(1)), duration.group(2));
        }
        return "text:" + fingerprint(text);
    }

    /** {@code <=10}, {@code <=100}, {@code <=1000} or {@code more}. */
    static String numberBucket(double n) {
        if (n <= 10) {
            return "<=10";
        }
        if (n <= 100) {
            return "<=100";
        }
        return n <= 1000 ? "<=1000" : "more";
    }

    /** {@code <=5m}, {@code <=1h}, {@code <=1d} or {@code more}. */
    static String durationBucket(long amount, String unit) {
        long seconds = switch (unit) {
            case "ms" -> amount / 1000;
            case "s" -> amount;
            case "m" -> amount * 60;
            case "h" -> amount * 3600;
            default -> amount * 86_400;
        };
        if (seconds <= 300) {
            return "<=5m";
        }
        if (seconds <= 3600) {
            return "<=1h";
        }
        return seconds <= 86_400 ? "<=1d" : "more";
    }

    /**
     * The structure of free text without the text: its length bucket and the classes of characters
     * it holds, for example {@code len<=64:lower,digit,punct}.
     */
    static String fingerprint(String text) {
        int length = text.length();
        String bucket = length == 0 ? "0" : length <= 16 ? "<=16" : length <= 64 ? "<=64" : length <= 256 ? "<=256" : "more";
        java.util.EnumSet<CharClass> classes = java.util.EnumSet.noneOf(CharClass.class);
        for (int i = 0; i < length; i++) {
            classes.add(CharClass.of(text.charAt(i)));
        }
        StringBuilder shape = new StringBuilder("len").append(bucket.equals("0") ? "=0" : bucket);
        String separator = ":";
        for (CharClass c : classes) {
            shape.append(separator).append(c.name().toLowerCase(java.util.Locale.ROOT));
            separator = ",";
        }
        return shape.toString();
    }

    /** The classes a fingerprint names, in the order it names them. */
    private enum CharClass {
        LOWER, UPPER, DIGIT, SPACE, PUNCT, OTHER;

        static CharClass of(char c) {
            if (c >= 'a' && c <= 'z') {
                return LOWER;
            }
            if (c >= 'A' && c <= 'Z') {
                return UPPER;
            }
            if (c >= '0' && c <= '9') {
                return DIGIT;
            }
            if (Character.isWhitespace(c)) {
                return SPACE;
            }
            return c < 128 ? PUNCT : OTHER;
        }
    }

    private static String bounded(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max);
    }
}
