package dev.omcp.ports.sources;

import dev.omcp.ports.identity.Principal;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Driving port: the management API's use cases for sources. Implemented by the core.
 *
 * <p>Callers with a tenant see only sources bound to their tenant or to none, and change only those
 * bound to their tenant: a source bound to none serves every tenant, so changing or removing it is
 * refused with {@link SourceOutcome#GATEWAY_WIDE}. Callers without a tenant (the operators of the
 * whole gateway) see and change every source. Permissions
 * ({@code sources:read}, {@code sources:write}, {@code sources:delete}) are checked by the caller
 * before these methods run.
 */
public interface ManageSources {

    /** How a secret setting is shown; sending it back unchanged keeps the stored secret. */
    String MASK = "********";

    /** Every source the caller may see, sorted by name. */
    List<SourceView> list(Principal caller);

    /** Adds a source; refused when the name exists, the type is unknown or the URL is refused. */
    SourceOutcome add(SourceDraft draft, Principal caller);

    /**
     * The source named {@code name} as {@link #list} shows it, or empty when there is none the caller
     * may see.
     */
    default Optional<SourceView> find(String name, Principal caller) {
        return list(caller).stream().filter(source -> source.name().equals(name)).findFirst();
    }

    /** Replaces the source named {@code name} whatever is stored now; {@code draft.name()} must equal it. */
    default SourceOutcome update(String name, SourceDraft draft, Principal caller) {
        return update(name, draft, caller, SourcePrecondition.NONE);
    }

    /**
     * Replaces the source named {@code name} when the source as it is when the change is made meets
     * {@code precondition} (checked in the same step: of two changes made on the same version only
     * the first is made, the second is {@link SourceOutcome.Stale}); {@code draft.name()} must equal
     * it. A source that does not exist is {@link SourceOutcome#NOT_FOUND} whatever the precondition.
     */
    SourceOutcome update(String name, SourceDraft draft, Principal caller, SourcePrecondition precondition);

    /** Removes the source named {@code name}, whatever is stored now, and closes its connector. */
    default SourceOutcome remove(String name, Principal caller) {
        return remove(name, caller, Optional.empty());
    }

    /**
     * Removes the source named {@code name} and closes its connector, only when its version when it
     * is removed is one of {@code ifVersionIn} (empty: any), else {@link SourceOutcome.Stale}.
     */
    SourceOutcome remove(String name, Principal caller, Optional<Set<String>> ifVersionIn);

    /** Creates a connector for {@code draft} and asks its backend for health, without saving anything. */
    SourceCheck test(SourceDraft draft, Principal caller);

    /**
     * Why the sources file could not be read at start, when it could not: the gateway then has no
     * sources from it, refuses changes and never overwrites it, so an operator must fix it and
     * restart. Empty when it was read (or there is none).
     */
    default Optional<String> storeProblem() {
        return Optional.empty();
    }
}
