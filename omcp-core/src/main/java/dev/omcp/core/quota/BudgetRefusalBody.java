package dev.omcp.core.quota;

import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.Map;

/**
 * The body of spec 7.3, {@code {error, tool, used, limit, requested, retryAfterSeconds,
 * freedAtRetry, message}}, with a message that tells a model what to do next.
 * {@code retryAfterSeconds} and {@code freedAtRetry} are {@code null} for
 * {@code OMCP_TOKEN_REQUEST_EXCEEDS_BUDGET}: no wait makes such an answer fit.
 */
final class BudgetRefusalBody {
    /** How to ask each charged tool for a smaller answer, in its own arguments. */
    private static final Map<String, String> SMALLER = Map.of(
            "query_logs", "a lower `limit`, a `filter`, `level` or `labels` that match fewer lines, a shorter `duration`, "
                    + "or `aggregate` to count lines instead of reading them",
            "query_metrics", "a lower `limit` (series) or `points`, fewer `groupBy` labels, `labels` that match fewer series, "
                    + "or a shorter `duration`",
            "get_service_health", "a shorter `window`, or one `source`");

    private BudgetRefusalBody() {}

    static JsonObject of(String tool, BudgetDecision.Refused refused) {
        JsonObjectBuilder body = Jsonp.object()
                .add("error", refused.reason().code())
                .add("tool", tool)
                .add("used", refused.used())
                .add("limit", refused.limit())
                .add("requested", refused.requested());
        if (refused.retryAfterSeconds().isPresent() && refused.freedAtRetry().isPresent()) {
            body.add("retryAfterSeconds", refused.retryAfterSeconds().getAsLong()).add("freedAtRetry", refused.freedAtRetry().getAsLong());
        } else {
            body.add("retryAfterSeconds", JsonValue.NULL).add("freedAtRetry", JsonValue.NULL);
        }
        return body.add("message", message(tool, refused)).build();
    }

    private static String message(String tool, BudgetDecision.Refused refused) {
        String smaller = SMALLER.getOrDefault(tool, "narrower arguments");
        if (refused.reason() == BudgetRefusal.REQUEST_EXCEEDS_BUDGET) {
            return "This " + tool + " answer (about " + refused.requested() + " tokens) is larger than this credential's whole daily "
                    + "token budget (" + refused.limit() + " tokens per 24 hours), so retrying the same call will never succeed. "
                    + "Ask for much less: " + smaller + ".";
        }
        String retry = "retry in " + refused.retryAfterSeconds().getAsLong() + " s, when " + refused.freedAtRetry().getAsLong()
                + " tokens will have left the 24-hour window";
        if (refused.beforeTheCall()) {
            return "This credential's daily token budget is used up (" + refused.used() + " of " + refused.limit()
                    + " tokens in the last 24 hours), so " + tool + " did not run (requested is 0: its answer has no size yet). "
                    + "Do not repeat the call now: " + retry + ". Tools other than query_logs, query_metrics and "
                    + "get_service_health are not charged and still answer.";
        }
        long left = Math.max(0, refused.limit() - refused.used());
        return "This " + tool + " answer (about " + refused.requested() + " tokens) does not fit in what is left of this "
                + "credential's daily token budget: " + refused.used() + " of " + refused.limit() + " tokens are used in the last "
                + "24 hours, " + left + " are left. Ask for less so that it fits (" + smaller + "), or " + retry + ".";
    }
}
