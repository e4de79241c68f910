package dev.omcp.core.redaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link Redactor#redactHead}: a bounded start of a long text is examined, and no secret it reaches into is shown in part. */
class RedactorHeadTest {
    private static final int SHOWN = 2000;
    private static final int EXAMINED = SHOWN + TextHead.MARGIN;
    private final Redactor redactor = new Redactor();

    private static String words(int length) {
        StringBuilder b = new StringBuilder(length + 16);
        String[] w = {"lorem ", "ipsum ", "dolor ", "sit ", "amet, ", "request ", "served ", "in ", "12 ", "ms; "};
        for (int i = 0; b.length() < length; i++) {
            b.append(w[i % w.length]);
        }
        b.setLength(length);
        return b.toString();
    }

    @Test
    void aTextNoLongerThanTheExaminedStart_isRedactedWhole_asRedactText() {
        String text = words(1500) + " password=hunter2 " + words(EXAMINED - 1600) + " alice@example.com";
        assertThat(text.length()).isLessThanOrEqualTo(EXAMINED);
        Redactor.HeadRedaction head = redactor.redactHead(text, SHOWN);
        Redactor.TextRedaction whole = redactor.redactText(text);
        assertThat(head.text()).isEqualTo(whole.text());
        assertThat(head.counts()).isEqualTo(whole.counts());
        assertThat(head.whole()).isTrue();
        assertThat(head.examined()).isEqualTo(text.length());
    }

    @Test
    void aTenMegabyteLine_isExaminedOnlyAtItsStart() {
        // the email at the end would be counted if the whole line were scanned
        String line = words(10 * 1024 * 1024) + " alice@example.com";
        Redactor.HeadRedaction head = redactor.redactHead(line, SHOWN);
        assertThat(head.examined()).isEqualTo(EXAMINED);
        assertThat(head.counts().of(RedactionCategory.EMAIL)).isZero();
        assertThat(head.whole()).isFalse();
        assertThat(head.text()).hasSizeGreaterThanOrEqualTo(SHOWN).startsWith(line.substring(0, SHOWN));
        assertThat(head.text().length() + head.charsAfter()).as("every character is shown or counted after").isEqualTo(line.length());
    }

    @Test
    void secretsOfEveryCategory_aroundTheExaminedEnd_areNotShownInPart() {
        // a private key at the start shrinks 7,000 characters to one marker, pulling what follows into view
        String shrink = "-----BEGIN RSA PRIVATE KEY-----\n" + "QUJDRA".repeat(1166) + "\n-----END RSA PRIVATE KEY-----\n";
        List<SecretCorpus.Line> lines = new SecretCorpus(4242L).secretLines(4);
        List<String> leaks = new ArrayList<>();
        for (String start : new String[] {"", shrink}) {
            for (int at = EXAMINED - TextHead.REACH - 40; at < EXAMINED + 20; at += 97) {
                for (SecretCorpus.Line l : lines) {
                    String text = start + words(at - start.length()) + " " + l.text() + " " + words(20_000);
                    Redactor.HeadRedaction head = redactor.redactHead(text, SHOWN);
                    for (String secret : l.planted()) {
                        String leak = RedactorTest.leakedPart(secret, head.text());
                        if (leak != null) {
                            leaks.add(l.category() + " at " + at + " leaked '" + leak + "'");
                        }
                    }
                }
            }
        }
        assertThat(leaks).isEmpty();
    }

    @Test
    void aSecretRecognisedByWhatFollowsIt_isNotShown_whenTheExaminedEndCutsItFromThatProof() {
        // each is one run of key-like characters from the shown start past the examined end: its proof (the @ and
        // domain, the JWT's second part, the key's END line) lies beyond what is examined
        String longLocal = "x".repeat(EXAMINED) + "@example.com";
        String jwt = "eyJ" + "a".repeat(EXAMINED) + ".eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl";
        String keyEnd = "QUJDRA==\\n".repeat(EXAMINED / 10 + 1) + "-----END RSA PRIVATE KEY-----";
        for (String secret : List.of(longLocal, jwt, keyEnd)) {
            String text = "user " + secret + " done " + words(5000);
            assertThat(redactor.redactText(text).text()).as("redacted when read whole").doesNotContain(secret.substring(0, 40));
            Redactor.HeadRedaction head = redactor.redactHead(text, SHOWN);
            assertThat(head.text()).isEqualTo("user ");
            assertThat(head.charsAfter()).isEqualTo(text.length() - "user ".length());
        }
    }

    @Test
    void aSecretOfBoundedLengthThatTheExaminedEndCuts_isNotShown_evenWhereItHoldsNoKeyLikeRun() {
        // user:password@ is recognised by its @, up to 256 characters on; punctuation breaks the password into short runs
        String password = "pa!ss:wo!rd".repeat(22);
        String credentials = "https://alice:" + password + "@db.example.com/orders";
        int at = EXAMINED - 150 - "https://alice:".length();
        String text = words(at) + credentials + " " + words(20_000);
        assertThat(redactor.redactText(text).text()).as("redacted when read whole").doesNotContain("pa!ss");
        Redactor.HeadRedaction head = redactor.redactHead(text, SHOWN);
        String safe = words(EXAMINED - TextHead.REACH);
        assertThat(head.text()).doesNotContain("pa!ss").endsWith(safe.substring(safe.length() - 20));
    }

    @Test
    void aLongRunThatEndsBeforeTheExaminedEnd_doesNotHideTheStart() {
        // base64 data ends well before the examined end: the words after it end the run, so the start is shown
        String text = words(500) + " data=" + "QUJD".repeat(1000) + " " + words(50_000);
        Redactor.HeadRedaction head = redactor.redactHead(text, SHOWN);
        assertThat(head.text()).hasSizeGreaterThanOrEqualTo(SHOWN).startsWith(words(500) + " data=QUJD");
    }

    @Test
    void whatTheWholeLineHides_isHiddenInItsStart_whateverTextFarPastTheExaminedEndSwitchesOn() {
        // each detector's pre-scan hint is met by the secret itself, not by text megabytes on that the start never sees
        String far = " " + words(3 * EXAMINED) + " cmd -v --x a_b hooks " + "QUJDRA".repeat(20) + " end";
        String[][] cases = {
            {"--password hunter2 ", "hunter2"},
            {"run\t--api-token s3cr3tValue ", "s3cr3tValue"},
            {"curl\t-ualice:s3cr3tpw http://db ", "s3cr3tpw"},
            {"mysql\t-pS3cretPw db ", "S3cretPw"},
            {"[mysql,-pS3cretPw] ", "S3cretPw"},
            {"post hooks.slack.com/services/a_b_c-d_e_f-g_h_i ", "a_b_c-d_e_f"},
        };
        for (String[] c : cases) {
            String line = c[0] + words(500) + far;
            assertThat(redactor.redactText(line).text()).as("the whole line hides it").doesNotContain(c[1]);
            assertThat(redactor.redactHead(line, SHOWN).text()).as(c[0]).doesNotContain(c[1]);
        }
    }

    @Test
    void theShownStartNeverEndsInHalfACharacter() {
        // a character outside the Basic Multilingual Plane is two UTF-16 units; the safe end may fall between them
        String emoji = new String(Character.toChars(0x1F600));
        int safe = EXAMINED - TextHead.REACH;
        String line = words(safe - 1) + emoji + words(30_000);
        Redactor.HeadRedaction head = redactor.redactHead(line, SHOWN);
        assertThat(Character.isHighSurrogate(head.text().charAt(head.text().length() - 1))).isFalse();
        assertThat(head.text().length() + head.charsAfter()).isEqualTo(line.length());
    }
}
