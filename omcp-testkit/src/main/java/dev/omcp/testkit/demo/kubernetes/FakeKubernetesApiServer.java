package dev.omcp.testkit.demo.kubernetes;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.testkit.demo.http.LoopbackHttpServer;
import dev.omcp.testkit.demo.system.SimulatedSystem;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The Kubernetes API for the simulated cluster: lists (cluster-wide and namespaced) of the core and
 * apps resources, and watches as the API server serves them: the response headers at once (a
 * client's request timeout covers only the wait for them), {@code ADDED} events for a watch from
 * an older version, a {@code BOOKMARK} with the current version about every minute
 * and shortly before the end when the client asks {@code allowWatchBookmarks}, and a clean end
 * after {@code timeoutSeconds}. Requests need the bearer token it was started with.
 */
public final class FakeKubernetesApiServer implements AutoCloseable {
    private static final Map<String, String> KINDS = Map.of("namespaces", "NamespaceList", "nodes", "NodeList",
            "pods", "PodList", "services", "ServiceList", "deployments", "DeploymentList", "replicasets", "ReplicaSetList",
            "statefulsets", "StatefulSetList", "daemonsets", "DaemonSetList");
    private static final Set<String> APPS = Set.of("deployments", "replicasets", "statefulsets", "daemonsets");
    /** How often a quiet watch gets a bookmark: the API server's watch cache sends one about every minute. */
    static final Duration BOOKMARK_INTERVAL = Duration.ofMinutes(1);
    /** The last bookmark of a watch comes this long before its end, as the watch cache sends it. */
    private static final Duration LAST_BOOKMARK_BEFORE_END = Duration.ofSeconds(2);

    private final ClusterObjects objects;
    private final byte[] tokenDigest;
    private final LoopbackHttpServer server;

    private FakeKubernetesApiServer(SimulatedSystem system, String token) throws IOException {
        this.objects = new ClusterObjects(system);
        this.tokenDigest = sha256(token);
        Map<String, LoopbackHttpServer.Route> routes = new LinkedHashMap<>();
        routes.put("/api/v1/", this::core);
        routes.put("/apis/apps/v1/", this::apps);
        routes.put("/version", r -> { if (authorized(r)) r.json(200, "{\"major\":\"1\",\"minor\":\"31\",\"gitVersion\":\"v1.31.2\",\"platform\":\"linux/amd64\"}"); });
        routes.put("/readyz", r -> r.respond(200, "text/plain", "ok"));
        routes.put("/healthz", r -> r.respond(200, "text/plain", "ok"));
        this.server = LoopbackHttpServer.start(routes);
    }

    /** Starts the simulated API server; clients must send {@code Authorization: Bearer <token>}. */
    public static FakeKubernetesApiServer start(SimulatedSystem system, String token) throws IOException {
        return new FakeKubernetesApiServer(system, token);
    }

    public String baseUrl() {
        return server.baseUrl();
    }

    @Override
    public void close() {
        server.close();
    }

    private void core(LoopbackHttpServer.Request request) throws IOException {
        serve(request, request.path().substring("/api/v1/".length()), "v1");
    }

    private void apps(LoopbackHttpServer.Request request) throws IOException {
        serve(request, request.path().substring("/apis/apps/v1/".length()), "apps/v1");
    }

    private void serve(LoopbackHttpServer.Request request, String rest, String apiVersion) throws IOException {
        if (!authorized(request)) {
            return;
        }
        String[] parts = rest.split("/");
        String namespace = null;
        String resource;
        if (parts.length == 3 && parts[0].equals("namespaces")) {
            namespace = parts[1];
            resource = parts[2];
        } else if (parts.length == 1) {
            resource = parts[0];
        } else {
            status(request, 404, "NotFound", "the server could not find the requested resource");
            return;
        }
        boolean apps = APPS.contains(resource);
        if (!objects.knows(resource) || apps != apiVersion.equals("apps/v1")) {
            status(request, 404, "NotFound", "the server could not find the requested resource");
            return;
        }
        String watch = request.param("watch");
        if ("true".equals(watch) || "1".equals(watch)) {
            watch(request, resource, namespace);
            return;
        }
        JsonArrayBuilder items = Jsonp.array();
        objects.list(resource, namespace).forEach(items::add);
        JsonObject list = Jsonp.object().add("kind", KINDS.get(resource)).add("apiVersion", apiVersion)
                .add("metadata", Jsonp.object().add("resourceVersion", ClusterObjects.RESOURCE_VERSION))
                .add("items", items).build();
        request.json(200, list.toString());
    }

    private void watch(LoopbackHttpServer.Request request, String resource, String namespace) throws IOException {
        long timeoutSeconds = request.param("timeoutSeconds") == null ? 300 : Math.min(1800, Long.parseLong(request.param("timeoutSeconds")));
        boolean fromCurrent = ClusterObjects.RESOURCE_VERSION.equals(request.param("resourceVersion"));
        boolean bookmarks = "true".equals(request.param("allowWatchBookmarks"));
        long end = System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
        try (OutputStream out = request.stream(200, "application/json")) {
            // the headers go out now, as the API server sends them: the JDK's server holds them until the first flush
            out.flush();
            if (!fromCurrent) {
                for (JsonObject object : objects.list(resource, namespace)) {
                    write(out, Jsonp.object().add("type", "ADDED").add("object", object).build());
                }
            }
            // The simulated cluster does not change: the watch stays quiet, but for its bookmarks, until its timeout.
            long lastBookmark = end - LAST_BOOKMARK_BEFORE_END.toNanos();
            long next = System.nanoTime() + BOOKMARK_INTERVAL.toNanos();
            boolean lastSent = !bookmarks;
            while (true) {
                long now = System.nanoTime();
                if (now >= end) {
                    break;
                }
                if (bookmarks && now >= next) {
                    write(out, bookmark(resource));
                    next = now + BOOKMARK_INTERVAL.toNanos();
                } else if (!lastSent && now >= lastBookmark) {
                    write(out, bookmark(resource));
                    lastSent = true;
                } else {
                    long wake = Math.min(end, bookmarks ? next : end);
                    TimeUnit.NANOSECONDS.sleep(Math.max(1, (lastSent ? wake : Math.min(wake, lastBookmark)) - now));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // The client closed the watch, as clients do; nothing to clean up.
        }
    }

    /** A bookmark: only the kind and the current resource version, as the API server sends it. */
    private static JsonObject bookmark(String resource) {
        String listKind = KINDS.get(resource);
        return Jsonp.object().add("type", "BOOKMARK").add("object", Jsonp.object()
                .add("kind", listKind.substring(0, listKind.length() - "List".length()))
                .add("apiVersion", APPS.contains(resource) ? "apps/v1" : "v1")
                .add("metadata", Jsonp.object().add("resourceVersion", ClusterObjects.RESOURCE_VERSION))).build();
    }

    private static void write(OutputStream out, JsonObject event) throws IOException {
        out.write((event + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private boolean authorized(LoopbackHttpServer.Request request) throws IOException {
        String header = request.header("Authorization");
        if (header == null || !header.startsWith("Bearer ")
                || !MessageDigest.isEqual(sha256(header.substring(7).trim()), tokenDigest)) {
            status(request, 401, "Unauthorized", "Unauthorized");
            return false;
        }
        return true;
    }

    private static void status(LoopbackHttpServer.Request request, int code, String reason, String message) throws IOException {
        request.json(code, Jsonp.object().add("kind", "Status").add("apiVersion", "v1").add("metadata", Jsonp.object())
                .add("status", "Failure").add("message", message).add("reason", reason).add("code", code).build().toString());
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK provides SHA-256", e);
        }
    }
}
