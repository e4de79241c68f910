package dev.omcp.adapters.http.mcp;

import dev.omcp.ports.identity.AgentAuthResult;
import dev.omcp.ports.identity.AgentAuthentication;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpEndpoint;
import dev.omcp.ports.mcp.McpOutbound;
import io.javalin.Javalin;
import java.util.Optional;

/** What the WebSocket transport's integration tests share: a server on a free loopback port, and stubs. */
final class WebSocketTestServer {
    private WebSocketTestServer() {}

    /** Lets everyone in as the anonymous principal. */
    static final AgentAuthentication ANONYMOUS = new AgentAuthentication() {
        @Override
        public AgentAuthResult authenticate(Optional<String> bearerToken) {
            return new AgentAuthResult.Authenticated(Principal.anonymous());
        }

        @Override
        public boolean keysConfigured() {
            return false;
        }
    };

    /** An endpoint that knows no session; a test overrides what it exercises. */
    abstract static class StubEndpoint implements McpEndpoint {
        @Override
        public SessionStatus checkSession(String sessionId, Principal principal) {
            return SessionStatus.NOT_FOUND;
        }

        @Override
        public SessionStatus endSession(String sessionId, Principal principal) {
            return SessionStatus.NOT_FOUND;
        }

        @Override
        public AutoCloseable attachStream(String sessionId, McpOutbound stream) {
            return () -> { };
        }

        @Override
        public Optional<String> unsupportedProtocolVersion(String header) {
            return Optional.empty();
        }
    }

    /** Serves {@code transport} at {@code /mcp/ws} on 127.0.0.1 and a free port, and starts its keep-alive. */
    static Javalin start(WebSocketTransport transport) {
        Javalin app = Javalin.create(config -> {
            config.jetty.host = "127.0.0.1";
            config.jetty.port = 0;
            config.startup.showJavalinBanner = false;
            config.jetty.modifyWebSocketServletFactory(transport::observeInboundFrames);
            config.routes.wsBeforeUpgrade("/mcp/ws", transport::beforeUpgrade);
            config.routes.ws("/mcp/ws", transport::configure);
        }).start();
        transport.start();
        return app;
    }
}
