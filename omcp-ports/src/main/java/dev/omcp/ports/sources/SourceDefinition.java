package dev.omcp.ports.sources;

import dev.omcp.sdk.connector.SourceConfig;
import java.util.List;
import java.util.Objects;

/**
 * A source as stored: its configuration (with {@code ${VAR}} already substituted), whether it is
 * enabled, and where it was defined.
 *
 * @param config name, type, URL, tenant binding and settings
 * @param enabled a disabled source is kept but gets no connector
 * @param origin where the definition came from
 */
public record SourceDefinition(SourceConfig config, boolean enabled, Origin origin) {
    /**
     * The fields of a source beside its settings. A sources file keeps both in one entry, so a setting of one of these
     * names would replace the field there, and the next start would read another name, type, URL, tenant or state than
     * was saved: the management API refuses such a setting, and a store that keeps both together refuses to write it.
     */
    public static final List<String> OWN_FIELDS = List.of("name", "type", "url", "tenant", "enabled");

    /** Where a source was defined. */
    public enum Origin {
        /** The sources file. */
        FILE,
        /** {@code PROMETHEUS_URL} / {@code LOKI_URL} (or their aliases), with no sources file. */
        ENVIRONMENT,
        /** The management API. */
        API,
        /** Given in code by a service that embeds the gateway (for example an in-memory store it fills). */
        EMBEDDED
    }

    public SourceDefinition {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(origin, "origin");
    }

    /** The source's name. */
    public String name() {
        return config.name();
    }
}
