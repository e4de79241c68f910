package dev.omcp.core.redaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The fifth review's leaks: secrets in coloured log lines (terminal colour codes glued to a token
 * or a name), quoted values holding an escaped quote, and a tab after a name's separator.
 */
class RedactorTerminalAndEscapesTest {
    /** The escape character that starts a terminal colour code. */
    private static final String ESC = "\033";
    private static final String GITHUB = "ghp_1234567890abcdefghijABCDEFGHIJ123456";

    private final Redactor redactor = new Redactor();

    private String redact(String text) {
        return redactor.redactText(text).text();
    }

    @Test
    void aTokenColouredByTerminalCodes_isRedacted_andCountedOnce() {
        Redactor.TextRedaction r = redactor.redactText(ESC + "[31m" + GITHUB + ESC + "[0m pushed");
        assertThat(r.text()).doesNotContain("1234567890abcdef").contains("[REDACTED:github_token]").endsWith(" pushed");
        assertThat(r.counts().of(RedactionCategory.GITHUB_TOKEN)).isEqualTo(1);
        assertThat(r.counts().total()).isEqualTo(1);
    }

    @Test
    void aBearerSchemeInColour_doesNotLeaveItsTokenBehind() {
        String out = redact("Authorization: " + ESC + "[33mBearer abcdefghijklmnop" + ESC + "[0m");
        assertThat(out).doesNotContain("abcdefghijklmnop");
    }

    @ParameterizedTest
    @ValueSource(strings = {"level=info \033[36mpassword\033[0m: s3cr3tValue", "\033[32mpassword\033[0m=s3cr3tValue",
        "\033[1;32mdb_password\033[0m = s3cr3tValue", "token=\033[2;31ms3cr3tValue\033[0m", "\033]0;title\007password=s3cr3tValue"})
    void aSecretNameInColour_stillHasItsValueRedacted(String line) {
        assertThat(redact(line)).doesNotContain("s3cr3tValue").contains("[REDACTED:secret]");
    }

    @ParameterizedTest
    // the line is read once without its codes: a secret a code splits is read joined, as it was written
    @ValueSource(strings = {"key AKIA\033[0mIOSFODNN7EXAMPLE used", "pass\033[1mword=hunter2xyz", "token=hunter\033[0m2xyz end",
        "Authorization: Bear\033[0mer abcdefghijklmnop", "mail alice@exam\033[4mple.com now",
        "key AKIA\033[0mIOSFODNN7EXAMPLE bob@example.com"})
    void aSecretSplitByATerminalCode_isStillRedacted(String line) {
        assertThat(redact(line)).doesNotContain("IOSFODNN7EXAMPLE", "hunter2", "2xyz", "abcdefghijklmnop", "alice", "ple.com");
    }

    @Test
    void aSecretACodeGluesToTheNextWord_isRedacted_evenWhenTheLineHoldsAnotherSecret() {
        // without the code the key reads as one 21-character word, which no detector takes; the email made
        // the code-free reading find something, so it alone used to be shown
        Redactor.TextRedaction r = redactor.redactText("AKIAIOSFODNN7EXAMPLE" + ESC + "[0mA sent by bob@example.com");
        assertThat(r.text()).doesNotContain("IOSFODNN7EXAMPLE", "bob@").doesNotContain(ESC)
                .isEqualTo("[REDACTED:aws_key]A sent by [REDACTED:email]");
        assertThat(r.counts().of(RedactionCategory.AWS_KEY)).isEqualTo(1);
        assertThat(r.counts().of(RedactionCategory.EMAIL)).isEqualTo(1);
        assertThat(r.counts().total()).isEqualTo(2);
    }

    @Test
    void aGluedSecretAndASplitSecretOnOneLine_areBothRedacted() {
        String line = "AKIAIOSFODNN7EXAMPLE" + ESC + "[0mA and token=hunter" + ESC + "[0m2xyz by bob@example.com";
        Redactor.TextRedaction r = redactor.redactText(line);
        assertThat(r.text()).doesNotContain("IOSFODNN7EXAMPLE", "hunter", "2xyz", "bob@");
        assertThat(r.counts().total()).isEqualTo(3);
    }

    @Test
    void aColouredLineWithoutSecrets_keepsItsColourCodes() {
        String line = ESC + "[32mINFO" + ESC + "[0m Started Application in 3.2 seconds (process running for 4.1)";
        Redactor.TextRedaction r = redactor.redactText(line);
        assertThat(r.text()).isSameAs(line);
        assertThat(r.counts().total()).isZero();
    }

    @Test
    void theShownStartOfALongColouredLine_isRedactedToo() {
        String line = ESC + "[31m" + GITHUB + ESC + "[0m " + "x ".repeat(20_000);
        Redactor.HeadRedaction head = redactor.redactHead(line, 2000);
        assertThat(head.text()).startsWith("[REDACTED:github_token] x x").doesNotContain("1234567890abcdef");
        assertThat(head.counts().of(RedactionCategory.GITHUB_TOKEN)).isEqualTo(1);
        assertThat(head.whole()).isFalse();
    }

    @Test
    void manyColourCodes_stayLinear() {
        // 4 MB: a scan restarting at every code would take hours here, a linear one well under a second
        String hostile = (ESC + "[31mghp_" + ESC + "[0m password" + ESC + "[0m=").repeat(4_000_000 / 24);
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> redactor.redactText(hostile));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // an escaped quote inside a quoted value is part of it: text after it is still the password
        "login password=\"hun\\\"ter2 more\" user=bob",
        "msg {\"password\":\"hun\\\"ter2 more\",\"user\":\"bob\"}",
        // the same as JSON escaped inside a JSON string: an inner quote is then three backslashes and a quote
        "msg={\\\"password\\\":\\\"hun\\\\\\\"ter2 more\\\",\\\"user\\\":\\\"bob\\\"}"})
    void aQuotedValueWithAnEscapedQuote_isRedactedWhole(String line) {
        String out = redact(line);
        assertThat(out).doesNotContain("ter2").contains("[REDACTED:secret]").contains("bob");
    }

    @Test
    void aQuotedValueEndingInAnEscapedBackslash_endsAtItsQuote() {
        assertThat(redact("password=\"abc\\\\\" user=bob")).isEqualTo("password=\"[REDACTED:secret]\" user=bob");
    }

    @ParameterizedTest
    @ValueSource(strings = {"password:\ts3cr3tValue", "password=\ts3cr3tValue", "api_key: \t s3cr3tValue"})
    void aTabAfterTheSeparator_stillHidesTheValue(String line) {
        assertThat(redact(line)).doesNotContain("s3cr3tValue").contains("[REDACTED:secret]");
    }

    @Test
    void manyEscapedQuotesInAQuotedValue_stayLinear() {
        String hostile = ("password=\"" + "\\\"".repeat(100) + " ").repeat(4_000_000 / 212);
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> redactor.redactText(hostile));
    }
}
