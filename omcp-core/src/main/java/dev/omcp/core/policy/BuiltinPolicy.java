package dev.omcp.core.policy;

import dev.omcp.ports.access.Permission;
import dev.omcp.ports.identity.Principal;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The builtin roles and what they may do (spec 5.5, DECISIONS "Roles"): viewer reads, operator
 * also changes configuration, admin holds every permission.
 */
public final class BuiltinPolicy {

    /** Every permission the management plane checks. */
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

    private static final Map<String, Set<Permission>> ROLES = roles();

    private BuiltinPolicy() {}

    private static Map<String, Set<Permission>> roles() {
        Set<Permission> viewer = new LinkedHashSet<>();
        for (String resource : List.of("sources", "services", "health", "topology", "settings", "connectors", "audit",
                "catalog", "products", "inspection", "postmortems")) {
            viewer.add(new Permission(resource, "read"));
        }
        Set<Permission> operator = new LinkedHashSet<>(viewer);
        operator.addAll(List.of(p("sources:write"), p("health:write"), p("settings:write"), p("products:write"),
                p("postmortems:write"), p("playground:invoke")));
        Set<Permission> admin = new LinkedHashSet<>(ALL);
        Map<String, Set<Permission>> roles = new LinkedHashMap<>();
        roles.put("viewer", Set.copyOf(viewer));
        roles.put("operator", Set.copyOf(operator));
        roles.put("admin", Set.copyOf(admin));
        return Map.copyOf(roles);
    }

    /** The role names, least privileged first. */
    public static List<String> roleNames() {
        return List.of("viewer", "operator", "admin");
    }

    /** The permissions of one role; empty for an unknown role. */
    public static Set<Permission> permissionsOf(String role) {
        return ROLES.getOrDefault(role, Set.of());
    }

    /**
     * What {@code principal} may do: everything in anonymous mode (spec 1.6, the single-user
     * default), else the union of its roles.
     */
    public static List<Permission> permissionsOf(Principal principal) {
        if (principal.isAnonymous()) {
            return ALL;
        }
        Set<Permission> granted = new LinkedHashSet<>();
        for (Permission permission : ALL) {
            for (String role : principal.roles()) {
                if (permissionsOf(role).contains(permission)) {
                    granted.add(permission);
                }
            }
        }
        return List.copyOf(granted);
    }

    private static Permission p(String text) {
        return Permission.parse(text);
    }
}
