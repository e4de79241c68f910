package dev.omcp.core.quota;

/** Why the budget refused an answer (spec 7.3), with the {@code error} code the caller reads. */
public enum BudgetRefusal {
    /** The answer does not fit in what is left of the cap; it will after {@code retryAfterSeconds}. */
    BUDGET_EXCEEDED("OMCP_TOKEN_BUDGET_EXCEEDED"),
    /** The answer alone is larger than the whole cap; waiting never helps. */
    REQUEST_EXCEEDS_BUDGET("OMCP_TOKEN_REQUEST_EXCEEDS_BUDGET");

    private final String code;

    BudgetRefusal(String code) {
        this.code = code;
    }

    /** The {@code error} member of the refusal body. */
    public String code() {
        return code;
    }
}
