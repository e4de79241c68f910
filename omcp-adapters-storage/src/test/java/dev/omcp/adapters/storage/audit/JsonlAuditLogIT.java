package dev.omcp.adapters.storage.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.audit.AuditEntry;
import dev.omcp.ports.audit.AuditLogState;
import dev.omcp.ports.audit.AuditQuery;
import dev.omcp.ports.audit.AuditRecord;
import dev.omcp.ports.audit.AuditSearch;
import java.io.BufferedWriter;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonlAuditLogIT {
    private static final Instant T0 = Instant.parse("2025-01-31T12:00:00Z");

    @TempDir
    Path dir;

    private JsonlAuditLog open(Path file, JsonlAuditLog.Options options) {
        JsonlAuditLog log = new JsonlAuditLog(file, options);
        log.open();
        return log;
    }

    private static AuditQuery query(Optional<Instant> from, Optional<Instant> to, String actor, String action, int limit) {
        return new AuditQuery(from, to, Optional.ofNullable(actor), Optional.ofNullable(action), limit);
    }

    @Test
    void aNewFileIsCreatedOwnerOnlyAndHoldsOneLinePerRecordExactlyAsGiven() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        JsonlAuditLog log = open(file, JsonlAuditLog.Options.defaults());
        AuditRecord first = TestRecords.record(1, T0, "user:a", "create", "x");
        AuditRecord second = TestRecords.record(2, T0.plusSeconds(1), "user:b", "delete", "naïve");

        log.awaitDurable(log.append(first));
        log.awaitDurable(log.append(second));
        log.close();

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.readString(file, StandardCharsets.UTF_8)).isEqualTo(first.json() + "\n" + second.json() + "\n");
    }

    @Test
    void reopeningReportsTheNewestEntryAsTheTip() {
        Path file = dir.resolve("audit.jsonl");
        JsonlAuditLog log = open(file, JsonlAuditLog.Options.defaults());
        for (int seq = 1; seq <= 3; seq++) {
            log.append(TestRecords.record(seq, T0.plusSeconds(seq), "user:a", "update", "s" + seq));
        }
        log.close();

        JsonlAuditLog reopened = new JsonlAuditLog(file, JsonlAuditLog.Options.defaults());
        AuditLogState state = reopened.open();

        assertThat(state.last()).map(AuditEntry::seq).contains(3L);
        assertThat(state.last()).map(AuditEntry::hash).contains(TestRecords.fakeHash(3));
        // the entry before the tip too, so the chain can check that the tip follows it
        assertThat(state.beforeLast()).map(AuditEntry::seq).contains(2L);
        assertThat(state.beforeLast()).map(AuditEntry::hash).contains(TestRecords.fakeHash(2));
        assertThat(state.repairedTornTail()).isEmpty();
        reopened.close();
    }

    @Test
    void aFileOfOneLineHasNoEntryBeforeItsTip() {
        Path file = dir.resolve("audit.jsonl");
        JsonlAuditLog log = open(file, JsonlAuditLog.Options.defaults());
        log.append(TestRecords.record(41, T0, "user:a", "update", "s"));
        log.close();

        JsonlAuditLog reopened = new JsonlAuditLog(file, JsonlAuditLog.Options.defaults());
        AuditLogState state = reopened.open();

        assertThat(state.last()).map(AuditEntry::seq).contains(41L);
        assertThat(state.beforeLast()).isEmpty();
        reopened.close();
    }

    @Test
    void aDamagedLineBeforeTheTipStopsTheStartWithItsOffset() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        JsonlAuditLog log = open(file, JsonlAuditLog.Options.defaults());
        log.append(TestRecords.record(1, T0, "user:a", "create", "x"));
        log.close();
        long offset = Files.size(file);
        Files.writeString(file, "{\"seq\":2}\n" + TestRecords.record(3, T0, "user:a", "create", "y").json() + "\n",
                StandardOpenOption.APPEND);

        assertThatThrownBy(() -> new JsonlAuditLog(file, JsonlAuditLog.Options.defaults()).open())
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("line before the last")
                .hasMessageContaining("byte offset " + offset)
                .hasMessageContaining("omcp audit verify");
    }

    @Test
    void aTornTailIsMovedAsideCutOffAndReportedWithItsOffset() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        JsonlAuditLog log = open(file, JsonlAuditLog.Options.defaults());
        log.append(TestRecords.record(1, T0, "user:a", "create", "x"));
        log.close();
        long completeLength = Files.size(file);
        String partial = TestRecords.record(2, T0, "user:a", "create", "y").json().substring(0, 57);
        Files.writeString(file, partial, StandardOpenOption.APPEND);

        JsonlAuditLog reopened = new JsonlAuditLog(file, JsonlAuditLog.Options.defaults());
        AuditLogState state = reopened.open();

        assertThat(state.repairedTornTail()).contains(new AuditLogState.TornTail(completeLength, 57));
        assertThat(state.last()).map(AuditEntry::seq).contains(1L);
        assertThat(Files.size(file)).isEqualTo(completeLength);
        Path kept = dir.resolve("audit.jsonl.torn-" + completeLength);
        assertThat(Files.readString(kept)).isEqualTo(partial);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(kept))).isEqualTo("rw-------");
        // the next entry starts on a fresh line, never extending the torn one
        reopened.append(TestRecords.record(2, T0, "user:a", "create", "z"));
        reopened.close();
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(2);
        assertThat(lines.get(1)).contains("\"seq\":2").contains("\"target\":\"z\"");
    }

    @Test
    void aTailWithoutALineBreakLongerThanAnyEntry_isNoTornWrite_andStopsTheStartUnderRepairToo() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        JsonlAuditLog log = open(file, JsonlAuditLog.Options.defaults());
        log.append(TestRecords.record(1, T0, "user:a", "create", "x"));
        log.close();
        long completeLength = Files.size(file);
        Files.write(file, new byte[JsonlAuditLog.MAX_LINE_BYTES + 1], StandardOpenOption.APPEND);
        byte[] before = Files.readAllBytes(file);

        assertThatThrownBy(() -> new JsonlAuditLog(file, JsonlAuditLog.Options.defaults()).open())
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("not a write cut short by a crash")
                .hasMessageContaining("truncate -s " + completeLength);
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
        try (var files = Files.list(dir)) {
            // no .torn- copy (the lock file is the only other file)
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("audit.jsonl", "audit.jsonl.lock");
        }
    }

    @Test
    void aLargeFileWithoutALineBreakNearItsEnd_isRefusedAfterReadingOnlyItsEnd_withoutAnInventedOffset() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        JsonlAuditLog log = open(file, JsonlAuditLog.Options.defaults());
        log.append(TestRecords.record(1, T0, "user:a", "create", "x"));
        log.close();
        long completeLength = Files.size(file);
        // OMCP_MGMT_AUDIT_FILE pointed at a disk image: sparse, so hundreds of MB cost no disk
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(300L << 20);
        }

        // the offset of the last line break (completeLength) is not named: finding it means reading the whole file back
        assertThatThrownBy(() -> new JsonlAuditLog(file, JsonlAuditLog.Options.defaults()).open())
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("no line break in its last " + JsonlAuditLog.TAIL_SEARCH_BYTES + " bytes")
                .hasMessageContaining("not a write cut short by a crash")
                .hasMessageContaining("file " + file)
                .hasMessageNotContaining("truncate -s " + completeLength)
                .hasMessageNotContaining("offset " + completeLength);
        assertThat(Files.size(file)).isEqualTo(300L << 20);
    }

    @Test
    void aTornTailWithoutAnyCompleteLineLeavesAnEmptyLog() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        Files.writeString(file, "{\"ts\":\"2025-");

        JsonlAuditLog log = new JsonlAuditLog(file, JsonlAuditLog.Options.defaults());
        AuditLogState state = log.open();

        assertThat(state.repairedTornTail()).contains(new AuditLogState.TornTail(0, 12));
        assertThat(state.last()).isEmpty();
        assertThat(Files.size(file)).isZero();
        log.close();
    }

    @Test
    void underTheRefusePolicyATornTailStopsTheStartAndNothingIsChanged() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        JsonlAuditLog log = open(file, JsonlAuditLog.Options.defaults());
        log.append(TestRecords.record(1, T0, "user:a", "create", "x"));
        log.close();
        long completeLength = Files.size(file);
        Files.writeString(file, "{\"ts\":", StandardOpenOption.APPEND);
        byte[] before = Files.readAllBytes(file);

        JsonlAuditLog refusing = new JsonlAuditLog(file,
                new JsonlAuditLog.Options(FsyncPolicy.ALWAYS, Duration.ofSeconds(1), TornTailPolicy.REFUSE));

        assertThatThrownBy(refusing::open)
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("byte offset " + completeLength)
                .hasMessageContaining("truncate -s " + completeLength);
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
        try (var files = Files.list(dir)) {
            // no .torn- copy (the lock file is the only other file)
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("audit.jsonl", "audit.jsonl.lock");
        }
    }

    @Test
    void aDamagedLastLineStopsTheStartWithItsOffset() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        JsonlAuditLog log = open(file, JsonlAuditLog.Options.defaults());
        log.append(TestRecords.record(1, T0, "user:a", "create", "x"));
        log.close();
        long offset = Files.size(file);
        Files.writeString(file, "not an entry\n", StandardOpenOption.APPEND);

        assertThatThrownBy(() -> new JsonlAuditLog(file, JsonlAuditLog.Options.defaults()).open())
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("byte offset " + offset)
                .hasMessageContaining("omcp audit verify");
    }

    @Test
    void aDamagedLastLineBeforeATornTail_stopsTheStartUnderRepairToo_andTheFileIsLeftAsItWasFound() throws Exception {
        // the refusal asks the operator to keep the file as evidence: the repair must not have cut it first
        Path file = dir.resolve("audit.jsonl");
        JsonlAuditLog log = open(file, JsonlAuditLog.Options.defaults());
        log.append(TestRecords.record(1, T0, "user:a", "create", "x"));
        log.close();
        long offset = Files.size(file);
        Files.writeString(file, "not an entry\n{\"ts\":", StandardOpenOption.APPEND);
        byte[] before = Files.readAllBytes(file);

        assertThatThrownBy(() -> new JsonlAuditLog(file, JsonlAuditLog.Options.defaults()).open())
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("byte offset " + offset)
                .hasMessageContaining("omcp audit verify");
        assertThat(Files.readAllBytes(file)).isEqualTo(before);
        try (var files = Files.list(dir)) {
            // no .torn- copy (the lock file is the only other file)
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("audit.jsonl", "audit.jsonl.lock");
        }
    }

    @Test
    void anAuditFileThatIsALinkIsRefusedAtStartAndItsTargetIsNeitherWrittenNorChmodded() throws Exception {
        Path victim = dir.resolve("gateway-key.pem");
        Files.writeString(victim, "-----BEGIN KEY-----\n");
        Files.setPosixFilePermissions(victim, PosixFilePermissions.fromString("rw-r-----"));
        Path file = Files.createSymbolicLink(dir.resolve("audit.jsonl"), victim);

        assertThatThrownBy(() -> new JsonlAuditLog(file, JsonlAuditLog.Options.defaults()).open())
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("cannot open the audit file " + file)
                .hasMessageContaining("symbolic link")
                .hasMessageContaining("links in the parent directories are fine");

        assertThat(Files.readString(victim)).isEqualTo("-----BEGIN KEY-----\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(victim))).isEqualTo("rw-r-----");
    }

    @Test
    void anAuditFileInALinkedDirectoryIsUsed() throws Exception {
        Path real = Files.createDirectory(dir.resolve("var-lib-omcp"));
        Path linked = Files.createSymbolicLink(dir.resolve("state"), real);
        JsonlAuditLog log = open(linked.resolve("audit.jsonl"), JsonlAuditLog.Options.defaults());
        AuditRecord first = TestRecords.record(1, T0, "user:a", "create", "x");

        log.awaitDurable(log.append(first));
        log.close();

        assertThat(Files.readString(real.resolve("audit.jsonl"))).isEqualTo(first.json() + "\n");
    }

    @Test
    void aMissingDirectoryIsNamed() {
        Path file = dir.resolve("no-such-dir/audit.jsonl");
        assertThatThrownBy(() -> new JsonlAuditLog(file, JsonlAuditLog.Options.defaults()).open())
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("does not exist");
    }

    @Test
    void everyFsyncPolicyWritesTheSameBytes() throws Exception {
        for (FsyncPolicy policy : FsyncPolicy.values()) {
            Path file = dir.resolve("audit-" + policy + ".jsonl");
            JsonlAuditLog log = open(file, new JsonlAuditLog.Options(policy, Duration.ofMillis(20), TornTailPolicy.REPAIR));
            StringBuilder expected = new StringBuilder();
            for (int seq = 1; seq <= 50; seq++) {
                AuditRecord record = TestRecords.record(seq, T0, "user:a", "update", "s");
                log.awaitDurable(log.append(record));
                expected.append(record.json()).append('\n');
            }
            log.close();
            assertThat(Files.readString(file)).as(policy.name()).isEqualTo(expected.toString());
        }
    }

    @Test
    void searchesReturnNewestFirstWithFiltersAndLimit() {
        Path file = dir.resolve("audit.jsonl");
        JsonlAuditLog log = open(file, JsonlAuditLog.Options.defaults());
        for (int seq = 1; seq <= 20; seq++) {
            log.append(TestRecords.record(seq, T0.plusSeconds(60L * seq), seq % 2 == 0 ? "user:even" : "user:odd",
                    seq % 5 == 0 ? "delete" : "update", "s" + seq));
        }

        assertThat(log.find(query(Optional.empty(), Optional.empty(), null, null, 3)))
                .extracting(AuditEntry::seq).containsExactly(20L, 19L, 18L);
        assertThat(log.find(query(Optional.empty(), Optional.empty(), "user:even", "delete", 100)))
                .extracting(AuditEntry::seq).containsExactly(20L, 10L);
        assertThat(log.find(query(Optional.of(T0.plusSeconds(60 * 5)), Optional.of(T0.plusSeconds(60 * 8)), null, null, 100)))
                .extracting(AuditEntry::seq).containsExactly(8L, 7L, 6L, 5L);
        assertThat(log.find(query(Optional.empty(), Optional.empty(), "user:nobody", null, 100))).isEmpty();
        assertThat(log.find(query(Optional.empty(), Optional.empty(), "user:odd\"", null, 100))).isEmpty();
        log.close();
    }

    @Test
    void searchesSkipDamagedLinesAndKeepGoing() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        JsonlAuditLog log = open(file, JsonlAuditLog.Options.defaults());
        log.append(TestRecords.record(1, T0, "user:a", "update", "a"));
        log.close();
        Files.writeString(file, "garbage\n", StandardOpenOption.APPEND);
        Files.writeString(file, TestRecords.record(2, T0, "user:a", "update", "b").json() + "\n", StandardOpenOption.APPEND);
        // further back than the two lines read at start, which must be entries
        Files.writeString(file, TestRecords.record(3, T0, "user:a", "update", "c").json() + "\n", StandardOpenOption.APPEND);

        JsonlAuditLog reopened = open(file, JsonlAuditLog.Options.defaults());

        assertThat(reopened.find(AuditQuery.latest())).extracting(AuditEntry::seq).containsExactly(3L, 2L, 1L);
        reopened.close();
    }

    @Test
    void theNewestEntriesOfALargeFileAreFoundByReadingOnlyItsEnd() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        int count = 200_000;
        try (BufferedWriter out = Files.newBufferedWriter(file)) {
            for (int seq = 1; seq <= count; seq++) {
                out.write(TestRecords.record(seq, T0.plusMillis(seq * 10L), seq % 1000 == 0 ? "user:rare" : "user:a",
                        "update", "s").json());
                out.write('\n');
            }
        }
        long size = Files.size(file);
        JsonlAuditLog log = open(file, JsonlAuditLog.Options.defaults());

        long before = log.bytesScanned();
        List<AuditEntry> latest = log.find(query(Optional.empty(), Optional.empty(), null, null, 100));
        long latestBytes = log.bytesScanned() - before;

        before = log.bytesScanned();
        List<AuditEntry> recent = log.find(query(Optional.of(T0.plusMillis((count - 50) * 10L)), Optional.empty(), null, null, 1000));
        long recentBytes = log.bytesScanned() - before;

        before = log.bytesScanned();
        List<AuditEntry> rare = log.find(query(Optional.empty(), Optional.empty(), "user:rare", null, 5));
        long rareBytes = log.bytesScanned() - before;

        assertThat(size).isGreaterThan(50_000_000);
        assertThat(latest).hasSize(100).first().extracting(AuditEntry::seq).isEqualTo((long) count);
        assertThat(latestBytes).isLessThan(200_000);
        assertThat(recent).hasSize(51);
        assertThat(recentBytes).isLessThan(200_000);
        assertThat(rare).extracting(AuditEntry::seq).containsExactly(200_000L, 199_000L, 198_000L, 197_000L, 196_000L);
        assertThat(rareBytes).isLessThan(size / 30);
        log.close();
    }

    @Test
    void pagingByBeforeSeq_returnsEachEntryOnce_evenWhenMoreThanAPageShareOneMillisecond() {
        JsonlAuditLog log = open(dir.resolve("audit.jsonl"), JsonlAuditLog.Options.defaults());
        for (int seq = 1; seq <= 7; seq++) {
            // a burst: every entry in the same millisecond, more of them than one page holds
            log.append(TestRecords.record(seq, T0, "user:a", "update", "s" + seq));
        }

        List<Long> seen = new java.util.ArrayList<>();
        java.util.OptionalLong cursor = java.util.OptionalLong.empty();
        for (int page = 0; page < 10; page++) {
            List<AuditEntry> entries = log.find(new AuditQuery(Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.empty(), cursor, Optional.empty(), 3));
            if (entries.isEmpty()) {
                break;
            }
            entries.forEach(entry -> seen.add(entry.seq()));
            cursor = java.util.OptionalLong.of(entries.get(entries.size() - 1).seq());
        }

        assertThat(seen).containsExactly(7L, 6L, 5L, 4L, 3L, 2L, 1L);
        log.close();
    }

    /** Pages as {@code GET /api/audit} does: the next cursor is the oldest seq of a full page, until a page is not full. */
    private static List<Long> pageThrough(JsonlAuditLog log, AuditQuery first) {
        List<Long> seen = new java.util.ArrayList<>();
        java.util.OptionalLong cursor = java.util.OptionalLong.empty();
        while (true) {
            AuditQuery query = new AuditQuery(first.from(), first.to(), first.actor(), first.action(), cursor, first.tenant(),
                    first.limit());
            List<AuditEntry> page = log.find(query);
            page.forEach(entry -> seen.add(entry.seq()));
            if (page.size() < first.limit() || page.get(page.size() - 1).seq() == 1) {
                return seen;
            }
            cursor = java.util.OptionalLong.of(page.get(page.size() - 1).seq());
        }
    }

    private static List<AuditRecord> burstyRecords(int count) {
        List<AuditRecord> records = new java.util.ArrayList<>();
        for (int seq = 1; seq <= count; seq++) {
            // five entries per millisecond, three actors, two tenants and none, a delete now and then
            records.add(TestRecords.record(seq, T0.plusMillis(seq / 5), "user:" + "abc".charAt(seq % 3),
                    seq % 4 == 0 ? null : seq % 4 == 1 ? "acme" : "globex", seq % 7 == 0 ? "delete" : "update", "s" + seq));
        }
        return records;
    }

    private static List<Long> expected(List<AuditRecord> records, AuditQuery query) {
        return records.reversed().stream().map(AuditRecord::entry).filter(query::matches).map(AuditEntry::seq).toList();
    }

    @Test
    void pagingByBeforeSeqWithFilters_givesEveryMatchingEntryOnceNewestFirst_acrossPageBoundaries() {
        JsonlAuditLog log = open(dir.resolve("audit.jsonl"), JsonlAuditLog.Options.defaults());
        List<AuditRecord> records = burstyRecords(1500);
        records.forEach(log::append);
        List<AuditQuery> queries = List.of(
                query(Optional.empty(), Optional.empty(), null, null, 1000),
                query(Optional.empty(), Optional.empty(), null, null, 25),
                query(Optional.empty(), Optional.empty(), "user:b", "delete", 4),
                query(Optional.of(T0.plusMillis(101)), Optional.of(T0.plusMillis(433)), "user:c", null, 10),
                query(Optional.empty(), Optional.of(T0.plusMillis(250)), null, "update", 33).onlyTenant("acme"),
                query(Optional.empty(), Optional.empty(), "user:nobody", null, 5));

        for (AuditQuery query : queries) {
            assertThat(pageThrough(log, query)).as(query.toString()).isEqualTo(expected(records, query));
        }
        assertThat(expected(records, queries.get(2))).hasSizeGreaterThan(4 * 15);
        log.close();
    }

    /** The records' lines, with a line that is not an entry after every 97th: where the search for a page may land. */
    private static void writeWithLinesThatAreNotEntries(Path file, List<AuditRecord> records) throws java.io.IOException {
        try (BufferedWriter out = Files.newBufferedWriter(file)) {
            for (AuditRecord record : records) {
                out.write(record.json());
                out.write('\n');
                if (record.entry().seq() % 97 == 0) {
                    out.write("garbage\n");
                }
            }
        }
    }

    @Test
    void pagingByBeforeSeq_pastLinesThatAreNotEntries_stillGivesEveryEntryOnce() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        List<AuditRecord> records = burstyRecords(600);
        writeWithLinesThatAreNotEntries(file, records);
        JsonlAuditLog log = open(file, JsonlAuditLog.Options.defaults());
        List<AuditQuery> queries = List.of(query(Optional.empty(), Optional.empty(), "user:a", null, 9),
                query(Optional.empty(), Optional.of(T0.plusMillis(77)), "user:a", null, 9));

        for (AuditQuery query : queries) {
            assertThat(pageThrough(log, query)).as(query.toString()).isEqualTo(expected(records, query));
        }
        log.close();
    }

    /** Pages as {@code GET /api/audit} does through {@link JsonlAuditLog#search}: on to the resume cursor or the full page's end. */
    private static List<Long> searchThrough(JsonlAuditLog log, AuditQuery first, List<Integer> pageSizes) {
        List<Long> seen = new java.util.ArrayList<>();
        java.util.OptionalLong cursor = java.util.OptionalLong.empty();
        while (true) {
            // a cursor that does not get further would page forever
            assertThat(pageSizes).as("pages so far").hasSizeLessThan(10_000);
            AuditQuery query = new AuditQuery(first.from(), first.to(), first.actor(), first.action(), cursor, first.tenant(),
                    first.limit());
            AuditSearch found = log.search(query);
            found.entries().forEach(entry -> seen.add(entry.seq()));
            pageSizes.add(found.entries().size());
            if (found.resumeBeforeSeq().isPresent()) {
                cursor = found.resumeBeforeSeq();
            } else if (found.entries().size() < first.limit() || found.entries().getLast().seq() == 1) {
                return seen;
            } else {
                cursor = java.util.OptionalLong.of(found.entries().getLast().seq());
            }
        }
    }

    @Test
    void aSearchThatMatchesLittle_stopsAtItsWorkBudget_andContinuingFromItsCursorGivesEveryEntryOnce() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        List<AuditRecord> records = burstyRecords(6000);
        // where a search may stop, too: it resumes at an entry, never at such a line
        writeWithLinesThatAreNotEntries(file, records);
        long budget = 3 * ReverseLines.CHUNK;
        JsonlAuditLog log = new JsonlAuditLog(file, JsonlAuditLog.Options.defaults(), java.util.function.UnaryOperator.identity(),
                budget);
        log.open();
        List<AuditQuery> queries = List.of(query(Optional.empty(), Optional.empty(), "user:nobody", null, 5),
                query(Optional.empty(), Optional.empty(), "user:b", "delete", 40),
                query(Optional.empty(), Optional.of(T0.plusMillis(900)), null, "update", 1000).onlyTenant("acme"),
                query(Optional.empty(), Optional.empty(), null, null, 1000));

        for (AuditQuery query : queries) {
            List<Integer> pageSizes = new java.util.ArrayList<>();
            long before = log.bytesScanned();
            assertThat(searchThrough(log, query, pageSizes)).as(query.toString()).isEqualTo(expected(records, query));
            // several short pages, each a few chunks of reading, instead of one read of the whole file
            assertThat(pageSizes).as(query.toString()).hasSizeGreaterThan(2);
            assertThat(log.bytesScanned() - before).as(query.toString())
                    .isLessThan(Files.size(file) + (long) pageSizes.size() * (budget + 40 * 1024));
        }
        long before = log.bytesScanned();
        AuditSearch first = log.search(queries.getFirst());
        assertThat(first.entries()).isEmpty();
        assertThat(first.resumeBeforeSeq()).isPresent();
        assertThat(log.bytesScanned() - before).isLessThanOrEqualTo(budget + ReverseLines.CHUNK);
        // find() still reads as far as it must: an embedder calling it gets the whole answer, not a silent cut
        assertThat(log.find(queries.get(1))).hasSize(40);
        log.close();
    }

    @Test
    void aSearchWhoseBudgetIsSmallerThanOneLine_stillJudgesALinePerCall_soContinuingEnds() throws Exception {
        JsonlAuditLog log = new JsonlAuditLog(dir.resolve("audit.jsonl"), JsonlAuditLog.Options.defaults(),
                java.util.function.UnaryOperator.identity(), 1);
        log.open();
        List<AuditRecord> records = burstyRecords(30);
        records.forEach(log::append);
        AuditQuery nobody = query(Optional.empty(), Optional.empty(), "user:nobody", null, 5);

        List<Integer> pageSizes = new java.util.ArrayList<>();
        assertThat(searchThrough(log, nobody, pageSizes)).isEmpty();
        assertThat(pageSizes).hasSizeBetween(2, 31);
        log.close();
    }

    @Test
    void aPageFarBackIsFoundWithoutReadingTheFileFromItsEnd() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        int count = 40_000;
        try (BufferedWriter out = Files.newBufferedWriter(file)) {
            for (int seq = 1; seq <= count; seq++) {
                out.write(TestRecords.record(seq, T0.plusMillis(seq), seq % 3 == 0 ? "user:b" : "user:a", "update", "s").json());
                out.write('\n');
            }
        }
        long size = Files.size(file);
        JsonlAuditLog log = open(file, JsonlAuditLog.Options.defaults());

        long before = log.bytesScanned();
        List<AuditEntry> deep = log.find(new AuditQuery(Optional.empty(), Optional.empty(), Optional.of("user:b"), Optional.empty(),
                java.util.OptionalLong.of(1_000), Optional.empty(), 100));
        long deepBytes = log.bytesScanned() - before;

        assertThat(size).isGreaterThan(10_000_000);
        assertThat(deep).hasSize(100).first().extracting(AuditEntry::seq).isEqualTo(999L);
        assertThat(deep).last().extracting(AuditEntry::seq).isEqualTo(702L);
        // the newest page costs one 64 KiB chunk; halving the file to the page adds a few kilobytes, not the 10 MB after it
        assertThat(deepBytes).isLessThan(200_000);
        log.close();
    }

    /**
     * Entries as the chain writes them: bursts sharing a millisecond, and a stretch where the wall
     * clock stepped back 100 ms and the chain held {@code ts} at the last entry's until it caught up.
     */
    private static List<AuditRecord> recordsWithAClockStepBack(int count) {
        List<AuditRecord> records = new java.util.ArrayList<>();
        Instant last = Instant.EPOCH;
        for (int seq = 1; seq <= count; seq++) {
            Instant clock = seq <= 300 ? T0.plusMillis(seq / 5) : T0.plusMillis(seq / 5 - 100);
            Instant ts = clock.isBefore(last) ? last : clock;
            records.add(TestRecords.record(seq, ts, "user:" + "abc".charAt(seq % 3), seq % 4 == 0 ? null : "acme",
                    seq % 7 == 0 ? "delete" : "update", "s" + seq));
            last = ts;
        }
        return records;
    }

    @Test
    void searchesByTime_giveWhatAFullScanGives_acrossPagesEqualTimestampsAndAClockThatSteppedBack() {
        JsonlAuditLog log = open(dir.resolve("audit.jsonl"), JsonlAuditLog.Options.defaults());
        List<AuditRecord> records = recordsWithAClockStepBack(1200);
        records.forEach(log::append);
        Instant held = records.get(299).entry().ts(); // the ts the chain held while the clock was behind
        assertThat(records.get(700).entry().ts()).isEqualTo(held);
        List<AuditQuery> queries = List.of(
                query(Optional.empty(), Optional.of(T0.minusMillis(1)), null, null, 10), // before the first entry
                query(Optional.empty(), Optional.of(T0), null, null, 3), // the first millisecond only
                query(Optional.empty(), Optional.of(T0.plusMillis(33)), null, null, 7), // inside a burst
                query(Optional.empty(), Optional.of(held.minusMillis(1)), null, null, 50),
                query(Optional.empty(), Optional.of(held), null, null, 50), // the whole held stretch
                query(Optional.of(held), Optional.of(held), "user:b", null, 20),
                query(Optional.of(T0.plusMillis(20)), Optional.of(held), null, "delete", 4).onlyTenant("acme"),
                query(Optional.empty(), Optional.of(held.plusMillis(1)), "user:c", null, 1000),
                query(Optional.of(held.plusMillis(3)), Optional.of(held.plusMillis(90)), null, null, 11),
                query(Optional.empty(), Optional.of(T0.plusSeconds(86_400)), null, null, 97), // after the last entry
                query(Optional.empty(), Optional.of(held), "user:nobody", null, 5));

        for (AuditQuery query : queries) {
            assertThat(pageThrough(log, query)).as(query.toString()).isEqualTo(expected(records, query));
        }
        log.close();
    }

    @Test
    void aSearchToATimeFarBackIsFoundWithoutReadingTheFileFromItsEnd() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        int count = 40_000;
        try (BufferedWriter out = Files.newBufferedWriter(file)) {
            for (int seq = 1; seq <= count; seq++) {
                out.write(TestRecords.record(seq, T0.plusMillis(seq), seq % 3 == 0 ? "user:b" : "user:a", "update", "s").json());
                out.write('\n');
            }
        }
        long size = Files.size(file);
        JsonlAuditLog log = open(file, JsonlAuditLog.Options.defaults());

        long before = log.bytesScanned();
        List<AuditEntry> deep = log.find(query(Optional.empty(), Optional.of(T0.plusMillis(1_000)), "user:b", null, 100));
        long deepBytes = log.bytesScanned() - before;
        before = log.bytesScanned();
        List<AuditEntry> none = log.find(query(Optional.empty(), Optional.of(T0.minusSeconds(60)), null, null, 100));
        long noneBytes = log.bytesScanned() - before;
        before = log.bytesScanned();
        List<AuditEntry> window = log.find(query(Optional.of(T0.plusMillis(2_000)), Optional.of(T0.plusMillis(3_000)),
                "user:nobody", null, 100));
        long windowBytes = log.bytesScanned() - before;

        assertThat(size).isGreaterThan(10_000_000);
        assertThat(deep).hasSize(100).first().extracting(AuditEntry::seq).isEqualTo(999L);
        assertThat(deep).last().extracting(AuditEntry::seq).isEqualTo(702L);
        assertThat(none).isEmpty();
        assertThat(window).isEmpty();
        // halving the file to the time costs a few kilobytes, not the 10 MB after it
        assertThat(deepBytes).isLessThan(200_000);
        assertThat(noneBytes).isLessThan(100_000);
        // a search that matches nothing reads the thousand entries of its window, not the file from its end
        assertThat(windowBytes).isLessThan(500_000);
        log.close();
    }

    @Test
    void aTenantFilter_keepsOnlyThatTenantsEntries_notThoseOfOtherTenantsOrOfNone() {
        JsonlAuditLog log = open(dir.resolve("audit.jsonl"), JsonlAuditLog.Options.defaults());
        log.append(TestRecords.record(1, T0, "user:a", "acme", "update", "a1"));
        log.append(TestRecords.record(2, T0, "user:g", "globex", "update", "g1"));
        log.append(TestRecords.record(3, T0, "user:root", null, "update", "r1"));
        // a tenant whose name another one starts with must not match it
        log.append(TestRecords.record(4, T0, "user:b", "acme-labs", "update", "b1"));
        log.append(TestRecords.record(5, T0, "user:a", "acme", "delete", "a2"));

        List<AuditEntry> acme = log.find(AuditQuery.latest().onlyTenant("acme"));

        assertThat(acme).extracting(AuditEntry::target).containsExactly("a2", "a1");
        assertThat(log.find(AuditQuery.latest())).hasSize(5);
        log.close();
    }

    @Test
    void afterAFailedFsync_theStoreRefusesEveryEntry_evenWhenTheNextFsyncWouldSucceed() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        java.util.concurrent.atomic.AtomicReference<dev.omcp.adapters.storage.files.FailingAfterChannel> disk =
                new java.util.concurrent.atomic.AtomicReference<>();
        JsonlAuditLog log = new JsonlAuditLog(file, JsonlAuditLog.Options.defaults(), real -> {
            disk.set(new dev.omcp.adapters.storage.files.FailingAfterChannel(real, Integer.MAX_VALUE, false));
            return disk.get();
        });
        log.open();
        AuditRecord first = TestRecords.record(1, T0, "user:a", "update", "s1");
        log.awaitDurable(log.append(first));

        disk.get().failForces(1); // one fsync fails; Linux may have dropped the pages and report the next as a success
        long ticket = log.append(TestRecords.record(2, T0, "user:a", "update", "s2"));
        assertThatThrownBy(() -> log.awaitDurable(ticket)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("could not fsync").hasMessageContaining("Input/output error");

        // a waiter whose entry that fsync covered is not told it is durable by a retry
        assertThatThrownBy(() -> log.awaitDurable(ticket)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("an fsync of the audit file").hasMessageContaining("Input/output error");
        // fail closed until a restart: the next entry is refused, names the cause and what to do
        assertThatThrownBy(() -> log.append(TestRecords.record(3, T0, "user:a", "update", "s3")))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("an fsync of the audit file " + file + " failed (Input/output error)")
                .hasMessageContaining("restart the gateway after checking the disk");
        log.close();
        assertThat(Files.readAllLines(file)).hasSize(2);

        // a restart takes entries again
        JsonlAuditLog restarted = open(file, JsonlAuditLog.Options.defaults());
        restarted.awaitDurable(restarted.append(TestRecords.record(3, T0, "user:a", "update", "s3")));
        assertThat(Files.readAllLines(file)).hasSize(3);
        restarted.close();
    }

    private static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(15);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 15 s");
            }
            Thread.sleep(5);
        }
    }

    private static JsonlAuditLog.Options batch() {
        return new JsonlAuditLog.Options(FsyncPolicy.BATCH, Duration.ofMillis(5), TornTailPolicy.REPAIR);
    }

    @Test
    void aFailedBatchFsync_stopsTheStoreUntilARestart_andNoLaterFsyncVouchesForWhatItCovered() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        java.util.concurrent.atomic.AtomicReference<dev.omcp.adapters.storage.files.FailingAfterChannel> disk =
                new java.util.concurrent.atomic.AtomicReference<>();
        JsonlAuditLog log = new JsonlAuditLog(file, batch(), real -> {
            disk.set(new dev.omcp.adapters.storage.files.FailingAfterChannel(real, Integer.MAX_VALUE, false).failForces(1));
            return disk.get();
        });
        log.open();
        assertThat(log.refusing()).isEmpty();

        // the request path does not wait under batch; the background fsync then fails
        log.awaitDurable(log.append(TestRecords.record(1, T0, "user:a", "update", "s1")));
        await(() -> log.refusing().isPresent());

        // known without an append, so the management plane refuses the next change before making it
        assertThat(log.refusing()).hasValueSatisfying(reason -> assertThat(reason)
                .contains("an fsync of the audit file " + file + " failed (Input/output error)")
                .contains("restart the gateway after checking the disk"));
        assertThatThrownBy(() -> log.append(TestRecords.record(2, T0, "user:a", "update", "s2")))
                .isInstanceOf(UncheckedIOException.class).hasMessageContaining("an fsync of the audit file");
        log.close();
        // neither a later batch nor the close forced again: a success would vouch for entries the failed fsync may have lost
        assertThat(disk.get().forceAttempts()).isEqualTo(1);
        assertThat(Files.readAllLines(file)).hasSize(1);

        JsonlAuditLog restarted = open(file, batch());
        assertThat(restarted.refusing()).isEmpty();
        restarted.append(TestRecords.record(2, T0, "user:a", "update", "s2"));
        restarted.close();
        assertThat(Files.readAllLines(file)).hasSize(2);
    }

    @Test
    void closingWhileTheBatchThreadFsyncs_letsThatFsyncFinish_ratherThanBreakingTheFileUnderIt() throws Exception {
        Path file = dir.resolve("audit.jsonl");
        java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicReference<dev.omcp.adapters.storage.files.FailingAfterChannel> disk =
                new java.util.concurrent.atomic.AtomicReference<>();
        JsonlAuditLog log = new JsonlAuditLog(file, batch(), real -> {
            disk.set(new dev.omcp.adapters.storage.files.FailingAfterChannel(real, Integer.MAX_VALUE, false)
                    .holdNextForce(entered, release));
            return disk.get();
        });
        log.open();
        log.append(TestRecords.record(1, T0, "user:a", "update", "s1"));
        entered.await(); // the batch thread is in its fsync

        Thread closing = Thread.ofPlatform().start(log::close);
        // close() waits for the batch thread; an interrupt sent to stop it would have reached the fsync by now
        await(() -> closing.getState() == Thread.State.TIMED_WAITING || closing.getState() == Thread.State.WAITING);
        release.countDown();
        closing.join();

        // the fsync completed: nothing refused, nothing left unsynced at close
        assertThat(log.refusing()).isEmpty();
        assertThat(disk.get().forceAttempts()).isEqualTo(1);
        assertThat(Files.readAllLines(file)).hasSize(1);
    }

    @Test
    void aWriteWhoseUndoFails_makesTheStoreRefuseEveryEntryUntilARestart() {
        Path file = dir.resolve("audit.jsonl");
        JsonlAuditLog log = new JsonlAuditLog(file, JsonlAuditLog.Options.defaults(),
                real -> new dev.omcp.adapters.storage.files.FailingAfterChannel(real, 5, true));
        log.open();

        assertThatThrownBy(() -> log.append(TestRecords.record(1, T0, "user:a", "update", "s1")))
                .isInstanceOf(UncheckedIOException.class).hasMessageContaining("No space left on device");
        assertThatThrownBy(() -> log.append(TestRecords.record(1, T0, "user:a", "update", "s1")))
                .isInstanceOf(UncheckedIOException.class).hasMessageContaining("could not be undone")
                .hasMessageContaining("restart the gateway");
        log.close();
    }
}
