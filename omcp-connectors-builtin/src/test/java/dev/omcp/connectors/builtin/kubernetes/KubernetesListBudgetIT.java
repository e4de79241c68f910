package dev.omcp.connectors.builtin.kubernetes;

import static dev.omcp.connectors.builtin.kubernetes.WatchThread.eventually;
import static dev.omcp.testkit.kubernetes.KubernetesFake.pod;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import dev.omcp.sdk.memory.AnswerBudget;
import dev.omcp.testkit.kubernetes.KubernetesFake;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * A list page's JSON tree counts against the answer budget for as long as it is alive: until its
 * objects have been reduced to the watcher's own {@link Resource}s, not only while it arrives.
 */
class KubernetesListBudgetIT {
    private static final String PODS = "/api/v1/pods";
    private KubernetesFake api;
    private HttpClient client;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private Thread running;
    private final Logger watcherLog = (Logger) LoggerFactory.getLogger(KindWatcher.class);
    private final PausingAtReduction pause = new PausingAtReduction();

    @BeforeEach
    void cluster() throws Exception {
        pause.start();
        watcherLog.addAppender(pause);
        watcherLog.setLevel(Level.DEBUG);
        api = new KubernetesFake();
        // one page: the watcher asks for 500 objects at a time
        api.applyAll(PODS, IntStream.range(0, 400).mapToObj(i -> pod("prod", "pod-%04d".formatted(i), Map.of("app", "shop"),
                "worker-1", null, List.of("app", "sidecar"))).toList());
        client = HttpClient.newHttpClient();
    }

    @AfterEach
    void stop() throws InterruptedException {
        // as the connector's close: the watcher stops, and the watch it holds open ends with the client
        stopped.countDown();
        if (running != null) {
            running.interrupt();
        }
        client.shutdownNow();
        if (running != null) {
            assertThat(running.join(Duration.ofSeconds(10))).as("the watcher's thread ended").isTrue();
        }
        api.close();
        watcherLog.setLevel(null); // back to what logback-test.xml says
        watcherLog.detachAppender(pause);
    }

    /**
     * Holds the watcher at the first page it logs as read, the moment its objects are about to be
     * reduced to {@link Resource}s, until the test lets it go.
     */
    private static final class PausingAtReduction extends AppenderBase<ILoggingEvent> {
        final CountDownLatch reached = new CountDownLatch(1);
        final CountDownLatch goOn = new CountDownLatch(1);

        @Override
        protected void append(ILoggingEvent event) {
            if (event.getFormattedMessage().startsWith("event=kubernetes-list-page source=budgeted ") && reached.getCount() > 0) {
                reached.countDown();
                try {
                    goOn.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    @Test
    void whileAListPageIsReducedToResources_itsTreeStillCountsAgainstTheBudget_soASecondAnswerAsLargeIsRefused() throws Exception {
        // the page as the watcher receives it, to size a budget that holds one such answer read into a tree and not two
        HttpResponse<byte[]> direct = client.send(HttpRequest.newBuilder(URI.create(api.url() + PODS + "?limit=500")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        long pageAsTree = (long) direct.body().length * AnswerBudget.Reading.TREE.weight();
        AnswerBudget budget = AnswerBudget.ofBytes(pageAsTree + pageAsTree / 2);
        KindWatcher pods = new KindWatcher("budgeted", WatchedCollection.clusterWide("pod", PODS),
                new ClusterAccess(api.url(), client, Optional.empty(), Optional.empty(), Clock.systemUTC()), Duration.ofSeconds(2),
                Duration.ofSeconds(30), WatchLimits.DEFAULT, new AtomicLong(), stopped, budget, Clock.systemUTC());
        running = Thread.ofVirtual().name("omcp-test-k8s-pods").start(pods);

        assertThat(pause.reached.await(10, TimeUnit.SECONDS)).as("the watcher reached the reduction of its first page").isTrue();
        try {
            assertThat(budget.inFlight()).as("the page's tree is alive, so its bytes are still reserved").isEqualTo(pageAsTree);
            assertThat(budget.tryReserve(pageAsTree)).as("a second answer as large does not fit beside it").isFalse();
        } finally {
            pause.goOn.countDown();
        }

        assertThat(pods.awaitFirstList(Duration.ofSeconds(10))).isTrue();
        assertThat(pods.snapshot()).hasSize(400);
        // reduced to Resources: the tree is garbage and the budget has it back (an idle watch holds nothing)
        eventually(() -> budget.inFlight() == 0);
        assertThat(budget.tryReserve(pageAsTree)).isTrue();
        budget.release(pageAsTree);
    }
}
