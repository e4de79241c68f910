package dev.omcp.core.tools.observability;

import dev.omcp.core.sources.Bound;
import dev.omcp.core.sources.SourceRegistry;
import dev.omcp.ports.identity.Principal;
import java.util.List;
import java.util.Optional;

/**
 * Checks a tool's {@code source} argument before any backend is asked. A name no source has, or a
 * source that cannot answer the tool's kind of question (a logs source asked for metrics), is a
 * mistake the caller can correct, so it is refused naming the sources that can. A source that can
 * answer but is disabled or not connected now is no mistake: the tool runs and says the source did
 * not answer, as for any source that is down.
 */
final class SourceArgument {
    private SourceArgument() {}

    /**
     * @param question what the tool asks, for the message: "metric queries", "service listings"
     * @throws InvalidArgumentException when the named source is unknown or cannot answer {@code question}
     */
    static void check(SourceRegistry sources, Optional<String> source, Class<?> capability, String question, Principal principal) {
        if (source.isEmpty()) {
            return;
        }
        String name = source.get();
        switch (sources.named(name, capability, principal)) {
            case UNKNOWN -> throw new InvalidArgumentException("source '" + name + "' does not exist; " + serving(sources, capability,
                    question, principal) + " (list_sources names every source)");
            case WRONG_CAPABILITY -> throw new InvalidArgumentException("source '" + name + "' cannot answer " + question + "; "
                    + serving(sources, capability, question, principal));
            case UNAVAILABLE, SERVES -> { }
        }
    }

    /** Which sources can answer, so the caller can correct the name in one step. */
    private static String serving(SourceRegistry sources, Class<?> capability, String question, Principal principal) {
        List<String> names = sources.with(capability, principal).stream().map(Bound::source).toList();
        return names.isEmpty() ? "no connected source answers " + question
                : "the sources that answer " + question + ": " + String.join(", ", names);
    }
}
