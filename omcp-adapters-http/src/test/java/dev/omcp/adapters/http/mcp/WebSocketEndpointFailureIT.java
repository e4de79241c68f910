package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.omcp.adapters.http.metrics.GatewayMetrics;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpOutbound;
import dev.omcp.ports.mcp.McpReply;
import dev.omcp.sdk.json.Jsonp;
import io.javalin.Javalin;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * An endpoint that throws while handling a message (its session store is down, a bug, an Error): over
 * Streamable HTTP the POST gets a 500 with an error id the log carries; on a WebSocket every request
 * with an id gets a JSON-RPC internal error with such an id instead of no answer at all, a notification
 * gets nothing, and the socket stays usable. Real Javalin on loopback and the JDK client.
 */
class WebSocketEndpointFailureIT {
    private static final String SECRET = "redis://:hunter2@cache:6379";
    private static final Pattern ERROR_ID = Pattern.compile("error id ([0-9a-f]+)");
    private static final String PONG = "{\"jsonrpc\":\"2.0\",\"id\":99,\"result\":{}}";

    /** Throws as a dispatcher does whose session store threw; answers the ping with id 99. */
    private final WebSocketTestServer.StubEndpoint endpoint = new WebSocketTestServer.StubEndpoint() {
        @Override
        public McpReply handle(McpInbound inbound, McpOutbound outbound) {
            String body = inbound.body();
            if (body.contains("\"id\":99")) {
                return new McpReply.Response("ping", PONG, false, Optional.empty());
            }
            if (body.contains("\"initialize\"")) {
                return new McpReply.Response("initialize", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}", false, Optional.of("s-1"));
            }
            if (body.contains("assertion")) {
                throw new AssertionError("store broke " + SECRET);
            }
            throw new IllegalStateException("session store unreachable at " + SECRET);
        }

        @Override
        public SessionStatus endSession(String sessionId, Principal principal) {
            throw new IllegalStateException("session store unreachable at " + SECRET);
        }
    };
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger transportLogger = (Logger) LoggerFactory.getLogger(WebSocketTransport.class);
    private WebSocketTransport transport;
    private Javalin app;
    private WebSocketClient client;

    @BeforeEach
    void start() throws Exception {
        log.start();
        transportLogger.addAppender(log);
        transport = WebSocketTestServer.transport(endpoint, new GatewayMetrics(Set.of("ping", "tools/list")));
        app = WebSocketTestServer.start(transport);
        client = WebSocketClient.connect(app.port(), Map.of());
    }

    @AfterEach
    void stop() {
        client.close();
        transport.close();
        app.stop();
        transportLogger.detachAppender(log);
    }

    @Test
    void aRequestWhoseHandlingThrows_isAnsweredWithAnInternalErrorAndAnErrorIdTheLogCarries_andTheSocketStaysUsable()
            throws Exception {
        client.send("{\"jsonrpc\":\"2.0\",\"id\":\"r-7\",\"method\":\"tools/list\"}");

        JsonObject answer = Jsonp.reader(client.nextText()).readObject();
        assertThat(answer.getString("id")).isEqualTo("r-7");
        assertInternalErrorLogged(answer.getJsonObject("error"));

        assertUsable();
    }

    @Test
    void anErrorThrownWhileHandlingARequest_isAnsweredTheSameWay() throws Exception {
        client.send("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"assertion\"}}");

        JsonObject answer = Jsonp.reader(client.nextText()).readObject();
        assertThat(answer.getInt("id")).isEqualTo(8);
        assertInternalErrorLogged(answer.getJsonObject("error"));

        assertUsable();
    }

    @Test
    void aNotificationWhoseHandlingThrows_getsNoFrame_andTheBugIsLogged() throws Exception {
        client.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (log.list.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(log.list).anySatisfy(event -> assertThat(event.getFormattedMessage()).contains("errorId=")
                .contains("outcome=bug").doesNotContain("hunter2"));
        assertUsable(); // the pong is the first frame: nothing came for the notification
    }

    @Test
    void aBatchWhoseHandlingThrows_getsOneInternalErrorPerRequest_inOneFrame() throws Exception {
        client.send("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"},"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},"
                + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}]");

        JsonArray answers = Jsonp.reader(client.nextText()).readArray();
        assertThat(answers).hasSize(2);
        assertThat(answers.getJsonObject(0).getInt("id")).isEqualTo(1);
        assertThat(answers.getJsonObject(1).getInt("id")).isEqualTo(2);
        assertInternalErrorLogged(answers.getJsonObject(0).getJsonObject("error"));
        assertThat(answers.getJsonObject(1).getJsonObject("error")).isEqualTo(answers.getJsonObject(0).getJsonObject("error"));

        assertUsable();
    }

    @Test
    void aSocketWhoseSessionCannotBeEndedOnClose_saysSoInTheLog() throws Exception {
        client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}");
        client.nextText();

        client.socket.sendClose(1000, "done").get(10, TimeUnit.SECONDS);

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (log.list.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(log.list).anySatisfy(event -> assertThat(event.getFormattedMessage())
                .contains("event=ws-session-end-failed").contains("expires once idle"));
    }

    private void assertInternalErrorLogged(JsonObject error) {
        assertThat(error.getInt("code")).isEqualTo(-32603);
        String message = error.getString("message");
        assertThat(message).doesNotContain("hunter2").doesNotContain("session store");
        Matcher matcher = ERROR_ID.matcher(message);
        assertThat(matcher.find()).as(message).isTrue();
        String errorId = matcher.group(1);
        assertThat(log.list).anySatisfy(event -> {
            assertThat(event.getFormattedMessage()).contains("errorId=" + errorId).contains("outcome=bug");
            assertThat(event.getThrowableProxy()).as("the stack trace is in the log").isNotNull();
        });
    }

    /** The socket still answers: a ping sent now gets its pong as the next frame. */
    private void assertUsable() throws Exception {
        client.send("{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"ping\"}");
        assertThat(client.nextText()).isEqualTo(PONG);
        assertThat(client.closed.isDone()).as("the socket stays open").isFalse();
        assertThat(client.texts.poll(100, TimeUnit.MILLISECONDS)).as("no other frame").isNull();
    }
}
