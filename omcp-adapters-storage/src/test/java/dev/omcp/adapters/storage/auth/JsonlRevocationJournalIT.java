package dev.omcp.adapters.storage.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.omcp.adapters.storage.files.SpecialFiles;
import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationFacts;
import dev.omcp.ports.auth.RevocationStore;
import dev.omcp.ports.auth.RevocationTarget;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spec 5.2: OMCP_AUTH_REVOCATION_FILE, JSONL, mode 0600, kept across restarts. */
class JsonlRevocationJournalIT {
    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private static final Duration RETENTION = Duration.ofHours(12);

    @TempDir
    Path dir;

    /** A minimal list-backed store; the journal's job is the file. */
    static final class ListStore implements RevocationStore {
        final List<Revocation> entries = new ArrayList<>();

        @Override
        public void add(Revocation revocation) {
            entries.add(revocation);
        }

        @Override
        public List<Revocation> current(Instant now) {
            return entries.stream().filter(r -> !r.revokedAt().isBefore(now.minus(RETENTION)))
                    .sorted(Comparator.comparing(Revocation::revokedAt)).toList();
        }

        @Override
        public Optional<Instant> allSessionsRevokedAt(Instant now) {
            return Optional.empty();
        }

        @Override
        public RevocationFacts lookup(String sid, String sub) {
            return new RevocationFacts(entries.stream().anyMatch(r -> r.target() == RevocationTarget.SID && r.value().equals(sid)),
                    Optional.empty());
        }
    }

    @Test
    void createsTheFileWithMode0600_andAppendsOneLinePerRevocation() throws Exception {
        Path file = dir.resolve("sub/revocations.jsonl");
        JsonlRevocationJournal journal = JsonlRevocationJournal.open(file, new ListStore(), NOW, RETENTION);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        journal.add(new Revocation(RevocationTarget.SID, "s1", "stolen", NOW, "root"));
        journal.add(new Revocation(RevocationTarget.SUB, "alice", "left", NOW.plusSeconds(1), "root"));
        assertThat(Files.readAllLines(file)).containsExactly(
                "{\"sid\":\"s1\",\"reason\":\"stolen\",\"revokedAt\":\"2026-03-01T10:00:00Z\",\"revokedBy\":\"root\"}",
                "{\"sub\":\"alice\",\"reason\":\"left\",\"revokedAt\":\"2026-03-01T10:00:01Z\",\"revokedBy\":\"root\"}");
        assertThat(journal.lookup("s1", "x").sessionRevoked()).isTrue();
    }

