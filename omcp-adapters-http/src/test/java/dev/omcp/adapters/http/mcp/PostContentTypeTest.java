package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code Content-Type} of a message POSTed to {@code /mcp}: application/json, UTF-8. */
class PostContentTypeTest {
    @Test
    void applicationJson_inAnyCase_withOrWithoutAUtf8Charset_isRead() {
        for (String type : List.of("application/json", "Application/JSON", "application/json; charset=utf-8",
                "application/json;charset=UTF-8", "application/json; charset=\"utf-8\"", "application/json;charset=utf8",
                "application/json; foo=bar", "application/json;")) {
            assertThat(PostContentType.refusal(List.of(type))).as(type).isEmpty();
        }
    }

    @Test
    void anotherCharset_isRefused_sayingWhatToSend() {
        for (String type : List.of("application/json; charset=iso-8859-1", "application/json;charset=utf-16",
                "application/json; charset=\"latin1\"")) {
            assertThat(PostContentType.refusal(List.of(type))).as(type)
                    .hasValueSatisfying(message -> assertThat(message).contains("is not UTF-8", "Content-Type: application/json"));
        }
    }

    @Test
    void typesThatMerelyStartLikeJson_orAreNotJson_areRefused() {
        for (String type : List.of("application/jsonp", "application/json-seq", "application/json5", "text/json",
                "application/vnd.api+json", "text/plain", "application/x-www-form-urlencoded")) {
            assertThat(PostContentType.refusal(List.of(type))).as(type)
                    .hasValueSatisfying(message -> assertThat(message).contains("is not application/json"));
        }
    }

    @Test
    void aMissingOrUnreadableOrRepeatedContentType_isRefused() {
        assertThat(PostContentType.refusal(List.of())).hasValueSatisfying(m -> assertThat(m).contains("no Content-Type"));
        assertThat(PostContentType.refusal(List.of(""))).hasValueSatisfying(m -> assertThat(m).contains("no Content-Type"));
        for (List<String> fields : List.of(List.of("application/json, text/plain"), List.of("application/json", "application/json"),
                List.of("application/json; charset"), List.of("application/json; charset=utf-8; charset=latin1"),
                List.of("json"), List.of("application/json; charset=\"utf-8"))) {
            assertThat(PostContentType.refusal(fields)).as(fields.toString())
                    .hasValueSatisfying(m -> assertThat(m).contains("not one readable media type"));
        }
    }

    @Test
    void whatTheClientSent_isRepeatedShortAndVisibleOnly() {
        assertThat(PostContentType.refusal(List.of("application/json; charset=\"" + "x".repeat(500) + "\u0007\"")))
                .hasValueSatisfying(message -> assertThat(message).hasSizeLessThan(300).doesNotContain("\u0007"));
    }
}
