package dev.omcp.sdk.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BackendTextTest {

    @Test
    void serverText_becomesOneLine_withoutControlFormatOrSeparatorCharacters() {
        // CR LF, NEL (a C1 control), the Unicode line separator and a bidi override could each start or disguise a log line
        String cleaned = BackendText.clean("Expired\r\nevent=forged\u0085a\u2028b\u202Ec\u0000d", 200);
        assertThat(cleaned).isEqualTo("Expired event=forged a b c d");
    }

    @Test
    void longServerText_isCutWithAnEllipsis() {
        String cleaned = BackendText.clean("x".repeat(100_000), 200);
        assertThat(cleaned).hasSize(201).endsWith("…");
    }

    @Test
    void aCutNeverSplitsACharacter() {
        String cleaned = BackendText.clean("a" + "😀".repeat(200), 4); // each emoji is two chars
        assertThat(cleaned).isEqualTo("a😀…");
    }

    @Test
    void shortText_isUnchanged_butForItsUrls() {
        assertThat(BackendText.clean("too old resource version: 5 (7) at https://10.0.0.1:6443/api", 200))
                .isEqualTo("too old resource version: 5 (7) at <url>");
    }

    @Test
    void quotedText_marksEachUnsafeCharacterWithAQuestionMark_andKeepsUrls() {
        assertThat(BackendText.quoted("evil\u001b[2J\nrole\u202e at http://x/", 64)).isEqualTo("evil?[2J?role? at http://x/");
    }

    @Test
    void quotedText_isCutWithAnEllipsis_neverInsideACharacter() {
        assertThat(BackendText.quoted("x".repeat(100), 64)).isEqualTo("x".repeat(64) + "…");
        assertThat(BackendText.quoted("a" + "😀".repeat(10), 4)).isEqualTo("a😀…");
        assertThat(BackendText.quoted(null, 8)).isEqualTo("null");
    }

    @Test
    void escapedText_showsEveryInvisibleCharacterAsAnEscape_andKeepsTheRestWhole() {
        assertThat(BackendText.escaped("in\u001b]0;owned\u0007fo\n  - forged\r\t\u202eend /tmp/a\\b " + "x".repeat(300)))
                .isEqualTo("in\\u001b]0;owned\\u0007fo\\n  - forged\\r\\t\\u202eend /tmp/a\\b " + "x".repeat(300));
        assertThat(BackendText.escaped("plain text, é and 😀")).isEqualTo("plain text, é and 😀");
    }

    @Test
    void urls_areReplacedAsTheRegularExpressionDid_onEveryMixOfSchemeAndUrlCharacters() {
        // the expression, searched for from every position, is the reference
        java.util.regex.Pattern reference = java.util.regex.Pattern.compile("(?i)\\b[a-z][a-z0-9+.-]*://[^\\s\"'<>]+");
        String[] pieces = {"://", "a", "Z", "h", "7", "_", ".", "+", "-", ":", "/", " ", "\t", "\"", "'", "<", ">", "@", "é",
            "\u0301", "\u017f", "\u212a", "\u0131", "?", "x://y", "http://u:p@h/"};
        java.util.Random random = new java.util.Random(11);
        for (int k = 0; k < 50_000; k++) {
            StringBuilder text = new StringBuilder();
            for (int len = random.nextInt(10); len > 0; len--) {
                text.append(pieces[random.nextInt(pieces.length)]);
            }
            String s = text.toString();
            assertThat(BackendText.withoutUrls(s)).as(s).isEqualTo(reference.matcher(s).replaceAll("<url>"));
        }
    }

    @Test
    void urls_areFoundInLinearTime_inTextThatStartsAWordAtEveryOtherCharacter() {
        // each "a" after a dot starts a word: searched for from every position, the expression took a minute on this
        String text = "a.".repeat(50_000) + "x://secret@host/" + " a.".repeat(50_000) + "://";
        String cleaned = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(20),
                () -> BackendText.withoutUrls(text));
        assertThat(cleaned).isEqualTo("<url>" + " a.".repeat(50_000) + "://");
    }
}
