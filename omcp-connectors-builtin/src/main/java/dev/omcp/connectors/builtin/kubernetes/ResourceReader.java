package dev.omcp.connectors.builtin.kubernetes;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Reads the fields the topology needs from Kubernetes objects; missing fields are empty, never an error. */
final class ResourceReader {
    private ResourceReader() {}

    static Resource read(String kind, JsonObject object) {
        JsonObject metadata = object(object, "metadata");
        JsonObject spec = object(object, "spec");
        JsonObject status = object(object, "status");
        List<String> owners = new ArrayList<>();
        if (metadata.get("ownerReferences") instanceof JsonArray refs) {
            for (JsonValue r : refs) {
                if (r instanceof JsonObject ref) {
                    owners.add(ref.getString("kind", "").toLowerCase(Locale.ROOT) + "/" + ref.getString("name", ""));
                }
            }
        }
        List<String> containers = new ArrayList<>();
        if (spec.get("containers") instanceof JsonArray cs) {
            for (JsonValue c : cs) {
                if (c instanceof JsonObject container) {
                    containers.add(container.getString("name", ""));
                }
            }
        }
        Map<String, String> attributes = new TreeMap<>();
        switch (kind) {
            case "pod" -> {
                attributes.put("phase", status.getString("phase", "Unknown"));
                boolean ready = status.get("containerStatuses") instanceof JsonArray statuses && !statuses.isEmpty()
                        && statuses.stream().allMatch(s -> s instanceof JsonObject o && o.getBoolean("ready", false));
                attributes.put("ready", Boolean.toString(ready));
            }
            case "node" -> {
                String ready = "Unknown";
                if (status.get("conditions") instanceof JsonArray conditions) {
                    for (JsonValue c : conditions) {
                        if (c instanceof JsonObject cond && "Ready".equals(cond.getString("type", ""))) {
                            ready = cond.getString("status", "Unknown");
                        }
                    }
                }
                attributes.put("ready", ready);
            }
            case "service" -> attributes.put("type", spec.getString("type", "ClusterIP"));
            case "deployment", "statefulset", "replicaset" -> {
                if (spec.get("replicas") instanceof jakarta.json.JsonNumber n) {
                    attributes.put("replicas", n.toString());
                }
                if (status.get("readyReplicas") instanceof jakarta.json.JsonNumber n) {
                    attributes.put("readyReplicas", n.toString());
                }
            }
            case "namespace" -> attributes.put("phase", status.getString("phase", "Active"));
            default -> {
                // daemon sets: nothing beyond their relations
            }
        }
        return new Resource(kind, metadata.getString("namespace", ""), metadata.getString("name", ""), strings(metadata, "labels"),
                List.copyOf(owners), spec.getString("nodeName", ""), kind.equals("service") ? strings(spec, "selector") : Map.of(),
                List.copyOf(containers), Map.copyOf(attributes), metadata.getString("resourceVersion", ""));
    }

    private static JsonObject object(JsonObject o, String key) {
        return o.get(key) instanceof JsonObject v ? v : JsonValue.EMPTY_JSON_OBJECT;
    }

    private static Map<String, String> strings(JsonObject o, String key) {
        Map<String, String> out = new TreeMap<>();
        if (o.get(key) instanceof JsonObject m) {
            m.forEach((k, v) -> {
                if (v instanceof JsonString s) {
                    out.put(k, s.getString());
                }
            });
        }
        return Map.copyOf(out);
    }
}
