package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.adapters.http.mcp.KeepAliveLedger.Action;
import dev.omcp.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The keep-alive bookkeeping, on a manual clock: issue 2 item 7, "ping every 30 s, close 1001 after 90 s without pong". */
class KeepAliveLedgerTest {
    private static final Duration PING = Duration.ofSeconds(30);
    private static final Duration LIMIT = Duration.ofSeconds(90);

    private final ManualClock clock = new ManualClock(Instant.parse("2025-01-01T00:00:00Z"));
    private final KeepAliveLedger<String> ledger = new KeepAliveLedger<>(clock, PING, LIMIT);

    @Test
    void aNewConnection_isPingedOneIntervalAfterItOpened_notBefore() {
        ledger.opened("a");
        clock.advance(PING.minusMillis(1));
        assertThat(ledger.due()).isEmpty();
        clock.advance(Duration.ofMillis(1));
        assertThat(ledger.due()).containsExactly(new Action.Ping<>("a"));
    }

    @Test
    void aConnection_isPingedEveryInterval_andOncePerSlot() {
        ledger.opened("a");
        clock.advance(PING);
        assertThat(ledger.due()).containsExactly(new Action.Ping<>("a"));
        assertThat(ledger.due()).as("the same slot does not ping twice").isEmpty();
        ledger.heard("a");
        clock.advance(PING);
        assertThat(ledger.due()).containsExactly(new Action.Ping<>("a"));
    }

    @Test
    void aPeerThatNeverAnswers_isClosedExactlyAtTheLimit_afterBeingPinged() {
        // spec issue 2 item 7: ping every 30 s, close 1001 after 90 s without pong
        ledger.opened("silent");
        clock.advance(PING);
        assertThat(ledger.due()).containsExactly(new Action.Ping<>("silent"));
        clock.advance(PING);
        assertThat(ledger.due()).containsExactly(new Action.Ping<>("silent"));
        clock.advance(PING.minusMillis(1));
        assertThat(ledger.due()).as("89.999 s of silence is still within the limit").isEmpty();
        clock.advance(Duration.ofMillis(1));
        assertThat(ledger.due()).containsExactly(new Action.Close<>("silent", LIMIT));
    }

    @Test
    void aPeerThatAnswersEachPing_isNeverClosed() {
        ledger.opened("alive");
        for (int round = 0; round < 20; round++) {
            clock.advance(PING);
            assertThat(ledger.due()).containsExactly(new Action.Ping<>("alive"));
            clock.advance(Duration.ofMillis(200));
            ledger.heard("alive");
        }
        assertThat(ledger.size()).isEqualTo(1);
    }

    @Test
    void hearingFromAPeer_movesItsDeadlineToLimitAfterThatMoment() {
        ledger.opened("a");
        clock.advance(Duration.ofSeconds(80));
        ledger.heard("a");
        clock.advance(Duration.ofSeconds(89));
        assertThat(ledger.due()).noneMatch(action -> action instanceof Action.Close<String>);
        clock.advance(Duration.ofSeconds(1));
        assertThat(ledger.due()).containsExactly(new Action.Close<>("a", LIMIT));
    }

    @Test
    void aClosedPeer_isForgotten_andClosedOnlyOnce() {
        ledger.opened("a");
        ledger.opened("b");
        clock.advance(LIMIT);
        List<Action<String>> first = ledger.due();
        assertThat(first).containsExactlyInAnyOrder(new Action.Close<>("a", LIMIT), new Action.Close<>("b", LIMIT));
        assertThat(ledger.size()).as("nothing is kept for a connection being closed").isZero();
        clock.advance(LIMIT);
        assertThat(ledger.due()).isEmpty();
    }

    @Test
    void aConnectionThatClosesOnItsOwn_leavesNothingBehind() {
        ledger.opened("a");
        ledger.closed("a");
        assertThat(ledger.size()).isZero();
        clock.advance(LIMIT.multipliedBy(2));
        assertThat(ledger.due()).isEmpty();
    }

    @Test
    void hearingFromAnUnknownConnection_doesNotStartWatchingIt() {
        // a refused (1008) or already closed socket may still deliver a frame; it must not leak an entry
        ledger.heard("never-opened");
        assertThat(ledger.size()).isZero();
    }

    @Test
    void connectionsAreJudgedEachOnItsOwnClock() {
        ledger.opened("old");
        clock.advance(Duration.ofSeconds(60));
        ledger.opened("new");
        clock.advance(Duration.ofSeconds(30));
        assertThat(ledger.due()).containsExactlyInAnyOrder(new Action.Close<>("old", LIMIT), new Action.Ping<>("new"));
        assertThat(ledger.size()).isEqualTo(1);
    }

    @Test
    void aStalledSweep_pingsOnce_notOncePerMissedSlot() {
        ledger.opened("a");
        clock.advance(PING.multipliedBy(2).plusSeconds(5));
        ledger.heard("a");
        assertThat(ledger.due()).containsExactly(new Action.Ping<>("a"));
        assertThat(ledger.due()).isEmpty();
        clock.advance(PING);
        assertThat(ledger.due()).containsExactly(new Action.Ping<>("a"));
    }

    @Test
    void aClockMovedBackwards_doesNotShortenADeadline() {
        ledger.opened("a");
        clock.advance(Duration.ofSeconds(50));
        ledger.heard("a");
        clock.set(Instant.parse("2025-01-01T00:00:10Z"));
        ledger.heard("a");
        clock.set(Instant.parse("2025-01-01T00:02:19Z"));
        assertThat(ledger.due()).as("heard at 50 s, so open until 140 s").noneMatch(action -> action instanceof Action.Close<String>);
        clock.set(Instant.parse("2025-01-01T00:02:20Z"));
        assertThat(ledger.due()).contains(new Action.Close<>("a", LIMIT));
    }

    @Test
    void aNonPositivePingInterval_isRefusedWithTheValue() {
        assertThatThrownBy(() -> new KeepAliveLedger<String>(clock, Duration.ZERO, LIMIT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ping interval must be positive");
    }

    @Test
    void aPongTimeoutNotLongerThanThePingInterval_isRefused_becauseAPeerWouldBeClosedBeforeItsFirstPing() {
        assertThatThrownBy(() -> new KeepAliveLedger<String>(clock, PING, PING))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be longer than the ping interval");
    }
}
