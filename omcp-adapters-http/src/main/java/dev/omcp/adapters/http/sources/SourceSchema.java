package dev.omcp.adapters.http.sources;

import dev.omcp.adapters.http.api.BodySchema;
import dev.omcp.sdk.connector.SourceConfig;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

/** The schema of a source as a body carries it ({@code SourcesRoutes#draft} reads it), for the OpenAPI document. */
final class SourceSchema {
    /** {@link SourceConfig#isValidName}'s rule as a pattern. */
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,62}");

    private SourceSchema() {}

    /** A source body that must carry {@code required}. */
    static Map<String, Object> of(List<String> required) {
        BodySchema schema = BodySchema.object("a source; connector settings go under settings, and the read-only fields a GET "
                + "shows are accepted only as they are");
        schema.property("name", BodySchema.string("the source's name, unique across the gateway: " + SourceConfig.NAME_RULE, NAME));
        schema.property("type", BodySchema.string("the connector that reads it (prometheus, loki, ...: GET /api/connectors); "
                + "an unknown type is refused"));
        schema.property("url", BodySchema.string("the backend's URL, checked by the egress guard; on PUT left out keeps the stored "
                + "one"));
        schema.property("tenant", BodySchema.string("the tenant whose users see it, " + SourceConfig.TENANT_RULE + "; on PUT "
                + "left out keeps the stored one", 0, SourceConfig.MAX_TENANT));
        schema.property("enabled", BodySchema.bool("left out: a new source is enabled, a replaced one keeps what it was"));
        schema.property("settings", BodySchema.freeObject("the connector's own settings (auth, tls, headers, ...), judged by its "
                + "manifest's configSchema; a masked secret keeps the stored one"));
        for (String field : new TreeSet<>(ReadOnlyFields.names())) {
            schema.property(field, Map.of("readOnly", true, "description", "as GET /api/sources/{name} shows it; another value is "
                    + "refused"));
        }
        return schema.required(required).build();
    }
}
