package dev.omcp.connectors.builtin.kubernetes;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.connectors.builtin.backend.BackendHttp;
import dev.omcp.sdk.connector.ConnectorException;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one kind of resource current: list, then watch from the list's resource version; after a
 * broken stream it watches again from the last version seen, and after 410 Gone (or any watch
 * error) it lists again. Runs on its own virtual thread until closed.
 */
final class KindWatcher implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(KindWatcher.class);
    private static final int MAX_EVENT_BYTES = 16 << 20;
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

    private final String kind;
    private final String path;
    private final ClusterAccess access;
    private final BackendHttp http;
    private final Duration watchTimeout;
    private final CountDownLatch stopped;
    private final CountDownLatch firstList = new CountDownLatch(1);
    private final Map<String, Resource> resources = new ConcurrentHashMap<>();
    private volatile String resourceVersion;
    private volatile boolean synced;
    private volatile Optional<ConnectorException> lastError = Optional.empty();
    private volatile long relists;

    KindWatcher(String kind, String path, ClusterAccess access, Duration requestTimeout, Duration watchTimeout, CountDownLatch stopped) {
        this.kind = kind;
        this.path = path;
        this.access = access;
        this.http = new BackendHttp(access.client(), access.baseUrl(), requestTimeout, "Kubernetes");
        this.watchTimeout = watchTimeout;
        this.stopped = stopped;
    }

    String kind() {
        return kind;
    }

    boolean synced() {
        return synced;
    }

    Optional<ConnectorException> lastError() {
        return lastError;
    }

    long relists() {
        return relists;
    }

    Map<String, Resource> snapshot() {
        return Map.copyOf(resources);
    }

    /** Waits for the first list to succeed or fail. */
    boolean awaitFirstList(Duration max) throws InterruptedException {
        return firstList.await(max.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void run() {
        Duration backoff = Duration.ofMillis(200);
        while (stopped.getCount() > 0) {
            try {
                if (resourceVersion == null) {
                    list();
                }
                watch();
                backoff = Duration.ofMillis(200);
            } catch (ConnectorException e) {
                lastError = Optional.of(e);
                firstList.countDown();
                LOG.warn("event=kubernetes-watch-failed kind={} reason=\"{}\"", kind, e.getMessage());
                backoff = wait(backoff);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private Duration wait(Duration backoff) {
        try {
            stopped.await(backoff.toMillis(), TimeUnit.MILLISECONDS); // backoff; ends at once when the connector closes
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Duration next = backoff.multipliedBy(2);
        return next.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : next;
    }

    private void list() throws ConnectorException {
        HttpRequest.Builder request = HttpRequest.newBuilder(http.uri(path, Map.of())).GET().header("Accept", "application/json");
        access.authorization().ifPresent(a -> request.header("Authorization", a));
        JsonObject list = http.json(http.send(request.build()));
        Map<String, Resource> fresh = new LinkedHashMap<>();
        if (list.get("items") instanceof jakarta.json.JsonArray items) {
            for (JsonValue item : items) {
                if (item instanceof JsonObject object) {
                    Resource r = ResourceReader.read(kind, object);
                    fresh.put(r.key(), r);
                }
            }
        }
        resources.keySet().retainAll(fresh.keySet());
        resources.putAll(fresh);
        resourceVersion = BackendHttp.object(list, "metadata", "Kubernetes").getString("resourceVersion", "0");
        relists++;
        synced = true;
        lastError = Optional.empty();
        firstList.countDown();
    }

    private void watch() throws ConnectorException, InterruptedException {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("watch", "1");
        query.put("resourceVersion", resourceVersion);
        query.put("allowWatchBookmarks", "true");
        query.put("timeoutSeconds", Long.toString(watchTimeout.toSeconds()));
        HttpRequest.Builder request = HttpRequest.newBuilder(http.uri(path, query)).GET().header("Accept", "application/json");
        access.authorization().ifPresent(a -> request.header("Authorization", a));
        HttpResponse<InputStream> response;
        try {
            response = access.client().send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            // a watch has no request timeout (it is held open on purpose); only the connect timeout applies
            throw BackendHttp.failure(e, "Kubernetes", watchTimeout);
        }
        try (InputStream body = response.body()) {
            if (response.statusCode() != 200) {
                throw BackendHttp.statusFailure(response.statusCode(), BackendHttp.readBounded(body, 1 << 16, "Kubernetes"), "Kubernetes");
            }
            String line;
            while ((line = readLine(body)) != null) {
                if (line.isBlank()) {
                    continue;
                }
                if (!apply(line)) {
                    return; // 410 Gone or another watch error: list again
                }
            }
        } catch (IOException e) {
            // the stream broke: watch again from the last version seen
            LOG.info("event=kubernetes-watch-broken kind={} error={}", kind, e.getClass().getSimpleName());
        }
    }

    /** Applies one watch event; false when the watch must start over with a list. */
    private boolean apply(String line) throws IOException {
        JsonObject event;
        try (JsonReader reader = Jsonp.reader((line))) {
            event = reader.readObject();
        } catch (JsonException | IllegalStateException e) {
            throw new IOException("a watch event is not JSON (the stream was cut)");
        }
        String type = event.getString("type", "");
        if (!(event.get("object") instanceof JsonObject object)) {
            throw new IOException("a watch event has no object");
        }
        switch (type) {
            case "ADDED", "MODIFIED" -> {
                Resource r = ResourceReader.read(kind, object);
                resources.put(r.key(), r);
                resourceVersion = r.resourceVersion();
            }
            case "DELETED" -> {
                Resource r = ResourceReader.read(kind, object);
                resources.remove(r.key());
                resourceVersion = r.resourceVersion();
            }
            case "BOOKMARK" -> resourceVersion = ResourceReader.read(kind, object).resourceVersion();
            case "ERROR" -> {
                int code = object.getInt("code", 0);
                LOG.info("event=kubernetes-watch-resync kind={} code={} reason={}", kind, code, object.getString("reason", ""));
                resourceVersion = null; // 410 Gone: the version is too old; list again
                return false;
            }
            default -> throw new IOException("unknown watch event type");
        }
        return true;
    }

    private static String readLine(InputStream in) throws IOException {
        java.io.ByteArrayOutputStream line = new java.io.ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            if (b == '\n') {
                return line.toString(StandardCharsets.UTF_8);
            }
            if (line.size() >= MAX_EVENT_BYTES) {
                throw new IOException("a watch event is larger than 16 MiB");
            }
            line.write(b);
        }
        if (line.size() > 0) {
            throw new IOException("the watch stream ended inside an event");
        }
        return null;
    }
}
