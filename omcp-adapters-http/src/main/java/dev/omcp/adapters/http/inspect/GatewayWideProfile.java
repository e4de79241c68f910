package dev.omcp.adapters.http.inspect;

import dev.omcp.adapters.http.api.ApiCaller;
import dev.omcp.adapters.http.api.IdentityText;
import dev.omcp.adapters.http.api.JsonResponses;
import dev.omcp.adapters.http.api.RequestBodies;
import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.text.LogField;
import io.javalin.http.Context;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Inspect profile is one for the whole gateway: its rules judge the tool calls of every tenant, and they name
 * other tenants' principals and resource values. So a caller bound to a tenant neither reads it nor derives nor
 * reviews its rules: 403 {@code OMCP_INSPECT_GATEWAY_WIDE} before anything of the request is read. Its own tenant's calls
 * stay open to it in the deviations and the flows, which are scoped to its tenant.
 *
 * <p>Not {@code ApiRoutes.RouteBuilder#gatewayWide}: that refusal is for changes only, and reading the profile is
 * refused too. A request the guard identified no caller for is refused as well: whether it is bound to a tenant
 * cannot be known, and the profile is not shown or changed on a guess.
 */
final class GatewayWideProfile {
    static final String CODE = "OMCP_INSPECT_GATEWAY_WIDE";
    /** The refusal as the OpenAPI document lists it among a route's 403 answers. */
    static final String DOCUMENTED = "a caller bound to a tenant: the Inspect profile is gateway-wide, so only an operator"
            + " without a tenant may read or change it (" + CODE + "); nothing changed";
    private static final Logger LOG = LoggerFactory.getLogger(GatewayWideProfile.class);

    private GatewayWideProfile() {}

    /**
     * Whether the caller may use the profile; when not, answers the 403 saying why and who may.
     *
     * @param attempt what was refused, to end "may not ...": {@code "read it"}, {@code "derive rules into it"}
     */
    static boolean admits(Context ctx, String attempt) {
        Optional<Principal> caller = ApiCaller.principal(ctx);
        if (caller.isPresent() && caller.get().tenant().isEmpty()) {
            return true;
        }
        String tenant = caller.map(Principal::tenant).orElse("");
        LOG.info("event=inspect-profile-refused method={} path=\"{}\" actor=\"{}\" tenant=\"{}\" code={} reason={}",
                ctx.method().name(), LogField.of(ctx.path()), caller.map(Principal::id).map(IdentityText::of).orElse("unidentified"),
                LogField.of(tenant), CODE, caller.isPresent() ? "tenant-bound" : "caller-unidentified");
        if (ctx.req().getContentLengthLong() > 0 || ctx.header("Transfer-Encoding") != null) {
            // read and drop what the client still sends: answering while it sends can reset the connection, and the
            // client would see no refusal at all
            RequestBodies.drainOrClose(ctx);
        }
        String who = caller.isPresent() ? "a caller bound to tenant '" + IdentityText.of(tenant) + "'"
                : "a caller the gateway could not identify";
        JsonResponses.error(ctx, 403, CODE, "the Inspect profile is gateway-wide: its rules judge the tool calls of every tenant,"
                + " so " + who + " may not " + attempt + "; nothing changed. Ask an operator without a tenant (one who operates"
                + " the whole gateway, with inspection:write) to review the profile; your tenant's own calls outside it are in"
                + " GET /api/inspect/deviations and GET /api/inspect/flows");
        return false;
    }
}
