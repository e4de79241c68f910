package dev.omcp.core.tools.observability;

import dev.omcp.core.redaction.RedactionCounts;
import dev.omcp.core.redaction.Redactor;
import dev.omcp.core.sources.Bound;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.connector.LogAggregatesCapability;
import dev.omcp.sdk.connector.LogsCapability;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.LogAggregation;
import dev.omcp.sdk.query.LogEntry;
import dev.omcp.sdk.query.LogQuery;
import dev.omcp.sdk.query.LogResult;
import dev.omcp.sdk.text.LogField;
import dev.omcp.sdk.query.MetricResult;
import dev.omcp.sdk.query.Series;
import dev.omcp.sdk.query.TimeRange;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code query_logs}: log lines of one service, filtered on the backends (line regex, level,
 * exact-match fields), or aggregates computed there ({@code count_over_time}, {@code sum},
 * {@code topk}, spec 4.4). Every string of the result is redacted unless {@code OMCP_REDACTION=off}
 * (spec 5.7), with the count per category.
 */
public final class QueryLogsTool extends ObservabilityTool {
    private static final Logger LOG = LoggerFactory.getLogger(QueryLogsTool.class);
    static final String NAME = "query_logs";
    static final int DEFAULT_LIMIT = 50;
    static final int MAX_LIMIT = 500;
    static final int DEFAULT_K = 5;
    static final int MAX_K = 50;
    /** Longer lines are cut: one stack trace should not crowd out forty other lines. */
    static final int MAX_LINE_CHARS = 2000;
    /** Longer than every redaction category's wire name ({@code bearer_token}): bounds the search for a split marker. */
    private static final int MAX_CATEGORY_CHARS = 32;
    static final int AGGREGATE_POINTS = 60;
    /** Series shown by count_over_time / sum, most lines first (about 1 KB each). */
    static final int MAX_SERIES = 20;
    static final Duration MIN_DEFAULT_AGGREGATE_STEP = Duration.ofMinutes(1);
    static final String BYPASS_IGNORED = "bypass_redaction was ignored: skipping redaction needs a credential listed in "
            + "OMCP_KEY_BYPASS_REDACTION whose principal holds the RBAC permission redaction:bypass (spec 5.7), and this "
            + "credential does not pass both, so the output stays redacted.";
    static final String BYPASS_GRANTED = "Redaction was skipped for this call (bypass_redaction, spec 5.7): the lines are "
            + "shown as the backend sent them and may hold personal data and secrets. Do not copy them anywhere else.";

