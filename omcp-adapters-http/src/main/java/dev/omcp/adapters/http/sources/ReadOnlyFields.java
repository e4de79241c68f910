package dev.omcp.adapters.http.sources;

import dev.omcp.adapters.http.api.JsonpExchange;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.ports.sources.SourceDefinition;
import dev.omcp.ports.sources.SourceView;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * The fields a source answer shows that no body sets. A body may carry them, so that a source read,
 * edited and sent back is accepted as it came; what they say is judged like the read-only
 * {@code unit} and {@code metric} of the health thresholds: a field that describes the source must
 * say what the source is, and another value is refused naming the field (it would have been
 * ignored, and the sender believed it changed something). The activity fields report tool calls,
 * which change them at any moment, so they are accepted whatever they say, as the thresholds'
 * {@code persisted} is.
 */
final class ReadOnlyFields {
    /** When tool calls last reached the source: changed by every call, so never compared. */
    static final Set<String> ACTIVITY = Set.of("lastAnswerAt", "lastFailureAt", "lastFailure", "consecutiveFailures", "failingSince");
    /** What the source is: compared with the source when the change is made. */
    static final List<String> DESCRIBING = List.of("endpoint", "origin", "status", "problem", "capabilities");

    private ReadOnlyFields() {}

    /** Every read-only field a body may carry. */
    static Set<String> names() {
        Set<String> names = new java.util.HashSet<>(ACTIVITY);
        names.addAll(DESCRIBING);
        return Set.copyOf(names);
    }

    /**
     * For a change of a stored source: what {@code body}'s read-only fields say wrongly about the
     * source as it is (the core asks this in the same step as the change). {@code endpoint} may also
     * be the one of the body's new {@code url}: a sender who changed both said the same thing twice.
     */
    static Function<SourceView, List<String>> againstStored(JsonObject body) {
        return stored -> {
            JsonObject shown = SourcesRoutes.json(stored);
            List<String> problems = new ArrayList<>();
            for (String field : DESCRIBING) {
                JsonValue sent = body.get(field);
                if (sent == null || sent.equals(shownOrEmpty(shown, field))
                        || field.equals("endpoint") && sent.equals(endpointOfUrl(body))) {
                    continue;
                }
                problems.add(refusal(field, sent, shownOrEmpty(shown, field)));
            }
            return problems;
        };
    }

    /**
     * For a new source: {@code endpoint} must be the one of its {@code url}, {@code origin} must be
     * {@code api}. What says how a source runs ({@code status}, {@code problem}, {@code capabilities})
     * is not compared: a new source has none yet, and the answer shows them.
     */
    static List<String> forNewSource(JsonObject body) {
        List<String> problems = new ArrayList<>();
        JsonValue endpoint = body.get("endpoint");
        if (endpoint != null && !endpoint.equals(endpointOfUrl(body))) {
            problems.add(refusal("endpoint", endpoint, endpointOfUrl(body)));
        }
        JsonValue origin = body.get("origin");
        JsonValue api = Jsonp.value(SourceDefinition.Origin.API.name().toLowerCase(Locale.ROOT));
        if (origin != null && !origin.equals(api)) {
            problems.add(refusal("origin", origin, api));
        }
        return problems;
    }

    private static JsonValue shownOrEmpty(JsonObject shown, String field) {
        // a source without a problem shows no 'problem'; "" says the same
        return shown.getOrDefault(field, Jsonp.value(""));
    }

    private static JsonValue endpointOfUrl(JsonObject body) {
        return Jsonp.value(SourceView.endpointOf(body.get("url") instanceof JsonString url ? url.getString() : ""));
    }

    private static String refusal(String field, JsonValue sent, JsonValue is) {
        String advice = switch (field) {
            case "endpoint" -> "it is the scheme://host:port of the url; change 'url' to change it";
            case "status", "problem", "capabilities" -> "it says how the source runs now ('enabled' switches it on or off); "
                    + "read the source again";
            default -> "it says where the source was defined";
        };
        return "'" + field + "' is read-only and is " + JsonpExchange.printable(is.toString()) + ", not "
                + JsonpExchange.printable(sent.toString()) + "; " + advice + ", or leave the field out";
    }
}
