package dev.omcp.ports.settings;

import jakarta.json.JsonObject;
import java.util.List;
import java.util.Objects;

/**
 * The {@code health: thresholds:} block of the sources file as the store read it, before the
 * core judges its values: absent, present (turned from YAML into JSON, {@code ${VAR}} substituted),
 * or unreadable for reasons of shape the store can see (not a mapping, an unknown key, a YAML date).
 */
public sealed interface StoredThresholds {

    /** No block: the shipped defaults apply. */
    static StoredThresholds absent() {
        return Absent.INSTANCE;
    }

    /** The file has no {@code health: thresholds:} block. */
    enum Absent implements StoredThresholds {
        INSTANCE
    }

    /**
     * The block, keyed by signal wire name, each value as the file wrote it (overrides of the
     * shipped defaults).
     */
    record Found(JsonObject overrides) implements StoredThresholds {
        public Found {
            Objects.requireNonNull(overrides, "overrides");
        }
    }

    /** The block could not be turned into JSON; every problem names its path, for example {@code health.thresholds}. */
    record Unreadable(List<String> errors) implements StoredThresholds {
        public Unreadable {
            errors = List.copyOf(errors);
            if (errors.isEmpty()) {
                throw new IllegalArgumentException("an unreadable block needs at least one error");
            }
        }
    }
}
