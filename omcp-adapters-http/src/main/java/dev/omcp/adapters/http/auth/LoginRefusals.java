package dev.omcp.adapters.http.auth;

import dev.omcp.adapters.http.api.JsonResponses;
import dev.omcp.adapters.http.metrics.GatewayMetrics;
import io.javalin.http.Context;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The 429 answer of a refused sign-in, the same for a password login and an OIDC callback: the
 * code for {@code omcp_login_refusals_total}, {@code Retry-After} in whole seconds (at least one),
 * and a JSON body {@code {code, error, retryAfterSeconds}}.
 */
public final class LoginRefusals {
    private LoginRefusals() {}

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
