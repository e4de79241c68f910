package dev.omcp.ports.settings;

import jakarta.json.JsonObject;
import java.util.List;
import java.util.Objects;

/** The outcome of a settings change. */
public sealed interface SettingsChange {

    /**
     * Every requested value was valid and is in force now.
     *
     * @param current the changed part as it now reads
     * @param changed the keys that were changed
     * @param persisted whether the change survives a restart
     */
    record Applied(JsonObject current, List<String> changed, boolean persisted) implements SettingsChange {
        public Applied {
            Objects.requireNonNull(current, "current");
            changed = List.copyOf(changed);
        }
    }

    /**
     * The values were valid but could not be written where they must persist, so nothing changed
     * (the gateway never runs with settings its file would lose at the next start).
     *
     * @param reason what failed and what to do; never a secret or a full path
     */
    record NotSaved(String reason) implements SettingsChange {
        public NotSaved {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * Nothing changed: the caller's change was made on a version it read, and the value has changed
     * since (another operator's change came first).
     *
     * @param currentVersion the version now in force ({@link ManageSettings#versionOf})
     */
    record Stale(String currentVersion) implements SettingsChange {
        public Stale {
            Objects.requireNonNull(currentVersion, "currentVersion");
        }
    }

    /**
     * Nothing changed: the settings are gateway-wide and the caller may act only within its tenant, so
     * a change would reach every other tenant too.
     *
     * @param reason what was refused and who may make the change
     */
    record TenantBound(String reason) implements SettingsChange {
        public TenantBound {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** Nothing changed; every problem found, each naming its path and what is allowed. */
    record Invalid(List<String> errors) implements SettingsChange {
        public Invalid {
            errors = List.copyOf(errors);
            if (errors.isEmpty()) {
                throw new IllegalArgumentException("an invalid change needs at least one error");
            }
        }
    }
}
