package dev.omcp.core.tools.observability;

import dev.omcp.core.sources.Bound;
import dev.omcp.core.sources.FanOut;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

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

    /** One source's failure; {@code message} is safe to show (no URL, no stack trace). */
    public record Failure(String source, ConnectorException.Kind kind, String message) {}

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
        List<FanOut.Outcome<R>> outcomes = FanOut.call(bound, call, toolkit.perSourceTimeout(), overall);
        List<Answer<R>> answers = new ArrayList<>();
        List<Failure> failures = new ArrayList<>();
        for (int i = 0; i < outcomes.size(); i++) {
            switch (outcomes.get(i)) {
                case FanOut.Outcome.Answered<R> a -> answers.add(new Answer<>(a.source(), bound.get(i).type(), a.value()));
                case FanOut.Outcome.Failed<R> f -> failures.add(new Failure(f.source(), f.kind(), f.message()));
            }
        }
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

    /** Adds {@code sources}, {@code partial} and, when some failed, {@code failedSources}. */
    public JsonObjectBuilder writeTo(JsonObjectBuilder out) {
        JsonArrayBuilder sources = Jsonp.array();
        answers.forEach(a -> sources.add(a.source()));
        out.add("sources", sources).add("partial", partial());
        if (!failures.isEmpty()) {
            JsonArrayBuilder failed = Jsonp.array();
            failures.forEach(f -> failed.add(Jsonp.object().add("source", f.source())
                    .add("kind", f.kind().name().toLowerCase(java.util.Locale.ROOT)).add("error", f.message())));
            out.add("failedSources", failed);
        }
        return out;
    }
}
