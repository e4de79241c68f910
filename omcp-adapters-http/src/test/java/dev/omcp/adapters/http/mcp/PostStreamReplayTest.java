package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The answers of POST streams kept for a client that resumes a broken stream: owned, bounded, and let go. */
class PostStreamReplayTest {
    private final ManualClock clock = new ManualClock(Instant.parse("2025-06-01T00:00:00Z"));
    private final PostStreamReplay replay = new PostStreamReplay(clock, 100, Duration.ofMinutes(1));

    private static List<PostStreamReplay.Event> answer(int chars) {
        return List.of(new PostStreamReplay.Event(3, "x".repeat(chars)));
    }

    @Test
    void aRunningStream_isFoundOnlyByItsOwnSessionAndCredential() {
        replay.opened("p1", "session-a", "alice");

        assertThat(replay.find("p1", "session-a", "alice")).isPresent();
        assertThat(replay.find("p1", "session-b", "alice")).as("another session").isEmpty();
        assertThat(replay.find("p1", "session-a", "bob")).as("another credential").isEmpty();
        assertThat(replay.find("p2", "session-a", "alice")).as("never opened").isEmpty();
    }

    @Test
    void aResumerWaiting_getsTheAnswerWhenTheRequestEnds() throws Exception {
        PostStreamReplay.Stream stream = replay.opened("p1", "session-a", "alice");
        PostStreamReplay.Stream found = replay.find("p1", "session-a", "alice").orElseThrow();
        assertThat(found.answer(Duration.ZERO)).as("the request still runs").isEmpty();

        assertThat(replay.answered(stream, answer(10))).as("kept for a later resumer too").isTrue();

        assertThat(found.answer(Duration.ZERO)).contains(answer(10));
    }

    @Test
    void anAnswerIsKeptForTheRetention_thenLetGo() {
        replay.answered(replay.opened("p1", "session-a", "alice"), answer(10));

        clock.advance(Duration.ofSeconds(60));
        assertThat(replay.find("p1", "session-a", "alice")).as("at the end of the retention").isPresent();
        clock.advance(Duration.ofMillis(1));
        assertThat(replay.find("p1", "session-a", "alice")).as("past it").isEmpty();
        assertThat(replay.resumable()).isZero();
    }

    @Test
    void pastTheBound_theOldestAnswersGoFirst() {
        replay.answered(replay.opened("p1", "session-a", "alice"), answer(40));
        replay.answered(replay.opened("p2", "session-a", "alice"), answer(40));
        replay.answered(replay.opened("p3", "session-a", "alice"), answer(40));

        assertThat(replay.find("p1", "session-a", "alice")).as("oldest, dropped for the bound of 100 characters").isEmpty();
        assertThat(replay.find("p2", "session-a", "alice")).isPresent();
        assertThat(replay.find("p3", "session-a", "alice")).isPresent();
    }

    @Test
    void anAnswerLargerThanTheBound_isNotKept_butAResumerAlreadyWaitingGetsIt() throws Exception {
        PostStreamReplay.Stream stream = replay.opened("p1", "session-a", "alice");
        PostStreamReplay.Stream waiting = replay.find("p1", "session-a", "alice").orElseThrow();

        assertThat(replay.answered(stream, answer(101))).isFalse();

        assertThat(replay.find("p1", "session-a", "alice")).isEmpty();
        assertThat(waiting.answer(Duration.ZERO)).contains(answer(101));
    }

    @Test
    void aDeliveredAnswer_isKeptNoLonger() {
        PostStreamReplay.Stream stream = replay.opened("p1", "session-a", "alice");
        replay.answered(stream, answer(10));

        replay.delivered(stream);

        assertThat(replay.find("p1", "session-a", "alice")).isEmpty();
    }

    @Test
    void theEndOfTheSession_endsAResumerWaiting_andItsStreamsCannotBeResumed() throws Exception {
        replay.opened("p1", "session-a", "alice");
        replay.answered(replay.opened("p2", "session-b", "alice"), answer(10));
        PostStreamReplay.Stream waiting = replay.find("p1", "session-a", "alice").orElseThrow();

        replay.endSession("session-a");

        assertThat(waiting.answer(Duration.ZERO)).as("ends at once, with nothing").contains(List.of());
        assertThat(replay.find("p1", "session-a", "alice")).isEmpty();
        assertThat(replay.find("p2", "session-b", "alice")).as("another session's").isPresent();
    }

    @Test
    void aRequestThatEndsWithoutAnAnswer_leavesNothingToResume() throws Exception {
        PostStreamReplay.Stream stream = replay.opened("p1", "session-a", "alice");

        assertThat(replay.answered(stream, List.of())).isFalse();

        assertThat(replay.find("p1", "session-a", "alice")).isEmpty();
        assertThat(stream.answer(Duration.ZERO)).isEqualTo(Optional.of(List.of()));
    }
}
