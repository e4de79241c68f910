package dev.omcp.adapters.http.settings;

import dev.omcp.adapters.http.api.JsonpExchange;
import dev.omcp.ports.settings.SettingsChange;
import dev.omcp.sdk.json.Jsonp;
import io.javalin.http.Context;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import java.util.function.Function;

/** Answers a settings change: 200 with what is in force now, or 400 with every violation. */
public final class SettingsAnswers {
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
            case SettingsChange.Applied applied -> {
                JsonArrayBuilder changed = Jsonp.array();
                applied.changed().forEach(changed::add);
                JsonpExchange.write(ctx, 200, body.apply(applied).add("changed", changed).add("persisted", applied.persisted()).build());
            }
        }
    }
}
