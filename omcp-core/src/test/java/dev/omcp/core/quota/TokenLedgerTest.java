package dev.omcp.core.quota;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.budget.CredentialTokenUsage;
import dev.omcp.ports.budget.SavedTokenUsage;
import dev.omcp.ports.budget.TokenBucket;
import dev.omcp.ports.budget.TokenUsageSnapshot;
import dev.omcp.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** spec 7.3, 8: the rolling 24 h token ledger, driven by a manual clock. */
class TokenLedgerTest {
    /** A minute boundary: buckets begin on them. */
    private static final Instant T0 = Instant.parse("2025-03-01T00:00:00Z");
    private static final String CI = "key:ci";

    private final ManualClock clock = new ManualClock(T0);
    private final AtomicInteger changes = new AtomicInteger();

    private TokenLedger ledger(long limit) {
        return new TokenLedger(limit, clock, SavedTokenUsage.empty(), changes::incrementAndGet);
    }

    private void at(Duration sinceT0) {
        clock.set(T0.plus(sinceT0));
    }

    private static BudgetDecision.Refused refused(BudgetDecision decision) {
        assertThat(decision).isInstanceOf(BudgetDecision.Refused.class);
        return (BudgetDecision.Refused) decision;
    }

    @Test
    void answersThatFit_areCharged_andEachChargeMarksTheLedgerChanged() {
        TokenLedger ledger = ledger(1000);

        assertThat(ledger.charge(CI, 300)).isEqualTo(new BudgetDecision.Allowed(0));
        assertThat(ledger.charge(CI, 700)).isEqualTo(new BudgetDecision.Allowed(300));

        assertThat(ledger.used(CI)).isEqualTo(1000);
        assertThat(changes).hasValue(2);
    }

    @Test
    void anAnswerThatDoesNotFit_isRefusedAndNotCharged() {
        TokenLedger ledger = ledger(1000);
        ledger.charge(CI, 900);

        BudgetDecision.Refused refusal = refused(ledger.charge(CI, 101));

        assertThat(refusal.reason()).isEqualTo(BudgetRefusal.BUDGET_EXCEEDED);
        assertThat(refusal.used()).isEqualTo(900);
        assertThat(refusal.limit()).isEqualTo(1000);
        assertThat(refusal.requested()).isEqualTo(101);
        assertThat(ledger.used(CI)).as("the refused answer is not charged").isEqualTo(900);
        assertThat(changes).as("only the charge changed the ledger").hasValue(1);
        assertThat(ledger.charge(CI, 100)).as("what still fits does").isEqualTo(new BudgetDecision.Allowed(900));
    }

    @Test
    void theRetryTime_walksTheBucketsOldestFirst_untilEnoughTokensLeave() {
        // spec 7.3: used - freed + requested <= limit; buckets at minutes 0, 5 and 10
        TokenLedger ledger = ledger(700);
        at(Duration.ofSeconds(10));
        ledger.charge(CI, 100);
        at(Duration.ofMinutes(5).plusSeconds(59));
        ledger.charge(CI, 200);
        at(Duration.ofMinutes(10).plusSeconds(30));
        ledger.charge(CI, 300);
        at(Duration.ofHours(2));

        // 600 used: 350 more needs 250 to leave, so the first bucket (100) is not enough, the second (200) is
        BudgetDecision.Refused twoBuckets = refused(ledger.charge(CI, 350));
        // the minute-5 bucket leaves 24 h after its minute ends: at 24 h 6 min, 22 h 6 min from now
        assertThat(twoBuckets.retryAfterSeconds()).hasValue(Duration.ofHours(22).plusMinutes(6).toSeconds());
        assertThat(twoBuckets.freedAtRetry()).hasValue(300);

        // 150 more needs only 50 to leave: the first bucket, at 24 h 1 min
        BudgetDecision.Refused oneBucket = refused(ledger.charge(CI, 150));
        assertThat(oneBucket.retryAfterSeconds()).hasValue(Duration.ofHours(22).plusMinutes(1).toSeconds());
        assertThat(oneBucket.freedAtRetry()).hasValue(100);

        // 700 (the whole cap) needs all three to leave: the minute-10 bucket, at 24 h 11 min
        BudgetDecision.Refused allBuckets = refused(ledger.charge(CI, 700));
        assertThat(allBuckets.retryAfterSeconds()).hasValue(Duration.ofHours(22).plusMinutes(11).toSeconds());
        assertThat(allBuckets.freedAtRetry()).hasValue(600);
    }

