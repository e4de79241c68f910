package dev.omcp.adapters.http.api;

import io.javalin.http.Context;

/**
 * How a route answers a request body it cannot use (415 not JSON, 413 too large, 400 not UTF-8 or
 * not valid JSON). The management API's shape is {@code {code, error}} ({@link #COMMON}); a route
 * held to another error format passes its own, so the rules stay the same and only the shape
 * differs: sources answer {@code {code, reason, error}}, and RFC 7591 client registration needs
 * {@code error} to be one of its error codes.
 */
@FunctionalInterface
public interface BodyRefusal {
    /** The management API's refusal: {@code {code, error}}. */
    BodyRefusal COMMON = JsonResponses::error;

    /**
     * Writes the refusal.
     *
     * @param status 400, 413 or 415
     * @param code the management API's code for it ({@code OMCP_INVALID_BODY}, ...)
     * @param message what was wrong and what to send instead; never echoes the body
     */
    void answer(Context ctx, int status, String code, String message);
}
