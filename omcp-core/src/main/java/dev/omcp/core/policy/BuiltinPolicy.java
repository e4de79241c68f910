package dev.omcp.core.policy;

import dev.omcp.ports.access.Permission;
import dev.omcp.ports.identity.Principal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The permission catalog and the builtin roles (spec 5.5, DECISIONS.md "Roles"): viewer reads,
 * operator also changes configuration, admin holds every permission.
 *
 * <p>Two choices the decisions leave open: viewers also read stored post-mortems (they hold every
 * other read and a post-mortem is a report over data they can already query), and operators may
 * run tools in the playground (tools are read-only and run with the operator's identity).
 *
 * <p>A route may only declare a permission of {@link #ALL}; the HTTP adapter refuses to register
 * one that is not, so every permission a route checks can be granted and shows up in
 * {@code /api/me}.
 */
public final class BuiltinPolicy {

    /** Every permission the management plane checks, grouped by resource. */
    public static final List<Permission> ALL = List.of(
            p("sources:read"), p("sources:write"), p("sources:delete"),
            p("services:read"),
            p("health:read"), p("health:write"),
            p("topology:read"),
            p("settings:read"), p("settings:write"),
            p("connectors:read"), p("connectors:write"), p("connectors:delete"),
            p("audit:read"),
            p("catalog:read"),
            p("products:read"), p("products:write"), p("products:delete"),
            p("inspection:read"), p("inspection:write"),
            p("postmortems:read"), p("postmortems:write"), p("postmortems:delete"),
            p("playground:invoke"),
            p("policy:read"),
            p("users:read"), p("users:write"), p("users:delete"),
            p("redaction:bypass"));

    private static final Map<String, List<String>> ROLES = roles();

    private BuiltinPolicy() {}

    private static Map<String, List<String>> roles() {
        List<String> viewer = new ArrayList<>();
        for (String resource : List.of("sources", "services", "health", "topology", "settings", "connectors", "audit",
                "catalog", "products", "inspection", "postmortems")) {
            viewer.add(resource + ":read");
        }
        List<String> operator = new ArrayList<>(viewer);
        operator.addAll(List.of("sources:write", "health:write", "settings:write", "products:write",
                "postmortems:write", "playground:invoke"));
        Map<String, List<String>> roles = new LinkedHashMap<>();
        roles.put("viewer", List.copyOf(viewer));
        roles.put("operator", List.copyOf(operator));
        roles.put("admin", List.of("*"));
        return java.util.Collections.unmodifiableMap(roles);
    }

    /** Role name to permissions as written ({@code *} for admin), least privileged first. */
    public static Map<String, List<String>> roleTable() {
        return ROLES;
    }

    /** The role names, least privileged first. */
    public static List<String> roleNames() {
        return List.copyOf(ROLES.keySet());
    }

    /** The permissions of one builtin role; empty for an unknown role. */
    public static Set<Permission> permissionsOf(String role) {
        List<String> written = ROLES.get(role);
        if (written == null) {
            return Set.of();
        }
        if (written.contains("*")) {
            return new LinkedHashSet<>(ALL);
        }
        Set<Permission> permissions = new LinkedHashSet<>();
        written.forEach(text -> permissions.add(Permission.parse(text)));
        return permissions;
    }

    /**
     * What {@code principal} may do under the builtin roles: everything when anonymous (spec 1.6,
     * the single-user default), else the union of its roles, in catalog order.
     */
    public static List<Permission> permissionsOf(Principal principal) {
        return RolePolicy.builtin().permissionsOf(principal);
    }

    private static Permission p(String text) {
        return Permission.parse(text);
    }
}
