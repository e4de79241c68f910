package dev.omcp.adapters.http.connectors;

import dev.omcp.adapters.http.api.BodySchema;
import dev.omcp.adapters.http.api.JsonpExchange;
import io.javalin.http.Context;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The body of {@code POST /api/connectors/install}: {@code {name, version?}}, read by the management
 * API's body rules like every other route (415 when not JSON, 413 over 1 MiB, 400
 * {@code OMCP_INVALID_BODY} for invalid JSON, duplicate keys, an unknown field or a bad value), so a
 * body that is not plainly this request never starts an install.
 *
 * @param name the connector, as the catalog names it
 * @param version an exact version, or empty for the catalog's latest
 */
record InstallRequest(String name, Optional<String> version) {
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
    private static final Pattern VERSION = Pattern.compile("[0-9A-Za-z.+-]{1,64}");
    /** The body {@link #read} takes, for the OpenAPI document. */
    static final Map<String, Object> SCHEMA = BodySchema.object("the hub catalog's connector to install")
            .requiredProperty("name", BodySchema.string("the connector's name in the catalog", NAME))
            .property("version", BodySchema.string("an exact version of the catalog; left out: the latest", VERSION))
            .build();
    private static final Set<String> FIELDS = Set.of("name", "version");

    /** The request, or empty after answering why the body is not one. */
    static Optional<InstallRequest> read(Context ctx) throws IOException {
        Optional<JsonObject> body = JsonpExchange.object(ctx);
        if (body.isEmpty() || !JsonpExchange.onlyFields(ctx, body.get(), FIELDS)) {
            return Optional.empty();
        }
        JsonValue version = body.get().getOrDefault("version", JsonValue.NULL);
        if (!(body.get().get("name") instanceof JsonString name) || !NAME.matcher(name.getString()).matches()
                || (version != JsonValue.NULL
                        && !(version instanceof JsonString text && VERSION.matcher(text.getString()).matches()))) {
            JsonpExchange.invalid(ctx, List.of("the body must be {\"name\": \"<connector>\", \"version\": \"<optional exact version>\"}, "
                    + "for example {\"name\": \"tempo\"}"));
            return Optional.empty();
        }
        return Optional.of(new InstallRequest(name.getString(),
                version instanceof JsonString text ? Optional.of(text.getString()) : Optional.empty()));
    }
}
