package dev.omcp.adapters.http.opa;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.access.ExternalDecision;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.access.PolicyDecisionPoint;
import dev.omcp.ports.access.PolicyQuery;
import dev.omcp.ports.identity.AuthKind;
import dev.omcp.ports.identity.Principal;
import dev.omcp.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class OpaCircuitBreakerTest {
    private static final Duration COOL_DOWN = Duration.ofSeconds(5);
    private static final ExternalDecision DOWN = new ExternalDecision.Unavailable("OPA did not answer in full within 2000 ms");
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final AtomicInteger asked = new AtomicInteger();
    private final AtomicReference<Supplier<ExternalDecision>> engineAnswer = new AtomicReference<>(() -> DOWN);
    private final PolicyDecisionPoint engine = query -> {
        asked.incrementAndGet();
        return engineAnswer.get().get();
    };
    private final OpaCircuitBreaker breaker = new OpaCircuitBreaker(engine, 3, COOL_DOWN, clock);
    private final PolicyQuery query = new PolicyQuery(
            new Principal("alice", "Alice", AuthKind.SESSION, "acme", Set.of("sre"), Optional.of("s")), Permission.parse("sources:write"));

    private void answers(ExternalDecision decision) {
        engineAnswer.set(() -> decision);
    }

    private void failThreeTimes() {
        for (int i = 0; i < 3; i++) {
            assertThat(breaker.decide(query)).isEqualTo(DOWN);
        }
    }

    @Test
    void failuresBelowTheThreshold_stillAskTheEngineEveryTime() {
        breaker.decide(query);
        breaker.decide(query);
        answers(new ExternalDecision.Allow());

        assertThat(breaker.decide(query)).isInstanceOf(ExternalDecision.Allow.class);
        assertThat(asked).hasValue(3);
    }

    @Test
    void theThresholdOfFailuresInARow_opensTheCircuit_soTheNextRequestIsRefusedWithoutAsking() {
        failThreeTimes();
        answers(new ExternalDecision.Allow());

        assertThat(breaker.decide(query)).as("fail closed: an open circuit never allows, even if the engine would")
                .isInstanceOfSatisfying(ExternalDecision.Unavailable.class, refusal -> assertThat(refusal.reason())
                        .contains("OPA failed 3 time(s) in a row").contains("OPA did not answer in full within 2000 ms")
                        .contains("asked again in 5000 ms"));
        assertThat(asked).as("the engine is not asked while open").hasValue(3);
    }

    @Test
    void anAnswerBetweenFailures_startsTheCountAgain() {
        breaker.decide(query);
        breaker.decide(query);
        answers(new ExternalDecision.Deny());
        assertThat(breaker.decide(query)).isInstanceOf(ExternalDecision.Deny.class);
        answers(DOWN);
        breaker.decide(query);
        breaker.decide(query);
        answers(new ExternalDecision.Allow());

        assertThat(breaker.decide(query)).as("two failures since the last answer: still closed").isInstanceOf(ExternalDecision.Allow.class);
    }

    @Test
    void theCircuitStaysOpenUntilTheCoolDownHasPassed() {
        failThreeTimes();
        answers(new ExternalDecision.Allow());
        clock.advance(COOL_DOWN.minusMillis(1));

        assertThat(breaker.decide(query)).isInstanceOf(ExternalDecision.Unavailable.class);
        assertThat(asked).hasValue(3);
    }

    @Test
    void afterTheCoolDown_oneProbeIsAsked_whileOtherRequestsAreStillRefused_andItsAnswerClosesTheCircuit() {
        failThreeTimes();
        clock.advance(COOL_DOWN);
        AtomicReference<ExternalDecision> duringProbe = new AtomicReference<>();
        // a second request arrives while the probe waits for the engine
        engineAnswer.set(() -> {
            duringProbe.set(breaker.decide(query));
            return new ExternalDecision.Allow();
        });

        assertThat(breaker.decide(query)).isInstanceOf(ExternalDecision.Allow.class);
        assertThat(duringProbe.get()).isInstanceOfSatisfying(ExternalDecision.Unavailable.class,
                refusal -> assertThat(refusal.reason()).contains("one request is checking whether it answers again"));
        assertThat(asked).as("the probe alone reached the engine").hasValue(4);

        answers(new ExternalDecision.Deny());
        assertThat(breaker.decide(query)).as("closed again: every request asks").isInstanceOf(ExternalDecision.Deny.class);
        assertThat(asked).hasValue(5);
    }

    @Test
    void aFailedProbe_opensTheCircuitForAnotherWholeCoolDown() {
        failThreeTimes();
        clock.advance(COOL_DOWN);
        assertThat(breaker.decide(query)).as("the probe fails").isEqualTo(DOWN);
        answers(new ExternalDecision.Allow());

        clock.advance(COOL_DOWN.minusMillis(1));
        assertThat(breaker.decide(query)).isInstanceOf(ExternalDecision.Unavailable.class);
        assertThat(asked).hasValue(4);

        clock.advance(Duration.ofMillis(1));
        assertThat(breaker.decide(query)).as("the next probe is answered").isInstanceOf(ExternalDecision.Allow.class);
    }

    @Test
    void aProbeThatThrows_doesNotKeepTheCircuitHalfOpenForever() {
        failThreeTimes();
        clock.advance(COOL_DOWN);
        engineAnswer.set(() -> {
            throw new IllegalStateException("bug");
        });
        assertThatThrownBy(() -> breaker.decide(query)).isInstanceOf(IllegalStateException.class);
        answers(new ExternalDecision.Allow());

        clock.advance(COOL_DOWN);
        assertThat(breaker.decide(query)).as("a new probe after the next cool-down").isInstanceOf(ExternalDecision.Allow.class);
    }

    @Test
    void aProbeThatFailsWithAnError_doesNotKeepTheCircuitHalfOpenForever() {
        failThreeTimes();
        clock.advance(COOL_DOWN);
        engineAnswer.set(() -> {
            throw new StackOverflowError();
        });
        assertThatThrownBy(() -> breaker.decide(query)).isInstanceOf(StackOverflowError.class);
        answers(new ExternalDecision.Allow());

        clock.advance(COOL_DOWN);
        assertThat(breaker.decide(query)).as("a new probe after the next cool-down, not 'one request is checking' for ever")
                .isInstanceOf(ExternalDecision.Allow.class);
    }

    @Test
    void aThresholdBelowOneOrANonPositiveCoolDown_isRefused() {
        assertThatThrownBy(() -> new OpaCircuitBreaker(engine, 0, COOL_DOWN, clock)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new OpaCircuitBreaker(engine, 1, Duration.ZERO, clock)).isInstanceOf(IllegalArgumentException.class);
    }
}
