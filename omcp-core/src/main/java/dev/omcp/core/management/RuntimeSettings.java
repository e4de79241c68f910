package dev.omcp.core.management;

import dev.omcp.core.analysis.health.HealthThresholds;
import dev.omcp.core.tools.observability.Toolkit;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.settings.ManageSettings;
import dev.omcp.ports.settings.SettingsChange;
import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The settings of the management API: the health thresholds change at run time (in the toolkit
 * every tool reads), everything else is shown as fixed at start.
 *
 * <p>Changes live in memory: the sources file has no place for thresholds yet, so a restart
 * returns to the thresholds the gateway was started with. {@link #view} and every
 * {@link SettingsChange.Applied} say so ({@code persisted: false}).
 */
public final class RuntimeSettings implements ManageSettings {
    private static final Logger LOG = LoggerFactory.getLogger(RuntimeSettings.class);
    private static final List<String> CHANGEABLE = List.of(HEALTH_THRESHOLDS);

    private final Toolkit toolkit;
    private final JsonObject fixed;

    /**
     * @param toolkit the tools' shared state, whose thresholds this changes
     * @param fixed the settings fixed at start that operators may see: never a secret, a URL or a
     *     path (the composition root chooses them)
     */
    public RuntimeSettings(Toolkit toolkit, JsonObject fixed) {
        this.toolkit = Objects.requireNonNull(toolkit, "toolkit");
        this.fixed = Objects.requireNonNull(fixed, "fixed");
    }

    @Override
    public JsonObject view(Principal caller) {
        return Jsonp.object()
                .add("changeable", Jsonp.object().add(HEALTH_THRESHOLDS, toolkit.thresholds().toJson()))
                .add("fixed", fixed)
                .add("persisted", false)
                .add("note", "changes apply at once to every tool and last until the gateway restarts")
                .build();
    }

    @Override
    public SettingsChange change(JsonObject requested, Principal caller) {
        List<String> errors = new ArrayList<>();
        if (requested.isEmpty()) {
            errors.add("nothing to change: send an object with one or more of " + CHANGEABLE);
        }
        HealthThresholds thresholds = null;
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
            } else {
                errors.add(abbreviate(key) + ": unknown setting; what may change at run time is " + CHANGEABLE);
            }
        }
        if (!errors.isEmpty()) {
            return new SettingsChange.Invalid(errors);
        }
        toolkit.replaceThresholds(thresholds);
        LOG.info("event=settings-changed actor=\"{}\" changed={}", caller.id(), CHANGEABLE);
        return new SettingsChange.Applied(Jsonp.object().add(HEALTH_THRESHOLDS, thresholds.toJson()).build(), CHANGEABLE, false);
    }

    @Override
    public JsonObject healthThresholds() {
        return toolkit.thresholds().toJson();
    }

    @Override
    public SettingsChange replaceHealthThresholds(JsonObject overrides, Principal caller) {
        return switch (HealthThresholds.parse(overrides)) {
            case HealthThresholds.Invalid invalid -> new SettingsChange.Invalid(invalid.errors());
            case HealthThresholds.Valid valid -> {
                toolkit.replaceThresholds(valid.thresholds());
                LOG.info("event=settings-changed actor=\"{}\" changed=[{}]", caller.id(), HEALTH_THRESHOLDS);
                yield new SettingsChange.Applied(valid.thresholds().toJson(), List.of(HEALTH_THRESHOLDS), false);
            }
        };
    }

    private static String abbreviate(String text) {
        String printable = text.replaceAll("[^\\x20-\\x7e]", "?");
        return printable.length() <= 64 ? printable : printable.substring(0, 64) + "...";
    }
}
