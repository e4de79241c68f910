package dev.omcp.adapters.storage.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The spellings of a state that {@code enabled} takes, written in the sources file or given by a {@code ${VAR}}. */
class SwitchTextTest {
    @Test
    void trueAndFalseInAnyCase_withBlanksAround_areStates() {
        assertThat(SwitchText.parse("true")).contains(true);
        assertThat(SwitchText.parse("false")).contains(false);
        assertThat(SwitchText.parse(" TRUE ")).contains(true);
        assertThat(SwitchText.parse("False\n")).contains(false);
    }

    @Test
    void yesNoOnOff_areStatesToo_inAnyCase_asYamlReadsThemUnquoted() {
        for (String on : List.of("yes", "Yes", "YES", "yEs", "on", "On", "ON", "oN", " on\n")) {
            assertThat(SwitchText.parse(on)).as(on).contains(true);
        }
        for (String off : List.of("no", "No", "NO", "nO", "off", "Off", "OFF", "oFF", "\toff ")) {
            assertThat(SwitchText.parse(off)).as(off).contains(false);
        }
    }

    @Test
    void anythingElseIsNot() {
        for (String text : List.of("", " ", "1", "0", "y", "n", "t", "f", "truee", "ture", "true false", "enabled", "${X}")) {
            assertThat(SwitchText.parse(text)).as(text).isEmpty();
        }
    }
}
