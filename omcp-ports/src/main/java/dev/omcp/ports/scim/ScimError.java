package dev.omcp.ports.scim;

import java.util.Objects;

/**
 * A refusal in the SCIM error shape (RFC 7644 3.12).
 *
 * @param status the HTTP status
 * @param scimType the RFC 7644 error type ({@code invalidFilter}, {@code uniqueness}, ...), or empty
 * @param detail what was wrong and what to send instead; never echoes a whole body
 */
public record ScimError(int status, String scimType, String detail) {
    /** The schema URN of an error body. */
    public static final String SCHEMA = "urn:ietf:params:scim:api:messages:2.0:Error";

    public ScimError {
        Objects.requireNonNull(scimType, "scimType");
        Objects.requireNonNull(detail, "detail");
    }

    public static ScimError invalidSyntax(String detail) {
        return new ScimError(400, "invalidSyntax", detail);
    }

    public static ScimError invalidValue(String detail) {
        return new ScimError(400, "invalidValue", detail);
    }

    public static ScimError invalidPath(String detail) {
        return new ScimError(400, "invalidPath", detail);
    }

    public static ScimError notFound(ScimResourceType type, String id) {
        return new ScimError(404, "", type.resourceName() + " " + id + " not found");
    }

    /** 503: the directory's store cannot be used now; nothing was changed, and the identity provider retries. */
    public static ScimError unavailable(String detail) {
        return new ScimError(503, "", detail);
    }
}
