package dev.omcp.adapters.http.oidc;

import dev.omcp.adapters.http.api.BodySchema;
import dev.omcp.adapters.http.api.JsonpExchange;
import dev.omcp.ports.auth.ClientMetadata;
import io.javalin.http.Context;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The body of {@code POST /api/auth/oidc/register}: RFC 7591 client metadata, read by the
 * management API's body rules (415 when not {@code application/json}, which section 3.1 requires of
 * the client; 413 over 1 MiB; 400 for invalid JSON, duplicate keys or nesting over 64), answered in
 * the RFC's error shape ({@link ClientRegistrationErrors}).
 *
 * <p>Unlike the management API's own bodies, members this gateway does not use are ignored, not
 * refused: section 2 says the server MUST ignore client metadata it does not understand, and
 * clients send {@code logo_uri}, {@code client_uri}, {@code contacts} and more.
 */
final class ClientRegistrationRequest {
    private static final int MAX_LIST = 32;
    /** The metadata {@link #read} takes, for the OpenAPI document; the registrar judges the values (redirect URIs, ...). */
    static final Map<String, Object> SCHEMA = BodySchema.object("RFC 7591 client metadata; a member left out or null is empty")
            .property("redirect_uris", nullable(BodySchema.strings("where the provider may send the browser back", MAX_LIST)))
            .property("grant_types", nullable(BodySchema.strings("the OAuth grant types the client uses", MAX_LIST)))
            .property("response_types", nullable(BodySchema.strings("the OAuth response types the client uses", MAX_LIST)))
            .property("client_name", nullable(BodySchema.string("a name for people")))
            .property("token_endpoint_auth_method", nullable(BodySchema.string("how the client authenticates at the token endpoint")))
            .property("scope", nullable(BodySchema.string("the scopes the client asks for, separated by spaces")))
            .otherMembers("metadata this gateway does not use is ignored, as RFC 7591 section 2 requires (logo_uri, contacts, ...)")
            .build();

    private ClientRegistrationRequest() {}

    /** The metadata, or empty after answering why the body is not client metadata. */
    static Optional<ClientMetadata> read(Context ctx) throws IOException {
        Optional<JsonObject> read = JsonpExchange.objectWithNulls(ctx, ClientRegistrationErrors.BODY);
        if (read.isEmpty()) {
            return Optional.empty();
        }
        JsonObject body = read.get();
        Optional<List<String>> redirects = strings(body.get("redirect_uris"));
        Optional<List<String>> grants = strings(body.get("grant_types"));
        Optional<List<String>> responses = strings(body.get("response_types"));
        Optional<String> name = optionalText(body, "client_name");
        Optional<String> authMethod = optionalText(body, "token_endpoint_auth_method");
        Optional<String> scope = optionalText(body, "scope");
        if (redirects.isEmpty() || grants.isEmpty() || responses.isEmpty() || name.isEmpty() || authMethod.isEmpty()
                || scope.isEmpty()) {
            ClientRegistrationErrors.answer(ctx, 400, ClientRegistrationErrors.REJECTED, "invalid_client_metadata",
                    "redirect_uris, grant_types and response_types must be arrays of at most " + MAX_LIST
                            + " strings; client_name, scope and token_endpoint_auth_method strings");
            return Optional.empty();
        }
        return Optional.of(new ClientMetadata(redirects.get(), name.get(), authMethod.get(), grants.get(), responses.get(),
                scope.get()));
    }

    private static Map<String, Object> nullable(Map<String, Object> schema) {
        return Map.of("description", schema.get("description"), "anyOf", List.of(schema, Map.of("type", "null")));
    }

    /** A list of strings; absent or {@code null} is an empty list, anything else but strings is empty. */
    private static Optional<List<String>> strings(JsonValue value) {
        if (value == null || value == JsonValue.NULL) {
            return Optional.of(List.of());
        }
        if (!(value instanceof JsonArray array) || array.size() > MAX_LIST) {
            return Optional.empty();
        }
        List<String> values = new ArrayList<>();
        for (JsonValue item : array) {
            if (!(item instanceof JsonString text)) {
                return Optional.empty();
            }
            values.add(text.getString());
        }
        return Optional.of(values);
    }

    /** A string member; absent or {@code null} is "", anything but a string is empty. */
    private static Optional<String> optionalText(JsonObject body, String name) {
        JsonValue value = body.get(name);
        if (value == null || value == JsonValue.NULL) {
            return Optional.of("");
        }
        return value instanceof JsonString text ? Optional.of(text.getString()) : Optional.empty();
    }
}
