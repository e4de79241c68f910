package dev.omcp.adapters.storage.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.omcp.adapters.storage.TestClock;
import dev.omcp.adapters.storage.files.SpecialFiles;
import dev.omcp.ports.auth.BlocklistFullException;
import dev.omcp.ports.auth.Revocation;
import dev.omcp.ports.auth.RevocationFacts;
import dev.omcp.ports.auth.RevocationStore;
import dev.omcp.ports.auth.RevocationTarget;
import dev.omcp.ports.auth.TenantShareFullException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Spec 5.2: OMCP_AUTH_REVOCATION_FILE, JSONL, mode 0600, kept across restarts. */
class JsonlRevocationJournalIT {
    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private static final Clock AT_NOW = Clock.fixed(NOW, ZoneOffset.UTC);
    private static final Duration RETENTION = Duration.ofHours(12);

    @TempDir
    Path dir;

    /** A minimal list-backed store; the journal's job is the file. */
    static class ListStore implements RevocationStore {
        final List<Revocation> entries = new ArrayList<>();
        /** The entries added as an admin's, within the shares a real store checks. */
        final List<Revocation> byAdmin = new ArrayList<>();

        @Override
        public void add(Revocation revocation) {
            entries.add(revocation);
        }

        @Override
        public void addByAdmin(Revocation revocation) {
            add(revocation);
            byAdmin.add(revocation);
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
        public RevocationFacts lookup(String sid, String sub, String tenant) {
            return new RevocationFacts(entries.stream().anyMatch(r -> r.target() == RevocationTarget.SID && r.value().equals(sid)
                    && r.appliesToTenant(tenant)),
                    Optional.empty());
        }
    }

    /** A list store that refuses a new target once it holds {@code limit}, as the blocklists do. */
    static final class BoundedStore extends ListStore {
        private final int limit;

        BoundedStore(int limit) {
            this.limit = limit;
        }

        @Override
        public void add(Revocation revocation) {
            boolean known = entries.stream().anyMatch(r -> r.target() == revocation.target() && r.value().equals(revocation.value()));
            if (!known && entries.size() >= limit) {
                throw new BlocklistFullException(limit, "the session blocklist holds " + limit + " live entries");
            }
            entries.removeIf(r -> r.target() == revocation.target() && r.value().equals(revocation.value()));
            entries.add(revocation);
        }
    }

    @Test
    void createsTheFileWithMode0600_andAppendsOneLinePerRevocation() throws Exception {
        Path file = dir.resolve("sub/revocations.jsonl");
        JsonlRevocationJournal journal = JsonlRevocationJournal.open(file, new ListStore(), AT_NOW, RETENTION);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        journal.add(new Revocation(RevocationTarget.SID, "s1", "stolen", NOW, "root"));
        journal.add(new Revocation(RevocationTarget.SUB, "alice", "left", NOW.plusSeconds(1), "root"));
        assertThat(Files.readAllLines(file)).containsExactly(
                "{\"sid\":\"s1\",\"reason\":\"stolen\",\"revokedAt\":\"2026-03-01T10:00:00Z\",\"revokedBy\":\"root\"}",
                "{\"sub\":\"alice\",\"reason\":\"left\",\"revokedAt\":\"2026-03-01T10:00:01Z\",\"revokedBy\":\"root\"}");
        assertThat(journal.lookup("s1", "x").sessionRevoked()).isTrue();
    }

