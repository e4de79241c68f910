package dev.omcp.adapters.http.api;

import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.text.LogField;
import io.javalin.http.Context;
import io.javalin.http.Handler;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A change whose effect reaches every tenant (a connector plugin serves the sources of all of them),
 * which a caller bound to a tenant may not make: a tenant's admin acts within its tenant, as it reads
 * and revokes only its tenant's sessions, audit entries, sources and post-mortems. Only a caller
 * without a tenant, an operator of the whole gateway, makes it.
 *
 * <p>Declared on a route with {@link ApiRoutes.RouteBuilder#gatewayWide}: the route then answers a
 * caller bound to a tenant 403 with {@link #code()} after the guard's access checks and before its
 * handler runs, so nothing of the request is read (its body is dropped) and nothing is changed; the
 * OpenAPI document lists the refusal ({@link GuardRefusals}). Declared on the route rather than left
 * to each handler, so no change of such a route can forget it, whichever guard identified the caller.
 *
 * @param code the refusal's code, {@code OMCP_<AREA>_GATEWAY_WIDE} as for the settings
 *     ({@code OMCP_SETTINGS_GATEWAY_WIDE})
 * @param what what the route changes and why that reaches every tenant, as the start of a sentence
 *     ("connector plugins are gateway-wide: a plugin serves the sources of every tenant")
 * @param action what such a caller may not do ("install, upgrade or remove one")
 */
public record GatewayWideChange(String code, String what, String action) {
    private static final Logger LOG = LoggerFactory.getLogger(GatewayWideChange.class);

    public GatewayWideChange {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(what, "what");
        Objects.requireNonNull(action, "action");
        if (!code.startsWith("OMCP_") || !code.endsWith("_GATEWAY_WIDE")) {
            throw new IllegalArgumentException("a gateway-wide refusal's code is OMCP_<AREA>_GATEWAY_WIDE, like "
                    + "OMCP_SETTINGS_GATEWAY_WIDE, so a client recognizes every such refusal; got " + code);
        }
        if (what.isBlank() || action.isBlank()) {
            throw new IllegalArgumentException("a gateway-wide refusal says what is gateway-wide and what may not be done");
        }
    }

    /** The refusal as the OpenAPI document describes it among a route's 403 answers. */
    public String documented() {
        return "a caller bound to a tenant: " + what + ", so only an operator without a tenant may " + action + " (" + code
                + "); nothing changed";
    }

    /** What a caller bound to {@code tenant} is told: what was refused, that nothing changed, and who may make the change. */
    String refusal(String tenant) {
        return what + ", so a caller bound to tenant '" + IdentityText.of(tenant) + "' may not " + action + "; nothing changed. "
                + "Ask an operator without a tenant (one who operates the whole gateway) to make the change";
    }

    /**
     * {@code handler}, run only for a caller without a tenant. A caller bound to one gets the 403; so does a request the
     * guard identified no caller for (a guard of an embedding service that records none): whether it is bound to a tenant
     * cannot be known, and a change that reaches every tenant is not made on a guess.
     */
    Handler guarding(ApiRoutes.Route route, Handler handler) {
        return ctx -> {
            Optional<Principal> caller = ApiCaller.principal(ctx);
            if (caller.isPresent() && caller.get().tenant().isEmpty()) {
                handler.handle(ctx);
                return;
            }
            String tenant = caller.map(Principal::tenant).orElse("");
            LOG.info("event=gateway-wide-change-refused method={} path=\"{}\" actor=\"{}\" tenant=\"{}\" code={} reason={}",
                    route.method(), LogField.of(ctx.path()), caller.map(Principal::id).map(IdentityText::of).orElse("unidentified"),
                    LogField.of(tenant), code, caller.isPresent() ? "tenant-bound" : "caller-unidentified");
            if (route.requestBody().isPresent()) {
                // read and drop what the client still sends: answering while it sends resets the connection under load,
                // and the client would see no refusal at all (a connector bundle is up to 50 MiB)
                RequestBodies.drainOrClose(ctx);
            }
            JsonResponses.error(ctx, 403, code, caller.isPresent() ? refusal(tenant) : what + ", and the gateway could not tell "
                    + "who sent this request, so it may not " + action + "; nothing changed. Ask an operator without a tenant "
                    + "(one who operates the whole gateway) to make the change");
        };
    }
}
