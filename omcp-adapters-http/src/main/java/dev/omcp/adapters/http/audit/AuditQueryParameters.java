package dev.omcp.adapters.http.audit;

import static dev.omcp.adapters.http.api.QueryValues.shown;
import static dev.omcp.adapters.http.api.QueryValues.single;
import static dev.omcp.adapters.http.api.QueryValues.time;

import dev.omcp.ports.audit.AuditQuery;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Turns the query string of {@code GET /api/audit} into an {@link AuditQuery}, or says exactly
 * which parameter is wrong: {@code from} and {@code to} are ISO-8601 times with a zone,
 * {@code limit} is 1 to 1000 (default 100), {@code actor} and {@code action} are bounded text,
 * {@code beforeSeq} (the cursor of the next page) is a {@code seq} of at least 1.
 */
final class AuditQueryParameters {
    static final int MAX_ACTOR = 256;
    static final int MAX_ACTION = 64;
    private static final Set<String> KNOWN = Set.of("from", "to", "actor", "action", "beforeSeq", "limit");

    /** The outcome of reading the parameters. */
    sealed interface Result {}

    record Valid(AuditQuery query) implements Result {}

    record Invalid(String message) implements Result {}

    private AuditQueryParameters() {}

    static Result parse(Map<String, List<String>> parameters) {
        for (String name : new java.util.TreeSet<>(parameters.keySet())) {
            // a typo such as ?acter= would otherwise answer every entry, as if no filter had been asked for
            if (!KNOWN.contains(name)) {
                return new Invalid("unknown parameter '" + shown(name)
                        + "'; the parameters are from, to, actor, action, beforeSeq and limit");
            }
        }
        for (String name : KNOWN) {
            List<String> values = parameters.get(name);
            if (values != null && values.size() > 1) {
                return new Invalid("parameter '" + name + "' is given " + values.size() + " times; give it once");
            }
        }
        Optional<String> fromText = single(parameters, "from");
        Optional<String> toText = single(parameters, "to");
        Optional<Instant> from;
        Optional<Instant> to;
        try {
            from = fromText.map(text -> time("from", text));
            to = toText.map(text -> time("to", text));
        } catch (IllegalArgumentException e) {
            return new Invalid(e.getMessage());
        }
        if (from.isPresent() && to.isPresent() && from.get().isAfter(to.get())) {
            return new Invalid("'from' (" + fromText.get() + ") is after 'to' (" + toText.get() + "); swap them");
        }
        Optional<String> actor = single(parameters, "actor");
        if (actor.isPresent() && (actor.get().isEmpty() || actor.get().length() > MAX_ACTOR)) {
            return new Invalid("'actor' must be 1 to " + MAX_ACTOR + " characters");
        }
        Optional<String> action = single(parameters, "action");
        if (action.isPresent() && (action.get().isEmpty() || action.get().length() > MAX_ACTION)) {
            return new Invalid("'action' must be 1 to " + MAX_ACTION + " characters");
        }
        int limit = AuditQuery.DEFAULT_LIMIT;
        Optional<String> limitText = single(parameters, "limit");
        if (limitText.isPresent()) {
            String text = limitText.get();
            if (!text.matches("[0-9]{1,7}") || Integer.parseInt(text) < 1 || Integer.parseInt(text) > AuditQuery.MAX_LIMIT) {
                return new Invalid("'limit' must be a whole number from 1 to " + AuditQuery.MAX_LIMIT + ", got '"
                        + shown(text) + "'");
            }
            limit = Integer.parseInt(text);
        }
        OptionalLong beforeSeq = OptionalLong.empty();
        Optional<String> beforeSeqText = single(parameters, "beforeSeq");
        if (beforeSeqText.isPresent()) {
            String text = beforeSeqText.get();
            // 18 digits: far beyond any chain, and never past Long.MAX_VALUE
            if (!text.matches("[0-9]{1,18}") || Long.parseLong(text) < 1) {
                return new Invalid("'beforeSeq' must be a whole number of at least 1 (the nextBeforeSeq of the previous"
                        + " page), got '" + shown(text) + "'");
            }
            beforeSeq = OptionalLong.of(Long.parseLong(text));
        }
        return new Valid(new AuditQuery(from, to, actor, action, beforeSeq, Optional.empty(), limit));
    }
}
