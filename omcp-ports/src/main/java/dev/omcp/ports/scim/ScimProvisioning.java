package dev.omcp.ports.scim;

import jakarta.json.JsonObject;
import java.util.Optional;

/**
 * Driving port: what the identity provider asks of the directory through {@code /scim/v2} (spec 4.5).
 * Every answer is a {@link ScimOutcome}: expected refusals (a bad body, an unknown id, a taken name)
 * are values, never exceptions. Thread-safe; changes are applied one at a time.
 */
public interface ScimProvisioning {

    /** POST: creates a resource (201), or refuses it (400, 409 {@code uniqueness}). */
    ScimOutcome create(ScimResourceType type, JsonObject body);

    /** GET of one resource (200), or 404. */
    ScimOutcome get(ScimResourceType type, String id);

    /** GET of a page of a list (RFC 7644 3.4.2), filtered by {@code filter} when present (400 {@code invalidFilter}). */
    ScimOutcome list(ScimResourceType type, Optional<String> filter, int startIndex, int count);

    /** PATCH with a PatchOp body (200), or 400, 404, 409. */
    ScimOutcome patch(ScimResourceType type, String id, JsonObject body);

    /** DELETE (204), or 404. */
    ScimOutcome delete(ScimResourceType type, String id);
}
