package dev.omcp.adapters.http.settings;

import dev.omcp.adapters.http.api.AccessRefusals;
import dev.omcp.adapters.http.api.ApiCaller;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.BodyRefusal;
import dev.omcp.adapters.http.api.BodySchema;
import dev.omcp.adapters.http.api.EntityTags;
import dev.omcp.adapters.http.api.JsonpExchange;
import dev.omcp.adapters.http.server.HttpModule;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.settings.ManageSettings;
import dev.omcp.sdk.json.Jsonp;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code GET /api/settings} ({@code settings:read}) and {@code PUT /api/settings}
 * ({@code settings:write}). The view shows the settings operators may see (never a secret, URL or
 * path); a change names only keys of its {@code changeable} part, today {@code healthThresholds},
 * which also needs {@code health:write} so that a custom policy cannot reach the thresholds through
 * the settings page without it.
 */
public final class SettingsRoutes implements HttpModule {
    private static final Permission HEALTH_WRITE = new Permission("health", "write");
    private static final String INVALID_SETTINGS = "OMCP_INVALID_SETTINGS";

    private final ManageSettings settings;
    private final AccessPolicy policy;

    public SettingsRoutes(ManageSettings settings, AccessPolicy policy) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.policy = Objects.requireNonNull(policy, "policy");
    }

    /** The body of {@code PUT /api/settings}: members of {@code changeable}, of which there is one. */
    private static final Map<String, Object> CHANGE_BODY = BodySchema.object("the changeable settings to change; a fixed or "
                    + "unknown one is refused")
            .property(ManageSettings.HEALTH_THRESHOLDS, ThresholdsSchema.SIGNALS)
            .keyword("minProperties", 1)
            .build();

    @Override
    public void register(ApiRoutes routes) {
        routes.route(HandlerType.GET, "/api/settings").permission("settings", "read").tag("settings").queryParameters()
                .summary("The settings: changeable (at run time), fixed (by the environment at start) and whether changes "
                        + "persist; never secrets, URLs or paths; needs settings:read")
                .response(200, "{changeable, fixed, persisted, note}; the ETag header is the version of changeable, for If-Match "
                        + "on PUT")
                .handle(this::view);
        routes.route(HandlerType.PUT, "/api/settings").permission("settings", "write").tag("settings").queryParameters()
                .jsonBody(CHANGE_BODY)
                .summary("Changes run-time settings: a body with keys of 'changeable' (healthThresholds, which also needs "
                        + "health:write); nothing changes unless all are valid; with If-Match only on that version of changeable "
                        + "(the ETag of GET); needs settings:write")
                .response(200, "{changeable, changed, persisted}")
                .response(400, "unknown, fixed or invalid settings, every violation listed, or an If-Match that is not a list "
                        + "of entity tags (OMCP_INVALID_SETTINGS)")
                .response(412, "If-Match names a version of changeable no longer in force; nothing changed; the ETag header is "
                        + "the version in force (OMCP_PRECONDITION_FAILED)")
                .response(403, "no settings:write, a key that needs a further permission, or a caller bound to a "
                        + "tenant: the settings are gateway-wide (OMCP_SETTINGS_GATEWAY_WIDE); nothing changed")
                .response(503, "valid, but the sources file could not be written; nothing changed (OMCP_SETTINGS_NOT_PERSISTED)")
                .handle(this::change);
    }

    private void view(Context ctx) {
        JsonObject view = settings.view(ApiCaller.principal(ctx).orElseThrow());
        EntityTags.send(ctx, ManageSettings.versionOf(view.getJsonObject("changeable")));
        JsonpExchange.write(ctx, 200, view);
    }

    private void change(Context ctx) throws IOException {
        EntityTags.IfMatch ifMatch = EntityTags.ifMatch(ctx);
        if (ifMatch instanceof EntityTags.IfMatch.Malformed malformed) {
            SettingsAnswers.malformedIfMatch(ctx, INVALID_SETTINGS, malformed);
            return;
        }
        Optional<JsonObject> body = JsonpExchange.object(ctx, BodyRefusal.COMMON, INVALID_SETTINGS);
        if (body.isEmpty()) {
            return;
        }
        Principal caller = ApiCaller.principal(ctx).orElseThrow();
        if (body.get().containsKey(ManageSettings.HEALTH_THRESHOLDS) && !AccessRefusals.allowed(ctx, policy, caller, HEALTH_WRITE)) {
            return;
        }
        SettingsAnswers.answer(ctx, settings.change(body.get(), caller, ifMatch.required()), INVALID_SETTINGS, "GET /api/settings",
                applied -> Jsonp.object().add("changeable", applied.current()));
    }
}
