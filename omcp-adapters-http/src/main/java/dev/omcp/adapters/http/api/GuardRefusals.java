package dev.omcp.adapters.http.api;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The refusals the management guard answers for a route before its handler runs (no session, no
 * CSRF token, no permission, no policy decision, no audit trail), and the route's own refusal of a
 * caller bound to a tenant when it changes something every tenant shares, by status: what a client generated
 * from the OpenAPI document must be ready for on that route, whichever handler serves it.
 */
final class GuardRefusals {
    private GuardRefusals() {
    }

    /** Status to description, in status order; empty for a public route that changes nothing. */
    static Map<Integer, String> of(ApiRoutes.Route route) {
        Map<Integer, String> refusals = new LinkedHashMap<>();
        if (!route.publicRoute()) {
            refusals.put(401, "no valid session, in basic or oidc mode (OMCP_AUTH_REQUIRED)");
        }
        List<String> forbidden = new ArrayList<>();
        if (route.mutating() && !route.csrfExempt()) {
            forbidden.add("a change without its session's CSRF token in X-CSRF-Token (OMCP_CSRF_MISMATCH)");
        }
        if (route.permission() != null) {
            forbidden.add("the caller lacks " + route.permission() + " (OMCP_PERMISSION_DENIED)");
        }
        route.gatewayWide().ifPresent(change -> forbidden.add(change.documented()));
        if (!forbidden.isEmpty()) {
            refusals.put(403, String.join("; or ", forbidden));
        }
        List<String> unavailable = new ArrayList<>();
        if (!route.publicRoute()) {
            unavailable.add("the store the replicas share for sessions cannot be used; retry after Retry-After seconds "
                    + "(OMCP_SHARED_STATE_UNAVAILABLE)");
        }
        if (route.permission() != null) {
            unavailable.add("the policy engine could not decide (OMCP_POLICY_UNAVAILABLE)");
        }
        if (route.mutating() && route.reportsToAudit()) {
            unavailable.add("the audit log cannot record changes, so nothing was changed (OMCP_AUDIT_UNAVAILABLE)");
        }
        if (!unavailable.isEmpty()) {
            refusals.put(503, String.join("; or ", unavailable));
        }
        return refusals;
    }
}