    @Test
    void anAdminsRevocation_isCheckedAgainstTheStoresShares_aRefusedOneIsNotWritten_andAReplayTakesTheWholeList() throws Exception {
        Path file = dir.resolve("revocations.jsonl");
        ListStore store = new ListStore() {
            @Override
            public void addByAdmin(Revocation revocation) {
                if (revocation.value().equals("one-too-many")) {
                    throw new TenantShareFullException(revocation.tenant(), 1, NOW.plus(RETENTION));
                }
                super.addByAdmin(revocation);
            }
        };
        JsonlRevocationJournal journal = JsonlRevocationJournal.open(file, store, AT_NOW, RETENTION);
        journal.addByAdmin(new Revocation(RevocationTarget.SID, "s1", "stolen", NOW, "ann", "acme"));
        assertThatThrownBy(() -> journal.addByAdmin(new Revocation(RevocationTarget.SID, "one-too-many", "", NOW, "ann", "acme")))
                .isInstanceOf(TenantShareFullException.class);
        journal.add(new Revocation(RevocationTarget.SID, "s2", "logout", NOW, "victor", "acme"));

        assertThat(store.byAdmin).extracting(Revocation::value).containsExactly("s1");
        assertThat(Files.readAllLines(file)).hasSize(2).noneMatch(line -> line.contains("one-too-many"));
        ListStore restarted = new ListStore();
        JsonlRevocationJournal.open(file, restarted, AT_NOW, RETENTION);
        assertThat(restarted.entries).as("a replay drops nothing for a share").extracting(Revocation::value).containsExactly("s1", "s2");
        assertThat(restarted.byAdmin).isEmpty();
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
        JsonlRevocationJournal.open(file, store, AT_NOW, RETENTION);
        assertThat(store.entries).extracting(Revocation::value).containsExactly("live", "bob");
        assertThat(Files.readAllLines(file)).hasSize(2).noneMatch(line -> line.contains("old"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    }

    @Test
    void oldLinesWithoutATenant_readAsEveryTenant_andATenantsEntryOfTheSameSubject_isKeptApart() throws Exception {
        Path file = dir.resolve("revocations.jsonl");
        Files.writeString(file, """
                {"sub":"root","reason":"gateway-wide","revokedAt":"2026-03-01T09:00:00Z","revokedBy":"admin"}
                {"sub":"root","reason":"acme only","revokedAt":"2026-03-01T09:30:00Z","revokedBy":"ann","tenant":"acme"}
                """);
        ListStore store = new ListStore();

        JsonlRevocationJournal journal = JsonlRevocationJournal.open(file, store, AT_NOW, RETENTION);

        assertThat(store.entries).as("the later entry of acme does not replace the earlier one of every tenant")
                .extracting(Revocation::reason, Revocation::tenant)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("gateway-wide", ""),
                        org.assertj.core.groups.Tuple.tuple("acme only", "acme"));
        assertThat(Files.readAllLines(file)).as("compacted, both kept, the old line as it was").containsExactly(
                "{\"sub\":\"root\",\"reason\":\"gateway-wide\",\"revokedAt\":\"2026-03-01T09:00:00Z\",\"revokedBy\":\"admin\"}",
                "{\"sub\":\"root\",\"reason\":\"acme only\",\"revokedAt\":\"2026-03-01T09:30:00Z\",\"revokedBy\":\"ann\","
                        + "\"tenant\":\"acme\"}");
        journal.add(new Revocation(RevocationTarget.SID, "s9", "", NOW, "gus", "globex"));
        assertThat(Files.readAllLines(file)).last().asString().endsWith("\"tenant\":\"globex\"}");
        ListStore reread = new ListStore();
        JsonlRevocationJournal.open(file, reread, AT_NOW, RETENTION);
        assertThat(reread.entries).extracting(Revocation::tenant).containsExactly("", "acme", "globex");
    }

    @Test
    void aTenantThatIsNotAString_refusesToStart_ratherThanWideningTheEntryToEveryTenant() throws Exception {
        Path file = dir.resolve("revocations.jsonl");
        Files.writeString(file, """
                {"sub":"root","reason":"","revokedAt":"2026-03-01T09:30:00Z","revokedBy":"ann","tenant":7}
                """);
        byte[] before = Files.readAllBytes(file);

        assertThatThrownBy(() -> JsonlRevocationJournal.open(file, new ListStore(), AT_NOW, RETENTION))
                .isInstanceOf(IOException.class).hasMessageContaining("line 1 of the revocation file " + file)
                .hasMessageContaining("\"tenant\"");
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
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

        assertThatThrownBy(() -> JsonlRevocationJournal.open(file, store, AT_NOW, RETENTION))
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

        assertThatThrownBy(() -> JsonlRevocationJournal.open(file, new ListStore(), AT_NOW, RETENTION))
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

        JsonlRevocationJournal journal = JsonlRevocationJournal.open(file, store, AT_NOW, RETENTION);

        assertThat(store.entries).extracting(Revocation::value).containsExactly("live");
        // not compacted: the expired line stays until a start that dropped nothing
        assertThat(Files.readString(file)).isEqualTo(complete);
        journal.add(new Revocation(RevocationTarget.SID, "next", "", NOW, "root"));
        ListStore restarted = new ListStore();
        JsonlRevocationJournal.open(file, restarted, AT_NOW, RETENTION);
        assertThat(restarted.entries).extracting(Revocation::value).containsExactly("live", "next");
    }

    @Test
    void aWholeLastEntryWithoutItsLineBreak_isKept() throws Exception {
        Path file = dir.resolve("revocations.jsonl");
        Files.writeString(file, "{\"sub\":\"bob\",\"reason\":\"y\",\"revokedAt\":\"2026-03-01T09:30:00Z\",\"revokedBy\":\"root\"}");
        ListStore store = new ListStore();

        JsonlRevocationJournal.open(file, store, AT_NOW, RETENTION);

        assertThat(store.entries).extracting(Revocation::value).containsExactly("bob");
        assertThat(Files.readString(file)).endsWith("}\n");
    }

    @Test
    void aJournalThatIsALinkIsRefusedAndTheFileItPointsAtIsNeitherReadChangedNorChmodded() throws Exception {
        Path victim = dir.resolve("authorized_keys");
        Files.writeString(victim, "ssh-ed25519 AAAA operator\n");
        Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rw-r--r--"));
        Path file = Files.createSymbolicLink(dir.resolve("revocations.jsonl"), victim);

        assertThatThrownBy(() -> JsonlRevocationJournal.open(file, new ListStore(), AT_NOW, RETENTION))
                .isInstanceOf(IOException.class).hasMessageContaining("symbolic link");

        assertThat(Files.readString(victim)).isEqualTo("ssh-ed25519 AAAA operator\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(victim))).isEqualTo("rw-r--r--");
    }

    @Test
    void aJournalSwappedForALinkAfterStartIsNotAppendedThrough() throws Exception {
        Path file = dir.resolve("revocations.jsonl");
        JsonlRevocationJournal journal = JsonlRevocationJournal.open(file, new ListStore(), AT_NOW, RETENTION);
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
                () -> JsonlRevocationJournal.open(fifo, new ListStore(), AT_NOW, RETENTION)))
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

        assertThatThrownBy(() -> JsonlRevocationJournal.open(file, new ListStore(), AT_NOW, RETENTION))
                .isInstanceOf(IOException.class).hasMessageContaining("not a regular file");

        assertThat(Files.isRegularFile(file)).isFalse();
        assertThat(Files.exists(file)).isTrue();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-rw-rw-");
    }

