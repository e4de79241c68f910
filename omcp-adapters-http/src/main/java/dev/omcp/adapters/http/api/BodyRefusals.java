package dev.omcp.adapters.http.api;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The refusals of a request body every route that reads one can answer, by status, each naming its
 * code: what a client generated from the OpenAPI document must be ready for whenever it sends a body.
 * A JSON body is read through {@link RequestBodies}, whose rules are the same on every route; a body of
 * another format keeps only the deadline ({@link BodyDeadlines}) and the route documents the rest.
 */
final class BodyRefusals {
    private BodyRefusals() {
    }

    /** Status to description, in status order; empty for a route that reads no body. */
    static Map<Integer, String> of(ApiRoutes.Route route) {
        Map<Integer, String> refusals = new LinkedHashMap<>();
        if (route.requestBody().isEmpty()) {
            return refusals;
        }
        boolean json = route.requestBody().get().readByRequestBodies();
        if (json) {
            refusals.put(400, "the body is not UTF-8 or not exactly one JSON object (OMCP_INVALID_BODY); a member that is "
                    + "null, unknown or invalid is refused with the route's code, OMCP_INVALID_BODY unless it names its own");
        }
        refusals.put(408, "the body did not arrive within its deadline (by default 10 s plus 1 s per 16 KiB); the "
                + "connection is closed (OMCP_BODY_TIMEOUT)");
        if (json) {
            refusals.put(413, "the body is larger than " + (RequestBodies.MAX_JSON_BYTES >> 20) + " MiB (OMCP_BODY_TOO_LARGE)");
            refusals.put(415, "the body is not declared application/json in UTF-8 (OMCP_UNSUPPORTED_MEDIA_TYPE)");
        }
        return refusals;
    }
}
