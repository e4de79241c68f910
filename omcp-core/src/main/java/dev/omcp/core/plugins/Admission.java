package dev.omcp.core.plugins;

import java.util.Objects;

/** The decision about one plugin (spec 3.5). */
public sealed interface Admission {

    /** The plugin may be loaded. */
    record Load() implements Admission {}

    /** The plugin is not loaded; the gateway logs {@code reason} and goes on. */
    record Skip(String reason) implements Admission {
        public Skip {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** Strict mode: the gateway must not start (or a re-scan must not apply). */
    record RefuseStart(String reason) implements Admission {
        public RefuseStart {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