    @Test
    void theRetryTime_isRoundedUp_andTheAnswerFitsThenButNotASecondEarlier() {
        TokenLedger ledger = ledger(1000);
        ledger.charge(CI, 800);
        // 250 ms into the second: the bucket leaves at 24 h 1 min, 86,459.75 s from now
        at(Duration.ofMillis(250));

        BudgetDecision.Refused refusal = refused(ledger.charge(CI, 300));

        assertThat(refusal.retryAfterSeconds()).hasValue(86_460);
        assertThat(refusal.freedAtRetry()).hasValue(800);
        clock.advance(Duration.ofSeconds(86_459));
        assertThat(ledger.charge(CI, 300)).as("a second early").isInstanceOf(BudgetDecision.Refused.class);
        clock.advance(Duration.ofSeconds(1));
        assertThat(ledger.charge(CI, 300)).as("at the retry time").isEqualTo(new BudgetDecision.Allowed(0));
    }

    @Test
    void theRetryTime_isAtLeastOneSecond() {
        TokenLedger ledger = ledger(100);
        ledger.charge(CI, 100);
        at(Duration.ofDays(1).plusSeconds(59).plusMillis(999)); // the bucket leaves in 1 ms

        assertThat(refused(ledger.charge(CI, 1)).retryAfterSeconds()).hasValue(1);
    }

    @Test
    void anAnswerLargerThanTheWholeCap_isRefusedWithoutARetryTime_andNotCharged() {
        TokenLedger ledger = ledger(1000);

        BudgetDecision.Refused refusal = refused(ledger.charge(CI, 1001));

        assertThat(refusal.reason()).isEqualTo(BudgetRefusal.REQUEST_EXCEEDS_BUDGET);
        assertThat(refusal.used()).isZero();
        assertThat(refusal.requested()).isEqualTo(1001);
        assertThat(refusal.retryAfterSeconds()).isEmpty();
        assertThat(refusal.freedAtRetry()).isEmpty();
        assertThat(ledger.used(CI)).isZero();
        assertThat(ledger.charge(CI, 1000)).as("exactly the cap fits").isEqualTo(new BudgetDecision.Allowed(0));
    }

    @Test
    void tokensLeaveTheWindow_aFull24HoursAfterTheirMinuteEnds_neverEarlier() {
        TokenLedger ledger = ledger(1000);
        at(Duration.ofSeconds(30));
        ledger.charge(CI, 500);

        at(Duration.ofDays(1).plusSeconds(59).plusMillis(999));
        assertThat(ledger.used(CI)).as("24 h and 59.999 s after the minute began").isEqualTo(500);
        at(Duration.ofDays(1).plusMinutes(1));
        assertThat(ledger.used(CI)).isZero();
        assertThat(ledger.snapshot().credentials()).as("a credential with nothing left is not listed").isEmpty();
    }

    @Test
    void beforeACall_aCredentialAtItsCapIsRefused_withNothingRequested_andTheTimeRoomOpens() {
        TokenLedger ledger = ledger(300);
        assertThat(ledger.check(CI)).isEqualTo(new BudgetDecision.Allowed(0));
        ledger.charge(CI, 100);
        at(Duration.ofMinutes(3));
        ledger.charge(CI, 200);
        at(Duration.ofHours(1));

        BudgetDecision.Refused refusal = refused(ledger.check(CI));

        assertThat(refusal.reason()).isEqualTo(BudgetRefusal.BUDGET_EXCEEDED);
        assertThat(refusal.beforeTheCall()).isTrue();
        assertThat(refusal.requested()).isZero();
        assertThat(refusal.used()).isEqualTo(300);
        // room for the smallest answer opens when the first bucket leaves: 24 h 1 min after T0
        assertThat(refusal.retryAfterSeconds()).hasValue(Duration.ofHours(23).plusMinutes(1).toSeconds());
        assertThat(refusal.freedAtRetry()).hasValue(100);
    }

