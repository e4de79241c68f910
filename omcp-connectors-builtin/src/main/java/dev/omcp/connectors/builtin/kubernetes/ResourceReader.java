package dev.omcp.connectors.builtin.kubernetes;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Reads the fields the topology needs from Kubernetes objects; missing fields are empty, never an error.
 *
 * <p>Every field is bounded, so one object costs a bounded amount of memory whatever the server
 * sends. The bounds are Kubernetes' own validation limits where it has them: a real API server never
 * exceeds them, a broken or hostile one gets cut. What is dropped is counted in an attribute
 * ({@code labelsDropped}, {@code selectorDropped}, {@code ownersDropped}, {@code containersDropped},
 * {@code restartsUnreadable}) or marked ({@code replicasUnreadable}, {@code readyReplicasUnreadable}), and the
 * resource itself is kept. What a pod's containers say is wrong
 * ({@code restarts}, {@code waitingReason}, {@code lastTerminationReason}) is read by {@link PodTrouble}.
 *
 * <p>No name the topology builds a key or node id from may hold a {@code '/'}: the keys and ids join
 * namespace, kind and name with it ({@link Resource#key()}, {@code TopologyNode.idOf}), so a pod named
 * {@code a/b} outside namespaces would be the pod {@code b} of namespace {@code a}, and an owner of kind
 * {@code apps/deployment} another object than the one referenced. Kubernetes names, namespaces, kinds
 * and container names never hold one (a name is a path segment of the API), so only a hostile or
 * broken server sends it: such an object is read without a name (left out as one without a name is),
 * such an owner reference or container is dropped and counted, and such a node name is none.
 */
final class ResourceReader {
    /** Labels kept per object (Kubernetes has no count limit; real objects carry a few dozen at most). */
    static final int MAX_LABELS = 64;
    /** A label key: an optional DNS-subdomain prefix (253), '/', a name (63). */
    static final int MAX_LABEL_KEY_CHARS = 253 + 1 + 63;
    /** A label value. */
    static final int MAX_LABEL_VALUE_CHARS = 63;
    /** Names of objects, namespaces, nodes and containers: at most a DNS subdomain. */
    static final int MAX_NAME_CHARS = 253;
    /** Owner references and containers kept per object. */
    static final int MAX_REFERENCES = 64;
    /**
     * The longest resource version kept. An API server's is a decimal number (etcd's revision, at most
     * 20 digits); the value is opaque to clients, so some room is left.
     */
    static final int MAX_VERSION_CHARS = 128;
    /**
     * The longest container waiting or termination reason kept. The kubelet's are short CamelCase words
     * ({@code CreateContainerConfigError}, 26 characters); Kubernetes sets no limit, so a runtime's own have room.
     */
    static final int MAX_REASON_CHARS = 64;
    /** A resource version the watcher keeps, sends back and logs: visible ASCII, no space. */
    private static final Pattern VERSION = Pattern.compile("[!-~]+");
    /** A count as the API server writes an int32 of at least 0: at most 10 digits, checked against the maximum after. */
    private static final Pattern COUNT = Pattern.compile("[0-9]{1,10}");

    private ResourceReader() {}

    static Resource read(String kind, JsonObject object) {
        JsonObject metadata = object(object, "metadata");
        JsonObject spec = object(object, "spec");
        JsonObject status = object(object, "status");
        Map<String, String> attributes = new TreeMap<>();
        List<String> owners = new ArrayList<>();
        int slashedOwners = 0;
        if (metadata.get("ownerReferences") instanceof JsonArray refs) {
            for (JsonValue r : refs) {
                if (r instanceof JsonObject ref) {
                    String ownerKind = text(ref, "kind", "").toLowerCase(Locale.ROOT);
                    String ownerName = text(ref, "name", "");
                    if (keyPart(ownerKind) && keyPart(ownerName)) {
                        owners.add(ownerKind + "/" + ownerName);
                    } else {
                        slashedOwners++;
                    }
                }
            }
        }
        List<String> containers = new ArrayList<>();
        int slashedContainers = 0;
        if (spec.get("containers") instanceof JsonArray cs) {
            for (JsonValue c : cs) {
                if (c instanceof JsonObject container) {
                    String name = text(container, "name", "");
                    if (keyPart(name)) {
                        containers.add(name);
                    } else {
                        slashedContainers++;
                    }
                }
            }
        }
        switch (kind) {
            case "pod" -> {
                attributes.put("phase", text(status, "phase", "Unknown"));
                attributes.put("ready", Boolean.toString(podReady(status)));
                PodTrouble.read(status, attributes);
            }
            case "node" -> attributes.put("ready", readyCondition(status).orElse("Unknown"));
            case "service" -> attributes.put("type", text(spec, "type", "ClusterIP"));
            case "deployment", "statefulset", "replicaset" -> {
                replicaCount(spec, "replicas", attributes);
                replicaCount(status, "readyReplicas", attributes);
            }
            case "namespace" -> attributes.put("phase", text(status, "phase", "Active"));
            default -> {
                // daemon sets: nothing beyond their relations
            }
        }
        if (terminating(metadata)) {
            attributes.put("terminating", "true");
        }
        Map<String, String> labels = labels(metadata, "labels", "labelsDropped", attributes);
        // a selector cut short would select more pods than the service does: one that does not fit selects none
        Map<String, String> selector = Map.of();
        if (kind.equals("service")) {
            Map<String, String> whole = labels(spec, "selector", "selectorDropped", attributes);
            selector = attributes.containsKey("selectorDropped") ? Map.of() : whole;
        }
        String namespace = text(metadata, "namespace", "");
        String name = text(metadata, "name", "");
        String nodeName = text(spec, "nodeName", "");
        return new Resource(kind, keyPart(namespace) ? namespace : "", keyPart(name) && keyPart(namespace) ? name : "", labels,
                first(owners, slashedOwners, "ownersDropped", attributes), keyPart(nodeName) ? nodeName : "", selector,
                first(containers, slashedContainers, "containersDropped", attributes), Map.copyOf(attributes),
                version(metadata.getString("resourceVersion", "")));
    }

    /**
     * Puts {@code key}'s count into {@code attributes} when it is an int32 of at least 0, as the API server writes one;
     * any other value (a fraction, a negative, a number past 2^31 - 1, a string) is left out and marked in
     * {@code <key>Unreadable}, so an agent sees the count is unknown rather than reading "1.5" or "-3" replicas. A
     * missing count or null is none: the API server leaves {@code readyReplicas} out while no replica is ready.
     */
    private static void replicaCount(JsonObject o, String key, Map<String, String> attributes) {
        JsonValue value = o.get(key);
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return;
        }
        Optional<Integer> count = count(value);
        if (count.isPresent()) {
            attributes.put(key, Integer.toString(count.get()));
        } else {
            attributes.put(key + "Unreadable", "true");
        }
    }

    /** A count as the API server writes an int32 of at least 0 (a restart or replica count), or empty. */
    static Optional<Integer> count(JsonValue value) {
        if (value instanceof JsonNumber n) {
            String text = n.toString(); // a number's own digits: no BigDecimal is made of megabytes of them
            if (COUNT.matcher(text).matches() && Long.parseLong(text) <= Integer.MAX_VALUE) {
                return Optional.of(Integer.parseInt(text));
            }
        }
        return Optional.empty();
    }

    /**
     * Whether a pod is ready as its {@code Ready} condition says: that is what puts it into its services'
     * endpoints, and it is false while a readiness gate is not passed even if every container is ready.
     * Without the condition (a server that reports none), whether it has containers and all are ready.
     */
    private static boolean podReady(JsonObject status) {
        Optional<String> condition = readyCondition(status);
        if (condition.isPresent()) {
            return condition.get().equals("True");
        }
        return status.get("containerStatuses") instanceof JsonArray statuses && !statuses.isEmpty()
                && statuses.stream().allMatch(s -> s instanceof JsonObject o && o.getBoolean("ready", false));
    }

    /** The status of the {@code Ready} condition (the last one, should there be several); empty without one. */
    private static Optional<String> readyCondition(JsonObject status) {
        Optional<String> ready = Optional.empty();
        if (status.get("conditions") instanceof JsonArray conditions) {
            for (JsonValue c : conditions) {
                if (c instanceof JsonObject cond && "Ready".equals(cond.getString("type", ""))) {
                    ready = Optional.of(text(cond, "status", "Unknown"));
                }
            }
        }
        return ready;
    }

    /**
     * Whether the object is being deleted: the API server set its {@code deletionTimestamp}. A pod keeps
     * running, and its Ready condition may stay true, until its grace period ends, but its services
     * send it no new connections and its workload no longer counts it ready. A value of another type
     * than the timestamp's string still says the server set one: only none, null or "" is none.
     */
    private static boolean terminating(JsonObject metadata) {
        JsonValue deletion = metadata.get("deletionTimestamp");
        return deletion != null && deletion.getValueType() != JsonValue.ValueType.NULL
                && !(deletion instanceof JsonString s && s.getString().isEmpty());
    }

    /** Whether {@code part} can be joined into a key or node id with {@code '/'} and read back: it holds none. */
    private static boolean keyPart(String part) {
        return part.indexOf('/') < 0;
    }

    /**
     * {@code version} when it can be a resource version an API server sends, else empty (no version,
     * which a watch does not start from): at most {@link #MAX_VERSION_CHARS} visible ASCII characters.
     * The watcher keeps the value, sends it back in the next watch's URL and writes it into its log
     * lines, so megabytes, a space or a line break (forging keys or a second log event) are refused.
     */
    static String version(String version) {
        return version.length() <= MAX_VERSION_CHARS && VERSION.matcher(version).matches() ? version : "";
    }

    private static JsonObject object(JsonObject o, String key) {
        return o.get(key) instanceof JsonObject v ? v : JsonValue.EMPTY_JSON_OBJECT;
    }

    /** A string field, cut to {@link #MAX_NAME_CHARS}. */
    private static String text(JsonObject o, String key, String fallback) {
        return cut(o.getString(key, fallback));
    }

    private static String cut(String s) {
        return s.length() > MAX_NAME_CHARS ? s.substring(0, MAX_NAME_CHARS) : s;
    }

    /**
     * A label map: entries with an over-long key or value, or a value that is not a string, are
     * dropped, then the first {@link #MAX_LABELS} by key are kept. A dropped label can only make a
     * selector match fewer objects (an edge missing), never more (an edge wrong).
     */
    private static Map<String, String> labels(JsonObject o, String key, String droppedAttribute, Map<String, String> attributes) {
        if (!(o.get(key) instanceof JsonObject m)) {
            return Map.of();
        }
        TreeMap<String, String> valid = new TreeMap<>();
        int dropped = 0;
        for (Map.Entry<String, JsonValue> e : m.entrySet()) {
            if (e.getValue() instanceof JsonString s && e.getKey().length() <= MAX_LABEL_KEY_CHARS
                    && s.getString().length() <= MAX_LABEL_VALUE_CHARS) {
                valid.put(e.getKey(), s.getString());
            } else {
                dropped++;
            }
        }
        while (valid.size() > MAX_LABELS) {
            valid.pollLastEntry();
            dropped++;
        }
        if (dropped > 0) {
            attributes.put(droppedAttribute, Integer.toString(dropped));
        }
        return Map.copyOf(valid);
    }

    /** The first {@link #MAX_REFERENCES} of {@code all}; the rest and {@code refused} more are counted in {@code droppedAttribute}. */
    private static List<String> first(List<String> all, int refused, String droppedAttribute, Map<String, String> attributes) {
        int dropped = refused + Math.max(0, all.size() - MAX_REFERENCES);
        if (dropped > 0) {
            attributes.put(droppedAttribute, Integer.toString(dropped));
        }
        return List.copyOf(all.size() <= MAX_REFERENCES ? all : all.subList(0, MAX_REFERENCES));
    }
}