    private static final ToolDefinition DEFINITION = new ToolDefinition(
            NAME,
            "Query logs",
            "Searches the logs of one service in every logs source (Loki), filtered on the backend: `filter` is a regular "
                    + "expression lines must match (RE2 syntax), `level` a log level (error, warn...), `labels` exact values of "
                    + "fields the backend extracts (for example {\"status\": \"500\"}). Returns the newest lines first (at most "
                    + "`limit`, default " + DEFAULT_LIMIT + ", max " + MAX_LIMIT + ") with their streams' labels. To count instead "
                    + "of reading, set `aggregate`: count_over_time (lines per step of each stream), sum (lines per step summed, or grouped `by` labels) or "
                    + "topk (the `k` groups of `by` with most lines); numbers come back instead of lines. Personal data and "
                    + "secrets (emails, IPs, tokens, keys, card numbers) are redacted with a count per category. Use it after "
                    + "get_service_health or detect_anomalies pointed at a service, to see its errors; start with "
                    + "aggregate=topk by a field to find the dominant error, then read a few lines.",
            Schemas.object()
                    .required("service", Schemas.service("The service, as list_services names it (may contain slashes)."))
                    .property("duration", Schemas.duration("How far back from now to search.", "15m"))
                    .property("filter", Schemas.string("A regular expression (RE2 syntax: no lookaround or backreferences) lines "
                            + "must match, for example \"timeout|deadline\". It must also match the line as shown, after redaction; a filter "
                            + "spelling out hidden text (an email, a token value) is refused.", LineFilter.MAX_LENGTH))
                    .property("level", Jsonp.object().add("type", "string").add("pattern", "^[A-Za-z]{1,16}$")
                            .add("examples", Jsonp.array().add("error").add("warn").add("info"))
                            .add("description", "Only lines of this level (matched case-insensitively on the level field; the builtin Loki connector also "
                                    + "matches the level's other spellings: warn and warning, err and error, crit and critical).").build())
                    .property("labels", Schemas.labels("Exact-match filters on stream labels or fields the backend extracts from "
                            + "the lines, for example {\"pod\": \"api-1\"}."))
                    .property("limit", Schemas.integerWithoutDefault("The most lines to return, newest first; default " + DEFAULT_LIMIT
                            + ". Lines only: refused with aggregate (topk takes k).", 1, MAX_LIMIT))
                    .property("aggregate", Schemas.enumOf("Count instead of returning lines, computed by the backend.",
                            List.of("count_over_time", "sum", "topk"), null))
                    .property("by", Schemas.labelNames("aggregate count_over_time / sum / topk: the labels or fields to group by, for "
                            + "example [\"pod\"]; topk needs at least one.", 8))
                    .property("k", Jsonp.object().add("type", "integer").add("minimum", 1).add("maximum", MAX_K)
                            .add("description", "aggregate topk: how many groups to keep (default " + DEFAULT_K + ").").build())
                    .property("step", OutputFields.optionalDuration("aggregate count_over_time / sum: the width of each count "
                            + "(default: the window / 60, at least 1m). Steps tile the window, so one that does not divide it is widened; "
                            + "aggregate.step in the answer is the step that ran."))
                    .property("bypass_redaction", Schemas.bool("Ask for unredacted output. Honoured only when the caller holds the "
                            + "redaction:bypass permission and its credential is listed in OMCP_KEY_BYPASS_REDACTION (spec 5.7).", false))
                    .property("source", Schemas.source("Only ask this logs source (a name from list_sources)."))
                    .build(),
            Optional.of(Schemas.output(Schemas.outputBase()
                    .add("failedSources", Schemas.failedSources(Jsonp.object()
                            .add("query", OutputFields.typed("string", "The backend query (LogQL) the source was running when it "
                                    + "failed or ran out of time, as resolvedQueries shows those that answered: after a timeout, "
                                    + "the search to narrow. Absent when the source failed before sending one or does not say."))))
                    .add("service", OutputFields.type("string"))
                    .add("duration", OutputFields.type("string"))
                    .add("from", OutputFields.type("string"))
                    .add("to", OutputFields.type("string"))
                    .add("lines", OutputFields.objects("Newest first.", Jsonp.object()
                            .add("time", OutputFields.typed("string", "When the line was logged (RFC 3339, nanoseconds)."))
                            .add("stream", OutputFields.typed("integer", "Index into streams: the line's labels and source."))
                            .add("line", OutputFields.typed("string", "The line as shown: redacted, and cut past " + MAX_LINE_CHARS
                                    + " characters."))))
                    .add("streams", OutputFields.objects("The label sets of the lines' streams, with their source.", Jsonp.object()
                            .add("source", OutputFields.type("string"))
                            .add("labels", OutputFields.labels())))
                    .add("returned", OutputFields.type("integer"))
                    .add("truncated", OutputFields.type("boolean").add("description", "More lines matched than were returned "
                            + "(count_over_time / sum: more series than the " + MAX_SERIES + " shown)."))
                    .add("aggregate", OutputFields.object("The aggregate that ran.", Jsonp.object()
                            .add("function", OutputFields.typed("string", "count_over_time, sum or topk."))
                            .add("by", OutputFields.strings("The labels or fields grouped by."))
                            .add("k", OutputFields.typed("integer", "topk: the groups kept."))
                            .add("step", OutputFields.typed("string", "count_over_time / sum: the step the counts are per, as it ran."))
                            .add("requestedStep", OutputFields.typed("string", "The step asked for, when a source ran another."))))
                    .add("series", OutputFields.objects("count_over_time / sum: per stream or group the counts per step (a step "
                            + "without lines counts 0), their total and statistics; most lines first, at most " + MAX_SERIES + ".",
                            SeriesSummary.schemaProperties(true).add("source", OutputFields.type("string"))))
                    .add("groups", OutputFields.objects("topk: the groups with most lines, most first.", Jsonp.object()
                            .add("source", OutputFields.type("string"))
                            .add("labels", OutputFields.labels())
                            .add("lines", OutputFields.typed("number", "Lines of the group in the window."))))
                    .add("resolvedQueries", OutputFields.objects("The backend query each source ran (LogQL).", Jsonp.object()
                            .add("source", OutputFields.type("string"))
                            .add("query", OutputFields.type("string"))))
                    .add("redaction", OutputFields.object("Whether output was redacted and how many matches per category.",
                            Jsonp.object()
                                    .add("applied", OutputFields.type("boolean"))
                                    .add("total", OutputFields.typed("integer", "Matches redacted in the whole answer."))
                                    .add("byCategory", OutputFields.map("Matches per category (email, ipv4, jwt...).", "integer"))
                                    .add("reason", OutputFields.typed("string", "Why nothing was redacted."))
                                    .add("bypassRequested", OutputFields.type("boolean"))
                                    .add("bypassGranted", OutputFields.type("boolean")))),
                    List.of("service", "redaction", "sources", "partial"))),
            ToolAnnotations.readOnlyQuery());

    private final Toolkit toolkit;

    public QueryLogsTool(Toolkit toolkit) {
        this.toolkit = toolkit;
    }

    @Override
    public ToolDefinition definition() {
        return DEFINITION;
    }

