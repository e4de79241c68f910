package dev.omcp.core.tools.observability;

import dev.omcp.core.sources.Bound;
import dev.omcp.core.sources.FanOut;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.QueryListener;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.IntFunction;

/**
 * What a fan-out to every capable source gathered: the answers, the failures, and whether any
 * source could answer at all. Writes the common {@code sources} / {@code partial} /
 * {@code failedSources} members of a tool result.
 *
 * @param <R> what one source answers
 */
public final class Gathered<R> {
    /** One source's answer. */
    public record Answer<R>(String source, String type, R value) {}

    /**
     * One source's failure; {@code message} is safe to show (no URL, no stack trace). {@code query}
     * is the last backend query the connector said it sent, when it says (see {@link #reporting}).
     */
    public record Failure(String source, FailureKind kind, String message, Optional<String> query) {
        public Failure {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(query, "query");
        }

        public Failure(String source, ConnectorException.Kind kind, String message, Optional<String> query) {
            this(source, FailureKind.of(kind), message, query);
        }

        public Failure(String source, ConnectorException.Kind kind, String message) {
            this(source, kind, message, Optional.empty());
        }
    }

    /** One backend call that may tell {@code listener} the queries it sends. */
    @FunctionalInterface
    public interface ReportingCall<C, R> {
        R apply(C capability, QueryListener listener) throws ConnectorException;
    }

    private final List<Answer<R>> answers;
    private final List<Failure> failures;

    private Gathered(List<Answer<R>> answers, List<Failure> failures) {
        this.answers = List.copyOf(answers);
        this.failures = List.copyOf(failures);
    }

    /** Calls {@code call} on every bound connector in parallel within the toolkit's time budget. */
    public static <C, R> Gathered<R> from(Toolkit toolkit, List<Bound<C>> bound, FanOut.Call<C, R> call) {
        return from(toolkit, bound, call, toolkit.deadline());
    }

    /**
     * As {@link #from(Toolkit, List, FanOut.Call)}, within {@code overall} instead of the whole
     * deadline: what is left of it for a tool that runs several fan-outs.
     */
    static <C, R> Gathered<R> from(Toolkit toolkit, List<Bound<C>> bound, FanOut.Call<C, R> call, Duration overall) {
        return of(bound, FanOut.call(bound, call, toolkit.perSourceTimeout(), overall, toolkit.failureRedaction()),
                i -> Optional.empty());
    }

    /**
     * As {@link #from(Toolkit, List, FanOut.Call)}, giving each call a listener of its own: a source
     * that fails or times out is reported with the last query its connector said it sent. The
     * listener outlives the deadline, which keeps nothing else of a call it cut short.
     */
    public static <C, R> Gathered<R> reporting(Toolkit toolkit, List<Bound<C>> bound, ReportingCall<C, R> call) {
        return listening(bound).reporting(toolkit, call, toolkit.deadline());
    }

    /**
     * Listeners for a fan-out to {@code bound} that has not started yet, for a tool that may give
     * up on the whole fan-out ({@link Listening#unanswered}) and still name what its sources ran.
     */
    static <C> Listening<C> listening(List<Bound<C>> bound) {
        return new Listening<>(bound);
    }

    /**
     * One listener per source of a fan-out, made before it runs. A tool that runs several fan-outs
     * at once stops waiting for one at its own deadline, before the fan-out could report its
     * sources; the listeners, held here rather than inside the fan-out, still know what each
     * connector said it sent by then.
     */
    static final class Listening<C> {
        private final List<Bound<C>> bound;
        private final List<LastQuery> heard;

        private Listening(List<Bound<C>> bound) {
            this.bound = List.copyOf(bound);
            this.heard = this.bound.stream().map(b -> new LastQuery()).toList();
        }

        /** Calls {@code call} on every source within {@code overall}, as {@link Gathered#from(Toolkit, List, FanOut.Call, Duration)}. */
        <R> Gathered<R> reporting(Toolkit toolkit, ReportingCall<C, R> call, Duration overall) {
            Objects.requireNonNull(call, "call");
            // the call is paired with its listener the way MetricBatch pairs a connector with its query
            record Heard<C>(C capability, LastQuery last) {}
            List<Bound<Heard<C>>> paired = new ArrayList<>();
            for (int i = 0; i < bound.size(); i++) {
                Bound<C> b = bound.get(i);
                paired.add(b.carrying(new Heard<>(b.capability(), heard.get(i))));
            }
            List<FanOut.Outcome<R>> outcomes = FanOut.call(paired, h -> call.apply(h.capability(), h.last()), toolkit.perSourceTimeout(),
                    overall, toolkit.failureRedaction());
            return of(bound, outcomes, i -> heard.get(i).query());
        }

