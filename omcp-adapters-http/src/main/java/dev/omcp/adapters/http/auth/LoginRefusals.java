package dev.omcp.adapters.http.auth;

import dev.omcp.adapters.http.api.IdentityText;
import dev.omcp.adapters.http.api.JsonResponses;
import dev.omcp.adapters.http.metrics.GatewayMetrics;
import io.javalin.http.Context;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The 429 answer of a refused sign-in, the same for a password login and an OIDC callback: the
 * code for {@code omcp_login_refusals_total}, {@code Retry-After} in whole seconds (at least one),
 * and a JSON body {@code {code, error, retryAfterSeconds}}. Also the other answers both sign-ins
 * share, so each is worded once.
 */
public final class LoginRefusals {
    private static final Logger LOG = LoggerFactory.getLogger(LoginRefusals.class);

    private LoginRefusals() {}

    /**
     * Answers 429 {@code OMCP_LOGIN_ADDRESS_TABLE_FULL}: the per-address counter holds as many
     * addresses as it may and this one is not among them. Its own code: a table filled by many
     * addresses is a different incident from one client guessing.
     */
    public static void addressTableFull(Context ctx, Duration retryAfter) {
        tooMany(ctx, retryAfter, "OMCP_LOGIN_ADDRESS_TABLE_FULL", "logins are coming from more addresses at once than the "
                + "gateway counts, so logins from an address it is not counting yet are refused for now; try again after the "
                + "Retry-After seconds");
    }

    /**
     * Answers 500 {@code OMCP_SESSION_TOO_LARGE} and sets no cookie: the sign-in succeeded, but the
     * session of this account does not fit in the session cookie (a name, tenant or role list the
     * operator must shorten), and a cookie that cannot verify, or one missing roles, is never issued.
     * Counted in {@code omcp_login_refusals_total} under this code: the 500 means one account (or, in
     * OIDC mode, one person's claims) cannot sign in at all, which an operator wants to see there.
     *
     * @param sub the account's subject, for the operator's log line (written escaped and bounded)
     * @param problem what is too long and what to do ({@link SessionCookies#problem})
     */
    public static void sessionTooLarge(Context ctx, String sub, String problem) {
        ctx.attribute(GatewayMetrics.LOGIN_REFUSAL_ATTRIBUTE, "OMCP_SESSION_TOO_LARGE");
        LOG.warn("event=login outcome=session-too-large principal=\"{}\" reason=\"{}\"", IdentityText.of(sub), problem);
        JsonResponses.error(ctx, 500, "OMCP_SESSION_TOO_LARGE", problem);
    }

    /** Answers 429 with {@code code} and {@code message}, to be tried again after {@code retryAfter}. */
    public static void tooMany(Context ctx, Duration retryAfter, String code, String message) {
        ctx.attribute(GatewayMetrics.LOGIN_REFUSAL_ATTRIBUTE, code);
        long seconds = seconds(retryAfter);
        ctx.header("Retry-After", Long.toString(seconds));
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("code", code);
        answer.put("error", message);
        answer.put("retryAfterSeconds", seconds);
        JsonResponses.json(ctx, 429, answer);
    }

    /** Whole seconds, rounded up, at least one: a client told 0 would retry at once. */
    static long seconds(Duration duration) {
        return Math.max(1, (duration.toMillis() + 999) / 1000);
    }
}
