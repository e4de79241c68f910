package dev.omcp.core.hooks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.redaction.Redactor;
import org.junit.jupiter.api.Test;

class ThrownMessageTest {
    private final ThrownMessage messages = new ThrownMessage(new Redactor());

    @Test
    void aLineBreakAndTheBlanksAroundIt_becomeOneSpace() {
        assertThat(messages.of("first line  \n\t  second line\r\nthird").forAgent()).isEqualTo("first line second line third");
        assertThat(messages.of("bell\u0007here and \u0000\u001b[31m colour").forAgent()).isEqualTo("bell here and [31m colour");
        assertThat(messages.of("\n  leading and trailing \t\n").forAgent()).isEqualTo("leading and trailing");
    }

    @Test
    void blanksWithoutAControlCharacter_stayAsTheyAre() {
        assertThat(messages.of("two  spaces and   three").forAgent()).isEqualTo("two  spaces and   three");
        // a no-break space is neither a control character nor \s: it stays, and so do the spaces beside it
        assertThat(messages.of("a \u00a0 b").forAgent()).isEqualTo("a \u00a0 b");
    }

    @Test
    void aMessageOfBlanksEndingInAControlCharacter_becomesOneSpace_andOneOfBlanksAlone_isKept() {
        assertThat(messages.of("x" + " ".repeat(ThrownMessage.READ_MAX - 3) + "\ny").forAgent()).isEqualTo("x y");
        String blanks = "x" + " ".repeat(ThrownMessage.READ_MAX - 2) + "y";
        assertThat(messages.of(blanks).forAgent()).startsWith("x   ").hasSize(ThrownMessage.AGENT_MAX + 1);
    }

    @Test
    void controlRunsAsSpaces_replacesWhatTheRegularExpressionItReplacesDid() {
        // the expression is the reference: same output on every text of blanks, controls and their neighbours
        char[] alphabet = {' ', '\t', '\n', '\r', '\u000b', '\f', '\u0000', '\u0007', '\u001f', '\u007f', 'a', '\u00a0', '\u0085',
            '\u2028', '\u3000'};
        java.util.Random random = new java.util.Random(7);
        for (int k = 0; k < 20_000; k++) {
            StringBuilder text = new StringBuilder();
            for (int len = random.nextInt(12); len > 0; len--) {
                text.append(alphabet[random.nextInt(alphabet.length)]);
            }
            String s = text.toString();
            assertThat(ThrownMessage.controlRunsAsSpaces(s)).as("%s", s.chars().boxed().toList())
                    .isEqualTo(s.replaceAll("\\s*\\p{Cntrl}[\\s\\p{Cntrl}]*", " "));
        }
    }
}
