package dev.omcp.core.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.omcp.ports.auth.BlocklistFullException;
import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.testkit.time.ManualClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class InMemoryRevocationStoreTest {
    private static final Instant T0 = Instant.parse("2026-11-29T09:00:00Z");

    private static Revocation sid(String value, Instant at) {
        return new Revocation(RevocationTarget.SID, value, "test", at, "user:admin");
    }

    private static Revocation sub(String value, Instant at) {
        return new Revocation(RevocationTarget.SUB, value, "test", at, "user:admin");
    }

    @Test
    void concurrentRevocationsAtTheBound_neverTogetherPassIt() throws Exception {
        InMemoryRevocationStore store = new InMemoryRevocationStore(Duration.ofHours(8), 5);
        int threads = 48;
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger refused = new AtomicInteger();
        try (ExecutorService pool = Executors.newFixedThreadPool(threads)) {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                String value = "sid-" + i;
                done.add(pool.submit(() -> {
                    start.await();
                    try {
                        store.add(sid(value, T0));
                    } catch (IllegalStateException e) {
                        refused.incrementAndGet();
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get();
            }
        }
        assertThat(store.current(T0)).hasSize(5);
        assertThat(refused).hasValue(threads - 5);
    }

    @Test
    void repeatedRevocationsOfOneSubject_takeOneEntry_neverGoBackToAnEarlierCutOff_andAreNotRefusedAtTheBound() {
        InMemoryRevocationStore store = new InMemoryRevocationStore(Duration.ofHours(8), 2);
        store.add(sub("alice", T0));
        store.add(sid("a", T0.plusSeconds(10)));
        store.add(sub("alice", T0.plusSeconds(60)));
        store.add(sub("alice", T0.plusSeconds(30))); // an earlier cut-off (a replayed line) revokes less: it changes nothing

        assertThat(store.current(T0.plusSeconds(60))).extracting(Revocation::value, Revocation::revokedAt)
                .containsExactly(tuple("a", T0.plusSeconds(10)), tuple("alice", T0.plusSeconds(60)));
        assertThat(store.lookup("x", "alice").subjectRevokedAt()).contains(T0.plusSeconds(60));
    }

    @Test
    void replayingAsManyEntriesAsTheBoundAllows_doesNotScanTheListForEachOne() {
        // a journal replays up to 100 000 entries at start: pruning the whole list on each add made that quadratic
        // (minutes of CPU before the gateway listened, or before it could say the file holds too many)
        InMemoryRevocationStore store = new InMemoryRevocationStore(Duration.ofHours(8), InMemoryRevocationStore.DEFAULT_MAX_ENTRIES,
                Clock.fixed(T0.plusSeconds(200), ZoneOffset.UTC));
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            for (int i = 0; i < InMemoryRevocationStore.DEFAULT_MAX_ENTRIES; i++) {
                store.add(sid("s-" + i, T0.plusMillis(i)));
            }
        });
        assertThatThrownBy(() -> store.add(sid("one-more", T0.plusSeconds(200)))).isInstanceOf(BlocklistFullException.class);
    }

    @Test
    void atTheBound_aNewEntryIsRefusedWithWhatToDo_butRevokingAgainIsNot_andExpiredEntriesMakeRoom() {
        ManualClock clock = new ManualClock(T0.plusSeconds(120));
        InMemoryRevocationStore store = new InMemoryRevocationStore(Duration.ofHours(8), 2, clock);
        store.add(sid("a", T0));
        store.add(sid("b", T0.plusSeconds(60)));

        assertThatThrownBy(() -> store.add(sid("c", T0.plusSeconds(120))))
                .isInstanceOfSatisfying(BlocklistFullException.class, e -> assertThat(e.limit()).isEqualTo(2))
                .hasMessage("the session blocklist holds 2 live entries; wait for old entries to expire or rotate"
                        + " OMCP_SESSION_SECRET to void every session");
        store.add(sid("a", T0.plusSeconds(180)));
        assertThat(store.lookup("a", "nobody").sessionRevoked()).isTrue();

        clock.set(T0.plus(Duration.ofHours(8)).plusSeconds(61));
        store.add(sid("c", clock.instant())); // "a" at T0+180 s is still live, "b" expired
        assertThat(store.current(T0.plus(Duration.ofHours(8)).plusSeconds(61))).extracting(Revocation::value)
                .containsExactly("a", "c");
    }

    @Test
    void aFullList_keepsWhatTheClockSaysIsLive_whenTheNewEntryIsStampedAheadOfIt() {
        // a journal written before the clock stepped back (an NTP correction after a restart) replays entries
        // stamped ahead of it: taken as "now", such an entry dropped entries still in force, and the next compaction
        // erased them from the file, so the sessions they revoked came back
        InMemoryRevocationStore store = new InMemoryRevocationStore(Duration.ofHours(8), 2, Clock.fixed(T0, ZoneOffset.UTC));
        store.add(sid("seven-hours-old", T0.minus(Duration.ofHours(7))));
        store.add(sid("ahead", T0.plus(Duration.ofHours(2))));

        assertThatThrownBy(() -> store.add(sid("also-ahead", T0.plus(Duration.ofMinutes(90))))).isInstanceOf(BlocklistFullException.class);
        assertThat(store.lookup("seven-hours-old", "nobody").sessionRevoked()).isTrue();
    }

    @Test
    void aFullList_makesRoomByTheClock_whenTheNewEntryIsStampedBehindIt() {
        InMemoryRevocationStore store = new InMemoryRevocationStore(Duration.ofHours(8), 2,
                Clock.fixed(T0.plus(Duration.ofHours(9)), ZoneOffset.UTC));
        store.add(sid("a", T0));
        store.add(sid("b", T0));

        store.add(sid("late-line", T0.plusSeconds(1))); // expired entries make room though this one is older than the clock

        assertThat(store.lookup("a", "nobody").sessionRevoked()).isFalse();
        assertThat(store.lookup("late-line", "nobody").sessionRevoked()).isTrue();
    }

    @Test
    void withoutAClock_aFullListDropsNothingToMakeRoom_onlyReadingItAtATimeDropsWhatHasExpiredThen() {
        // the new entry's time is no clock: it may be stamped ahead of the one sessions are checked by
        InMemoryRevocationStore store = new InMemoryRevocationStore(Duration.ofHours(8), 2);
        store.add(sid("a", T0));
        store.add(sid("b", T0.plusSeconds(60)));
        Instant later = T0.plus(Duration.ofHours(8)).plusSeconds(61);

        assertThatThrownBy(() -> store.add(sid("c", later))).isInstanceOf(BlocklistFullException.class);
        assertThat(store.lookup("a", "nobody").sessionRevoked()).isTrue();

        assertThat(store.current(later)).isEmpty();
        store.add(sid("c", later));
        assertThat(store.lookup("c", "nobody").sessionRevoked()).isTrue();
    }
}
