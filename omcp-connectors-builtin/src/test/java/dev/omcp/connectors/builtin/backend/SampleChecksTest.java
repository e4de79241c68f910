package dev.omcp.connectors.builtin.backend;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The sort a reader asks for when a series' samples came out of order: ascending, one sample a time, the first answered. */
class SampleChecksTest {

    @Test
    void samplesInAnyOrder_endAscending_withTheFirstAnsweredSampleOfEachTime_asASortOfEverythingWouldKeepIt() {
        Random random = new Random(20_261_130L);
        for (int n : new int[] {0, 1, 2, 3, 7, 64, 1000, 4097}) {
            long[] times = new long[n + 5]; // room after the samples, as a reader's grown arrays have
            double[] values = new double[n + 5];
            Map<Long, Double> firstOfEachTime = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                times[i] = random.nextInt(Math.max(1, n / 2)) * 15_000L; // many repeated times
                values[i] = i;
                firstOfEachTime.putIfAbsent(times[i], (double) i);
            }
            TreeMap<Long, Double> expected = new TreeMap<>(firstOfEachTime);

            int kept = SampleChecks.anyTime().ascending(times, values, n);

            assertThat(kept).as("n=" + n).isEqualTo(expected.size());
            assertThat(Arrays.copyOf(times, kept)).containsExactly(expected.keySet().stream().mapToLong(Long::longValue).toArray());
            assertThat(Arrays.copyOf(values, kept)).containsExactly(expected.values().stream().mapToDouble(Double::doubleValue).toArray());
        }
    }
}
