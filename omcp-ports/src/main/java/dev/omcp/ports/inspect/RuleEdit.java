package dev.omcp.ports.inspect;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A reviewer's change to one rule ({@code PATCH /api/inspect/profile/rules/:id}, DECISIONS.md): either a
 * new status, or new values for any of subject, resources and args. The two kinds do not mix.
 */
public sealed interface RuleEdit {

    /** Accept or reject (or send back to suggested). */
    record Review(RuleStatus status) implements RuleEdit {
        public Review {
            Objects.requireNonNull(status, "status");
        }
    }

    /** Replace what is given; what is empty stays as it is. The status does not change. */
    record Change(Optional<String> subject, Optional<Map<String, List<String>>> resources, Optional<Map<String, List<String>>> args)
            implements RuleEdit {
        public Change {
            Objects.requireNonNull(subject, "subject");
            Objects.requireNonNull(resources, "resources");
            Objects.requireNonNull(args, "args");
            if (subject.isEmpty() && resources.isEmpty() && args.isEmpty()) {
                throw new IllegalArgumentException("an edit changes at least one of subject, resources and args");
            }
        }
    }
}
