package dev.omcp.sdk.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class ReadBudgetTest {

    @Test
    void ordinaryExpressions_matchAsJavaMatchesThem_andChargeTheirReads() {
        ReadBudget budget = new ReadBudget(10_000);
        assertThat(budget.find(Pattern.compile("time.*conn"), "timeout acquiring connection")).isTrue();
        assertThat(budget.find(Pattern.compile("(?i)DEADLINE"), "timeout acquiring connection")).isFalse();
        assertThat(budget.matches(Pattern.compile("pay.*"), "payments")).isTrue();
        assertThat(budget.matches(Pattern.compile("pay"), "payments")).isFalse();
        assertThat(budget.left()).isLessThan(10_000).isGreaterThan(9_000);
    }

    @Test
    void catastrophicBacktracking_stopsWhenTheBudgetIsSpent_insteadOfSpinning() {
        String line = "a".repeat(28) + "!"; // the JDK memoizes (a+)+$, not this one
        assertTimeoutPreemptively(Duration.ofSeconds(20), () ->
                assertThatThrownBy(() -> new ReadBudget(5_000_000).find(Pattern.compile("(.*a){12}$"), line))
                        .isInstanceOf(ReadBudget.ExhaustedException.class)
                        .hasMessageContaining("read budget"));
    }

    @Test
    void oneBudgetServesSeveralMatches_andRunsOutAcrossThem() {
        ReadBudget budget = new ReadBudget(50);
        assertThat(budget.find(Pattern.compile("x"), "a".repeat(30))).isFalse();
        assertThatThrownBy(() -> budget.find(Pattern.compile("x"), "a".repeat(30))).isInstanceOf(ReadBudget.ExhaustedException.class);
        assertThat(budget.left()).isZero();
        assertThatThrownBy(() -> new ReadBudget(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
