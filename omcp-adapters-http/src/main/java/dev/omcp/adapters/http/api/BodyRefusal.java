package dev.omcp.adapters.http.api;

import io.javalin.http.Context;
import java.util.List;

/**
 * How a route answers a request body it cannot use (415 not JSON, 413 too large, 400 not UTF-8 or
 * not valid JSON). The management API's shape is {@code {code, error}} ({@link #COMMON}); a route
 * held to another error format passes its own, so the rules stay the same and only the shape
 * differs: sources answer {@code {code, reason, error}}, and RFC 7591 client registration needs
 * {@code error} to be one of its error codes.
 */
@FunctionalInterface
public interface BodyRefusal {
    /** The management API's refusal: {@code {code, error}}, and {@code errors} for a field's problems. */
    BodyRefusal COMMON = new BodyRefusal() {
        @Override
        public void answer(Context ctx, int status, String code, String message) {
            JsonResponses.error(ctx, status, code, message);
        }

        @Override
        public void invalid(Context ctx, String code, List<String> problems) {
            JsonpExchange.invalid(ctx, code, problems);
        }
    };

    /**
     * Writes the refusal.
     *
     * @param status 400, 413 or 415
     * @param code the management API's code for it ({@code OMCP_INVALID_BODY}, ...)
     * @param message what was wrong and what to send instead; never echoes the body
     */
    void answer(Context ctx, int status, String code, String message);

    /**
     * Writes a 400 for problems of the body's fields, each naming its field. A shape with an
     * {@code errors} list overrides this to fill it; by default the problems are joined.
     *
     * @param code the route's code for what its fields say ({@code OMCP_INVALID_BODY}, ...)
     */
    default void invalid(Context ctx, String code, List<String> problems) {
        answer(ctx, 400, code, String.join("; ", problems));
    }
}
