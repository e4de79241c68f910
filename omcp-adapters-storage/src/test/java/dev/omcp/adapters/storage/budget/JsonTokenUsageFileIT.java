package dev.omcp.adapters.storage.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.omcp.ports.budget.SavedTokenUsage;
import dev.omcp.ports.budget.TokenBucket;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** spec 8: OMCP_TOKEN_BUDGET_FILE, writes debounced 1 s and atomic; a file that cannot be read stops the start. */
class JsonTokenUsageFileIT {
    private static final long MINUTE = 60_000L;
    private static final long T0 = 1_740_787_200_000L; // 2025-03-01T00:00:00Z

    @TempDir
    Path dir;

    /** A writer thread whose tasks run only when the test says so, with the delays they were scheduled with. */
    private static final class ManualLater implements Later {
        final List<Runnable> tasks = new ArrayList<>();
        final List<Duration> delays = new ArrayList<>();
        boolean closed;

        @Override
        public void after(Duration delay, Runnable task) {
            delays.add(delay);
            tasks.add(task);
        }

        void runAll() {
            List<Runnable> due = new ArrayList<>(tasks);
            tasks.clear();
            due.forEach(Runnable::run);
        }

        @Override
        public void close() {
            closed = true;
            tasks.clear();
        }
    }

    private static SavedTokenUsage usage(String actor, TokenBucket... buckets) {
        return new SavedTokenUsage(Map.of(actor, List.of(buckets)));
    }

    @Test
    void aMissingFile_isCreatedAtOnce_0600_holdingNoUsage() throws Exception {
        Path file = dir.resolve("state").resolve("budget.json");

        try (JsonTokenUsageFile store = JsonTokenUsageFile.open(file, new ManualLater())) {
            assertThat(store.load(0).byActor()).isEmpty();
        }

        assertThat(file).exists();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(Files.readString(file).strip()).isEqualTo("{\"version\":1,\"credentials\":{}}");
    }

    @Test
    void whatIsWritten_isReadBackByTheNextStart() throws Exception {
        Path file = dir.resolve("budget.json");
        SavedTokenUsage written = new SavedTokenUsage(Map.of(
                "key:ci", List.of(new TokenBucket(T0, 84), new TokenBucket(T0 + 5 * MINUTE, 200)),
                "key:bot", List.of(new TokenBucket(T0 + MINUTE, 7))));
        ManualLater later = new ManualLater();
        try (JsonTokenUsageFile store = JsonTokenUsageFile.open(file, later)) {
            store.track(() -> written);
            store.changed();
            later.runAll();
        }

        try (JsonTokenUsageFile reopened = JsonTokenUsageFile.open(file, new ManualLater())) {
            assertThat(reopened.load(0)).isEqualTo(written);
        }
    }

    @Test
    void writesAreDebounced_oneWriteASecondAfterTheFirstChange_neverOnTheCallersThread() throws Exception {
        Path file = dir.resolve("budget.json");
        ManualLater later = new ManualLater();
        AtomicReference<SavedTokenUsage> ledger = new AtomicReference<>(SavedTokenUsage.empty());
        try (JsonTokenUsageFile store = JsonTokenUsageFile.open(file, later)) {
            store.track(ledger::get);
            String before = Files.readString(file);

            for (int tokens = 1; tokens <= 100; tokens++) {
                ledger.set(usage("key:ci", new TokenBucket(T0, tokens)));
                store.changed();
            }

            assertThat(later.delays).as("a hundred changes schedule one write, a second later").containsExactly(Duration.ofSeconds(1));
            assertThat(Files.readString(file)).as("the callers wrote nothing").isEqualTo(before);
            later.runAll();
            assertThat(Files.readString(file)).as("the write holds the latest usage").contains("[[" + T0 + ",100]]");

            ledger.set(usage("key:ci", new TokenBucket(T0, 150)));
            store.changed();
            store.changed();
            assertThat(later.delays).as("a change after the write schedules the next one").hasSize(2);
            later.runAll();
            assertThat(Files.readString(file)).contains("[[" + T0 + ",150]]");
            later.runAll();
            assertThat(later.delays).as("nothing changed since: no more writes").hasSize(2);
        }
    }

    @Test
    void closing_writesWhatIsUnwritten_andStopsTheWriter() throws Exception {
        Path file = dir.resolve("budget.json");
        ManualLater later = new ManualLater();
        JsonTokenUsageFile store = JsonTokenUsageFile.open(file, later);
        store.track(() -> usage("key:ci", new TokenBucket(T0, 42)));
        store.changed();

        store.close();

        assertThat(later.closed).isTrue();
        assertThat(Files.readString(file)).contains("\"key:ci\":[[" + T0 + ",42]]");
    }

