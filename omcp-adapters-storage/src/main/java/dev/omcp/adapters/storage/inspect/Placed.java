package dev.omcp.adapters.storage.inspect;

import java.util.List;

/**
 * A value of a profile file with the place it starts at, so that a refusal can send the operator to the line. YAML
 * and JSON are both read into this one shape, and one reader ({@link ProfileShape}) checks it: the two formats refuse
 * the same things in the same words.
 */
sealed interface Placed {

    /** Where the value starts. */
    Place place();

    /** How a message names what was found instead of what was expected. */
    String kindName();

    /** A 1-based line and column. */
    record Place(int line, int column) {
        @Override
        public String toString() {
            return "line " + line + ", column " + column;
        }
    }

    /** A mapping, its members in the file's order; a key written twice stays twice, for the reader to refuse. */
    record Mapping(Place place, List<Member> members) implements Placed {
        @Override
        public String kindName() {
            return "a mapping";
        }
    }

    /** One key of a mapping, placed at the key. */
    record Member(String key, Place place, Placed value) {}

    /** A list. */
    record Sequence(Place place, List<Placed> items) implements Placed {
        @Override
        public String kindName() {
            return "a list";
        }
    }

    /** A single value, as written ({@code 0.5}, {@code key:ci-bot}): the reader parses numbers itself. */
    record Scalar(Place place, Kind kind, String text) implements Placed {
        @Override
        public String kindName() {
            return kind.description;
        }
    }

    /** What a scalar is, as the format says (YAML by its tag, JSON by its token). */
    enum Kind {
        TEXT("a string"), NUMBER("a number"), BOOLEAN("true or false"), NULL("null");

        private final String description;

        Kind(String description) {
            this.description = description;
        }
    }
}
