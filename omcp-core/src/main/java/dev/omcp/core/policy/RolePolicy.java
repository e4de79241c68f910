package dev.omcp.core.policy;

import dev.omcp.ports.access.AccessDecision;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.access.PolicyDocument;
import dev.omcp.ports.access.PolicyView;
import dev.omcp.ports.identity.Principal;
import dev.omcp.sdk.text.BackendText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Role-based access: a principal holds the union of the permissions of its roles (spec 5.5). The
 * anonymous principal of anonymous mode holds every permission (spec 5.1: every request is
 * accepted). Permissions may be written {@code resource:action}, {@code resource:*} or {@code *}.
 */
public final class RolePolicy implements AccessPolicy {
    private static final Pattern ROLE_NAME = Pattern.compile("[a-z][a-z0-9_-]{0,63}");
    private static final RolePolicy BUILTIN = new RolePolicy(
            BuiltinPolicy.roleTable(), BuiltinPolicy.ALL,
            "Builtin roles: viewer reads, operator also changes sources, health thresholds, settings, products "
                    + "and post-mortems, admin holds every permission. Set OMCP_RBAC_POLICY_FILE for custom roles.");

    private final Map<String, List<String>> written;
    private final Map<String, Set<Permission>> granted;
    private final List<Permission> catalog;
    private final String note;

    private RolePolicy(Map<String, List<String>> written, List<Permission> catalog, String note) {
        this.written = written;
        this.catalog = List.copyOf(catalog);
        this.note = note;
        Map<String, Set<Permission>> expanded = new LinkedHashMap<>();
        written.forEach((role, permissions) -> expanded.put(role, expand(permissions, this.catalog)));
        this.granted = expanded;
    }

    /** The builtin viewer / operator / admin policy. */
    public static RolePolicy builtin() {
        return BUILTIN;
    }

    /**
     * A custom policy, checked strictly against {@code catalog}: role names are lower case, every
     * permission names a resource and action of the catalog (or a wildcard), at least one role.
     *
     * @throws InvalidPolicyException listing every problem
     */
    public static RolePolicy fromDocument(PolicyDocument document, List<Permission> catalog, String source)
            throws InvalidPolicyException {
        List<String> problems = new ArrayList<>();
        if (document.roles().isEmpty()) {
            problems.add("it defines no roles; define at least one under 'roles:'");
        }
        Set<String> resources = new LinkedHashSet<>();
        catalog.forEach(permission -> resources.add(permission.resource()));
        document.roles().forEach((role, permissions) -> {
            if (!ROLE_NAME.matcher(role).matches()) {
                problems.add("role '" + shown(role) + "': names are 1-64 of a-z, 0-9, '_', '-' starting with a letter");
            }
            for (String text : permissions) {
                String problem = permissionProblem(text, catalog, resources);
                if (problem != null) {
                    problems.add("role '" + shown(role) + "': " + problem);
                }
            }
        });
        if (!problems.isEmpty()) {
            throw new InvalidPolicyException(problems);
        }
        return new RolePolicy(document.roles(), catalog,
                "Custom roles from " + source + "; a principal holds the union of its roles' permissions.");
    }

    private static String permissionProblem(String text, List<Permission> catalog, Set<String> resources) {
        if (text.equals("*") || text.equals("*:*")) {
            return null;
        }
        Permission permission;
        try {
            permission = Permission.parse(text);
        } catch (IllegalArgumentException e) {
            return "'" + shown(text) + "' is not resource:action, resource:* or *";
        }
        if (!resources.contains(permission.resource())) {
            return "'" + shown(text) + "' names the unknown resource '" + shown(permission.resource()) + "'; known resources: "
                    + String.join(", ", resources);
        }
        if (!permission.action().equals("*") && !catalog.contains(permission)) {
            List<String> actions = catalog.stream()
                    .filter(p -> p.resource().equals(permission.resource())).map(Permission::action).toList();
            return "'" + shown(text) + "' names an action '" + permission.resource() + "' does not have; its actions: "
                    + String.join(", ", actions);
        }
        return null;
    }

    /** A role name or permission as a message quotes it: YAML escapes can put control characters in either. */
    private static String shown(String text) {
        return BackendText.quoted(text, 64);
    }

    private static Set<Permission> expand(List<String> written, List<Permission> catalog) {
        Set<Permission> permissions = new LinkedHashSet<>();
        for (String text : written) {
            if (text.equals("*") || text.equals("*:*")) {
                permissions.addAll(catalog);
                continue;
            }
            Permission pattern = Permission.parse(text);
            for (Permission permission : catalog) {
                if (permission.resource().equals(pattern.resource())
                        && (pattern.action().equals("*") || permission.action().equals(pattern.action()))) {
                    permissions.add(permission);
                }
            }
        }
        return permissions;
    }

    /** The role names this policy defines. */
    public Set<String> roleNames() {
        return written.keySet();
    }

    /** The roles that grant {@code permission}, by a wildcard too, in the order the policy names them. */
    public List<String> rolesGranting(Permission permission) {
        Objects.requireNonNull(permission, "permission");
        return granted.entrySet().stream().filter(role -> role.getValue().contains(permission)).map(Map.Entry::getKey).toList();
    }

    @Override
    public AccessDecision decide(Principal principal, Permission permission) {
        Objects.requireNonNull(permission, "permission");
        if (principal.isAnonymous()) {
            return new AccessDecision.Allowed();
        }
        for (String role : principal.roles()) {
            if (granted.getOrDefault(role, Set.of()).contains(permission)) {
                return new AccessDecision.Allowed();
            }
        }
        return new AccessDecision.Denied(permission, permissionsOf(principal));
    }

    @Override
    public List<Permission> permissionsOf(Principal principal) {
        if (principal.isAnonymous()) {
            return catalog;
        }
        List<Permission> held = new ArrayList<>();
        for (Permission permission : catalog) {
            for (String role : principal.roles()) {
                if (granted.getOrDefault(role, Set.of()).contains(permission)) {
                    held.add(permission);
                    break;
                }
            }
        }
        return held;
    }

    @Override
    public List<Permission> catalog() {
        return catalog;
    }

    @Override
    public PolicyView view() {
        return new PolicyView(written, List.copyOf(written.keySet()), note);
    }
}
