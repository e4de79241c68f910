package dev.omcp.core.tools.observability;

import dev.omcp.core.analysis.traces.TraceMergeResult;
import dev.omcp.core.analysis.traces.TraceMerger;
import dev.omcp.core.analysis.traces.TraceQueryEcho;
import dev.omcp.core.analysis.traces.TraceSourceOutcome;
import dev.omcp.core.sources.Bound;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.tools.ToolAnnotations;
import dev.omcp.ports.tools.ToolCall;
import dev.omcp.ports.tools.ToolDefinition;
import dev.omcp.ports.tools.ToolResult;
import dev.omcp.sdk.connector.TracesCapability;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.query.TimeRange;
import dev.omcp.sdk.query.TraceQuery;
import dev.omcp.sdk.query.TraceResult;
import dev.omcp.sdk.query.TraceSummary;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * {@code query_traces} (spec 4.4): asks every source with the {@code queryTraces} capability in
 * parallel for up to {@value #FETCH_PER_SOURCE} traces of the window each, merges and de-duplicates
 * by trace id, ranks errors first then slowest, caps at {@code limit} and summarises the returned
 * set ({@link TraceMerger}). A failed source is listed in {@code errors} while the others' traces
 * are still returned; with no capable source the list is empty and a note says what to add. A
 * namespaced name is asked by the name the traces sources know ({@link TracedServiceName}).
 */
public final class QueryTracesTool extends ObservabilityTool {
    static final String NAME = "query_traces";
    static final int MAX_FILTER = 1024;
    /**
     * How many traces each source is asked for, whatever {@code limit} is: a backend answers with
     * its newest traces, so asking for only {@code limit} would rank the newest few instead of the
     * window. As large as the largest {@code limit}, so a source never returns fewer than would be
     * shown; it bounds what one source may cost (memory, and the Tempo plugin's per-trace fetches,
     * which the per-source timeout still ends).
     */
    static final int FETCH_PER_SOURCE = TraceQueryEcho.MAX_LIMIT;

    private static final ToolDefinition DEFINITION = new ToolDefinition(
            NAME,
            "Query traces",
            "Finds the traces of a service in a recent window across every traces source (Tempo, Zipkin plugins), "
                    + "de-duplicated by trace id and ranked errors first, then slowest, so the few traces worth opening come first. "
                    + "Returns per trace its id, root operation and service, duration, span count and whether any span failed, plus a "
                    + "summary (count, error count, p50 and p95 duration over the returned traces; not backend-authoritative); a "
                    + "note says how many matched when the list is cut. Use "
                    + "`errorsOnly` for failing requests and `filter` for a backend-native filter (TraceQL for Tempo, an annotation "
                    + "query for Zipkin). Call it after get_service_health or get_blast_radius points at a service; the trace ids "
                    + "open in your tracing UI, and generate_postmortem lists them too.",
            Schemas.object()
                    .required("service", Schemas.service("The service whose traces to find: a name as list_services "
                            + "names it (payments) or namespace/name (shop/payments), resolved through the topology to the name the "
                            + "traces sources know."))
                    .property("duration", Schemas.duration("How far back from now to search.", TraceQueryEcho.DEFAULT_DURATION))
                    .property("filter", Schemas.string("A backend-native filter passed to every traces source as is (TraceQL for "
                            + "Tempo, an annotationQuery such as error or http.status_code=500 for Zipkin).", MAX_FILTER))
                    .property("limit", Schemas.integer("Soft cap on the traces returned after merging and ranking; each source is "
                            + "asked for up to " + FETCH_PER_SOURCE + " traces of the window whatever the limit, so the ranking covers "
                            + "the window, not only its newest traces.", 1, TraceQueryEcho.MAX_LIMIT, TraceQueryEcho.DEFAULT_LIMIT))
                    .property("errorsOnly", Schemas.bool("Only traces with at least one error span.", false))
                    .build(),
            Optional.of(Schemas.output(Jsonp.object()
                    .add("service", Jsonp.object().add("type", "string"))
                    .add("duration", Jsonp.object().add("type", "string"))
                    .add("sources", Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "string"))
                            .add("description", "Sources that answered."))
                    .add("summary", Jsonp.object().add("type", "object").add("properties", Jsonp.object()
                            .add("total", Jsonp.object().add("type", "integer"))
                            .add("errorCount", Jsonp.object().add("type", "integer"))
                            .add("p50DurationMs", Jsonp.object().add("type", Jsonp.array().add("number").add("null")))
                            .add("p95DurationMs", Jsonp.object().add("type", Jsonp.array().add("number").add("null"))))
                            .add("required", Jsonp.array().add("total").add("errorCount").add("p50DurationMs").add("p95DurationMs")))
                    .add("traces", Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "object")
                            .add("properties", Jsonp.object()
                                    .add("traceId", Jsonp.object().add("type", "string"))
                                    .add("rootName", Jsonp.object().add("type", "string"))
                                    .add("rootService", Jsonp.object().add("type", "string"))
                                    .add("durationMs", Jsonp.object().add("type", Jsonp.array().add("number").add("null"))
                                            .add("description", "null when the source gave no valid duration."))
                                    .add("spanCount", Jsonp.object().add("type", "integer"))
                                    .add("hasError", Jsonp.object().add("type", "boolean")))
                            .add("required", Jsonp.array().add("traceId").add("rootName").add("rootService").add("durationMs")
                                    .add("spanCount").add("hasError"))))
                    .add("errors", Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "string"))
                            .add("description", "One \"source: message\" per failed source; present only when a source failed."))
                    .add("partial", Jsonp.object().add("type", "boolean")
                            .add("description", "true when some sources failed while others answered."))
                    .add("backendWarnings", Jsonp.object().add("type", "array").add("items", Jsonp.object().add("type", "object")
                                    .add("properties", Jsonp.object()
                                            .add("source", Jsonp.object().add("type", "string"))
                                            .add("warnings", Jsonp.object().add("type", "array")
                                                    .add("items", Jsonp.object().add("type", "string")))))
                            .add("description", "Present only when a source answered without some of its traces (Tempo: "
                                    + "traces its search found but that were gone when fetched, named by id, and search hits without a "
                                    + "trace id, counted; Zipkin: trace-list entries that are no trace, counted; any source: traces "
                                    + "beyond the " + FETCH_PER_SOURCE + " it was asked for, left out). Redacted like query_logs lines."))
                    .add("note", Jsonp.object().add("type", "string")),
                    List.of("service", "duration", "sources", "summary", "traces"))),
            ToolAnnotations.readOnlyQuery());

    private final Toolkit toolkit;

    public QueryTracesTool(Toolkit toolkit) {
        this.toolkit = toolkit;
    }

    @Override
    public ToolDefinition definition() {
        return DEFINITION;
    }

    @Override
    protected ToolResult run(ToolCall call, Arguments args) {
        String service = args.string("service");
        String durationText = args.string("duration", TraceQueryEcho.DEFAULT_DURATION);
        Duration duration = args.duration("duration", TraceQueryEcho.DEFAULT_DURATION);
        TraceQueryEcho echo = new TraceQueryEcho(service, durationText, args.integer("limit", TraceQueryEcho.DEFAULT_LIMIT),
                args.bool("errorsOnly", false));
        TimeRange range = TimeRange.ending(toolkit.clock().instant(), duration);
        return ToolResult.structured(search(toolkit, call.principal(), echo, range, args.optionalString("filter")).toJson());
    }

    /**
     * What a trace search gathered: the raw fan-out (for its failures and warnings) and the merged answer;
     * {@code warningRedaction} is what the sources' warnings go through ({@link Toolkit#failureRedaction()}).
     */
    record Search(Gathered<TraceResult> gathered, TraceMergeResult merged, UnaryOperator<String> warningRedaction) {
        /** The merged answer (spec 4.4) with {@code backendWarnings} when a source said its answer lacks traces. */
        JsonObject toJson() {
            return warned().writeTo(Jsonp.provider().createObjectBuilder(merged.toJson())).build();
        }

        /** What the sources that answered said their answers lack (traces gone before they were read), per source. */
        WarnedSources warned() {
            WarnedSources warned = new WarnedSources(warningRedaction);
            gathered.answers().forEach(a -> warned.add(a.source(), a.value() == null ? List.of() : a.value().warnings()));
            return warned;
        }
    }

    /**
     * Asks every traces source the principal may use for up to {@value #FETCH_PER_SOURCE} traces of
     * the window, under the name they know the service by ({@link TracedServiceName}), and merges,
     * ranks and caps their answers at {@code echo.limit()}. When no source returned a trace, their
     * service lists tell an unknown name from a quiet service ({@link TracedServiceRecognition}).
     */
    static Search search(Toolkit toolkit, Principal principal, TraceQueryEcho echo, TimeRange range, Optional<String> filter) {
        return search(toolkit, principal, echo, range, filter, toolkit.deadline());
    }

    /** Like the other, with the sources given at most {@code overall} (what is left of a caller's deadline). */
    static Search search(Toolkit toolkit, Principal principal, TraceQueryEcho echo, TimeRange range, Optional<String> filter,
            Duration overall) {
        TracedServiceName name = TracedServiceName.resolve(toolkit, principal, echo.service());
        int fetch = Math.max(echo.limit(), FETCH_PER_SOURCE);
        TraceQuery query = new TraceQuery(name.traced(), range, filter, fetch, echo.errorsOnly());
        List<Bound<TracesCapability>> bound = toolkit.sources().with(TracesCapability.class, principal);
        Gathered<TraceResult> gathered = Gathered.from(toolkit, bound, c -> AskedLimit.traces(c.searchTraces(query), fetch), overall);
        List<TraceSourceOutcome> outcomes = new ArrayList<>();
        List<String> answeredEmpty = new ArrayList<>();
        gathered.answers().forEach(a -> {
            List<TraceSummary> traces = a.value() == null ? List.of() : a.value().traces();
            outcomes.add(new TraceSourceOutcome.Answered(a.source(), traces, traces.size() >= fetch));
            if (traces.isEmpty()) {
                answeredEmpty.add(a.source());
            }
        });
        gathered.failures().forEach(f -> outcomes.add(new TraceSourceOutcome.Failed(f.source(), f.message())));
        TraceMergeResult merged = new TraceMerger().merge(echo, outcomes);
        if (!gathered.answers().isEmpty() && answeredEmpty.size() == gathered.answers().size()) {
            // not a trace anywhere: an unknown name and a quiet service need different next steps
            TracedServiceRecognition.Verdict verdict = TracedServiceRecognition.check(toolkit, principal, answeredEmpty, name);
            Optional<String> note = TracedServiceRecognition.note(verdict, name, echo.duration(), echo.errorsOnly(), filter);
            if (note.isPresent()) {
                return new Search(gathered, merged.withNote(note.get()), toolkit.failureRedaction());
            }
            // the service lists cannot judge the name, but what the topology said of a namespace/name stands
            Optional<String> unresolved = name.unresolvedNote();
            if (unresolved.isPresent()) {
                return new Search(gathered, merged.withNote(merged.note().map(n -> n + (n.endsWith(".") ? " " : ". ")).orElse("")
                        + unresolved.get()), toolkit.failureRedaction());
            }
        }
        Optional<String> explanation = name.explanation();
        if (explanation.isPresent()) {
            merged = merged.withNote(merged.note().map(n -> explanation.get() + " " + n).orElse(explanation.get()));
        }
        return new Search(gathered, merged, toolkit.failureRedaction());
    }

    /** The search of a fan-out given up at a caller's deadline: every source in {@code gathered} failed. */
    static Search unanswered(Toolkit toolkit, TraceQueryEcho echo, Gathered<TraceResult> gathered) {
        List<TraceSourceOutcome> outcomes = new ArrayList<>();
        gathered.failures().forEach(f -> outcomes.add(new TraceSourceOutcome.Failed(f.source(), f.message())));
        return new Search(gathered, new TraceMerger().merge(echo, outcomes), toolkit.failureRedaction());
    }
}
