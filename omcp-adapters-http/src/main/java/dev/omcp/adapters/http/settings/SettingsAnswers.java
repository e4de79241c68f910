package dev.omcp.adapters.http.settings;

import dev.omcp.adapters.http.api.EntityTags;
import dev.omcp.adapters.http.api.JsonpExchange;
import dev.omcp.ports.settings.ManageSettings;
import dev.omcp.ports.settings.SettingsChange;
import dev.omcp.sdk.json.Jsonp;
import io.javalin.http.Context;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.List;
import java.util.function.Function;

/**
 * Answers a settings change: 200 with what is in force now and its {@code ETag}, 400 with every
 * violation, 412 {@code OMCP_PRECONDITION_FAILED} when {@code If-Match} named a version no longer in
 * force, or 503 {@code OMCP_SETTINGS_NOT_PERSISTED} when valid values could not be written where they
 * persist, or 403 {@code OMCP_SETTINGS_GATEWAY_WIDE} when a caller bound to a tenant asked to change
 * them (nothing changed but the 200; the reason says what failed).
 */
public final class SettingsAnswers {
    /** The code of a 503: the change was valid but could not be written, so nothing changed. */
    public static final String NOT_PERSISTED = "OMCP_SETTINGS_NOT_PERSISTED";
    /** The code of a 403: the settings are gateway-wide and the caller is bound to a tenant; nothing changed. */
    public static final String TENANT_BOUND = "OMCP_SETTINGS_GATEWAY_WIDE";
    private SettingsAnswers() {}

    /** The 400 of an {@code If-Match} that is not a list of entity tags; nothing was asked of the core. */
    public static void malformedIfMatch(Context ctx, String invalidCode, EntityTags.IfMatch.Malformed malformed) {
        JsonpExchange.invalid(ctx, invalidCode, List.of(malformed.problem()));
    }

    /**
     * @param invalidCode the {@code code} of a 400
     * @param readAgain the route that reads the value again, for the 412's advice
     * @param body the start of a 200 body, given what was applied; {@code changed} and
     *     {@code persisted} are added
     */
    public static void answer(Context ctx, SettingsChange change, String invalidCode, String readAgain,
            Function<SettingsChange.Applied, JsonObjectBuilder> body) {
        switch (change) {
            case SettingsChange.Invalid invalid -> JsonpExchange.invalid(ctx, invalidCode, invalid.errors());
            case SettingsChange.TenantBound bound -> JsonpExchange.error(ctx, 403, TENANT_BOUND, bound.reason(),
                    JsonValue.EMPTY_JSON_OBJECT);
            case SettingsChange.NotSaved notSaved -> JsonpExchange.error(ctx, 503, NOT_PERSISTED, notSaved.reason(),
                    JsonValue.EMPTY_JSON_OBJECT);
            case SettingsChange.Stale stale -> {
                EntityTags.send(ctx, stale.currentVersion());
                JsonpExchange.error(ctx, 412, EntityTags.PRECONDITION_FAILED, "changed by someone else since the version in "
                        + "If-Match was read, so nothing changed; " + readAgain + " again, make your change on what it answers "
                        + "and send it with its ETag", JsonValue.EMPTY_JSON_OBJECT);
            }
            case SettingsChange.Applied applied -> {
                EntityTags.send(ctx, ManageSettings.versionOf(applied.current()));
                JsonArrayBuilder changed = Jsonp.array();
                applied.changed().forEach(changed::add);
                JsonpExchange.write(ctx, 200, body.apply(applied).add("changed", changed).add("persisted", applied.persisted()).build());
            }
        }
    }
}
