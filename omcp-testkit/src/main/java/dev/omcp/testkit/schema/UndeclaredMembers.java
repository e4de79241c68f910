package dev.omcp.testkit.schema;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The members of a tool answer its output schema does not declare. JSON Schema lets an object
 * carry members its {@code properties} leave out, so a schema can validate while an agent reading
 * it never learns that a field exists; this walk finds such fields.
 *
 * <p>Every member of an object must be named in the {@code properties} of its schema (or of an
 * {@code allOf}/{@code anyOf}/{@code oneOf} branch), and the walk follows {@code properties} and,
 * for arrays, {@code items}. An object whose schema declares {@code additionalProperties} as
 * {@code true} is open on purpose (an operator's catalog entry) and is not looked into; one that
 * declares it as a schema is a map whose names are data (labels, node ids), so only its values
 * are walked, against that schema. An object schema with neither declares nothing, so every member
 * of the object is reported. Paths read {@code results[].reason}: {@code []} stands for every item
 * of an array, {@code {}} for every value of a map.
 */
public final class UndeclaredMembers {
    private UndeclaredMembers() {}

    /** The undeclared members of {@code answer}, as sorted paths; empty when everything is declared. */
    public static List<String> in(JsonValue answer, JsonObject schema) {
        Set<String> found = new TreeSet<>();
        walk(answer, schema, "", found);
        return List.copyOf(found);
    }

    private static void walk(JsonValue value, JsonValue schemaValue, String path, Set<String> found) {
        JsonObject schema = schemaValue instanceof JsonObject s ? s : JsonValue.EMPTY_JSON_OBJECT;
        if (value instanceof JsonObject object) {
            JsonValue additional = schema.get("additionalProperties");
            if (additional == JsonValue.TRUE) {
                return;
            }
            List<JsonObject> branches = branches(schema);
            for (Map.Entry<String, JsonValue> member : object.entrySet()) {
                String memberPath = path.isEmpty() ? member.getKey() : path + "." + member.getKey();
                JsonValue declared = declaration(branches, member.getKey());
                if (declared != null) {
                    walk(member.getValue(), declared, memberPath, found);
                } else if (additional instanceof JsonObject valueSchema) {
                    walk(member.getValue(), valueSchema, path + "{}", found);
                } else {
                    found.add(memberPath);
                }
            }
        } else if (value instanceof JsonArray array) {
            for (JsonValue item : array) {
                walk(item, schema.get("items"), path + "[]", found);
            }
        }
    }

    /** The schema and its combinator branches, one level deep: where an object's members may be declared. */
    private static List<JsonObject> branches(JsonObject schema) {
        List<JsonObject> out = new ArrayList<>();
        out.add(schema);
        for (String combinator : List.of("allOf", "anyOf", "oneOf")) {
            if (schema.get(combinator) instanceof JsonArray list) {
                list.stream().filter(JsonObject.class::isInstance).map(JsonObject.class::cast).forEach(out::add);
            }
        }
        return out;
    }

    private static JsonValue declaration(List<JsonObject> branches, String name) {
        for (JsonObject branch : branches) {
            if (branch.get("properties") instanceof JsonObject properties && properties.containsKey(name)) {
                return properties.get(name);
            }
        }
        return null;
    }
}
