package dev.omcp.ports.products;

import java.util.List;
import java.util.Objects;

/** What a change to the Products came to. */
public sealed interface ProductOutcome {

    /**
     * The Product was stored.
     *
     * @param product as stored
     * @param created whether there was no Product of that id before
     */
    record Saved(Product product, boolean created) implements ProductOutcome {
        public Saved {
            Objects.requireNonNull(product, "product");
        }
    }

    /** The Product was deleted. */
    record Deleted(String id) implements ProductOutcome {}

    /** No Product of that id that the caller may see. */
    record NotFound(String id) implements ProductOutcome {}

    /** The request was refused; {@code problems} names every one, each with its field. */
    record Invalid(List<String> problems) implements ProductOutcome {
        public Invalid {
            problems = List.copyOf(problems);
        }
    }

    /** The store could not be written; nothing changed. */
    record StoreUnavailable(String reason) implements ProductOutcome {}
}
