package dev.omcp.core.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationTarget;
import java.time.Duration;
import java.time.Instant;
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
    void atTheBound_aNewEntryIsRefusedWithWhatToDo_butRevokingAgainIsNot_andExpiredEntriesMakeRoom() {
        InMemoryRevocationStore store = new InMemoryRevocationStore(Duration.ofHours(8), 2);
        store.add(sid("a", T0));
        store.add(sid("b", T0.plusSeconds(60)));

        assertThatThrownBy(() -> store.add(sid("c", T0.plusSeconds(120))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the session blocklist holds 2 live entries; wait for old entries to expire or rotate"
                        + " OMCP_SESSION_SECRET to void every session");
        store.add(sid("a", T0.plusSeconds(180)));
        assertThat(store.lookup("a", "nobody").sessionRevoked()).isTrue();

        store.add(sid("c", T0.plus(Duration.ofHours(8)).plusSeconds(61))); // "a" at T0+180 s is still live, "b" expired
        assertThat(store.current(T0.plus(Duration.ofHours(8)).plusSeconds(61))).extracting(Revocation::value)
                .containsExactly("a", "c");
    }
}
