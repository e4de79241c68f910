package dev.omcp.core.schema;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.text.BackendText;
import dev.omcp.sdk.text.ReadBudget;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Validates JSON values against the JSON Schema (draft 2020-12) subset that tool input schemas use.
 *
 * <p>Supported assertions: {@code type}, {@code enum}, {@code const}, {@code properties},
 * {@code patternProperties}, {@code additionalProperties}, {@code propertyNames},
 * {@code required}, {@code dependentRequired}, {@code minProperties}, {@code maxProperties},
 * {@code minimum}, {@code maximum}, {@code exclusiveMinimum}, {@code exclusiveMaximum},
 * {@code multipleOf}, {@code minLength}, {@code maxLength}, {@code pattern}, {@code prefixItems},
 * {@code items}, {@code contains} with {@code minContains} / {@code maxContains}, {@code minItems},
 * {@code maxItems}, {@code uniqueItems}, {@code allOf}, {@code anyOf}, {@code oneOf}, {@code not},
 * {@code if} / {@code then} / {@code else}, and {@code $ref} to {@code #/$defs/...} or
 * {@code #/definitions/...} in the same document. Annotations ({@code title},
 * {@code description}, {@code default}, {@code format}, {@code examples}, ...) do not assert, as
 * draft 2020-12 specifies, with one use: a value a {@code pattern} refuses is answered with the
 * schema's {@code description} after the pattern, so the message says in words what to send (a
 * tool's schema describes the allowed form there, for example that a metric is a name and not a
 * query). {@link #KNOWN_KEYWORDS} lists every keyword this validator
 * understands, so a test can prove a schema relies on nothing it would silently ignore.
 *
 * <p>The core cannot use a Jackson-based validator (it speaks {@code jakarta.json} only), and
 * tool arguments are checked on every call, so this one is small and allocation-light. Thread-safe.
 */
public final class JsonSchemaValidator {
    /**
     * Every keyword this validator honours: the assertions and applicators it checks, plus the
     * annotations and identifiers that never assert. A keyword outside this set would be ignored,
     * which for an assertion means accepting what the schema author meant to refuse.
     */
    public static final Set<String> KNOWN_KEYWORDS = Set.of(
            "type", "enum", "const",
            "properties", "patternProperties", "additionalProperties", "propertyNames", "required", "dependentRequired",
            "minProperties", "maxProperties",
            "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
            "minLength", "maxLength", "pattern",
            "prefixItems", "items", "contains", "minContains", "maxContains", "minItems", "maxItems", "uniqueItems",
            "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "$ref", "$defs", "definitions",
            // annotations and identifiers: they describe, they never refuse
            "$schema", "$id", "$comment", "title", "description", "default", "examples", "format", "readOnly",
            "writeOnly", "deprecated", "contentMediaType", "contentEncoding");

    private static final int MAX_DEPTH = 64;
    /**
     * Characters one pattern match may read: a linear pattern reads each character a few times, so a
     * megabyte argument fits; catastrophic backtracking uses it up in well under a second.
     */
    private static final long PATTERN_READS = 1_000_000L;
    private static final long PATTERN_READS_PER_CHARACTER = 64L;
    /** The most digits a number checked against {@code multipleOf} may span; past it the check is refused, not run. */
    private static final int MAX_MULTIPLE_OF_DIGITS = 1000;
    /**
     * The most violations one validation lists. The message is the answer to the caller, so it must
     * stay small whatever was sent: one line per bad item made a 1 MiB array of numbers, where
     * strings belong, into a 30 MB error. Twenty covers every argument of any tool at once.
     */
    public static final int MAX_REPORTED = 20;
    /** The longest member name a message quotes whole; a longer one is cut, as a message never echoes a megabyte. */
    private static final int MAX_QUOTED_NAME = 64;
    private final Map<String, Pattern> patterns = new ConcurrentHashMap<>();

    /**
     * Validates {@code value} against {@code schema}.
     *
     * @param rootName how the value is named in messages, for example {@code arguments}
     * @return the first {@value #MAX_REPORTED} violations found, each as {@code path: what is wrong},
     *     and when there were more, a last line {@code rootName: N more problems not listed; ...};
     *     empty when valid
     */
    public List<String> validate(JsonObject schema, JsonValue value, String rootName) {
        Violations violations = new Violations(MAX_REPORTED);
        check(schema, schema, value, rootName, violations, 0);
        return violations.report(rootName);
    }

    private void check(JsonObject root, JsonValue schemaValue, JsonValue value, String path, Violations out, int depth) {
        if (depth > MAX_DEPTH) {
            out.add(path + ": schema nesting is too deep");
            return;
        }
        if (schemaValue == JsonValue.TRUE) {
            return;
        }
        if (schemaValue == JsonValue.FALSE) {
            out.add(path + ": is not allowed");
            return;
        }
        if (!(schemaValue instanceof JsonObject schema)) {
            return;
        }
        if (schema.containsKey("$ref")) {
            JsonValue target = resolve(root, schema.getString("$ref"));
            if (target == null) {
                out.add(path + ": schema reference " + schema.getString("$ref") + " cannot be resolved");
                return;
            }
            check(root, target, value, path, out, depth + 1);
        }
        if (schema.containsKey("type") && !matchesType(schema.get("type"), value)) {
            out.add(path + ": must be " + describeType(schema.get("type")) + ", got " + typeName(value));
            return;
        }
        if (schema.containsKey("enum")) {
            JsonArray allowed = schema.getJsonArray("enum");
            if (!containsEqual(allowed, value)) {
                out.add(path + ": must be one of " + allowed);
            }
        }
        if (schema.containsKey("const") && !jsonEquals(schema.get("const"), value)) {
            out.add(path + ": must be " + schema.get("const"));
        }
        switch (value.getValueType()) {
            case OBJECT -> checkObject(root, schema, value.asJsonObject(), path, out, depth);
            case ARRAY -> checkArray(root, schema, value.asJsonArray(), path, out, depth);
            case STRING -> checkString(schema, ((JsonString) value).getString(), path, out);
            case NUMBER -> checkNumber(schema, ((JsonNumber) value).bigDecimalValue(), path, out);
            default -> {}
        }
        combinators(root, schema, value, path, out, depth);
    }

    private void combinators(JsonObject root, JsonObject schema, JsonValue value, String path, Violations out, int depth) {
        if (schema.containsKey("allOf")) {
            for (JsonValue sub : schema.getJsonArray("allOf")) {
                check(root, sub, value, path, out, depth + 1);
            }
        }
        if (schema.containsKey("anyOf")) {
            boolean any = false;
            for (JsonValue sub : schema.getJsonArray("anyOf")) {
                if (passes(root, sub, value, path, depth)) {
                    any = true;
                    break;
                }
            }
            if (!any) {
                out.add(path + ": must match at least one of the allowed forms");
            }
        }
        if (schema.containsKey("oneOf")) {
            int matches = 0;
            for (JsonValue sub : schema.getJsonArray("oneOf")) {
                if (passes(root, sub, value, path, depth)) {
                    matches++;
                }
            }
            if (matches != 1) {
                out.add(path + ": must match exactly one of the allowed forms, matched " + matches);
            }
        }
        if (schema.containsKey("not") && passes(root, schema.get("not"), value, path, depth)) {
            out.add(path + ": must not match the excluded form");
        }
        if (schema.containsKey("if")) {
            // draft 2020-12: "if" itself never fails; it chooses whether "then" or "else" applies
            JsonValue branch = passes(root, schema.get("if"), value, path, depth) ? schema.get("then") : schema.get("else");
            if (branch != null) {
                check(root, branch, value, path, out, depth + 1);
            }
        }
    }

    private boolean passes(JsonObject root, JsonValue schema, JsonValue value, String path, int depth) {
        // whether it passes is all that is asked: one violation answers that, and no more are kept
        Violations scratch = new Violations(1);
        check(root, schema, value, path, scratch, depth + 1);
        return scratch.isEmpty();
    }

    private void checkObject(JsonObject root, JsonObject schema, JsonObject object, String path, Violations out, int depth) {
        if (schema.containsKey("required")) {
            for (JsonValue name : schema.getJsonArray("required")) {
                if (name instanceof JsonString s && !object.containsKey(s.getString())) {
                    out.add(path + "." + s.getString() + ": is required");
                }
            }
        }
        if (schema.get("dependentRequired") instanceof JsonObject dependencies) {
            for (Map.Entry<String, JsonValue> dependency : dependencies.entrySet()) {
                if (object.containsKey(dependency.getKey()) && dependency.getValue() instanceof JsonArray needed) {
                    for (JsonValue name : needed) {
                        if (name instanceof JsonString s && !object.containsKey(s.getString())) {
                            out.add(path + "." + s.getString() + ": is required when " + dependency.getKey() + " is given");
                        }
                    }
                }
            }
        }
        JsonObject properties = schema.containsKey("properties") ? schema.getJsonObject("properties") : JsonValue.EMPTY_JSON_OBJECT;
        JsonObject patternProperties = schema.get("patternProperties") instanceof JsonObject p ? p : JsonValue.EMPTY_JSON_OBJECT;
        JsonValue additional = schema.get("additionalProperties");
        JsonValue propertyNames = schema.get("propertyNames");
        for (Map.Entry<String, JsonValue> entry : object.entrySet()) {
            String childPath = path + "." + quotedName(entry.getKey());
            if (propertyNames != null) {
                // the name is validated as a string instance; messages name the member and say it is its name
                check(root, propertyNames, Jsonp.value(entry.getKey()), childPath + " (the name)", out, depth + 1);
            }
            boolean matched = false;
            JsonValue propertySchema = properties.get(entry.getKey());
            if (propertySchema != null) {
                matched = true;
                check(root, propertySchema, entry.getValue(), childPath, out, depth + 1);
            }
            for (Map.Entry<String, JsonValue> byPattern : patternProperties.entrySet()) {
                Pattern pattern = pattern(byPattern.getKey());
                if (pattern == null) {
                    out.add(childPath + ": schema pattern " + byPattern.getKey() + " is not a valid regular expression");
                    matched = true;
                    continue;
                }
                PatternMatch match = find(pattern, byPattern.getKey(), entry.getKey());
                if (match.unchecked() != null) {
                    out.add(childPath + ": " + match.unchecked());
                    matched = true;
                } else if (match.found()) {
                    matched = true;
                    check(root, byPattern.getValue(), entry.getValue(), childPath, out, depth + 1);
                }
            }
            if (matched) {
                continue;
            }
            if (additional == JsonValue.FALSE) {
                out.add(childPath + ": is not a known argument; allowed: " + properties.keySet()
                        + (patternProperties.isEmpty() ? "" : " and names matching " + patternProperties.keySet()));
            } else if (additional instanceof JsonObject) {
                check(root, additional, entry.getValue(), childPath, out, depth + 1);
            }
        }
        if (schema.containsKey("minProperties") && object.size() < schema.getInt("minProperties")) {
            out.add(path + ": must have at least " + counted(schema.getInt("minProperties"), "member"));
        }
        if (schema.containsKey("maxProperties") && object.size() > schema.getInt("maxProperties")) {
            out.add(path + ": must have at most " + counted(schema.getInt("maxProperties"), "member"));
        }
    }

    private void checkArray(JsonObject root, JsonObject schema, JsonArray array, String path, Violations out, int depth) {
        if (schema.containsKey("minItems") && array.size() < schema.getInt("minItems")) {
            out.add(path + ": must have at least " + counted(schema.getInt("minItems"), "item") + ", got " + array.size());
        }
        if (schema.containsKey("maxItems") && array.size() > schema.getInt("maxItems")) {
            out.add(path + ": must have at most " + counted(schema.getInt("maxItems"), "item") + ", got " + array.size());
        }
        int prefix = 0;
        if (schema.get("prefixItems") instanceof JsonArray positional) {
            prefix = Math.min(positional.size(), array.size());
            for (int i = 0; i < prefix; i++) {
                check(root, positional.get(i), array.get(i), path + "[" + i + "]", out, depth + 1);
            }
        }
        if (schema.containsKey("items")) {
            // draft 2020-12: "items" covers the items after those "prefixItems" describes
            JsonValue items = schema.get("items");
            for (int i = prefix; i < array.size(); i++) {
                check(root, items, array.get(i), path + "[" + i + "]", out, depth + 1);
            }
        }
        if (schema.containsKey("contains")) {
            checkContains(root, schema, array, path, out, depth);
        }
        if (schema.getBoolean("uniqueItems", false)) {
            // positions, not the value: no message of this validator echoes what the caller sent (it may be a
            // secret, or a megabyte)
            Map<String, Integer> firstAt = new HashMap<>();
            for (int i = 0; i < array.size(); i++) {
                Integer first = firstAt.putIfAbsent(canonical(array.get(i)), i);
                if (first != null) {
                    out.add(path + ": items must be unique; " + path + "[" + i + "] repeats " + path + "[" + first + "]");
                    break;
                }
            }
        }
    }

    private void checkContains(JsonObject root, JsonObject schema, JsonArray array, String path, Violations out, int depth) {
        int matching = 0;
        for (int i = 0; i < array.size(); i++) {
            if (passes(root, schema.get("contains"), array.get(i), path + "[" + i + "]", depth)) {
                matching++;
            }
        }
        // draft 2020-12: minContains defaults to 1, and 0 makes "contains" always pass
        int min = schema.get("minContains") instanceof JsonNumber n ? n.intValue() : 1;
        if (matching < min) {
            out.add(path + ": must contain at least " + counted(min, "item") + " of the required form, found " + matching);
        }
        if (schema.get("maxContains") instanceof JsonNumber n && matching > n.intValue()) {
            out.add(path + ": must contain at most " + counted(n.intValue(), "item") + " of the required form, found " + matching);
        }
    }

    private void checkString(JsonObject schema, String text, String path, Violations out) {
        int length = text.codePointCount(0, text.length());
        if (schema.containsKey("minLength") && length < schema.getInt("minLength")) {
            out.add(path + ": must be at least " + counted(schema.getInt("minLength"), "character"));
        }
        if (schema.containsKey("maxLength") && length > schema.getInt("maxLength")) {
            out.add(path + ": must be at most " + counted(schema.getInt("maxLength"), "character"));
        }
        if (schema.containsKey("pattern")) {
            String regex = schema.getString("pattern");
            Pattern pattern = pattern(regex);
            PatternMatch match = pattern == null ? null : find(pattern, regex, text);
            if (pattern == null) {
                out.add(path + ": schema pattern " + regex + " is not a valid regular expression");
            } else if (match.unchecked() != null) {
                out.add(path + ": " + match.unchecked());
            } else if (!match.found()) {
                // a regular expression says what is refused, not what to send instead: the description does
                out.add(path + ": must match " + regex + (schema.get("description") instanceof JsonString d && !d.getString().isBlank()
                        ? ". " + d.getString().strip() : ""));
            }
        }
    }

    private static void checkNumber(JsonObject schema, BigDecimal number, String path, Violations out) {
        if (schema.containsKey("minimum") && number.compareTo(schema.getJsonNumber("minimum").bigDecimalValue()) < 0) {
            out.add(path + ": must be >= " + schema.get("minimum"));
        }
        if (schema.containsKey("maximum") && number.compareTo(schema.getJsonNumber("maximum").bigDecimalValue()) > 0) {
            out.add(path + ": must be <= " + schema.get("maximum"));
        }
        if (schema.get("exclusiveMinimum") instanceof JsonNumber min && number.compareTo(min.bigDecimalValue()) <= 0) {
            out.add(path + ": must be > " + min);
        }
        if (schema.get("exclusiveMaximum") instanceof JsonNumber max && number.compareTo(max.bigDecimalValue()) >= 0) {
            out.add(path + ": must be < " + max);
        }
        if (schema.get("multipleOf") instanceof JsonNumber step && step.bigDecimalValue().signum() > 0) {
            BigDecimal divisor = step.bigDecimalValue();
            if (digitsToDivide(number, divisor) > MAX_MULTIPLE_OF_DIGITS) {
                out.add(path + ": is too large or has too many decimal places to check as a multiple of " + step
                        + "; send a number of at most " + MAX_MULTIPLE_OF_DIGITS + " digits");
            } else if (number.remainder(divisor).signum() != 0) {
                out.add(path + ": must be a multiple of " + step);
            }
        }
    }

    /**
     * How many digits {@code number} has when written to the decimal places of itself or {@code divisor},
     * whichever has more: what the remainder must work through. A JSON number is short to send but its
     * exponent is not bounded ({@code 1e999999999}), and the remainder of such a number runs for minutes.
     */
    private static long digitsToDivide(BigDecimal number, BigDecimal divisor) {
        long integerDigits = Math.max(0L, (long) number.precision() - number.scale());
        long decimalPlaces = Math.max(0L, Math.max((long) number.scale(), divisor.scale()));
        return integerDigits + decimalPlaces;
    }

    /** Whether a schema pattern was found in a text; {@code unchecked} says why the match was given up, or is null. */
    private record PatternMatch(boolean found, String unchecked) {}

    /**
     * {@code pattern.matcher(text).find()}, given up with the reason when it costs too much. A tool's
     * schema may come from a plugin while the text is an agent's argument, and java.util.regex
     * backtracks ({@code (.*a){12}} runs for hours on 40 characters) and recurses once per repetition
     * of a group with alternatives ({@code (a|b)*} overflows the stack on a long value). A value that
     * cannot be checked is refused, never let through.
     */
    private static PatternMatch find(Pattern pattern, String regex, String text) {
        try {
            ReadBudget budget = new ReadBudget(PATTERN_READS + PATTERN_READS_PER_CHARACTER * (long) text.length());
            return new PatternMatch(budget.find(pattern, text), null);
        } catch (ReadBudget.ExhaustedException e) {
            return new PatternMatch(false, "could not be checked against " + regex
                    + ": the pattern backtracks too much on this value; send a shorter or simpler value");
        } catch (StackOverflowError e) {
            // thrown inside the matcher, whose frames are gone by now: only this check failed
            return new PatternMatch(false, "could not be checked against " + regex
                    + ": the value is too long for this pattern; send a shorter value");
        }
    }

    private Pattern pattern(String regex) {
        Pattern cached = patterns.get(regex);
        if (cached != null) {
            return cached;
        }
        try {
            Pattern compiled = Pattern.compile(endOfInputAnchors(regex));
            // Schemas are authored by the gateway and plugins, so the cache stays small; bound it anyway.
            if (patterns.size() < 1024) {
                patterns.put(regex, compiled);
            }
            return compiled;
        } catch (PatternSyntaxException e) {
            return null;
        }
    }

    /**
     * JSON Schema patterns are ECMA-262 regular expressions, where {@code $} matches only at the end
     * of the input. Java's {@code $} also matches before a final line terminator, so
     * {@code "payments\n"} passed {@code ^[A-Za-z0-9_.:/-]{1,128}$} and reached the backends as a
     * service name. Every {@code $} that is an anchor (not escaped, not inside a character class)
     * becomes {@code \z}.
     */
    static String endOfInputAnchors(String regex) {
        StringBuilder out = new StringBuilder(regex.length() + 4);
        boolean inClass = false;
        for (int i = 0; i < regex.length(); i++) {
            char c = regex.charAt(i);
            if (c == '\\' && i + 1 < regex.length()) {
                out.append(c).append(regex.charAt(++i));
            } else if (inClass) {
                inClass = c != ']';
                out.append(c);
            } else if (c == '[') {
                inClass = true;
                out.append(c);
                // a ']' right after '[' or '[^' is a literal member, not the class's end
                if (i + 1 < regex.length() && regex.charAt(i + 1) == '^') {
                    out.append(regex.charAt(++i));
                }
                if (i + 1 < regex.length() && regex.charAt(i + 1) == ']') {
                    out.append(regex.charAt(++i));
                }
            } else if (c == '$') {
                out.append("\\z");
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static JsonValue resolve(JsonObject root, String ref) {
        if (!ref.startsWith("#/")) {
            return null;
        }
        JsonValue current = root;
        for (String token : ref.substring(2).split("/")) {
            String name = token.replace("~1", "/").replace("~0", "~");
            if (!(current instanceof JsonObject object) || !object.containsKey(name)) {
                return null;
            }
            current = object.get(name);
        }
        return current;
    }

    private static boolean matchesType(JsonValue type, JsonValue value) {
        if (type instanceof JsonString single) {
            return matchesType(single.getString(), value);
        }
        if (type instanceof JsonArray several) {
            for (JsonValue t : several) {
                if (t instanceof JsonString s && matchesType(s.getString(), value)) {
                    return true;
                }
            }
            return false;
        }
        return true;
    }

    private static boolean matchesType(String type, JsonValue value) {
        return switch (type) {
            case "object" -> value.getValueType() == JsonValue.ValueType.OBJECT;
            case "array" -> value.getValueType() == JsonValue.ValueType.ARRAY;
            case "string" -> value.getValueType() == JsonValue.ValueType.STRING;
            case "number" -> value.getValueType() == JsonValue.ValueType.NUMBER;
            case "integer" -> value instanceof JsonNumber n && isIntegral(n.bigDecimalValue());
            case "boolean" -> value == JsonValue.TRUE || value == JsonValue.FALSE;
            case "null" -> value == JsonValue.NULL;
            default -> false;
        };
    }

    private static boolean isIntegral(BigDecimal number) {
        return number.signum() == 0 || number.scale() <= 0 || number.stripTrailingZeros().scale() <= 0;
    }

    private static String describeType(JsonValue type) {
        if (type instanceof JsonString single) {
            return article(single.getString());
        }
        List<String> names = new ArrayList<>();
        if (type instanceof JsonArray several) {
            several.forEach(t -> names.add(t instanceof JsonString s ? s.getString() : t.toString()));
        }
        return "one of " + names;
    }

    private static String article(String type) {
        return switch (type) {
            case "object", "array", "integer" -> "an " + type;
            case "null" -> "null";
            default -> "a " + type;
        };
    }

    /** "1 item", "2 items": a count with its noun, so a limit of one does not read "1 items". */
    private static String counted(int count, String noun) {
        return count + " " + noun + (count == 1 ? "" : "s");
    }

    private static String typeName(JsonValue value) {
        return switch (value.getValueType()) {
            case OBJECT -> "an object";
            case ARRAY -> "an array";
            case STRING -> "a string";
            case NUMBER -> "a number";
            case TRUE, FALSE -> "a boolean";
            case NULL -> "null";
        };
    }

    private static boolean containsEqual(JsonArray values, JsonValue value) {
        for (JsonValue candidate : values) {
            if (jsonEquals(candidate, value)) {
                return true;
            }
        }
        return false;
    }

    /** JSON equality where 1 and 1.0 are the same number. */
    private static boolean jsonEquals(JsonValue a, JsonValue b) {
        if (a instanceof JsonNumber x && b instanceof JsonNumber y) {
            return x.bigDecimalValue().compareTo(y.bigDecimalValue()) == 0;
        }
        return canonical(a).equals(canonical(b));
    }

    private static String canonical(JsonValue value) {
        if (value instanceof JsonNumber n) {
            // toString, not toPlainString: one text per value as well once the zeros are stripped, but
            // as short as the number was sent; the plain form of a client's 1e999999999 is a billion
            // digits, which took minutes of a request thread to write out
            BigDecimal number = n.bigDecimalValue();
            try {
                return number.stripTrailingZeros().toString();
            } catch (ArithmeticException e) {
                // stripping 100e2147483647's zeros takes its exponent beyond an int: such a number keeps its
                // own spelling, so uniqueItems only sees repeats spelled alike (enum compares the values)
                return number.toString();
            }
        }
        return value.toString();
    }

    /**
     * A member name as a message may show it: at most {@link #MAX_QUOTED_NAME} characters, control,
     * format and line-separator characters as {@code ?} (a bidi override would reorder the message
     * where it is shown, an escape sequence drive a terminal).
     */
    private static String quotedName(String name) {
        boolean cut = name.length() > MAX_QUOTED_NAME;
        String shown = cut ? name.substring(0, MAX_QUOTED_NAME) : name;
        // every member's path is made, most of them never shown: plain names skip the pattern
        boolean plain = shown.chars().allMatch(c -> c >= 0x20 && c < 0x7f);
        return (plain ? shown : BackendText.quoted(shown, MAX_QUOTED_NAME)) + (cut ? "..." : "");
    }

    /**
     * The violations of one validation: the first {@code limit} are kept, the rest only counted, so
     * neither the answer nor the memory behind it grows with the number of bad items sent.
     */
    private static final class Violations {
        private final int limit;
        private List<String> kept;
        private int count;

        Violations(int limit) {
            this.limit = limit;
        }

        void add(String violation) {
            count++;
            if (count <= limit) {
                if (kept == null) {
                    kept = new ArrayList<>();
                }
                kept.add(violation);
            }
        }

        boolean isEmpty() {
            return count == 0;
        }

        /** The kept violations, and a line counting those not kept. */
        List<String> report(String rootName) {
            if (count == 0) {
                return List.of();
            }
            if (count > limit) {
                kept.add(rootName + ": " + (count - limit) + " more problems not listed; correct the ones above and send it again");
            }
            return kept;
        }
    }
}
