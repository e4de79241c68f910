package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code Accept} as RFC 9110 12.5.1 reads it, for the two types {@code /mcp} answers in. */
class AcceptHeaderTest {
    private static boolean json(String... fields) {
        return AcceptHeader.parse(List.of(fields)).allows("application", "json");
    }

    private static boolean sse(String... fields) {
        return AcceptHeader.parse(List.of(fields)).allows("text", "event-stream");
    }

    @Test
    void whatTheOfficialSdksSend_allowsBoth() {
        assertThat(json("application/json, text/event-stream")).isTrue();
        assertThat(sse("application/json, text/event-stream")).isTrue();
        assertThat(AcceptHeader.parse(List.of("application/json, text/event-stream")).names("text", "event-stream")).isTrue();
    }

    @Test
    void qZero_meansNotAcceptable() {
        assertThat(json("application/json;q=0, text/event-stream;q=0")).isFalse();
        assertThat(sse("application/json;q=0, text/event-stream;q=0")).isFalse();
        assertThat(json("application/json; q=0.000")).isFalse();
        assertThat(json("application/json;Q=0")).as("parameter names are case-insensitive").isFalse();
        assertThat(json("*/*;q=0")).isFalse();
        assertThat(json("application/json;q=0.001")).isTrue();
        assertThat(json("application/json;q=1.000")).isTrue();
    }

    @Test
    void theMostSpecificRange_decides() {
        assertThat(json("*/*, application/json;q=0")).isFalse();
        assertThat(sse("*/*, application/json;q=0")).isTrue();
        assertThat(json("application/*;q=0, application/json")).isTrue();
        assertThat(json("application/json, application/*;q=0")).as("order does not matter").isTrue();
        assertThat(sse("text/*;q=0, */*")).isFalse();
    }

    @Test
    void wildcards_matchTheirTypes() {
        assertThat(json("*/*")).isTrue();
        assertThat(sse("*/*")).isTrue();
        assertThat(json("application/*")).isTrue();
        assertThat(sse("application/*")).isFalse();
        assertThat(sse("text/*")).isTrue();
        assertThat(json("text/*")).isFalse();
        // */* allows the stream but does not name it; text/* does
        assertThat(AcceptHeader.parse(List.of("*/*")).names("text", "event-stream")).isFalse();
        assertThat(AcceptHeader.parse(List.of("text/*")).names("text", "event-stream")).isTrue();
    }

    @Test
    void typesAreCaseInsensitive_andParametersOtherThanQAreIgnored() {
        assertThat(json("Application/JSON")).isTrue();
        assertThat(sse("TEXT/Event-Stream")).isTrue();
        assertThat(json("application/json;charset=utf-8")).isTrue();
        assertThat(json("application/json; charset=\"utf-8\"; q=0.5")).isTrue();
        assertThat(json("application/json;charset=utf-8;q=0, application/json")).as("the heavier of equals counts").isTrue();
    }

    @Test
    void similarLookingTypes_areNotJsonOrTheStream() {
        assertThat(json("application/jsonp")).isFalse();
        assertThat(json("application/json-seq")).isFalse();
        assertThat(json("application/vnd.api+json")).isFalse();
        assertThat(sse("text/event-streams")).isFalse();
        assertThat(json("text/html, image/png")).isFalse();
        assertThat(json("xapplication/json")).isFalse();
    }

    @Test
    void unreadableElements_allowNothing_andDoNotSpoilTheOthers() {
        assertThat(json("garbage")).isFalse();
        assertThat(json("application/json;q=2")).as("q above 1").isFalse();
        assertThat(json("application/json;q=abc")).isFalse();
        assertThat(json("application/json;q=0.5000")).as("more than three decimals").isFalse();
        assertThat(json("*/json")).isFalse();
        assertThat(json("application/json;q")).isFalse();
        assertThat(json("application/json;q=1;q=0")).as("a parameter named twice").isFalse();
        assertThat(json("application/json \"x\"")).isFalse();
        assertThat(json("")).isFalse();
        assertThat(json("garbage, application/json")).isTrue();
        assertThat(sse("text/event-stream;x=\"a,b\", application/json")).as("a comma inside quotes splits nothing").isTrue();
        assertThat(json(",, application/json ,")).as("empty list elements").isTrue();
    }

    @Test
    void severalAcceptFields_formOneList() {
        assertThat(json("text/event-stream", "application/json")).isTrue();
        assertThat(json("text/event-stream", "application/json;q=0")).isFalse();
    }
}
