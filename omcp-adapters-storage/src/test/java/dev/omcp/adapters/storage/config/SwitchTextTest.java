package dev.omcp.adapters.storage.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The on/off states a {@code ${VAR}} may carry into a source's {@code enabled}. */
class SwitchTextTest {
    @Test
    void trueAndFalseInAnyCase_withBlanksAround_areStates() {
        assertThat(SwitchText.parse("true")).contains(true);
        assertThat(SwitchText.parse("false")).contains(false);
        assertThat(SwitchText.parse(" TRUE ")).contains(true);
        assertThat(SwitchText.parse("False\n")).contains(false);
    }

    @Test
    void anythingElseIsNot() {
        for (String text : List.of("", " ", "yes", "no", "on", "off", "1", "0", "t", "f", "truee", "true false", "${X}")) {
            assertThat(SwitchText.parse(text)).as(text).isEmpty();
        }
    }
}
