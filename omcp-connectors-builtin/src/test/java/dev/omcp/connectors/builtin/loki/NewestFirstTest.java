package dev.omcp.connectors.builtin.loki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The newest lines of an answer, kept within twice the limit however many arrive. */
class NewestFirstTest {
    private record Line(Instant time, int offered) {}

    /** Times with many ties, in no order. */
    private static List<Line> lines(int count) {
        List<Line> all = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            all.add(new Line(Instant.ofEpochSecond((i * 7919L) % 1009), i));
        }
        return all;
    }

    private static List<Line> newestOf(List<Line> all, int limit) {
        List<Line> sorted = new ArrayList<>(all);
        sorted.sort(Comparator.comparing(Line::time).reversed()); // stable: ties in the order offered
        return sorted.subList(0, Math.min(limit, sorted.size()));
    }

    @Test
    void manyItems_areHeldAtMostTwiceTheLimitAtATime_andTheNewestAreKept_tiesInTheOrderOffered() {
        List<Line> all = lines(200_000);
        NewestFirst<Line> newest = new NewestFirst<>(50, Line::time);
        int mostHeld = 0;
        for (Line line : all) {
            newest.offer(line);
            mostHeld = Math.max(mostHeld, newest.held());
        }
        assertThat(mostHeld).isLessThan(100);
        assertThat(newest.items()).containsExactlyElementsOf(newestOf(all, 50));
    }

    @Test
    void asManyAsTheLimitOrFewer_comeBackAsOffered() {
        List<Line> all = lines(50);
        NewestFirst<Line> newest = new NewestFirst<>(50, Line::time);
        all.forEach(newest::offer);
        assertThat(newest.items()).containsExactlyElementsOf(all);
    }

    @Test
    void aLimitBelowOne_isABug() {
        assertThatThrownBy(() -> new NewestFirst<Line>(0, Line::time)).isInstanceOf(IllegalArgumentException.class);
    }
}
