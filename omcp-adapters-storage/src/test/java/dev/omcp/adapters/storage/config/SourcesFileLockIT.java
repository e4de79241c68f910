package dev.omcp.adapters.storage.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.settings.HealthThresholdsStore;
import dev.omcp.ports.settings.SettingsStoreException;
import dev.omcp.ports.sources.SourceDefinition;
import dev.omcp.ports.sources.SourceStoreException;
import dev.omcp.sdk.connector.SourceConfig;
import jakarta.json.Json;
import jakarta.json.JsonValue;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Writers of one sources file in one JVM and in two, on a real file system. */
class SourcesFileLockIT {
    private static final String ORIGINAL = "sources:\n  - {name: prom, type: prometheus, url: 'https://p.example.com'}\n";

    @TempDir
    Path dir;

    private Path sourcesFile() throws Exception {
        return Files.writeString(dir.resolve("sources.yaml"), ORIGINAL);
    }

    private YamlSourceStore store(Path file, Duration maxWait) {
        return new YamlSourceStore(Optional.of(file), dir, Map.of(), List.of(), maxWait);
    }

    private static List<SourceDefinition> plus(List<SourceDefinition> sources, String name) {
        List<SourceDefinition> next = new ArrayList<>(sources);
        next.add(new SourceDefinition(new SourceConfig(name, "loki", "https://" + name + ".example.com", "", JsonValue.EMPTY_JSON_OBJECT),
                true, SourceDefinition.Origin.API));
        return next;
    }