    @Test
    void aRestartReplaysLiveEntries_andCompactsTheFile() throws Exception {
        Path file = dir.resolve("revocations.jsonl");
        Files.writeString(file, """
                {"sid":"old","reason":"","revokedAt":"2026-02-27T10:00:00Z","revokedBy":"root"}
                {"sid":"live","reason":"x","revokedAt":"2026-03-01T09:00:00Z","revokedBy":"root"}

                {"sub":"bob","reason":"y","revokedAt":"2026-03-01T09:30:00Z","revokedBy":"root"}
                """);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        ListStore store = new ListStore();
        JsonlRevocationJournal.open(file, store, NOW, RETENTION);
        assertThat(store.entries).extracting(Revocation::value).containsExactly("live", "bob");
        assertThat(Files.readAllLines(file)).hasSize(2).noneMatch(line -> line.contains("old"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void aCorruptMiddleLine_refusesToStart_namingTheLine_andLeavesTheFileUnchanged() throws Exception {
        Path file = dir.resolve("revocations.jsonl");
        Files.writeString(file, """
                {"sid":"live","reason":"x","revokedAt":"2026-03-01T09:00:00Z","revokedBy":"root"}
                {"sid":"s-secret-7","reas
                {"sub":"bob","reason":"y","revokedAt":"2026-03-01T09:30:00Z","revokedBy":"root"}
                """);
        byte[] before = Files.readAllBytes(file);
        ListStore store = new ListStore();

        assertThatThrownBy(() -> JsonlRevocationJournal.open(file, store, NOW, RETENTION))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("line 2 of the revocation file " + file)
                .hasMessageContaining("fix or delete that line")
                .hasMessageNotContaining("s-secret-7");
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
        assertThat(store.entries).isEmpty();
    }

    @Test
    void aMiddleLineThatIsNotUtf8_refusesToStart() throws Exception {
        Path file = dir.resolve("revocations.jsonl");
        byte[] before = "{\"sid\":\"a\",\"revokedAt\":\"2026-03-01T09:00:00Z\"}\n\u00ff\n".getBytes(StandardCharsets.ISO_8859_1);
        Files.write(file, before);

        assertThatThrownBy(() -> JsonlRevocationJournal.open(file, new ListStore(), NOW, RETENTION))
                .hasMessageContaining("line 2 of the revocation file").hasMessageContaining("not UTF-8");
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
    }

    @Test
    void aTornLastLine_isDropped_theRestLoads_andTheFileIsOnlyCutBack() throws Exception {
        Path file = dir.resolve("revocations.jsonl");
        String complete = """
                {"sid":"old","reason":"","revokedAt":"2026-02-27T10:00:00Z","revokedBy":"root"}
                {"sid":"live","reason":"x","revokedAt":"2026-03-01T09:00:00Z","revokedBy":"root"}
                """;
        Files.writeString(file, complete + "{\"sid\":\"torn\",\"reas");
        ListStore store = new ListStore();

        JsonlRevocationJournal journal = JsonlRevocationJournal.open(file, store, NOW, RETENTION);

        assertThat(store.entries).extracting(Revocation::value).containsExactly("live");
        // not compacted: the expired line stays until a start that dropped nothing
        assertThat(Files.readString(file)).isEqualTo(complete);
        journal.add(new Revocation(RevocationTarget.SID, "next", "", NOW, "root"));
        ListStore restarted = new ListStore();
        JsonlRevocationJournal.open(file, restarted, NOW, RETENTION);
        assertThat(restarted.entries).extracting(Revocation::value).containsExactly("live", "next");
    }

    @Test
    void aWholeLastEntryWithoutItsLineBreak_isKept() throws Exception {
        Path file = dir.resolve("revocations.jsonl");
        Files.writeString(file, "{\"sub\":\"bob\",\"reason\":\"y\",\"revokedAt\":\"2026-03-01T09:30:00Z\",\"revokedBy\":\"root\"}");
        ListStore store = new ListStore();

        JsonlRevocationJournal.open(file, store, NOW, RETENTION);

        assertThat(store.entries).extracting(Revocation::value).containsExactly("bob");
        assertThat(Files.readString(file)).endsWith("}\n");
    }

    @Test
    void aJournalThatIsALinkIsRefusedAndTheFileItPointsAtIsNeitherReadChangedNorChmodded() throws Exception {
        Path victim = dir.resolve("authorized_keys");
        Files.writeString(victim, "ssh-ed25519 AAAA operator\n");
        Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rw-r--r--"));
        Path file = Files.createSymbolicLink(dir.resolve("revocations.jsonl"), victim);

        assertThatThrownBy(() -> JsonlRevocationJournal.open(file, new ListStore(), NOW, RETENTION))
                .isInstanceOf(IOException.class).hasMessageContaining("symbolic link");

        assertThat(Files.readString(victim)).isEqualTo("ssh-ed25519 AAAA operator\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(victim))).isEqualTo("rw-r--r--");
    }

    @Test
    void aJournalSwappedForALinkAfterStartIsNotAppendedThrough() throws Exception {
        Path file = dir.resolve("revocations.jsonl");
        JsonlRevocationJournal journal = JsonlRevocationJournal.open(file, new ListStore(), NOW, RETENTION);
        Path victim = dir.resolve("elsewhere");
        Files.writeString(victim, "untouched\n");
        Files.delete(file);
        Files.createSymbolicLink(file, victim);

        Revocation revocation = new Revocation(RevocationTarget.SID, "s1", "stolen", NOW, "root");
        assertThatThrownBy(() -> journal.add(revocation)).isInstanceOf(java.io.UncheckedIOException.class)
                .hasMessageContaining("in force but could not be written");

        assertThat(Files.readString(victim)).isEqualTo("untouched\n");
        // the revocation is still in force for this run, as the message says
        assertThat(journal.lookup("s1", "nobody").sessionRevoked()).isTrue();
    }

    @Test
    void aJournalThatIsAFifo_isRefusedAtOnce_andLeftAsItWas() throws Exception {
        Path fifo = SpecialFiles.fifo(dir.resolve("revocations.jsonl"));
        Files.setPosixFilePermissions(fifo, PosixFilePermissions.fromString("rw-r--r--"));

        // opening a FIFO to read it blocks until something writes to it: the start would hang for good
        assertThatThrownBy(() -> assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> JsonlRevocationJournal.open(fifo, new ListStore(), NOW, RETENTION)))
                .isInstanceOf(IOException.class).hasMessageContaining("not a regular file");

        assertThat(Files.isRegularFile(fifo)).isFalse();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(fifo))).isEqualTo("rw-r--r--");
    }

    @Test
    void aJournalThatIsADevice_isRefused_neitherChmoddedNorReplacedByARegularFile() throws Exception {
        // OMCP_AUTH_REVOCATION_FILE=/dev/null is a natural way to ask for "no journal"; as root, compacting
        // it used to chmod the device to 0600 and then rename a regular file over it
        Optional<Path> device = SpecialFiles.device(dir.resolve("null"));
        assumeTrue(device.isPresent(), "this process may not create a device node");
        Path file = device.get();
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-rw-"));

        assertThatThrownBy(() -> JsonlRevocationJournal.open(file, new ListStore(), NOW, RETENTION))
                .isInstanceOf(IOException.class).hasMessageContaining("not a regular file");

        assertThat(Files.isRegularFile(file)).isFalse();
        assertThat(Files.exists(file)).isTrue();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-rw-rw-");
    }
}
