package dev.omcp.ports.scim;

import jakarta.json.JsonObject;
import java.util.List;

/**
 * Every provisioned SCIM resource at one moment, each as served ({@code id}, {@code meta} and the
 * attributes; spec 2.15), oldest first, and the {@code userName}s of the users the identity provider
 * deleted (tombstones, oldest first): a delete removes the record, and a later login of that name is
 * still refused until the same {@code userName} is provisioned again.
 *
 * @param users the User resources
 * @param groups the Group resources
 * @param deleted the {@code userName}s of deleted users no user holds now, oldest first
 */
public record ScimSnapshot(List<JsonObject> users, List<JsonObject> groups, List<String> deleted) {
    public ScimSnapshot {
        users = List.copyOf(users);
        groups = List.copyOf(groups);
        deleted = List.copyOf(deleted);
    }

    /** A snapshot without tombstones. */
    public ScimSnapshot(List<JsonObject> users, List<JsonObject> groups) {
        this(users, groups, List.of());
    }

    /** A directory with nothing provisioned yet. */
    public static ScimSnapshot empty() {
        return new ScimSnapshot(List.of(), List.of(), List.of());
    }
}
