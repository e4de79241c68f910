package dev.omcp.connectors.builtin.backend;

/**
 * The label values of one answer that were not strings, and so were left out of their series or
 * streams ({@link BackendJson#putStringMembers}). Prometheus and Loki write every label value as a
 * string; another type is a broken or hostile backend's, and leaving its label out without a word
 * could show two series or streams as alike. Not thread-safe: one per answer read.
 */
public final class LabelsLeftOut {
    private long count;

    void add() {
        count++;
    }

    /** How many label values were left out. */
    public long count() {
        return count;
    }

    /**
     * {@code answer} with a line saying how many labels were left out, when any were.
     *
     * @param holders what the labels belong to, for the line: {@code series} or {@code streams}
     */
    public <T> BackendJson.Answer<T> told(BackendJson.Answer<T> answer, String backend, String holders) {
        return count == 0 ? answer : answer.withWarning(backend + " answered label values that are not strings (" + count
                + "); those labels were left out of their " + holders);
    }
}
