package dev.omcp.adapters.storage.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The numbers a {@code ${VAR}} may carry into a numeric field of the sources file: the decimal forms YAML reads in the file. */
class DecimalTextTest {
    @Test
    void theDecimalFormsAreNumbers() {
        assertThat(DecimalText.parse("500")).contains(new BigDecimal("500"));
        assertThat(DecimalText.parse(" 0.5 ")).contains(new BigDecimal("0.5"));
        assertThat(DecimalText.parse(".5")).contains(new BigDecimal("0.5"));
        assertThat(DecimalText.parse("5.")).contains(new BigDecimal("5"));
        assertThat(DecimalText.parse("5e2")).hasValueSatisfying(n -> assertThat(n).isEqualByComparingTo("500"));
        assertThat(DecimalText.parse("-1.0E+3")).hasValueSatisfying(n -> assertThat(n).isEqualByComparingTo("-1000"));
        assertThat(DecimalText.parse("+9.5e-1")).hasValueSatisfying(n -> assertThat(n).isEqualByComparingTo("0.95"));
    }

    @Test
    void anythingElseIsNot() {
        for (String text : List.of("", " ", ".", "e2", "5e", "500ms", "0x1F", "1_000", "1:30", ".inf", "NaN", "five", "5 e2", "1e2.5")) {
            assertThat(DecimalText.parse(text)).as(text).isEmpty();
        }
    }
}
