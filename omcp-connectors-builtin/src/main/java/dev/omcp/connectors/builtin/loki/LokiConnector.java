package dev.omcp.connectors.builtin.loki;

import dev.omcp.connectors.builtin.backend.BackendHttp;
import dev.omcp.connectors.builtin.backend.BackendJson;
import dev.omcp.connectors.builtin.backend.HttpBackendConnector;
import dev.omcp.sdk.memory.AnswerBudget;
import dev.omcp.connectors.builtin.backend.QueryText;
import dev.omcp.connectors.builtin.backend.SampleChecks;
import dev.omcp.connectors.builtin.backend.ServiceLabels;
import dev.omcp.connectors.builtin.backend.TimedHealthCheck;
import dev.omcp.connectors.builtin.backend.TtlCache;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorException.Kind;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.LogAggregatesCapability;
import dev.omcp.sdk.connector.LogsCapability;
import dev.omcp.sdk.connector.QueryListener;
import dev.omcp.sdk.connector.ServiceListingCapability;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.query.LogAggregation;
import dev.omcp.sdk.query.LogEntry;
import dev.omcp.sdk.query.LogQuery;
import dev.omcp.sdk.query.LogResult;
import dev.omcp.sdk.query.MetricResult;
import dev.omcp.sdk.query.Series;
import dev.omcp.sdk.query.ServiceInfo;
import dev.omcp.sdk.query.ServiceListing;
import dev.omcp.sdk.query.TimeRange;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * A Loki source. Log searches and aggregates become LogQL with every value quoted; lines come back
 * newest first. Exact-match filters on fields the lines carry are applied after a {@code | json} or
 * {@code | logfmt} stage ({@code logFormat} setting).
 */
