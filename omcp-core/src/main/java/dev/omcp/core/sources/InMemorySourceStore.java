package dev.omcp.core.sources;

import dev.omcp.ports.sources.SourceDefinition;
import dev.omcp.ports.sources.SourceStore;
import dev.omcp.ports.sources.SourceStoreException;
import dev.omcp.ports.sources.SourcesDocument;
import dev.omcp.sdk.connector.SourceConfig;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The sources of a service that embeds the gateway and names them in code, so that it needs
 * neither a sources file nor environment variables:
 *
 * <pre>{@code
 * SourceStore store = InMemorySourceStore.of(
 *         new SourceConfig("prometheus", "prometheus", "http://prometheus:9090", "", JsonValue.EMPTY_JSON_OBJECT));
 * }</pre>
 *
 * <p>Saves are kept, in memory. The {@link SourceRegistry} saves a change before it puts it in
 * force, so a store that refused saves would refuse every change at run time: the service's own
 * calls of {@link SourceRegistry#add}, {@link SourceRegistry#update} and {@link SourceRegistry#remove},
 * and the sources routes of the management API if the service mounts them. A saved change lasts
 * until the process ends: the embedding service owns the list and gives it again at the next
 * start. Nothing is written anywhere, secrets included.
 *
 * <p>The store holds no plugin pins and no health thresholds; {@link #load()} never reports a
 * problem. Thread-safe: a load sees the list of one save, never a mix.
 */
public final class InMemorySourceStore implements SourceStore {
    private volatile List<SourceDefinition> sources;

    /**
     * A store holding {@code sources}, in this order; an empty list is a gateway with no source.
     *
     * @throws NullPointerException when the list or one of its entries is null
     * @throws IllegalArgumentException when two sources have the same name
     */
    public InMemorySourceStore(List<SourceDefinition> sources) {
        Optional<String> duplicate = duplicateName(sources);
        if (duplicate.isPresent()) {
            throw new IllegalArgumentException(duplicate.get());
        }
        this.sources = List.copyOf(sources);
    }

    /**
     * A store holding {@code sources}, each enabled and marked {@link SourceDefinition.Origin#EMBEDDED}.
     *
     * @throws NullPointerException when a source is null
     * @throws IllegalArgumentException when two sources have the same name
     */
    public static InMemorySourceStore of(SourceConfig... sources) {
        Objects.requireNonNull(sources, "sources");
        List<SourceDefinition> definitions = new ArrayList<>();
        for (SourceConfig config : sources) {
            String position = position(definitions.size());
            definitions.add(new SourceDefinition(Objects.requireNonNull(config, () -> "source " + position + " is null"), true,
                    SourceDefinition.Origin.EMBEDDED));
        }
        return new InMemorySourceStore(definitions);
    }

    @Override
    public SourcesDocument load() {
        return new SourcesDocument(sources, List.of(), List.of(), true);
    }

    /**
     * Replaces the held sources with {@code next}.
     *
     * @throws SourceStoreException when two sources share a name; the held sources stay
     * @throws NullPointerException when the list or one of its entries is null
     */
    @Override
    public void save(List<SourceDefinition> next) throws SourceStoreException {
        Optional<String> duplicate = duplicateName(next);
        if (duplicate.isPresent()) {
            throw new SourceStoreException(duplicate.get());
        }
        sources = List.copyOf(next);
    }

    @Override
    public String describe() {
        return "memory";
    }

    /**
     * Why {@code candidate} cannot be held, if two entries share a name: the registry keys sources by
     * name and would keep only one. The reason names the source, never its URL or settings (they may
     * carry secrets).
     */
    private static Optional<String> duplicateName(List<SourceDefinition> candidate) {
        Objects.requireNonNull(candidate, "sources");
        Set<String> names = new HashSet<>();
        int index = 0;
        for (SourceDefinition definition : candidate) {
            Objects.requireNonNull(definition, "source " + position(index++) + " is null");
            if (!names.add(definition.name())) {
                return Optional.of("two sources are named '" + definition.name() + "'; source names must be unique");
            }
        }
        return Optional.empty();
    }

    private static String position(int index) {
        return "#" + (index + 1);
    }
}
