package dev.omcp.core.hooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.sdk.hook.HookContext;
import dev.omcp.sdk.hook.HookKind;
import dev.omcp.sdk.hook.HookResult;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Hooks that misbehave past their timeout (spec 6.1: a timeout counts as a throw). The timeout
 * frees the call, but a hook that does not stop keeps its thread: these tests check that such a
 * hook can neither starve the gateway's other work nor pile up threads without bound.
 */
class HookPipelineTest {
    private static final HookContext CONTEXT = new HookContext("ci-bot", "acme", HookKind.TOOL_PRE_INVOKE, "echo");
    private static final JsonObject PAYLOAD = Json.createObjectBuilder().add("args", Json.createObjectBuilder().add("q", "x")).build();
    private static final Duration TIMEOUT = Duration.ofMillis(50);

    private final HookRegistry registry = new HookRegistry();
    private final HookPipeline pipeline = new HookPipeline(registry, Optional.empty(), TIMEOUT, Clock.systemUTC());
    private final AtomicBoolean stop = new AtomicBoolean();
    private final CountDownLatch release = new CountDownLatch(1);

    @AfterEach
    void endRunawayHooks() {
        stop.set(true);
        release.countDown();
    }

    @Test
    void aHookThatSpinsWithoutEnd_doesNotStarveTheVirtualThreadsTheGatewayRunsOn() throws Exception {
        registry.register(new HookRegistration("spinner", HookKind.TOOL_PRE_INVOKE, 100, HookMode.ENFORCE, (context, payload) -> {
            while (!stop.get()) {
                Thread.onSpinWait(); // busy, never blocking: a virtual thread here would never give up its carrier
            }
            return HookResult.proceed();
        }));
        // one spinning run per core: as many as the virtual-thread scheduler has carriers
        for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
            assertThat(pipeline.run(CONTEXT, PAYLOAD)).isInstanceOf(HookVerdict.Blocked.class);
        }