final class LokiConnector extends HttpBackendConnector
        implements LogsCapability, LogAggregatesCapability, ServiceListingCapability {
    static final int MAX_POINTS = 1000;
    static final int MAX_LINES = 5000;
    private static final String BACKEND = "Loki";
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final Pattern LABEL_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /**
     * Label names of a service's streams a count groups by at most: Loki keeps 15 a stream by default
     * ({@code max_label_names_per_series}), and a service's streams share most of theirs.
     */
    static final int MAX_STREAM_LABEL_NAMES = 64;
    /** The longest label name of a stream a count groups by: real ones are short words ({@code namespace}, {@code pod}). */
    static final int MAX_STREAM_LABEL_NAME_CHARS = 128;
    /** Digits of the latest nanosecond time an {@link Instant} holds (year 1000000000, about 3.2e25 ns); a sign may come besides. */
    static final int MAX_NANOS_DIGITS = 26;

    private final ServiceLabels serviceLabels;
    private final String logFormat;
    private final String levelLabel;
    /**
     * Per candidate label, its values on streams that carry no earlier candidate (what {@link #serviceListing} lists), with
     * what the answer warned: a listing from the cache still says it.
     */
    private final TtlCache<String, BackendJson.Answer<Set<String>>> unclaimedValues;

    LokiConnector(SourceConfig source, HttpClient client, Duration timeout, Clock clock, AnswerBudget answerBudget,
            List<String> serviceLabels, String logFormat, String levelLabel, Duration labelCacheTtl) {
        super(source, client, timeout, clock, answerBudget, BACKEND);
        this.serviceLabels = new ServiceLabels(http(), "/loki/api/v1/label/", serviceLabels, clock, labelCacheTtl);
        this.logFormat = logFormat;
        this.levelLabel = levelLabel;
        this.unclaimedValues = new TtlCache<>(clock, labelCacheTtl, 64);
    }

    @Override
    public Health health() {
        TimedHealthCheck check = TimedHealthCheck.start(clock());
        try {
            http().getText("/ready");
        } catch (ConnectorException e) {
            return check.down(e.getMessage());
        }
        String version = "";
        try {
            version = BackendHttp.version(http().getJson("/loki/api/v1/status/buildinfo", Map.of()).getString("version", ""));
        } catch (ConnectorException | ClassCastException e) {
            // ready but no build info (older versions, gateways in front): still up
        }
        return check.up("Loki " + (version.isEmpty() ? "is ready" : version));
    }

    @Override
    public LogResult queryLogs(LogQuery query) throws ConnectorException {
        return queryLogs(query, QueryListener.NONE);
    }

    @Override
    public LogResult queryLogs(LogQuery query, QueryListener listener) throws ConnectorException {
        Optional<String> label = resolveServiceLabel(query.service());
        if (label.isEmpty()) {
            return new LogResult(List.of(), false, "");
        }
        String logql = logql(query, label.get());
        int limit = Math.min(query.limit(), MAX_LINES);
        Map<String, String> params = new LinkedHashMap<>();
        params.put("query", logql);
        params.put("start", nanos(query.range().start()));
        params.put("end", nanos(query.range().end()));
        params.put("limit", Integer.toString(limit));
        params.put("direction", "backward");
        BackendJson.Answer<List<LogEntry>> answer = http().getValues("/loki/api/v1/query_range", told(listener, params),
                (body, charge) -> LokiStreams.readAnswer(body, limit, query.range(), charge));
        List<LogEntry> entries = new ArrayList<>(answer.result());
        entries.sort(Comparator.comparing(LogEntry::timestamp).reversed());
        boolean truncated = entries.size() >= limit;
        return new LogResult(entries.subList(0, Math.min(limit, entries.size())), truncated, logql, answer.warnings());
    }

    /** The LogQL of a log search: selector, line regex, parser, level and exact-match filters, every value quoted. */
    String logql(LogQuery query, String label) throws ConnectorException {
        return logql(query, label, false, false);
    }

    /**
     * The log query an aggregate counts the lines of. {@code parse} adds the parser stage even
     * without filters, so aggregates can group by fields. After a parser, the lines it could not
     * read are left out: Loki refuses a whole metric query ("pipeline error: 'JSONParserErr'") as
     * soon as one such line reaches the count, and one plain-text line among JSON ones (a stack
     * trace, a start-up banner) is enough. A log search keeps them, with their {@code __error__} label.
     */
    String aggregatedLogql(LogQuery query, String label, boolean parse) throws ConnectorException {
        return logql(query, label, parse, true);
    }

    private String logql(LogQuery query, String label, boolean parse, boolean counted) throws ConnectorException {
        StringBuilder q = new StringBuilder(selector(query, label));
        if (query.lineRegex().isPresent()) {
            q.append(" |~ ").append(QueryText.quote(query.lineRegex().get()));
        }
        if (parses(query, parse)) {
            q.append(" | ").append(logFormat);
            if (counted) {
                q.append(" | __error__=\"\"");
            }
        }
        if (query.level().isPresent()) {
            // every spelling of the level: warn and warning, err and error, ...
            String spellings = String.join("|", LevelSpellings.of(query.level().get()).stream().map(LokiConnector::regexLiteral).toList());
            q.append(" | ").append(levelLabel).append("=~").append(QueryText.quote("(?i)(" + spellings + ")"));
        }
        for (Map.Entry<String, String> e : new TreeMap<>(query.labels()).entrySet()) {
            q.append(" | ").append(QueryText.labelName(e.getKey(), "label filter")).append('=').append(QueryText.quote(e.getValue()));
        }
        return q.toString();
    }

    /** The stream selector of a service: {@code {label="service"}}. */
    private static String selector(LogQuery query, String label) {
        return "{" + label + "=" + QueryText.quote(query.service()) + "}";
    }

    /** Whether the LogQL of {@code query} has a parser stage, which turns every field of a line into a label. */
    private boolean parses(LogQuery query, boolean parse) {
        boolean filters = parse || query.level().isPresent() || !query.labels().isEmpty();
        return filters && !logFormat.equals("none");
    }

    /** A regular expression matching exactly {@code text}. */
    private static String regexLiteral(String text) {
        StringBuilder out = new StringBuilder();
        for (char c : text.toCharArray()) {
            if ("\\.^$|?*+()[]{}".indexOf(c) >= 0) {
                out.append('\\');
            }
            out.append(c);
        }
        return out.toString();
    }

    /**
     * Tells {@code listener} the LogQL of {@code params} before they are sent: the text heard is the
     * very string sent, so what an agent is shown for a failed call cannot differ from what ran.
     */
    private static Map<String, String> told(QueryListener listener, Map<String, String> params) {
        listener.sending(params.get("query"));
        return params;
    }

    @Override
    public MetricResult aggregateLogs(LogAggregation aggregation) throws ConnectorException {
        return aggregateLogs(aggregation, QueryListener.NONE);
    }

    @Override
    public MetricResult aggregateLogs(LogAggregation aggregation, QueryListener listener) throws ConnectorException {
        LogQuery query = aggregation.query();
        QueryText.labelNames(aggregation.by(), "aggregate label");
        Optional<String> label = resolveServiceLabel(query.service());
        if (label.isEmpty()) {
            return new MetricResult(List.of(), "", "");
        }
        String logs = aggregatedLogql(query, label.get(), !aggregation.by().isEmpty());
        String by = String.join(", ", aggregation.by());
        TimeRange range = query.range();
        if (aggregation.function() == LogAggregation.Function.TOPK) {
            String logql = "topk(" + aggregation.k() + ", sum by (" + by + ") (count_over_time(" + logs + " ["
                    + QueryText.duration(range.length()) + "])))";
            BackendJson.Answer<List<Series>> answer = http().getJson("/loki/api/v1/query",
                    told(listener, Map.of("query", logql, "time", nanos(range.end()))), LokiMetricAnswers::vectorAnswer);
            return new MetricResult(answer.result(), logql, label.get(), Optional.empty(), answer.warnings());
        }
        Duration step = step(range.length(), aggregation.step());
        String counted = "count_over_time(" + logs + " [" + QueryText.duration(step) + "])";
        if (aggregation.function() == LogAggregation.Function.COUNT_OVER_TIME && by.isEmpty()
                && parses(query, false)) {
            // Counts per stream, as without a parser: after one, every field of a line (trace id,
            // timestamp...) is a label, and each distinct line would be a series of its own.
            by = String.join(", ", streamLabelNames(selector(query, label.get()), range, label.get()));
        }
        String logql = switch (aggregation.function()) {
            case COUNT_OVER_TIME -> by.isEmpty() ? counted : "sum by (" + by + ") (" + counted + ")";
            case SUM -> by.isEmpty() ? "sum(" + counted + ")" : "sum by (" + by + ") (" + counted + ")";
            case TOPK -> throw new IllegalStateException("handled above");
        };
        Map<String, String> params = new LinkedHashMap<>();
        params.put("query", logql);
        // Loki evaluates at start, start + step, ... end, each point counting the step that ends
        // there; a first point at the window's start would count the step before the window.
        params.put("start", nanos(range.start().plus(step)));
        params.put("end", nanos(range.end()));
        params.put("step", Long.toString(step.toSeconds()));
        SampleChecks checks = SampleChecks.within(range, step);
        BackendJson.Answer<List<Series>> answer = http().getJson("/loki/api/v1/query_range", told(listener, params),
                tree -> LokiMetricAnswers.matrixAnswer(tree, checks));
        return new MetricResult(answer.result(), logql, label.get(), Optional.of(step), answer.warnings());
    }

    /**
     * The step to run: the one asked for, widened when the window would need more than
     * {@link #MAX_POINTS} points, to a step that still tiles the window (LogAggregation's contract).
     */
    static Duration step(Duration window, Duration requested) {
        Duration fewestPoints = Duration.ofSeconds((window.toSeconds() + MAX_POINTS - 1) / MAX_POINTS);
        return LogAggregation.tilingStep(window, requested.compareTo(fewestPoints) >= 0 ? requested : fewestPoints);
    }

    /**
     * The names of the labels of the streams {@code selector} selects in the window, from Loki's
     * series API, always with the service label. A server without that API (status 404), one that
     * rejects the question, or an answer that cannot be read leaves the service label alone: counts
     * per service rather than per line. So does an answer with more than {@link #MAX_STREAM_LABEL_NAMES}
     * names, or a name longer than {@link #MAX_STREAM_LABEL_NAME_CHARS}: the names become the LogQL
     * sent and shown to the agent, which would grow with whatever the answer holds.
     */
    private List<String> streamLabelNames(String selector, TimeRange range, String serviceLabel) throws ConnectorException {
        Set<String> names = new TreeSet<>(Set.of(serviceLabel));
        try {
            // one entry per stream: reduced to label names while the answer's memory still counts
            http().getJson("/loki/api/v1/series", Map.of("match[]", selector, "start", nanos(range.start()), "end", nanos(range.end())),
                    answer -> {
                        BackendHttp.requireSuccess(answer, BACKEND);
                        for (JsonValue stream : array(answer, "data")) {
                            if (stream instanceof JsonObject labels) {
                                // Loki's internal labels (__stream_shard__...) are not the stream's own
                                labels.keySet().stream().filter(n -> LABEL_NAME.matcher(n).matches() && !n.startsWith("__"))
                                        .forEach(names::add);
                            }
                            if (names.size() > MAX_STREAM_LABEL_NAMES) {
                                break;
                            }
                        }
                        return names;
                    });
        } catch (ConnectorException e) {
            // a server without the API answers 404 (BAD_RESPONSE), one that rejects the question 400: either way the
            // counts per service are still true, only coarser; a backend that is down or slow fails the aggregate
            if (e.kind() != Kind.BAD_QUERY && e.kind() != Kind.BAD_RESPONSE) {
                throw e;
            }
            return List.of(serviceLabel);
        }
        if (names.size() > MAX_STREAM_LABEL_NAMES || names.stream().anyMatch(n -> n.length() > MAX_STREAM_LABEL_NAME_CHARS)) {
            return List.of(serviceLabel); // no labelling a Loki keeps: per service, still true, and a query of one label
        }
        return List.copyOf(names);
    }

    /** The first configured label whose values contain {@code service}, cached. */
    Optional<String> resolveServiceLabel(String service) throws ConnectorException {
        return serviceLabels.resolve(service);
    }

    /**
     * The values of {@code label} on streams without any of {@code earlier}, through the stream
     * selector Loki's label-values API takes ({@code query}). A Loki too old for it ignores the
     * selector and answers every value; a Loki-compatible server that rejects it gets the plain
     * question instead. Either way the list then holds the later names too, as before the rule,
     * rather than failing. Cached like {@link ServiceLabels#values}.
     */
    private BackendJson.Answer<Set<String>> unclaimedValues(String label, List<String> earlier) throws ConnectorException {
        Optional<BackendJson.Answer<Set<String>>> cached = unclaimedValues.get(label);
        if (cached.isPresent()) {
            return cached.get();
        }
        StringBuilder selector = new StringBuilder("{").append(label).append("=~\".+\"");
        for (String claimed : earlier) {
            selector.append(',').append(claimed).append("=\"\"");
        }
        selector.append('}');
        BackendJson.Answer<Set<String>> values;
        try {
            values = serviceLabels.fetchAnswer(label, Map.of("query", selector.toString()));
        } catch (ConnectorException e) {
            if (e.kind() != Kind.BAD_QUERY) {
                throw e;
            }
            values = serviceLabels.answer(label);
        }
        unclaimedValues.put(label, values);
        return values;
    }

    /**
     * The services of the streams, the first candidate label a stream carries naming it. A stream
     * labelled {@code service_name="catalog"} and {@code job="shop/catalog"} (what Kubernetes log
     * agents write) is the service {@code catalog}; listing every value of every candidate would
     * also list {@code shop/catalog}, the same pods under a second name. So each later candidate
     * counts only the streams that carry none of the earlier ones. A service named by a later label
     * still resolves by that label ({@link #resolveServiceLabel}): the rule decides what is listed,
     * not what can be asked for.
     */
    @Override
    public List<ServiceInfo> listServices() throws ConnectorException {
        return serviceListing().services();
    }

    /**
     * The services as {@link #listServices} lists them, with what the label-values answers said they may lack: Loki's
     * (or a frontend's) {@code warnings} beside the values (a store or querier that did not answer), and how many values
     * were too long to keep, each line naming its label. A value that is not a string fails the listing
     * ({@code BAD_RESPONSE}) instead: no Loki writes one.
     */
    @Override
    public ServiceListing serviceListing() throws ConnectorException {
        Map<String, String> services = new TreeMap<>();
        Set<String> warnings = new LinkedHashSet<>();
        List<String> candidates = serviceLabels.candidates();
        for (int i = 0; i < candidates.size(); i++) {
            String label = candidates.get(i);
            BackendJson.Answer<Set<String>> values = i == 0 ? serviceLabels.answer(label)
                    : unclaimedValues(label, candidates.subList(0, i));
            for (String name : values.result()) {
                services.putIfAbsent(name, label);
            }
            // the label's name is configuration, not the backend's text: it says which values the line is about
            values.warnings().forEach(w -> warnings.add("values of the label '" + label + "': " + w));
        }
        List<ServiceInfo> out = new ArrayList<>();
        services.forEach((name, label) -> out.add(new ServiceInfo(name, Map.of("label", label))));
        return new ServiceListing(out, List.copyOf(warnings));
    }

    private static JsonArray array(JsonObject o, String key) throws ConnectorException {
        return BackendHttp.array(o, key, BACKEND);
    }

    private static String nanos(Instant t) {
        return BigDecimal.valueOf(t.getEpochSecond()).movePointRight(9).add(BigDecimal.valueOf(t.getNano())).toPlainString();
    }

    /**
     * Loki's timestamps: nanoseconds since the epoch, as decimal text. Only whole numbers of at most
     * {@value #MAX_NANOS_DIGITS} digits are read: the text is the backend's, and the exact path once
     * took any {@code BigDecimal} spelling, so {@code "1e9999999"} (nine bytes) cost a minute and a
     * half of CPU expanding ten million digits, and a time past {@link Instant#MAX} escaped as an
     * unchecked {@code DateTimeException}. Only what Loki writes (Go's {@code FormatInt}: ASCII digits,
     * a minus before the epoch) is a timestamp: {@code Long.parseLong} also takes a plus sign and the
     * digits of every script, so a line stamped with Arabic-Indic or fullwidth digits read as a time.
     */
    static Instant instantOfNanos(String text) throws ConnectorException {
        if (!wholeNanos(text)) {
            throw new ConnectorException(Kind.BAD_RESPONSE, BACKEND + " answered a timestamp that is not nanoseconds");
        }
        try {
            // A long holds every timestamp until 2262; parsing it is far cheaper than a BigInteger per line.
            long nanos = Long.parseLong(text);
            return Instant.ofEpochSecond(Math.floorDiv(nanos, NANOS_PER_SECOND), Math.floorMod(nanos, NANOS_PER_SECOND));
        } catch (NumberFormatException beyondALong) {
            // the exact path decides
        }
        // the digits are counted before any arithmetic: the text may be megabytes long
        if (text.length() <= MAX_NANOS_DIGITS + 1) {
            BigInteger[] parts = new BigInteger(text).divideAndRemainder(BigInteger.valueOf(NANOS_PER_SECOND));
            try {
                return Instant.ofEpochSecond(parts[0].longValueExact(), parts[1].longValueExact());
            } catch (ArithmeticException | DateTimeException pastInstant) {
                // beyond the latest Instant: out of range as below
            }
        }
        throw new ConnectorException(Kind.BAD_RESPONSE, BACKEND + " answered a timestamp out of range (nanoseconds past the year "
                + "1000000000, or before the year -1000000000)");
    }

    /** Whether {@code text} is {@code -?[0-9]+} with ASCII digits: checked by hand, as it is once per log line. */
    private static boolean wholeNanos(String text) {
        int first = text.startsWith("-") ? 1 : 0;
        if (text.length() == first) {
            return false;
        }
        for (int i = first; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
