package dev.omcp.sdk.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorException.Kind;
import dev.omcp.sdk.memory.AnswerBudget;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Several large answers at once against one process-wide budget, over real HTTP on loopback: the
 * answers past the budget are refused while they arrive, with an error that says what to do, a
 * small answer still passes, the answer that fit completes, and the budget is whole again after.
 */
class AnswerBudgetIT {
    private static final int LARGE = 1 << 20;
    /** What the first large answer sends before it waits for the test: held while the others arrive. */
    private static final int FIRST_PART = 768 << 10;
    private static final int SMALL = 1000;
    private static final int WEIGHT = AnswerBudget.Reading.TOKENS.weight();
    /** Room for one large answer read as text, and a little more; not for two. */
    private static final AnswerBudget BUDGET = AnswerBudget.ofBytes((long) LARGE * WEIGHT + (64 << 10));

    private final CountDownLatch firstMayFinish = new CountDownLatch(1);
    private final AtomicInteger largeRequests = new AtomicInteger();
    private final ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor();
    private HttpServer server;
    private HttpClient client;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/api/large", exchange -> {
            // chunked, as a backend streams a large answer; the first one stops half-way until the test lets it finish
            boolean first = largeRequests.incrementAndGet() == 1;
            send(exchange, LARGE, first ? FIRST_PART : LARGE);
        });
        server.createContext("/api/huge", exchange -> send(exchange, 2 * LARGE, 2 * LARGE));
        server.createContext("/api/small", exchange -> {
            byte[] body = filled(SMALL);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.start();
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).followRedirects(HttpClient.Redirect.NEVER).build();
    }

    @AfterEach
    void stop() {
        firstMayFinish.countDown();
        callers.close();
        client.close();
        server.stop(0);
    }

    private void send(HttpExchange exchange, int length, int beforeWaiting) throws IOException {
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(filled(beforeWaiting));
            out.flush();
            if (beforeWaiting < length) {
                firstMayFinish.await();
                out.write(filled(length - beforeWaiting));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            // the gateway dropped a refused answer's connection: that is what this test wants
        }
    }

    private static byte[] filled(int size) {
        byte[] bytes = new byte[size];
        Arrays.fill(bytes, (byte) 'x');
        return bytes;
    }

    private BackendApi api() {
        ConnectorContext context = new ConnectorContext() {
            @Override
            public HttpClient httpClient() {
                return client;
            }

            @Override
            public Duration requestTimeout() {
                return Duration.ofSeconds(30);
            }

            @Override
            public Clock clock() {
                return Clock.systemUTC();
            }

            @Override
            public AnswerBudget answerBudget() {
                return BUDGET;
            }
        };
        return new BackendApi("Tracer", BackendApi.baseOf("Tracer", "http://127.0.0.1:" + server.getAddress().getPort()), context, 4 << 20);
    }

    private CompletableFuture<String> large() {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return api().getText("api/large", Map.of());
            } catch (ConnectorException e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        }, callers);
    }

    /** Waits until the first answer's first part has arrived and is reserved: then the budget is nearly spent. */
    private static void awaitReserved(long bytes) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (BUDGET.inFlight() < bytes) {
            assertThat(System.nanoTime()).as("the first part never arrived").isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    @Test
    void largeAnswersPastTheBudget_areRefusedWithWhatToDo_whileASmallOneAndTheFirstPass_andTheBudgetIsWholeAfter() throws Exception {
        CompletableFuture<String> first = large();
        awaitReserved((long) FIRST_PART * WEIGHT);

        List<CompletableFuture<String>> others = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            others.add(large());
        }
        for (CompletableFuture<String> other : others) {
            assertThatThrownBy(() -> other.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOfSatisfying(ConnectorException.class, e -> {
                        assertThat(e.kind()).isEqualTo(Kind.UNAVAILABLE);
                        assertThat(e.getMessage()).startsWith("Tracer answered more than the gateway's memory budget for backend answers "
                                + "in flight (3 MiB) has room for while other answers are being read; retry in a moment")
                                .endsWith("(an operator can raise OMCP_BACKEND_ANSWER_BUDGET_MIB)")
                                .doesNotContain("127.0.0.1");
                    });
        }
        assertThat(first).as("the answer that fit is still arriving").isNotDone();

        assertThat(api().getText("api/small", Map.of())).as("a small answer fits in what is left").hasSize(SMALL);

        firstMayFinish.countDown();
        assertThat(first.get(30, TimeUnit.SECONDS)).hasSize(LARGE);
        assertThat(BUDGET.inFlight()).isZero();
    }

    @Test
    void anAnswerLargerThanTheWholeBudget_isRefusedWithoutHopeOfARetry_andHoldsNothing() {
        assertThatThrownBy(() -> api().getText("api/huge", Map.of()))
                .isInstanceOfSatisfying(ConnectorException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNAVAILABLE))
                .hasMessage("Tracer answered more than the gateway's memory budget for backend answers in flight (3 MiB) can hold; "
                        + "ask for a shorter window or a lower limit (an operator can raise OMCP_BACKEND_ANSWER_BUDGET_MIB)");
        assertThat(BUDGET.inFlight()).isZero();
    }
}
