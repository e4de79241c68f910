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
    void aFailureTimeWithoutItsKind_isRefused() {
        assertThatThrownBy(() -> new SourceContact(Optional.empty(), Optional.of(Instant.EPOCH), Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("go together");
    }
}
