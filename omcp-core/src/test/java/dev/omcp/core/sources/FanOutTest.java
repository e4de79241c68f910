package dev.omcp.core.sources;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.omcp.core.testing.CapturedLog;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.SourceConfig;
import jakarta.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class FanOutTest {
    private static final Connector CONNECTOR = new Connector() {
        @Override
        public SourceConfig source() {
            return new SourceConfig("hung", "test", "https://hung.example.com", "", JsonObject.EMPTY_JSON_OBJECT);
        }

        @Override
        public Health health() {
            return new Health(true, "test", Duration.ZERO);
        }

        @Override
        public void close() {}
    };

    /** A connector that promises an interrupt ends its calls, as the builtin HTTP connectors do. */
    private static final Connector INTERRUPTIBLE = new Connector() {
        @Override
        public SourceConfig source() {
            return CONNECTOR.source();
        }

        @Override
        public Health health() {
            return CONNECTOR.health();
        }

        @Override
        public boolean interruptible() {
            return true;
        }

        @Override
        public void close() {}
    };

    @Test
    void aLoneInterruptibleSourceRunsOnTheCallersThread() {
        assertThat(ranOnTheCallersThread(INTERRUPTIBLE)).isTrue();
    }

    @Test
    void aLoneSourceThatMakesNoPromiseRunsOnAThreadOfItsOwn() {
        assertThat(ranOnTheCallersThread(CONNECTOR)).isFalse();
    }

    private static boolean ranOnTheCallersThread(Connector connector) {
        Thread caller = Thread.currentThread();
        List<FanOut.Outcome<Boolean>> outcomes = FanOut.call(List.of(new Bound<>("a", "test", "", "q", connector)),
                q -> Thread.currentThread() == caller, Duration.ofSeconds(5), Duration.ofSeconds(5));
        assertThat(outcomes).singleElement().isInstanceOf(FanOut.Outcome.Answered.class);
        return ((FanOut.Outcome.Answered<Boolean>) outcomes.getFirst()).value();
    }

    @Test
    void aLoneInterruptibleSourceIsInterruptedAtItsDeadlineAndTheInterruptDoesNotOutliveTheCall() {
        long start = System.nanoTime();
        List<FanOut.Outcome<String>> outcomes = FanOut.call(List.of(new Bound<>("a", "test", "", "hang", INTERRUPTIBLE)), q -> {
            hangUntilInterrupted();
            return "late";
        }, Duration.ofMillis(150), Duration.ofSeconds(30));
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(outcomes.getFirst()).isInstanceOfSatisfying(FanOut.Outcome.Failed.class,
                f -> assertThat(f.kind()).isEqualTo(ConnectorException.Kind.TIMEOUT));
        assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(150)).isLessThan(Duration.ofMillis(3000));
        // the thread goes on to write the answer: an interrupt left set would break that
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void aLoneCallThatAnswersInTimeIsNeverInterruptedLater() throws Exception {
        List<FanOut.Outcome<String>> outcomes = FanOut.call(List.of(new Bound<>("a", "test", "", "q", INTERRUPTIBLE)),
                q -> q + "-answer", Duration.ofMillis(50), Duration.ofMillis(50));

        assertThat(outcomes).containsExactly(new FanOut.Outcome.Answered<>("a", "q-answer"));
        // past the cancelled deadline: a stray interrupt would end this sleep with an exception
        Thread.sleep(200);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void aLoneCallThatThrowsUnexpectedlyIsReportedAsAFailedSource() {
        List<FanOut.Outcome<String>> outcomes = FanOut.call(List.of(new Bound<>("a", "test", "", "q", INTERRUPTIBLE)), q -> {
            throw new IllegalStateException("bug with a secret-looking detail");
        }, Duration.ofSeconds(5), Duration.ofSeconds(5));

        assertThat(outcomes.getFirst()).isInstanceOfSatisfying(FanOut.Outcome.Failed.class, f -> {
            assertThat(f.kind()).isEqualTo(ConnectorException.Kind.BAD_RESPONSE);
            assertThat(f.message()).isEqualTo("the connector failed unexpectedly (IllegalStateException)");
        });
    }

    @Test
    void aConnectorsMessage_reachesAgentsCleaned_oneLineWithoutUrlsAndBounded() {
        // a plugin may quote its backend verbatim; the gateway cleans it for every connector
        String quoted = "Tempo answered HTTP 400: bad query\r\nevent=forged at https://user:pw@tempo.internal/api?token=abc " + "x".repeat(5000);
        // both paths: the caller's own thread (interruptible) and a thread of its own
        for (Connector connector : List.of(INTERRUPTIBLE, CONNECTOR)) {
            Bound<String> bound = new Bound<>("a", "test", "", "q", connector);
            List<FanOut.Outcome<String>> outcomes = FanOut.call(List.of(bound), q -> {
                throw new ConnectorException(ConnectorException.Kind.BAD_QUERY, quoted);
            }, Duration.ofSeconds(5), Duration.ofSeconds(5));
            assertThat(outcomes.getFirst()).isInstanceOfSatisfying(FanOut.Outcome.Failed.class, f -> {
                assertThat(f.message()).startsWith("Tempo answered HTTP 400: bad query event=forged at <url> xxx")
                        .doesNotContain("\n", "pw@", "token=abc").hasSize(FanOut.MAX_MESSAGE_CHARS + 1).endsWith("…");
            });
        }
    }

    @RegisterExtension
    final CapturedLog log = new CapturedLog(FanOut.class);

    @Test
    void anEgressRefusal_reachesAgentsWithoutTheInternalAddress_andTheOperatorsLogWithIt() {
        String detailed = "the egress guard refused the Prometheus address: the backend address is a cloud-metadata address: the "
                + "IPv6 address leads through the NAT64 prefix 2001:db8:64::/96 to the IPv4 address 169.254.169.254, which is "
                + "never allowed, not even with OMCP_ALLOW_PRIVATE_BACKENDS";
        // both paths: the caller's own thread (interruptible) and a thread of its own
        for (Connector connector : List.of(INTERRUPTIBLE, CONNECTOR)) {
            List<FanOut.Outcome<String>> outcomes = FanOut.call(List.of(new Bound<>("prom-eu", "test", "", "q", connector)), q -> {
                throw new ConnectorException(ConnectorException.Kind.ADDRESS_REFUSED, detailed);
            }, Duration.ofSeconds(5), Duration.ofSeconds(5));

            assertThat(outcomes.getFirst()).isInstanceOfSatisfying(FanOut.Outcome.Failed.class, f -> {
                assertThat(f.kind()).isEqualTo(ConnectorException.Kind.ADDRESS_REFUSED);
                assertThat(f.message()).isEqualTo(FanOut.EGRESS_REFUSED_FOR_AGENTS).doesNotContain("169.254", "2001:db8", "NAT64");
            });
        }
        assertThat(FanOut.EGRESS_REFUSED_FOR_AGENTS).contains("egress policy", "operator");
        // the operator reads the whole reason, once for the source: a refused source fails every call alike
        assertThat(log.messages(Level.WARN)).singleElement().isEqualTo("event=source-egress-refused source=prom-eu "
                + "reason=\"" + detailed + "\" occurrences=1");
    }

    @Test
    void aLoneCallOfACancelledToolCallKeepsTheCancellation() {
        // the interrupt a caller had before the call is not the deadline's, so it stays for the caller to see
        Thread.currentThread().interrupt();
        try {
            List<FanOut.Outcome<String>> outcomes = FanOut.call(List.of(new Bound<>("a", "test", "", "q", INTERRUPTIBLE)), q -> {
                hangUntilInterrupted();
                throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "the call was interrupted");
            }, Duration.ofSeconds(5), Duration.ofSeconds(5));

            assertThat(outcomes.getFirst()).isInstanceOfSatisfying(FanOut.Outcome.Failed.class,
                    f -> assertThat(f.kind()).isEqualTo(ConnectorException.Kind.UNAVAILABLE));
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void manyHungCallsCostOneTimeoutBecauseEachTimeoutRunsFromTheCommonStart() {
        // one tool call sends many queries to one hung source at once (a signal per metric); they all time out
        // together, not one timeout after another while each waits its turn to be awaited
        List<Bound<String>> calls = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            calls.add(new Bound<>("hung", "test", "", "query-" + i, CONNECTOR));
        }
        long start = System.nanoTime();
        List<FanOut.Outcome<String>> outcomes = FanOut.call(calls, q -> {
            hangUntilInterrupted();
            throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "interrupted");
        }, Duration.ofMillis(300), Duration.ofSeconds(30));
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(outcomes).hasSize(10).allSatisfy(o -> assertThat(o).isInstanceOfSatisfying(FanOut.Outcome.Failed.class,
                f -> assertThat(f.kind()).isEqualTo(ConnectorException.Kind.TIMEOUT)));
        // ten timeouts in a row would be 3 s; one is 0.3 s (the bound leaves room for a loaded machine)
        assertThat(took).isLessThan(Duration.ofMillis(2000));
    }

    @Test
    void answersThatArriveInTimeAreKeptNextToTheTimeouts() {
        List<Bound<String>> calls = List.of(new Bound<>("a", "test", "", "fast", CONNECTOR), new Bound<>("b", "test", "", "hang", CONNECTOR));
        List<FanOut.Outcome<String>> outcomes = FanOut.call(calls, q -> {
            if (q.equals("hang")) {
                hangUntilInterrupted();
            }
            return q + "-answer";
        }, Duration.ofMillis(200), Duration.ofSeconds(1));
        assertThat(outcomes.get(0)).isEqualTo(new FanOut.Outcome.Answered<>("a", "fast-answer"));
        assertThat(outcomes.get(1)).isInstanceOf(FanOut.Outcome.Failed.class);
    }

    @Test
    void aSourceThatIgnoresInterruptionStillEndsTheWaitAtTheDeadline() {
        // a connector stuck in code that never checks for interruption: the fan-out answers at its deadline anyway
        AtomicBoolean release = new AtomicBoolean();
        List<Bound<String>> calls = List.of(new Bound<>("a", "test", "", "fast", CONNECTOR), new Bound<>("b", "test", "", "stuck", CONNECTOR));
        long start = System.nanoTime();
        try {
            List<FanOut.Outcome<String>> outcomes = FanOut.call(calls, q -> {
                while (q.equals("stuck") && !release.get()) {
                    Thread.onSpinWait();
                }
                return q + "-answer";
            }, Duration.ofMillis(200), Duration.ofSeconds(30));
            Duration took = Duration.ofNanos(System.nanoTime() - start);

            assertThat(outcomes.get(0)).isEqualTo(new FanOut.Outcome.Answered<>("a", "fast-answer"));
            assertThat(outcomes.get(1)).isInstanceOfSatisfying(FanOut.Outcome.Failed.class,
                    f -> assertThat(f.kind()).isEqualTo(ConnectorException.Kind.TIMEOUT));
            assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(200)).isLessThan(Duration.ofMillis(3000));
        } finally {
            release.set(true);
        }
    }

    @Test
    void aLoneSourceThatIgnoresInterruptionStillEndsTheWaitAtTheDeadline() {
        AtomicBoolean release = new AtomicBoolean();
        long start = System.nanoTime();
        try {
            List<FanOut.Outcome<String>> outcomes = FanOut.call(List.of(new Bound<>("b", "test", "", "stuck", CONNECTOR)), q -> {
                while (!release.get()) {
                    Thread.onSpinWait();
                }
                return "late";
            }, Duration.ofMillis(200), Duration.ofSeconds(30));

            assertThat(outcomes.getFirst()).isInstanceOfSatisfying(FanOut.Outcome.Failed.class,
                    f -> assertThat(f.kind()).isEqualTo(ConnectorException.Kind.TIMEOUT));
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(3000));
        } finally {
            release.set(true);
        }
    }

    @Test
    void theOverallDeadlineCutsAPerSourceTimeoutThatIsLonger() {
        List<Bound<String>> calls = List.of(new Bound<>("a", "test", "", "hang", CONNECTOR));
        long start = System.nanoTime();
        List<FanOut.Outcome<String>> outcomes = FanOut.call(calls, q -> {
            hangUntilInterrupted();
            return "late";
        }, Duration.ofSeconds(30), Duration.ofMillis(150));

        assertThat(outcomes.get(0)).isInstanceOfSatisfying(FanOut.Outcome.Failed.class,
                f -> assertThat(f.kind()).isEqualTo(ConnectorException.Kind.TIMEOUT));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(3000));
    }

    /** A backend call that never answers; it returns (with the interrupt flag set) once interrupted. */
    @Test
    void everyOutcomeIsNotedInItsSourcesActivity_onBothPaths() {
        for (Connector connector : List.of(INTERRUPTIBLE, CONNECTOR)) {
            SourceActivity answering = new SourceActivity(Clock.systemUTC());
            SourceActivity failing = new SourceActivity(Clock.systemUTC());
            FanOut.call(List.of(new Bound<>("a", "test", "", "ok", connector, answering)), q -> q, Duration.ofSeconds(5),
                    Duration.ofSeconds(5));
            FanOut.call(List.of(new Bound<>("b", "test", "", "down", connector, failing)), q -> {
                throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "Loki could not be reached");
            }, Duration.ofSeconds(5), Duration.ofSeconds(5));

            assertThat(answering.contact().lastAnswer()).isPresent();
            assertThat(answering.contact().lastFailure()).isEmpty();
            assertThat(failing.contact().lastFailureKind()).contains(ConnectorException.Kind.UNAVAILABLE);
            assertThat(failing.contact().failingNow()).isTrue();
        }
    }

    @Test
    void aCallCutByTheDeadlineIsNotedAsATimeout_onBothPaths() {
        for (Connector connector : List.of(INTERRUPTIBLE, CONNECTOR)) {
            SourceActivity activity = new SourceActivity(Clock.systemUTC());
            FanOut.call(List.of(new Bound<>("a", "test", "", "hang", connector, activity)), q -> {
                hangUntilInterrupted();
                return "late";
            }, Duration.ofMillis(100), Duration.ofSeconds(5));

            assertThat(activity.contact().lastFailureKind()).contains(ConnectorException.Kind.TIMEOUT);
        }
    }

    @Test
    void aCallTheCallerCancelled_saysNothingAboutTheSource() {
        // an agent that cancels its tool call does not make the backend look down in list_sources
        SourceActivity activity = new SourceActivity(Clock.systemUTC());
        Thread.currentThread().interrupt();
        try {
            FanOut.call(List.of(new Bound<>("a", "test", "", "q", INTERRUPTIBLE, activity)), q -> {
                hangUntilInterrupted();
                throw new ConnectorException(ConnectorException.Kind.UNAVAILABLE, "the call to Loki was interrupted");
            }, Duration.ofSeconds(5), Duration.ofSeconds(5));
        } finally {
            Thread.interrupted();
        }

        assertThat(activity.contact()).isEqualTo(dev.omcp.ports.sources.SourceContact.NONE);
    }

    private static void hangUntilInterrupted() {
        try {
            new CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