    @Test
    void aWriteWaitsWhileAnotherStoreOfThisJvmHoldsTheLock_insteadOfFailingOnTheOverlappingLock() throws Exception {
        Path file = sourcesFile();
        YamlSourceStore store = store(file, Duration.ofSeconds(30));
        List<SourceDefinition> loaded = store.load().sources();
        // what another store of the same file does while it writes: its own channel on the lock file
        SourcesFileLock.Held other = new SourcesFileLock(file, Duration.ofSeconds(1)).acquire();
        CompletableFuture<Void> save;
        try {
            save = CompletableFuture.runAsync(() -> {
                try {
                    store.save(plus(loaded, "waited"));
                } catch (SourceStoreException e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(300);
            assertThat(save).as("the write waits for the lock").isNotDone();
            assertThat(Files.readString(file)).isEqualTo(ORIGINAL);
        } finally {
            other.close();
        }
        save.get(20, TimeUnit.SECONDS);
        assertThat(Files.readString(file)).contains("name: waited");
    }

    @Test
    void whileAWriteWaitsForTheFileLock_whetherChangesPersist_isAnsweredAtOnce() throws Exception {
        Path file = sourcesFile();
        YamlSourceStore store = store(file, Duration.ofSeconds(30));
        store.load();
        HealthThresholdsStore thresholds = store.thresholds();
        CompletableFuture<Void> save;
        try (SourcesFileLock.Held other = new SourcesFileLock(file, Duration.ofSeconds(1)).acquire()) {
            save = CompletableFuture.runAsync(() -> {
                try {
                    thresholds.save(Json.createObjectBuilder().add("cpu", Json.createObjectBuilder().add("critical", 0.99)).build());
                } catch (SettingsStoreException e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(300);
            assertThat(save).as("the write waits for the lock, holding the store").isNotDone();

            // what GET /api/settings and GET /api/health/thresholds ask: answered from memory, not after the write
            // on a thread of its own: the common pool may have just the one thread, which the save holds
            ExecutorService reader = Executors.newSingleThreadExecutor();
            try {
                Future<String> read = reader.submit(() -> thresholds.persistent() + " " + thresholds.describe());
                assertThat(read.get(2, TimeUnit.SECONDS)).isEqualTo("true the sources file sources.yaml");
            } finally {
                reader.shutdownNow();
            }
            assertThat(save).isNotDone();
        }
        save.get(20, TimeUnit.SECONDS);
        assertThat(Files.readString(file)).contains("critical: 0.99");
    }

    @Test
    void aLockHeldTooLong_failsTheWriteSayingWhatToDo_andKeepsTheFile() throws Exception {
        Path file = sourcesFile();
        YamlSourceStore store = store(file, Duration.ofMillis(300));
        List<SourceDefinition> loaded = store.load().sources();
        try (SourcesFileLock.Held other = new SourcesFileLock(file, Duration.ofSeconds(1)).acquire()) {
            assertThatThrownBy(() -> store.save(plus(loaded, "late"))).isInstanceOf(SourceStoreException.class)
                    .hasMessageContaining("held the lock on the sources file (sources.yaml.lock) for more than 300 ms")
                    .hasMessageContaining("nothing was written").hasMessageContaining("another gateway or tool")
                    .hasMessageNotContaining(dir.toString());
            assertThat(Files.readString(file)).isEqualTo(ORIGINAL);
        }
        // the refused write changed nothing: once the lock is free the same change goes through
        store.save(plus(loaded, "late"));
        assertThat(Files.readString(file)).contains("name: late");
    }

    @Test
    void aSecondJvmHoldingTheLock_keepsTheWriteOut_untilItEnds() throws Exception {
        Path file = sourcesFile();
        YamlSourceStore store = store(file, Duration.ofMillis(500));
        List<SourceDefinition> loaded = store.load().sources();
        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        Process holder = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), HoldFileLock.class.getName(),
                dir.resolve("sources.yaml.lock").toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            String line = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).get(60, TimeUnit.SECONDS);
            assertThat(line).as("the second JVM holds the lock").isEqualTo("locked");

            assertThatThrownBy(() -> store.save(plus(loaded, "blocked"))).isInstanceOf(SourceStoreException.class)
                    .hasMessageContaining("held the lock on the sources file");
            assertThat(Files.readString(file)).isEqualTo(ORIGINAL);

            holder.getOutputStream().close(); // the holder ends at the end of its input, and the system drops its lock
            assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
            store.save(plus(loaded, "blocked"));
            assertThat(Files.readString(file)).contains("name: blocked");
        } finally {
            holder.destroyForcibly();
            holder.waitFor(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aChangeAnotherStoreWrote_isNotOverwrittenByAStaleStore() throws Exception {
        Path file = sourcesFile();
        YamlSourceStore first = store(file, Duration.ofSeconds(5));
        YamlSourceStore second = store(file, Duration.ofSeconds(5));
        List<SourceDefinition> firstView = first.load().sources();
        List<SourceDefinition> secondView = second.load().sources();

        first.save(plus(firstView, "from-first"));
        String afterFirst = Files.readString(file);
        assertThatThrownBy(() -> second.save(plus(secondView, "from-second"))).isInstanceOf(SourceStoreException.class)
                .hasMessageContaining("changed by another process or by hand since this gateway read it")
                .hasMessageContaining("nothing was written").hasMessageContaining("restart the gateway");
        assertThat(Files.readString(file)).isEqualTo(afterFirst).contains("from-first").doesNotContain("from-second");
        // the store that wrote last still may write
        first.save(plus(firstView, "again"));
        assertThat(Files.readString(file)).contains("name: again");
    }

    @Test
    void anEditByHand_orAFileCreatedMeanwhile_isNotOverwritten() throws Exception {
        Path file = sourcesFile();
        YamlSourceStore store = store(file, Duration.ofSeconds(5));
        List<SourceDefinition> loaded = store.load().sources();
        String edited = ORIGINAL + "  - {name: by-hand, type: loki, url: 'https://l.example.com'}\n";
        Files.writeString(file, edited);
        assertThatThrownBy(() -> store.save(plus(loaded, "api"))).isInstanceOf(SourceStoreException.class)
                .hasMessageContaining("the sources file was changed");
        assertThat(Files.readString(file)).isEqualTo(edited);

        Path absent = dir.resolve("later.yaml");
        YamlSourceStore fromEnvironment = store(absent, Duration.ofSeconds(5));
        fromEnvironment.load();
        Files.writeString(absent, ORIGINAL);
        assertThatThrownBy(() -> fromEnvironment.save(plus(List.of(), "api"))).isInstanceOf(SourceStoreException.class)
                .hasMessageContaining("the sources file was created");
        assertThat(Files.readString(absent)).isEqualTo(ORIGINAL);
    }

    @Test
    void aLockFileThatIsASymbolicLink_isRefused_andWhatItPointsAtIsUntouched() throws Exception {
        Path file = sourcesFile();
        Path elsewhere = Files.writeString(dir.resolve("elsewhere.txt"), "keep me\n");
        Files.createSymbolicLink(dir.resolve("sources.yaml.lock"), elsewhere);
        YamlSourceStore store = store(file, Duration.ofSeconds(5));
        List<SourceDefinition> loaded = store.load().sources();
        assertThatThrownBy(() -> store.save(plus(loaded, "api"))).isInstanceOf(SourceStoreException.class)
                .hasMessageContaining("sources.yaml.lock").hasMessageContaining("symbolic link").hasMessageContaining("delete the link");
        assertThat(Files.readString(file)).isEqualTo(ORIGINAL);
        assertThat(Files.readString(elsewhere)).isEqualTo("keep me\n");
    }
}
