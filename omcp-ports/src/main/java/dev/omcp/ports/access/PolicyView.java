package dev.omcp.ports.access;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@code GET /api/policy} shows (spec 4.3).
 *
 * @param policy role name to its permissions ({@code resource:action}, wildcards as written)
 * @param roles role names, in the policy's order
 * @param note where the policy comes from and how it is applied
 */
public record PolicyView(Map<String, List<String>> policy, List<String> roles, String note) {
    public PolicyView {
        Map<String, List<String>> copy = new LinkedHashMap<>();
        policy.forEach((role, permissions) -> copy.put(role, List.copyOf(permissions)));
        policy = java.util.Collections.unmodifiableMap(copy);
        roles = List.copyOf(roles);
        Objects.requireNonNull(note, "note");
    }
}
