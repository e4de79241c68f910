package dev.omcp.ports.access;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A custom role policy as read from {@code OMCP_RBAC_POLICY_FILE}, before its permissions are
 * checked against the catalog.
 *
 * @param roles role name to permission strings ({@code resource:action}, {@code resource:*} or
 *     {@code *}), in file order
 */
public record PolicyDocument(Map<String, List<String>> roles) {
    public PolicyDocument {
        Map<String, List<String>> copy = new LinkedHashMap<>();
        roles.forEach((role, permissions) -> copy.put(role, List.copyOf(permissions)));
        roles = java.util.Collections.unmodifiableMap(copy);
    }
}