    @Override
    protected ToolResult run(ToolCall call, Arguments args) {
        String service = args.string("service");
        Duration duration = args.duration("duration", "15m");
        Optional<String> filter = args.optionalString("filter").map(f -> LineFilter.check("filter", f));
        Optional<String> level = args.optionalString("level");
        Map<String, String> labels = LabelArguments.filters(args, "labels");
        Optional<String> aggregate = args.optionalString("aggregate");
        Optional<String> onlySource = args.optionalString("source");
        checkCombinations(args, aggregate);
        if (aggregate.isPresent()) {
            SourceArgument.check(toolkit.sources(), onlySource, LogAggregatesCapability.class, "log aggregates", call.principal());
        } else {
            SourceArgument.check(toolkit.sources(), onlySource, LogsCapability.class, "log searches", call.principal());
        }
        boolean bypassRequested = args.bool("bypass_redaction", false);
        // spec 5.7: all three gates, or the output stays redacted; the policy is asked only when the call asks
        boolean bypassGranted = bypassRequested && toolkit.redactionEnabled() && toolkit.redactionBypass().grants(call.principal());
        boolean redacting = toolkit.redactionEnabled() && !bypassGranted;
        if (bypassGranted) {
            LOG.warn("event=redaction-bypassed principal=\"{}\" tool={} service=\"{}\"", LogField.of(call.principal().id()), NAME,
                    LogField.of(service));
        }
        if (redacting) {
            RedactedSearch.refuseHiddenTerms(toolkit.redactor(), filter, labels);
        }
        Instant started = toolkit.clock().instant();
        // the whole call, the redaction after the sources answered included, answers within OMCP_TOOL_DEADLINE
        AnswerDeadline deadline = AnswerDeadline.of(toolkit.clock(), started, toolkit.deadline());
        // whole seconds: backends align to them, and answers read better
        Instant now = started.truncatedTo(ChronoUnit.SECONDS);
        TimeRange range = TimeRange.ending(now, duration);
        JsonObjectBuilder result = Jsonp.object()
                .add("service", service)
                .add("duration", Durations.format(duration))
                .add("from", range.start().toString())
                .add("to", range.end().toString());
        LogQuery query = new LogQuery(service, range, filter, level, labels, args.integer("limit", DEFAULT_LIMIT));
        List<String> notes = new ArrayList<>();
        RedactionCounts redactedBeforeCut = RedactionCounts.none();
        if (aggregate.isPresent()) {
            aggregate(call, args, aggregate.get(), query, onlySource, result, notes);
        } else {
            redactedBeforeCut = lines(call, query, onlySource, deadline, redacting, result, notes);
        }
        if (!notes.isEmpty()) {
            result.add("note", String.join(" ", notes));
        }
        return ToolResult.structured(redact(result.build(), bypassRequested, bypassGranted, redactedBeforeCut));
    }

    /** Arguments that only make sense together are refused apart, so a model learns they were not applied. */
    private static void checkCombinations(Arguments args, Optional<String> aggregate) {
        JsonObject raw = args.raw();
        if (aggregate.isEmpty()) {
            // each message names exactly the aggregates that take the argument, so the next call is right
            Map<String, String> takenBy = new LinkedHashMap<>();
            takenBy.put("by", "aggregate count_over_time, sum or topk");
            takenBy.put("k", "aggregate topk");
            takenBy.put("step", "aggregate count_over_time or sum");
            takenBy.forEach((name, aggregates) -> {
                if (raw.containsKey(name)) {
                    throw new InvalidArgumentException(name + " applies only with " + aggregates);
                }
            });
            return;
        }
        if (raw.containsKey("limit")) {
            throw new InvalidArgumentException("limit counts lines and does not apply to aggregate " + aggregate.get()
                    + (aggregate.get().equals("topk") ? "; use k for the number of groups" : ""));
        }
        if (raw.containsKey("k") && !aggregate.get().equals("topk")) {
            throw new InvalidArgumentException("k applies only to aggregate topk");
        }
        if (aggregate.get().equals("topk")) {
            if (args.strings("by").isEmpty()) {
                throw new InvalidArgumentException("aggregate topk needs by: the labels or fields to rank, for example [\"pod\"]");
            }
            if (raw.containsKey("step")) {
                throw new InvalidArgumentException("step does not apply to aggregate topk, which counts over the whole window");
            }
        }
    }

