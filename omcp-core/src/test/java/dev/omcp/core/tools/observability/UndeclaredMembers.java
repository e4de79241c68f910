package dev.omcp.core.tools.observability;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The members of a tool's answer its output schema leaves out: an agent reads the schema to know
 * what an answer holds. An object schema that lists {@code properties} must list every member the
 * answer has (or give {@code additionalProperties} a schema); one without is free-form (labels,
 * evidence, a catalog entry). Arrays need {@code items} to look inside.
 */
final class UndeclaredMembers {
    private UndeclaredMembers() {}

    static List<String> of(JsonObject schema, JsonValue value) {
        List<String> out = new ArrayList<>();
        walk(schema, value, "structuredContent", out);
        return out;
    }

    private static void walk(JsonObject schema, JsonValue value, String path, List<String> out) {
        if (value instanceof JsonObject object && schema.containsKey("properties")) {
            JsonObject properties = schema.getJsonObject("properties");
            for (Map.Entry<String, JsonValue> member : object.entrySet()) {
                JsonValue declared = properties.get(member.getKey());
                if (declared instanceof JsonObject sub) {
                    walk(sub, member.getValue(), path + "." + member.getKey(), out);
                } else if (schema.get("additionalProperties") instanceof JsonObject additional) {
                    walk(additional, member.getValue(), path + "." + member.getKey(), out);
                } else {
                    out.add(path + "." + member.getKey());
                }
            }
        } else if (value instanceof JsonArray array && schema.get("items") instanceof JsonObject items) {
            for (int i = 0; i < array.size(); i++) {
                walk(items, array.get(i), path + "[" + i + "]", out);
            }
        }
    }
}
