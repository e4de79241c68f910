package dev.omcp.core.hooks;

import jakarta.json.JsonObject;
import java.util.Objects;

/** What the hooks of one kind decided about a call. */
public sealed interface HookVerdict {

    /** Go on with {@code payload} (possibly replaced by a hook, spec 6.1 rule 1). */
    record Proceed(JsonObject payload) implements HookVerdict {
        public Proceed {
            Objects.requireNonNull(payload, "payload");
        }
    }

    /** Stop: a hook returned {@code allow: false}, or threw in enforce mode (rules 2 and 3). */
    record Blocked(String reason) implements HookVerdict {
        public Blocked {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
