package dev.omcp.core.inspect;

import static dev.omcp.core.inspect.InspectFixtures.T0;
import static dev.omcp.core.inspect.InspectFixtures.observation;
import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.ports.inspect.Observation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class MemoryObservationsTest {

    private static Observation at(int minutes) {
        return observation(T0.plus(Duration.ofMinutes(minutes)), "key:ci", "query_logs", Map.of(), Map.of());
    }

    @Test
    void forEachSince_visitsTheKeptRecordsFromNotBefore_oldestFirst() {
        MemoryObservations ring = new MemoryObservations(3);
        for (int i = 0; i < 5; i++) {
            ring.append(at(i));
        }
        List<Observation> seen = new ArrayList<>();

        ring.forEachSince(T0.plus(Duration.ofMinutes(3)), seen::add);

        assertThat(seen).containsExactly(at(3), at(4));
        List<Observation> whole = new ArrayList<>();
        ring.forEachSince(T0, whole::add);
        assertThat(whole).as("the ring keeps the newest 3").containsExactly(at(2), at(3), at(4));
    }

    @Test
    void forEachSince_visitsWithoutTheLock_soAVisitorMayWaitOnAnAppend() throws Exception {
        MemoryObservations ring = new MemoryObservations(10);
        ring.append(at(0));
        List<Observation> seen = new ArrayList<>();

        ring.forEachSince(T0, observation -> {
            // another thread's append must not wait for this visitor (it would deadlock if the lock were held)
            CompletableFuture.runAsync(() -> ring.append(at(1))).orTimeout(5, TimeUnit.SECONDS).join();
            seen.add(observation);
        });

        assertThat(seen).containsExactly(at(0));
        List<Observation> after = new ArrayList<>();
        ring.forEachSince(T0, after::add);
        assertThat(after).containsExactly(at(0), at(1));
    }
}