    /** Adds the lines to {@code result}; returns what was redacted of the lines cut for length (redacted before the cut). */
    private RedactionCounts lines(ToolCall call, LogQuery query, Optional<String> onlySource, AnswerDeadline deadline,
            boolean redacting, JsonObjectBuilder result, List<String> notes) {
        List<Bound<LogsCapability>> bound = toolkit.sources().with(LogsCapability.class, call.principal(), onlySource.map(Set::of));
        Gathered<LogResult> gathered = Gathered.reporting(toolkit, bound,
                (logs, heard) -> AskedLimit.lines(logs.queryLogs(query, heard), query.limit()));
        List<Line> all = new ArrayList<>();
        boolean truncated = false;
        boolean resolvedAnywhere = false;
        JsonArrayBuilder resolved = Jsonp.array();
        WarnedSources warned = WarnedSources.of(toolkit);
        for (Gathered.Answer<LogResult> answer : gathered.answers()) {
            LogResult r = answer.value();
            truncated |= r.truncated();
            warned.add(answer.source(), r.warnings());
            if (!r.resolvedQuery().isEmpty()) {
                resolvedAnywhere = true;
                resolved.add(Jsonp.object().add("source", answer.source()).add("query", r.resolvedQuery()));
            }
            r.entries().forEach(e -> all.add(new Line(answer.source(), e)));
        }
        all.sort(Comparator.comparing((Line l) -> l.entry().timestamp()).reversed().thenComparing(Line::source));
        List<Line> matching = all;
        // Set when the deadline (or a cancellation) ended the work below: each line costs a redaction of up
        // to 10 KB (Redactor.redactHead), and a hostile backend sends as many lines as it likes. The lines
        // not reached are left out, never shown unredacted or unchecked.
        boolean stopped = false;
        boolean filterStopped = false;
        if (redacting && query.lineRegex().isPresent()) {
            // the backend matched the raw lines; keep only those the filter matches as shown (RedactedSearch)
            MatchBudget filter = new MatchBudget(Pattern.compile(query.lineRegex().get()), "filter", MatchBudget.DEFAULT_READS);
            matching = new ArrayList<>();
            for (Line l : all) {
                if (matching.size() > query.limit()) {
                    break;
                }
                if (deadline.passed()) {
                    stopped = true;
                    filterStopped = true;
                    break;
                }
                if (RedactedSearch.matchesAsShown(filter, l.head(toolkit.redactor()))) {
                    matching.add(l);
                }
            }
        }
        truncated |= matching.size() > query.limit();
        List<Line> shown = matching.subList(0, Math.min(query.limit(), matching.size()));
        Map<Stream, Integer> streams = new LinkedHashMap<>();
        JsonArrayBuilder lines = Jsonp.array();
        int cut = 0;
        int returned = 0;
        RedactionCounts redactedBeforeCut = RedactionCounts.none();
        for (Line l : shown) {
            // lines the filter check reached before the deadline are shown: they are redacted already
            if (!filterStopped && deadline.passed()) {
                stopped = true;
                break;
            }
            String text = l.entry().line();
            // a field is left out of the stream only when the shown start of the line carries it, and only that start is
            // searched for it: the line's whole 10 MB against a hostile backend's long label values took minutes
            String shownStart = text.length() > MAX_LINE_CHARS ? text.substring(0, cutPoint(text)) : text;
            int stream = streams.computeIfAbsent(new Stream(l.source(), streamLabels(l.entry().labels(), shownStart)),
                    s -> streams.size());
            if (text.length() > MAX_LINE_CHARS && redacting) {
                // redacted before the cut: a secret the cut splits would be shown in part, too short for any detector
                // to recognise (a JWT's header and claims, an email without its domain, 10 digits of a card); only
                // the line's start is examined (Redactor.redactHead), so a 10 MB line costs what 10 KB do
                Redactor.HeadRedaction head = l.head(toolkit.redactor());
                redactedBeforeCut = redactedBeforeCut.plus(head.counts());
                text = head.text();
                if (text.length() > MAX_LINE_CHARS || !head.whole()) {
                    int at = text.length() > MAX_LINE_CHARS ? cutPoint(text) : text.length();
                    text = text.substring(0, at) + "... [" + (text.length() - at + head.charsAfter()) + " more characters]";
                    cut++;
                }
            } else if (text.length() > MAX_LINE_CHARS) {
                int at = cutPoint(text);
                text = text.substring(0, at) + "... [" + (text.length() - at) + " more characters]";
                cut++;
            }
            lines.add(Jsonp.object().add("time", l.entry().timestamp().toString()).add("stream", stream).add("line", text));
            returned++;
        }
        // the lines left out at the deadline matched on the backend and were not returned
        truncated |= stopped;
        JsonArrayBuilder streamList = Jsonp.array();
        streams.keySet().forEach(s -> streamList.add(Jsonp.object().add("source", s.source()).add("labels", SeriesSummary.labels(s.labels()))));
        result.add("lines", lines).add("streams", streamList).add("returned", returned).add("truncated", truncated)
                .add("resolvedQueries", resolved);
        gathered.writeTo(result);
        warned.writeTo(result);

        if (gathered.noSource()) {
            notes.add(onlySource.isPresent()
                    ? "Source '" + onlySource.get() + "' does not exist, is not connected, or cannot search logs; call list_sources."
                    : "No connected source can search logs. An operator adds a loki source (LOKI_URL or the sources file); "
                            + "list_sources shows what exists.");
        } else if (gathered.answers().isEmpty()) {
            notes.add("Every logs source failed (see failedSources); no lines are shown rather than a guess."
                    + timeoutAdvice(gathered, query));
        } else if (!resolvedAnywhere) {
            notes.add("No logs source knows a service named '" + query.service() + "' (none of its service labels has this value)."
                    + new ServiceNameSuggestions(toolkit).elsewhereOrDidYouMean(query.service(), call.principal(), LogsCapability.class)
                    + " list_services shows every name and the sources that know it.");
        } else if (stopped) {
            // the count of lines the sources returned is not said: with a filter, it and the lines shown
            // would tell how many matched only through text the redaction hides
            notes.add("The call " + deadline.why() + " while the gateway redacted the lines the sources returned"
                    + (filterStopped ? " and checked them against the filter" : "") + ": " + (returned == 0 ? "no line is shown"
                    : "the newest " + returned + " line" + (returned == 1 ? " is" : "s are") + " shown")
                    + ", and the older ones were left out unread. Ask for fewer lines (limit), or narrow duration, filter or level.");
        } else if (shown.isEmpty() && truncated) {
            // only the as-shown check can empty a cut answer: say what the flag already says, and no more
            notes.add("No line is shown for the last " + Durations.format(query.range().length()) + describeFilters(query)
                    + ": the lines the backend returned (up to its limit, newest first) do not match as shown, after redaction,"
                    + " and older lines were not searched. Narrow the duration or the filter to reach them."
                    + " The filter has to match the lines as shown: redacted text cannot be found.");
        } else if (shown.isEmpty()) {
            notes.add("No line matched in the last " + Durations.format(query.range().length()) + describeFilters(query)
                    + ". Widen the duration or loosen the filters."
                    + (redacting && query.lineRegex().isPresent()
                            // said whether or not a line was dropped by that check, so it reveals nothing
                            ? " The filter has to match the lines as shown, after redaction: redacted text cannot be found."
                            : ""));
        } else if (truncated) {
            notes.add("More lines matched than the " + query.limit() + " returned (newest first). Narrow with filter, level or "
                    + "labels, or count with aggregate instead of reading.");
        }
        if (cut > 0) {
            notes.add(cut + " line" + (cut == 1 ? " was" : "s were") + " longer than " + MAX_LINE_CHARS + " characters and cut.");
        }
        long examinedInPart = all.stream().filter(Line::examinedInPart).count();
        if (examinedInPart > 0) {
            // said of every line read that long, shown or not, so that it reveals nothing about the filter's matches
            int examined = Redactor.headExamined(MAX_LINE_CHARS);
            notes.add("Only the first " + examined + " characters of a line are redacted and searched: " + examinedInPart + " line"
                    + (examinedInPart == 1 ? " was" : "s were") + " longer, and the rest of " + (examinedInPart == 1 ? "it" : "them")
                    + " is not shown" + (query.lineRegex().isPresent() ? " nor checked against the filter (a line whose match "
                            + "lies only there is left out)" : "") + ".");
        }
        if (gathered.partial() && !gathered.answers().isEmpty()) {
            notes.add("Some sources failed (see failedSources): their lines are missing." + timeoutAdvice(gathered, query));
        }
        if (!warned.isEmpty()) {
            notes.add(warnedNote(warned, "lines may be incomplete: a line that is not shown may still exist"));
        }
        return redactedBeforeCut;
    }

