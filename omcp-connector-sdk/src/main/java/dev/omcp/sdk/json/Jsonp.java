package dev.omcp.sdk.json;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonString;
import jakarta.json.spi.JsonProvider;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParserFactory;
import java.io.Reader;
import java.io.StringReader;
import java.util.HashMap;
import java.util.Map;

/**
 * JSON-P entry points backed by one cached {@link JsonProvider}.
 *
 * <p>Use these instead of the static methods of {@code jakarta.json.Json}: every one of those looks
 * the provider up again through the {@code ServiceLoader}, which costs tens of microseconds per
 * call and dominated request latency before this class existed. Thread-safe.
 *
 * <p>The readers made here read less than {@link #MAX_DEPTH} levels of nesting and fail only as
 * JSON-P promises, with a {@link jakarta.json.JsonException} (or {@code IllegalStateException} when
 * misused): Parsson refuses text nested deeper than its limit with a plain
 * {@code RuntimeException}, which every caller that catches {@code JsonException} for "not JSON"
 * would let through. A backend, a log line or a file that nests a few thousand brackets would
 * otherwise fail its caller as a bug, or end a thread.
 */
public final class Jsonp {
    private static final JsonProvider PROVIDER = JsonProvider.provider();
    /**
     * Parsson's depth limit for the readers made here (text nested this deep is refused): far more
     * than any backend answer, file or log line the gateway reads needs (Kubernetes objects nest
     * about 20 levels), and far less than Parsson's default of 1000, which its recursive reader does
     * not reach on the launcher's 512 KiB thread stacks: text nested some 950 levels ended in a
     * {@code StackOverflowError}.
     */
    public static final int MAX_DEPTH = 256;
    private static final String MAX_DEPTH_SETTING = "org.eclipse.parsson.maxDepth";
    private static final JsonReaderFactory READERS = readerFactory(Map.of());
    private static final JsonParserFactory PARSERS = PROVIDER.createParserFactory(Map.of(MAX_DEPTH_SETTING, MAX_DEPTH));

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

    /**
     * A streaming parser over UTF-8 (or UTF-16/32, detected) bytes that stops at {@link #MAX_DEPTH}
     * levels, for a caller that must see what follows a value (a reader reads {@code {} {}} as its
     * first object alone). Unlike the readers, it fails as Parsson does: a
     * {@link jakarta.json.JsonException} for text that is not JSON, a plain {@code RuntimeException}
     * for text nested too deeply or a number too long; catch both.
     */
    public static JsonParser parser(java.io.InputStream in) {
        return PARSERS.createParser(in);
    }

    /**
     * A reader factory with provider-specific settings (for example Parsson's limits); its readers
     * fail as those above, and stop at {@link #MAX_DEPTH} levels unless the settings name a depth.
     */
    public static JsonReaderFactory readerFactory(Map<String, ?> config) {
        Map<String, Object> bounded = new HashMap<>(config);
        bounded.putIfAbsent(MAX_DEPTH_SETTING, MAX_DEPTH);
        return new JsonExceptionsOnly.Factory(PROVIDER.createReaderFactory(bounded));
    }
}
