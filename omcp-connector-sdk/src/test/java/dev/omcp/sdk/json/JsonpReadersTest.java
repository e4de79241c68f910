package dev.omcp.sdk.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.json.JsonException;
import jakarta.json.JsonReader;
import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Text nested deeper than Parsson reads (a hostile backend's answer, a log line, a file) fails as
 * every caller expects "not JSON" to fail, with a {@link JsonException}, never as a bare
 * {@code RuntimeException} that callers let through as a bug (or that ends a watcher's thread).
 */
class JsonpReadersTest {
    private static final String DEEP = "{\"a\":" + "[".repeat(5000) + "]".repeat(5000) + "}";

    @Test
    void textNestedTooDeeplyIsAJsonExceptionFromEveryReader() {
        assertThatThrownBy(() -> Jsonp.reader(DEEP).readObject()).isInstanceOf(JsonException.class).hasMessageContaining("nested");
        assertThatThrownBy(() -> Jsonp.reader(new StringReader(DEEP)).readValue()).isInstanceOf(JsonException.class);
        assertThatThrownBy(() -> Jsonp.reader(new ByteArrayInputStream(DEEP.getBytes(StandardCharsets.UTF_8))).read())
                .isInstanceOf(JsonException.class);
        assertThatThrownBy(() -> Jsonp.reader("[" + "[".repeat(5000) + "]".repeat(5000) + "]").readArray())
                .isInstanceOf(JsonException.class);
    }

    @Test
    void readersOfAConfiguredFactoryFailTheSameWay() {
        var factory = Jsonp.readerFactory(Map.of("org.eclipse.parsson.maxDepth", 8));
        assertThatThrownBy(() -> factory.createReader(new StringReader("[[[[[[[[[[[[]]]]]]]]]]]]")).readValue())
                .isInstanceOf(JsonException.class);
        assertThatThrownBy(() -> factory.createReader(new ByteArrayInputStream(DEEP.getBytes(StandardCharsets.UTF_8)),
                StandardCharsets.UTF_8).readObject()).isInstanceOf(JsonException.class);
        assertThat(factory.createReader(new StringReader("[[1]]")).readArray().getJsonArray(0).getInt(0)).isEqualTo(1);
    }

    @Test
    void ordinaryTextAndMisuseBehaveAsBefore() {
        assertThat(Jsonp.reader("{\"a\":[1,2]}").readObject().getJsonArray("a")).hasSize(2);
        assertThatThrownBy(() -> Jsonp.reader("{\"a\":").readObject()).isInstanceOf(JsonException.class);
        JsonReader reader = Jsonp.reader("{}");
        reader.readObject();
        assertThatThrownBy(reader::readObject).isInstanceOf(IllegalStateException.class);
    }
    @Test
    void nestingIsReadToMaxDepthAndNoFurther() {
        int depth = 256;
        assertThat(Jsonp.reader("[".repeat(depth - 1) + "]".repeat(depth - 1)).readArray()).hasSize(1);
        assertThatThrownBy(() -> Jsonp.reader("[".repeat(depth) + "]".repeat(depth)).readArray()).isInstanceOf(JsonException.class);
        // a factory's own depth still wins
        assertThat(Jsonp.readerFactory(Map.of("org.eclipse.parsson.maxDepth", 600)).createReader(new StringReader(
                "[".repeat(500) + "]".repeat(500))).readArray()).hasSize(1);
    }

    @Test
    void textNestedJustBelowParssonsOwnLimit_failsAsJson_onTheLaunchersSmallThreadStacks() throws Exception {
        // the launcher runs with -Xss512k; Parsson's recursive reader overflowed such a stack before its own limit of 1000
        String deep = "[".repeat(999) + "]".repeat(999);
        java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
        Thread reader = new Thread(null, () -> {
            try {
                Jsonp.reader(deep).readValue();
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "small-stack", 512 * 1024);
        reader.start();
        reader.join();
        assertThat(failure.get()).isInstanceOf(JsonException.class);
    }
}
