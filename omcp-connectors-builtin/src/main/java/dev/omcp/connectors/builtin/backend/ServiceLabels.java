package dev.omcp.connectors.builtin.backend;

import dev.omcp.sdk.connector.ConnectorException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

/**
 * How a backend that names services by label (Prometheus, Loki) finds the label of a service: the
 * first of the candidate labels whose values contain it. Both backends answer label values the same
 * way ({@code GET <api>label/<name>/values}, the values in {@code data}); the values are cached for
 * the label cache time-to-live, so resolving a service costs a request per candidate only when the
 * cache is cold. The values are read token by token, at most {@value LabelValues#MAX_VALUES} of a
 * label ({@link LabelValues}), and cached with what their answer warned ({@link #answer}), which a
 * service listing passes on. Thread-safe.
 */
public final class ServiceLabels {
    private final BackendHttp http;
    private final String labelApi;
    private final List<String> candidates;
    /** Each label's values (or derived set) with what its answer warned: a listing from the cache still says it. */
    private final TtlCache<String, BackendJson.Answer<Set<String>>> values;
    /** The fetch of each label's values (or derived set) under way, which every call wanting them meanwhile waits for. */
    private final ConcurrentHashMap<String, CompletableFuture<BackendJson.Answer<Set<String>>>> fetching = new ConcurrentHashMap<>();

    /**
     * @param http the backend
     * @param labelApi the path the label API hangs under, ending in {@code /label/}
     * @param candidates the service labels to try, first match wins
     * @param clock the clock cache expiry is measured on
     * @param cacheTtl how long a label's values are cached
     */
    public ServiceLabels(BackendHttp http, String labelApi, List<String> candidates, Clock clock, Duration cacheTtl) {
        this.http = http;
        this.labelApi = labelApi;
        this.candidates = List.copyOf(candidates);
        this.values = new TtlCache<>(clock, cacheTtl, 64);
    }

    /** The candidate labels, in the order they are tried. */
    public List<String> candidates() {
        return candidates;
    }

    /** The first candidate label whose values contain {@code service}. */
    public Optional<String> resolve(String service) throws ConnectorException {
        for (String label : candidates) {
            if (values(label).contains(service)) {
                return Optional.of(label);
            }
        }
        return Optional.empty();
    }

    /**
     * Every value of {@code label}, cached. Calls that want a label while its values are being
     * fetched wait for that fetch instead of sending their own: when the cache expired under load,
     * every call sent the same request at once, each reading a list of up to
     * {@value LabelValues#MAX_VALUES} values into the shared answer budget, which then refused other
     * calls' answers. A failed fetch is not shared: each waiting call then asks for itself, so one
     * call's deadline or interrupt never fails another.
     */
    public Set<String> values(String label) throws ConnectorException {
        return answer(label).result();
    }

    /**
     * As {@link #values}, with the warnings of the answer they were read from (the backend's own, and how many values
     * were too long to keep): what a service listing passes on, as cached as the values.
     */
    public BackendJson.Answer<Set<String>> answer(String label) throws ConnectorException {
        return cached(label, () -> fetchAnswer(label, Map.of()));
    }

    /** How a set of values other than a label's whole is fetched: label values narrowed by selectors, say. */
    @FunctionalInterface
    public interface ValuesFetch {
        Set<String> fetch() throws ConnectorException;
    }

    /** How a label's values and their answer's warnings are fetched. */
    @FunctionalInterface
    private interface AnswerFetch {
        BackendJson.Answer<Set<String>> fetch() throws ConnectorException;
    }

    /**
     * A set of values {@code fetch} derives, cached and fetched once at a time as a label's {@link #values} are.
     *
     * @param key names the set; it holds a space, so it never names a label, whose values share the cache
     */
    public Set<String> derived(String key, ValuesFetch fetch) throws ConnectorException {
        if (key.indexOf(' ') < 0) {
            throw new IllegalArgumentException("a derived set's key holds a space, so it never names a label: " + key);
        }
        return cached(key, () -> new BackendJson.Answer<>(fetch.fetch(), List.of())).result();
    }

    private BackendJson.Answer<Set<String>> cached(String key, AnswerFetch fetch) throws ConnectorException {
        Optional<BackendJson.Answer<Set<String>>> cached = values.get(key);
        if (cached.isPresent()) {
            return cached.get();
        }
        CompletableFuture<BackendJson.Answer<Set<String>>> mine = new CompletableFuture<>();
        CompletableFuture<BackendJson.Answer<Set<String>>> underWay = fetching.putIfAbsent(key, mine);
        if (underWay != null) {
            Optional<BackendJson.Answer<Set<String>>> shared = joined(underWay);
            if (shared.isPresent()) {
                return shared.get();
            }
            return fetchAndCache(key, fetch);
        }
        try {
            // another fetch may have finished between the look at the cache and taking the turn
            BackendJson.Answer<Set<String>> fetched = values.get(key).orElse(null);
            if (fetched == null) {
                fetched = fetchAndCache(key, fetch);
            }
            mine.complete(fetched);
            return fetched;
        } catch (ConnectorException | RuntimeException e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            fetching.remove(key, mine);
        }
    }

    private BackendJson.Answer<Set<String>> fetchAndCache(String key, AnswerFetch fetch) throws ConnectorException {
        BackendJson.Answer<Set<String>> fetched = fetch.fetch();
        values.put(key, fetched);
        return fetched;
    }

    /** The values another call fetched, or empty when its fetch failed (then this call asks for itself). */
    private Optional<BackendJson.Answer<Set<String>>> joined(CompletableFuture<BackendJson.Answer<Set<String>>> underWay)
            throws ConnectorException {
        try {
            return Optional.of(underWay.get());
        } catch (ExecutionException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "the call to " + http.backend() + " was interrupted");
        }
    }

    /**
     * The values of {@code label} the backend answers for {@code query} (no parameters, or a
     * selector narrowing the series or streams that count), not cached.
     */
    public Set<String> fetch(String label, Map<String, String> query) throws ConnectorException {
        return fetchAnswer(label, query).result();
    }

    /** As {@link #fetch}, with the answer's warnings, as {@link #answer} has them. */
    public BackendJson.Answer<Set<String>> fetchAnswer(String label, Map<String, String> query) throws ConnectorException {
        // a name that is not classic goes escaped: raw, a '/' in it would split the path, and servers before Prometheus 3 refuse it
        return http.getValues(labelApi + QueryText.labelValuesPathName(label) + "/values", query,
                (body, charge) -> LabelValues.read(body, charge, http.backend(), label));
    }
}
