package dev.omcp.testkit.kubernetes;

import dev.omcp.sdk.json.Jsonp;
import com.sun.net.httpserver.HttpExchange;
import dev.omcp.testkit.backend.FakeBackend;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A fake Kubernetes API server. Tests add, change and delete objects with {@link #apply} and
 * {@link #delete}; open watches receive the events. {@link #compact()} forgets history so a watch
 * from an older resource version gets 410 Gone, {@link #breakWatches()} cuts open watch streams in
 * the middle of an event, {@link #watchError} sends a watch ERROR event with the server's words of
 * choice, and {@link #applyAll} streams many events at once (an API server flooding a watch).
 * Thread-safe.
 */
public final class KubernetesFake extends FakeBackend {
    /** The resource collections the fake serves, by list path. */
    public static final Map<String, String> KINDS = Map.of(
            "/api/v1/pods", "Pod", "/api/v1/nodes", "Node", "/api/v1/namespaces", "Namespace", "/api/v1/services", "Service",
            "/apis/apps/v1/deployments", "Deployment", "/apis/apps/v1/replicasets", "ReplicaSet",
            "/apis/apps/v1/statefulsets", "StatefulSet", "/apis/apps/v1/daemonsets", "DaemonSet");

    private record Event(long version, String path, String type, JsonObject object) {}

    private final Object lock = new Object();
    private final Map<String, Map<String, JsonObject>> objects = new LinkedHashMap<>();
    private final List<Event> history = new ArrayList<>();
    private final Set<String> forbidden = ConcurrentHashMap.newKeySet();
    private long version = 100;
    private long compactedBefore = 0;
    private int brokenGeneration;
    private Optional<String> requiredToken = Optional.empty();

    public KubernetesFake() throws IOException {
        super();
        KINDS.keySet().forEach(p -> objects.put(p, new LinkedHashMap<>()));
    }

    /** Requests without {@code Authorization: Bearer <token>} get 401. */
    public KubernetesFake requireToken(String token) {
        this.requiredToken = Optional.of(token);
        return this;
    }

    /** Lists and watches of {@code path} get 403, as with missing RBAC. */
    public KubernetesFake forbid(String path) {
        forbidden.add(path);
        return this;
    }

    /** The current resource version. */
    public long resourceVersion() {
        synchronized (lock) {
            return version;
        }
    }

    /** Creates or replaces an object (ADDED or MODIFIED), giving it the next resource version. */
    public KubernetesFake apply(String path, JsonObject object) {
        return applyAll(path, List.of(object));
    }

    /** Creates or replaces many objects at once; open watches of {@code path} receive them as one burst of events. */
    public KubernetesFake applyAll(String path, List<JsonObject> many) {
        synchronized (lock) {
            many.forEach(object -> stamp(path, object));
            lock.notifyAll();
        }
        return this;
    }

    /**
     * Sends a watch ERROR event (a {@code Status} object) to the open watches of {@code path}, as an
     * API server does before it drops a watch; the watcher lists again.
     */
    public KubernetesFake watchError(String path, int code, String reason, String message) {
        synchronized (lock) {
            version++;
            history.add(new Event(version, path, "ERROR", statusObject(code, reason, message)));
            lock.notifyAll();
        }
        return this;
    }

    /** Under {@link #lock}. */
    private void stamp(String path, JsonObject object) {
        version++;
        JsonObject metadata = object.getJsonObject("metadata");
        JsonObject stamped = Jsonp.provider().createObjectBuilder(object).add("metadata", Jsonp.provider().createObjectBuilder(metadata)
                .add("resourceVersion", Long.toString(version))
                .add("uid", metadata.getString("uid", "uid-" + key(metadata)))).build();
        String type = objects.get(path).containsKey(key(metadata)) ? "MODIFIED" : "ADDED";
        objects.get(path).put(key(metadata), stamped);
        history.add(new Event(version, path, type, stamped));
    }

    /** Deletes an object (DELETED). */
    public KubernetesFake delete(String path, String namespace, String name) {
        synchronized (lock) {
            JsonObject removed = objects.get(path).remove(namespace.isEmpty() ? name : namespace + "/" + name);
            if (removed != null) {
                version++;
                history.add(new Event(version, path, "DELETED", removed));
                lock.notifyAll();
            }
        }
        return this;
    }

    /** Forgets the event history: watches from an older resource version get 410 Gone. */
    public void compact() {
        synchronized (lock) {
            compactedBefore = version + 1;
            history.clear();
        }
    }

    /** Cuts every open watch stream in the middle of an event. */
    public void breakWatches() {
        synchronized (lock) {
            brokenGeneration++;
            lock.notifyAll();
        }
    }

    private static String key(JsonObject metadata) {
        String ns = metadata.getString("namespace", "");
        return ns.isEmpty() ? metadata.getString("name") : ns + "/" + metadata.getString("name");
    }

    @Override
    protected Answer handle(Request request) {
        Optional<Answer> refused = refusal(request);
        if (refused.isPresent()) {
            return refused.get();
        }
        if (request.path().equals("/version")) {
            return Answer.json(200, "{\"major\":\"1\",\"minor\":\"30\",\"gitVersion\":\"v1.30.2\",\"gitCommit\":\"39683505b630ff2121012f3c5b16215a1449d5ed\","
                    + "\"gitTreeState\":\"clean\",\"buildDate\":\"2024-06-11T20:21:00Z\",\"goVersion\":\"go1.22.4\",\"compiler\":\"gc\","
                    + "\"platform\":\"linux/amd64\"}");
        }
        String kind = KINDS.get(request.path());
        if (kind == null) {
            return status(404, "NotFound", "the server could not find the requested resource");
        }
        synchronized (lock) {
            JsonArrayBuilder items = Jsonp.array();
            objects.get(request.path()).values().forEach(items::add);
            String apiVersion = request.path().startsWith("/apis/apps") ? "apps/v1" : "v1";
            return Answer.json(200, Jsonp.object().add("kind", kind + "List").add("apiVersion", apiVersion)
                    .add("metadata", Jsonp.object().add("resourceVersion", Long.toString(version)))
                    .add("items", items).build().toString());
        }
    }

    private Optional<Answer> refusal(Request request) {
        if (requiredToken.isPresent()
                && !("Bearer " + requiredToken.get()).equals(request.headers().getOrDefault("authorization", ""))) {
            return Optional.of(status(401, "Unauthorized", "Unauthorized"));
        }
        if (forbidden.contains(request.path())) {
            String resource = request.path().substring(request.path().lastIndexOf('/') + 1);
            return Optional.of(status(403, "Forbidden", resource + " is forbidden: User \"system:serviceaccount:omcp:omcp\" cannot list resource \""
                    + resource + "\" in API group \"" + (request.path().startsWith("/apis/apps") ? "apps" : "") + "\" at the cluster scope"));
        }
        return Optional.empty();
    }

    private static Answer status(int code, String reason, String message) {
        return Answer.json(code, statusObject(code, reason, message).toString());
    }

    private static JsonObject statusObject(int code, String reason, String message) {
        return Jsonp.object().add("kind", "Status").add("apiVersion", "v1").add("metadata", JsonObject.EMPTY_JSON_OBJECT)
                .add("status", "Failure").add("message", message).add("reason", reason).add("code", code).build();
    }

    @Override
    protected boolean stream(Request request, HttpExchange exchange) throws IOException {
        if (!"1".equals(request.query().get("watch")) && !"true".equals(request.query().get("watch"))) {
            return false;
        }
        if (refusal(request).isPresent() || !KINDS.containsKey(request.path())) {
            return false;
        }
        long from = Long.parseLong(request.query().getOrDefault("resourceVersion", "0"));
        long timeoutSeconds = Long.parseLong(request.query().getOrDefault("timeoutSeconds", "300"));
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        long deadline = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
        int generation;
        synchronized (lock) {
            generation = brokenGeneration;
            if (from < compactedBefore - 1) {
                write(out, Jsonp.object().add("type", "ERROR").add("object", statusObject(410, "Expired",
                        "too old resource version: " + from + " (" + (compactedBefore - 1) + ")")).build().toString() + "\n");
                out.close();
                return true;
            }
        }
        long sent = from;
        while (!closing() && System.nanoTime() < deadline) {
            List<Event> pending = new ArrayList<>();
            boolean broken;
            synchronized (lock) {
                for (Event e : history) {
                    if (e.version() > sent && e.path().equals(request.path())) {
                        pending.add(e);
                    }
                }
                broken = brokenGeneration != generation;
                if (pending.isEmpty() && !broken) {
                    try {
                        lock.wait(100);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return true;
                    }
                    continue;
                }
            }
            if (broken) {
                write(out, "{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"Po"); // cut mid-event, as a dropped connection does
                out.close();
                return true;
            }
            for (Event e : pending) {
                write(out, Jsonp.object().add("type", e.type()).add("object", e.object()).build().toString() + "\n");
                sent = e.version();
            }
        }
        out.close();
        return true;
    }

    private static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    // ------------------------------------------------------------------ object builders

    /** Object metadata. */
    public static JsonObjectBuilder metadata(String namespace, String name, Map<String, String> labels) {
        JsonObjectBuilder m = Jsonp.object().add("name", name).add("creationTimestamp", "2026-01-01T00:00:00Z");
        if (!namespace.isEmpty()) {
            m.add("namespace", namespace);
        }
        JsonObjectBuilder l = Jsonp.object();
        labels.forEach(l::add);
        return m.add("labels", l);
    }

    /** A controller owner reference. */
    public static JsonObject owner(String kind, String name) {
        return Jsonp.object().add("apiVersion", kind.equals("Deployment") || kind.endsWith("Set") ? "apps/v1" : "v1")
                .add("kind", kind).add("name", name).add("uid", "uid-" + name).add("controller", true).add("blockOwnerDeletion", true).build();
    }

    /** A namespace. */
    public static JsonObject namespace(String name) {
        return Jsonp.object().add("kind", "Namespace").add("apiVersion", "v1").add("metadata", metadata("", name, Map.of()))
                .add("status", Jsonp.object().add("phase", "Active")).build();
    }

    /** A ready node. */
    public static JsonObject node(String name) {
        return Jsonp.object().add("kind", "Node").add("apiVersion", "v1")
                .add("metadata", metadata("", name, Map.of("kubernetes.io/hostname", name)))
                .add("status", Jsonp.object().add("conditions", Jsonp.array()
                        .add(Jsonp.object().add("type", "Ready").add("status", "True")))
                        .add("nodeInfo", Jsonp.object().add("kubeletVersion", "v1.30.2"))).build();
    }

    /** A running pod with containers, owned by {@code owner} (may be null). */
    public static JsonObject pod(String namespace, String name, Map<String, String> labels, String node, JsonObject owner,
            List<String> containers) {
        JsonObjectBuilder meta = metadata(namespace, name, labels);
        if (owner != null) {
            meta.add("ownerReferences", Jsonp.array().add(owner));
        }
        JsonArrayBuilder specContainers = Jsonp.array();
        JsonArrayBuilder statuses = Jsonp.array();
        for (String c : containers) {
            specContainers.add(Jsonp.object().add("name", c).add("image", "registry.example/" + c + ":1.0"));
            statuses.add(Jsonp.object().add("name", c).add("ready", true).add("restartCount", 0));
        }
        return Jsonp.object().add("kind", "Pod").add("apiVersion", "v1").add("metadata", meta)
                .add("spec", Jsonp.object().add("nodeName", node).add("containers", specContainers))
                .add("status", Jsonp.object().add("phase", "Running").add("podIP", "10.1.0.7")
                        .add("containerStatuses", statuses)).build();
    }

    /** A workload (Deployment, ReplicaSet, StatefulSet, DaemonSet) with an optional owner. */
    public static JsonObject workload(String kind, String namespace, String name, Map<String, String> selector, JsonObject owner) {
        JsonObjectBuilder meta = metadata(namespace, name, selector);
        if (owner != null) {
            meta.add("ownerReferences", Jsonp.array().add(owner));
        }
        JsonObjectBuilder match = Jsonp.object();
        selector.forEach(match::add);
        return Jsonp.object().add("kind", kind).add("apiVersion", "apps/v1").add("metadata", meta)
                .add("spec", Jsonp.object().add("replicas", 2).add("selector", Jsonp.object().add("matchLabels", match)))
                .add("status", Jsonp.object().add("readyReplicas", 2)).build();
    }

    /** A ClusterIP service selecting pods by {@code selector}. */
    public static JsonObject service(String namespace, String name, Map<String, String> selector) {
        JsonObjectBuilder sel = Jsonp.object();
        selector.forEach(sel::add);
        return Jsonp.object().add("kind", "Service").add("apiVersion", "v1").add("metadata", metadata(namespace, name, Map.of()))
                .add("spec", Jsonp.object().add("type", "ClusterIP").add("clusterIP", "10.96.0.10").add("selector", sel)
                        .add("ports", Jsonp.array().add(Jsonp.object().add("port", 80).add("protocol", "TCP")))).build();
    }
}
