package dev.omcp.ports.scim;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The two resource types served (spec 2.15) and the attributes each accepts: any other attribute
 * in a body is dropped, and a PatchOp path naming another one is skipped (spec 4.5).
 */
public enum ScimResourceType {
    USER("User", "Users", "urn:ietf:params:scim:schemas:core:2.0:User", "userName",
            List.of("userName", "displayName", "externalId", "active", "emails"), Set.of("emails"),
            List.of("userName", "displayName", "externalId")),
    GROUP("Group", "Groups", "urn:ietf:params:scim:schemas:core:2.0:Group", "displayName",
            List.of("displayName", "externalId", "members"), Set.of("members"),
            List.of("displayName", "externalId"));

    private final String resourceName;
    private final String endpoint;
    private final String schema;
    private final String uniqueAttribute;
    private final List<String> attributes;
    private final Set<String> multiValued;
    private final List<String> filterable;

    ScimResourceType(String resourceName, String endpoint, String schema, String uniqueAttribute, List<String> attributes,
            Set<String> multiValued, List<String> filterable) {
        this.resourceName = resourceName;
        this.endpoint = endpoint;
        this.schema = schema;
        this.uniqueAttribute = uniqueAttribute;
        this.attributes = attributes;
        this.multiValued = multiValued;
        this.filterable = filterable;
    }

    /** {@code User} or {@code Group}, as {@code meta.resourceType} and audit actions name it. */
    public String resourceName() {
        return resourceName;
    }

    /** {@code Users} or {@code Groups}: the path segment under {@code /scim/v2}. */
    public String endpoint() {
        return endpoint;
    }

    /** The core schema URN. */
    public String schema() {
        return schema;
    }

    /** The required attribute no two resources of this type may share (case-insensitive). */
    public String uniqueAttribute() {
        return uniqueAttribute;
    }

    /** The attributes accepted, in the order they are served. */
    public List<String> attributes() {
        return attributes;
    }

    /** The attributes a {@code filter} may name with {@code eq}. */
    public List<String> filterable() {
        return filterable;
    }

    public boolean multiValued(String attribute) {
        return multiValued.contains(attribute);
    }

    /** The accepted attribute {@code name} denotes, compared case-insensitively (RFC 7643 2.1), or empty. */
    public Optional<String> attribute(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        // a fully qualified name (urn:...:User:userName) names the same attribute
        String bare = lower.startsWith(schema.toLowerCase(Locale.ROOT) + ":") ? lower.substring(schema.length() + 1) : lower;
        return attributes.stream().filter(a -> a.toLowerCase(Locale.ROOT).equals(bare)).findFirst();
    }
}
