package dev.omcp.adapters.http.inspect;

import static dev.omcp.adapters.http.api.QueryValues.shown;
import static dev.omcp.adapters.http.api.QueryValues.single;
import static dev.omcp.adapters.http.api.QueryValues.time;

import dev.omcp.ports.inspect.Observation;
import dev.omcp.ports.inspect.ObservationQuery;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Reads the query string of {@code GET /api/inspect/events} strictly, as {@code GET /api/audit} does:
 * an unknown or repeated parameter, a time without a zone, an unknown outcome or decision, or a limit
 * outside 1-1000 is refused with the parameter named.
 */
final class InspectQueryParameters {
    static final int MAX_TEXT = 256;
    private static final List<String> KNOWN = List.of("from", "to", "principal", "tool", "outcome", "decision", "limit");

    sealed interface Result {}

    record Valid(ObservationQuery query) implements Result {}

    record Invalid(String message) implements Result {}

    private InspectQueryParameters() {}

    static Result parse(Map<String, List<String>> parameters) {
        Optional<String> refused = StrictQuery.unknownOrRepeated(parameters, KNOWN);
        if (refused.isPresent()) {
            return new Invalid(refused.get());
        }
        Optional<Instant> from;
        Optional<Instant> to;
        try {
            from = single(parameters, "from").map(text -> time("from", text));
            to = single(parameters, "to").map(text -> time("to", text));
        } catch (IllegalArgumentException e) {
            return new Invalid(e.getMessage());
        }
        if (from.isPresent() && to.isPresent() && from.get().isAfter(to.get())) {
            return new Invalid("'from' is after 'to'; swap them");
        }
        Optional<String> principal = single(parameters, "principal");
        Optional<String> tool = single(parameters, "tool");
        for (String name : List.of("principal", "tool")) {
            Optional<String> text = single(parameters, name);
            if (text.isPresent() && (text.get().isEmpty() || text.get().length() > MAX_TEXT)) {
                return new Invalid("'" + name + "' must be 1 to " + MAX_TEXT + " characters");
            }
        }
        Optional<String> outcomeText = single(parameters, "outcome");
        Optional<Observation.Outcome> outcome = outcomeText.map(Observation.Outcome::parse);
        if (outcomeText.isPresent() && outcome.isEmpty()) {
            return new Invalid("'outcome' must be ok or error, got '" + shown(outcomeText.get()) + "'");
        }
        Optional<String> decisionText = single(parameters, "decision");
        Optional<Observation.Decision> decision = decisionText.map(Observation.Decision::parse);
        if (decisionText.isPresent() && decision.isEmpty()) {
            return new Invalid("'decision' must be allow, would-block or blocked, got '" + shown(decisionText.get()) + "'");
        }
        int limit = ObservationQuery.DEFAULT_LIMIT;
        Optional<String> limitText = single(parameters, "limit");
        if (limitText.isPresent()) {
            OptionalInt parsed = StrictQuery.limit(limitText.get());
            if (parsed.isEmpty()) {
                return new Invalid(StrictQuery.badLimit(limitText.get()));
            }
            limit = parsed.getAsInt();
        }
        return new Valid(new ObservationQuery(from, to, principal, tool, outcome, decision, Optional.empty(), limit));
    }
}
