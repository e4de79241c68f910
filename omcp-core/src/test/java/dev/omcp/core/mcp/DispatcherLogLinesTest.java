package dev.omcp.core.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.omcp.core.gateway.Gateway;
import dev.omcp.core.testing.McpTestClient;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpReply;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** What the dispatcher writes to the log about a client's message: never a forged line or field. */
class DispatcherLogLinesTest {
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(McpDispatcher.class);
    private Level levelBefore;

    @BeforeEach
    void capture() {
        log.start();
        levelBefore = logger.getLevel();
        logger.setLevel(Level.DEBUG);
        logger.addAppender(log);
    }

    @AfterEach
    void release() {
        logger.detachAppender(log);
        logger.setLevel(levelBefore);
    }

    @Test
    void theBugLineOfAFailedRequest_quotesTheMethodWithItsControlCharactersEscaped_andCutsALongOne() {
        Gateway throwing = Gateway.builder().interceptor((call, next) -> {
            if (call.method().equals("initialize")) {
                return next.proceed(call);
            }
            throw new IllegalStateException("boom");
        }).build();
        McpTestClient client = new McpTestClient(throwing.mcp(), Principal.anonymous());
        client.initialize("2025-11-25");
        log.list.clear();
        String forged = "tools/list\r\n12:00:00.000 INFO  McpDispatcher method=ping principal=admin outcome=ok\u2028\"x";
        JsonObject answer = McpTestClient.parse(((McpReply.Response) client.raw(request(forged))).json());

        assertThat(answer.getJsonObject("error").getInt("code")).isEqualTo(JsonRpc.INTERNAL_ERROR);
        String line = bugLine();
        assertThat(line).doesNotContain("\r").doesNotContain("\n").doesNotContain("\u2028")
                .contains("method=\"tools/list\\u000d\\u000a12:00:00.000 INFO  McpDispatcher method=ping")
                .contains("\\u2028\\\"x\"")
                .contains("principal=\"anonymous\"");

        log.list.clear();
        client.raw(request("m".repeat(5000)));
        assertThat(bugLine()).contains("m".repeat(LogText.MAX_CHARS) + "...(5000 chars)\"").doesNotContain("m".repeat(LogText.MAX_CHARS + 1));
    }

    @Test
    void theLineOfABodyRefusedForARepeatedKey_escapesTheKeyTheParserQuotes() {
        McpTestClient client = new McpTestClient(Gateway.builder().build().mcp(), Principal.anonymous());
        McpReply reply = client.send(Optional.empty(), "{\"jsonrpc\":\"2.0\",\"a\\nFORGED\":1,\"a\\nFORGED\":2}");

        assertThat(reply).isInstanceOf(McpReply.Refused.class);
        List<String> lines = log.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
        assertThat(lines).singleElement().satisfies(line -> assertThat(line)
                .startsWith("event=mcp-body-refused reason=\"")
                .doesNotContain("\n")
                .contains("a\\u000aFORGED"));
    }

    private static String request(String method) {
        return Json.createObjectBuilder().add("jsonrpc", "2.0").add("id", 7).add("method", method).build().toString();
    }

    private String bugLine() {
        List<ILoggingEvent> errors = log.list.stream().filter(e -> e.getLevel() == Level.ERROR).toList();
        assertThat(errors).hasSize(1);
        return errors.getFirst().getFormattedMessage();
    }
}
