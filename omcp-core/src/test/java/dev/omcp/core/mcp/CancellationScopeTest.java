package dev.omcp.core.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.gateway.Gateway;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpEndpoint;
import dev.omcp.ports.mcp.McpInbound;
import dev.omcp.ports.mcp.McpReply;
import dev.omcp.ports.mcp.McpTransport;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code notifications/cancelled} reaches only the canceller's own requests. Calls without a session
 * (in-process, embedded use) all have the session id "", and request ids are each client's own
 * choice, so two callers easily use the same one: one caller's cancellation must never end another's.
 */
class CancellationScopeTest {
    private static final Principal ALICE = Principal.apiKey("alice", "");
    private static final Principal MALLORY = Principal.apiKey("mallory", "");
    private static final String LIST = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}";
    private static final String CANCEL = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}";

    private final CountDownLatch running = new CountDownLatch(1);
    private final CountDownLatch mayEnd = new CountDownLatch(1);
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final McpEndpoint endpoint = Gateway.builder().interceptor((call, next) -> {
        if (call.method().equals("tools/list")) {
            running.countDown();
            try {
                mayEnd.await();
            } catch (InterruptedException e) {
                return McpResult.Failure.of(JsonRpc.REQUEST_REFUSED, "cancelled");
            }
        }
        return next.proceed(call);
    }).build().mcp();

    @AfterEach
    void stop() {
        mayEnd.countDown();
        executor.shutdownNow();
    }

    @Test
    void anotherCallersCancellationOfTheSameId_leavesTheRequestRunning() throws Exception {
        Future<McpReply> alices = executor.submit(() -> send(ALICE, LIST));
        assertThat(running.await(10, TimeUnit.SECONDS)).as("alice's request runs").isTrue();

        assertThat(send(MALLORY, CANCEL)).isInstanceOf(McpReply.Accepted.class);
        mayEnd.countDown();

        McpReply.Response answer = (McpReply.Response) alices.get(10, TimeUnit.SECONDS);
        assertThat(answer.error()).as("not cancelled by mallory: %s", answer.json()).isFalse();
    }

    @Test
    void theCallersOwnCancellation_stillEndsItsRequest() throws Exception {
        Future<McpReply> alices = executor.submit(() -> send(ALICE, LIST));
        assertThat(running.await(10, TimeUnit.SECONDS)).as("alice's request runs").isTrue();

        send(ALICE, CANCEL);

        McpReply.Response answer = (McpReply.Response) alices.get(10, TimeUnit.SECONDS);
        assertThat(answer.error()).isTrue();
        assertThat(answer.json()).contains("cancelled");
    }

    /**
     * Embedded callers without authentication all are {@link Principal#anonymous()}: without a session
     * nothing tells one from another, so none of them may reach the others' requests by their ids.
     */
    @Test
    void anAnonymousEmbeddedCallersCancellation_leavesAnotherAnonymousCallersRequestRunning() throws Exception {
        Future<McpReply> first = executor.submit(() -> send(Principal.anonymous(), LIST));
        assertThat(running.await(10, TimeUnit.SECONDS)).as("the first caller's request runs").isTrue();

        assertThat(send(Principal.anonymous(), CANCEL)).isInstanceOf(McpReply.Accepted.class);
        mayEnd.countDown();

        McpReply.Response answer = (McpReply.Response) first.get(10, TimeUnit.SECONDS);
        assertThat(answer.error()).as("not cancelled by another anonymous caller: %s", answer.json()).isFalse();
    }

    /** An anonymous embedded caller that opened a session cancels within it, and only within it. */
    @Test
    void anAnonymousEmbeddedCallerWithASession_cancelsItsOwnRequest_butNotAnotherSessionsOfTheSameId() throws Exception {
        Optional<String> mine = Optional.of(initialize());
        Optional<String> other = Optional.of(initialize());
        Future<McpReply> request = executor.submit(() -> send(Principal.anonymous(), mine, LIST));
        assertThat(running.await(10, TimeUnit.SECONDS)).as("the request runs").isTrue();

        assertThat(send(Principal.anonymous(), other, CANCEL)).isInstanceOf(McpReply.Accepted.class);
        assertThat(request).as("another session's cancellation leaves it running").isNotDone();
        send(Principal.anonymous(), mine, CANCEL);

        McpReply.Response answer = (McpReply.Response) request.get(10, TimeUnit.SECONDS);
        assertThat(answer.error()).isTrue();
        assertThat(answer.json()).contains("cancelled");
    }

    private String initialize() {
        McpReply reply = send(Principal.anonymous(), Optional.empty(), "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\","
                + "\"params\":{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}");
        return ((McpReply.Response) reply).newSessionId().orElseThrow();
    }

    private McpReply send(Principal caller, String body) {
        return send(caller, Optional.empty(), body);
    }

    private McpReply send(Principal caller, Optional<String> session, String body) {
        return endpoint.handle(new McpInbound(caller, session, Optional.empty(), body, McpTransport.IN_PROCESS),
                message -> true);
    }
}
