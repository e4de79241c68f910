package dev.omcp.adapters.http.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** MCP 2025-11-25: SSE event ids are unique across all streams of a session, whichever replica serves them. */
class SseStreamIdsTest {

    @Test
    void streamsOpenedAtOnceOnManyThreads_getDistinctNames() throws Exception {
        SseStreamIds ids = new SseStreamIds(new SecureRandom());
        Set<String> names = ConcurrentHashMap.newKeySet();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 10_000; i++) {
                    names.add(ids.next(i % 2 == 0 ? SseStreamIds.POST : SseStreamIds.GET));
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(names).hasSize(40_000);
    }

    @Test
    void twoReplicas_neverNameTheirStreamsAlike_evenTheirFirstOnes() {
        // replicas sharing a session store serve one session's streams: each process has its own random part
        SseStreamIds one = new SseStreamIds(new SecureRandom());
        SseStreamIds other = new SseStreamIds(new SecureRandom());
        assertThat(one.next(SseStreamIds.GET)).isNotEqualTo(other.next(SseStreamIds.GET));
    }

    @Test
    void aNameTellsTheKindOfItsStream_andAnEventIdOfAPostStreamIsKnownAsSuch() {
        String post = SseStreamIds.PROCESS.next(SseStreamIds.POST);
        String get = SseStreamIds.PROCESS.next(SseStreamIds.GET);
        assertThat(post).startsWith("p").matches("p[0-9a-f]{16}\\.[0-9a-f]+");
        assertThat(SseStreamIds.isPostStreamEvent(post + "-3")).isTrue();
        assertThat(SseStreamIds.isPostStreamEvent(get + "-3")).isFalse();
        assertThat(SseStreamIds.isPostStreamEvent("")).isFalse();
        assertThat(SseStreamIds.isPostStreamEvent("42")).isFalse();
    }

    @Test
    void anEventIdReadsBackAsItsStreamAndNumber_andAnythingElseAsNothing() {
        String post = SseStreamIds.PROCESS.next(SseStreamIds.POST);
        assertThat(SseStreamIds.parse(post + "-3")).contains(new SseStreamIds.EventId(post, 3));
        assertThat(SseStreamIds.parse(post)).as("no number").isEmpty();
        assertThat(SseStreamIds.parse(post + "-")).as("empty number").isEmpty();
        assertThat(SseStreamIds.parse(post + "-x1")).as("not a number").isEmpty();
        assertThat(SseStreamIds.parse("-3")).as("no stream").isEmpty();
        assertThat(SseStreamIds.parse(post + "-99999999999999999999")).as("past a long").isEmpty();
    }

    @Test
    void aNumberPastTheLargestLong_isNoEventId_evenInNineteenDigits() {
        // read as a wrapped negative number it would be "before every event": a resumption would replay all kept
        String post = SseStreamIds.PROCESS.next(SseStreamIds.POST);
        assertThat(SseStreamIds.parse(post + "-9999999999999999999")).as("19 digits, past a long").isEmpty();
        assertThat(SseStreamIds.parse(post + "-9223372036854775808")).as("one past a long").isEmpty();
        assertThat(SseStreamIds.parse(post + "-9223372036854775807")).contains(new SseStreamIds.EventId(post, Long.MAX_VALUE));
        assertThat(SseStreamIds.parse(post + "-0000000000000000003")).contains(new SseStreamIds.EventId(post, 3));
    }
}
