package dev.omcp.testkit.demo.loki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class BoundedRegexTest {

    @Test
    void ordinaryExpressions_matchAsJavaMatchesThem_evenWithQuadraticWork() {
        String line = "{\"level\":\"error\",\"msg\":\"timeout acquiring connection\",\"pad\":\"" + "x".repeat(1_900) + "\"}";
        assertThat(BoundedRegex.find(Pattern.compile("time.*conn"), line)).isTrue();
        assertThat(BoundedRegex.find(Pattern.compile(".*y.*z"), line)).isFalse();
        assertThat(BoundedRegex.matches(Pattern.compile("pay.*"), "payments")).isTrue();
        assertThat(BoundedRegex.matches(Pattern.compile("pay"), "payments")).isFalse();
        assertThat(BoundedRegex.find(Pattern.compile("(?i)TIMEOUT"), line)).isTrue();
    }

    @Test
    void catastrophicBacktracking_failsQuicklyWithAReason_insteadOfSpinning() {
        String line = "a".repeat(28) + "!"; // JDK 9+ memoizes (a+)+$, not this one
        assertTimeoutPreemptively(Duration.ofSeconds(20), () ->
                assertThatThrownBy(() -> BoundedRegex.find(Pattern.compile("(.*a){12}$"), line))
                        .isInstanceOf(LogQlException.class)
                        .hasMessageContaining("(.*a){12}$")
                        .hasMessageContaining("backtracks too much")
                        .hasMessageContaining("RE2"));
    }

    @Test
    void aGroupOfAlternativesRepeatedOverALongLine_failsWithAReason_insteadOfOverflowingTheStack() {
        // java.util.regex recurses once per repetition of (a|b): a budget of reads does not bound that
        String line = "ab".repeat(50_000);
        assertThatThrownBy(() -> BoundedRegex.matches(Pattern.compile("(a|b)*"), line))
                .isInstanceOf(LogQlException.class)
                .hasMessageContaining("(a|b)*")
                .hasMessageContaining("[ab]*");
    }
}
