package dev.omcp.adapters.http.inspect;

import static dev.omcp.adapters.http.api.QueryValues.single;

import dev.omcp.ports.inspect.ObservationQuery;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Reads the query string of {@code GET /api/inspect/deviations} ({@code window}, {@code limit}) and
 * {@code GET /api/inspect/flows} ({@code window}) as strictly as the events filter: a parameter the route does not
 * take or one given twice, a window that is not a duration or is longer than the Inspect window, a limit outside
 * 1-1000, each refused with the parameter named. Left out, the window is the whole Inspect window and the limit 100.
 */
final class WindowQueryParameters {
    static final List<String> DEVIATIONS = List.of("window", "limit");
    static final List<String> FLOWS = List.of("window");

    sealed interface Result {}

    record Valid(Duration window, int limit) implements Result {}

    record Invalid(String message) implements Result {}

    private WindowQueryParameters() {}

    /**
     * @param known the parameters the route takes: {@link #DEVIATIONS} or {@link #FLOWS}
     * @param inspectWindow the longest window there is to read, and the window when none is asked for
     */
    static Result parse(Map<String, List<String>> parameters, List<String> known, Duration inspectWindow) {
        Optional<String> refused = StrictQuery.unknownOrRepeated(parameters, known);
        if (refused.isPresent()) {
            return new Invalid(refused.get());
        }
        Duration window = inspectWindow;
        Optional<String> windowText = single(parameters, "window");
        if (windowText.isPresent()) {
            switch (InspectWindow.parse(windowText.get(), inspectWindow)) {
                case InspectWindow.Invalid invalid -> {
                    return new Invalid("'window' " + invalid.problem());
                }
                case InspectWindow.Valid valid -> window = valid.window();
            }
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
        return new Valid(window, limit);
    }
}
