package dev.omcp.connectors.builtin.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.sdk.memory.AnswerBudget;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** A watch stream's lines: bounded, counted against the answer budget while held, and given back. */
class WatchLinesTest {
    private static final int STEP_BUDGET = (16 << 10) * AnswerBudget.Reading.TREE.weight();

    private static WatchLines lines(String text, AnswerBudget budget, int maxLineBytes) {
        return new WatchLines(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), budget, maxLineBytes);
    }

    @Test
    void eachLineHoldsItsShareOfTheBudget_untilItIsReleasedOrTheNextLineIsRead() throws IOException {
        AnswerBudget budget = AnswerBudget.ofBytes(64L << 20);
        try (WatchLines lines = lines("{\"type\":\"ADDED\"}\n\n{\"type\":\"BOOKMARK\"}\n", budget, 1 << 20)) {
            assertThat(lines.next()).isEqualTo("{\"type\":\"ADDED\"}");
            assertThat(budget.inFlight()).isPositive();
            lines.release();
            assertThat(budget.inFlight()).isZero();
            assertThat(lines.next()).isEmpty();
            assertThat(lines.next()).isEqualTo("{\"type\":\"BOOKMARK\"}");
            assertThat(lines.next()).isNull();
        }
        assertThat(budget.inFlight()).isZero();
    }

    @Test
    void aLineTheBudgetCannotHold_isRefusedAsExhausted_andGivesBackWhatItHad() {
        AnswerBudget budget = AnswerBudget.ofBytes(2L * STEP_BUDGET); // room for 32 KiB of event text
        String large = "{\"type\":\"ADDED\",\"object\":{\"x\":\"" + "a".repeat(100 << 10) + "\"}}\n";
        try (WatchLines lines = lines(large, budget, 1 << 20)) {
            assertThatThrownBy(lines::next).isInstanceOfSatisfying(AnswerBudget.Exhausted.class,
                    e -> assertThat(e.fitsAlone()).isFalse());
            assertThat(budget.inFlight()).isZero();
        }
    }

    @Test
    void aLineWhileOtherAnswersFillTheBudget_fitsAlone_soARetryMayPass() {
        AnswerBudget budget = AnswerBudget.ofBytes(4L * STEP_BUDGET);
        assertThat(budget.tryReserve(3L * STEP_BUDGET + 1)).isTrue(); // another answer in flight
        try (WatchLines lines = lines("a".repeat(20 << 10) + "\n", budget, 1 << 20)) {
            assertThatThrownBy(lines::next).isInstanceOfSatisfying(AnswerBudget.Exhausted.class,
                    e -> assertThat(e.fitsAlone()).isTrue());
        }
        assertThat(budget.inFlight()).isEqualTo(3L * STEP_BUDGET + 1);
    }

    @Test
    void aLineLongerThanTheBound_orCutShort_isAnError() {
        AnswerBudget budget = AnswerBudget.ofBytes(64L << 20);
        try (WatchLines lines = lines("x".repeat(2000) + "\n", budget, 1000)) {
            assertThatThrownBy(lines::next).isInstanceOf(WatchLines.EventTooLarge.class)
                    .hasMessage("a watch event is larger than 1000 bytes");
        }
        try (WatchLines lines = lines("{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"Po", budget, 1000)) {
            assertThatThrownBy(lines::next).isInstanceOf(IOException.class).hasMessage("the watch stream ended inside an event");
        }
        assertThat(budget.inFlight()).isZero();
    }

    @Test
    void aLargeEvent_isReadInChunks_notByteByByte() throws IOException {
        // a pod event is often tens of KiB: a call into the HTTP client's stream per byte costs more than parsing it
        String large = "{\"type\":\"ADDED\",\"object\":{\"x\":\"" + "a".repeat(1 << 20) + "\"}}";
        int[] reads = new int[1];
        byte[] twoEvents = (large + "\n" + large + "\n").getBytes(StandardCharsets.UTF_8);
        InputStream counted = new FilterInputStream(new ByteArrayInputStream(twoEvents)) {
            @Override
            public int read() throws IOException {
                reads[0]++;
                return super.read();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                reads[0]++;
                return super.read(b, off, len);
            }
        };
        try (WatchLines lines = new WatchLines(counted, AnswerBudget.ofBytes(64L << 20), 2 << 20)) {
            assertThat(lines.next()).isEqualTo(large);
            assertThat(lines.next()).isEqualTo(large); // what the first read took past its newline is the second line's start
            assertThat(lines.next()).isNull();
        }
        assertThat(reads[0]).isLessThan(1_000);
    }

    @Test
    void aLineOfExactlyTheBound_isRead_evenWhenItsNewlineArrivesInALaterRead() throws IOException {
        AnswerBudget budget = AnswerBudget.ofBytes(64L << 20);
        byte[] text = ("x".repeat(1000) + "\n" + "y\n").getBytes(StandardCharsets.UTF_8);
        InputStream trickle = new FilterInputStream(new ByteArrayInputStream(text)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(len, 7)); // a stream that hands out a few bytes at a time, as a slow network does
            }
        };
        try (WatchLines lines = new WatchLines(trickle, budget, 1000)) {
            assertThat(lines.next()).hasSize(1000);
            assertThat(lines.next()).isEqualTo("y");
            assertThat(lines.next()).isNull();
        }
        assertThat(budget.inFlight()).isZero();
    }
}
