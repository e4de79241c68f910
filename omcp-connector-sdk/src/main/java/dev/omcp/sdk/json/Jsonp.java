package dev.omcp.sdk.json;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonString;
import jakarta.json.spi.JsonProvider;
import java.io.Reader;
import java.io.StringReader;
import java.util.Map;

/**
 * JSON-P entry points backed by one cached {@link JsonProvider}.
 *
 * <p>Use these instead of the static methods of {@code jakarta.json.Json}: every one of those looks
 * the provider up again through the {@code ServiceLoader}, which costs tens of microseconds per
 * call and dominated request latency before this class existed. Thread-safe.
 */
public final class Jsonp {
    private static final JsonProvider PROVIDER = JsonProvider.provider();
    private static final JsonReaderFactory READERS = PROVIDER.createReaderFactory(Map.of());

    private Jsonp() {}

    /** The cached provider. */
    public static JsonProvider provider() {
        return PROVIDER;
    }

    /** A new object builder. */
    public static JsonObjectBuilder object() {
        return PROVIDER.createObjectBuilder();
    }

    /** A new array builder. */
    public static JsonArrayBuilder array() {
        return PROVIDER.createArrayBuilder();
    }

    /** A JSON string. */
    public static JsonString value(String value) {
        return PROVIDER.createValue(value);
    }

    /** A JSON number. */
    public static JsonNumber value(long value) {
        return PROVIDER.createValue(value);
    }

    /** A JSON number. */
    public static JsonNumber value(int value) {
        return PROVIDER.createValue(value);
    }

    /** A JSON number. */
    public static JsonNumber value(double value) {
        return PROVIDER.createValue(value);
    }

    /** A JSON number. */
    public static JsonNumber value(java.math.BigDecimal value) {
        return PROVIDER.createValue(value);
    }

    /** A JSON number. */
    public static JsonNumber value(java.math.BigInteger value) {
        return PROVIDER.createValue(value);
    }

    /** A reader over {@code reader} with default settings. */
    public static JsonReader reader(Reader reader) {
        return READERS.createReader(reader);
    }

    /** A reader over UTF-8 (or UTF-16/32, detected) bytes with default settings. */
    public static JsonReader reader(java.io.InputStream in) {
        return READERS.createReader(in);
    }

    /** A reader over {@code text} with default settings. */
    public static JsonReader reader(String text) {
        return READERS.createReader(new StringReader(text));
    }

    /** A reader factory with provider-specific settings (for example Parsson's limits). */
    public static JsonReaderFactory readerFactory(Map<String, ?> config) {
        return PROVIDER.createReaderFactory(config);
    }
}
