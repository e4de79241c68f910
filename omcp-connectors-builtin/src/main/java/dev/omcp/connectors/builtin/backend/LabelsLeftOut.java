package dev.omcp.connectors.builtin.backend;

import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorException.Kind;
import dev.omcp.sdk.query.Series;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The label values of one answer that were not strings, and so were left out of their series or
 * streams ({@link BackendJson#putStringMembers}). Prometheus and Loki write every label value as a
 * string; another type is a broken or hostile backend's, and leaving its label out without a word
 * could show two series or streams as alike. Not thread-safe: one per answer read.
 */
public final class LabelsLeftOut {
    private long count;

    /** Counts one label value left out. */
    public void add() {
        count++;
    }

    /** How many label values were left out. */
    public long count() {
        return count;
    }

    /**
     * Refuses series whose labels are the same once any were left out: Prometheus and Loki never
     * answer two of one label set, so they can only be series told apart by a label value that was
     * not a string. Shown as they are, an agent would read one series twice, or two as one.
     */
    public void refuseAlike(List<Series> series, String backend) throws ConnectorException {
        if (count == 0) {
            return;
        }
        Set<Map<String, String>> seen = new HashSet<>();
        for (Series s : series) {
            if (!seen.add(s.labels())) {
                throw new ConnectorException(Kind.BAD_RESPONSE, backend + " answered series that are alike once their label values "
                        + "that are not strings are left out, so the gateway cannot tell them apart; " + backend + " writes every label "
                        + "value as a string: check what answers at the source URL");
            }
        }
    }

    /**
     * {@code answer} with a line saying how many labels were left out, when any were.
     *
     * @param holders what the labels belong to, for the line: {@code series} or {@code streams}
     */
    public <T> BackendJson.Answer<T> told(BackendJson.Answer<T> answer, String backend, String holders) {
        return warning(backend, holders).map(answer::withWarning).orElse(answer);
    }

    /**
     * The line saying how many labels were left out, when any were: for an answer that is no {@link BackendJson.Answer}
     * (a service listing's warnings).
     *
     * @param holders what the labels belong to, and what leaving them out did to it
     */
    public Optional<String> warning(String backend, String holders) {
        return count == 0 ? Optional.empty() : Optional.of(backend + " answered label values that are not strings (" + count
                + "); those labels were left out of their " + holders);
    }
}
