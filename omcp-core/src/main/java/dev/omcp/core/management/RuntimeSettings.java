package dev.omcp.core.management;

import dev.omcp.core.analysis.health.HealthThresholds;
import dev.omcp.core.tools.observability.Toolkit;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.settings.HealthThresholdsStore;
import dev.omcp.ports.settings.ManageSettings;
import dev.omcp.ports.settings.SettingsChange;
import dev.omcp.ports.settings.SettingsStoreException;
import dev.omcp.ports.settings.StoredThresholds;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.text.LogField;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The settings of the management API: the health thresholds change at run time (in the toolkit
 * every tool reads), everything else is shown as fixed at start.
 *
 * <p>A threshold change is written to the sources file's {@code health: thresholds:} block when a
 * file is in use ({@link HealthThresholdsStore#persistent()}), before it takes effect: if the write
 * fails nothing changes, so the gateway never runs with thresholds its next start would lose.
 * Without a file a change lives in memory until restart, and {@link #view} and every
 * {@link SettingsChange.Applied} say so ({@code persisted: false}).
 */
public final class RuntimeSettings implements ManageSettings {
    private static final Logger LOG = LoggerFactory.getLogger(RuntimeSettings.class);
    private static final List<String> CHANGEABLE = List.of(HEALTH_THRESHOLDS);
    /** How many unknown keys a refusal names; the rest are counted, as for unknown signals. */
    private static final int MAX_NAMED_UNKNOWN = 10;
    /** How much of the thresholds before and after a change its log line quotes: all five signals written out fit. */
    private static final int MAX_LOGGED_THRESHOLDS = 1_000;
    /** Where the sources file keeps the thresholds; error paths of the file start with it. */
    public static final String FILE_PATH = "health.thresholds";

    private final Toolkit toolkit;
    private final JsonObject fixed;
    private final HealthThresholdsStore store;
    /** One change at a time: the file and the toolkit must agree on which change came last. */
    private final ReentrantLock changes = new ReentrantLock();
    /**
     * The block as the store holds it: read at start, then as last written (written under
     * {@link #changes}). A save keeps what of it still holds, so the operator's {@code ${VAR}} survives.
     */
    private volatile JsonObject written;

    /**
     * @param toolkit the tools' shared state, whose thresholds this changes
     * @param fixed the settings fixed at start that operators may see: never a secret, a URL or a
     *     path (the composition root chooses them)
     * @param store where changes persist (the sources file), or a memory-only store
     * @param atStart the store's block as the gateway started with it (the toolkit's thresholds came from it)
     */
    public RuntimeSettings(Toolkit toolkit, JsonObject fixed, HealthThresholdsStore store, StoredThresholds atStart) {
        this.toolkit = Objects.requireNonNull(toolkit, "toolkit");
        this.fixed = Objects.requireNonNull(fixed, "fixed");
        this.store = Objects.requireNonNull(store, "store");
        this.written = atStart instanceof StoredThresholds.Found found ? found.overrides() : JsonValue.EMPTY_JSON_OBJECT;
    }

    /** Settings over a store that held no thresholds at start. */
    public RuntimeSettings(Toolkit toolkit, JsonObject fixed, HealthThresholdsStore store) {
        this(toolkit, fixed, store, StoredThresholds.absent());
    }

    /** Settings whose changes are kept in memory only. */
    public RuntimeSettings(Toolkit toolkit, JsonObject fixed) {
        this(toolkit, fixed, HealthThresholdsStore.memoryOnly("no sources file is in use"));
    }

    /**
     * The thresholds a gateway starts with, from the sources file's block: the shipped defaults
     * when there is none, else the block over them, validated with every violation listed (paths
     * start with {@value #FILE_PATH}). An invalid block is not skipped like a bad source entry: the
     * caller refuses to start, because running on thresholds the operator did not write would
     * judge every service wrongly without a word.
     */
    public static HealthThresholds.Parsed startingThresholds(StoredThresholds stored) {
        return switch (stored) {
            case StoredThresholds.Absent absent -> new HealthThresholds.Valid(HealthThresholds.defaults());
            case StoredThresholds.Unreadable unreadable -> new HealthThresholds.Invalid(unreadable.errors());
            case StoredThresholds.Found found -> HealthThresholds.defaults().withOverrides(found.overrides(), FILE_PATH);
        };
    }

    @Override
    public JsonObject view(Principal caller) {
        boolean persistent = store.persistent();
        HealthThresholds inForce = toolkit.thresholds();
        String note;
        if (!persistent) {
            note = "changes apply at once to every tool and last until the gateway restarts: " + store.describe();
        } else if (!stored(inForce)) {
            // changed while no sources file was in use, and the file came later (the first source added through the API
            // creates it): persisted speaks of the next change, and only this says the next start loses these
            note = "the health thresholds in force were changed while nothing kept them and are not in " + store.describe()
                    + ": the next start goes back to the thresholds it holds; send them again (PUT /api/health/thresholds with "
                    + "what GET answers) to write them there";
        } else {
            note = "changes apply at once to every tool and are written to " + store.describe();
        }
        return Jsonp.object()
                .add("changeable", Jsonp.object().add(HEALTH_THRESHOLDS, inForce.toJson()))
                .add("fixed", fixed)
                .add("persisted", persistent)
                .add("note", note)
                .build();
    }

    /** Whether {@code inForce} is what the store holds, so that the next start reads them back. */
    private boolean stored(HealthThresholds inForce) {
        return HealthThresholds.defaults().withOverrides(written, FILE_PATH) instanceof HealthThresholds.Valid valid
                && valid.thresholds().equals(inForce);
    }

    @Override
    public boolean persistent() {
        return store.persistent();
    }

    @Override
    public SettingsChange change(JsonObject requested, Principal caller, Optional<Set<String>> ifVersionIn) {
        Optional<SettingsChange> refused = refusedToTenant(caller);
        if (refused.isPresent()) {
            return refused.get();
        }
        List<String> errors = new ArrayList<>();
        if (requested.isEmpty()) {
            errors.add("nothing to change: send an object with one or more of " + CHANGEABLE);
        }
        HealthThresholds thresholds = null;
        int unknown = 0;
        for (Map.Entry<String, JsonValue> entry : requested.entrySet()) {
            String key = entry.getKey();
            if (key.equals(HEALTH_THRESHOLDS)) {
                if (!(entry.getValue() instanceof JsonObject overrides)) {
                    errors.add(HEALTH_THRESHOLDS + ": must be an object keyed by signal");
                    continue;
                }
                switch (HealthThresholds.defaults().withOverrides(overrides, HEALTH_THRESHOLDS)) {
                    case HealthThresholds.Valid valid -> thresholds = valid.thresholds();
                    case HealthThresholds.Invalid invalid -> errors.addAll(invalid.errors());
                }
            } else if (fixed.containsKey(key)) {
                errors.add(abbreviate(key) + ": fixed at start by the environment; it cannot change at run time");
            } else if (key.equals("changeable")) {
                errors.add("changeable: send its members at the top level, for example {\"" + HEALTH_THRESHOLDS + "\": {...}}");
            } else if (++unknown <= MAX_NAMED_UNKNOWN) {
                errors.add(abbreviate(key) + ": unknown setting; what may change at run time is " + CHANGEABLE);
            }
        }
        if (unknown > MAX_NAMED_UNKNOWN) {
            // a body may hold thousands of members: one error each made an answer larger than the body
            errors.add("and " + (unknown - MAX_NAMED_UNKNOWN) + " more unknown settings; what may change at run time is " + CHANGEABLE);
        }
        if (!errors.isEmpty()) {
            return new SettingsChange.Invalid(errors);
        }
        return apply(thresholds, caller, current -> Jsonp.object().add(HEALTH_THRESHOLDS, current).build(), ifVersionIn);
    }

    @Override
    public JsonObject healthThresholds() {
        return toolkit.thresholds().toJson();
    }

    @Override
    public SettingsChange replaceHealthThresholds(JsonObject overrides, Principal caller, Optional<Set<String>> ifVersionIn) {
        Optional<SettingsChange> refused = refusedToTenant(caller);
        if (refused.isPresent()) {
            return refused.get();
        }
        return switch (HealthThresholds.parse(overrides)) {
            case HealthThresholds.Invalid invalid -> new SettingsChange.Invalid(invalid.errors());
            case HealthThresholds.Valid valid -> apply(valid.thresholds(), caller, current -> current, ifVersionIn);
        };
    }

    /**
     * Refuses a caller bound to a tenant: the thresholds judge every tenant's services, so a tenant's
     * admin changing them would change what other tenants see (as it may revoke and read only its own
     * tenant's sessions and audit entries). Checked before the body, so such a caller learns nothing of it.
     */
    private static Optional<SettingsChange> refusedToTenant(Principal caller) {
        if (caller.tenant().isEmpty()) {
            return Optional.empty();
        }
        LOG.info("event=settings-change-refused actor=\"{}\" tenant=\"{}\" reason=tenant-bound", LogField.of(caller.id()),
                LogField.of(caller.tenant()));
        return Optional.of(new SettingsChange.TenantBound("the settings are gateway-wide: they apply to the services of every "
                + "tenant, so a caller bound to tenant '" + caller.tenant() + "' may read them but not change them; nothing "
                + "changed. Ask an operator without a tenant to make the change"));
    }

    /**
     * Writes (when changes persist), then puts the thresholds in force; nothing changes when the write
     * fails, or when the caller's version is not the one in force (checked under the lock, so of two
     * changes made on the same version only the first is applied).
     *
     * @param shape the thresholds as the caller's route shows them, whose version the caller holds
     */
    private SettingsChange apply(HealthThresholds thresholds, Principal caller, UnaryOperator<JsonObject> shape,
            Optional<Set<String>> ifVersionIn) {
        changes.lock();
        try {
            HealthThresholds before = toolkit.thresholds();
            String inForce = ManageSettings.versionOf(shape.apply(before.toJson()));
            if (ifVersionIn.isPresent() && !ifVersionIn.get().contains(inForce)) {
                LOG.info("event=settings-change-stale actor=\"{}\" changed={}", LogField.of(caller.id()), CHANGEABLE);
                return new SettingsChange.Stale(inForce);
            }
            boolean persistent = store.persistent();
            if (persistent) {
                JsonObject overrides = thresholds.overridesOfDefaultsKeeping(written);
                try {
                    store.save(overrides);
                    written = overrides;
                } catch (SettingsStoreException e) {
                    LOG.error("event=settings-not-persisted actor=\"{}\" changed={} store=\"{}\" reason=\"{}\"", LogField.of(caller.id()),
                            CHANGEABLE, LogField.of(store.describe()), LogField.of(e.getMessage()));
                    return new SettingsChange.NotSaved("the thresholds could not be written to " + store.describe()
                            + ", nothing changed: " + e.getMessage());
                }
            }
            toolkit.replaceThresholds(thresholds);
            // the caller's id is an OIDC subject, a user or key name: it may hold a quote or a backslash. The audit entry
            // names who changed the settings, never the values: from and to are the only record of what changed
            LOG.info("event=settings-changed actor=\"{}\" changed={} persisted={} from=\"{}\" to=\"{}\"", LogField.of(caller.id()),
                    CHANGEABLE, persistent, LogField.of(before.overridesOfDefaults(), MAX_LOGGED_THRESHOLDS),
                    LogField.of(thresholds.overridesOfDefaults(), MAX_LOGGED_THRESHOLDS));
            return new SettingsChange.Applied(shape.apply(thresholds.toJson()), CHANGEABLE, persistent);
        } finally {
            changes.unlock();
        }
    }

    private static String abbreviate(String text) {
        String printable = text.replaceAll("[^\\x20-\\x7e]", "?");
        return printable.length() <= 64 ? printable : printable.substring(0, 64) + "...";
    }
}
