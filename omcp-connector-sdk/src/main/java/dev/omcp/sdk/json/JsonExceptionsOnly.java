package dev.omcp.sdk.json;

import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonReaderFactory;
import jakarta.json.JsonStructure;
import jakarta.json.JsonValue;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.Charset;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Readers whose every parse failure is a {@link JsonException}: anything else a provider throws
 * while reading (Parsson's plain {@code RuntimeException} for text nested too deeply) becomes one,
 * with the provider's exception as its cause. {@code IllegalStateException} (a reader used twice)
 * stays what it is. See {@link Jsonp}.
 */
final class JsonExceptionsOnly implements JsonReader {
    private final JsonReader delegate;

    private JsonExceptionsOnly(JsonReader delegate) {
        this.delegate = delegate;
    }

    private static <T> T reading(Supplier<T> read) {
        try {
            return read.get();
        } catch (JsonException | IllegalStateException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new JsonException("the JSON text cannot be read: " + e.getMessage(), e);
        }
    }

    @Override
    public JsonStructure read() {
        return reading(delegate::read);
    }

    @Override
    public JsonObject readObject() {
        return reading(delegate::readObject);
    }

    @Override
    public JsonArray readArray() {
        return reading(delegate::readArray);
    }

    @Override
    public JsonValue readValue() {
        return reading(delegate::readValue);
    }

    @Override
    public void close() {
        delegate.close();
    }

    /** Makes readers of {@code delegate}'s that fail only with {@link JsonException}. */
    static final class Factory implements JsonReaderFactory {
        private final JsonReaderFactory delegate;

        Factory(JsonReaderFactory delegate) {
            this.delegate = delegate;
        }

        @Override
        public JsonReader createReader(Reader reader) {
            return new JsonExceptionsOnly(delegate.createReader(reader));
        }

        @Override
        public JsonReader createReader(InputStream in) {
            return new JsonExceptionsOnly(delegate.createReader(in));
        }

        @Override
        public JsonReader createReader(InputStream in, Charset charset) {
            return new JsonExceptionsOnly(delegate.createReader(in, charset));
        }

        @Override
        public Map<String, ?> getConfigInUse() {
            return delegate.getConfigInUse();
        }
    }
}
