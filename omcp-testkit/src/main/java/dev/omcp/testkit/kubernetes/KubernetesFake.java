package dev.omcp.testkit.kubernetes;

import dev.omcp.sdk.json.Jsonp;
import com.sun.net.httpserver.HttpExchange;
import dev.omcp.testkit.backend.FakeBackend;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A fake Kubernetes API server. Tests add, change and delete objects with {@link #apply} and
 * {@link #delete}; open watches receive the events. {@link #compact()} forgets history so a watch
 * from an older resource version gets 410 Gone, {@link #breakWatches()} cuts open watch streams in
 * the middle of an event, {@link #watchError} sends a watch ERROR event with the server's words of
 * choice ({@link #endWatchesWithError} ends every watch with one), and {@link #applyAll} streams
 * many events at once (an API server flooding a watch).
 *
 * <p>Lists are paged as the API server pages them (API concepts, "Retrieving large results sets in
 * chunks"): with {@code limit} a list answers at most that many objects, sorted by key as etcd
 * returns them, and an opaque {@code metadata.continue} token for the rest; every page of one list
 * shows the same snapshot and carries its resource version. A token whose snapshot is gone
 * ({@link #compact()}, {@link #expireContinueTokens()}, {@link #expireNextContinues}) gets 410
 * Gone, reason {@code Expired}. Tokens are standard base64 beginning with {@code ++//}, so a client
 * that does not URL-encode them gets 400. {@link #ignoreLimit()} makes the fake a server without
 * paging, {@link #endlessPages} a hostile one, and {@link #listRequests} shows what clients asked.
 *
 * <p>Watches are served as the API server serves them: the response headers at once, the events
 * after the watch's version, and a clean end after {@code timeoutSeconds}; with
 * {@link #bookmarkEvery} a watch that asks {@code allowWatchBookmarks} also gets {@code BOOKMARK}
 * events with the current version. {@link #holdQuietWatchHeaders()} and
 * {@link #ignoreWatchTimeout()} make it a server (or a proxy in front of one) that sends nothing of
 * a quiet watch until its first event, or keeps watches open past their timeout;
 * {@link #watchRequests} shows what watches clients opened.
 *
 * <p>The namespaced kinds are served per namespace too, at the paths the API server serves them
 * (API concepts, "Resource URIs"): {@code /api/v1/namespaces/{ns}/pods},
 * {@code /apis/apps/v1/namespaces/{ns}/deployments}; a list or watch there holds that namespace's
 * objects only (a namespace that does not exist lists empty, as on a real server), and a watch
 * there also gets the kind's {@code ERROR} events. {@link #grantOnlyNamespaces} makes the fake's
 * identity one that RBAC grants namespaces only (a Role and RoleBinding in each): every
 * cluster-wide list and watch gets 403, as do those of other namespaces. Thread-safe.
 */
public final class KubernetesFake extends FakeBackend {
    /** The resource collections the fake serves, by list path. */
    public static final Map<String, String> KINDS = Map.of(
            "/api/v1/pods", "Pod", "/api/v1/nodes", "Node", "/api/v1/namespaces", "Namespace", "/api/v1/services", "Service",
            "/apis/apps/v1/deployments", "Deployment", "/apis/apps/v1/replicasets", "ReplicaSet",
            "/apis/apps/v1/statefulsets", "StatefulSet", "/apis/apps/v1/daemonsets", "DaemonSet");

    /** Kinds that live outside namespaces: no namespaced path serves them. */
    private static final Set<String> CLUSTER_SCOPED = Set.of("/api/v1/nodes", "/api/v1/namespaces");
    /** {@code /api/v1/namespaces/shop/pods}: the group's prefix, the namespace and the resource. */
    private static final Pattern NAMESPACED_PATH = Pattern.compile("(/api/v1|/apis/apps/v1)/namespaces/([^/]+)/([^/]+)");

    private record Event(long version, String path, String type, JsonObject object) {}

    /**
     * What a request path lists or watches: a kind's objects ({@code path}, as in {@link #KINDS})
     * in one namespace, or in all when {@code namespace} is empty.
     */
    private record Collection(String path, String namespace) {
        static Optional<Collection> of(String requestPath) {
            if (KINDS.containsKey(requestPath)) {
                return Optional.of(new Collection(requestPath, ""));
            }
            Matcher m = NAMESPACED_PATH.matcher(requestPath);
            if (!m.matches()) {
                return Optional.empty();
            }
            String path = m.group(1) + "/" + m.group(3);
            boolean namespaced = KINDS.containsKey(path) && !CLUSTER_SCOPED.contains(path);
            return namespaced ? Optional.of(new Collection(path, m.group(2))) : Optional.empty();
        }

        boolean holds(JsonObject object) {
            return namespace.isEmpty() || namespace.equals(object.getJsonObject("metadata").getString("namespace", ""));
        }

        /**
         * The objects of {@code all} (the kind's, by key) in this collection, sorted by key as etcd returns them; with
         * {@code leak}, those of every namespace (see {@link KubernetesFake#leakOtherNamespaces()}).
         */
        NavigableMap<String, JsonObject> objectsIn(Map<String, JsonObject> all, boolean leak) {
            TreeMap<String, JsonObject> held = new TreeMap<>();
            all.forEach((key, object) -> {
                if (leak || holds(object)) {
                    held.put(key, object);
                }
            });
            return Collections.unmodifiableNavigableMap(held);
        }
    }

    /** The objects of one list at one version, by key: what the continue tokens of that list read from. */
    private record Snapshot(String path, long version, NavigableMap<String, JsonObject> objects) {}

    /** What a continue token holds: the list's snapshot and the last key already answered. */
    private record Continue(String path, long snapshot, String after) {
        /** Three bytes that encode as {@code ++//}: the token needs URL-encoding, as any opaque token may. */
        private static final byte[] MAGIC = {(byte) 0xFB, (byte) 0xEF, (byte) 0xFF};

        String encode() {
            byte[] json = Jsonp.object().add("v", "fake.omcp.dev/v1").add("path", path).add("snapshot", snapshot).add("after", after)
                    .build().toString().getBytes(StandardCharsets.UTF_8);
            byte[] token = Arrays.copyOf(MAGIC, MAGIC.length + json.length);
            System.arraycopy(json, 0, token, MAGIC.length, json.length);
            return Base64.getEncoder().encodeToString(token);
        }

        static Optional<Continue> decode(String token) {
            try {
                byte[] bytes = Base64.getDecoder().decode(token);
                if (bytes.length <= MAGIC.length || !Arrays.equals(bytes, 0, MAGIC.length, MAGIC, 0, MAGIC.length)) {
                    return Optional.empty();
                }
                try (JsonReader reader = Jsonp.reader(new String(bytes, MAGIC.length, bytes.length - MAGIC.length, StandardCharsets.UTF_8))) {
                    JsonObject o = reader.readObject();
                    if (o.get("path") instanceof JsonString p && o.get("snapshot") instanceof JsonNumber n && n.isIntegral()
                            && o.get("after") instanceof JsonString a) {
                        return Optional.of(new Continue(p.getString(), n.longValue(), a.getString()));
                    }
                    return Optional.empty();
                }
            } catch (IllegalArgumentException | JsonException | IllegalStateException e) {
                return Optional.empty(); // not base64, or not a JSON object: not a token this fake handed out
            }
        }
    }

    /** Snapshots kept for continue tokens; older ones expire, as etcd compacts old revisions. */
    private static final int MAX_SNAPSHOTS = 64;
    private static final String EXPIRED_MESSAGE = "The provided continue parameter is too old to display a consistent list result. You can "
            + "start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of "
            + "the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, "
            + "or deleted between the time the first chunk was returned and now may show up in the list.";

    private final Object lock = new Object();
    private final Map<String, Map<String, JsonObject>> objects = new LinkedHashMap<>();
    private final List<Event> history = new ArrayList<>();
    private final Set<String> forbidden = ConcurrentHashMap.newKeySet();
    private long version = 100;
    private long compactedBefore = 0;
    private int brokenGeneration;
    private Optional<String> requiredToken = Optional.empty();
    private final Map<Long, Snapshot> snapshots = new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Snapshot> eldest) {
            return size() > MAX_SNAPSHOTS;
        }
    };
    private long snapshotIds;
    private boolean ignoreLimit;
    private int expireContinues;
    private final Map<String, Integer> endlessPages = new LinkedHashMap<>();
    private final Map<String, String> listVersions = new LinkedHashMap<>();
    private final Set<String> listsWithoutVersion = new HashSet<>();
    private final Set<String> listsWithNumericVersion = new HashSet<>();
    private long endlessTokens;
    private Runnable beforeContinue;
    private Duration bookmarkEvery = Duration.ZERO;
    private boolean holdQuietWatchHeaders;
    private boolean ignoreWatchTimeout;
    private boolean endWatchesAtOnce;
    private boolean goneWatchesAsStatus;
    private boolean leakOtherNamespaces;
    /** The ERROR event every watch ends with, and how long into the watch: see {@link #endWatchesWithError}. */
    private Optional<JsonObject> watchEndingError = Optional.empty();
    private Duration watchEndingErrorAfter = Duration.ZERO;
    private final Set<String> forbiddenWatches = ConcurrentHashMap.newKeySet();
    /** The namespaces RBAC grants the identity; empty: the whole cluster. */
    private volatile Optional<Set<String>> grantedNamespaces = Optional.empty();

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

    /**
     * Makes the identity a namespace-scoped one, as a Role and RoleBinding in each of
     * {@code namespaces} grant it: lists and watches of every cluster-wide collection ({@code /api/v1/pods},
     * {@code /api/v1/nodes}...) get 403, and so do those of the namespaced paths of other namespaces.
     */
    public KubernetesFake grantOnlyNamespaces(String... namespaces) {
        grantedNamespaces = Optional.of(Set.of(namespaces));
        return this;
    }

    /**
     * Watches of {@code path} get 403 while its lists still work: RBAC that grants {@code list} but
     * not {@code watch}, or a permission taken away while the gateway runs.
     */
    public KubernetesFake forbidWatches(String path) {
        forbiddenWatches.add(path);
        return this;
    }

    /**
     * A watch from a resource version older than the history answers HTTP 410 Gone with a
     * {@code Status} (reason {@code Expired}) instead of a 200 stream carrying an ERROR event: how an
     * API server without the watch cache, an aggregated API server or a proxy in front of one refuses
     * it, and what client-go's reflector treats as "list again".
     */
    public KubernetesFake goneWatchesAsStatus() {
        synchronized (lock) {
            goneWatchesAsStatus = true;
        }
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

    /**
     * Creates or replaces an object whose watch event carries no {@code resourceVersion}, as a broken
     * server or proxy might send it: the watcher must keep the version it watches from.
     */
    public KubernetesFake applyWithoutVersion(String path, JsonObject object) {
        synchronized (lock) {
            stamp(path, object, false);
            lock.notifyAll();
        }
        return this;
    }

    /** Under {@link #lock}. */
    private void stamp(String path, JsonObject object) {
        stamp(path, object, true);
    }

    /** Under {@link #lock}. */
    private void stamp(String path, JsonObject object, boolean withVersion) {
        version++;
        JsonObject metadata = object.getJsonObject("metadata");
        var stampedMetadata = Jsonp.provider().createObjectBuilder(metadata).add("uid", metadata.getString("uid", "uid-" + key(metadata)));
        if (withVersion) {
            stampedMetadata.add("resourceVersion", Long.toString(version));
        }
        JsonObject stamped = Jsonp.provider().createObjectBuilder(object).add("metadata", stampedMetadata).build();
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

    /**
     * Makes the fake a server that does not page: {@code limit} and {@code continue} are ignored and
     * every list answers all objects, without a continue token.
     */
    public KubernetesFake ignoreLimit() {
        synchronized (lock) {
            ignoreLimit = true;
        }
        return this;
    }

    /** Expires every continue token handed out so far: continuing with one gets 410 Gone. */
    public void expireContinueTokens() {
        synchronized (lock) {
            snapshots.clear();
        }
    }

    /**
     * The next {@code count} requests that continue a list get 410 Gone, reason {@code Expired},
     * whatever their token ({@code Integer.MAX_VALUE}: a server that expires every token; 0 ends it).
     */
    public KubernetesFake expireNextContinues(int count) {
        synchronized (lock) {
            expireContinues = count;
        }
        return this;
    }

    /**
     * A hostile server: every list of {@code path} answers a page with no objects and a new continue
     * token of {@code tokenChars} characters (at least 24), however often the client follows it.
     */
    public KubernetesFake endlessPages(String path, int tokenChars) {
        if (tokenChars < 24) {
            throw new IllegalArgumentException("tokenChars must be at least 24, was " + tokenChars);
        }
        synchronized (lock) {
            endlessPages.put(path, tokenChars);
        }
        return this;
    }

    /**
     * A hostile server: every list of {@code path} answers {@code resourceVersion} as its version
     * instead of the fake's own (a number), the objects as before.
     */
    public KubernetesFake answerListsWithVersion(String path, String resourceVersion) {
        synchronized (lock) {
            listVersions.put(path, resourceVersion);
        }
        return this;
    }

    /**
     * A broken server: every list of {@code path} answers without {@code metadata.resourceVersion},
     * which every API server's list carries, the objects as before.
     */
    public KubernetesFake answerListsWithoutVersion(String path) {
        synchronized (lock) {
            listsWithoutVersion.add(path);
        }
        return this;
    }

    /**
     * A broken server: every list of {@code path} answers its {@code metadata.resourceVersion} as a JSON
     * number, not the string every API server sends, the objects as before.
     */
    public KubernetesFake answerListsWithNumericVersion(String path) {
        synchronized (lock) {
            listsWithNumericVersion.add(path);
        }
        return this;
    }

    /** Runs {@code action} once, when the next request continuing a list arrives and before it is answered. */
    public KubernetesFake beforeNextContinue(Runnable action) {
        synchronized (lock) {
            beforeContinue = action;
        }
        return this;
    }

    /**
     * Watches that ask {@code allowWatchBookmarks} get a {@code BOOKMARK} event with the current
     * resource version every {@code interval} (the API server sends one about every minute);
     * {@link Duration#ZERO}, the default, sends none.
     */
    public KubernetesFake bookmarkEvery(Duration interval) {
        synchronized (lock) {
            bookmarkEvery = interval;
        }
        return this;
    }

    /**
     * Makes the fake hold a watch's response headers until its first event, as a server or proxy
     * that buffers does: a quiet watch answers nothing at all, and a client waiting for the answer
     * to start waits until the watch ends.
     */
    public KubernetesFake holdQuietWatchHeaders() {
        synchronized (lock) {
            holdQuietWatchHeaders = true;
        }
        return this;
    }

    /**
     * Makes the fake a hostile (or broken) server whose namespaced lists and watches answer the objects of every
     * namespace, not only the one in their path: no API server does, and a client must not take them as that namespace's.
     */
    public KubernetesFake leakOtherNamespaces() {
        synchronized (lock) {
            leakOtherNamespaces = true;
        }
        return this;
    }

    /** Makes the fake keep watches open past their {@code timeoutSeconds}, until the client ends them or the fake closes. */
    public KubernetesFake ignoreWatchTimeout() {
        synchronized (lock) {
            ignoreWatchTimeout = true;
        }
        return this;
    }

    /**
     * Makes the fake end every watch {@code after} its start with an ERROR event (a {@code Status} of
     * {@code code}), as an API server whose etcd keeps timing out does: every watch delivers its
     * events until then, and the client has to list again.
     */
    public KubernetesFake endWatchesWithError(Duration after, int code, String reason, String message) {
        synchronized (lock) {
            watchEndingError = Optional.of(statusObject(code, reason, message));
            watchEndingErrorAfter = after;
        }
        return this;
    }

    /** Ends {@link #endWatchesWithError}: watches opened from now on live as usual, as once the server recovered. */
    public KubernetesFake stopEndingWatchesWithError() {
        synchronized (lock) {
            watchEndingError = Optional.empty();
        }
        return this;
    }

    /** Makes the fake end every watch right after its headers, as a server or proxy that closes every watch does. */
    public KubernetesFake endWatchesAtOnce() {
        synchronized (lock) {
            endWatchesAtOnce = true;
        }
        return this;
    }

    /** The watch requests of {@code path} received so far, in order; each query holds its {@code resourceVersion}. */
    public List<Request> watchRequests(String path) {
        return requests().stream().filter(r -> r.path().equals(path) && watch(r)).toList();
    }

    /** The list requests (not watches) of {@code path} received so far, in order; each query holds its {@code limit} and {@code continue}. */
    public List<Request> listRequests(String path) {
        return requests().stream().filter(r -> r.path().equals(path) && !watch(r)).toList();
    }

    private static boolean watch(Request request) {
        return "1".equals(request.query().get("watch")) || "true".equals(request.query().get("watch"));
    }

    /** Forgets the event history: watches from an older resource version get 410 Gone, and so do continue tokens of older lists. */
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
        Optional<Collection> collection = Collection.of(request.path());
        if (collection.isEmpty()) {
            return status(404, "NotFound", "the server could not find the requested resource");
        }
        String kind = KINDS.get(collection.get().path());
        Runnable action = null;
        if (!request.query().getOrDefault("continue", "").isEmpty()) {
            synchronized (lock) {
                action = beforeContinue;
                beforeContinue = null;
            }
        }
        if (action != null) {
            action.run(); // outside the lock: the action may change objects
        }
        synchronized (lock) {
            return list(request, collection.get(), kind);
        }
    }

    /** Under {@link #lock}. */
    private Answer list(Request request, Collection collection, String kind) {
        String path = request.path();
        if (endlessPages.containsKey(path)) {
            String token = Base64.getEncoder().encodeToString(("endless-" + ++endlessTokens + "-").getBytes(StandardCharsets.UTF_8));
            token = (token + "A".repeat(Math.max(0, endlessPages.get(path) - token.length()))).substring(0, endlessPages.get(path));
            return listAnswer(path, kind, version, List.of(), Jsonp.object().add("continue", token));
        }
        int limit;
        try {
            limit = ignoreLimit ? 0 : Integer.parseInt(request.query().getOrDefault("limit", "0"));
        } catch (NumberFormatException e) {
            return status(400, "BadRequest", "limit: Invalid value: \"" + request.query().get("limit") + "\": must be an integer");
        }
        String token = ignoreLimit ? "" : request.query().getOrDefault("continue", "");
        long id;
        Snapshot snapshot;
        String after = "";
        if (token.isEmpty()) {
            id = ++snapshotIds;
            snapshot = new Snapshot(path, version, collection.objectsIn(objects.get(collection.path()), leakOtherNamespaces));
        } else {
            Optional<Continue> from = Continue.decode(token);
            if (from.isEmpty() || !from.get().path().equals(path)) {
                return status(400, "BadRequest", "continue key is not valid: the continue token does not belong to this list");
            }
            id = from.get().snapshot();
            snapshot = snapshots.get(id);
            if (expireContinues > 0 || snapshot == null || snapshot.version() < compactedBefore - 1) {
                expireContinues = Math.max(0, expireContinues - 1);
                return expired(path, collection, from.get().after());
            }
            after = from.get().after();
        }
        List<JsonObject> page = new ArrayList<>();
        String last = after;
        NavigableMap<String, JsonObject> rest = after.isEmpty() ? snapshot.objects() : snapshot.objects().tailMap(after, false);
        for (Map.Entry<String, JsonObject> e : rest.entrySet()) {
            if (limit > 0 && page.size() == limit) {
                break;
            }
            page.add(e.getValue());
            last = e.getKey();
        }
        JsonObjectBuilder metadata = Jsonp.object();
        int remaining = rest.size() - page.size();
        if (remaining > 0) {
            snapshots.putIfAbsent(id, snapshot);
            metadata.add("continue", new Continue(path, id, last).encode()).add("remainingItemCount", remaining);
        } else {
            snapshots.remove(id); // the list is complete
        }
        String listVersion = listsWithoutVersion.contains(path) ? null : listVersions.getOrDefault(path, Long.toString(snapshot.version()));
        if (listsWithNumericVersion.contains(path)) {
            metadata.add("resourceVersion", snapshot.version());
            listVersion = null;
        }
        return listAnswer(path, kind, listVersion, page, metadata);
    }

    private static Answer listAnswer(String path, String kind, long resourceVersion, List<JsonObject> items, JsonObjectBuilder metadata) {
        return listAnswer(path, kind, Long.toString(resourceVersion), items, metadata);
    }

    /** A list answer; without {@code metadata.resourceVersion} when {@code resourceVersion} is null. */
    private static Answer listAnswer(String path, String kind, String resourceVersion, List<JsonObject> items, JsonObjectBuilder metadata) {
        if (resourceVersion != null) {
            metadata.add("resourceVersion", resourceVersion);
        }
        JsonArrayBuilder array = Jsonp.array();
        items.forEach(array::add);
        String apiVersion = path.startsWith("/apis/apps") ? "apps/v1" : "v1";
        return Answer.json(200, Jsonp.object().add("kind", kind + "List").add("apiVersion", apiVersion)
                .add("metadata", metadata)
                .add("items", array).build().toString());
    }

    /**
     * 410 Gone for an expired continue token, as the API server answers it: with a token that goes
     * on from the same key in the current state (an inconsistent list, for clients that accept one).
     * Under {@link #lock}.
     */
    private Answer expired(String path, Collection collection, String after) {
        long id = ++snapshotIds;
        snapshots.put(id, new Snapshot(path, version, collection.objectsIn(objects.get(collection.path()), leakOtherNamespaces)));
        JsonObject status = Jsonp.provider().createObjectBuilder(statusObject(410, "Expired", EXPIRED_MESSAGE))
                .add("metadata", Jsonp.object().add("continue", new Continue(path, id, after).encode())).build();
        return Answer.json(410, status.toString());
    }

    private Optional<Answer> refusal(Request request) {
        if (requiredToken.isPresent()
                && !("Bearer " + requiredToken.get()).equals(request.headers().getOrDefault("authorization", ""))) {
            return Optional.of(status(401, "Unauthorized", "Unauthorized"));
        }
        Optional<Collection> collection = Collection.of(request.path());
        if (forbidden.contains(request.path()) || collection.isPresent() && !granted(collection.get())) {
            return Optional.of(forbidden(request, watch(request) ? "watch" : "list"));
        }
        return Optional.empty();
    }

    private boolean granted(Collection collection) {
        Optional<Set<String>> namespaces = grantedNamespaces;
        return namespaces.isEmpty() || namespaces.get().contains(collection.namespace());
    }

    /** 403 in the API server's words: what the identity cannot do, and where (the cluster scope, or a namespace). */
    private static Answer forbidden(Request request, String verb) {
        String resource = request.path().substring(request.path().lastIndexOf('/') + 1);
        String namespace = Collection.of(request.path()).map(Collection::namespace).orElse("");
        return status(403, "Forbidden", resource + " is forbidden: User \"system:serviceaccount:omcp:omcp\" cannot " + verb
                + " resource \"" + resource + "\" in API group \"" + (request.path().startsWith("/apis/apps") ? "apps" : "") + "\" "
                + (namespace.isEmpty() ? "at the cluster scope" : "in the namespace \"" + namespace + "\""));
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
        if (!watch(request)) {
            return false;
        }
        Optional<Collection> watched = Collection.of(request.path());
        if (refusal(request).isPresent() || watched.isEmpty()) {
            return false;
        }
        Collection collection = watched.get();
        if (forbiddenWatches.contains(request.path())) {
            reply(exchange, forbidden(request, "watch"));
            return true;
        }
        long from = Long.parseLong(request.query().getOrDefault("resourceVersion", "0"));
        synchronized (lock) {
            if (goneWatchesAsStatus && from < compactedBefore - 1) {
                reply(exchange, status(410, "Expired", "too old resource version: " + from + " (" + (compactedBefore - 1) + ")"));
                return true;
            }
        }
        long timeoutSeconds = Long.parseLong(request.query().getOrDefault("timeoutSeconds", "300"));
        boolean bookmarks = "true".equals(request.query().get("allowWatchBookmarks"));
        Duration bookmarkInterval;
        boolean holdHeaders;
        boolean endless;
        boolean atOnce;
        Optional<JsonObject> endingError;
        long errorAt;
        synchronized (lock) {
            atOnce = endWatchesAtOnce;
            endingError = watchEndingError;
            errorAt = System.nanoTime() + watchEndingErrorAfter.toNanos();
            bookmarkInterval = bookmarks ? bookmarkEvery : Duration.ZERO;
            holdHeaders = holdQuietWatchHeaders;
            endless = ignoreWatchTimeout;
        }
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, 0);
        OutputStream out = exchange.getResponseBody();
        if (!holdHeaders) {
            out.flush(); // the API server answers a watch at once; the JDK's server holds the headers until the first flush
        }
        long deadline = atOnce ? System.nanoTime() : endless ? Long.MAX_VALUE : System.nanoTime() + Duration.ofSeconds(timeoutSeconds).toNanos();
        long nextBookmark = bookmarkInterval.isZero() ? Long.MAX_VALUE : System.nanoTime() + bookmarkInterval.toNanos();
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
            if (endingError.isPresent() && System.nanoTime() >= errorAt) {
                write(out, Jsonp.object().add("type", "ERROR").add("object", endingError.get()).build().toString() + "\n");
                out.close();
                return true;
            }
            List<Event> pending = new ArrayList<>();
            boolean broken;
            long current;
            synchronized (lock) {
                for (Event e : history) {
                    // an ERROR ends every watch of the kind; other events reach the watches of the object's namespace
                    boolean reaches = e.type().equals("ERROR") || leakOtherNamespaces || collection.holds(e.object());
                    if (e.version() > sent && e.path().equals(collection.path()) && reaches) {
                        pending.add(e);
                    }
                }
                broken = brokenGeneration != generation;
                current = version;
                if (pending.isEmpty() && !broken && System.nanoTime() >= nextBookmark) {
                    nextBookmark = System.nanoTime() + bookmarkInterval.toNanos();
                    pending.add(new Event(current, collection.path(), "BOOKMARK", bookmarkObject(collection.path(), current)));
                }
                if (pending.isEmpty() && !broken) {
                    try {
                        // no later than the ending error is due
                        lock.wait(endingError.isEmpty() ? 100 : Math.clamp((errorAt - System.nanoTime()) / 1_000_000 + 1, 1, 100));
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
                sent = Math.max(sent, e.version());
            }
        }
        out.close();
        return true;
    }

    /** A bookmark's object: the kind and the resource version only, as the API server sends it. */
    private static JsonObject bookmarkObject(String path, long version) {
        return Jsonp.object().add("kind", KINDS.get(path)).add("apiVersion", path.startsWith("/apis/apps") ? "apps/v1" : "v1")
                .add("metadata", Jsonp.object().add("resourceVersion", Long.toString(version))).build();
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