        /** As {@link Gathered#unanswered}, each failure with the query its source was running, when it said. */
        <R> Gathered<R> unanswered(ConnectorException.Kind kind, String message) {
            List<Failure> failures = new ArrayList<>();
            for (int i = 0; i < bound.size(); i++) {
                failures.add(new Failure(bound.get(i).source(), kind, message, heard.get(i).query()));
            }
            return new Gathered<>(List.of(), failures);
        }
    }

    private static <C, R> Gathered<R> of(List<Bound<C>> bound, List<FanOut.Outcome<R>> outcomes, IntFunction<Optional<String>> queryOf) {
        List<Answer<R>> answers = new ArrayList<>();
        List<Failure> failures = new ArrayList<>();
        for (int i = 0; i < outcomes.size(); i++) {
            switch (outcomes.get(i)) {
                case FanOut.Outcome.Answered<R> a -> answers.add(new Answer<>(a.source(), bound.get(i).type(), a.value()));
                case FanOut.Outcome.Failed<R> f -> failures.add(new Failure(f.source(), f.kind(), f.message(), queryOf.apply(i)));
            }
        }
        return new Gathered<>(answers, failures);
    }

    /**
     * The last query a connector said it sent. Written on the call's thread, which may still run
     * after the fan-out gave up on it, and read on the tool's: a volatile field is all it needs.
     */
    private static final class LastQuery implements QueryListener {
        /** Far above any query the gateway's own arguments can make (a filter has at most 512 characters). */
        static final int MAX_CHARS = 4_096;
        private volatile String query;

        @Override
        public void sending(String query) {
            // a null from a plugin is a bug of its own, not worth failing the call it reports on
            if (query != null) {
                // a plugin is not trusted to keep it short: the text goes into an answer an agent reads
                this.query = query.length() <= MAX_CHARS ? query
                        : query.substring(0, MAX_CHARS) + "... (cut: " + query.length() + " characters)";
            }
        }

        Optional<String> query() {
            return Optional.ofNullable(query).filter(q -> !q.isEmpty());
        }
    }

    /**
     * Answers and failures put together by a caller that judged the fan-out's answers further: a source may then be both
     * answered and failed, its answer incomplete and the failure saying what is missing.
     */
    static <R> Gathered<R> assembled(List<Answer<R>> answers, List<Failure> failures) {
        return new Gathered<>(answers, failures);
    }

    /** Every bound source failed alike, without being asked to the end: the tool stopped waiting for them. */
    static <C, R> Gathered<R> unanswered(List<Bound<C>> bound, ConnectorException.Kind kind, String message) {
        return new Gathered<>(List.of(), bound.stream().map(b -> new Failure(b.source(), kind, message)).toList());
    }

    public List<Answer<R>> answers() {
        return answers;
    }

    public List<Failure> failures() {
        return failures;
    }

    /** Whether no source could serve the call (none configured with the capability). */
    public boolean noSource() {
        return answers.isEmpty() && failures.isEmpty();
    }

    /** Whether some, but not all, sources failed or all failed. */
    public boolean partial() {
        return !failures.isEmpty();
    }

    /**
     * Adds {@code sources}, {@code partial} and, when some failed, {@code failedSources}; an entry
     * carries {@code query} when its failure has one (only {@link #reporting} and {@link Listening}
     * gather them), so a tool that uses that declares it ({@link Schemas#failedSources}).
     */
    public JsonObjectBuilder writeTo(JsonObjectBuilder out) {
        JsonArrayBuilder sources = Jsonp.array();
        answers.forEach(a -> sources.add(a.source()));
        out.add("sources", sources).add("partial", partial());
        if (!failures.isEmpty()) {
            JsonArrayBuilder failed = Jsonp.array();
            failures.forEach(f -> {
                JsonObjectBuilder entry = Jsonp.object().add("source", f.source())
                        .add("kind", f.kind().wireName()).add("error", f.message());
                f.query().ifPresent(q -> entry.add("query", q));
                failed.add(entry);
            });
            out.add("failedSources", failed);
        }
        return out;
    }
}
