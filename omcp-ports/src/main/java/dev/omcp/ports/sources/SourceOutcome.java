package dev.omcp.ports.sources;

import java.util.Objects;

/** The result of a change asked of {@link ManageSources}. Expected failures are values, not exceptions. */
public sealed interface SourceOutcome {

    /** The source was saved and (when enabled) connected; {@code source} is its new view. */
    record Saved(SourceView source) implements SourceOutcome {
        public Saved {
            Objects.requireNonNull(source, "source");
        }
    }

    /** The source was removed and its connector closed. */
    record Removed(String name) implements SourceOutcome {
        public Removed {
            Objects.requireNonNull(name, "name");
        }
    }

    /**
     * Nothing changed: the change was asked on a version of the source's definition that is no longer
     * the stored one (another operator changed it since the caller read it).
     *
     * @param currentVersion the version stored now ({@link SourceView#version()})
     */
    record Stale(String currentVersion) implements SourceOutcome {
        public Stale {
            Objects.requireNonNull(currentVersion, "currentVersion");
        }
    }

    /**
     * The request was refused; nothing changed.
     *
     * @param code a stable code, one of {@code OMCP_SOURCE_INVALID}, {@code OMCP_SOURCE_URL_REJECTED},
     *     {@code OMCP_SOURCE_TYPE_UNKNOWN}, {@code OMCP_SOURCE_EXISTS}, {@code OMCP_SOURCE_NOT_FOUND},
     *     {@code OMCP_SOURCE_CONFLICT}, {@code OMCP_SOURCE_GATEWAY_WIDE}, {@code OMCP_SOURCES_NOT_PERSISTED}
     * @param reason what was wrong and what to do; never a URL or a secret
     */
    record Refused(String code, String reason) implements SourceOutcome {
        public Refused {
            Objects.requireNonNull(code, "code");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** Code: the body is malformed or a field is invalid (400). */
    String INVALID = "OMCP_SOURCE_INVALID";
    /** Code: the egress guard refused the URL (400, spec 5.9). */
    String URL_REJECTED = "OMCP_SOURCE_URL_REJECTED";
    /** Code: no connector type of that name is loaded (400). */
    String TYPE_UNKNOWN = "OMCP_SOURCE_TYPE_UNKNOWN";
    /** Code: a source of that name exists (409). */
    String EXISTS = "OMCP_SOURCE_EXISTS";
    /** Code: no source of that name exists, or the caller may not see it (404). */
    String NOT_FOUND = "OMCP_SOURCE_NOT_FOUND";
    /**
     * Code: the change conflicts with what the sources file holds (removing a source whose name an entry the file could
     * not read also has, which would bring that entry back as the source); the operator fixes the file first (409).
     */
    String CONFLICT = "OMCP_SOURCE_CONFLICT";
    /**
     * Code: a caller bound to a tenant asked to change or remove a source bound to no tenant, which serves every tenant; only
     * a caller without a tenant may; nothing changed (403).
     */
    String GATEWAY_WIDE = "OMCP_SOURCE_GATEWAY_WIDE";
    /** Code: the sources file could not be written; nothing changed (503). */
    String NOT_PERSISTED = "OMCP_SOURCES_NOT_PERSISTED";
}
