package dev.omcp.core.scim;

import dev.omcp.ports.scim.ScimError;
import dev.omcp.ports.scim.ScimOutcome;
import dev.omcp.ports.scim.ScimResourceType;

import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PatchOp (RFC 7644 3.5.2) in the forms spec 4.5 lists: {@code add}, {@code replace} and
 * {@code remove}, with no path (merge the value's allow-listed attributes), a path naming an
 * attribute, or a path filtering the elements of {@code members} or {@code emails}
 * ({@code members[value eq "id"]}). Operations apply in order; a path naming an attribute that is not
 * allow-listed is skipped. {@code remove} of {@code members} with a value drops the listed members
 * (how several identity providers remove one member), without a value it clears the array.
 * Not supported, and refused with {@code invalidPath}: a sub-attribute path ({@code emails.value})
 * and {@code replace} through a filtered path.
 */
final class ScimPatch {
    /** The schema URN a PatchOp body declares. */
    static final String SCHEMA = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
    /** Most operations in one request. */
    static final int MAX_OPERATIONS = 1000;
    private static final Pattern PATH = Pattern.compile("([A-Za-z][A-Za-z0-9_$-]*)(?:\\[(.*)\\])?(\\..*)?");
    private static final Pattern ELEMENT_FILTER = Pattern.compile(
            "\\s*([A-Za-z$][A-Za-z0-9_$]*)\\s+(?i:eq)\\s+\"((?:[^\"\\\\]|\\\\.)*)\"\\s*");

    private ScimPatch() {}

    /**
     * Applies the operations of {@code body} to {@code attributes} in place.
     *
     * @return the problem, or empty when every operation applied (or was skipped)
     */
    static Optional<ScimError> apply(ScimResourceType type, Map<String, JsonValue> attributes, JsonObject body) {
        if (!(body.get("schemas") instanceof JsonArray schemas) || !schemas.contains(Jsonp.value(SCHEMA))) {
            return Optional.of(ScimError.invalidSyntax("a PATCH body declares schemas [\"" + SCHEMA + "\"]"));
        }
        if (!(body.get("Operations") instanceof JsonArray operations) || operations.isEmpty() || operations.size() > MAX_OPERATIONS) {
            return Optional.of(ScimError.invalidSyntax("a PATCH body holds Operations: an array of 1 to " + MAX_OPERATIONS
                    + " objects {op, path?, value?}"));
        }
        for (JsonValue item : operations) {
            if (!(item instanceof JsonObject operation) || !(operation.get("op") instanceof JsonString op)) {
                return Optional.of(ScimError.invalidSyntax("each operation is an object with op (add, replace or remove)"));
            }
            String verb = op.getString().toLowerCase(Locale.ROOT);
            if (!List.of("add", "replace", "remove").contains(verb)) {
                return Optional.of(ScimError.invalidSyntax("op must be add, replace or remove"));
            }
            JsonValue path = operation.get("path");
            JsonValue value = operation.get("value");
            Optional<ScimError> problem;
            if (path == null) {
                problem = withoutPath(type, attributes, verb, value);
            } else if (path instanceof JsonString text) {
                problem = withPath(type, attributes, verb, text.getString(), value);
            } else {
                problem = Optional.of(ScimError.invalidPath("path must be a string"));
            }
            if (problem.isPresent()) {
                return problem;
            }
        }
        return Optional.empty();
    }

    private static Optional<ScimError> withoutPath(ScimResourceType type, Map<String, JsonValue> attributes, String verb,
            JsonValue value) {
        if (verb.equals("remove")) {
            return Optional.of(ScimError.invalidPath("remove needs a path (RFC 7644 3.5.2.2)"));
        }
        if (!(value instanceof JsonObject object)) {
            return Optional.of(ScimError.invalidValue(verb + " without a path needs an object value"));
        }
        for (Map.Entry<String, JsonValue> entry : ScimAttributes.accepted(type, object).entrySet()) {
            set(type, attributes, verb, entry.getKey(), entry.getValue());
        }
        return Optional.empty();
    }

    private static Optional<ScimError> withPath(ScimResourceType type, Map<String, JsonValue> attributes, String verb, String path,
            JsonValue value) {
        String bare = path.strip();
        String prefix = type.schema() + ":";
        if (bare.regionMatches(true, 0, prefix, 0, prefix.length())) {
            bare = bare.substring(prefix.length());
        } else if (bare.regionMatches(true, 0, "urn:", 0, 4)) {
            return Optional.empty(); // an extension schema's attribute: not allow-listed, skipped
        }
        Matcher matcher = PATH.matcher(bare);
        if (!matcher.matches()) {
            return Optional.of(ScimError.invalidPath("the path is not of the form attribute or attribute[sub eq \"value\"]"));
        }
        Optional<String> attribute = type.attribute(matcher.group(1));
        if (attribute.isEmpty()) {
            return Optional.empty(); // spec 4.5: a path naming another attribute is skipped
        }
        String name = attribute.get();
        if (matcher.group(3) != null) {
            return Optional.of(ScimError.invalidPath("a sub-attribute path (" + name + matcher.group(3) + ") is not supported;"
                    + " send the whole attribute"));
        }
        if (matcher.group(2) != null) {
            return filtered(type, attributes, verb, name, matcher.group(2), value);
        }
        if (verb.equals("remove")) {
            if (type.multiValued(name) && value != null && value.getValueType() != JsonValue.ValueType.NULL) {
                attributes.put(name, without(attributes.get(name), listed(value)));
            } else {
                attributes.remove(name);
            }
            return Optional.empty();
        }
        if (value == null) {
            return Optional.of(ScimError.invalidValue(verb + " of " + name + " needs a value"));
        }
        set(type, attributes, verb, name, value);
        return Optional.empty();
    }

    private static Optional<ScimError> filtered(ScimResourceType type, Map<String, JsonValue> attributes, String verb, String name,
            String filter, JsonValue value) {
        Matcher element = ELEMENT_FILTER.matcher(filter);
        if (!type.multiValued(name) || !element.matches()) {
            return Optional.of(ScimError.invalidPath("a filtered path is supported on members and emails as attribute[sub eq"
                    + " \"value\"]"));
        }
        if (!verb.equals("remove")) {
            // spec 4.5: replace of a member sub-attribute by filtered path is not supported
            return Optional.of(ScimError.invalidPath(verb + " through a filtered path is not supported; remove the element, then"
                    + " add it as it should be"));
        }
        String sub = element.group(1);
        String wanted = element.group(2);
        JsonArrayBuilder kept = Jsonp.array();
        if (attributes.get(name) instanceof JsonArray array) {
            for (JsonValue item : array) {
                boolean match = item instanceof JsonObject object && object.get(sub) instanceof JsonString text
                        && text.getString().equals(wanted);
                if (!match) {
                    kept.add(item);
                }
            }
        }
        attributes.put(name, kept.build());
        return Optional.empty();
    }

    /** {@code replace} sets; {@code add} appends to a multi-valued attribute (deduplicated by value) and sets a scalar. */
    private static void set(ScimResourceType type, Map<String, JsonValue> attributes, String verb, String name, JsonValue value) {
        if (!type.multiValued(name) || verb.equals("replace")) {
            attributes.put(name, type.multiValued(name) && !(value instanceof JsonArray) && value instanceof JsonObject
                    ? Jsonp.array().add(value).build() : value);
            return;
        }
        List<JsonValue> merged = new ArrayList<>();
        if (attributes.get(name) instanceof JsonArray held) {
            merged.addAll(held);
        }
        for (JsonValue added : listed(value)) {
            String key = valueOf(added);
            if (key == null || merged.stream().noneMatch(existing -> key.equals(valueOf(existing)))) {
                merged.add(added);
            }
        }
        JsonArrayBuilder out = Jsonp.array();
        merged.forEach(out::add);
        attributes.put(name, out.build());
    }

    private static JsonValue without(JsonValue held, List<JsonValue> dropped) {
        JsonArrayBuilder kept = Jsonp.array();
        if (held instanceof JsonArray array) {
            for (JsonValue item : array) {
                String key = valueOf(item);
                if (key == null || dropped.stream().noneMatch(d -> key.equals(valueOf(d)))) {
                    kept.add(item);
                }
            }
        }
        return kept.build();
    }

    private static List<JsonValue> listed(JsonValue value) {
        return value instanceof JsonArray array ? List.copyOf(array) : List.of(value);
    }

    private static String valueOf(JsonValue element) {
        return element instanceof JsonObject object && object.get("value") instanceof JsonString text ? text.getString() : null;
    }
}