    /**
     * Where a line longer than {@link #MAX_LINE_CHARS} is cut: there, or before a redaction marker
     * the cut would split (so a line reads {@code ... [REDACTED:jwt]... [n more characters]} or
     * without it, never {@code [REDACTED:jw}), and never between the two UTF-16 units of one character.
     */
    static int cutPoint(String line) {
        int open = line.lastIndexOf("[REDACTED:", MAX_LINE_CHARS - 1);
        if (open >= 0 && open + "[REDACTED:".length() + MAX_CATEGORY_CHARS >= MAX_LINE_CHARS) {
            int close = line.indexOf(']', open);
            if (close < 0 || close >= MAX_LINE_CHARS) {
                return open;
            }
        }
        return Character.isHighSurrogate(line.charAt(MAX_LINE_CHARS - 1)) ? MAX_LINE_CHARS - 1 : MAX_LINE_CHARS;
    }

    /**
     * What to say when a source warned alongside its answer: the backend answered, so nothing
     * failed, yet what it returned may be missing data (a querier that could not read every shard).
     */
    private static String warnedNote(WarnedSources warned, String consequence) {
        List<String> sources = warned.sources();
        boolean one = sources.size() == 1;
        return (one ? "The source '" + sources.getFirst() + "' warned alongside its answer" : "The sources " + sources
                + " warned alongside their answers") + " (see backendWarnings): " + (one ? "its " : "their ") + consequence + ".";
    }

    private record Stream(String source, Map<String, String> labels) {}

    /** A line of one source, with its redacted start once computed: the filter check and the output share it. */
    private static final class Line {
        private final String source;
        private final LogEntry entry;
        private Redactor.HeadRedaction head;

        Line(String source, LogEntry entry) {
            this.source = source;
            this.entry = entry;
        }

        String source() {
            return source;
        }

        LogEntry entry() {
            return entry;
        }

        Redactor.HeadRedaction head(Redactor redactor) {
            if (head == null) {
                head = redactor.redactHead(entry.line(), MAX_LINE_CHARS);
            }
            return head;
        }

        /** Whether only the start of the line was redacted (and so could be shown or searched). */
        boolean examinedInPart() {
            return head != null && !head.whole();
        }
    }

    /**
     * The labels of a line's stream without those the backend parsed out of the line itself (a
     * {@code | json} stage turns every field into a label): the line already shows them, and
     * repeating them would make every line its own stream and double the output. A label counts as
     * parsed when the line holds its key (as a JSON key or {@code key=}) and its value.
     */
    static Map<String, String> streamLabels(Map<String, String> labels, String line) {
        // Runs for every line: the common case (no label parsed out of the line) returns the entry's
        // own immutable map, and map equality ignores order (SeriesSummary.labels sorts for output).
        Map<String, String> out = null;
        for (Map.Entry<String, String> label : labels.entrySet()) {
            if (parsedFromLine(label.getKey(), label.getValue(), line)) {
                if (out == null) {
                    out = new java.util.HashMap<>(labels);
                }
                out.remove(label.getKey());
            }
        }
        return out == null ? labels : out;
    }

    /** Whether the line carries {@code key} and {@code value} itself, as JSON ({@code "key"}) or logfmt ({@code key=}). */
    private static boolean parsedFromLine(String key, String value, String line) {
        if (value.isEmpty() || !line.contains(value)) {
            return false;
        }
        int at = line.indexOf(key);
        while (at >= 0) {
            int end = at + key.length();
            boolean quoted = at > 0 && line.charAt(at - 1) == '"' && end < line.length() && line.charAt(end) == '"';
            boolean logfmt = end < line.length() && line.charAt(end) == '=';
            if (quoted || logfmt) {
                return true;
            }
            at = line.indexOf(key, at + 1);
        }
        return false;
    }

