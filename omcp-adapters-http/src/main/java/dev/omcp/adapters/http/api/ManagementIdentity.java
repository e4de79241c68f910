package dev.omcp.adapters.http.api;

import dev.omcp.ports.identity.Principal;
import io.javalin.http.Context;
import java.util.Optional;

/**
 * Decides who is calling a management route. Anonymous mode answers the anonymous principal for
 * every request; login modes read the session cookie.
 */
@FunctionalInterface
public interface ManagementIdentity {

    /** The caller, or empty when the request carries no valid session. */
    Optional<Principal> resolve(Context ctx);

    /** The authentication mode, as the 401 body names it: {@code anonymous}, {@code basic} or {@code oidc}. */
    default String mode() {
        return "anonymous";
    }

    /**
     * The {@code error} of a 401 without a session in {@code mode}: it says where to sign in, so a script or a
     * UI that meets it first (often at {@code /api/me}) knows the next step.
     */
    static String noSessionError(String mode) {
        return "oidc".equals(mode)
                ? "no valid session: sign in at GET /api/auth/oidc/login"
                : "no valid session: log in with POST /api/auth/login";
    }

    /** Anonymous mode: everyone is the anonymous principal (spec 5.1). */
    static ManagementIdentity anonymous() {
        return ctx -> Optional.of(Principal.anonymous());
    }
}
