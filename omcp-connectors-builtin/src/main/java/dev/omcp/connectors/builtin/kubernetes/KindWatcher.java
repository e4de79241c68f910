package dev.omcp.connectors.builtin.kubernetes;

import dev.omcp.sdk.json.Jsonp;
import dev.omcp.connectors.builtin.backend.BackendHttp;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.memory.AnswerBudget;
import dev.omcp.sdk.text.LogField;
import dev.omcp.sdk.text.LogPace;
import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one kind of resource current, cluster-wide or in one namespace ({@link WatchedCollection}):
 * list, then watch from the list's resource version; after a broken stream it watches again from
 * the last version seen, and after 410 Gone (or any watch error) it lists again, after a backoff
 * that only a watch needing no new list resets. Runs on its own virtual thread until closed.
 *
 * <p>A watch asks the API server to end it after the watch timeout ({@code timeoutSeconds}) and
 * to send {@code BOOKMARK} events, which move the version a quiet kind watches from. The client
 * gives the server one request timeout more to end it, then ends it itself: a watch is a request
 * held open on purpose, so neither the request timeout (the time until an answer starts, which
 * a server or proxy holding a quiet watch's headers until its first event would run out) nor any
 * read timeout applies to it alone. A watch that ends either way is renewed from the last version
 * seen, logged at debug: it is the normal life of a watch, not a failure, and needs no new list.
 *
 * <p>A list is read in pages of {@link #PAGE_SIZE} objects, following {@code metadata.continue}
 * (Kubernetes API concepts, "Retrieving large results sets in chunks"): every page belongs to one
 * snapshot, and the watch starts from the last page's resource version. A continue token that
 * expired (410 Gone) starts the list over, at most {@link #MAX_LIST_RESTARTS} times after a
 * backoff; a server that does not page answers everything at once, which works too. A list that
 * fails after the kind was listed once leaves the earlier objects in place and reports them as
 * {@link #stale()} until a list succeeds.
 *
 * <p>It keeps at most {@link WatchLimits#resourcesPerKind()} objects and, with the other kinds of
 * its source, {@link WatchLimits#bytesPerSource()}. Past a bound it refuses further objects (a
 * changed object that no longer fits is dropped rather than kept stale), reports the bound in
 * {@link #overLimit()} and {@link #lastError()}, logs it once, and lists again whenever its watch
 * ends; a list that fits clears the report.
 *
 * <p>A watcher of one namespace keeps only that namespace's objects: an API server answers a
 * namespaced path with nothing else, so an object of another namespace (or none) in a list or watch
 * event is a hostile or broken server's, and taking it would put objects the source's identity was
 * never granted into the namespace's view. Such objects are counted ({@link #objectsOutsideNamespace()})
 * and left out, with a log line at most once a minute.
 */
final class KindWatcher implements Runnable {
    private static final Logger LOG = LoggerFactory.getLogger(KindWatcher.class);
    private static final int MAX_EVENT_BYTES = 16 << 20;
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    /** Server-supplied text in a log line: one line, at most this long. */
    private static final int MAX_LOGGED_CHARS = 200;
    /** Characters of a failure's message a log line's reason keeps: the whole of any the connector writes. */
    private static final int MAX_LOGGED_REASON = 1000;
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(200);
    /**
     * Watches in a row ended by an {@code ERROR} (other than 410 Gone) before health reports the
     * kind's watches failing: one is a blip, three (about 1.4 s of backoff apart at first) a pattern.
     */
    static final int WATCH_ERRORS_REPORTED = 3;
    /**
     * Objects asked for per list page: kubectl's default chunk size. A page of even large objects
     * stays a few MiB, far below the 64 MiB one answer may carry, the API server serves it as one
     * short read, and 100,000 objects take 200 requests.
     */
    static final int PAGE_SIZE = 500;
    /**
     * Times a list starts over after its continue token expired (410 Gone) before the kind gives up
     * until its next backoff. A token lives until etcd compacts the list's snapshot (every 5 minutes
     * by default), so one restart almost always suffices; a server that expires every token gets a
     * few lists, not a tight loop.
     */
    static final int MAX_LIST_RESTARTS = 3;
    /**
     * The longest continue token sent back. A real one is base64 of a version and the last key read
     * (a namespace and a name, at most 317 characters), well under 1 KiB; 4 KiB keeps the next
     * page's URL within what proxies in front of API servers accept (8 KiB is common).
     */
    static final int MAX_CONTINUE_CHARS = 4096;

    private final String source;
    private final WatchedCollection collection;
    private final String kind;
    private final String path;
    /** The {@code kind} field of this watcher's log lines, with its namespace if it has one. */
    private final String logKind;
    private final ClusterAccess access;
    private final BackendHttp http;
    private final Duration requestTimeout;
    private final Duration watchTimeout;
    private final WatchLimits limits;
    private final AtomicLong sourceBytes;
    private final CountDownLatch stopped;
    private final CountDownLatch firstList = new CountDownLatch(1);
    private final int maxPages;
    private final AnswerBudget answerBudget;
    private final Map<String, Resource> resources = new ConcurrentHashMap<>();
    /** Paces the line about objects of other namespaces, which a hostile server could send in every event. */
    private final LogPace outsideNamespacePace;
    private final AtomicLong outsideNamespace = new AtomicLong();
    private volatile String resourceVersion;
    private volatile boolean synced;
    private volatile Optional<ConnectorException> lastError = Optional.empty();
    private volatile long relists;
    private volatile Optional<ConnectorException> overLimit = Optional.empty();
    private volatile Optional<ConnectorException> stale = Optional.empty();
    private volatile Optional<ConnectorException> watchRefused = Optional.empty();
    private volatile Optional<ConnectorException> notPermitted = Optional.empty();
    /** Set by {@link #refused} when a list got 403; read by the watcher's own thread only. */
    private volatile boolean listForbidden;
    private volatile Optional<ConnectorException> watchesFailing = Optional.empty();
    /** Watches ended by an ERROR event other than 410 Gone since one ended without an error; the watcher's own thread only. */
    private int watchErrorsInARow;
    private volatile long renewals;
    /** This kind's share of {@link #sourceBytes}; written by the watcher's own thread only. */
    private long bytes;

    /**
     * @param source the source's name, for the log
     * @param sourceBytes the estimated heap bytes all watchers of the source hold, shared among them
     * @param answerBudget the process's budget for backend answers in flight, which each list page counts against
     */
    KindWatcher(String source, WatchedCollection collection, ClusterAccess access, Duration requestTimeout, Duration watchTimeout,
            WatchLimits limits, AtomicLong sourceBytes, CountDownLatch stopped, AnswerBudget answerBudget, Clock clock) {
        this.source = source;
        this.collection = collection;
        this.kind = collection.kind();
        this.path = collection.path();
        this.logKind = collection.logFields();
        this.access = access;
        this.http = new BackendHttp(access.client(), access.baseUrl(), requestTimeout, "Kubernetes", answerBudget);
        this.requestTimeout = requestTimeout;
        this.watchTimeout = watchTimeout;
        this.limits = limits;
        this.sourceBytes = sourceBytes;
        this.stopped = stopped;
        this.answerBudget = answerBudget;
        this.outsideNamespacePace = new LogPace(clock, Duration.ofMinutes(1));
        // twice the full pages the object limit needs, for a server whose pages come back short; one that keeps answering
        // pages (empty ones, or the same objects again) with a continue token stops here
        this.maxPages = 2 * Math.ceilDiv(limits.resourcesPerKind(), PAGE_SIZE);
    }

    String kind() {
        return kind;
    }

    WatchedCollection collection() {
        return collection;
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

    /** Objects of another namespace (or none) a list or watch of this watcher's namespace answered, left out. */
    long objectsOutsideNamespace() {
        return outsideNamespace.get();
    }

    /** Whether {@code r} is none of this watcher's objects: it watches one namespace, and {@code r} is not in it. */
    private boolean outsideNamespace(Resource r) {
        return !collection.namespace().isEmpty() && !collection.namespace().equals(r.namespace());
    }

    /**
     * Counts {@code count} objects of other namespaces left out (one list's, or one event's), and says so
     * at most once a minute with the total so far. The namespace logged is the setting's; the objects'
     * own namespaces, the server's text, are not.
     */
    private void leftOutsideNamespace(long count) {
        long total = outsideNamespace.addAndGet(count);
        if (outsideNamespacePace.occurred() > 0) {
            LOG.warn("event=kubernetes-objects-outside-namespace source={} kind={} count={} total={} effect=\"left out: the API server "
                    + "answered the namespace's list or watch with objects of other namespaces, which no API server does; check that the "
                    + "source URL points at the cluster's API server\"", source, logKind, count, total);
        }
    }

    /** Watches that ended as watches do (the server's timeout, or the client's deadline) and were renewed without a list. */
    long renewals() {
        return renewals;
    }

    /**
     * How long the client lets one watch run: the watch timeout the server is asked to end it at,
     * and one request timeout more for the server to do so.
     */
    Duration watchDeadline() {
        return watchTimeout.plus(requestTimeout);
    }

    /** Why the kind is incomplete: more objects than the limits allow; empty when everything fits. */
    Optional<ConnectorException> overLimit() {
        return overLimit;
    }

    /**
     * Why the kind's objects are out of date: it was listed once, but listing it again failed, so it
     * keeps the objects of the earlier list and is not watched; empty while the kind is current.
     */
    Optional<ConnectorException> stale() {
        return stale;
    }

    /**
     * Why the kind is not watched: the API server refused its last watch (a status other than 200
     * and 410: RBAC without {@code watch}, a failing server), so it is only listed again after each
     * backoff and changes in between are missed; empty once a watch is accepted.
     */
    Optional<ConnectorException> watchRefused() {
        return watchRefused;
    }

    /**
     * Why the kind is not available to this source: it {@linkplain WatchedCollection#mayBeForbidden() may be
     * forbidden}, and the API server forbade its list (403) before it was ever listed. The kind is tried
     * again after the longest backoff, so a role granted later is picked up; empty once it is listed.
     */
    Optional<ConnectorException> notPermitted() {
        return notPermitted;
    }

    /**
     * Why the kind's watches cannot be relied on: the API server ended {@link #WATCH_ERRORS_REPORTED} or
     * more watches in a row with an {@code ERROR} event other than 410 Gone (an etcd timing out, a
     * failing server), so the kind is only as current as its last list; empty once a watch ends
     * without an error.
     */
    Optional<ConnectorException> watchesFailing() {
        return watchesFailing;
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
        Duration backoff = FIRST_BACKOFF;
        while (stopped.getCount() > 0) {
            try {
                if (resourceVersion == null || overLimit.isPresent()) {
                    list(); // over a limit the kind is incomplete: list again after every watch, it may fit now
                }
                long started = System.nanoTime();
                watch();
                // A watch lives until its timeoutSeconds; one that ended at once (a server or proxy that closes every watch, or
                // a 410 each time) must not be renewed back to back, nor, over a limit, each ended watch's new list of up to
                // hundreds of pages. Nor may a watch that ended needing a new list (an ERROR event, an unreadable one) reset
                // the backoff, however long it lived: a server that sends an error a second into every watch would get a full
                // list of the kind every second, the most expensive request of a large cluster.
                boolean endedAtOnce = System.nanoTime() - started < shortestNormalWatch().toNanos();
                boolean needsList = resourceVersion == null;
                backoff = overLimit.isPresent() || endedAtOnce || needsList ? wait(backoff) : FIRST_BACKOFF;
            } catch (ConnectorException e) {
                if (stopped.getCount() == 0) {
                    return; // a request the closing client cut short: nothing failed
                }
                lastError = Optional.of(e);
                if (collection.mayBeForbidden() && listForbidden && !synced) {
                    notPermitted(e);
                    firstList.countDown();
                    backoff = wait(MAX_BACKOFF);
                    continue;
                }
                firstList.countDown();
                LOG.warn("event=kubernetes-watch-failed source={} kind={} reason={}", source, logKind, logValue(e.getMessage()));
                backoff = wait(backoff);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException | OutOfMemoryError | StackOverflowError e) {
                // An answer the reader did not expect, a bug, or a heap full for a moment (a burst of large answers
                // elsewhere): the thread must live on, or the kind would silently never change again while health
                // still called it current. List again after a backoff, and say so.
                if (stopped.getCount() == 0) {
                    return;
                }
                ConnectorException failure = new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "reading the Kubernetes "
                        + kind + " objects failed unexpectedly (" + e.getClass().getSimpleName() + "); the kind is listed again after "
                        + "a backoff");
                if (synced) {
                    stale = Optional.of(failure);
                }
                resourceVersion = null;
                lastError = Optional.of(failure);
                firstList.countDown();
                LOG.warn("event=kubernetes-watch-bug source={} kind={} error={}", source, logKind, e.getClass().getName(), e);
                backoff = wait(backoff);
            }
        }
    }

    /**
     * A kind the source's namespace-scoped identity may not list, as expected: said once at info, not
     * warned about every time it is tried again, and not a failure of the source.
     */
    private void notPermitted(ConnectorException e) {
        if (notPermitted.isEmpty()) {
            LOG.info("event=kubernetes-kind-not-permitted source={} kind={} reason={} effect=\"the topology has no {} objects; "
                    + "tried again every {}\"", source, logKind, logValue(e.getMessage()), kind, seconds(MAX_BACKOFF));
        }
        notPermitted = Optional.of(e);
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

    private void list() throws ConnectorException, InterruptedException {
        Listing listing;
        listForbidden = false;
        try {
            listing = listWithRestarts();
        } catch (ConnectorException e) {
            if (synced) {
                stale = Optional.of(e); // the earlier list stays, unwatched: say so until a list succeeds
            }
            throw e;
        }
        if (listing.nameless > 0) {
            LOG.warn("event=kubernetes-objects-without-name source={} kind={} count={} effect=\"left out of the topology\"", source,
                    logKind,
                    listing.nameless);
        }
        if (listing.elsewhere > 0) {
            leftOutsideNamespace(listing.elsewhere);
        }
        resources.keySet().retainAll(listing.fresh.keySet());
        resources.putAll(listing.fresh);
        hold(listing.freshBytes - bytes);
        resourceVersion = listing.resourceVersion;
        relists++;
        synced = true;
        stale = Optional.empty();
        notPermitted = Optional.empty();
        // lastError before overLimit, here and below: whoever sees overLimit change sees lastError agree
        if (listing.refused.isPresent()) {
            overLimit(listing.refused.get());
            lastError = overLimit; // a watch failure before this list is over
        } else {
            lastError = Optional.empty();
            if (overLimit.isPresent()) {
                overLimit = Optional.empty();
                LOG.info("event=kubernetes-kind-within-limits source={} kind={} objects={}", source, logKind, listing.fresh.size());
            }
        }
        firstList.countDown();
    }

    /** One list, started over while its continue token expires, at most {@link #MAX_LIST_RESTARTS} times. */
    private Listing listWithRestarts() throws ConnectorException, InterruptedException {
        Duration pause = FIRST_BACKOFF;
        for (int restarts = 0; ; restarts++) {
            Optional<Listing> listing = listPages();
            if (listing.isPresent()) {
                return listing.get();
            }
            if (restarts == MAX_LIST_RESTARTS) {
                throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "the Kubernetes API expired the continue token of the "
                        + kind + " list (410 Gone) in " + (MAX_LIST_RESTARTS + 1) + " lists in a row, so none reached its last page. "
                        + "Reading the pages took longer than the API server keeps a list's snapshot (until etcd compacts it, every 5 "
                        + "minutes by default), or the server expires every token; the kind is listed again after a backoff");
            }
            LOG.info("event=kubernetes-list-restarted source={} kind={} reason=continue-expired restart={}", source, logKind, restarts + 1);
            pause = wait(pause); // the same backoff as after a failure: a server that expires every token gets no tight loop
            if (stopped.getCount() == 0 || Thread.currentThread().isInterrupted()) {
                throw new InterruptedException("the connector closed");
            }
        }
    }

    /**
     * Reads the pages of one list until the last one, or until an object does not fit (the rest are
     * not read); empty when a continue token expired and the list has to start over.
     */
    private Optional<Listing> listPages() throws ConnectorException {
        Listing listing = new Listing();
        Optional<String> next = Optional.empty();
        int pages = 0;
        do {
            if (pages == maxPages) {
                throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "the Kubernetes API answered the " + kind
                        + " list with more than " + maxPages + " pages and still offered another; OMCP asks for " + PAGE_SIZE
                        + " objects a page and keeps at most " + limits.resourcesPerKind() + " " + kind + " objects, so a list needs "
                        + "fewer pages. Check that the source URL points at the cluster's API server; the kind is listed again after a "
                        + "backoff");
            }
            PageAnswer answer = page(next, listing);
            pages++;
            if (!(answer instanceof Page page)) {
                return Optional.empty();
            }
            listing.resourceVersion = page.resourceVersion(); // the snapshot's: the same on every page, the last one counts
            if (!page.allFitted()) {
                break; // keep the first objects that fit; the rest are missing, and the health says so
            }
            next = page.next();
        } while (next.isPresent());
        return Optional.of(listing);
    }

    /**
     * One page: {@link #PAGE_SIZE} objects from where {@code continueToken} points, or from the
     * start, added to {@code listing}. The page's JSON tree is reduced to {@link Resource}s inside
     * the reader, while the answer still counts against the budget: the tree takes about eleven
     * times the answer's bytes ({@link AnswerBudget.Reading#TREE}), tens of MiB for a page of large
     * pods, and giving the budget back before it is garbage would let other answers take heap that
     * is still in use.
     */
    private PageAnswer page(Optional<String> continueToken, Listing listing) throws ConnectorException {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("limit", Integer.toString(PAGE_SIZE));
        continueToken.ifPresent(t -> query.put("continue", t)); // opaque, so URL-encoded like every query value
        HttpRequest.Builder request = access.get(http.uri(path, query)).header("Accept", "application/json");
        return http.exchange(request.build(), AnswerBudget.Reading.TREE, (status, body) -> {
            if (status == 410 && continueToken.isPresent()) {
                // Kubernetes API concepts: the token expired; a consistent list has to start over without it
                return new Expired();
            }
            if (status < 200 || status > 299) {
                throw refused("list", status, body);
            }
            return pageOf(http.json(body), listing);
        });
    }

    /** The page a list answer holds, its objects added to {@code listing} as far as they fit. */
    private PageAnswer pageOf(JsonObject list, Listing listing) throws ConnectorException {
        JsonObject metadata = BackendHttp.object(list, "metadata", "Kubernetes");
        String next = metadata.getString("continue", "");
        if (next.length() > MAX_CONTINUE_CHARS) {
            throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "the Kubernetes API answered the " + kind
                    + " list with a continue token of more than " + MAX_CONTINUE_CHARS + " characters (a real one is well under 1 KiB); "
                    + "check that the source URL points at the cluster's API server; the kind is listed again after a backoff");
        }
        JsonValue versionValue = metadata.get("resourceVersion");
        if (versionValue != null && !(versionValue instanceof JsonString) && versionValue.getValueType() != JsonValue.ValueType.NULL) {
            throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "the Kubernetes API answered the " + kind
                    + " list with a resourceVersion that is " + typeOf(versionValue) + ", not the string every API "
                    + "server sends; check that the source URL points at the cluster's API server; the kind is listed again after a "
                    + "backoff");
        }
        String version = versionValue instanceof JsonString text ? text.getString() : "";
        if (version.isEmpty()) {
            // Kubernetes API concepts: the watch starts from the list's version to see every change after it. From none it
            // would start at the most recent version and miss objects deleted in between; from "0", at any version, perhaps
            // older than the list, and replay a past state as current. Every API server's list carries one.
            throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "the Kubernetes API answered the " + kind
                    + " list without a resourceVersion, which every API server's list carries and the watch of its changes starts "
                    + "from; check that the source URL points at the cluster's API server; the kind is listed again after a backoff");
        }
        if (ResourceReader.version(version).isEmpty()) {
            // the watch starts from it: megabytes would be kept outside every bound and sent back in each watch's URL
            throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "the Kubernetes API answered the " + kind
                    + " list with a resourceVersion that is none an API server sends (at most " + ResourceReader.MAX_VERSION_CHARS
                    + " visible ASCII characters, no spaces); check that the source URL points at the cluster's API server; the kind is "
                    + "listed again after a backoff");
        }
        JsonArray items = list.get("items") instanceof JsonArray a ? a : JsonValue.EMPTY_JSON_ARRAY;
        // before the objects are read: a list that takes long shows here how far it got
        LOG.debug("event=kubernetes-list-page source={} kind={} objects={} listed={} more={}", source, logKind, items.size(),
                listing.fresh.size(), !next.isEmpty());
        boolean allFitted = listing.add(items);
        return new Page(version, next.isEmpty() ? Optional.empty() : Optional.of(next), allFitted);
    }

    /** What a list request answered: a page, or that its continue token expired. */
    private sealed interface PageAnswer permits Page, Expired {}

    /**
     * What a page left once its objects were added: no JSON, which is garbage by the time the
     * budget is given back.
     *
     * @param next the continue token of the next page; empty on the last one
     * @param allFitted false when an object did not fit the limits, and the list stops there
     */
    /** How a message names the JSON type of {@code value} (never its content, which may be megabytes). */
    private static String typeOf(JsonValue value) {
        return switch (value.getValueType()) {
            case NUMBER -> "a number";
            case TRUE, FALSE -> "a boolean";
            case ARRAY -> "a list";
            case OBJECT -> "an object";
            case STRING -> "a string";
            case NULL -> "null";
        };
    }

    private record Page(String resourceVersion, Optional<String> next, boolean allFitted) implements PageAnswer {}

    private record Expired() implements PageAnswer {}

    /** The objects of one list so far, page by page, as many as fit the limits. */
    private final class Listing {
        private final Map<String, Resource> fresh = new LinkedHashMap<>();
        private long freshBytes;
        /** The last page's version, never empty once a page was read: {@link #pageOf} refuses a page without one. */
        private String resourceVersion = "";
        private Optional<String> refused = Optional.empty();
        /** Objects the pages held without a name, left out. */
        private int nameless;
        /** Objects of other namespaces the pages of a namespace's list held, left out. */
        private int elsewhere;

        /** Adds one page's objects; false when one did not fit, and the list stops there. */
        boolean add(JsonArray items) {
            long others = sourceBytes.get() - bytes; // what the source's other kinds hold now; it changes while pages arrive
            for (JsonValue item : items) {
                if (item instanceof JsonObject object) {
                    Resource r = ResourceReader.read(kind, object);
                    if (r.name().isEmpty()) {
                        nameless++;
                        continue; // no object of the cluster: see withoutName
                    }
                    if (outsideNamespace(r)) {
                        elsewhere++;
                        continue; // no object of this namespace: see elsewhere
                    }
                    Resource same = fresh.get(r.key());
                    long delta = r.footprint() - (same == null ? 0 : same.footprint());
                    refused = refusal(fresh.size(), same != null, delta, others + freshBytes + delta);
                    if (refused.isPresent()) {
                        return false;
                    }
                    fresh.put(r.key(), r);
                    freshBytes += delta;
                }
            }
            return true;
        }
    }

    /** Why one more object does not fit, or empty when it does. */
    private Optional<String> refusal(int count, boolean replaces, long delta, long sourceBytesAfter) {
        if (!replaces && count >= limits.resourcesPerKind()) {
            return Optional.of("the cluster reported more than " + limits.resourcesPerKind() + " " + kind + " objects; OMCP keeps at most "
                    + limits.resourcesPerKind() + " of one kind, so the topology misses the rest. Look for a controller creating "
                    + kind + " objects in a loop, or check that the source URL points at the cluster's API server; the kind is listed "
                    + "again whenever its watch ends and recovers once it fits");
        }
        if (delta > 0 && sourceBytesAfter > limits.bytesPerSource()) {
            return Optional.of("the cluster's objects need more than " + size(limits.bytesPerSource()) + " of memory (names, labels "
                    + "and references of all kinds together); OMCP refused further " + kind + " objects, so the topology misses them. "
                    + "Look for objects with unusually many or long labels, or a controller creating objects in a loop; the kind is "
                    + "listed again whenever its watch ends and recovers once it fits");
        }
        return Optional.empty();
    }

    private static String size(long bytes) {
        return bytes % (1 << 20) == 0 ? (bytes >> 20) + " MiB" : bytes + " bytes";
    }

    /** Records that the kind is over a limit; logs once when it becomes so, not for every refused object. */
    private void overLimit(String message) {
        if (overLimit.isPresent() && overLimit.get().getMessage().equals(message)) {
            return;
        }
        boolean first = overLimit.isEmpty();
        Optional<ConnectorException> error = Optional.of(new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, message));
        lastError = error;
        overLimit = error;
        if (first) {
            LOG.warn("event=kubernetes-kind-over-limit source={} kind={} objects={} maxObjects={} maxBytes={} reason={}", source, logKind,
                    resources.size(), limits.resourcesPerKind(), limits.bytesPerSource(), logValue(message));
        }
    }

    private void hold(long delta) {
        bytes += delta;
        sourceBytes.addAndGet(delta);
    }

    private void watch() throws ConnectorException, InterruptedException {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("watch", "1");
        query.put("resourceVersion", resourceVersion);
        query.put("allowWatchBookmarks", "true");
        query.put("timeoutSeconds", Long.toString(watchTimeout.toSeconds()));
        Duration deadline = watchDeadline();
        long endsAt = System.nanoTime() + deadline.toNanos();
        // the request's own timeout is the watch's deadline, not the request timeout: an API server answers a watch at once,
        // but one (or a proxy) that holds a quiet watch's headers until its first event is still a quiet watch
        HttpRequest.Builder request = access.get(http.uri(path, query)).header("Accept", "application/json").timeout(deadline);
        HttpResponse<InputStream> response;
        try {
            response = access.client().send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (HttpConnectTimeoutException e) {
            throw BackendHttp.failure(e, "Kubernetes", requestTimeout); // names the connect timeout
        } catch (HttpTimeoutException e) {
            renewed("the API server sent nothing within the watch's " + seconds(deadline) + " (its " + seconds(watchTimeout)
                    + " timeoutSeconds and one " + seconds(requestTimeout) + " request timeout more), so the client ended it");
            return;
        } catch (IOException e) {
            throw BackendHttp.failure(e, "Kubernetes", deadline);
        }
        AtomicBoolean endedByClient = new AtomicBoolean();
        InputStream body = response.body();
        // the server ends the watch at timeoutSeconds; one that does not (a half-open connection, a proxy) is ended here
        Thread deadlineWatch = Thread.ofVirtual().name("omcp-k8s-" + source + "-" + collection.threadName() + "-deadline").start(() -> {
            long left = endsAt - System.nanoTime();
            try {
                if (left > 0) {
                    TimeUnit.NANOSECONDS.sleep(left);
                }
                endedByClient.set(true);
                body.close(); // a blocked read ends with an IOException
            } catch (InterruptedException | IOException e) {
                // the watch ended first: nothing to end
            }
        });
        try (body; WatchLines lines = new WatchLines(body, answerBudget, MAX_EVENT_BYTES)) {
            int status = response.statusCode();
            if (status == 410) {
                // The version is too old, refused before any event (an API server without the watch cache, an aggregated
                // API server, a proxy): the same as an ERROR event with 410. Watching from this version again would be
                // refused forever while the kind looked current; list again.
                LOG.info("event=kubernetes-watch-resync source={} kind={} code=410 reason=\"{}\"", source, logKind,
                        logged(BackendHttp.backendMessage(BackendHttp.readBounded(body, 1 << 16, "Kubernetes"))));
                resourceVersion = null;
                watchRefused = Optional.empty();
                return;
            }
            if (status != 200) {
                // Refused (RBAC without watch, a failing server): retrying from the same version would leave the kind
                // frozen while health called it current. List again after the backoff, which reports the kind stale when
                // the list is refused too, and say meanwhile that it is not watched.
                ConnectorException refused = refused("watch", status, BackendHttp.readBounded(body, 1 << 16, "Kubernetes"));
                resourceVersion = null;
                watchRefused = Optional.of(refused);
                throw refused;
            }
            watchRefused = Optional.empty();
            String line;
            while ((line = lines.next()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                boolean goOn = apply(line);
                lines.release(); // the event is applied: its text and tree are garbage now
                if (!goOn) {
                    return; // 410 Gone or another watch error: list again
                }
            }
            renewed("the API server ended it (timeoutSeconds " + watchTimeout.toSeconds() + ")");
        } catch (UnreadableEvent | WatchLines.EventTooLarge e) {
            // A complete line that is no watch event, or one too large to read (WatchLines returns whole lines only, so the
            // stream was not cut): a watch from the same version would replay it forever. List again, which reports the kind
            // stale if its list cannot be read either.
            resourceVersion = null;
            LOG.warn("event=kubernetes-watch-unreadable source={} kind={} reason={} effect=\"listing the kind again\"", source,
                    logKind, logValue(e.getMessage()));
        } catch (AnswerBudget.Exhausted e) {
            // The event is replayed by the next watch from the same version, after the backoff of a watch that ended at once.
            // One that could never fit would be replayed forever: list instead, whose pages the budget judges as well and
            // whose failure health reports.
            if (!e.fitsAlone()) {
                resourceVersion = null;
            }
            LOG.warn("event=kubernetes-watch-over-budget source={} kind={} reason={} effect=\"{}\"", source, logKind,
                    logValue(e.getMessage()), e.fitsAlone() ? "watching again after a backoff" : "listing the kind again");
        } catch (IOException e) {
            if (endedByClient.get()) {
                renewed("the API server kept it open past the watch's " + seconds(deadline) + " (its " + seconds(watchTimeout)
                        + " timeoutSeconds and one " + seconds(requestTimeout) + " request timeout more), so the client ended it");
            } else if (stopped.getCount() == 0) {
                // closing the connector closes its client, which breaks every open watch: that is the stop, not a fault
                LOG.debug("event=kubernetes-watch-closed source={} kind={}", source, logKind);
            } else {
                // the stream broke: watch again from the last version seen
                watchEndedWithoutError();
                LOG.info("event=kubernetes-watch-broken source={} kind={} error={}", source, logKind, e.getClass().getSimpleName());
            }
        } finally {
            deadlineWatch.interrupt();
        }
    }

    /**
     * The failure of a list or watch the API server answered with {@code status}. A 403 is RBAC: the
     * credentials were accepted but may not {@code verb} this kind, so it says which rule the source's
     * identity lacks, also when no Kubernetes words come with it (a proxy, an authorizing webhook).
     */
    private ConnectorException refused(String verb, int status, byte[] body) {
        if (status != 403) {
            return BackendHttp.statusFailure(status, body, "Kubernetes");
        }
        listForbidden |= verb.equals("list");
        String said = BackendHttp.backendMessage(body);
        String resource = path.substring(path.lastIndexOf('/') + 1);
        String group = path.startsWith("/apis/") ? path.split("/")[2] : "";
        String namespace = collection.namespace();
        return new ConnectorException(ConnectorException.Kind.UNAUTHORIZED, "the Kubernetes API forbade the source's identity to "
                + verb + " " + resource + (namespace.isEmpty() ? "" : " in namespace " + namespace) + " (status 403)"
                + (said.isEmpty() ? "" : ": " + said) + ". Grant it get, list and watch on " + resource + " in API group "
                + (group.isEmpty() ? "\"\" (core)" : "\"" + group + "\"")
                + (namespace.isEmpty() ? " in all namespaces (a ClusterRole bound with a ClusterRoleBinding)"
                        : " in namespace " + namespace + " (a Role bound with a RoleBinding in " + namespace + ")"));
    }

    /** A watch that ends sooner did not live as watches do: the next one waits for the backoff. */
    private Duration shortestNormalWatch() {
        Duration half = watchTimeout.dividedBy(2);
        return half.compareTo(Duration.ofSeconds(1)) < 0 ? half : Duration.ofSeconds(1);
    }

    /** A watch that ended as watches do: renewed from the last version seen, without a list. */
    private void renewed(String why) {
        renewals++;
        watchEndedWithoutError();
        // the version is the API server's text
        LOG.debug("event=kubernetes-watch-renewed source={} kind={} resourceVersion=\"{}\" reason=\"{}\"", source, logKind,
                LogField.of(resourceVersion, MAX_LOGGED_CHARS), why);
    }

    /** {@code 30 s}, {@code 1.5 s}. */
    private static String seconds(Duration d) {
        return java.math.BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString() + " s";
    }

    /** Applies one watch event; false when the watch must start over with a list. */
    private boolean apply(String line) throws IOException {
        JsonObject event;
        try (JsonReader reader = Jsonp.reader((line))) {
            event = reader.readObject();
        } catch (JsonException | IllegalStateException e) {
            throw new UnreadableEvent("a watch event is not a JSON object, or is nested too deeply to read");
        }
        String type = event.getString("type", "");
        if (!(event.get("object") instanceof JsonObject object)) {
            throw new UnreadableEvent("a watch event has no object");
        }
        switch (type) {
            case "ADDED", "MODIFIED" -> {
                Resource r = ResourceReader.read(kind, object);
                if (r.name().isEmpty()) {
                    return withoutName(r);
                }
                if (outsideNamespace(r)) {
                    return elsewhere(r);
                }
                Resource old = resources.get(r.key());
                long delta = r.footprint() - (old == null ? 0 : old.footprint());
                Optional<String> refused = refusal(resources.size(), old != null, delta, sourceBytes.get() + delta);
                if (refused.isEmpty()) {
                    resources.put(r.key(), r);
                    hold(delta);
                } else {
                    if (old != null) {
                        resources.remove(r.key()); // a stale copy would be wrong; a missing one is only missing
                        hold(-old.footprint());
                    }
                    overLimit(refused.get());
                }
                advanceTo(r.resourceVersion());
            }
            case "DELETED" -> {
                Resource r = ResourceReader.read(kind, object);
                if (r.name().isEmpty()) {
                    return withoutName(r);
                }
                if (outsideNamespace(r)) {
                    return elsewhere(r);
                }
                Resource old = resources.remove(r.key());
                if (old != null) {
                    hold(-old.footprint());
                }
                advanceTo(r.resourceVersion());
            }
            case "BOOKMARK" -> {
                // a quiet kind's version moves with the cluster's: the next watch starts from here, not from an old list's version
                advanceTo(ResourceReader.read(kind, object).resourceVersion());
            }
            case "ERROR" -> {
                int code = object.getInt("code", 0);
                // the server's words, one line and short: a reason may be megabytes long and carry newlines
                LOG.info("event=kubernetes-watch-resync source={} kind={} code={} reason=\"{}\" message=\"{}\"", source, logKind, code,
                        logged(object.getString("reason", "")), logged(object.getString("message", "")));
                if (code != 410) {
                    watchEndedWithError(code, object);
                }
                resourceVersion = null; // 410 Gone: the version is too old; list again
                return false;
            }
            default -> throw new UnreadableEvent("unknown watch event type");
        }
        return true;
    }

    /**
     * Counts a watch the API server ended with an error that is not 410 Gone (which only says the
     * version is too old, as compaction makes it in a healthy cluster). One now and then is a blip
     * the new list repairs; {@link #WATCH_ERRORS_REPORTED} in a row is a server that cannot keep a
     * watch, reported until a watch ends without an error, so health does not flap between lists.
     */
    private void watchEndedWithError(int code, JsonObject status) {
        watchErrorsInARow++;
        if (watchErrorsInARow >= WATCH_ERRORS_REPORTED) {
            String reason = logged(status.getString("reason", ""));
            String message = logged(status.getString("message", ""));
            watchesFailing = Optional.of(new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "the Kubernetes API ended the last "
                    + watchErrorsInARow + " watches of " + collection.label() + " with an error (code " + code
                    + (reason.isEmpty() ? "" : " " + reason) + (message.isEmpty() ? "" : ": " + message) + ")"));
        }
    }

    private void watchEndedWithoutError() {
        watchErrorsInARow = 0;
        watchesFailing = Optional.empty();
    }

    /**
     * An event whose object has no name: no object of a cluster (every one has a name), so it is left
     * out rather than kept as a node named "" or a service listed as "", and objects without names
     * would all share one key. The watch goes on from the event's version.
     */
    private boolean withoutName(Resource r) {
        LOG.debug("event=kubernetes-object-without-name source={} kind={} effect=\"left out of the topology\"", source, logKind);
        advanceTo(r.resourceVersion());
        return true;
    }

    /**
     * An event of an object in another namespace than the one watched: left out of the namespace's view
     * (see the class comment). The watch goes on from the event's version, as the server's stream does.
     */
    private boolean elsewhere(Resource r) {
        leftOutsideNamespace(1);
        advanceTo(r.resourceVersion());
        return true;
    }

    /**
     * The next watch starts from {@code version}, unless the event carried none (or none an API server
     * sends, which {@link ResourceReader#version} made empty): an empty version would start it from
     * "now", and it would never learn of objects deleted in between.
     */
    private void advanceTo(String version) {
        if (!version.isEmpty()) {
            resourceVersion = version;
        }
    }

    /** A whole line of the watch stream that is no event this watcher can apply. */
    private static final class UnreadableEvent extends IOException {
        private static final long serialVersionUID = 1L;

        UnreadableEvent(String message) {
            super(message);
        }
    }

    /**
     * A message as the quoted value of a log line's key: a failure's message may carry the API
     * server's words and the quotes of ours ({@code API group "apps"}), and unescaped they would
     * end the value early and forge keys after it. Escaped for a quoted field, so a parser of
     * {@code key="value"} lines reads it whole.
     */
    private static String logValue(String message) {
        return "\"" + LogField.of(message == null ? "" : message, MAX_LOGGED_REASON) + "\"";
    }

    /**
     * The API server's text as a quoted log value: one clean line, its quotes shown as {@code '}, and
     * a backslash escaped, which would otherwise escape the closing quote and run on into the next key.
     */
    private static String logged(String serverText) {
        return LogField.of(BackendHttp.clean(serverText, MAX_LOGGED_CHARS).replace('"', '\''), MAX_LOGGED_CHARS + 1);
    }
}