        CountDownLatch ran = new CountDownLatch(1);
        Thread.ofVirtual().start(ran::countDown);
        assertThat(ran.await(5, TimeUnit.SECONDS)).as("a virtual thread still gets to run").isTrue();
    }

    @Test
    void runsWhoseThreadDidNotStartInTime_areAbandoned_notCountedAsStuck_soTheHookIsNotBlockedForGood() throws Exception {
        // one worker thread, held by a task of the test's: every run waits in its queue past the timeout,
        // as on a machine too loaded to start a thread within 50 ms
        ExecutorService held = Executors.newSingleThreadExecutor();
        CountDownLatch holding = new CountDownLatch(1);
        held.submit(() -> {
            holding.await();
            return null;
        });
        Duration timeout = Duration.ofMillis(250);
        HookPipeline slowToStart = new HookPipeline(registry, Optional.empty(), timeout, Clock.systemUTC(), held);
        AtomicInteger ran = new AtomicInteger();
        registry.register(new HookRegistration("queued", HookKind.TOOL_PRE_INVOKE, 100, HookMode.ENFORCE, (context, payload) -> {
            ran.incrementAndGet();
            return HookResult.proceed();
        }));
        try {
            for (int i = 0; i < HookPipeline.MAX_RUNNING + 2; i++) {
                assertThat(slowToStart.run(CONTEXT, PAYLOAD)).as("call %d", i).isInstanceOfSatisfying(HookVerdict.Blocked.class,
                        blocked -> assertThat(blocked.reason()).isEqualTo("hook queued/tool_pre_invoke did not answer within 250 ms"));
            }
            holding.countDown();
            held.submit(() -> { }).get(); // the queue is empty: what was waiting in it has been dropped or has run
            assertThat(slowToStart.run(CONTEXT, PAYLOAD)).as("the thread is free again, and nothing counts as stuck")
                    .isInstanceOf(HookVerdict.Proceed.class);
            assertThat(ran.get()).as("the abandoned runs never ran the hook").isEqualTo(1);
        } finally {
            holding.countDown();
            held.shutdownNow();
        }
    }

    @Test
    void aHookThatNeverEnds_isNotStartedAgainPastABound_soItsStuckRunsCannotPileUp() {
        AtomicInteger started = new AtomicInteger();
        registry.register(new HookRegistration("stuck", HookKind.TOOL_PRE_INVOKE, 100, HookMode.ENFORCE, (context, payload) -> {
            started.incrementAndGet();
            while (true) {
                try {
                    release.await();
                    return HookResult.proceed();
                } catch (InterruptedException ignored) {
                    // a hook that ignores the interrupt the timeout sends: the worst case
                }
            }
        }));

        HookVerdict last = null;
        for (int i = 0; i < 50; i++) {
            last = pipeline.run(CONTEXT, PAYLOAD);
            assertThat(last).as("call %d", i).isInstanceOf(HookVerdict.Blocked.class);
        }

        assertThat(started.get()).as("runs of the stuck hook that were started").isEqualTo(HookPipeline.MAX_RUNNING);
        assertThat(((HookVerdict.Blocked) last).reason()).isEqualTo("hook stuck/tool_pre_invoke was not started: the hooks of plugin "
                + "'stuck' are still running " + HookPipeline.MAX_RUNNING + " earlier calls past their 50 ms timeout; they are not "
                + "started again until one of those ends");
    }

    @Test
    void aReinstalledPlugin_whoseOldHookIsStuck_cannotHoldMoreThreadsThanTheBound_norThroughItsOtherKinds() {
        AtomicInteger started = new AtomicInteger();
        java.util.function.Supplier<dev.omcp.sdk.hook.Hook> stuckHook = () -> (context, payload) -> {
            started.incrementAndGet();
            while (true) {
                try {
                    release.await();
                    return HookResult.proceed();
                } catch (InterruptedException ignored) {
                    // ignores the interrupt its timeout sends
                }
            }
        };
        HookContext resource = new HookContext("ci-bot", "acme", HookKind.RESOURCE_PRE_FETCH, "note://a");
        JsonObject resourcePayload = Json.createObjectBuilder().add("uri", "note://a").build();
        for (int reinstall = 0; reinstall < 3; reinstall++) {
            // what an install does: the plugin's registrations are dropped and new hook objects registered
            registry.replacePlugin("stuck", java.util.List.of(
                    new HookRegistration("stuck", HookKind.TOOL_PRE_INVOKE, 100, HookMode.ENFORCE, stuckHook.get()),
                    new HookRegistration("stuck", HookKind.RESOURCE_PRE_FETCH, 100, HookMode.ENFORCE, stuckHook.get())));
            for (int i = 0; i < HookPipeline.MAX_RUNNING + 2; i++) {
                assertThat(pipeline.run(CONTEXT, PAYLOAD)).isInstanceOf(HookVerdict.Blocked.class);
                assertThat(pipeline.run(resource, resourcePayload)).isInstanceOf(HookVerdict.Blocked.class);
            }
        }

        assertThat(started.get()).as("threads the plugin's stuck runs hold, over every reinstall and kind")
                .isEqualTo(HookPipeline.MAX_RUNNING);
    }

    @Test
    void aStuckHookThatEnds_isStartedAgain_andOtherHooksWereNeverHeldBack() throws Exception {
        AtomicInteger started = new AtomicInteger();
        AtomicBoolean stuck = new AtomicBoolean(true);
        registry.register(new HookRegistration("stuck", HookKind.TOOL_PRE_INVOKE, 100, HookMode.PERMISSIVE, (context, payload) -> {
            started.incrementAndGet();
            if (stuck.get()) {
                release.await();
            }
            return HookResult.proceed();
        }));
        AtomicInteger other = new AtomicInteger();
        registry.register(new HookRegistration("other", HookKind.TOOL_PRE_INVOKE, 200, HookMode.ENFORCE, (context, payload) -> {
            other.incrementAndGet();
            return HookResult.proceed();
        }));
        for (int i = 0; i < HookPipeline.MAX_RUNNING + 5; i++) {
            assertThat(pipeline.run(CONTEXT, PAYLOAD)).isInstanceOf(HookVerdict.Proceed.class); // permissive
        }
        assertThat(other.get()).as("the well-behaved hook ran on every call").isEqualTo(HookPipeline.MAX_RUNNING + 5);

        stuck.set(false);
        release.countDown();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int before = started.get();
        while (started.get() == before && System.nanoTime() < deadline) {
            pipeline.run(CONTEXT, PAYLOAD);
            Thread.sleep(10); // the released runs end on their own threads
        }
        assertThat(started.get()).as("once its stuck runs end, the hook runs again").isGreaterThan(before);
    }

    @Test
    void aBurstOfConcurrentCallsToAHookThatNeverEnds_startsNoMoreRunsThanTheBound() throws Exception {
        AtomicInteger started = new AtomicInteger();
        registry.register(new HookRegistration("stuck", HookKind.TOOL_PRE_INVOKE, 100, HookMode.ENFORCE, (context, payload) -> {
            started.incrementAndGet();
            while (true) {
                try {
                    release.await();
                    return HookResult.proceed();
                } catch (InterruptedException ignored) {
                    // ignores the interrupt its timeout sends
                }
            }
        }));
        // long enough that, on a loaded machine, every call is under way before the first run is overdue
        Duration timeout = Duration.ofMillis(500);
        HookPipeline burst = new HookPipeline(registry, Optional.empty(), timeout, Clock.systemUTC());

        List<HookVerdict> verdicts = concurrently(HookPipeline.MAX_RUNNING * 5, () -> burst.run(CONTEXT, PAYLOAD));

        assertThat(verdicts).allSatisfy(verdict -> assertThat(verdict).isInstanceOf(HookVerdict.Blocked.class));
        assertThat(started.get()).as("threads the burst's stuck runs hold").isEqualTo(HookPipeline.MAX_RUNNING);
        assertThat(verdicts).filteredOn(verdict -> ((HookVerdict.Blocked) verdict).reason().contains("was not started"))
                .hasSize(HookPipeline.MAX_RUNNING * 4);
        assertThat(burst.run(CONTEXT, PAYLOAD)).as("once they are overdue, a call fails at once, as before")
                .isInstanceOfSatisfying(HookVerdict.Blocked.class, blocked -> assertThat(blocked.reason())
                        .contains("are still running " + HookPipeline.MAX_RUNNING + " earlier calls past their 500 ms timeout"));
    }

    @Test
    void moreConcurrentCallsThanTheBound_toAHookThatAnswers_allRun_eachWaitingForARunToEnd() throws Exception {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        registry.register(new HookRegistration("busy", HookKind.TOOL_PRE_INVOKE, 100, HookMode.ENFORCE, (context, payload) -> {
            mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
            try {
                Thread.sleep(20);
            } finally {
                running.decrementAndGet();
            }
            return HookResult.proceed();
        }));
        HookPipeline roomy = new HookPipeline(registry, Optional.empty(), Duration.ofSeconds(10), Clock.systemUTC());

        List<HookVerdict> verdicts = concurrently(HookPipeline.MAX_RUNNING * 4, () -> roomy.run(CONTEXT, PAYLOAD));

        assertThat(verdicts).as("a healthy plugin under load is not refused").allSatisfy(verdict ->
                assertThat(verdict).isInstanceOf(HookVerdict.Proceed.class));
        assertThat(mostAtOnce.get()).as("runs of the plugin's hooks at once").isBetween(1, HookPipeline.MAX_RUNNING);
    }

    /** Makes {@code calls} calls at once, each on a virtual thread of its own, and returns their verdicts. */
    private static List<HookVerdict> concurrently(int calls, Callable<HookVerdict> call) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<HookVerdict>> futures = new ArrayList<>();
        try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < calls; i++) {
                futures.add(callers.submit(() -> {
                    go.await();
                    return call.call();
                }));
            }
            go.countDown();
            List<HookVerdict> verdicts = new ArrayList<>();
            for (Future<HookVerdict> future : futures) {
                verdicts.add(future.get(60, TimeUnit.SECONDS));
            }
            return verdicts;
        }
    }

    @Test
    void aClientsTargetQuotedInAHookLogLine_cannotBreakTheLineOrItsQuotes_andALongOneIsCut() {
        // the target is the client's tool name, resource URI or prompt name
        assertThat(HookPipeline.forLog("note://a\nevent=login outcome=ok\"x")).isEqualTo("note://a?event=login outcome=ok?x");
        assertThat(HookPipeline.forLog("é\u2028\t")).isEqualTo("???");
        assertThat(HookPipeline.forLog("u".repeat(5000))).isEqualTo("u".repeat(HookPipeline.LOG_FIELD_MAX) + "...");
        assertThat(HookPipeline.forLog("echo")).isEqualTo("echo");
    }

    @Test
    void aBackslashInAHookLogField_cannotEscapeItsClosingQuote() {
        // target="echo\" principal=" would read, to a key="value" parser, as one value running into the next field
        String line = "target=\"" + HookPipeline.forLog("echo\\") + "\" principal=\"" + HookPipeline.forLog(" event=forged x=") + "\"";
        assertThat(line).isEqualTo("target=\"echo?\" principal=\" event=forged x=\"");
        assertThat(HookPipeline.forLog("a\\\"b")).isEqualTo("a??b");
    }
}
