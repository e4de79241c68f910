package dev.omcp.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.auth.ScryptPasswordHasher;
import dev.omcp.adapters.storage.auth.JsonUsersFile;
import dev.omcp.core.auth.password.PasswordRules;
import dev.omcp.ports.auth.PasswordHash;
import dev.omcp.sdk.text.BackendText;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Spec 5.3: omcp hash-password and its password policy. */
class HashPasswordCommandTest {
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String stdin, PasswordRules rules, String... args) {
        CommandLine command = new CommandLine(new HashPasswordCommand(
                new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), Optional.empty(), Optional.of(rules)));
        command.setOut(new PrintWriter(out, true));
        command.setErr(new PrintWriter(err, true));
        return command.execute(args);
    }

    @Test
    void printsAUsersFileEntryWhoseHashVerifies_readingThePasswordFromStdin() {
        int code = run("Tide-Lantern-42-Orbit\n", PasswordRules.DEFAULT, "alice", "--name", "Alice A.", "--roles", "admin,operator",
                "--tenant", "acme");
        assertThat(code).isZero();
        JsonObject entry = Json.createReader(new StringReader(out.toString())).readObject();
        assertThat(entry.getString("username")).isEqualTo("alice");
        assertThat(entry.getString("name")).isEqualTo("Alice A.");
        assertThat(entry.getJsonArray("roles").toString()).isEqualTo("[\"admin\",\"operator\"]");
        assertThat(entry.getString("tenant")).isEqualTo("acme");
        PasswordHash hash = PasswordHash.parse(entry.getString("passwordHash"));
        assertThat(entry.getString("passwordHash")).startsWith("scrypt$32768$8$1$");
        assertThat(new ScryptPasswordHasher(new SecureRandom()).verify("Tide-Lantern-42-Orbit", hash)).isTrue();
        assertThat(out.toString()).doesNotContain("Tide-Lantern");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void aRoleThatIsNotBuiltin_isMintedWithAWarning_aPolicyFileMayDefineIt() {
        assertThat(run("Tide-Lantern-42-Orbit", PasswordRules.DEFAULT, "bob", "--roles", "superuser,viewer")).isZero();

        assertThat(Json.createReader(new StringReader(out.toString())).readObject().getJsonArray("roles").toString())
                .isEqualTo("[\"superuser\",\"viewer\"]");
        assertThat(err.toString().strip()).isEqualTo("warning: role 'superuser' is not a builtin role (viewer, operator, admin); "
                + "it grants nothing unless OMCP_RBAC_POLICY_FILE defines it");
    }

    @Test
    void aUsernameWithALeadingOrTrailingSpace_isRefused_asTheUsersFileWouldRefuseTheEntry() {
        assertThat(run("Tide-Lantern-42-Orbit", PasswordRules.DEFAULT, "alice ")).isEqualTo(1);
        assertThat(run("Tide-Lantern-42-Orbit", PasswordRules.DEFAULT, " alice")).isEqualTo(1);

        assertThat(out.toString()).isEmpty();
        assertThat(err.toString()).contains("must not start or end with a space");
    }

    @Test
    void aUsernameIsMintedExactlyWhenTheUsersFileTakesItsEntry(@TempDir Path dir) throws Exception {
        // refused by the users file: a direction override, a zero-width space, a line separator, a soft hyphen, a byte order
        // mark; taken: a zero-width non-joiner (Persian) and joiner (an emoji sequence)
        List<String> refused = List.of("al\u202eice", "al\u200bice", "al\u2028ice", "al\u00adice", "\ufeffalice", "al\u0007ice");
        List<String> taken = List.of("\u0645\u06cc\u200c\u0631", "dev-\ud83d\udc69\u200d\ud83d\udcbb", "alice");

        for (String username : refused) {
            clear();
            assertThat(run("Tide-Lantern-42-Orbit", PasswordRules.DEFAULT, username)).as(BackendText.escaped(username)).isEqualTo(1);
            assertThat(out.toString()).isEmpty();
            assertThat(err.toString()).contains("the username must be 1-256 characters without control, format");
        }
        for (String username : taken) {
            clear();
            assertThat(run("Tide-Lantern-42-Orbit", PasswordRules.DEFAULT, username)).as(BackendText.escaped(username)).isZero();
            Path file = dir.resolve("users.json");
            Files.writeString(file, "{\"users\": [" + out + "]}", StandardCharsets.UTF_8);
            assertThat(JsonUsersFile.load(file, Clock.systemUTC()).find(username)).as(BackendText.escaped(username)).isPresent();
        }
    }

    @Test
    void aDisplayNameOrTenantTheUsersFileWouldRefuse_isRefused_andNoEntryPrinted() {
        assertThat(run("Tide-Lantern-42-Orbit", PasswordRules.DEFAULT, "alice", "--name", "Alice\u202e evil")).isEqualTo(1);
        assertThat(err.toString()).contains("--name holds a control, format");
        clear();
        assertThat(run("Tide-Lantern-42-Orbit", PasswordRules.DEFAULT, "alice", "--tenant", "acme\u2028x")).isEqualTo(1);
        assertThat(err.toString()).contains("--tenant holds a control, format");
        clear();
        assertThat(run("Tide-Lantern-42-Orbit", PasswordRules.DEFAULT, "alice", "--tenant", "a".repeat(257))).isEqualTo(1);
        assertThat(err.toString()).contains("--tenant has 257 characters; at most 256");
        assertThat(out.toString()).isEmpty();
    }

    private void clear() {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
    }

    @Test
    void defaultsAreTheUsernameAsNameAndTheViewerRole() {
        assertThat(run("Tide-Lantern-42-Orbit", PasswordRules.DEFAULT, "bob")).isZero();
        JsonObject entry = Json.createReader(new StringReader(out.toString())).readObject();
        assertThat(entry.getString("name")).isEqualTo("bob");
        assertThat(entry.getJsonArray("roles").toString()).isEqualTo("[\"viewer\"]");
        assertThat(entry.containsKey("tenant")).isFalse();
    }

    @Test
    void aWeakPasswordIsRefusedWithEveryViolationListed_andNothingIsPrinted() {
        int code = run("alice2024\n", PasswordRules.DEFAULT, "alice");
        assertThat(code).isEqualTo(1);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString()).contains("refused").contains("at least 12").contains("character classes").contains("username")
                .contains("--force");
    }

    @Test
    void commonPasswordsAreRefused_unlessTheDenylistIsDisabled() {
        assertThat(run("Password123!", PasswordRules.DEFAULT, "bob")).isEqualTo(1);
        assertThat(err.toString()).contains("common passwords");
        assertThat(run("Password123!", new PasswordRules(12, 3, false, true), "bob")).isZero();
    }

    @Test
    void forceOrADisabledPolicyAcceptsAWeakPassword_butStillNamesTheViolations() {
        assertThat(run("short", PasswordRules.DEFAULT, "bob", "--force")).isZero();
        assertThat(err.toString()).contains("warning").contains("at least 12");
        assertThat(out.toString()).contains("\"passwordHash\":\"scrypt$");
        err.getBuffer().setLength(0);
        assertThat(run("short", new PasswordRules(12, 3, true, false), "carol")).isZero();
        assertThat(err.toString()).contains("warning");
    }

    @Test
    void emptyInputAndBadRolesAreRefused() {
        assertThat(run("", PasswordRules.DEFAULT, "bob")).isEqualTo(1);
        assertThat(err.toString()).contains("standard input is empty");
        assertThat(run("\n", PasswordRules.DEFAULT, "bob")).isEqualTo(1);
        assertThat(run("Tide-Lantern-42-Orbit", PasswordRules.DEFAULT, "bob", "--roles", "Admin")).isEqualTo(1);
        assertThat(err.toString()).contains("role 'Admin'");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aTerminalOnStandardInput_whoseOutputIsRedirected_isRefused_insteadOfEchoingThePassword() {
        // `omcp hash-password alice > entry.json` on a terminal: there is no console (standard output is
        // a file), so reading standard input would show the password as it is typed, without a prompt
        CommandLine command = new CommandLine(new HashPasswordCommand(
                new ByteArrayInputStream("Tide-Lantern-42-Orbit\n".getBytes(StandardCharsets.UTF_8)), Optional.empty(),
                Optional.of(PasswordRules.DEFAULT), () -> true));
        command.setOut(new PrintWriter(out, true));
        command.setErr(new PrintWriter(err, true));

        assertThat(command.execute("alice")).isEqualTo(1);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString()).contains("standard output is not a terminal").contains("without echo")
                .contains("printf '%s\\n' \"$PW\" | omcp hash-password");
    }

    @Test
    void aWindowsLineEndIsNotPartOfThePassword() {
        assertThat(run("Tide-Lantern-42-Orbit\r\n", PasswordRules.DEFAULT, "dave")).isZero();
        JsonObject entry = Json.createReader(new StringReader(out.toString())).readObject();
        assertThat(new ScryptPasswordHasher(new SecureRandom()).verify("Tide-Lantern-42-Orbit",
                PasswordHash.parse(entry.getString("passwordHash")))).isTrue();
    }

    @Test
    void aPasswordThatIsNotUtf8_isRefused_insteadOfHashingAReplacementCharacter() {
        // "pässword" from a Latin-1 terminal: the byte 0xE4 alone is not UTF-8, and replaced by U+FFFD
        // the hash would be of a password nobody can type at login
        byte[] latin1 = "P\u00e4ssword-Tide-42X\n".getBytes(StandardCharsets.ISO_8859_1);
        CommandLine command = commandReading(new ByteArrayInputStream(latin1), PasswordLine.Wait.STANDARD);

        assertThat(command.execute("alice")).isEqualTo(1);
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString()).contains("not UTF-8").contains("iconv").doesNotContain("ssword-Tide");
    }

    @Test
    void aUtf8PasswordOfTheLongestLength_isHashedAsTyped() {
        String password = "\u20ac".repeat(1024); // 3 bytes each in UTF-8
        assertThat(run(password + "\r\n", PasswordRules.DEFAULT, "erin", "--force")).isZero();
        JsonObject entry = Json.createReader(new StringReader(out.toString())).readObject();
        assertThat(new ScryptPasswordHasher(new SecureRandom()).verify(password, PasswordHash.parse(entry.getString("passwordHash"))))
                .isTrue();
        out.getBuffer().setLength(0);
        assertThat(run("a".repeat(1025) + "\n", PasswordRules.DEFAULT, "erin", "--force")).isEqualTo(1);
        assertThat(err.toString()).contains("1-1024 characters");
    }

    @Test
    @Timeout(60)
    void aStreamWithoutALineBreak_isReadOnlyAPasswordsWorth_notUntilTheHeapRunsOut() {
        // `omcp hash-password alice < /dev/zero`: the line never ends
        AtomicLong served = new AtomicLong();
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                // a bound of its own, so that a reader without one fails this test instead of the test JVM
                return served.incrementAndGet() > (64L << 20) ? -1 : 'a';
            }
        };
        CommandLine command = commandReading(endless, PasswordLine.Wait.STANDARD);

        assertThat(command.execute("alice")).isEqualTo(1);
        assertThat(served.get()).as("bytes read from standard input").isLessThan(8192);
        assertThat(err.toString()).contains("1-1024 characters").contains("longer");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    @Timeout(60)
    void aPipeThatStaysOpenWithoutALine_isGivenUpOn_withWhatToDo() throws IOException {
        // a CI step or `ssh host omcp hash-password alice` whose standard input never closes: it used to hang for ever
        PipedOutputStream neverWritten = new PipedOutputStream();
        try (PipedInputStream stdin = new PipedInputStream(neverWritten)) {
            CommandLine command = commandReading(stdin, new PasswordLine.Wait(Duration.ofMillis(1), Duration.ofMillis(200)));

            assertThat(command.execute("alice")).isEqualTo(1);
        } finally {
            neverWritten.close();
        }
        assertThat(out.toString()).isEmpty();
        assertThat(err.toString()).contains("waiting for the password as the first line of standard input")
                .contains("no line arrived on standard input").contains("printf '%s\\n' \"$PW\" | omcp hash-password");
    }

    private CommandLine commandReading(InputStream stdin, PasswordLine.Wait wait) {
        CommandLine command = new CommandLine(new HashPasswordCommand(stdin, Optional.empty(), Optional.of(PasswordRules.DEFAULT),
                () -> false, wait));
        command.setOut(new PrintWriter(out, true));
        command.setErr(new PrintWriter(err, true));
        return command;
    }
}