    @Test
    void credentialsAreChargedApart() {
        TokenLedger ledger = ledger(100);
        ledger.charge(CI, 100);

        assertThat(ledger.check("key:bot")).isEqualTo(new BudgetDecision.Allowed(0));
        assertThat(ledger.charge("key:bot", 100)).isEqualTo(new BudgetDecision.Allowed(0));
        assertThat(ledger.snapshot()).isEqualTo(new TokenUsageSnapshot(OptionalLong.of(100), 86_400_000L, List.of(
                new CredentialTokenUsage("key:bot", 100, 100, 86_400_000L), new CredentialTokenUsage(CI, 100, 100, 86_400_000L))));
    }

    @Test
    void twoCallsRacingForTheLastRoom_onlyOneIsCharged() throws Exception {
        try (ExecutorService threads = Executors.newFixedThreadPool(8)) {
            for (int round = 0; round < 200; round++) {
                TokenLedger ledger = ledger(100);
                ledger.charge(CI, 60);
                CountDownLatch start = new CountDownLatch(1);
                List<Future<BudgetDecision>> racing = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    Callable<BudgetDecision> call = () -> {
                        start.await();
                        return ledger.charge(CI, 40);
                    };
                    racing.add(threads.submit(call));
                }
                start.countDown();
                int allowed = 0;
                for (Future<BudgetDecision> decision : racing) {
                    allowed += decision.get() instanceof BudgetDecision.Allowed ? 1 : 0;
                }
                assertThat(allowed).as("round " + round + ": answers charged of eight racing for room for one").isEqualTo(1);
                assertThat(ledger.used(CI)).isEqualTo(100);
            }
        }
    }

    @Test
    void whatTheLedgerSaves_restoresIt_withoutWhatHasLeftTheWindow() {
        TokenLedger first = ledger(1000);
        first.charge(CI, 100);
        at(Duration.ofHours(12));
        first.charge(CI, 200);
        first.charge("key:bot", 50);
        at(Duration.ofDays(1).plusMinutes(30)); // the first bucket has left

        SavedTokenUsage saved = first.saved();
        assertThat(saved.byActor()).isEqualTo(Map.of(
                CI, List.of(new TokenBucket(T0.plus(Duration.ofHours(12)).toEpochMilli(), 200)),
                "key:bot", List.of(new TokenBucket(T0.plus(Duration.ofHours(12)).toEpochMilli(), 50))));

        SavedTokenUsage withOld = new SavedTokenUsage(Map.of(CI, List.of(
                new TokenBucket(T0.toEpochMilli(), 100), new TokenBucket(T0.plus(Duration.ofHours(12)).toEpochMilli(), 200))));
        TokenLedger restored = new TokenLedger(1000, clock, withOld, () -> { });
        assertThat(restored.used(CI)).as("the bucket of T0 left the window before the restart").isEqualTo(200);
        assertThat(refused(restored.charge(CI, 900)).retryAfterSeconds())
                .as("restored tokens leave when they would have").hasValue(Duration.ofHours(11).plusMinutes(31).toSeconds());
    }

    @Test
    void restoredBucketsFromTheFuture_countFromTheCurrentMinute() {
        // a clock stepped back since the file was written: its newest buckets lie ahead
        SavedTokenUsage ahead = new SavedTokenUsage(Map.of(CI, List.of(new TokenBucket(T0.plus(Duration.ofHours(3)).toEpochMilli(), 400))));

        TokenLedger restored = new TokenLedger(1000, clock, ahead, () -> { });

        assertThat(restored.used(CI)).isEqualTo(400);
        assertThat(restored.saved().byActor().get(CI)).containsExactly(new TokenBucket(T0.toEpochMilli(), 400));
    }

    @Test
    void aDayOfCharges_keepsOneBucketPerMinute() {
        TokenLedger ledger = ledger(Long.MAX_VALUE / 2);
        for (int second = 0; second < 2 * 86_400; second += 7) {
            at(Duration.ofSeconds(second));
            ledger.charge(CI, 1);
        }

        assertThat(ledger.saved().byActor().get(CI)).as("buckets of a credential charged every 7 s for two days").hasSize(1_441);
    }
}