    @Test
    void manyExpiredLinesAndAFewLiveOnes_onlyTheLiveOnesAreLoaded_andTheFileIsCompactedToThem() throws Exception {
        Path file = dir.resolve("revocations.jsonl");
        StringBuilder content = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            content.append(line("sid", "expired-" + i, NOW.minus(Duration.ofDays(3)).plusSeconds(i)));
            if (i % 5_000 == 0) {
                content.append(line("sid", "live-" + i, NOW.minusSeconds(60 - i / 1_000)));
            }
        }
        Files.writeString(file, content);
        ListStore store = new ListStore();

        JsonlRevocationJournal.open(file, store, AT_NOW, RETENTION);

        assertThat(store.entries).extracting(Revocation::value).containsExactly("live-0", "live-5000", "live-10000", "live-15000");
        assertThat(Files.readAllLines(file)).hasSize(4).allMatch(l -> l.contains("live-"));
    }

    @Test
    void aJournalLargerThanTheHeap_isReadLineByLine_andItsLiveEntriesLoad() throws Exception {
        // the start used to read the whole file into one array: a journal grown over months exhausted the heap
        // (24 MiB here against a 16 MiB heap, as months of revocations against the launcher's 256 MiB)
        Path file = dir.resolve("revocations.jsonl");
        byte[] expired = line("sid", "expired-session-0123456789abcdef", NOW.minus(Duration.ofDays(30))).getBytes(StandardCharsets.UTF_8);
        byte[] block = new byte[1024 * 1024 / expired.length * expired.length];
        for (int at = 0; at < block.length; at += expired.length) {
            System.arraycopy(expired, 0, block, at, expired.length);
        }
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(line("sid", "first", NOW.minusSeconds(30)).getBytes(StandardCharsets.UTF_8));
            for (int i = 0; i < 24; i++) {
                out.write(block);
            }
            out.write(line("sub", "last", NOW.minusSeconds(10)).getBytes(StandardCharsets.UTF_8));
        }
        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Process child = new ProcessBuilder(java, "-Xmx16m", "-cp", System.getProperty("java.class.path"),
                OpenRevocationJournal.class.getName(), file.toString(), NOW.toString(), RETENTION.toString())
                .redirectErrorStream(true).start();
        try {
            child.getOutputStream().close();
            byte[] output = child.getInputStream().readAllBytes();
            assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
            String text = new String(output, StandardCharsets.UTF_8);
            assertThat(child.exitValue()).as(text).isZero();
            assertThat(text.lines().reduce((a, b) -> b)).as(text).contains("first,last");
        } finally {
            child.destroyForcibly();
            child.waitFor(30, TimeUnit.SECONDS);
        }
        assertThat(Files.readAllLines(file)).hasSize(2);
    }

    @Test
    void aLineLongerThan64KiB_refusesTheStart_withoutReadingIt_andLeavesTheFileUnchanged() throws Exception {
        Path file = dir.resolve("revocations.jsonl");
        String live = line("sid", "live", NOW.minusSeconds(30));
        Files.writeString(file, live + "{\"sid\":\"" + "s".repeat(70_000) + "\"}\n" + live);
        byte[] before = Files.readAllBytes(file);
        ListStore store = new ListStore();

        assertThatThrownBy(() -> JsonlRevocationJournal.open(file, store, AT_NOW, RETENTION))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("line 2 of the revocation file " + file)
                .hasMessageContaining("longer than 65536 bytes")
                .hasMessageNotContaining("sssss");
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
        assertThat(store.entries).isEmpty();
    }

    @Test
    void anOverlongLastLineWithoutALineBreak_isRefused_notCutBack() throws Exception {
        // an append writes one entry, far below the bound: an overlong tail is not a torn append, and cutting it
        // would drop what may be revocations
        Path file = dir.resolve("revocations.jsonl");
        Files.writeString(file, line("sid", "live", NOW.minusSeconds(30)) + "x".repeat(70_000));
        byte[] before = Files.readAllBytes(file);

        assertThatThrownBy(() -> JsonlRevocationJournal.open(file, new ListStore(), AT_NOW, RETENTION))
                .hasMessageContaining("line 2 of the revocation file").hasMessageContaining("longer than 65536 bytes");
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
    }

    @Test
    void aLongRunOfRevocations_keepsTheFileBounded_byCompactingWhileRunning() throws Exception {
        Path file = dir.resolve("revocations.jsonl");
        ListStore store = new ListStore();
        long floor = 2 * 1024;
        TestClock clock = new TestClock(NOW);
        JsonlRevocationJournal journal = JsonlRevocationJournal.open(file, store, clock, RETENTION, floor);
        int count = 600;
        long largest = 0;
        for (int i = 0; i < count; i++) {
            // one every 5 minutes: at most 12 hours' worth (145) are live at any time
            clock.set(NOW.plus(Duration.ofMinutes(5L * i)));
            journal.add(new Revocation(RevocationTarget.SID, "s-" + i, "logout", clock.instant(), "root"));
            largest = Math.max(largest, Files.size(file));
        }
        Instant end = NOW.plus(Duration.ofMinutes(5L * (count - 1)));
        long liveBytes = store.current(end).stream().mapToLong(r -> JsonlRevocationJournal.format(r).length() + 1).sum();
        assertThat(largest).isLessThanOrEqualTo(Math.max(floor, 2 * liveBytes) + 200);

        ListStore restarted = new ListStore();
        JsonlRevocationJournal.open(file, restarted, Clock.fixed(end, ZoneOffset.UTC), RETENTION);
        assertThat(restarted.entries).extracting(Revocation::value)
                .containsExactlyElementsOf(store.current(end).stream().map(Revocation::value).toList());
        assertThat(restarted.entries).hasSize(145);
    }

    @Test
    void repeatedRevocationsOfOneTarget_loadAsOneEntry_theLatest_andTheFileKeepsOneLineForIt() throws Exception {
        // the delegate here keeps every entry it is given: the journal itself must keep one per target, so the start
        // holds and counts targets, not lines, and never an earlier revocation in place of a later one
        Path file = dir.resolve("revocations.jsonl");
        Files.writeString(file, line("sub", "alice", NOW.minusSeconds(300)) + line("sid", "s1", NOW.minusSeconds(250))
                + line("sub", "alice", NOW.minusSeconds(100)) + line("sub", "alice", NOW.minusSeconds(200))
                + line("sid", "s1", NOW.minusSeconds(50)));
        ListStore store = new ListStore();

        JsonlRevocationJournal.open(file, store, AT_NOW, RETENTION);

        assertThat(store.entries).extracting(Revocation::value, Revocation::revokedAt)
                .containsExactlyInAnyOrder(tuple("alice", NOW.minusSeconds(100)), tuple("s1", NOW.minusSeconds(50)));
        assertThat(Files.readAllLines(file)).containsExactly(line("sub", "alice", NOW.minusSeconds(100)).strip(),
                line("sid", "s1", NOW.minusSeconds(50)).strip());
    }

    @Test
    void compactionWhileRunning_keepsOneLinePerTarget_theLatest() throws Exception {
        Path file = dir.resolve("revocations.jsonl");
        ListStore store = new ListStore();
        JsonlRevocationJournal journal = JsonlRevocationJournal.open(file, store, AT_NOW, RETENTION, 1024);
        for (int i = 0; i < 20; i++) {
            journal.add(new Revocation(RevocationTarget.SUB, "alice", "again", NOW.minusSeconds(100 - i), "root"));
        }

        assertThat(Files.readAllLines(file)).hasSizeLessThan(10).filteredOn(l -> l.contains("alice")).last().asString()
                .contains(NOW.minusSeconds(81).toString());
        ListStore restarted = new ListStore();
        JsonlRevocationJournal.open(file, restarted, AT_NOW, RETENTION);
        assertThat(restarted.entries).extracting(Revocation::revokedAt).containsExactly(NOW.minusSeconds(81));
    }

    @Test
    void moreLiveRevocationsThanTheBlocklistHolds_refuseTheStart_sayingHowManyAndWhatToDo_andLeaveTheFileUnchanged() throws Exception {
        Path file = dir.resolve("revocations.jsonl");
        StringBuilder content = new StringBuilder(line("sid", "expired", NOW.minus(Duration.ofDays(1))));
        for (int i = 0; i < 5; i++) {
            content.append(line("sid", "s-" + i, NOW.minus(Duration.ofHours(5 - i))));
        }
        Files.writeString(file, content);
        byte[] before = Files.readAllBytes(file);

        // fail closed: starting with two of them dropped would make those revoked sessions valid again
        assertThatThrownBy(() -> JsonlRevocationJournal.open(file, new BoundedStore(3), AT_NOW, RETENTION))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("the revocation file " + file + " holds 5 live revocations")
                .hasMessageContaining("more than the session blocklist's limit of 3")
                // two must expire first: the second oldest, revoked 4 hours ago, expires 8 hours from now
                .hasMessageContaining("start again after " + NOW.plus(Duration.ofHours(8)))
                .hasMessageContaining("OMCP_SESSION_SECRET")
                .hasMessageNotContaining("s-0");
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
    }

    @Test
    void repeatedRevocationsOfOneTarget_countOnceAgainstTheLimit_atStart() throws Exception {
        Path file = dir.resolve("revocations.jsonl");
        StringBuilder content = new StringBuilder();
        for (int i = 0; i < 10; i++) {
            content.append(line("sub", "alice", NOW.minusSeconds(600 - i))).append(line("sid", "s-" + (i % 3), NOW.minusSeconds(500 - i)));
        }
        Files.writeString(file, content);
        BoundedStore store = new BoundedStore(4);

        JsonlRevocationJournal.open(file, store, AT_NOW, RETENTION);

        assertThat(store.entries).extracting(Revocation::value).containsExactlyInAnyOrder("alice", "s-0", "s-1", "s-2");
    }

    @Test
    void aRevocationWhileTheBlocklistIsFull_isRefused_andNothingRecordedIsLost() throws Exception {
        Path file = dir.resolve("revocations.jsonl");
        JsonlRevocationJournal journal = JsonlRevocationJournal.open(file, new BoundedStore(2), AT_NOW, RETENTION);
        journal.add(new Revocation(RevocationTarget.SID, "a", "", NOW, "root"));
        journal.add(new Revocation(RevocationTarget.SUB, "bob", "", NOW, "root"));
        byte[] before = Files.readAllBytes(file);

        assertThatThrownBy(() -> journal.add(new Revocation(RevocationTarget.SID, "c", "", NOW.plusSeconds(1), "root")))
                .isInstanceOf(BlocklistFullException.class).hasMessageContaining("holds 2 live entries");
        // revoking a subject again still works: it takes no new entry
        journal.add(new Revocation(RevocationTarget.SUB, "bob", "again", NOW.plusSeconds(2), "root"));

        assertThat(Files.readString(file)).startsWith(new String(before, StandardCharsets.UTF_8)).doesNotContain("\"sid\":\"c\"");
        ListStore restarted = new ListStore();
        JsonlRevocationJournal.open(file, restarted, AT_NOW, RETENTION);
        assertThat(restarted.entries).extracting(Revocation::value, Revocation::revokedAt)
                .containsExactly(tuple("a", NOW), tuple("bob", NOW.plusSeconds(2)));
    }

    @Test
    void compactionWhileRunning_decidesWhatExpiredByTheClock_notByTheNewEntrysTime() throws Exception {
        // an entry stamped later than the clock (another replica's clock ahead, a revocation time given by a caller)
        // used to serve as "now", and the file lost entries still in force, so a restart forgot them
        Path file = dir.resolve("revocations.jsonl");
        List<Revocation> inForce = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            inForce.add(new Revocation(RevocationTarget.SID, "s-" + i, "stolen", NOW.minus(Duration.ofHours(1)), "root"));
        }
        // the file reaches the floor with the next line, so that one's append compacts it
        long floor = inForce.stream().mapToLong(r -> JsonlRevocationJournal.format(r).length() + 1).sum();
        JsonlRevocationJournal journal = JsonlRevocationJournal.open(file, new ListStore(), AT_NOW, RETENTION, floor);
        for (Revocation revocation : inForce) {
            journal.add(revocation);
        }
        journal.add(new Revocation(RevocationTarget.SID, "ahead", "", NOW.plus(RETENTION).plus(Duration.ofHours(1)), "root"));

        ListStore restarted = new ListStore();
        JsonlRevocationJournal.open(file, restarted, AT_NOW, RETENTION);
        assertThat(restarted.entries).extracting(Revocation::value).contains("s-0", "s-1", "s-2", "s-3", "s-4", "ahead");
    }

    private static String line(String field, String value, Instant at) {
        return "{\"" + field + "\":\"" + value + "\",\"reason\":\"\",\"revokedAt\":\"" + at + "\",\"revokedBy\":\"root\"}\n";
    }
}
