package dev.omcp.core.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.gateway.Gateway;
import dev.omcp.core.testing.McpTestClient;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.mcp.McpReply;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import java.io.StringReader;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A cancellation that found its request in flight, but reached it only after the request ended,
 * must not interrupt whatever the same thread runs next: in a batch, the next element.
 */
class CancellationRaceTest {

    @Test
    void aCancellationOfARequestThatEndedMeanwhile_leavesTheNextElementOfTheBatchAlone() throws Exception {
        CountDownLatch firstRunning = new CountDownLatch(1);
        CountDownLatch firstMayEnd = new CountDownLatch(1);
        CountDownLatch secondRunning = new CountDownLatch(1);
        CountDownLatch cancellationDone = new CountDownLatch(1);
        Gateway gateway = Gateway.builder().interceptor((call, next) -> {
            try {
                if (call.method().equals("tools/list")) {
                    firstRunning.countDown();
                    // not interruptible by design: this request ends on its own, as if it finished
                    // just as the cancellation arrived
                    awaitUninterruptibly(firstMayEnd);
                } else if (call.method().equals("prompts/list")) {
                    secondRunning.countDown();
                    // throws at once if the cancellation of the first request reached this one
                    cancellationDone.await();
                }
            } catch (InterruptedException e) {
                return McpResult.Failure.of(JsonRpc.REQUEST_REFUSED, "cancelled");
            }
            return next.proceed(call);
        }).build();
        McpDispatcher dispatcher = (McpDispatcher) gateway.mcp();
        McpTestClient client = new McpTestClient(dispatcher, Principal.anonymous());
        client.initialize("2025-03-26");
        // the cancellation has read the first request from the table; before it acts, the first
        // request ends and the thread moves on to the batch's second element
        dispatcher.beforeInterrupt(id -> {
            firstMayEnd.countDown();
            awaitUninterruptibly(secondRunning);
        });

        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        try {
            Future<McpReply> batch = executor.submit(() -> client.raw("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"},"
                    + "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"prompts/list\"}]"));
            assertThat(firstRunning.await(10, TimeUnit.SECONDS)).as("the first element runs").isTrue();

            client.raw("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}");
            cancellationDone.countDown();

            JsonArray answers = Json.createReader(new StringReader(((McpReply.Response) batch.get(10, TimeUnit.SECONDS)).json()))
                    .readArray();
            assertThat(answers.getJsonObject(1).getInt("id")).isEqualTo(2);
            assertThat(answers.getJsonObject(1).containsKey("result"))
                    .as("the second element was not cancelled: %s", answers.getJsonObject(1)).isTrue();
        } finally {
            executor.shutdownNow();
        }
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
