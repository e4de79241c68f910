package dev.omcp.adapters.http.inspect;

import static dev.omcp.adapters.http.api.QueryValues.shown;

import dev.omcp.ports.inspect.ObservationQuery;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeSet;

/**
 * The checks every Inspect read makes of its query string, worded the same on each route: a parameter it does not
 * take or one given twice is refused with its name (a filter the caller believes in must not be dropped), and a
 * {@code limit} is a whole number from 1 to 1000.
 */
final class StrictQuery {
    private StrictQuery() {}

    /** Why {@code parameters} cannot be read by a route that takes {@code known} (in this order), or empty. */
    static Optional<String> unknownOrRepeated(Map<String, List<String>> parameters, List<String> known) {
        for (String name : new TreeSet<>(parameters.keySet())) {
            if (!known.contains(name)) {
                return Optional.of("unknown parameter '" + shown(name) + "'; " + (known.size() == 1
                        ? "the only parameter is " + known.get(0)
                        : "the parameters are " + String.join(", ", known.subList(0, known.size() - 1)) + " and "
                        + known.get(known.size() - 1)));
            }
            if (parameters.get(name).size() > 1) {
                return Optional.of("parameter '" + name + "' is given " + parameters.get(name).size() + " times; give it once");
            }
        }
        return Optional.empty();
    }

    /** A limit's text as the limit, or empty when it is not a whole number from 1 to {@link ObservationQuery#MAX_LIMIT}. */
    static OptionalInt limit(String text) {
        if (!text.matches("[0-9]{1,7}")) {
            return OptionalInt.empty();
        }
        int limit = Integer.parseInt(text);
        return limit < 1 || limit > ObservationQuery.MAX_LIMIT ? OptionalInt.empty() : OptionalInt.of(limit);
    }

    /** The refusal of a limit's text. */
    static String badLimit(String text) {
        return "'limit' must be a whole number from 1 to " + ObservationQuery.MAX_LIMIT + ", got '" + shown(text) + "'";
    }
}
