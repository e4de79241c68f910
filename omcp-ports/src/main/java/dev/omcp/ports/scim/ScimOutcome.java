package dev.omcp.ports.scim;

import jakarta.json.JsonObject;
import java.util.Optional;

/** What a SCIM request did: a status and the body to answer, or a refusal. */
public sealed interface ScimOutcome {
    /**
     * Done.
     *
     * @param status 200, 201 or 204
     * @param body the resource or list answered; empty for 204
     * @param id the id of the resource acted on; empty for a list
     */
    record Done(int status, Optional<JsonObject> body, Optional<String> id) implements ScimOutcome {}

    /** Refused, nothing changed. */
    record Refused(ScimError error) implements ScimOutcome {}
}
