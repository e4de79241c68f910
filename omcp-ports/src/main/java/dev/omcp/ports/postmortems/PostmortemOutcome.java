package dev.omcp.ports.postmortems;

import dev.omcp.ports.tools.ToolOutcome;
import java.util.List;
import java.util.Objects;

/** The outcome of generating or deleting a stored post-mortem. */
public sealed interface PostmortemOutcome {

    /** The report was generated and stored. */
    record Stored(StoredPostmortem entry) implements PostmortemOutcome {
        public Stored {
            Objects.requireNonNull(entry, "entry");
        }
    }

    /** The entry was deleted (a tombstone was appended). */
    record Deleted(String id) implements PostmortemOutcome {
        public Deleted {
            Objects.requireNonNull(id, "id");
        }
    }

    /** The request is invalid; every problem is listed. */
    record Invalid(List<String> errors) implements PostmortemOutcome {
        public Invalid {
            errors = List.copyOf(errors);
            if (errors.isEmpty()) {
                throw new IllegalArgumentException("an invalid request needs at least one error");
            }
        }
    }

    /** No entry of that id inside the caller's tenant scope. */
    record NotFound(String id) implements PostmortemOutcome {
        public NotFound {
            Objects.requireNonNull(id, "id");
        }
    }

    /**
     * The report could not be generated: the tool is missing, refused, or answered an error.
     * Nothing was stored.
     */
    record NotGenerated(ToolOutcome outcome) implements PostmortemOutcome {
        public NotGenerated {
            Objects.requireNonNull(outcome, "outcome");
        }
    }

    /** The store could not be read or written; nothing changed. */
    record StoreUnavailable(String reason) implements PostmortemOutcome {
        public StoreUnavailable {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
