package dev.omcp.core.ipenrich;

import java.util.List;
import java.util.Objects;

/** The outcome of reading an IP dataset: loaded (possibly with skipped rows), or rejected as a whole. */
public sealed interface DatasetLoad permits DatasetLoad.Loaded, DatasetLoad.Rejected {

    /** A problem with one row, which was skipped. */
    record RowError(long line, String message) {
        public RowError {
            Objects.requireNonNull(message, "message");
        }

        @Override
        public String toString() {
            return "line " + line + ": " + message;
        }
    }

    /**
     * The dataset, built from every valid row.
     *
     * @param rows data rows read (header and blank lines not counted)
     * @param skipped rows left out because of an error
     * @param errors the first {@value IpDatasetParser#MAX_REPORTED_ERRORS} row errors, with line numbers
     */
    record Loaded(IpDataset dataset, long rows, long skipped, List<RowError> errors) implements DatasetLoad {
        public Loaded {
            Objects.requireNonNull(dataset, "dataset");
            errors = List.copyOf(errors);
        }

        /** One line for the log: how many networks were loaded and what was skipped. */
        public String summary() {
            String s = dataset.size() + " networks loaded from " + rows + " rows";
            if (skipped > 0) {
                s += "; " + skipped + " rows skipped, first: " + errors.getFirst();
            }
            return s;
        }
    }

    /** The file cannot be used at all (no header, no network column, too large); {@code reason} says what to fix. */
    record Rejected(String reason) implements DatasetLoad {
        public Rejected {
            Objects.requireNonNull(reason, "reason");
        }
    }
}
