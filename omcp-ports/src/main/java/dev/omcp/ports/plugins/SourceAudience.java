package dev.omcp.ports.plugins;

import java.util.Objects;
import java.util.Set;

/**
 * Which sources the caller of a connector change may see named in its answer. A plugin serves the
 * whole gateway, so an install or removal touches the sources of every tenant; its answer names
 * only those the caller could list with {@code GET /api/sources} (their tenant's and unbound ones,
 * and only with {@code sources:read}), so a tenant's admin learns nothing of other tenants'
 * sources. Logs and the operator's view keep the whole picture.
 */
@FunctionalInterface
public interface SourceAudience {

    /** Whether the answer may name the source called {@code source}. */
    boolean maySee(String source);

    /** An operator of the whole gateway, or a command line with no tenants: every source. */
    static SourceAudience wholeGateway() {
        return source -> true;
    }

    /** A caller who may see exactly {@code sources}. */
    static SourceAudience of(Set<String> sources) {
        Set<String> visible = Set.copyOf(Objects.requireNonNull(sources, "sources"));
        return visible::contains;
    }
}
