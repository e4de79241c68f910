package dev.omcp.ports.scim;

import jakarta.json.JsonObject;
import java.util.List;

/**
 * Every provisioned SCIM resource at one moment, each as served ({@code id}, {@code meta} and the
 * attributes; spec 2.15), oldest first.
 *
 * @param users the User resources
 * @param groups the Group resources
 */
public record ScimSnapshot(List<JsonObject> users, List<JsonObject> groups) {
    public ScimSnapshot {
        users = List.copyOf(users);
        groups = List.copyOf(groups);
    }

    /** A directory with nothing provisioned yet. */
    public static ScimSnapshot empty() {
        return new ScimSnapshot(List.of(), List.of());
    }
}
