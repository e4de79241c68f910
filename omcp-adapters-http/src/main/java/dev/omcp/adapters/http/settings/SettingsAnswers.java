package dev.omcp.adapters.http.settings;

import dev.omcp.adapters.http.api.JsonpExchange;
import dev.omcp.ports.settings.SettingsChange;
import dev.omcp.sdk.json.Jsonp;
import io.javalin.http.Context;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.util.function.Function;

/**
 * Answers a settings change: 200 with what is in force now, 400 with every violation, or 503
 * {@code OMCP_SETTINGS_NOT_PERSISTED} when valid values could not be written where they persist
 * (nothing changed; the reason says what failed).
 */
public final class SettingsAnswers {
    /** The code of a 503: the change was valid but could not be written, so nothing changed. */
    public static final String NOT_PERSISTED = "OMCP_SETTINGS_NOT_PERSISTED";
    private SettingsAnswers() {}

    /**
     * @param invalidCode the {@code code} of a 400
     * @param body the start of a 200 body, given what was applied; {@code changed} and
     *     {@code persisted} are added
     */
    public static void answer(Context ctx, SettingsChange change, String invalidCode,
            Function<SettingsChange.Applied, JsonObjectBuilder> body) {
        switch (change) {
            case SettingsChange.Invalid invalid -> JsonpExchange.invalid(ctx, invalidCode, invalid.errors());
            case SettingsChange.NotSaved notSaved -> JsonpExchange.error(ctx, 503, NOT_PERSISTED, notSaved.reason(),
                    JsonValue.EMPTY_JSON_OBJECT);
            case SettingsChange.Applied applied -> {
                JsonArrayBuilder changed = Jsonp.array();
                applied.changed().forEach(changed::add);
                JsonpExchange.write(ctx, 200, body.apply(applied).add("changed", changed).add("persisted", applied.persisted()).build());
            }
        }
    }
}
