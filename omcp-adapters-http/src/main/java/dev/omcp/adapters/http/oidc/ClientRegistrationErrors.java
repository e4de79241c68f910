package dev.omcp.adapters.http.oidc;

import dev.omcp.adapters.http.api.BodyRefusal;
import dev.omcp.adapters.http.api.JsonResponses;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Refusals of RFC 7591 client registration. Section 3.2.2 makes {@code error} one of its error
 * codes and {@code error_description} the text a person reads, so registration clients can act on
 * them; the management API's {@code code} is added beside them for the gateway's own clients.
 */
final class ClientRegistrationErrors {
    /** The code of every refusal the registration itself decides. */
    static final String REJECTED = "OMCP_DCR_REJECTED";

    /**
     * A body the management API's rules refuse (not JSON, too large, invalid JSON) keeps its status
     * and common {@code code}; for the RFC it is client metadata the server cannot use.
     */
    static final BodyRefusal BODY = (ctx, status, code, message) -> answer(ctx, status, code, "invalid_client_metadata", message);

    private ClientRegistrationErrors() {}

    /** Writes {@code {code, error, error_description}} with {@code status}. */
    static void answer(Context ctx, int status, String code, String error, String description) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", code);
        body.put("error", error);
        body.put("error_description", description);
        JsonResponses.json(ctx, status, body);
    }
}
