package dev.omcp.adapters.storage.config;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.spi.ILoggingEvent;
import dev.omcp.adapters.storage.CapturedLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gateway killed between creating its temp file and renaming it over the sources file leaves
 * {@code .sources-<digits>.tmp} behind (a whole copy of the file, secrets written out included):
 * the next start removes such files once they are old enough, and only those.
 */
class StaleTempFilesIT {
    @TempDir
    Path dir;

    @RegisterExtension
    final CapturedLog log = new CapturedLog(StaleTempFiles.class);

    private Path file() throws Exception {
        return Files.writeString(dir.resolve("sources.yaml"), "sources: []\n");
    }

    private Path left(String name, Duration age) throws Exception {
        Path temp = Files.writeString(dir.resolve(name), "sources:\n  - {name: half\n");
        Files.setLastModifiedTime(temp, FileTime.from(Instant.now().minus(age)));
        return temp;
    }

    private YamlSourceStore store(Path file) {
        return new YamlSourceStore(Optional.of(file), dir, Map.of(), List.of(), Duration.ofSeconds(30));
    }

    private List<String> removedLines() {
        return log.events().stream().map(ILoggingEvent::getFormattedMessage).filter(m -> m.startsWith("event=sources-temp-removed "))
                .toList();
    }

    @Test
    void oldTempFilesOfTheGateway_areRemovedAtStart_andEachIsLogged() throws Exception {
        Path file = file();
        Path crashed = left(".sources-8156093741256.tmp", Duration.ofHours(2));
        Path crashedToo = left(".sources-42.tmp", Duration.ofMinutes(11));
        Path fresh = left(".sources-77.tmp", Duration.ofSeconds(5));
        Path notOurs = left(".sources-backup.tmp", Duration.ofHours(2));
        Path other = left("sources-1.tmp", Duration.ofHours(2));
        Path aDirectory = Files.createDirectory(dir.resolve(".sources-5.tmp"));
        Files.setLastModifiedTime(aDirectory, FileTime.from(Instant.now().minus(Duration.ofHours(2))));

        store(file).load();

        assertThat(crashed).doesNotExist();
        assertThat(crashedToo).doesNotExist();
        assertThat(fresh).as("perhaps another gateway's write in progress").exists();
        assertThat(notOurs).exists();
        assertThat(other).exists();
        assertThat(aDirectory).exists();
        assertThat(file).hasContent("sources: []\n");
        assertThat(removedLines()).hasSize(2).anySatisfy(line -> assertThat(line).contains("file=.sources-8156093741256.tmp"))
                .anySatisfy(line -> assertThat(line).contains("file=.sources-42.tmp"))
                .allSatisfy(line -> assertThat(line).contains("dir=" + dir, "modified=", "left by a write that did not finish"));
    }

    @Test
    void theGatewayLoadsTwiceAtStart_butLooksOnce() throws Exception {
        Path file = file();
        YamlSourceStore store = store(file);
        store.load();
        Path later = left(".sources-9.tmp", Duration.ofHours(2));

        store.load();

        assertThat(later).as("only a start looks for leftovers").exists();
    }

    @Test
    void whileAnotherProcessHoldsTheFilesLock_nothingIsRemoved_andTheStartDoesNotWait() throws Exception {
        Path file = file();
        Path crashed = left(".sources-123.tmp", Duration.ofHours(2));
        try (SourcesFileLock.Held other = new SourcesFileLock(file, Duration.ofSeconds(1)).acquire()) {
            CompletableFuture<?> load = CompletableFuture.runAsync(() -> store(file).load());
            load.get(3, TimeUnit.SECONDS);
        }
        assertThat(crashed).exists();
        assertThat(removedLines()).isEmpty();
    }

    @Test
    void withNothingToRemove_noLockFileIsCreated() throws Exception {
        Path file = file();
        left(".sources-77.tmp", Duration.ofSeconds(5));

        store(file).load();
        new YamlSourceStore(Optional.of(dir.resolve("absent").resolve("sources.yaml")), dir, Map.of(), List.of()).load();

        assertThat(dir.resolve("sources.yaml.lock")).doesNotExist();
        assertThat(dir.resolve("absent")).doesNotExist();
    }
}