    private void aggregate(ToolCall call, Arguments args, String function, LogQuery query, Optional<String> onlySource,
            JsonObjectBuilder result, List<String> notes) {
        List<String> by = args.strings("by");
        int k = args.integer("k", DEFAULT_K);
        Duration window = query.range().length();
        Optional<Duration> asked = OutputFields.optionalDuration(args, "step");
        if (asked.isPresent() && asked.get().compareTo(window) > 0) {
            throw new InvalidArgumentException("step " + Durations.format(asked.get()) + " is longer than the window "
                    + Durations.format(window) + "; use a shorter step or a longer duration");
        }
        // topk counts over the whole window; its step only has to be valid
        Duration step = AggregateStep.toSend(window, asked, defaultAggregateStep(window), function.equals("topk") ? new ArrayList<>() : notes);
        LogAggregation.Function fn = switch (function) {
            case "count_over_time" -> LogAggregation.Function.COUNT_OVER_TIME;
            case "sum" -> LogAggregation.Function.SUM;
            default -> LogAggregation.Function.TOPK;
        };
        LogAggregation aggregation = new LogAggregation(query, fn, by, k, step);
        List<Bound<LogAggregatesCapability>> bound = toolkit.sources().with(LogAggregatesCapability.class, call.principal(),
                onlySource.map(Set::of));
        // per plugin source, the line saying which of its points were left out
        Map<String, String> leftOut = new LinkedHashMap<>();
        Gathered<MetricResult> gathered = heldToWindow(
                Gathered.reporting(toolkit, bound, (logs, heard) -> logs.aggregateLogs(aggregation, heard)), bound, query.range(), step,
                leftOut);

        JsonObjectBuilder echo = Jsonp.object().add("function", function).add("by", OutputFields.names(by));
        if (fn == LogAggregation.Function.TOPK) {
            echo.add("k", k);
        } else {
            Map<String, MetricResult> answers = new LinkedHashMap<>();
            gathered.answers().forEach(a -> answers.put(a.source(), a.value()));
            Duration ran = AggregateStep.ran(step, window, answers, notes);
            echo.add("step", Durations.format(ran));
            if (asked.isPresent() && !ran.equals(asked.get())) {
                echo.add("requestedStep", Durations.format(asked.get()));
            }
        }
        result.add("aggregate", echo);
        JsonArrayBuilder resolved = Jsonp.array();
        boolean resolvedAnywhere = false;
        int found = 0;
        if (fn == LogAggregation.Function.TOPK) {
            record Group(String source, Map<String, String> labels, double lines) {}
            List<Group> groups = new ArrayList<>();
            for (Gathered.Answer<MetricResult> answer : gathered.answers()) {
                if (!answer.value().resolvedLabel().isEmpty()) {
                    resolvedAnywhere = true;
                    resolved.add(Jsonp.object().add("source", answer.source()).add("query", answer.value().resolvedSeries()));
                }
                for (Series read : answer.value().series()) {
                    // the latest step's count: the last point, as heldToWindow put them in time order
                    double lines = SeriesSummary.Stats.of(read).last();
                    if (Double.isFinite(lines)) {
                        groups.add(new Group(answer.source(), read.labels(), lines));
                    }
                }
            }
            groups.sort(Comparator.comparingDouble((Group g) -> -g.lines()));
            JsonArrayBuilder out = Jsonp.array();
            for (Group g : groups.subList(0, Math.min(k, groups.size()))) {
                out.add(Jsonp.object().add("source", g.source()).add("labels", SeriesSummary.labels(g.labels()))
                        .add("lines", Figures.number(g.lines())));
            }
            found = groups.size();
            result.add("groups", out);
        } else {
            // stepMillis: the step each point counts up to its time, 0 for a series off the step grid (shown as it came)
            record Counted(String source, Series series, double total, long stepMillis) {}
            List<Counted> all = new ArrayList<>();
            // the end of the first step any source counted a line in, and the widest step that ran
            long firstCounted = Long.MAX_VALUE;
            long widestStep = step.toMillis();
            for (Gathered.Answer<MetricResult> answer : gathered.answers()) {
                if (!answer.value().resolvedLabel().isEmpty()) {
                    resolvedAnywhere = true;
                    resolved.add(Jsonp.object().add("source", answer.source()).add("query", answer.value().resolvedSeries()));
                }
                Duration ranStep = answer.value().step().orElse(step);
                widestStep = Math.max(widestStep, ranStep.toMillis());
                for (Series s : answer.value().series()) {
                    // in time order (heldToWindow): every reader below takes the first point as the oldest
                    for (int i = 0; i < s.size(); i++) {
                        if (s.valueAt(i) > 0) {
                            firstCounted = Math.min(firstCounted, s.timeAt(i));
                            break;
                        }
                    }
                    Series tiled = CountTiles.complete(s, query.range(), ranStep);
                    long counts = CountTiles.tiles(tiled, query.range(), ranStep) ? ranStep.toMillis() : 0;
                    all.add(new Counted(answer.source(), tiled, SeriesSummary.Stats.of(tiled).sum(), counts));
                }
            }
            // most lines first, and no more than MAX_SERIES: a count grouped by a field with a value
            // per line (a trace id) would otherwise answer megabytes of series of one line each
            all.sort(Comparator.comparingDouble((Counted c) -> -c.total()).thenComparing(Counted::source));
            JsonArrayBuilder out = Jsonp.array();
            for (Counted c : all.subList(0, Math.min(MAX_SERIES, all.size()))) {
                JsonObjectBuilder summary = c.stepMillis() > 0 ? SeriesSummary.ofStepCounts(c.series(), AGGREGATE_POINTS, c.stepMillis())
                        : SeriesSummary.of(c.series(), AGGREGATE_POINTS, true);
                out.add(summary.add("source", c.source()));
            }
            found = all.size();
            result.add("series", out).add("truncated", all.size() > MAX_SERIES);
            if (all.size() > MAX_SERIES) {
                notes.add(all.size() + " series were counted; the " + MAX_SERIES + " with the most lines are shown. Group by fewer "
                        + "or coarser labels, or rank the groups with aggregate topk.");
            }
            leadingSilence(query, firstCounted, widestStep).ifPresent(notes::add);
        }
        result.add("resolvedQueries", resolved);
        gathered.writeTo(result);
        WarnedSources warned = WarnedSources.of(toolkit);
        gathered.answers().forEach(a -> warned.add(a.source(), a.value().warnings()));
        // the gateway's line first, as MetricBatch writes it, so a plugin's own ten warnings cannot push it out
        WarnedSources shown = WarnedSources.of(toolkit);
        leftOut.forEach((source, line) -> shown.add(source, List.of(line)));
        shown.addAll(warned).writeTo(result);

        if (gathered.noSource()) {
            List<Bound<LogsCapability>> searchOnly = toolkit.sources().with(LogsCapability.class, call.principal(), onlySource.map(Set::of));
            notes.add(!searchOnly.isEmpty()
                    ? "The logs sources " + searchOnly.stream().map(Bound::source).toList() + " can search lines but cannot compute "
                            + "aggregates; call query_logs without aggregate."
                    : onlySource.isPresent()
                            ? "Source '" + onlySource.get() + "' does not exist, is not connected, or cannot aggregate logs; call list_sources."
                            : "No connected source can search logs. An operator adds a loki source (LOKI_URL or the sources file).");
        } else if (gathered.answers().isEmpty()) {
            notes.add("Every logs source failed (see failedSources); no counts are shown rather than a guess."
                    + timeoutAdvice(gathered, query));
        } else if (!resolvedAnywhere) {
            notes.add("No logs source knows a service named '" + query.service() + "'."
                    + new ServiceNameSuggestions(toolkit).elsewhereOrDidYouMean(query.service(), call.principal(), LogsCapability.class)
                    + " list_services shows every name and the sources that know it.");
        } else if (found == 0) {
            notes.add("No line matched in the last " + Durations.format(window) + describeFilters(query)
                    + ", so there is nothing to count (no group is not a zero count).");
        }
        if (gathered.partial() && !gathered.answers().isEmpty()) {
            notes.add("Some sources failed (see failedSources): their counts are missing." + timeoutAdvice(gathered, query));
        }
        if (!warned.isEmpty()) {
            notes.add(warnedNote(warned, "counts may be incomplete or approximate"));
        }
        if (!leftOut.isEmpty()) {
            notes.add(PluginSeriesWindow.LEFT_OUT_NOTE);
        }
    }

