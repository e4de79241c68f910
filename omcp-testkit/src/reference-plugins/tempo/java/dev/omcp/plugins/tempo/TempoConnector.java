package dev.omcp.plugins.tempo;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.connector.TracesCapability;
import dev.omcp.sdk.http.BackendApi;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.ServiceListing;
import dev.omcp.sdk.query.TraceQuery;
import dev.omcp.sdk.query.TraceResult;
import dev.omcp.sdk.query.TraceSummary;
import dev.omcp.sdk.text.BackendText;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.regex.Pattern;

/**
 * Grafana Tempo as a traces source. {@code queryTraces} runs one TraceQL search for the service in
 * the window. Tempo 2.3 and later say in each hit how many spans the whole trace has and how many
 * failed ({@code serviceStats}), so one request answers the call. A hit without them (an older
 * Tempo) has its trace fetched, in parallel with the others, at most {@code fetchConcurrency} at
 * once: the search alone only describes the matched spans.
 */
final class TempoConnector implements Connector, TracesCapability, ServiceListingCapability {
    /** What Tempo's search answers as {@code rootServiceName} while a trace's root span has not arrived. */
    static final String ROOT_NOT_RECEIVED = "<root span not yet received>";
    /**
     * How far back the service list looks. Without {@code start} and {@code end} Tempo lists only the
     * services of its live store (the last minutes), so a service quiet since would look unknown.
     */
    static final Duration SERVICE_LOOKBACK = Duration.ofHours(24);
    private static final Pattern TRACE_ID = Pattern.compile("[0-9a-f]{1,32}");
    /** The largest {@code durationMs} a search hit can hold: Tempo declares it a {@code uint32}. */
    static final long MAX_DURATION_MS = 0xFFFF_FFFFL;
    /** How many ids of traces gone between search and fetch the warning names; it counts the rest. */
    static final int GONE_IDS_NAMED = 3;
    /** How much of a not-ready answer the health message quotes. */
    static final int MAX_NOT_READY_CHARS = 200;
    /** How much of Tempo's refusal of the service list's window the listing's warning quotes. */
    static final int MAX_REFUSAL_CHARS = 200;
    private final SourceConfig source;
    private final BackendApi api;
    private final Clock clock;
    private final int fetchConcurrency;

    TempoConnector(SourceConfig source, BackendApi api, Clock clock, int fetchConcurrency) {
        this.source = source;
        this.api = api;
        this.clock = clock;
        this.fetchConcurrency = fetchConcurrency;
    }

    @Override
    public SourceConfig source() {
        return source;
    }

    @Override
    public Health health() {
        long started = System.nanoTime();
        try {
            String said = api.getText("ready", Map.of()).strip();
            boolean ready = said.equalsIgnoreCase("ready");
            // Tempo's own words (which ring member is not ready yet) are worth showing, but as a backend's text: one line,
            // no URL, bounded without cutting a character in half
            return new Health(ready, ready ? "Tempo is ready" : "Tempo is not ready: " + BackendText.clean(said, MAX_NOT_READY_CHARS),
                    Duration.ofNanos(System.nanoTime() - started));
        } catch (ConnectorException e) {
            return new Health(false, e.getMessage(), Duration.ofNanos(System.nanoTime() - started));
        }
    }

    @Override
    public List<ServiceInfo> listServices() throws ConnectorException {
        return serviceListing().services();
    }

