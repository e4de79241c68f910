package dev.omcp.adapters.storage.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.adapters.storage.TestClock;
import dev.omcp.ports.auth.LocalUser;
import dev.omcp.ports.auth.PasswordHash;
import dev.omcp.adapters.storage.files.SpecialFiles;
import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spec 2.5 and 5.2 rules 1 and 2 on real files. */
class JsonUsersFileIT {
    static final String HASH = "scrypt$32768$8$1$AAECAwQFBgcICQoLDA0ODw==$xy6UCICz8Vv/P6JqOkkUD4DOmhxN0tXSe6sQAUBxupQOaQF8W4fxxT4tL3hHSEGLYZI6os9JTePK9k438hyW1g==";

    @TempDir
    Path dir;

    private final TestClock clock = new TestClock(Instant.parse("2026-03-01T10:00:00Z"));

    /** The warnings of the users file while {@code action} runs. */
    private static List<String> warnings(ThrowingRunnable action) throws Exception {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger logger = (Logger) org.slf4j.LoggerFactory.getLogger(JsonUsersFile.class);
        log.start();
        logger.addAppender(log);
        try {
            action.run();
        } finally {
            logger.detachAppender(log);
        }
        return log.list.stream().filter(e -> e.getLevel() == Level.WARN).map(ILoggingEvent::getFormattedMessage).toList();
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    private Path write(String name, String content) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, content);
        return file;
    }

    private static String user(String username, String extra) {
        return "{\"username\": \"" + username + "\", \"passwordHash\": \"" + HASH + "\"" + extra + "}";
    }

    @Test
    void loadsUsersWithTheirRolesAndTenant() throws Exception {
        Path file = write("users.json", "{\"users\": [" + user("alice", ", \"name\": \"Alice A.\", \"roles\": [\"admin\"], \"tenant\": \"acme\"")
                + ", " + user("bob", "") + "]}");
        JsonUsersFile users = JsonUsersFile.load(file, clock);
        LocalUser alice = users.find("alice").orElseThrow();
        assertThat(alice.name()).isEqualTo("Alice A.");
        assertThat(alice.roles()).containsExactly("admin");
        assertThat(alice.tenant()).isEqualTo("acme");
        assertThat(users.find("bob").orElseThrow().name()).isEqualTo("bob");
        assertThat(users.find("Alice")).as("usernames are exact").isEmpty();
        assertThat(users.count()).isEqualTo(2);
    }

    @Test
    void theCostMostHashesUseIsThePrevailingCost_andFollowsAReload() throws Exception {
        String older = HASH.replace("scrypt$32768$", "scrypt$16384$");
        String entry = "{\"username\": \"%s\", \"passwordHash\": \"%s\"}";
        Path file = write("users.json", "{\"users\": [" + entry.formatted("a", HASH) + ", " + entry.formatted("b", older) + ", "
                + entry.formatted("c", older) + "]}");
        JsonUsersFile users = JsonUsersFile.load(file, clock);
        assertThat(users.prevailingCost()).contains(new PasswordHash.Cost(16384, 8, 1));
        Files.writeString(file, "{\"users\": [" + entry.formatted("a", HASH) + "]}");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
        assertThat(users.find("a")).isPresent();
        assertThat(users.prevailingCost()).contains(PasswordHash.Cost.MINT);
    }

    @Test
    void missingEmptyInvalidOrUserlessFilesAreRefusedAtStart_spec52Rule1() throws Exception {
        assertThatThrownBy(() -> JsonUsersFile.load(dir.resolve("absent.json"), clock)).isInstanceOf(UsersFileException.class)
                .hasMessageContaining("does not exist").hasMessageContaining("OMCP_AUTH_ALLOW_FALLBACK");
        assertThatThrownBy(() -> JsonUsersFile.load(write("empty.json", ""), clock)).hasMessageContaining("is empty");
        assertThatThrownBy(() -> JsonUsersFile.load(write("bad.json", "{\"users\": ["), clock))
                .hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> JsonUsersFile.load(write("none.json", "{\"users\": []}"), clock)).hasMessageContaining("lists no users");
        assertThatThrownBy(() -> JsonUsersFile.load(write("shape.json", "[]"), clock)).hasMessageContaining("\"users\" array");
        Path fifo = SpecialFiles.fifo(dir.resolve("fifo.json"));
        assertThatThrownBy(() -> org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(10),
                () -> JsonUsersFile.load(fifo, clock))).isInstanceOf(UsersFileException.class).hasMessageContaining("not a regular file");
        assertThatThrownBy(() -> JsonUsersFile.load(dir, clock)).isInstanceOf(UsersFileException.class)
                .hasMessageContaining("not a regular file");
        Path unreadable = write("secret.json", "{\"users\": [" + user("a", "") + "]}");
        unreadable.toFile().setReadable(false);
        if (!Files.isReadable(unreadable)) {
            assertThatThrownBy(() -> JsonUsersFile.load(unreadable, clock)).hasMessageContaining("cannot be read");
        }
    }

    @Test
    void everyInvalidEntryIsNamed_andHashesNeverAppearInMessages() throws Exception {
        Path file = write("users.json", "{\"users\": [" + user("a", "") + ", " + user("a", "") + ", {\"username\": \"b\"},"
                + " {\"username\": \"c\", \"passwordHash\": \"scrypt$99$8$1$AAAA$AAAA\"}, " + user("d", ", \"roles\": \"admin\"") + "]}");
        assertThatThrownBy(() -> JsonUsersFile.load(file, clock)).isInstanceOf(UsersFileException.class)
                .hasMessageContaining("entry 2 (a) repeats a username")
                .hasMessageContaining("entry 3 (b) has no passwordHash")
                .hasMessageContaining("entry 4 (c)")
                .hasMessageContaining("entry 5 (d): roles must be an array")
                .hasMessageNotContaining("xy6UCICz8");
    }

    @Test
    void namesRolesAndTenantsThatWouldForgeLogLinesOrOverflowASession_stopTheStart_quotingOnlyABoundedPrintablePart() throws Exception {
        String roles65 = String.join(", ", java.util.stream.IntStream.range(0, 65).mapToObj(i -> "\"r" + i + "\"").toList());
        Path file = write("users.json", "{\"users\": ["
                + user("ali\\u001b[31mce", "") + ", "
                + user("bob", ", \"name\": \"Bob\\nevent=login outcome=ok\"") + ", "
                + user("carol", ", \"roles\": [" + roles65 + "]") + ", "
                + user("dave", ", \"roles\": [\"viewer\", \"\"]") + ", "
                + user("erin", ", \"roles\": [\"" + "x".repeat(300) + "\"]") + ", "
                + user("frank", ", \"tenant\": \"acme\\u202egnp.exe\"") + ", "
                + user("g".repeat(300), "") + ", "
                + "{\"username\": \"heidi\", \"passwordHash\": \"\"}]}");

        assertThatThrownBy(() -> JsonUsersFile.load(file, clock)).isInstanceOf(UsersFileException.class)
                .hasMessageContaining("entry 1 (ali?[31mce): the username holds a control")
                .hasMessageContaining("entry 2 (bob): name 'Bob?event=login outcome=ok' holds a control")
                .hasMessageContaining("entry 3 (carol) has 65 roles; a session carries at most 64")
                .hasMessageContaining("entry 4 (dave): a role must not be empty")
                .hasMessageContaining("entry 5 (erin): role has 300 characters, at most 256")
                .hasMessageContaining("entry 6 (frank): tenant 'acme?gnp.exe' holds a control")
                .hasMessageContaining("entry 7 needs a username of 1-256 characters (it starts '" + "g".repeat(64) + "…')")
                .hasMessageContaining("entry 8 (heidi) has no passwordHash")
                .hasMessageNotContaining("\u001b").hasMessageNotContaining("\n").hasMessageNotContaining("\u202e")
                .hasMessageNotContaining("x".repeat(65)).hasMessageNotContaining("g".repeat(65));
    }

    @Test
    void aUsernameWithALeadingOrTrailingSpace_stopsTheStart_becauseARevocationOfItsSubWouldNameAnotherUser() throws Exception {
        // POST /api/auth/revocations trims the sub: {"sub": "alice "} would void alice's sessions and never these
        Path file = write("users.json", "{\"users\": [" + user("alice", "") + ", " + user("alice ", "") + ", "
                + user(" bob", "") + "]}");

        assertThatThrownBy(() -> JsonUsersFile.load(file, clock)).isInstanceOf(UsersFileException.class)
                .hasMessageContaining("entry 2 (alice ): the username starts or ends with a space")
                .hasMessageContaining("entry 3 ( bob): the username starts or ends with a space")
                .hasMessageNotContaining("entry 1");
    }

    @Test
    void aReloadThatAddsAUsernameWithATrailingSpace_keepsTheUsersReadLast() throws Exception {
        Path file = write("users.json", "{\"users\": [" + user("alice", "") + "]}");
        JsonUsersFile users = JsonUsersFile.load(file, clock);
        Files.writeString(file, "{\"users\": [" + user("alice", "") + ", " + user("mallory ", "") + "]}");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));

        assertThat(users.find("mallory ")).isEmpty();
        assertThat(users.find("alice")).isPresent();
    }

    @Test
    void aValidFileWithLettersOfAnyScript_andAsManyRolesAsASessionCarries_stillLoads() throws Exception {
        String roles64 = String.join(", ", java.util.stream.IntStream.range(0, 64).mapToObj(i -> "\"r" + i + "\"").toList());
        Path file = write("users.json", "{\"users\": [" + user("jos\u00e9", ", \"name\": \"Jos\u00e9 M\u00fcller \u6771\u4eac\", "
                + "\"tenant\": \"acme-eu\", \"roles\": [" + roles64 + "]") + ", " + user("n".repeat(256), ", \"roles\": [\"team:payments\"]")
                + ", " + user("sara", ", \"name\": \"\u0633\u0627\u0631\u0627 \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u062f\"") + "]}");

        JsonUsersFile users = JsonUsersFile.load(file, clock);

        assertThat(users.find("sara").orElseThrow().name()).as("a Persian name with its zero-width non-joiner").contains("\u200c");
        assertThat(users.find("jos\u00e9").orElseThrow().roles()).hasSize(64);
        assertThat(users.find("jos\u00e9").orElseThrow().name()).isEqualTo("Jos\u00e9 M\u00fcller \u6771\u4eac");
        assertThat(users.find("n".repeat(256)).orElseThrow().roles()).containsExactly("team:payments");
    }

    @Test
    void aKeyRepeatedInOneEntry_orASecondDocument_stopsTheStart_ratherThanOneReadingWinning() throws Exception {
        Path file = write("users.json", "{\"users\": [\n" + user("alice", ", \"roles\": [\"viewer\"], \"roles\": [\"admin\"]") + "]}");

        assertThatThrownBy(() -> JsonUsersFile.load(file, clock)).isInstanceOf(UsersFileException.class)
                .hasMessageContaining("repeats a key in one object (line 2)").hasMessageNotContaining("xy6UCICz8");
        Path twoDocuments = write("two.json", "{\"users\": [" + user("alice", "") + "]}\n{\"users\": [" + user("mallory", ", \"roles\": [\"admin\"]") + "]}");
        assertThatThrownBy(() -> JsonUsersFile.load(twoDocuments, clock)).as("a second document another reader might take instead")
                .isInstanceOf(UsersFileException.class).hasMessageContaining("is not valid JSON (line 2)");
    }

    @Test
    void aByteOrderMarkAndCrlfLineEnds_load() throws Exception {
        String json = "{\"users\": [\r\n" + user("alice", "") + "\r\n]}\r\n";
        Path file = Files.write(dir.resolve("users.json"), ("\uFEFF" + json).getBytes(StandardCharsets.UTF_8));

        assertThat(JsonUsersFile.load(file, clock).find("alice")).isPresent();
    }

    @Test
    void aFileSavedInAnotherEncoding_isNamedAsNotUtf8WithItsLine_notAsBrokenJson() throws Exception {
        // an editor that saves Latin-1 turns a name such as José into one byte that is not UTF-8; the file is
        // valid JSON to the eye, so "not valid JSON" sent the operator looking for a missing comma
        String json = "{\"users\": [\n" + user("alice", ", \"name\": \"Jos\u00e9\"") + "]}";
        Path file = Files.write(dir.resolve("latin1.json"), json.getBytes(StandardCharsets.ISO_8859_1));

        assertThatThrownBy(() -> JsonUsersFile.load(file, clock)).isInstanceOf(UsersFileException.class)
                .hasMessageContaining("is not UTF-8 text: line 2, column").hasMessageContaining("save the file as UTF-8")
                .hasMessageNotContaining("xy6UCICz8");
    }

    @Test
    void aHugeFileOfBrokenEntries_namesTheFirstTwenty_andCountsTheRest() throws Exception {
        Path file = write("users.json", "{\"users\": [" + String.join(",", java.util.Collections.nCopies(100_000, "1")) + "]}");

        assertThatThrownBy(() -> JsonUsersFile.load(file, clock)).isInstanceOf(UsersFileException.class)
                .hasMessageContaining("entry 20 is not an object").hasMessageNotContaining("entry 21 ")
                .hasMessageContaining("and 99980 more invalid entries")
                .satisfies(e -> assertThat(e.getMessage()).hasSizeLessThan(2_000));
    }

    @Test
    void aChangedFileIsReReadOnTheNextLookup_spec52Rule2() throws Exception {
        Path file = write("users.json", "{\"users\": [" + user("alice", "") + "]}");
        JsonUsersFile users = JsonUsersFile.load(file, clock);
        Files.writeString(file, "{\"users\": [" + user("alice", "") + ", " + user("carol", ", \"roles\": [\"viewer\"]") + "]}");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
        assertThat(users.find("carol")).isPresent();
    }

    @Test
    void aUsersFileSwappedForAFifo_keepsTheCachedUsers_andTheLookupDoesNotBlock() throws Exception {
        Path file = write("users.json", "{\"users\": [" + user("alice", "") + "]}");
        JsonUsersFile users = JsonUsersFile.load(file, clock);
        Files.delete(file);
        SpecialFiles.fifo(file);
        assertThat(org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(10),
                () -> users.find("alice"))).isPresent();
    }

    @Test
    void aBrokenOrVanishedFileKeepsTheCachedUsers_spec52Rule2() throws Exception {
        Path file = write("users.json", "{\"users\": [" + user("alice", "") + "]}");
        JsonUsersFile users = JsonUsersFile.load(file, clock);
        Files.writeString(file, "{\"users\": [ {\"username\": ");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
        assertThat(users.find("alice")).isPresent();
        Files.delete(file);
        assertThat(users.find("alice")).isPresent();
        Files.writeString(file, "{\"users\": [" + user("bob", "") + "]}");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(10)));
        assertThat(users.find("alice")).isEmpty();
        assertThat(users.find("bob")).isPresent();
    }

    @Test
    void aValidFileWithoutUsersIsAppliedOnReload_nobodyCanLogIn() throws Exception {
        Path file = write("users.json", "{\"users\": [" + user("alice", "") + "]}");
        JsonUsersFile users = JsonUsersFile.load(file, clock);
        Files.writeString(file, "{\"users\": []}");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
        assertThat(users.find("alice")).isEmpty();
    }

    @Test
    void anAtomicReplacementWithTheSameTimeAndSize_isStillReRead_soAChangedPasswordHashTakesEffect() throws Exception {
        // a coarse-timestamp filesystem (or a deploy tool that keeps times) gives the new file the old one's time
        FileTime sameTime = FileTime.from(Instant.parse("2026-01-01T00:00:00Z"));
        Path file = write("users.json", "{\"users\": [" + user("alice", "") + "]}");
        Files.setLastModifiedTime(file, sameTime);
        JsonUsersFile users = JsonUsersFile.load(file, clock);
        String newHash = "X" + HASH.substring(HASH.lastIndexOf('$') + 2);
        String rotated = HASH.substring(0, HASH.lastIndexOf('$') + 1) + newHash;
        Path temp = write("users.json.tmp", "{\"users\": [" + user("alice", "").replace(HASH, rotated) + "]}");
        Files.setLastModifiedTime(temp, sameTime);
        assertThat(Files.size(temp)).as("the same size").isEqualTo(Files.size(file));

        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);

        assertThat(Files.getLastModifiedTime(file)).isEqualTo(sameTime);
        assertThat(users.find("alice").orElseThrow().passwordHash().hash()).as("the hash of the replacement")
                .isEqualTo(PasswordHash.parse(rotated).hash());
    }

    @Test
    void aUsersFileThatStaysInvalid_isReportedOnceAMinute_withHowManyLoginsMetItSinceTheLastLine() throws Exception {
        Path file = write("users.json", "{\"users\": [" + user("alice", "") + "]}");
        JsonUsersFile users = JsonUsersFile.load(file, clock);
        Files.writeString(file, "{\"users\": [ {\"username\": ");
        Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));

        List<String> lines = warnings(() -> {
            for (int i = 0; i < 5; i++) {
                assertThat(users.find("alice")).as("the users read last stay in force").isPresent();
            }
            clock.advance(Duration.ofSeconds(59));
            users.find("alice");
            clock.advance(Duration.ofSeconds(1));
            users.find("alice");
        });

        assertThat(lines).as("the first failure at once, the next five only counted until a minute has passed").hasSize(2);
        assertThat(lines.get(0)).startsWith("event=users-file-invalid action=kept-cached-users ").contains("is not valid JSON")
                .contains(" failures=1 ");
        assertThat(lines.get(1)).startsWith("event=users-file-invalid ").contains(" failures=6 ");
    }

    @Test
    void aUsersFileThatStaysUnreadable_isReportedOnceAMinute_too() throws Exception {
        Path file = write("users.json", "{\"users\": [" + user("alice", "") + "]}");
        JsonUsersFile users = JsonUsersFile.load(file, clock);
        Files.delete(file);

        List<String> lines = warnings(() -> {
            for (int i = 0; i < 3; i++) {
                assertThat(users.find("alice")).isPresent();
            }
            clock.advance(Duration.ofMinutes(1));
            users.find("alice");
        });

        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).startsWith("event=users-file-unreadable action=kept-cached-users ").contains(" failures=1 ");
        assertThat(lines.get(1)).contains(" failures=3 ");
    }

    @Test
    void aFileBrokenAgainAfterAGoodReload_isReportedAtOnce_notHiddenByTheEarlierLine() throws Exception {
        Path file = write("users.json", "{\"users\": [" + user("alice", "") + "]}");
        JsonUsersFile users = JsonUsersFile.load(file, clock);
        List<String> lines = warnings(() -> {
            Files.writeString(file, "{\"users\": [");
            Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(5)));
            users.find("alice");
            Files.writeString(file, "{\"users\": [" + user("alice", "") + ", " + user("bob", "") + "]}");
            Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(10)));
            assertThat(users.find("bob")).isPresent();
            Files.writeString(file, "{\"users\": [ {");
            Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(15)));
            users.find("alice");
        });

        assertThat(lines).filteredOn(line -> line.startsWith("event=users-file-invalid ")).hasSize(2);
    }
}
