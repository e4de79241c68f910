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
import jakarta.json.JsonObject;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A socket that sends {@code initialize} again replaces its session, and the old one is ended. When
 * ending it fails (a shared store's outage), the new session works all the same: it is the socket's
 * already, and the old one expires once idle. So the initialize is answered with its success, the
 * socket is attached to the new session, and the failed end is logged; an internal error would tell
 * the client its initialize failed while the socket went on in the session it opened. Real Javalin on
 * loopback and the JDK client.
 */
class WebSocketReinitializeEndFailureIT {
    private static final String SECRET = "redis://:hunter2@cache:6379";
    /** The sessions a stream is attached to now, as the dispatcher's session streams hold them. */
    private final Set<String> attachedNow = ConcurrentHashMap.newKeySet();
    /** The session each later request came in. */
    private final BlockingQueue<String> requestSessions = new LinkedBlockingQueue<>();

    /** Opens s1, then s2 for an initialize sent in s1; cannot end s1. */
    private final WebSocketTestServer.StubEndpoint endpoint = new WebSocketTestServer.StubEndpoint() {
        @Override
        public McpReply handle(McpInbound inbound, McpOutbound outbound) {
            String id = Jsonp.reader(inbound.body()).readObject().get("id").toString();
            if (inbound.body().contains("\"initialize\"")) {
                String opened = inbound.sessionId().isEmpty() ? "s1" : "s2";
                return new McpReply.Response("initialize", "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}", false,
                        Optional.of(opened));
            }
            requestSessions.add(inbound.sessionId().orElse("(none)"));
            return new McpReply.Response("ping", "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{}}", false, Optional.empty());
        }

        @Override
        public SessionStatus endSession(String sessionId, Principal principal) {
            if (sessionId.equals("s1")) {
                throw new IllegalStateException("session store unreachable at " + SECRET);
            }
            return SessionStatus.ACTIVE;
        }

        @Override
        public AutoCloseable attachStream(String sessionId, McpOutbound stream) {
            attachedNow.add(sessionId);
            return () -> attachedNow.remove(sessionId);
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
        transport = WebSocketTestServer.transport(endpoint, new GatewayMetrics(Set.of("initialize", "ping")));
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
    void aReinitializeWhoseOldSessionCannotBeEnded_isAnsweredWithSuccess_andTheSocketGoesOnInTheNewSession() throws Exception {
        client.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}");
        assertThat(client.nextText()).contains("\"result\"");

        client.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"initialize\",\"params\":{}}");

        JsonObject answer = Jsonp.reader(client.nextText()).readObject();
        assertThat(answer.getInt("id")).isEqualTo(2);
        assertThat(answer.containsKey("result")).as("%s", answer).isTrue();
        assertThat(attachedNow).as("the socket serves the new session's stream, not the old one's").containsExactly("s2");
        client.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}");
        assertThat(client.nextText()).contains("\"result\"");
        assertThat(requestSessions.poll(10, TimeUnit.SECONDS)).isEqualTo("s2");
        assertThat(log.list).anySatisfy(event -> assertThat(event.getFormattedMessage())
                .contains("event=ws-session-end-failed").contains("expires once idle"));
    }
}
