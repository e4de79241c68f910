package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

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
        assertThat(RequestId.answersNothing("[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}]")).isFalse();
        assertThat(RequestId.answersNothing("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"")).isFalse();
        assertThat(RequestId.answersNothing("{\"jsonrpc\":\"2.0\"}")).isFalse();
        // a result without id is no valid response: the dispatcher answers it with an error
        assertThat(RequestId.answersNothing("{\"jsonrpc\":\"2.0\",\"result\":{}}")).isFalse();
        assertThat(RequestId.answersNothing("42")).isFalse();
    }
}
