package dev.omcp.connectors.builtin.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ExchangeDeadlinesTest {
    private static final String THREAD = "omcp-backend-exchange-deadlines";

    private static boolean threadAlive() {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(THREAD) && t.isAlive());
    }

    private static void expiresWithATimeout() {
        CompletableFuture<HttpResponse<String>> never = new CompletableFuture<>();
        CompletableFuture<HttpResponse<String>> bounded = ExchangeDeadlines.SHARED.bound(never, Duration.ofMillis(200));
        assertThatThrownBy(() -> bounded.get(5, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(HttpTimeoutException.class);
        // cancelled right after the answer failed, on the watcher's thread
        long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (!never.isCancelled() && System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        assertThat(never).as("the exchange is cancelled, which closes its connection").isCancelled();
    }

    @Test
    void aWatchedCallerPastItsDeadlineIsInterrupted_andFinishingClearsThatInterrupt() throws Exception {
        CompletableFuture<Boolean> outcome = new CompletableFuture<>();
        Thread caller = Thread.ofVirtual().start(() -> {
            ExchangeDeadlines.Watch watch = ExchangeDeadlines.SHARED.watch(Thread.currentThread(), Duration.ofMillis(200));
            try {
                Thread.sleep(10_000); // as the JDK's send waits for an answer that trickles
                outcome.complete(false);
            } catch (InterruptedException e) {
                outcome.complete(watch.finish() && !Thread.currentThread().isInterrupted());
            }
        });
        assertThat(outcome.get(5, TimeUnit.SECONDS)).as("interrupted by the watch, which says so and leaves no interrupt behind").isTrue();
        caller.join();

        ExchangeDeadlines.Watch inTime = ExchangeDeadlines.SHARED.watch(Thread.currentThread(), Duration.ofSeconds(5));
        assertThat(inTime.finish()).isFalse();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        assertThat(ExchangeDeadlines.SHARED.inFlight()).isZero();
    }

    @Test
    void anExchangePastItsTimeoutEnds_andTheIdleThreadEnds_andTheNextExchangeIsStillHeldToItsTimeout() throws InterruptedException {
        expiresWithATimeout();

        // an embedding service that closed its gateway keeps no thread of ours once nothing is in flight
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (threadAlive() && System.nanoTime() < until) {
            Thread.sleep(50);
        }
        assertThat(threadAlive()).as("the idle watcher thread ended").isFalse();

        expiresWithATimeout();
    }

    @Test
    void anExchangeThatCompletesInTimeIsAnsweredAsItCame() throws Exception {
        CompletableFuture<HttpResponse<String>> exchange = new CompletableFuture<>();
        CompletableFuture<HttpResponse<String>> bounded = ExchangeDeadlines.SHARED.bound(exchange, Duration.ofSeconds(5));
        exchange.completeExceptionally(new java.io.IOException("reset"));
        assertThatThrownBy(() -> bounded.get(5, TimeUnit.SECONDS)).hasCauseInstanceOf(java.io.IOException.class)
                .hasRootCauseMessage("reset");
        assertThat(ExchangeDeadlines.SHARED.inFlight()).isZero();
    }
}
