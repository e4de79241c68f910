package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class AnswerDeadlineTest {
    private static final Instant START = Instant.parse("2026-03-10T12:00:00Z");
    private final ManualClock clock = new ManualClock(START);

    @Test
    void passesWhenTheClockReachesTheEnd_notBefore() {
        AnswerDeadline deadline = AnswerDeadline.of(clock, START, Duration.ofMillis(1500));
        clock.advance(Duration.ofMillis(1499));
        assertThat(deadline.passed()).isFalse();
        clock.advance(Duration.ofMillis(1));
        assertThat(deadline.passed()).isTrue();
        assertThat(deadline.why()).isEqualTo("reached its deadline (1.5 s, OMCP_TOOL_DEADLINE)");
    }

    @Test
    void aCancelledCall_hasPassedAtOnce_andKeepsItsInterruptForTheDispatcher() {
        AnswerDeadline deadline = AnswerDeadline.of(clock, START, Duration.ofSeconds(20));
        Thread.currentThread().interrupt();
        try {
            assertThat(deadline.passed()).isTrue();
            assertThat(deadline.why()).isEqualTo("was cancelled");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void aDeadlineMustBePositive() {
        assertThatThrownBy(() -> AnswerDeadline.of(clock, START, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    }
}
