package dev.omcp.connectors.builtin.loki;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LevelSpellingsTest {

    @Test
    void aLevelBringsItsOtherSpellings_theAskedOneFirst_inLowerCase() {
        assertThat(LevelSpellings.of("warning")).containsExactly("warning", "warn");
        assertThat(LevelSpellings.of("WARN")).containsExactly("warn", "warning");
        assertThat(LevelSpellings.of("Error")).containsExactly("error", "err");
        assertThat(LevelSpellings.of("info")).containsExactly("info", "information", "informational");
    }

    @Test
    void aLevelWithoutOtherSpellingsIsItselfAlone() {
        assertThat(LevelSpellings.of("notice")).containsExactly("notice");
    }
}