    /**
     * The answers with a plugin's series held to the window ({@link PluginSeriesWindow}, as
     * {@link MetricBatch} holds a metrics source's) and every series in time order: a plugin may
     * break the SDK's promises, and a count of 1970 (seconds sent as milliseconds) or a year ahead
     * would be shown as a step of the window, and topk would rank a group by it. A builtin reader
     * holds its samples to the window as it reads them. The slack is the step a source says it
     * ran when it widened the one sent: its points lie on that step's grid.
     *
     * @param leftOut filled, per plugin source that answered points outside the window, with the line that says so
     */
    private static Gathered<MetricResult> heldToWindow(Gathered<MetricResult> gathered, List<Bound<LogAggregatesCapability>> bound,
            TimeRange range, Duration sent, Map<String, String> leftOut) {
        Set<String> builtin = new HashSet<>();
        bound.stream().filter(Bound::builtin).forEach(b -> builtin.add(b.source()));
        List<Gathered.Answer<MetricResult>> checked = new ArrayList<>(gathered.answers().size());
        for (Gathered.Answer<MetricResult> a : gathered.answers()) {
            MetricResult result = a.value();
            if (!builtin.contains(a.source())) {
                // one window per answer, as each source answers one aggregate and its step is its own
                Duration slack = result.step().filter(ran -> ran.compareTo(sent) > 0).orElse(sent);
                PluginSeriesWindow window = new PluginSeriesWindow(range, slack);
                result = window.inside(a.source(), result);
                leftOut.putAll(window.warnings());
            }
            checked.add(new Gathered.Answer<>(a.source(), a.type(), MetricBatch.inTimeOrder(result)));
        }
        return Gathered.assembled(checked, gathered.failures());
    }

    /**
     * Redacts every string of the result (spec 5.7) unless redaction is off or this call's bypass was granted, and says
     * what was done.
     */
    private JsonObject redact(JsonObject result, boolean bypassRequested, boolean bypassGranted, RedactionCounts redactedBeforeCut) {
        JsonObjectBuilder redaction = Jsonp.object();
        JsonObject body;
        String bypassNote;
        if (bypassGranted) {
            body = result;
            redaction.add("applied", false).add("reason", "bypass_redaction was granted to this credential (spec 5.7)");
            bypassNote = BYPASS_GRANTED;
        } else if (toolkit.redactionEnabled()) {
            Redactor.JsonRedaction r = toolkit.redactor().redactJson(result);
            body = r.value().asJsonObject();
            JsonObject counts = r.counts().plus(redactedBeforeCut).plus(sourcesOwnWords(result)).toJson();
            redaction.add("applied", true).add("total", counts.get("total")).add("byCategory", counts.get("byCategory"));
            bypassNote = BYPASS_IGNORED;
        } else {
            body = result;
            redaction.add("applied", false).add("reason", "redaction is off for this gateway (OMCP_REDACTION=off)");
            bypassNote = "bypass_redaction has no effect: redaction is off for this gateway (OMCP_REDACTION=off).";
        }
        JsonObjectBuilder out = Jsonp.provider().createObjectBuilder(body);
        if (bypassRequested) {
            // spec 5.7: the flag is one gate of three; it never lifts redaction by itself
            redaction.add("bypassRequested", true).add("bypassGranted", bypassGranted);
            out.add("note", (body.containsKey("note") ? body.getString("note") + " " : "") + bypassNote);
        }
        return out.add("redaction", redaction).build();
    }