    /**
     * The services of the last {@link #SERVICE_LOOKBACK}, sorted, with what the listing left out: the values of the tag
     * list that name no service (neither a string, as Tempo's v1 API writes them, nor an object with a string
     * {@code value}, as its v2 API does), counted, and, when Tempo refused the window, that only its live store's
     * services are listed. Both were once silent, so the agent took a list that lacked services for the whole one.
     */
    @Override
    public ServiceListing serviceListing() throws ConnectorException {
        Instant now = clock.instant();
        Map<String, String> window = new LinkedHashMap<>();
        window.put("start", Long.toString(now.minus(SERVICE_LOOKBACK).getEpochSecond()));
        window.put("end", Long.toString(secondsRoundedUp(now)));
        List<String> warnings = new ArrayList<>();
        JsonObject answer;
        try {
            answer = api.getObject("api/search/tag/service.name/values", window);
        } catch (ConnectorException e) {
            if (e.kind() != ConnectorException.Kind.BAD_QUERY) {
                throw e;
            }
            // a tenant whose max_search_duration is shorter refuses the window: its live store's services are what remains.
            // Tempo's words say what it allows: BackendApi's message names no URL of the source, and they are cleaned again
            answer = api.getObject("api/search/tag/service.name/values", Map.of());
            warnings.add("Tempo refused the service list's window of the last " + SERVICE_LOOKBACK.toHours() + " hours ("
                    + BackendText.clean(e.getMessage(), MAX_REFUSAL_CHARS) + "), so only the services of its live store (its most "
                    + "recent traces) are listed: a service that sent no trace since may be missing");
        }
        List<ServiceInfo> services = new ArrayList<>();
        int leftOut = 0;
        for (JsonValue value : tagValues(answer)) {
            if (value instanceof JsonString text) {
                services.add(new ServiceInfo(text.getString(), Map.of()));
            } else if (value instanceof JsonObject typed && typed.get("value") instanceof JsonString text) {
                services.add(new ServiceInfo(text.getString(), Map.of()));
            } else {
                leftOut++;
            }
        }
        if (leftOut > 0) {
            warnings.add("Tempo answered service names that are neither strings nor objects with a string 'value' (" + leftOut
                    + "); they were left out of the listing (a broken answer, or something other than Tempo's tag-values API at the "
                    + "source URL)");
        }
        services.sort(Comparator.comparing(ServiceInfo::name));
        return new ServiceListing(services, warnings);
    }

