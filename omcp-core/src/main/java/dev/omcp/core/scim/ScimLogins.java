package dev.omcp.core.scim;

import dev.omcp.ports.auth.ProvisionedLogins;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What the SCIM directory says of a login (spec 5.6, docs/scim.md): a person whose {@code userName}
 * the identity provider deactivated or deleted is refused, and the roles that
 * {@code OMCP_SCIM_GROUP_ROLE_MAP} gives the person's groups are added to the roles of the login.
 * Names ({@code userName}, group display names) compare case-insensitively, as SCIM's uniqueness does.
 */
public final class ScimLogins implements ProvisionedLogins {
    private final ScimDirectory directory;
    private final Map<String, String> roleOfGroup;

    /**
     * @param groupRoles group display name to role ({@code OMCP_SCIM_GROUP_ROLE_MAP}); any case
     */
    public ScimLogins(ScimDirectory directory, Map<String, String> groupRoles) {
        this.directory = Objects.requireNonNull(directory, "directory");
        Map<String, String> lowered = new java.util.HashMap<>();
        groupRoles.forEach((group, role) -> lowered.put(group.toLowerCase(Locale.ROOT), role));
        this.roleOfGroup = Map.copyOf(lowered);
    }

    /** Whether the group of this display name grants a role: taking a member out of it must end the member's sessions. */
    public static boolean grantsRoles(Map<String, String> groupRoles, String group) {
        return groupRoles.keySet().stream().anyMatch(name -> name.equalsIgnoreCase(group));
    }

    @Override
    public Optional<String> refusal(Collection<String> names) {
        for (String name : names) {
            Optional<String> how = directory.deprovisioned(name);
            if (how.isPresent()) {
                return Optional.of("the identity provider " + how.get() + " the SCIM user " + name);
            }
        }
        return Optional.empty();
    }

    @Override
    public List<String> groupRoles(Collection<String> names) {
        if (roleOfGroup.isEmpty()) {
            return List.of();
        }
        Set<String> roles = new LinkedHashSet<>();
        for (String name : names) {
            for (String group : directory.groupsOf(name)) {
                String role = roleOfGroup.get(group.toLowerCase(Locale.ROOT));
                if (role != null) {
                    roles.add(role);
                }
            }
        }
        return List.copyOf(roles);
    }
}
