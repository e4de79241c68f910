package dev.omcp.adapters.storage.postmortems;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.adapters.storage.files.FailingAfterChannel;
import dev.omcp.ports.postmortems.PostmortemStore;
import dev.omcp.ports.postmortems.PostmortemStoreException;
import dev.omcp.ports.postmortems.StoredPostmortem;
import dev.omcp.ports.postmortems.TenantScope;
import dev.omcp.sdk.json.Jsonp;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.ArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** spec 2.13 and 8: the append-only JSONL store of post-mortems, on real files. */
class JsonlPostmortemStoreIT {
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    private static final TenantScope ALL = TenantScope.everyTenant();

    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve("reports").resolve("postmortems.jsonl");
    }

    private static StoredPostmortem entry(String id, String tenant, int minute) {
        return new StoredPostmortem(id, tenant, "payments/db", "1h", T0.plusSeconds(60L * minute), "user:olivia",
                Jsonp.object().add("service", "payments/db").add("synopsis", "report " + id).build());
    }

    private static List<String> ids(List<StoredPostmortem> entries) {
        return entries.stream().map(StoredPostmortem::id).toList();
    }

    @Test
    void nothingTouchesTheDiskBeforeTheFirstEntry_thenTheFileIsCreatedOwnerOnly() throws Exception {
        JsonlPostmortemStore store = new JsonlPostmortemStore(file());
        assertThat(store.newestFirst(ALL, 10)).isEmpty();
        assertThat(store.find("pm-1", ALL)).isEmpty();
        assertThat(file()).doesNotExist();

        store.append(entry("pm-1", "acme", 0));

        // spec 8: created mode 0600
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file()))).isEqualTo("rw-------");
        assertThat(Files.readAllLines(file())).singleElement().asString()
                .startsWith("{\"type\":\"postmortem\",\"id\":\"pm-1\",\"tenant\":\"acme\"").contains("\"report\":{");
    }

    @Test
    void entriesSurviveARestart_newestFirst_boundedByTheLimit() throws Exception {
        JsonlPostmortemStore store = new JsonlPostmortemStore(file());
        for (int i = 1; i <= 5; i++) {
            store.append(entry("pm-" + i, "", i));
        }

        JsonlPostmortemStore reopened = new JsonlPostmortemStore(file());
        assertThat(ids(reopened.newestFirst(ALL, 3))).containsExactly("pm-5", "pm-4", "pm-3");
        assertThat(reopened.find("pm-2", ALL)).contains(entry("pm-2", "", 2));
        assertThat(reopened.problems()).isEmpty();
        assertThatThrownBy(() -> reopened.newestFirst(ALL, PostmortemStore.MAX_LIMIT + 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void thePageAfterAnEntry_continuesBelowIt_acrossARestart_andADeletedCursorIsToldApart() throws Exception {
        JsonlPostmortemStore store = new JsonlPostmortemStore(file());
        for (int i = 1; i <= 5; i++) {
            store.append(entry("pm-" + i, i % 2 == 0 ? "globex" : "acme", i));
        }
        JsonlPostmortemStore reopened = new JsonlPostmortemStore(file());
        assertThat(reopened.olderThan("pm-5", ALL, 2).orElseThrow()).extracting(StoredPostmortem::id).containsExactly("pm-4", "pm-3");
        assertThat(reopened.olderThan("pm-3", ALL, 10).orElseThrow()).extracting(StoredPostmortem::id).containsExactly("pm-2", "pm-1");
        assertThat(reopened.olderThan("pm-1", ALL, 10).orElseThrow()).isEmpty();
        assertThat(reopened.olderThan("pm-5", TenantScope.only("acme"), 10).orElseThrow()).extracting(StoredPostmortem::id)
                .containsExactly("pm-3", "pm-1");
        assertThat(reopened.olderThan("pm-4", TenantScope.only("acme"), 10)).isEmpty();
        assertThat(reopened.delete("pm-3", ALL, "admin", Instant.EPOCH)).isTrue();
        assertThat(reopened.olderThan("pm-3", ALL, 10)).isEmpty();
        assertThat(reopened.olderThan("pm-4", ALL, 10).orElseThrow()).extracting(StoredPostmortem::id).containsExactly("pm-2", "pm-1");
        assertThat(reopened.olderThan("nope", ALL, 10)).isEmpty();
    }

    @Test
    void readsAndDeletesAreTenantScoped() throws Exception {
        JsonlPostmortemStore store = new JsonlPostmortemStore(file());
        store.append(entry("pm-a", "acme", 1));
        store.append(entry("pm-g", "globex", 2));

        assertThat(ids(store.newestFirst(TenantScope.only("acme"), 10))).containsExactly("pm-a");
        assertThat(store.find("pm-g", TenantScope.only("acme"))).isEmpty();
        assertThat(store.delete("pm-g", TenantScope.only("acme"), "user:victor", T0)).isFalse();
        assertThat(ids(store.newestFirst(ALL, 10))).containsExactly("pm-g", "pm-a");
    }

    @Test
    void aDeleteAppendsATombstone_theEntryStaysGoneAfterARestart_andTheFileIsNeverRewritten() throws Exception {
        JsonlPostmortemStore store = new JsonlPostmortemStore(file());
        store.append(entry("pm-1", "acme", 1));
        store.append(entry("pm-2", "acme", 2));
        String before = Files.readString(file());

        assertThat(store.delete("pm-1", TenantScope.only("acme"), "user:alice", T0.plusSeconds(600))).isTrue();

        String after = Files.readString(file());
        assertThat(after).startsWith(before);
        assertThat(after.substring(before.length())).isEqualTo(
                "{\"type\":\"tombstone\",\"id\":\"pm-1\",\"tenant\":\"acme\",\"deletedAt\":\"2026-03-01T10:10:00Z\",\"deletedBy\":\"user:alice\"}\n");
        assertThat(store.find("pm-1", ALL)).isEmpty();
        assertThat(store.delete("pm-1", ALL, "user:alice", T0)).isFalse();
        assertThat(ids(new JsonlPostmortemStore(file()).newestFirst(ALL, 10))).containsExactly("pm-2");
    }

    @Test
    void aTornLastLine_isToleratedAndReported_andTheNextEntryStartsOnANewLine() throws Exception {
        JsonlPostmortemStore writer = new JsonlPostmortemStore(file());
        writer.append(entry("pm-1", "", 1));
        long intact = Files.size(file());
        Files.writeString(file(), "{\"type\":\"postmortem\",\"id\":\"pm-2\",\"ten", StandardOpenOption.APPEND);

        JsonlPostmortemStore store = new JsonlPostmortemStore(file());
        assertThat(ids(store.newestFirst(ALL, 10))).containsExactly("pm-1");
        assertThat(store.problems()).singleElement().asString()
                .startsWith("bytes " + intact + "-" + Files.size(file()) + ": incomplete last line");

        store.append(entry("pm-3", "", 3));

        List<String> lines = Files.readAllLines(file());
        assertThat(lines).hasSize(3);
        assertThat(lines.get(1)).isEqualTo("{\"type\":\"postmortem\",\"id\":\"pm-2\",\"ten");
        assertThat(lines.get(2)).startsWith("{\"type\":\"postmortem\",\"id\":\"pm-3\"");
        assertThat(ids(new JsonlPostmortemStore(file()).newestFirst(ALL, 10))).containsExactly("pm-3", "pm-1");
        assertThat(store.problems()).hasSize(2).last().asString().isEqualTo("line at byte " + intact + ": not a post-mortem record; skipped");
    }

    @Test
    void aLastRecordThatLacksOnlyItsNewline_isKeptAtOnce_andNoOtherRecordIsLost() throws Exception {
        JsonlPostmortemStore writer = new JsonlPostmortemStore(file());
        writer.append(entry("pm-1", "", 1));
        writer.append(entry("pm-2", "", 2));
        String whole = Files.readString(file());
        // the process was killed after the record's bytes reached the file, before its newline did
        Files.writeString(file(), whole.substring(0, whole.length() - 1));

        JsonlPostmortemStore store = new JsonlPostmortemStore(file());
        assertThat(ids(store.newestFirst(ALL, 10))).containsExactly("pm-2", "pm-1");
        assertThat(store.problems()).singleElement().asString().contains("no newline").contains("kept");

        store.append(entry("pm-3", "", 3));

        assertThat(Files.readAllLines(file())).hasSize(3);
        JsonlPostmortemStore reopened = new JsonlPostmortemStore(file());
        assertThat(ids(reopened.newestFirst(ALL, 10))).containsExactly("pm-3", "pm-2", "pm-1");
        assertThat(reopened.problems()).isEmpty();
    }

    @Test
    void opening_readsTheFileAtStartUp_andReportsATornLastLine_withoutCreatingAMissingFile() throws Exception {
        JsonlPostmortemStore missing = new JsonlPostmortemStore(file());
        assertThat(missing.open()).isEqualTo(0);
        assertThat(file()).doesNotExist();

        JsonlPostmortemStore writer = new JsonlPostmortemStore(file());
        writer.append(entry("pm-1", "", 1));
        Files.writeString(file(), "{\"type\":\"postmortem\",\"id\":\"pm-2\"", StandardOpenOption.APPEND);

        JsonlPostmortemStore store = new JsonlPostmortemStore(file());
        assertThat(store.open()).isEqualTo(1);
        assertThat(store.problems()).singleElement().asString().contains("incomplete last line");
        assertThat(ids(store.newestFirst(ALL, 10))).containsExactly("pm-1");
    }

    @Test
    void unreadableAndOversizedLines_areSkippedAndReported_theRestIsServed() throws Exception {
        Files.createDirectories(file().getParent());
        Files.createFile(file(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file(), "not json\n" + "{\"type\":\"postmortem\",\"id\":\"../x\"}\n" + "{\"x\":\"" + "a".repeat(
                JsonlPostmortemStore.MAX_LINE_BYTES) + "\"}\n\n", StandardOpenOption.APPEND);
        JsonlPostmortemStore store = new JsonlPostmortemStore(file());
        store.append(entry("pm-1", "", 1));

        assertThat(ids(store.newestFirst(ALL, 10))).containsExactly("pm-1");
        assertThat(store.problems()).containsExactly(
                "line at byte 0: not a post-mortem record; skipped",
                "line at byte 9: not a post-mortem record; skipped",
                "line at byte 43: longer than " + JsonlPostmortemStore.MAX_LINE_BYTES + " bytes; skipped");
    }

    @Test
    void aReportTooLargeForOneLine_isRefused_andNothingIsWritten() {
        JsonlPostmortemStore store = new JsonlPostmortemStore(file());
        StoredPostmortem huge = new StoredPostmortem("pm-big", "", "s", "1h", T0, "user:x",
                Jsonp.object().add("text", "x".repeat(JsonlPostmortemStore.MAX_LINE_BYTES)).build());

        assertThatThrownBy(() -> store.append(huge)).isInstanceOf(PostmortemStoreException.class).hasMessageContaining("nothing was stored");
        assertThat(file()).doesNotExist();
    }

    @Test
    void aSymbolicLink_andAFileOthersMayWrite_areRefused() throws Exception {
        Path target = dir.resolve("elsewhere.jsonl");
        Files.writeString(target, "");
        Path link = dir.resolve("link.jsonl");
        Files.createSymbolicLink(link, target);
        JsonlPostmortemStore linked = new JsonlPostmortemStore(link);
        assertThatThrownBy(() -> linked.append(entry("pm-1", "", 1))).isInstanceOf(PostmortemStoreException.class)
                .hasMessageContaining("symbolic link");
        assertThatThrownBy(() -> linked.newestFirst(ALL, 1)).hasMessageContaining("symbolic link");
        assertThat(Files.readString(target)).isEmpty();

        Path shared = dir.resolve("shared.jsonl");
        Files.writeString(shared, "");
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rw-rw-rw-"));
        assertThatThrownBy(() -> new JsonlPostmortemStore(shared).newestFirst(ALL, 1)).hasMessageContaining("chmod 600")
                .hasMessageNotContaining(dir.toString());
    }

    @Test
    void aFileAnotherUserOwns_isRefused_evenWhenOnlyItsOwnerMayWriteIt() throws Exception {
        // another local user created the file first (the default is in the shared /tmp) and planted a report in it
        Files.createDirectories(file().getParent());
        Files.writeString(file(), new String(PostmortemLines.entry(entry("pm-planted", "acme", 1)), StandardCharsets.UTF_8) + "\n");
        Files.setPosixFilePermissions(file(), PosixFilePermissions.fromString("rw-r--r--"));
        int owner = (Integer) Files.getAttribute(file(), "unix:uid");
        String before = Files.readString(file());
        // the gateway runs as someone else than the file's owner (tests cannot chown, so the gateway's uid is the seam)
        JsonlPostmortemStore store = new JsonlPostmortemStore(file(),
                path -> FileChannel.open(path, StandardOpenOption.WRITE, StandardOpenOption.APPEND), OptionalInt.of(owner + 1));

        assertThatThrownBy(store::open).isInstanceOf(PostmortemStoreException.class).hasMessageContaining("belongs to another user")
                .hasMessageContaining("chown").hasMessageNotContaining(dir.toString());
        assertThatThrownBy(() -> store.find("pm-planted", ALL)).hasMessageContaining("belongs to another user");
        assertThatThrownBy(() -> store.newestFirst(ALL, 10)).hasMessageContaining("belongs to another user");
        assertThatThrownBy(() -> store.append(entry("pm-1", "acme", 2))).hasMessageContaining("belongs to another user");
        assertThat(Files.readString(file())).isEqualTo(before);

        // the gateway's own file is used as before
        assertThat(new JsonlPostmortemStore(file()).find("pm-planted", ALL)).isPresent();
    }

    @Test
    void linesAppendedBySomeoneElse_areSeen_andAReplacedFileIsIndexedAgain() throws Exception {
        JsonlPostmortemStore store = new JsonlPostmortemStore(file());
        store.append(entry("pm-1", "", 1));
        new JsonlPostmortemStore(file()).append(entry("pm-2", "", 2));
        assertThat(ids(store.newestFirst(ALL, 10))).containsExactly("pm-2", "pm-1");

        Path replacement = dir.resolve("replacement.jsonl");
        Files.write(replacement, (new String(PostmortemLines.entry(entry("pm-9", "", 9)), StandardCharsets.UTF_8) + "\n").getBytes());
        Files.setPosixFilePermissions(replacement, PosixFilePermissions.fromString("rw-------"));
        Files.move(replacement, file(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertThat(ids(store.newestFirst(ALL, 10))).containsExactly("pm-9");
    }

    @Test
    void theWarningsDescribeTheFileInUse_notOneItReplaced() throws Exception {
        JsonlPostmortemStore writer = new JsonlPostmortemStore(file());
        writer.append(entry("pm-1", "", 1));
        Files.writeString(file(), "{\"type\":\"postmortem\",\"id\":\"pm-2\"", StandardOpenOption.APPEND);
        JsonlPostmortemStore store = new JsonlPostmortemStore(file());
        assertThat(store.problems()).isEmpty();
        store.open();
        assertThat(store.problems()).singleElement().asString().contains("incomplete last line");

        // the operator repairs the file (an editor writes a new one in its place), or rotates it away
        Path repaired = dir.resolve("repaired.jsonl");
        Files.write(repaired, (new String(PostmortemLines.entry(entry("pm-1", "", 1)), StandardCharsets.UTF_8) + "\n").getBytes());
        Files.setPosixFilePermissions(repaired, PosixFilePermissions.fromString("rw-------"));
        Files.move(repaired, file(), java.nio.file.StandardCopyOption.REPLACE_EXISTING);

        assertThat(ids(store.newestFirst(ALL, 10))).containsExactly("pm-1");
        assertThat(store.problems()).isEmpty();
    }

    @Test
    void aLineChangedInPlace_isReportedOnce_howeverOftenItIsAskedFor() throws Exception {
        JsonlPostmortemStore store = new JsonlPostmortemStore(file());
        store.append(entry("pm-1", "", 1));
        store.append(entry("pm-2", "", 2));
        // someone edits the first record in place, same length: its id no longer is the one indexed
        String text = Files.readString(file());
        Files.writeString(file(), text.replaceFirst("\"pm-1\"", "\"pm-X\""));

        for (int i = 0; i < 3; i++) {
            assertThat(store.find("pm-1", ALL)).isEmpty();
            assertThat(ids(store.newestFirst(ALL, 10))).containsExactly("pm-2");
        }
        assertThat(store.problems()).containsExactly("line at byte 0: changed since it was indexed; skipped");
    }

    @Test
    void concurrentAppends_eachBecomeOneIntactLine() throws Exception {
        JsonlPostmortemStore store = new JsonlPostmortemStore(file());
        List<Future<?>> futures = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
            for (int i = 0; i < 200; i++) {
                int n = i;
                futures.add(pool.submit(() -> {
                    store.append(entry("pm-" + n, n % 2 == 0 ? "acme" : "globex", n));
                    return null;
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        }
        assertThat(Files.readAllLines(file())).hasSize(200);
        JsonlPostmortemStore reopened = new JsonlPostmortemStore(file());
        assertThat(reopened.newestFirst(TenantScope.only("acme"), 100)).hasSize(100);
        assertThat(reopened.problems()).isEmpty();
    }

    /** Appends through a channel that writes {@code budget} bytes and fails (a disk filling up) on the first append only. */
    private static JsonlPostmortemStore.AppendChannels failingOnce(int budget, boolean truncateFails) {
        AtomicInteger appends = new AtomicInteger();
        return path -> {
            FileChannel real = FileChannel.open(path, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
            return appends.getAndIncrement() == 0 ? new FailingAfterChannel(real, budget, truncateFails) : real;
        };
    }

    @Test
    void aWriteThatFailsPartWay_leavesNothingBehind_andTheRefusedEntryNeverAppears() throws Exception {
        int wholeRecordButItsNewline = PostmortemLines.entry(entry("pm-2", "acme", 2)).length;
        for (int budget : new int[] {5, wholeRecordButItsNewline}) {
            Path file = dir.resolve("budget-" + budget + ".jsonl");
            new JsonlPostmortemStore(file).append(entry("pm-1", "acme", 1));
            String before = Files.readString(file);
            JsonlPostmortemStore store = new JsonlPostmortemStore(file, failingOnce(budget, false));

            // the disk fills up in the middle of the line: the caller is told nothing was stored
            assertThatThrownBy(() -> store.append(entry("pm-2", "acme", 2))).isInstanceOf(PostmortemStoreException.class)
                    .hasMessageContaining("No space left on device").hasMessageContaining("nothing was stored")
                    .hasMessageNotContaining(dir.toString());
            assertThat(Files.readString(file)).isEqualTo(before);

            // so no later append may complete the fragment into the entry the caller was told was not stored
            store.append(entry("pm-3", "acme", 3));
            assertThat(ids(store.newestFirst(ALL, 10))).containsExactly("pm-3", "pm-1");
            JsonlPostmortemStore reopened = new JsonlPostmortemStore(file);
            assertThat(ids(reopened.newestFirst(ALL, 10))).containsExactly("pm-3", "pm-1");
            assertThat(reopened.problems()).isEmpty();
            assertThat(Files.readAllLines(file)).hasSize(2);
        }
    }

    @Test
    void aFailedWriteThatCannotBeCutBack_isSaidSo_andItsRecordIsNeverServedByThisGateway() throws Exception {
        new JsonlPostmortemStore(file()).append(entry("pm-1", "acme", 1));
        int wholeRecordButItsNewline = PostmortemLines.entry(entry("pm-2", "acme", 2)).length;
        JsonlPostmortemStore store = new JsonlPostmortemStore(file(), failingOnce(wholeRecordButItsNewline, true));

        assertThatThrownBy(() -> store.append(entry("pm-2", "acme", 2))).isInstanceOf(PostmortemStoreException.class)
                .hasMessageContaining("nothing was stored").hasMessageContaining("could not be removed");
        store.append(entry("pm-3", "acme", 3));

        // the fragment is now a complete line on disk, yet the caller was answered "nothing was stored"
        assertThat(Files.readAllLines(file())).hasSize(3);
        assertThat(ids(store.newestFirst(ALL, 10))).containsExactly("pm-3", "pm-1");
        assertThat(store.find("pm-2", ALL)).isEmpty();
        assertThat(store.problems()).singleElement().asString().contains("a write that failed").contains("skipped");
    }
}