    /**
     * The tag list's values: none when {@code tagValues} is absent (protobuf's JSON leaves out an empty list); one of
     * another type is a BAD_RESPONSE, as a search's {@code traces} is ({@link #hits}), not a Tempo that knows no service.
     */
    private static JsonArray tagValues(JsonObject answer) throws ConnectorException {
        JsonValue values = answer.get("tagValues");
        if (values == null || values.getValueType() == JsonValue.ValueType.NULL) {
            return JsonValue.EMPTY_JSON_ARRAY;
        }
        if (values instanceof JsonArray list) {
            return list;
        }
        throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE,
                "Tempo's service list answered 'tagValues' that is not a JSON array");
    }

    @Override
    public List<TraceSummary> queryTraces(TraceQuery query) throws ConnectorException {
        return searchTraces(query).traces();
    }

    /** The traces found, and a warning naming those the search found that Tempo no longer had when fetched. */
    @Override
    public TraceResult searchTraces(TraceQuery query) throws ConnectorException {
        Map<String, String> params = new LinkedHashMap<>();
        params.put("q", TraceQl.of(query));
        // Tempo takes whole seconds: the start rounded down and the end up, so no trace of the window's first or last
        // fraction of a second is cut off (the newest traces are the ones an agent asking about "now" wants)
        long start = query.range().start().getEpochSecond();
        params.put("start", Long.toString(start));
        params.put("end", Long.toString(Math.max(start + 1, secondsRoundedUp(query.range().end()))));
        params.put("limit", Integer.toString(query.limit()));
        JsonObject answer = search(params);
        List<JsonObject> found = new ArrayList<>();
        int withoutId = 0;
        for (JsonValue trace : hits(answer)) {
            if (found.size() == query.limit()) {
                break;
            }
            if (trace instanceof JsonObject object && object.get("traceID") instanceof JsonString id && !id.getString().isEmpty()) {
                traceId(object); // checked before any is fetched: the id becomes part of a request path
                found.add(object);
            } else {
                withoutId++;
            }
        }
        List<Optional<SearchStats>> stats = found.stream().map(SearchStats::of).toList();
        List<JsonObject> unknown = new ArrayList<>();
        for (int i = 0; i < found.size(); i++) {
            if (stats.get(i).isEmpty()) {
                unknown.add(found.get(i));
            }
        }
        Iterator<Optional<TempoTrace>> fetched = fetchAll(unknown).iterator();
        List<TraceSummary> summaries = new ArrayList<>();
        List<String> gone = new ArrayList<>();
        for (int i = 0; i < found.size(); i++) {
            if (stats.get(i).isPresent()) {
                summaries.add(summary(found.get(i), stats.get(i).get()));
                continue;
            }
            // a trace the search found and Tempo no longer has (expired or compacted away since) is left out:
            // its id would open nothing, and the traces that are still there are the answer; the warning names it
            Optional<TempoTrace> trace = fetched.next();
            if (trace.isPresent()) {
                summaries.add(summary(found.get(i), trace.get()));
            } else {
                gone.add(traceId(found.get(i)));
            }
        }
        summaries.sort(Comparator.comparing(TraceSummary::start).reversed());
        List<String> warnings = new ArrayList<>();
        if (withoutId > 0) {
            warnings.add(withoutId + (withoutId == 1 ? " search hit was" : " search hits were") + " left out: not an object, or "
                    + "without a 'traceID' string (a broken answer, or something other than Tempo's search API at the source URL)");
        }
        if (!gone.isEmpty()) {
            warnings.add(goneWarning(gone));
        }
        return new TraceResult(summaries, warnings);
    }

    /**
     * The search's hits: none when {@code traces} is absent (protobuf's JSON leaves out an empty list);
     * a {@code traces} of another type is a BAD_RESPONSE, not an answer that found nothing.
     */
    private static JsonArray hits(JsonObject answer) throws ConnectorException {
        JsonValue traces = answer.get("traces");
        if (traces == null || traces.getValueType() == JsonValue.ValueType.NULL) {
            return JsonValue.EMPTY_JSON_ARRAY;
        }
        if (traces instanceof JsonArray list) {
            return list;
        }
        throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "Tempo's search answered 'traces' that is not a JSON array");
    }

    /**
     * Says which found traces Tempo answered 404 for when fetched: the first {@value #GONE_IDS_NAMED}
     * ids and how many more, so an agent that saw one elsewhere (a log line, an alert) knows why it is
     * not listed, and the line stays short however many expired.
     */
    static String goneWarning(List<String> gone) {
        String named = String.join(", ", gone.subList(0, Math.min(GONE_IDS_NAMED, gone.size())));
        String more = gone.size() > GONE_IDS_NAMED ? " and " + (gone.size() - GONE_IDS_NAMED) + " more" : "";
        return gone.size() + (gone.size() == 1 ? " trace" : " traces") + " the search found " + (gone.size() == 1 ? "was" : "were")
                + " gone when fetched (HTTP 404: expired or compacted away since) and left out: " + named + more;
    }

    /**
     * The TraceQL search. Its 404 is no missing trace but a missing API: the source URL does not
     * reach Tempo's HTTP API (or reaches a Tempo 1.x without search), which Tempo's "404 page not
     * found" does not say.
     */
    private JsonObject search(Map<String, String> params) throws ConnectorException {
        Optional<JsonObject> answer = api.getJsonIfFound("api/search", params, TempoConnector::object);
        if (answer.isEmpty()) {
            throw new ConnectorException(ConnectorException.Kind.BAD_QUERY, "Tempo answered HTTP 404 to its search API (api/search): "
                    + "point the source URL at Tempo's HTTP API (the query frontend, port 3200 by default, with any path prefix "
                    + "it is served under); a Tempo 1.x must have search enabled");
        }
        return answer.get();
    }

    private static JsonObject object(JsonValue answer) throws ConnectorException {
        if (answer instanceof JsonObject object) {
            return object;
        }
        throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE, "Tempo answered something that is not a JSON object");
    }

    private static long secondsRoundedUp(Instant instant) {
        return instant.getNano() == 0 ? instant.getEpochSecond() : instant.getEpochSecond() + 1;
    }

    /**
     * Fetches every trace by id on virtual threads, at most {@code fetchConcurrency} at once, in
     * order; empty for a trace Tempo answers 404 for (it expired between the search and the fetch).
     */
    private List<Optional<TempoTrace>> fetchAll(List<JsonObject> found) throws ConnectorException {
        if (found.isEmpty()) {
            return List.of();
        }
        Semaphore permits = new Semaphore(fetchConcurrency);
        try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Optional<TempoTrace>>> futures = new ArrayList<>();
            for (JsonObject trace : found) {
                String id = traceId(trace);
                futures.add(executor.submit(() -> {
                    permits.acquire();
                    try {
                        // a whole trace, every span: reduced while the answer still counts against the memory budget
                        return api.getJsonIfFound("api/traces/" + api.segment(id), Map.of(), answer -> TempoTrace.read(object(answer)));
                    } finally {
                        permits.release();
                    }
                }));
            }
            List<Optional<TempoTrace>> details = new ArrayList<>();
            for (Future<Optional<TempoTrace>> future : futures) {
                try {
                    details.add(future.get());
                } catch (ExecutionException e) {
                    futures.forEach(f -> f.cancel(true));
                    if (e.getCause() instanceof ConnectorException failure) {
                        throw new ConnectorException(failure.kind(), "fetching a found trace failed: " + failure.getMessage(), failure);
                    }
                    throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE,
                            "fetching a found trace failed: " + e.getCause().getClass().getSimpleName());
                } catch (InterruptedException e) {
                    futures.forEach(f -> f.cancel(true));
                    Thread.currentThread().interrupt();
                    throw new ConnectorException(ConnectorException.Kind.TIMEOUT, "the Tempo query was cancelled");
                }
            }
            return details;
        }
    }

    /** A hit whose {@code serviceStats} told the span count and error state; absent fields are protobuf's zero values. */
    private static TraceSummary summary(JsonObject found, SearchStats stats) throws ConnectorException {
        // a trace shorter than a millisecond has durationMs 0, which protobuf's JSON leaves out
        return new TraceSummary(traceId(found), found.getString("rootTraceName", ""), rootService(found, ""),
                start(TempoTrace.nanos(found, "startTimeUnixNano")), durationMs(found).orElse(0), stats.spanCount(), stats.error());
    }

    private static TraceSummary summary(JsonObject found, TempoTrace trace) throws ConnectorException {
        long hitStart = TempoTrace.nanos(found, "startTimeUnixNano");
        double durationMs = durationMs(found).orElseGet(trace::durationMs);
        String rootName = found.getString("rootTraceName", trace.rootName());
        String rootService = rootService(found, trace.rootService());
        long startNanos = hitStart != TempoTrace.NO_TIME ? hitStart : trace.startNanos();
        return new TraceSummary(traceId(found), rootName, rootService, start(startNanos), durationMs, trace.spanCount(), trace.error());
    }

    private static Instant start(long nanos) {
        return nanos == TempoTrace.NO_TIME ? TraceSummary.UNKNOWN_START
                : Instant.ofEpochSecond(nanos / 1_000_000_000L, nanos % 1_000_000_000L);
    }

    /**
     * The hit's {@code durationMs}: empty when it has none. Tempo writes an unsigned 32-bit number
     * (protobuf's {@code uint32}), so a negative one or one beyond {@value #MAX_DURATION_MS} is no
     * duration, NaN, rather than a plausible 0 that would hide the broken answer or a number of
     * centuries that would rank the trace the slowest; a value that is not a number at all is a
     * BAD_RESPONSE.
     */
    private static OptionalDouble durationMs(JsonObject found) throws ConnectorException {
        JsonValue value = found.get("durationMs");
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return OptionalDouble.empty();
        }
        double durationMs;
        if (value instanceof JsonNumber number) {
            durationMs = number.doubleValue();
        } else if (value instanceof JsonString text && text.getString().matches("-?[0-9]{1,18}")) {
            durationMs = Long.parseLong(text.getString()); // protobuf's JSON may quote integers
        } else {
            throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE,
                    "Tempo's search answered a trace whose 'durationMs' is not a number");
        }
        return OptionalDouble.of(durationMs >= 0 && durationMs <= MAX_DURATION_MS ? durationMs : TraceSummary.UNKNOWN_DURATION);
    }

    /**
     * The hit's trace id as lower-case hex. Tempo's ids are 1 to 32 hex digits (or base64 of up to 16
     * bytes); anything else is a broken answer, refused before it becomes part of a fetch's path.
     */
    static String traceId(JsonObject found) throws ConnectorException {
        String id = TempoTrace.hexId(found.getString("traceID", ""));
        if (!TRACE_ID.matcher(id).matches()) {
            throw new ConnectorException(ConnectorException.Kind.BAD_RESPONSE,
                    "Tempo's search answered a 'traceID' that is not a trace id (1 to 32 hex digits)");
        }
        return id;
    }

    /**
     * The hit's root service, or {@code otherwise} when it has none. Tempo names a trace whose root
     * span it has not received yet {@value #ROOT_NOT_RECEIVED}: that is not a service, and read as
     * one it would stand in the answer (and win over another source's real root) as the trace's root.
     */
    private static String rootService(JsonObject found, String otherwise) {
        String service = found.getString("rootServiceName", otherwise);
        return service.equals(ROOT_NOT_RECEIVED) ? otherwise : service;
    }

    @Override
    public void close() {
        // The HTTP client belongs to the gateway; searches own their executors.
    }
}