    @Test
    void aWrite_replacesTheFileAtomically_0600_andLeavesNoTempFile() throws Exception {
        Path file = dir.resolve("budget.json");
        ManualLater later = new ManualLater();
        try (JsonTokenUsageFile store = JsonTokenUsageFile.open(file, later)) {
            Object inodeBefore = Files.getAttribute(file, "unix:ino");
            store.track(() -> usage("key:ci", new TokenBucket(T0, 9)));
            store.changed();
            later.runAll();

            assertThat(Files.getAttribute(file, "unix:ino")).as("a new file renamed into place, not the old one rewritten")
                    .isNotEqualTo(inodeBefore);
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        try (var files = Files.list(dir)) {
            assertThat(files).as("no temp file is left").containsExactly(file);
        }
    }

    @Test
    void aWriteThatFails_isLoggedOnce_andRetriedASecondLater() throws Exception {
        Path directory = Files.createDirectories(dir.resolve("state"));
        Path file = directory.resolve("budget.json");
        ManualLater later = new ManualLater();
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger logger = (Logger) LoggerFactory.getLogger(JsonTokenUsageFile.class);
        log.start();
        logger.addAppender(log);
        try (JsonTokenUsageFile store = JsonTokenUsageFile.open(file, later)) {
            store.track(() -> usage("key:ci", new TokenBucket(T0, 5)));
            // the directory gone (a volume unmounted): the temp file cannot be created, whoever the test runs as
            Files.delete(file);
            Files.delete(directory);
            store.changed();
            later.runAll();
            later.runAll();
            assertThat(log.list).filteredOn(e -> e.getFormattedMessage().contains("event=token-budget-write-failed")).hasSize(1);
            assertThat(later.delays).as("each failed write is retried a second later").hasSize(3);

            Files.createDirectories(directory);
            later.runAll();
            assertThat(Files.readString(file)).contains("[[" + T0 + ",5]]");
            assertThat(log.list).filteredOn(e -> e.getFormattedMessage().contains("event=token-budget-write-recovered")).hasSize(1);
        } finally {
            logger.detachAppender(log);
        }
    }

    @Test
    void bucketsThatHaveLeftTheWindow_areDroppedOnLoad() throws Exception {
        Path file = dir.resolve("budget.json");
        Files.writeString(file, "{\"version\":1,\"credentials\":{\"key:ci\":[[" + T0 + ",10],[" + (T0 + 2 * MINUTE) + ",20]],"
                + "\"key:old\":[[" + T0 + ",30]]}}");

        try (JsonTokenUsageFile store = JsonTokenUsageFile.open(file, new ManualLater())) {
            assertThat(store.load(T0 + MINUTE)).isEqualTo(usage("key:ci", new TokenBucket(T0 + 2 * MINUTE, 20)));
        }
    }

    @Test
    void aCorruptFile_stopsTheStart_namingTheFileAndWhatToDo_andIsLeftAsItWas() throws Exception {
        Path file = dir.resolve("budget.json");
        String corrupt = "{\"version\":1,\"credentials\":{\"key:ci\":[[" + T0 + ",1";
        Files.writeString(file, corrupt);

        assertThatThrownBy(() -> JsonTokenUsageFile.open(file, new ManualLater()))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("OMCP_TOKEN_BUDGET_FILE " + file + " is not valid JSON")
                .hasMessageContaining("fresh daily budget")
                .hasMessageContaining("move it away to start every credential from zero");
        assertThat(Files.readString(file)).isEqualTo(corrupt);
    }

    @Test
    void aFileOfAnotherShape_orWithAnInvalidBucket_stopsTheStart() throws Exception {
        Path file = dir.resolve("budget.json");
        for (String content : List.of("[]", "{\"credentials\":{}}", "{\"version\":2,\"credentials\":{}}",
                "{\"version\":1,\"credentials\":{\"key:ci\":[[1,0]]}}", "{\"version\":1,\"credentials\":{\"key:ci\":[[1.5,3]]}}",
                "{\"version\":1,\"credentials\":{\"key:ci\":[[\"1\",3]]}}", "{\"version\":1,\"credentials\":{\"key:ci\":{}}}")) {
            Files.writeString(file, content);
            assertThatThrownBy(() -> JsonTokenUsageFile.open(file, new ManualLater())).as(content)
                    .isInstanceOf(IOException.class).hasMessageStartingWith("OMCP_TOKEN_BUDGET_FILE " + file + " ");
        }
    }

    @Test
    void aDirectory_orALink_isRefused() throws Exception {
        Path directory = Files.createDirectories(dir.resolve("budget.json"));
        assertThatThrownBy(() -> JsonTokenUsageFile.open(directory, new ManualLater())).isInstanceOf(IOException.class)
                .hasMessageContaining("is a directory");

        Path target = Files.writeString(dir.resolve("target.json"), "{\"version\":1,\"credentials\":{}}");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), target);
        assertThatThrownBy(() -> JsonTokenUsageFile.open(link, new ManualLater())).isInstanceOf(IOException.class)
                .hasMessageContaining("symbolic link");
    }

    @Test
    void theWriterThread_writesOnItsOwn() throws Exception {
        Path file = dir.resolve("budget.json");
        try (JsonTokenUsageFile store = JsonTokenUsageFile.open(file)) {
            store.track(() -> usage("key:ci", new TokenBucket(T0, 3)));
            store.changed();
        }
        // close wrote it at the latest
        assertThat(Files.readString(file)).contains("[[" + T0 + ",3]]");
    }
}
