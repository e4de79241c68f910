package dev.omcp.app.access;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omcp.app.wiring.StartRefusedException;
import dev.omcp.core.analysis.health.HealthSignal;
import dev.omcp.testkit.time.ManualClock;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 4 item 3: health thresholds configurable in the sources file and through the API; a change
 * made through the API is written to the file and survives a restart; an invalid block refuses the
 * start with every reason.
 */
class HealthThresholdsFileIT {
    @TempDir
    Path dir;

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private TestGateway gateway;

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
    }

    private Path sourcesFile(String health) throws IOException {
        return Files.writeString(dir.resolve("sources.yaml"), """
                sources:
                  - name: prometheus
                    type: prometheus
                    url: http://127.0.0.1:1
                    auth: {type: bearer, token: "${OMCP_IT_PROM_TOKEN}"}
                """ + health);
    }

    private Map<String, String> env(Path sources) {
        Map<String, String> env = new HashMap<>(ManagementUsers.basicMode(dir));
        env.put("CONFIG_PATH", sources.toString());
        env.put("OMCP_ALLOW_PRIVATE_BACKENDS", "true");
        env.put("OMCP_IT_PROM_TOKEN", "secret-token-from-env");
        env.put("OMCP_IT_P99_MS", "250");
        return env;
    }

    private TestGateway start(Map<String, String> env) {
        gateway = TestGateway.start(env, clock);
        return gateway;
    }

    private void restart(Map<String, String> env) {
        gateway.close();
        gateway = null;
        start(env);
    }

    @Test
    void thresholdsFromTheSourcesFile_areInForceAtStart_andChangesAreSaidToPersist() throws IOException {
        start(env(sourcesFile("""
                health:
                  thresholds:
                    error_rate: {degraded: 0.02, critical: 0.1}
                    latency_p99:
                      degraded: ${OMCP_IT_P99_MS}
                      critical: 1000
                    memory: {enabled: false}
                """)));
        Browser olivia = ManagementUsers.login(gateway, "olivia");

        JsonNode shown = olivia.get("/api/health/thresholds").json();

        assertThat(shown.path("persisted").asBoolean()).isTrue();
        assertThat(shown.path("thresholds").path("error_rate").path("critical").asDouble()).isEqualTo(0.1);
        assertThat(shown.path("thresholds").path("latency_p99").path("degraded").asDouble()).isEqualTo(250);
        assertThat(shown.path("thresholds").path("memory").path("enabled").asBoolean()).isFalse();
        // what every tool reads
        assertThat(gateway.assembly().toolkit().thresholds().of(HealthSignal.LATENCY_P99).orElseThrow().critical()).isEqualTo(1000);
        assertThat(gateway.assembly().toolkit().thresholds().of(HealthSignal.MEMORY)).isEmpty();
        JsonNode settings = olivia.get("/api/settings").json();
        assertThat(settings.path("persisted").asBoolean()).isTrue();
        assertThat(settings.path("note").asText()).contains("written to the sources file sources.yaml").doesNotContain(dir.toString());
    }

    @Test
    void aChangeThroughTheApi_isWrittenToTheFile_keepsItsVariables_andSurvivesARestart() throws IOException {
        Path file = sourcesFile("""
                health:
                  thresholds:
                    latency_p99:
                      degraded: ${OMCP_IT_P99_MS}
                """);
        Map<String, String> env = env(file);
        start(env);
        Browser olivia = ManagementUsers.login(gateway, "olivia");

        Browser.Reply changed = olivia.send("PUT", "/api/health/thresholds",
                "{\"latency_p99\": {\"degraded\": 250, \"critical\": 900}, \"cpu\": {\"enabled\": false}}");

        assertThat(changed.status()).as(changed.body()).isEqualTo(200);
        assertThat(changed.json().path("persisted").asBoolean()).isTrue();
        String written = Files.readString(file);
        assertThat(written).contains("degraded: ${OMCP_IT_P99_MS}", "critical: 900", "token: ${OMCP_IT_PROM_TOKEN}")
                .doesNotContain("secret-token-from-env");

        restart(env);
        Browser again = ManagementUsers.login(gateway, "olivia");
        JsonNode after = again.get("/api/health/thresholds").json().path("thresholds");
        assertThat(after.path("latency_p99").path("critical").asDouble()).isEqualTo(900);
        assertThat(after.path("latency_p99").path("degraded").asDouble()).isEqualTo(250);
        assertThat(after.path("cpu").path("enabled").asBoolean()).isFalse();

        // the settings route writes to the same block; an empty object restores the defaults and removes it
        Browser.Reply reset = again.send("PUT", "/api/settings", "{\"healthThresholds\": {}}");
        assertThat(reset.status()).as(reset.body()).isEqualTo(200);
        assertThat(reset.json().path("persisted").asBoolean()).isTrue();
        assertThat(Files.readString(file)).doesNotContain("health:").contains("token: ${OMCP_IT_PROM_TOKEN}");
        restart(env);
        assertThat(ManagementUsers.login(gateway, "olivia").get("/api/health/thresholds").json().path("thresholds")
                .path("latency_p99").path("critical").asDouble()).isEqualTo(2000);
    }

    @Test
    void aVariableThatEqualsTheDefault_staysInTheFile_whenAnotherSignalChanges() throws IOException {
        // the shipped default 500 written as a variable's default, so that a deployment can set it
        Path file = sourcesFile("""
                health:
                  thresholds:
                    latency_p99:
                      degraded: ${OMCP_IT_P99_DEGRADED_MS:-500}
                """);
        Map<String, String> env = env(file);
        start(env);
        Browser olivia = ManagementUsers.login(gateway, "olivia");

        Browser.Reply changed = olivia.send("PUT", "/api/health/thresholds", "{\"cpu\": {\"critical\": 0.99}}");

        assertThat(changed.status()).as(changed.body()).isEqualTo(200);
        assertThat(Files.readString(file)).contains("degraded: ${OMCP_IT_P99_DEGRADED_MS:-500}", "critical: 0.99");
        // the deployment now sets the variable: it still steers the threshold
        env.put("OMCP_IT_P99_DEGRADED_MS", "300");
        restart(env);
        JsonNode after = ManagementUsers.login(gateway, "olivia").get("/api/health/thresholds").json().path("thresholds");
        assertThat(after.path("latency_p99").path("degraded").asDouble()).isEqualTo(300);
        assertThat(after.path("cpu").path("critical").asDouble()).isEqualTo(0.99);
    }

    @Test
    void whenTheFileCannotBeWritten_theChangeIsRefusedWith503_andNothingChanges() throws IOException {
        Path file = sourcesFile("");
        start(env(file));
        Browser olivia = ManagementUsers.login(gateway, "olivia");
        // a directory where the file was: the atomic rename over it fails, even for root
        Files.delete(file);
        Files.createDirectories(file.resolve("in-the-way"));

        Browser.Reply refused = olivia.send("PUT", "/api/health/thresholds", "{\"cpu\": {\"critical\": 0.99}}");

        assertThat(refused.status()).as(refused.body()).isEqualTo(503);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_SETTINGS_NOT_PERSISTED");
        assertThat(refused.json().path("error").asText()).contains("could not be written to the sources file sources.yaml, "
                + "nothing changed").doesNotContain(dir.toString());
        assertThat(gateway.assembly().toolkit().thresholds().of(HealthSignal.CPU).orElseThrow().critical()).isEqualTo(0.95);
    }

    @Test
    void whileAChangeWaitsForTheFilesLock_readsAnswerAtOnce() throws Exception {
        Path file = sourcesFile("");
        start(env(file));
        Browser olivia = ManagementUsers.login(gateway, "olivia");
        Browser reader = ManagementUsers.login(gateway, "olivia"); // a browser of its own: a Browser is not shared between threads
        ExecutorService pool = Executors.newFixedThreadPool(2);
        // another writer of the file (in this JVM the gateway's lock attempt meets it as an overlapping lock, and waits)
        Path lockFile = dir.resolve("sources.yaml.lock");
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock held = channel.lock()) {
            Future<Browser.Reply> change = pool.submit(() -> olivia.send("PUT", "/api/health/thresholds",
                    "{\"cpu\": {\"critical\": 0.99}}"));
            Thread.sleep(500);
            assertThat(change).as("the change waits for the file's lock").isNotDone();

            Future<Browser.Reply> settings = pool.submit(() -> reader.get("/api/settings"));
            Browser.Reply read = settings.get(3, TimeUnit.SECONDS);
            assertThat(read.status()).isEqualTo(200);
            assertThat(read.json().path("persisted").asBoolean()).isTrue();
            Browser.Reply thresholds = pool.submit(() -> reader.get("/api/health/thresholds")).get(3, TimeUnit.SECONDS);
            assertThat(thresholds.json().path("thresholds").path("cpu").path("critical").asDouble()).as("still the value in force")
                    .isEqualTo(0.95);
            assertThat(change).isNotDone();
            held.release();
            assertThat(change.get(15, TimeUnit.SECONDS).status()).isEqualTo(200);
        } finally {
            pool.shutdownNow();
        }
        assertThat(Files.readString(file)).contains("critical: 0.99");
    }

    @Test
    void aFileDeletedWhileRunning_refusesAThresholdChange_likeASourceChange_insteadOfKeepingItInMemory() throws IOException {
        Path file = sourcesFile("");
        start(env(file));
        Browser olivia = ManagementUsers.login(gateway, "olivia");
        Files.delete(file);

        Browser.Reply refused = olivia.send("PUT", "/api/health/thresholds", "{\"cpu\": {\"critical\": 0.99}}");

        assertThat(refused.status()).as(refused.body()).isEqualTo(503);
        assertThat(refused.json().path("code").asText()).isEqualTo("OMCP_SETTINGS_NOT_PERSISTED");
        assertThat(refused.json().path("error").asText()).contains("the sources file was deleted since this gateway read it",
                "put the file back and restart").doesNotContain(dir.toString());
        assertThat(gateway.assembly().toolkit().thresholds().of(HealthSignal.CPU).orElseThrow().critical()).isEqualTo(0.95);
        JsonNode settings = olivia.get("/api/settings").json();
        assertThat(settings.path("persisted").asBoolean()).isTrue();
        assertThat(settings.path("note").asText()).contains("deleted since this gateway read it");
        Browser.Reply source = olivia.send("POST", "/api/sources",
                "{\"name\": \"loki\", \"type\": \"loki\", \"url\": \"http://127.0.0.1:2\"}");
        assertThat(source.status()).as(source.body()).isEqualTo(503);
        assertThat(source.body()).contains("the sources file was deleted since this gateway read it");
        assertThat(file).doesNotExist();
    }

    @Test
    void anInvalidBlock_refusesTheStart_namingEveryViolationWithItsPathInTheFile() throws IOException {
        Map<String, String> env = env(sourcesFile("""
                health:
                  thresholds:
                    cpu: {degraded: 0.9, critical: 0.5}
                    latency_p99: {critical: "slow"}
                    temperature: {critical: 40}
                """));

        assertThatThrownBy(() -> start(env)).isInstanceOf(StartRefusedException.class)
                .hasMessageStartingWith("the sources file's health: thresholds: block is invalid, fix it and start again: ")
                .hasMessageContaining("health.thresholds.cpu.critical: 0.5 must be greater than degraded (0.9)")
                .hasMessageContaining("health.thresholds.latency_p99.critical: must be a number")
                .hasMessageContaining("health.thresholds.temperature: unknown signal");
    }

    @Test
    void anEnabledFromAVariable_switchesTheSignalAtStart_andAChangeThroughTheApiKeepsTheVariable() throws IOException {
        Path file = sourcesFile("""
                health:
                  thresholds:
                    memory: {enabled: "${OMCP_IT_MEMORY_ON}"}
                    cpu: {enabled: "${OMCP_IT_CPU_ON:-yes}", critical: 0.9}
                """);
        Map<String, String> env = env(file);
        env.put("OMCP_IT_MEMORY_ON", "Off");
        start(env);
        assertThat(gateway.assembly().toolkit().thresholds().of(HealthSignal.MEMORY)).isEmpty();
        assertThat(gateway.assembly().toolkit().thresholds().of(HealthSignal.CPU).orElseThrow().critical()).isEqualTo(0.9);

        Browser.Reply changed = ManagementUsers.login(gateway, "olivia").send("PUT", "/api/health/thresholds",
                "{\"memory\": {\"enabled\": false}, \"cpu\": {\"critical\": 0.97}}");

        assertThat(changed.status()).as(changed.body()).isEqualTo(200);
        assertThat(Files.readString(file)).contains("enabled: ${OMCP_IT_MEMORY_ON}", "enabled: ${OMCP_IT_CPU_ON:-yes}",
                "critical: 0.97");
        // the variables still switch the signals at the next start
        env.put("OMCP_IT_MEMORY_ON", "on");
        env.put("OMCP_IT_CPU_ON", "no");
        restart(env);
        assertThat(gateway.assembly().toolkit().thresholds().of(HealthSignal.MEMORY)).isPresent();
        assertThat(gateway.assembly().toolkit().thresholds().of(HealthSignal.CPU)).isEmpty();
    }

    @Test
    void anEnabledWhoseVariableGivesNoState_refusesTheStart_namingThePathAndTheVariable_andTheFileIsKept() throws IOException {
        Path file = sourcesFile("""
                health:
                  thresholds:
                    memory: {enabled: "${OMCP_IT_MEMORY_UNSET}"}
                    cpu: {enabled: "${OMCP_IT_CPU_WORDS}"}
                """);
        String before = Files.readString(file);
        Map<String, String> env = env(file);
        env.put("OMCP_IT_CPU_WORDS", "hunter2-value");

        assertThatThrownBy(() -> start(env)).isInstanceOf(StartRefusedException.class)
                .hasMessageStartingWith("the sources file's health: thresholds: block is invalid, fix it and start again: ")
                .hasMessageContaining("health.thresholds.memory.enabled: ${OMCP_IT_MEMORY_UNSET} gives neither true nor false: "
                        + "OMCP_IT_MEMORY_UNSET is not set; set it to true or false (yes/no and on/off work too), or give a default: "
                        + "${OMCP_IT_MEMORY_UNSET:-true}")
                .hasMessageContaining("health.thresholds.cpu.enabled: ${OMCP_IT_CPU_WORDS} gives 13 characters that are neither "
                        + "true nor false; set OMCP_IT_CPU_WORDS to true or false")
                .message().doesNotContain("hunter2");
        assertThat(Files.readString(file)).isEqualTo(before);
    }

    @Test
    void aBlockOfTheWrongShape_refusesTheStartToo() throws IOException {
        Map<String, String> env = env(sourcesFile("""
                health:
                  threshold:
                    cpu: {critical: 0.9}
                """));

        assertThatThrownBy(() -> start(env)).isInstanceOf(StartRefusedException.class)
                .hasMessageContaining("health.threshold: unknown key; the health block holds 'thresholds' only");
    }

    @Test
    void withoutASourcesFile_changesApplyUntilRestart_andTheAnswerSaysSo() {
        Map<String, String> env = new HashMap<>(ManagementUsers.basicMode(dir));
        Path missing = dir.resolve("config").resolve("sources.yaml");
        env.put("CONFIG_PATH", missing.toString());
        start(env);
        Browser olivia = ManagementUsers.login(gateway, "olivia");

        Browser.Reply changed = olivia.send("PUT", "/api/health/thresholds", "{\"cpu\": {\"critical\": 0.99}}");

        assertThat(changed.status()).isEqualTo(200);
        assertThat(changed.json().path("persisted").asBoolean()).isFalse();
        assertThat(olivia.get("/api/health/thresholds").json().path("persisted").asBoolean()).isFalse();
        assertThat(olivia.get("/api/settings").json().path("note").asText()).contains("last until the gateway restarts",
                "no sources file is in use");
        assertThat(gateway.assembly().toolkit().thresholds().of(HealthSignal.CPU).orElseThrow().critical()).isEqualTo(0.99);
        // a file holding only thresholds would hide environment sources at the next start: none is created
        assertThat(missing).doesNotExist();
    }
}
