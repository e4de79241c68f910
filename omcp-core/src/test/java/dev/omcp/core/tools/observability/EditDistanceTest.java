package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EditDistanceTest {

    @Test
    void countsInsertionsDeletionsSubstitutionsAndSwaps() {
        assertThat(EditDistance.atMost("payments", "payments", 2)).isZero();
        assertThat(EditDistance.atMost("paymnets", "payments", 2)).as("one swap").isEqualTo(1);
        assertThat(EditDistance.atMost("payment", "payments", 2)).as("one insertion").isEqualTo(1);
        assertThat(EditDistance.atMost("paymentz", "payments", 2)).as("one substitution").isEqualTo(1);
        assertThat(EditDistance.atMost("pymnts", "payments", 2)).as("two deletions").isEqualTo(2);
        assertThat(EditDistance.atMost("", "ab", 2)).isEqualTo(2);
    }

    @Test
    void stopsAtTheLimit() {
        assertThat(EditDistance.atMost("checkout", "payments", 2)).isEqualTo(3);
        assertThat(EditDistance.atMost("a", "abcdef", 2)).as("lengths too far apart").isEqualTo(3);
    }
}
