package dev.omcp.sdk.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LogFieldTest {

    @Test
    void aQuoteAndABackslash_areEscaped_soAValueCannotCloseItsFieldAndOpenAnother() {
        assertThat("actor=\"" + LogField.of("x\" actor=\"admin") + "\"").isEqualTo("actor=\"x\\\" actor=\\\"admin\"");
        // a trailing backslash would otherwise escape the closing quote
        assertThat(LogField.of("C:\\dir\\")).isEqualTo("C:\\\\dir\\\\");
    }

    @Test
    void invisibleCharacters_becomeEscapes_andEveryVisibleOneStays() {
        assertThat(LogField.of("a\r\nb\u0085c\u2028d\u202ee\u200bf\ufeffg\u001b")).isEqualTo(
                "a\\u000d\\u000ab\\u0085c\\u2028d\\u202ee\\u200bf\\ufeffg\\u001b");
        assertThat(LogField.of("josé = Ωmega 😀 ok")).isEqualTo("josé = Ωmega 😀 ok");
    }

    @Test
    void aLoneSurrogate_isEscaped_butAPairIsKept() {
        assertThat(LogField.of("a\ud83db\ude00")).isEqualTo("a\\ud83db\\ude00");
        assertThat(LogField.of("\ud83d\ude00")).isEqualTo("\ud83d\ude00");
    }

    @Test
    void aLongValue_isCutAndSaysItsLength_neverInsideACharacter() {
        assertThat(LogField.of("x".repeat(10_000))).isEqualTo("x".repeat(LogField.MAX_CHARS) + "...(10000 chars)");
        assertThat(LogField.of("a" + "😀".repeat(3), 2)).isEqualTo("a...(7 chars)");
        assertThat(LogField.of("a😀b", 3)).isEqualTo("a😀...(4 chars)");
    }

    @Test
    void nullIsNamed_andAnyObjectIsItsText() {
        assertThat(LogField.of(null)).isEqualTo("(none)");
        assertThat(LogField.of(new StringBuilder("q\""))).isEqualTo("q\\\"");
        assertThatThrownBy(() -> LogField.of("x", 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
