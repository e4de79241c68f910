package dev.omcp.core.json;

import jakarta.json.spi.JsonProvider;

/**
 * The one JSON-P provider the core builds values with.
 *
 * <p>Why: every static {@code jakarta.json.Json.createXxx(...)} call looks the provider up again
 * through {@link java.util.ServiceLoader} (jakarta.json-api 2.1 does not cache it), which costs
 * tens of microseconds per call. Redacting a 100 KB log result with {@code Json.createValue} per
 * string took over 100 ms; with this cached provider it takes well under 2 ms
 * (docs/benchmarks.md). Use {@code JsonFactory.JSON.createObjectBuilder()} and friends on any path
 * that runs per tool call.
 */
public final class JsonFactory {
    /** The provider found once, at class initialisation (Parsson at runtime). */
    public static final JsonProvider JSON = JsonProvider.provider();

    private JsonFactory() {}
}
