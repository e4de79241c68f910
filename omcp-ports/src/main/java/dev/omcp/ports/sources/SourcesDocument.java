package dev.omcp.ports.sources;

import dev.omcp.ports.plugins.PluginPin;
import dev.omcp.ports.settings.StoredThresholds;

import java.util.List;
import java.util.Objects;

/**
 * What {@link SourceStore#load()} found.
 *
 * @param sources the valid source entries, in file order
 * @param plugins the {@code plugins:} pins
 * @param problems entries or values that were skipped, each with its reason (never a secret)
 * @param writable whether {@link SourceStore#save} may write; false when the file could not be read,
 *     so a broken file is never overwritten
 * @param healthThresholds the {@code health: thresholds:} block; unlike a bad source entry, which
 *     is skipped, an invalid block refuses the start (the caller decides)
 */
public record SourcesDocument(List<SourceDefinition> sources, List<PluginPin> plugins, List<String> problems, boolean writable,
        StoredThresholds healthThresholds) {
    public SourcesDocument {
        sources = List.copyOf(sources);
        plugins = List.copyOf(plugins);
        problems = List.copyOf(problems);
        Objects.requireNonNull(healthThresholds, "healthThresholds");
    }

    /** A document without a {@code health:} block. */
    public SourcesDocument(List<SourceDefinition> sources, List<PluginPin> plugins, List<String> problems, boolean writable) {
        this(sources, plugins, problems, writable, StoredThresholds.absent());
    }

    /** No sources, no pins, nothing wrong. */
    public static SourcesDocument empty() {
        return new SourcesDocument(List.of(), List.of(), List.of(), true);
    }

    /** The source named {@code name}, if present. */
    public java.util.Optional<SourceDefinition> find(String name) {
        Objects.requireNonNull(name, "name");
        return sources.stream().filter(s -> s.name().equals(name)).findFirst();
    }
}
