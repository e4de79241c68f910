package dev.omcp.core.quota;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.identity.AuthKind;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.ratelimit.RateDecision;
import dev.omcp.ports.ratelimit.RateLimit;
import dev.omcp.ports.ratelimit.RateUsage;
import dev.omcp.testkit.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** spec 8 "MCP rate": N requests per named credential in a sliding window of 60,000 ms; anonymous traffic exempt. */
class CredentialRateLimiterTest {
    private static final Principal CI = Principal.apiKey("ci", "");
    private static final Principal BOT = Principal.apiKey("bot", "team-b");
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));

    private CredentialRateLimiter limiter(RateLimit defaultLimit, Map<String, RateLimit> overrides) {
        return new CredentialRateLimiter(List.of(new CredentialRateLimiter.Credential("ci", ""),
                new CredentialRateLimiter.Credential("bot", "team-b")), defaultLimit, overrides, clock);
    }

    private void advanceMillis(long millis) {
        clock.advance(Duration.ofMillis(millis));
    }

    @Test
    void theDefault_admitsSixtyAMinute_andTheSixtyFirstIsLimited() {
        // spec 8: 60 requests per minute per named bearer credential
        CredentialRateLimiter limiter = limiter(RateLimit.standard(), Map.of());
        for (int i = 1; i <= 60; i++) {
            assertThat(limiter.admit(CI)).as("request %d", i).isEqualTo(new RateDecision.Admitted(60, 60 - i, 60_000));
        }
        assertThat(limiter.admit(CI)).isInstanceOf(RateDecision.Limited.class);
    }

    @Test
    void theWindowSlides_eachAdmissionLeavesExactlySixtySecondsAfterIt() {
        CredentialRateLimiter limiter = limiter(RateLimit.of(3), Map.of());
        limiter.admit(CI);            // t = 0
        advanceMillis(10_000);
        limiter.admit(CI);            // t = 10 s
        advanceMillis(10_000);
        limiter.admit(CI);            // t = 20 s
        advanceMillis(39_999);        // t = 59.999 s: all three are still in the window
        assertThat(limiter.admit(CI)).isEqualTo(new RateDecision.Limited(3, 1, 60_000));
        advanceMillis(1);             // t = 60 s: the first left, one place is free
        assertThat(limiter.admit(CI)).isEqualTo(new RateDecision.Admitted(3, 0, 60_000));
        assertThat(limiter.admit(CI)).isEqualTo(new RateDecision.Limited(3, 10_000, 60_000));
        advanceMillis(10_000);        // t = 70 s: the second left
        assertThat(limiter.admit(CI)).isInstanceOf(RateDecision.Admitted.class);
    }

    @Test
    void theRetryAfter_isWhenTheOldestAdmissionLeaves_inWholeSecondsRoundedUp() {
        CredentialRateLimiter limiter = limiter(RateLimit.of(2), Map.of());
        limiter.admit(CI);
        advanceMillis(1_500);
        limiter.admit(CI);
        advanceMillis(10_250);        // the oldest leaves in 60,000 - 11,750 = 48,250 ms
        RateDecision refused = limiter.admit(CI);
        assertThat(refused).isEqualTo(new RateDecision.Limited(2, 48_250, 60_000));
        assertThat(((RateDecision.Limited) refused).retryAfterSeconds()).isEqualTo(49);
        advanceMillis(48_249);
        assertThat(((RateDecision.Limited) limiter.admit(CI)).retryAfterSeconds()).as("1 ms left is still 1 s").isEqualTo(1);
        advanceMillis(1);
        assertThat(limiter.admit(CI)).isInstanceOf(RateDecision.Admitted.class);
    }

    @Test
    void aRefusedRequest_isNotCounted_soHammeringDoesNotPushTheRetryBack() {
        CredentialRateLimiter limiter = limiter(RateLimit.of(1), Map.of());
        limiter.admit(CI);
        for (int i = 0; i < 100; i++) {
            advanceMillis(100);
            assertThat(limiter.admit(CI)).isInstanceOf(RateDecision.Limited.class);
        }
        assertThat(identity(limiter.usage(), "key:ci").count()).isEqualTo(1);
        advanceMillis(50_000);        // 60 s after the one admission
        assertThat(limiter.admit(CI)).isInstanceOf(RateDecision.Admitted.class);
    }

    @Test
    void eachCredential_hasAWindowOfItsOwn() {
        CredentialRateLimiter limiter = limiter(RateLimit.of(1), Map.of());
        assertThat(limiter.admit(CI)).isInstanceOf(RateDecision.Admitted.class);
        assertThat(limiter.admit(BOT)).as("another key is not limited by ci's requests").isInstanceOf(RateDecision.Admitted.class);
        assertThat(limiter.admit(CI)).isInstanceOf(RateDecision.Limited.class);
    }

    @Test
    void anOverride_replacesTheDefaultForItsKeyOnly() {
        CredentialRateLimiter limiter = limiter(RateLimit.of(1), Map.of("bot", RateLimit.of(3)));
        assertThat(limiter.admit(BOT)).isEqualTo(new RateDecision.Admitted(3, 2, 60_000));
        assertThat(limiter.admit(BOT)).isEqualTo(new RateDecision.Admitted(3, 1, 60_000));
        assertThat(limiter.admit(BOT)).isEqualTo(new RateDecision.Admitted(3, 0, 60_000));
        assertThat(limiter.admit(BOT)).isInstanceOf(RateDecision.Limited.class);
        assertThat(limiter.admit(CI)).isEqualTo(new RateDecision.Admitted(1, 0, 60_000));
        assertThat(limiter.admit(CI)).isInstanceOf(RateDecision.Limited.class);
    }

    @Test
    void aDisabledLimit_admitsEverything_butStillCountsForTheUsage() {
        CredentialRateLimiter limiter = limiter(RateLimit.of(1), Map.of("ci", RateLimit.disabled()));
        for (int i = 0; i < 500; i++) {
            assertThat(limiter.admit(CI)).isInstanceOf(RateDecision.Unlimited.class);
        }
        RateUsage.Identity ci = identity(limiter.usage(), "key:ci");
        assertThat(ci.count()).isEqualTo(500);
        assertThat(ci.limit()).isEmpty();
        advanceMillis(60_000);
        assertThat(identity(limiter.usage(), "key:ci").count()).as("the counted requests leave the window too").isZero();
    }

    @Test
    void aDisabledDefault_isReportedAsNoLimit_whileAnOverrideStillLimits() {
        CredentialRateLimiter limiter = limiter(RateLimit.disabled(), Map.of("bot", RateLimit.of(1)));
        assertThat(limiter.admit(CI)).isInstanceOf(RateDecision.Unlimited.class);
        assertThat(limiter.admit(BOT)).isInstanceOf(RateDecision.Admitted.class);
        assertThat(limiter.admit(BOT)).isInstanceOf(RateDecision.Limited.class);
        assertThat(limiter.usage().defaultLimit()).isEmpty();
    }

    @Test
    void anonymousTraffic_isExempt_andNeverCounted() {
        // spec 8: anonymous traffic exempt
        CredentialRateLimiter limiter = limiter(RateLimit.of(1), Map.of());
        for (int i = 0; i < 10; i++) {
            assertThat(limiter.admit(Principal.anonymous())).isInstanceOf(RateDecision.Unlimited.class);
        }
        assertThat(limiter.usage().identities()).extracting(RateUsage.Identity::actor).containsExactly("key:bot", "key:ci");
        assertThat(limiter.usage().identities()).allSatisfy(identity -> assertThat(identity.count()).isZero());
    }

    @Test
    void onlyConfiguredApiKeys_areTracked_otherPrincipalsOfTheSameIdAreNot() {
        CredentialRateLimiter limiter = limiter(RateLimit.of(1), Map.of());
        Principal unknownKey = Principal.apiKey("stranger", "");
        Principal userNamedLikeAKey = new Principal("key:ci", "ci", AuthKind.SESSION, "", Set.of(), Optional.empty());
        for (int i = 0; i < 5; i++) {
            assertThat(limiter.admit(unknownKey)).isInstanceOf(RateDecision.Unlimited.class);
            assertThat(limiter.admit(userNamedLikeAKey)).isInstanceOf(RateDecision.Unlimited.class);
        }
        assertThat(limiter.usage().identities()).extracting(RateUsage.Identity::actor).containsExactly("key:bot", "key:ci");
        assertThat(identity(limiter.usage(), "key:ci").count()).isZero();
    }

    @Test
    void theUsage_listsEveryConfiguredCredential_sortedByActor_withItsTenantLimitAndCount() {
        CredentialRateLimiter limiter = limiter(RateLimit.of(5), Map.of("bot", RateLimit.of(7)));
        limiter.admit(CI);
        limiter.admit(CI);
        RateUsage usage = limiter.usage();
        assertThat(usage.identities()).containsExactly(
                new RateUsage.Identity("key:bot", "team-b", 0, OptionalInt.of(7), 60_000),
                new RateUsage.Identity("key:ci", "", 2, OptionalInt.of(5), 60_000));
        assertThat(usage.defaultLimit()).hasValue(5);
        assertThat(usage.windowMs()).isEqualTo(60_000);
    }

    @Test
    void anOverrideOfAKeyThatIsNotConfigured_isRefused_namingIt() {
        assertThatThrownBy(() -> limiter(RateLimit.standard(), Map.of("cl", RateLimit.of(5))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[cl]").hasMessageContaining("[bot, ci]");
    }

    @Test
    void aClockSetBack_neverLetsMoreThanTheLimitThrough() {
        CredentialRateLimiter limiter = limiter(RateLimit.of(2), Map.of());
        limiter.admit(CI);
        clock.set(clock.instant().minusSeconds(30));
        limiter.admit(CI);
        assertThat(limiter.admit(CI)).isInstanceOf(RateDecision.Limited.class);
        clock.set(clock.instant().plusSeconds(30 + 60));
        assertThat(limiter.admit(CI)).isInstanceOf(RateDecision.Admitted.class);
    }

    @Test
    void manyThreadsAtOnce_neverGetMoreThanTheLimitAdmitted() throws InterruptedException {
        int limit = 250;
        CredentialRateLimiter limiter = limiter(RateLimit.of(limit), Map.of("bot", RateLimit.disabled()));
        int threads = 16;
        int perThread = 100;
        AtomicInteger admitted = new AtomicInteger();
        AtomicInteger limited = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> running = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            running.add(Thread.ofVirtual().start(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < perThread; i++) {
                    // the time moves while they run: entries of several milliseconds, and the ring grows meanwhile
                    advanceMillis(1);
                    switch (limiter.admit(CI)) {
                        case RateDecision.Admitted a -> admitted.incrementAndGet();
                        case RateDecision.Limited l -> limited.incrementAndGet();
                        case RateDecision.Unlimited u -> throw new AssertionError("ci has a limit");
                    }
                    limiter.admit(BOT);
                }
            }));
        }
        start.countDown();
        for (Thread thread : running) {
            thread.join();
        }
        assertThat(admitted.get()).isEqualTo(limit);
        assertThat(limited.get()).isEqualTo(threads * perThread - limit);
        assertThat(identity(limiter.usage(), "key:ci").count()).isEqualTo(limit);
        assertThat(identity(limiter.usage(), "key:bot").count()).as("a disabled key counts every request").isEqualTo(threads * perThread);
    }

    private static RateUsage.Identity identity(RateUsage usage, String actor) {
        return usage.identities().stream().filter(identity -> identity.actor().equals(actor)).findFirst().orElseThrow();
    }
}
