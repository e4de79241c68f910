package dev.omcp.core.sources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.sources.SourceContact;
import dev.omcp.sdk.connector.ConnectorException.Kind;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SourceActivityTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-10T12:00:00Z"));
    private final SourceActivity activity = new SourceActivity(clock);

    @Test
    void beforeAnyCall_nothingIsKnown_andNothingIsShown() {
        assertThat(activity.contact()).isEqualTo(SourceContact.NONE);
        assertThat(activity.contact().failingNow()).isFalse();
        assertThat(activity.contact().addTo(Jsonp.object()).build()).isEmpty();
    }

    @Test
    void aFailureAfterTheLastAnswer_isFailingNow_untilTheSourceAnswersAgain() {
        activity.answered();
        clock.advance(Duration.ofMinutes(1));
        activity.failed(Kind.TIMEOUT);

        SourceContact failing = activity.contact();
        assertThat(failing.lastAnswer()).contains(Instant.parse("2026-03-10T12:00:00Z"));
        assertThat(failing.lastFailure()).contains(Instant.parse("2026-03-10T12:01:00Z"));
        assertThat(failing.lastFailureKind()).contains(Kind.TIMEOUT);
        assertThat(failing.failingNow()).isTrue();
        JsonObject shown = failing.addTo(Jsonp.object()).build();
        assertThat(shown.getString("lastAnswerAt")).isEqualTo("2026-03-10T12:00:00Z");
        assertThat(shown.getString("lastFailureAt")).isEqualTo("2026-03-10T12:01:00Z");
        assertThat(shown.getString("lastFailure")).isEqualTo("timeout");

        clock.advance(Duration.ofMinutes(1));
        activity.answered();
        SourceContact recovered = activity.contact();
        assertThat(recovered.failingNow()).isFalse();
        // the failure is still shown, so a flapping source can be told from a steady one
        assertThat(recovered.lastFailureKind()).contains(Kind.TIMEOUT);
        assertThat(recovered.lastAnswer()).contains(Instant.parse("2026-03-10T12:02:00Z"));
    }

    @Test
    void aRejectedQueryIsAnAnswer_theBackendWasThereToRejectIt() {
        activity.failed(Kind.BAD_QUERY);

        assertThat(activity.contact().lastAnswer()).contains(clock.instant());
        assertThat(activity.contact().lastFailure()).isEmpty();
    }

    @Test
    void aSourceThatNeverAnswered_isFailingNowAfterItsFirstFailure() {
        activity.failed(Kind.UNAVAILABLE);

        assertThat(activity.contact().failingNow()).isTrue();
        assertThat(activity.contact().lastAnswer()).isEmpty();
    }

    @Test
    void failuresInARow_areCountedFromTheFirst_andAnAnswerEndsTheStreak() {
        activity.answered();
        clock.advance(Duration.ofSeconds(5));
        activity.failed(Kind.TIMEOUT);
        Instant first = clock.instant();
        clock.advance(Duration.ofSeconds(4));
        activity.failed(Kind.UNAVAILABLE);
        clock.advance(Duration.ofSeconds(6));
        activity.failed(Kind.TIMEOUT);

        SourceContact streak = activity.contact();
        assertThat(streak.consecutiveFailures()).isEqualTo(3);
        assertThat(streak.failingSince()).contains(first);
        assertThat(streak.keepsFailing()).isTrue();
        JsonObject shown = streak.addTo(Jsonp.object()).build();
        assertThat(shown.getInt("consecutiveFailures")).isEqualTo(3);
        assertThat(shown.getString("failingSince")).isEqualTo("2026-03-10T12:00:05Z");

        clock.advance(Duration.ofSeconds(1));
        activity.answered();
        assertThat(activity.contact().consecutiveFailures()).isZero();
        assertThat(activity.contact().failingSince()).isEmpty();
        assertThat(activity.contact().keepsFailing()).isFalse();
        assertThat(activity.contact().addTo(Jsonp.object()).build()).doesNotContainKeys("consecutiveFailures", "failingSince");

        clock.advance(Duration.ofSeconds(1));
        activity.failed(Kind.TIMEOUT);
        assertThat(activity.contact().consecutiveFailures()).isEqualTo(1);
        assertThat(activity.contact().failingSince()).contains(clock.instant());
    }

    @Test
    void oneSlowQuery_orABurstOfFailuresWithinTenSeconds_doesNotKeepFailing() {
        activity.failed(Kind.TIMEOUT);
        assertThat(activity.contact().keepsFailing()).as("one failure").isFalse();

        for (int call = 0; call < 20; call++) {
            clock.advance(Duration.ofMillis(400));
            activity.failed(Kind.TIMEOUT);
        }
        assertThat(activity.contact().consecutiveFailures()).isEqualTo(21);
        assertThat(activity.contact().keepsFailing()).as("21 failures over 8 s").isFalse();

        clock.advance(Duration.ofSeconds(2));
        activity.failed(Kind.TIMEOUT);
        assertThat(activity.contact().keepsFailing()).as("the same streak, now 10 s long").isTrue();
    }

    @Test
    void twoFailuresSpreadOverMinutes_areNotEnough_aThirdIs() {
        activity.failed(Kind.UNAVAILABLE);
        clock.advance(Duration.ofMinutes(5));
        activity.failed(Kind.UNAVAILABLE);
        assertThat(activity.contact().keepsFailing()).isFalse();

        clock.advance(Duration.ofMinutes(5));
        activity.failed(Kind.UNAVAILABLE);
        assertThat(activity.contact().keepsFailing()).isTrue();
    }

    @Test
    void failuresOfParallelCalls_areEachCounted() throws InterruptedException {
        activity.answered();
        clock.advance(Duration.ofSeconds(1));
        Thread[] calls = new Thread[8];
        for (int i = 0; i < calls.length; i++) {
            calls[i] = Thread.ofVirtual().start(() -> {
                for (int failure = 0; failure < 1000; failure++) {
                    activity.failed(Kind.TIMEOUT);
                }
            });
        }
        for (Thread call : calls) {
            call.join();
        }

        assertThat(activity.contact().consecutiveFailures()).isEqualTo(8000);
    }

    @Test
    void aDiscardingActivity_keepsNoStreak() {
        SourceActivity discarding = SourceActivity.discarding();
        discarding.failed(Kind.TIMEOUT);

        assertThat(discarding.contact()).isEqualTo(SourceContact.NONE);
    }

    @Test
    void aStreakThatDisagreesWithTheTimes_isRefused() {
        Optional<Instant> answer = Optional.of(Instant.parse("2026-03-10T12:00:00Z"));
        Optional<Instant> failure = Optional.of(Instant.parse("2026-03-10T12:01:00Z"));
        Optional<Kind> kind = Optional.of(Kind.TIMEOUT);

        assertThatThrownBy(() -> new SourceContact(answer, failure, kind, 0, Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exactly when lastFailure is later");
        assertThatThrownBy(() -> new SourceContact(failure, answer, kind, 2, answer))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exactly when lastFailure is later");
        assertThatThrownBy(() -> new SourceContact(answer, failure, kind, 2, Optional.of(Instant.parse("2026-03-10T12:02:00Z"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("failingSince is not after lastFailure");
        // the short form derives a streak of one
        SourceContact derived = new SourceContact(answer, failure, kind);
        assertThat(derived.consecutiveFailures()).isEqualTo(1);
        assertThat(derived.failingSince()).isEqualTo(failure);
    }

    @Test
    void aFailureTimeWithoutItsKind_isRefused() {
        assertThatThrownBy(() -> new SourceContact(Optional.empty(), Optional.of(Instant.EPOCH), Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("go together");
    }
}
