package dev.omcp.adapters.http.access;

import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.JsonResponses;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.access.PolicyView;
import io.javalin.http.HandlerType;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code GET /api/policy} (spec 4.3): the role table, the roles and a note, for admins. */
public final class PolicyRoutes {
    private final AccessPolicy policy;

    public PolicyRoutes(AccessPolicy policy) {
        this.policy = policy;
    }

    /** Registers the route. */
    public void register(ApiRoutes routes) {
        routes.route(HandlerType.GET, "/api/policy").tag("access").permission("policy", "read").queryParameters()
                .summary("The access policy: role to permissions, the role names and where the policy comes from")
                .response(200, "{policy, roles, note}")
                .handle(ctx -> {
                    PolicyView view = policy.view();
                    Map<String, Object> body = new LinkedHashMap<>();
                    body.put("policy", view.policy());
                    body.put("roles", view.roles());
                    body.put("note", view.note());
                    body.put("permissions", policy.catalog().stream().map(Object::toString).toList());
                    JsonResponses.json(ctx, 200, body);
                });
    }
}
