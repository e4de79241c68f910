package dev.omcp.adapters.http.api;

import dev.omcp.ports.access.AccessDecision;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.identity.Principal;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one shape of an access refusal on the management API: 403 {@code OMCP_PERMISSION_DENIED}
 * with {@code required} and {@code have} (spec 7.1), or 503 {@code OMCP_POLICY_UNAVAILABLE} when
 * the policy engine cannot decide (fail closed). Used by the guard for a route's declared
 * permission, and by handlers whose request needs a further permission (a settings change that
 * touches the health thresholds also needs {@code health:write}).
 */
public final class AccessRefusals {
    private AccessRefusals() {}

    /**
     * Asks {@code policy}; when the answer is not "allowed" writes the refusal and returns false.
     */
    public static boolean allowed(Context ctx, AccessPolicy policy, Principal principal, Permission permission) {
        AccessDecision decision = policy.decide(principal, permission);
        return switch (decision) {
            case AccessDecision.Allowed allowed -> true;
            case AccessDecision.Denied denied -> {
                permissionDenied(ctx, permission, denied.have());
                yield false;
            }
            case AccessDecision.Unavailable unavailable -> {
                policyUnavailable(ctx, unavailable.reason());
                yield false;
            }
        };
    }

    /** 403 {@code {code: OMCP_PERMISSION_DENIED, error, required: {resource, action}, have}} (spec 7.1). */
    public static void permissionDenied(Context ctx, Permission permission, List<Permission> have) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("code", "OMCP_PERMISSION_DENIED");
        body.put("error", "this needs the permission " + permission + ", which your roles do not grant");
        // spec 7.1 names the resource first; a LinkedHashMap keeps that order on the wire
        Map<String, String> required = new LinkedHashMap<>();
        required.put("resource", permission.resource());
        required.put("action", permission.action());
        body.put("required", required);
        body.put("have", have.stream().map(Permission::toString).toList());
        JsonResponses.json(ctx, 403, body);
    }

    /** 503 {@code OMCP_POLICY_UNAVAILABLE}: the policy engine could not decide, so nothing is allowed. */
    public static void policyUnavailable(Context ctx, String reason) {
        ctx.header("Retry-After", "5");
        JsonResponses.error(ctx, 503, "OMCP_POLICY_UNAVAILABLE", reason);
    }
}
