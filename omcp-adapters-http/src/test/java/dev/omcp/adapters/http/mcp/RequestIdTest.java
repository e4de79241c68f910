package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.JsonValue;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestIdTest {
    @Test
    void notificationsAndClientResponses_answerNothing() {
        assertThat(RequestId.answersNothing("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}"))
                .isTrue();
        assertThat(RequestId.answersNothing("{\"jsonrpc\":\"2.0\",\"id\":\"omcp-1\",\"result\":{\"id\":2,\"method\":\"x\"}}")).isTrue();
        assertThat(RequestId.answersNothing("{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-1,\"message\":\"no\"}}")).isTrue();
        // an error response to a request whose id the client could not read: id null, or none (MCP 2025-11-25)
        assertThat(RequestId.answersNothing("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"x\"}}")).isTrue();
        assertThat(RequestId.answersNothing("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"x\"}}")).isTrue();
    }

    @Test
    void requestsBatchesAndTextThatIsNotJson_areAnswered() {
        assertThat(RequestId.answersNothing("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")).isFalse();
        // an id nested in params makes no request of a notification, nor of a request a notification
        assertThat(RequestId.answersNothing("{\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"id\":1},\"id\":2}")).isFalse();
        assertThat(RequestId.answersNothing("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]")).as("a batch holding a request").isFalse();
        assertThat(RequestId.answersNothing("[]")).as("an empty batch is invalid: JSON-RPC answers it").isFalse();
        assertThat(RequestId.answersNothing("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},1]")).isFalse();
        assertThat(RequestId.answersNothing("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")).isFalse();
        assertThat(RequestId.answersNothing("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"")).isFalse();
        assertThat(RequestId.answersNothing("{\"jsonrpc\":\"2.0\"}")).isFalse();
        // a result without id is no valid response: the dispatcher answers it with an error
        assertThat(RequestId.answersNothing("{\"jsonrpc\":\"2.0\",\"result\":{}}")).isFalse();
        assertThat(RequestId.answersNothing("42")).isFalse();
    }

    @Test
    void aBatchOfOnlyNotificationsAndClientResponses_answersNothing() {
        // JSON-RPC 2.0: a batch of only notifications gets no response at all
        assertThat(RequestId.answersNothing("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}]")).isTrue();
        assertThat(RequestId.answersNothing("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}},"
                + "{\"jsonrpc\":\"2.0\",\"id\":\"omcp-1\",\"result\":{}}]")).isTrue();
    }

    @Test
    void theHead_namesTheMethodBesideTheId_andNothingForABatchOrTextThatIsNotJson() {
        RequestId.Head head = RequestId.head("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"method\":\"x\"}}");
        assertThat(head.id().toString()).isEqualTo("1");
        assertThat(head.method()).as("the top-level method, not one nested in params").isEqualTo("tools/call");
        assertThat(RequestId.head("{\"id\":7,\"id\":8,\"method\":\"ping\"}")).as("two ids")
                .isEqualTo(new RequestId.Head(JsonValue.NULL, "ping"));
        assertThat(RequestId.head("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]").method()).isEmpty();
        assertThat(RequestId.head("{\"method\":\"ping\",").method()).isEmpty();
        assertThat(RequestId.head("{\"id\":1,\"method\":5}")).isEqualTo(new RequestId.Head(JsonValue.NULL, ""));
    }

    @Test
    void aBatch_isReadElementByElement_theRequestsWithTheirIdsAndMethods_theOthersAsAnsweringNothing() {
        List<String> elements = RequestId.batch("[{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"ping\"},"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"a\"}},"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"id\":3,\"method\":\"x\"}},"
                + "{\"jsonrpc\":\"2.0\",\"id\":\"omcp-1\",\"result\":{}},"
                + "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,\"message\":\"x\"}},"
                + "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"},"
                + "{\"id\":7,\"id\":8,\"method\":\"ping\"},7,[1],{}]").orElseThrow().stream()
                .map(e -> e.head().id() + " " + e.head().method() + " " + (e.answered() ? "answered" : "unanswered")).toList();
        assertThat(elements).containsExactly(
                "\"a\" ping answered",
                "null notifications/cancelled unanswered",
                "2 tools/call answered",
                "null  unanswered",
                "null  unanswered",
                "null ping answered",
                "null ping answered",
                "null  answered",
                "null  answered",
                "null  answered");
    }

    @Test
    void noBatch_isReadFromALoneMessage_anEmptyArray_orTextThatIsNotOneJsonValue() {
        assertThat(RequestId.batch("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")).isEmpty();
        // JSON-RPC 2.0 section 6: an empty array is answered with one error, not an array
        assertThat(RequestId.batch("[]")).isEmpty();
        assertThat(RequestId.batch("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")).isEmpty();
        assertThat(RequestId.batch("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}] [1]")).isEmpty();
        assertThat(RequestId.batch("42")).isEmpty();
    }
}