    /**
     * What was hidden in the sources' own words: their failure texts ({@code failedSources}) and warnings
     * ({@code backendWarnings}) are redacted as the fan-out receives them ({@link Toolkit#failureRedaction()}), before
     * they are cut to one line, so the whole-answer redaction finds only markers there and counts nothing. Spec 5.7
     * asks for the counts of the answer, so their markers are counted here, as shown.
     */
    private static RedactionCounts sourcesOwnWords(JsonObject result) {
        RedactionCounts counts = RedactionCounts.none();
        for (JsonObject failed : entries(result, "failedSources")) {
            counts = counts.plus(RedactionCounts.ofMarkers(failed.getString("error", "")));
        }
        for (JsonObject warned : entries(result, "backendWarnings")) {
            for (JsonString warning : warned.getJsonArray("warnings").getValuesAs(JsonString.class)) {
                counts = counts.plus(RedactionCounts.ofMarkers(warning.getString()));
            }
        }
        return counts;
    }

    private static List<JsonObject> entries(JsonObject result, String member) {
        return result.getOrDefault(member, JsonValue.EMPTY_JSON_ARRAY).asJsonArray().getValuesAs(JsonObject.class);
    }

    /**
     * A note when a count of every line of the service (no filter, level or labels) has none for a
     * long stretch at the start of the window. The steps there count 0, as a step without lines
     * does, but a logs source holds lines only for its retention: a week of counts over a Loki that
     * keeps three days reads as four silent days, and the answer must not pass that off as silence
     * (as query_metrics says where its data starts). A filtered count is left alone: errors that
     * began with an incident are exactly what it is asked to show.
     */
    static Optional<String> leadingSilence(LogQuery query, long firstCounted, long stepMillis) {
        if (firstCounted == Long.MAX_VALUE || query.lineRegex().isPresent() || query.level().isPresent() || !query.labels().isEmpty()) {
            return Optional.empty();
        }
        long from = query.range().start().toEpochMilli();
        long firstStepStart = firstCounted - stepMillis;
        long gap = firstStepStart - from;
        long window = query.range().length().toMillis();
        if (gap < 2 * stepMillis || gap * 10 < window) {
            return Optional.empty();
        }
        return Optional.of("No line at all before " + Instant.ofEpochMilli(firstStepStart) + ", "
                + QueryMetricsTool.roughly(Duration.ofMillis(gap)) + " after the window's start: the steps before count 0, but a logs "
                + "source keeps lines only as long as its retention, so they may be lines it no longer holds rather than a quiet "
                + "service.");
    }

    private static String describeFilters(LogQuery query) {
        List<String> parts = new ArrayList<>();
        // not echoed: the whole answer is redacted, and "filter /token=/)" reads to the redactor as a token
        // of "/)"; the caller has its filter, and resolvedQueries shows it as it ran
        query.lineRegex().ifPresent(f -> parts.add("the filter"));
        query.level().ifPresent(l -> parts.add("level " + l.toLowerCase(Locale.ROOT)));
        if (!query.labels().isEmpty()) {
            parts.add("labels " + query.labels());
        }
        return parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")";
    }

    /** Counts per step: about 60 over the window, at least a minute each (or the whole of a shorter window). */
    static Duration defaultAggregateStep(Duration window) {
        long seconds = (window.toSeconds() + 59) / 60;
        return Duration.ofSeconds(Math.min(window.toSeconds(), Math.max(MIN_DEFAULT_AGGREGATE_STEP.toSeconds(), seconds)));
    }

    /**
     * For failures that are timeouts: the change that usually helps (a log search's cost grows with
     * its window, and a level or filter lets the backend drop lines early), pointing at the query
     * that ran out of time when its source said which, so the agent narrows that search instead of
     * repeating it. Only what the call has not narrowed yet is suggested.
     */
    private static String timeoutAdvice(Gathered<?> gathered, LogQuery query) {
        List<Gathered.Failure> timedOut = gathered.failures().stream().filter(f -> f.kind() == FailureKind.TIMEOUT).toList();
        if (timedOut.isEmpty()) {
            return "";
        }
        String unset = query.lineRegex().isEmpty() && query.level().isEmpty() ? ", or add a filter or level"
                : query.level().isEmpty() ? ", or add a level"
                : query.lineRegex().isEmpty() ? ", or add a filter"
                : "";
        if (timedOut.stream().noneMatch(f -> f.query().isPresent())) {
            return " A timeout usually means the search was too large: shorten duration" + unset + ".";
        }
        return " A timeout usually means the search was too large: narrow the query that ran out of time (failedSources[].query) "
                + "rather than repeating it: shorten duration (" + Durations.format(query.range().length()) + " here)" + unset + ".";
    }
}
