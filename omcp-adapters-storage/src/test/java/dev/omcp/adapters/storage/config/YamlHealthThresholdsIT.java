package dev.omcp.adapters.storage.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.ports.settings.HealthThresholdsStore;
import dev.omcp.ports.settings.SettingsStoreException;
import dev.omcp.ports.settings.StoredThresholds;
import dev.omcp.ports.sources.SourceStoreException;
import dev.omcp.ports.sources.SourcesDocument;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code health: thresholds:} block of the sources file on a real file system: read, checked for shape, written back. */
class YamlHealthThresholdsIT {
    @TempDir
    Path dir;

    private static final Map<String, String> ENV = Map.of("PROM_TOKEN", "tok-from-env", "ERR_DEGRADED", "0.02", "CPU_OFF", "false");

    private static final String FILE = """
            sources:
              - name: prom
                type: prometheus
                url: https://prom.example.com
                auth: {type: bearer, token: "${PROM_TOKEN}"}
            plugins:
              - {name: tempo, version: 1.2.0}
            health:
              thresholds:
                error_rate: {degraded: "${ERR_DEGRADED}", critical: 0.1}
                latency_p99:
                  degraded: ${P99_DEGRADED_MS:-300}
                  critical: 1200
                  weight: 3
                memory: {enabled: false}
            """;

    private YamlSourceStore store(Path file) {
        return new YamlSourceStore(Optional.ofNullable(file), dir, ENV, List.of());
    }

    private Path write(String yaml) throws Exception {
        Path file = dir.resolve("sources.yaml");
        Files.writeString(file, yaml);
        return file;
    }

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    @Test
    void theBlockIsReadAsJson_andAVariableThatHoldsANumberBecomesThatNumber() throws Exception {
        SourcesDocument document = store(write(FILE)).load();

        assertThat(document.problems()).isEmpty();
        assertThat(document.sources()).hasSize(1);
        assertThat(document.healthThresholds()).isEqualTo(new StoredThresholds.Found(json("""
                {"error_rate": {"degraded": 0.02, "critical": 0.1},
                 "latency_p99": {"degraded": 300, "critical": 1200, "weight": 3},
                 "memory": {"enabled": false}}""")));
    }

    @Test
    void aQuotedNumberWithoutAVariable_staysAString_soTheCoreRefusesIt() throws Exception {
        SourcesDocument document = store(write("health:\n  thresholds:\n    cpu: {critical: '0.9'}\n")).load();

        assertThat(document.healthThresholds()).isEqualTo(new StoredThresholds.Found(json("{\"cpu\": {\"critical\": \"0.9\"}}")));
    }

    @Test
    void numbersInExponentForm_areNumbers_inTheBlockAndInASourcesSettings_whileQuotedOnesStayStrings() throws Exception {
        SourcesDocument document = store(write("""
                sources:
                  - {name: prom, type: prometheus, url: 'https://p.example.com', fetchConcurrency: 5e2, quoted: "5e2"}
                health:
                  thresholds:
                    latency_p99: {degraded: 5e2, critical: 1.0e3, weight: 2E0}
                    cpu: {degraded: .5, critical: 9.5e-1}
                """)).load();

        assertThat(document.problems()).isEmpty();
        StoredThresholds.Found found = (StoredThresholds.Found) document.healthThresholds();
        JsonObject latency = found.overrides().getJsonObject("latency_p99");
        assertThat(latency.getJsonNumber("degraded").doubleValue()).isEqualTo(500);
        assertThat(latency.getJsonNumber("critical").doubleValue()).isEqualTo(1000);
        assertThat(latency.getJsonNumber("weight").doubleValue()).isEqualTo(2);
        assertThat(found.overrides().getJsonObject("cpu").getJsonNumber("degraded").doubleValue()).isEqualTo(0.5);
        assertThat(found.overrides().getJsonObject("cpu").getJsonNumber("critical").doubleValue()).isEqualTo(0.95);
        JsonObject settings = document.sources().getFirst().config().settings();
        assertThat(settings.getJsonNumber("fetchConcurrency").intValue()).isEqualTo(500);
        assertThat(settings.getString("quoted")).as("quoting is how an operator says it is text").isEqualTo("5e2");
    }

    @Test
    void aStringThatLooksLikeANumber_isWrittenQuoted_soTheNextReadKeepsItAString() throws Exception {
        Path file = write("sources:\n  - {name: prom, type: prometheus, url: 'https://p.example.com', label: \"5e2\"}\n");
        YamlSourceStore store = store(file);
        store.save(store.load().sources());

        assertThat(store.load().sources().getFirst().config().settings().getString("label")).isEqualTo("5e2");
    }

    @Test
    void aVariableHoldingANumberInAnyFormTheFileAccepts_becomesThatNumber() throws Exception {
        YamlSourceStore store = new YamlSourceStore(Optional.of(write("""
                health:
                  thresholds:
                    latency_p99: {degraded: "${P99_D}", critical: "${P99_C}"}
                    cpu: {degraded: "${CPU_D}", critical: "${CPU_C}"}
                """)), dir, Map.of("P99_D", "5e2", "P99_C", " 1.0e3 ", "CPU_D", ".5", "CPU_C", "0.95"), List.of());

        assertThat(store.load().healthThresholds()).isEqualTo(new StoredThresholds.Found(json("""
                {"latency_p99": {"degraded": 5e2, "critical": 1.0e3}, "cpu": {"degraded": 0.5, "critical": 0.95}}""")));
    }

    @Test
    void aVariableThatIsUnset_orHoldsNoNumber_isNamed_withoutItsValue() throws Exception {
        YamlSourceStore store = new YamlSourceStore(Optional.of(write("""
                health:
                  thresholds:
                    latency_p99: {degraded: "${P99_UNSET}", critical: "${P99_WORDS}"}
                    cpu: {critical: "${CPU_EMPTY}", weight: "${CPU_WEIGHT:-}"}
                """)), dir, Map.of("P99_WORDS", "hunter2-secret", "CPU_EMPTY", ""), List.of());

        StoredThresholds read = store.load().healthThresholds();

        assertThat(read).isInstanceOfSatisfying(StoredThresholds.Unreadable.class, u -> {
            assertThat(u.errors()).containsExactly(
                    "health.thresholds.latency_p99.degraded: ${P99_UNSET} gives no number: P99_UNSET is not set; set it to a "
                            + "number (for example 0.9, 500 or 5e2; no unit), or give a default: ${P99_UNSET:-<number>}",
                    "health.thresholds.latency_p99.critical: ${P99_WORDS} gives 14 characters that are not a number; set "
                            + "P99_WORDS to a number (for example 0.9, 500 or 5e2; no unit)",
                    "health.thresholds.cpu.critical: ${CPU_EMPTY} gives an empty value; set CPU_EMPTY to a number (for "
                            + "example 0.9, 500 or 5e2; no unit)",
                    "health.thresholds.cpu.weight: ${CPU_WEIGHT:-} gives an empty value; set CPU_WEIGHT to a number (for "
                            + "example 0.9, 500 or 5e2; no unit)");
            assertThat(String.join("\n", u.errors())).doesNotContain("hunter2");
        });
    }

    @Test
    void anEnabledFromAVariable_switchesTheSignal_withTheSpellingsASourcesEnabledTakes() throws Exception {
        YamlSourceStore store = new YamlSourceStore(Optional.of(write("""
                health:
                  thresholds:
                    memory: {enabled: "${MEM_ON}"}
                    cpu: {enabled: "${CPU_ON}"}
                    latency_p99: {enabled: "${P99_ON:-off}", critical: 900}
                    error_rate: {enabled: "On"}
                    request_rate_drop: {enabled: oFF}
                """)), dir, Map.of("MEM_ON", "false", "CPU_ON", " Yes\n"), List.of());

        SourcesDocument document = store.load();

        assertThat(document.healthThresholds()).isEqualTo(new StoredThresholds.Found(json("""
                {"memory": {"enabled": false}, "cpu": {"enabled": true}, "latency_p99": {"enabled": false, "critical": 900},
                 "error_rate": {"enabled": true}, "request_rate_drop": {"enabled": false}}""")));
    }

    @Test
    void anEnabledThatGivesNoState_isRefusedWithItsPathAndVariable_neverItsValue_andTheFileIsLeftAsItWas() throws Exception {
        String text = """
                health:
                  thresholds:
                    memory: {enabled: "${MEM_UNSET}"}
                    cpu: {enabled: "${CPU_WORDS}"}
                    error_rate: {enabled: "${ERR_EMPTY}"}
                    latency_p99: {enabled: maybe}
                    request_rate_drop: {enabled: 1}
                """;
        Path file = write(text);
        YamlSourceStore store = new YamlSourceStore(Optional.of(file), dir, Map.of("CPU_WORDS", "hunter2-secret", "ERR_EMPTY", ""),
                List.of());

        StoredThresholds read = store.load().healthThresholds();

        String spellings = "true or false (yes/no and on/off work too)";
        assertThat(read).isInstanceOfSatisfying(StoredThresholds.Unreadable.class, u -> {
            assertThat(u.errors()).containsExactly(
                    "health.thresholds.memory.enabled: ${MEM_UNSET} gives neither true nor false: MEM_UNSET is not set; set it to "
                            + spellings + ", or give a default: ${MEM_UNSET:-true}",
                    "health.thresholds.cpu.enabled: ${CPU_WORDS} gives 14 characters that are neither true nor false; set CPU_WORDS "
                            + "to " + spellings,
                    "health.thresholds.error_rate.enabled: ${ERR_EMPTY} gives an empty value; set ERR_EMPTY to " + spellings,
                    "health.thresholds.latency_p99.enabled: 'maybe' is neither true nor false; write true or false (yes/no and "
                            + "on/off work too, in any case), or a ${VAR} that gives one",
                    "health.thresholds.request_rate_drop.enabled: the number 1 is neither true nor false; write true or false "
                            + "(yes/no and on/off work too, in any case), or a ${VAR} that gives one");
            assertThat(String.join("\n", u.errors())).doesNotContain("hunter2");
        });
        assertThat(Files.readString(file)).isEqualTo(text);
    }

    @Test
    void anEnabledFromAVariable_isWrittenBackAsTheVariable_untilTheApiSwitchesTheSignal() throws Exception {
        Path file = write("""
                sources: []
                health:
                  thresholds:
                    memory: {enabled: "${MEM_ON}"}
                    cpu: {enabled: "${CPU_ON:-yes}", critical: 0.9}
                """);
        YamlSourceStore store = new YamlSourceStore(Optional.of(file), dir, Map.of("MEM_ON", "no"), List.of());
        store.load();

        // the API changed cpu's critical; both signals are in the state their variables give
        store.thresholds().save(json("{\"memory\": {\"enabled\": false}, \"cpu\": {\"enabled\": true, \"critical\": 0.95}}"));

        assertThat(Files.readString(file)).contains("enabled: ${MEM_ON}", "enabled: ${CPU_ON:-yes}", "critical: 0.95");
        SourcesDocument restarted = new YamlSourceStore(Optional.of(file), dir, Map.of("MEM_ON", "on"), List.of()).load();
        // the next start follows the variable again
        assertThat(restarted.healthThresholds()).isEqualTo(new StoredThresholds.Found(json("""
                {"memory": {"enabled": true}, "cpu": {"enabled": true, "critical": 0.95}}""")));

        // switching memory on through the API is a change its variable does not say: the state is written out
        store.thresholds().save(json("{\"memory\": {\"enabled\": true}, \"cpu\": {\"enabled\": true, \"critical\": 0.95}}"));
        assertThat(Files.readString(file)).contains("enabled: true", "enabled: ${CPU_ON:-yes}").doesNotContain("MEM_ON");
    }

    @Test
    void aFileDeletedWhileTheGatewayRuns_refusesAThresholdChange_asItRefusesASourceChange() throws Exception {
        Path file = write(FILE);
        YamlSourceStore store = store(file);
        SourcesDocument loaded = store.load();
        Files.delete(file);
        HealthThresholdsStore thresholds = store.thresholds();

        // the operator configured a file: a change is not quietly kept in memory only
        assertThat(thresholds.persistent()).isTrue();
        assertThat(thresholds.describe()).contains("sources.yaml", "deleted");
        assertThatThrownBy(() -> thresholds.save(json("{\"cpu\": {\"critical\": 0.99}}"))).isInstanceOf(SettingsStoreException.class)
                .hasMessageContaining("the sources file was deleted").hasMessageContaining("nothing was written");
        assertThatThrownBy(() -> store.save(loaded.sources())).isInstanceOf(SourceStoreException.class)
                .hasMessageContaining("the sources file was deleted").hasMessageContaining("nothing was written");
        assertThat(file).doesNotExist();
    }

    @Test
    void aFileWithoutTheBlock_orWithAnEmptyOne_hasNoThresholds() throws Exception {
        assertThat(store(write("sources: []\n")).load().healthThresholds()).isEqualTo(StoredThresholds.absent());
        assertThat(store(write("sources: []\nhealth:\n")).load().healthThresholds()).isEqualTo(StoredThresholds.absent());
        assertThat(store(write("health: {thresholds: }\n")).load().healthThresholds()).isEqualTo(StoredThresholds.absent());
        assertThat(store(null).load().healthThresholds()).isEqualTo(StoredThresholds.absent());
    }

    @Test
    void problemsOfShape_areAllListedWithTheirPaths() throws Exception {
        assertThat(store(write("health: [error_rate]\n")).load().healthThresholds()).isEqualTo(new StoredThresholds.Unreadable(List.of(
                "health: must be a mapping with a 'thresholds' mapping of signal to {degraded, critical, weight, enabled}")));

        StoredThresholds several = store(write("""
                health:
                  colour: red
                  thresholds:
                    cpu: {degraded: 2026-01-01, critical: 0.9}
                    memory: {weight: !!binary aGVsbG8=}
                """)).load().healthThresholds();
        assertThat(several).isInstanceOfSatisfying(StoredThresholds.Unreadable.class, u -> assertThat(u.errors()).containsExactly(
                "health.colour: unknown key; the health block holds 'thresholds' only",
                "health.thresholds.cpu.degraded: 'health.thresholds.cpu.degraded' has a value of an unsupported YAML type "
                        + "(dates and binary are not settings)",
                "health.thresholds.memory.weight: 'health.thresholds.memory.weight' has a value of an unsupported YAML type "
                        + "(dates and binary are not settings)"));

        assertThat(store(write("health:\n  thresholds: [cpu]\n")).load().healthThresholds()).isEqualTo(new StoredThresholds.Unreadable(
                List.of("health.thresholds: must be a mapping of signal to {degraded, critical, weight, enabled}")));
    }

    @Test
    void keysInProblems_areQuotedOnOneLine_soTheStartRefusalCannotForgeALine() throws Exception {
        StoredThresholds odd = store(write("""
                health:
                  "colour\\nevent=forged": red
                  thresholds:
                    cpu: {"when\\u001b[2J": 2026-01-01}
                """)).load().healthThresholds();

        assertThat(odd).isInstanceOfSatisfying(StoredThresholds.Unreadable.class, u -> assertThat(u.errors()).containsExactly(
                "health.colour?event=forged: unknown key; the health block holds 'thresholds' only",
                "health.thresholds.cpu.when?[2J: 'health.thresholds.cpu.when?[2J' has a value of an unsupported YAML type "
                        + "(dates and binary are not settings)"));
    }

    @Test
    void savingThresholds_rewritesOnlyTheBlock_andKeepsEveryVariableReference() throws Exception {
        Path file = write(FILE);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        YamlSourceStore store = store(file);
        store.load();
        HealthThresholdsStore thresholds = store.thresholds();
        assertThat(thresholds.persistent()).isTrue();
        assertThat(thresholds.describe()).isEqualTo("the sources file sources.yaml");

        // the API changed latency's critical; error_rate's degraded (from ${ERR_DEGRADED}) and memory are as they were
        thresholds.save(json("""
                {"error_rate": {"degraded": 0.02, "critical": 0.1},
                 "latency_p99": {"degraded": 300, "critical": 1500, "weight": 3},
                 "memory": {"enabled": false}}"""));

        String written = Files.readString(file);
        assertThat(written).contains("${PROM_TOKEN}", "degraded: ${ERR_DEGRADED}", "degraded: ${P99_DEGRADED_MS:-300}",
                "critical: 1500", "name: tempo").doesNotContain("tok-from-env", "1200");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-r-----");
        try (var files = Files.list(dir)) {
            // no temp file left; the lock file against other processes stays (SourcesFileLockIT)
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("sources.yaml", "sources.yaml.lock");
        }
        SourcesDocument reread = store.load();
        assertThat(reread.healthThresholds()).isEqualTo(new StoredThresholds.Found(json("""
                {"error_rate": {"degraded": 0.02, "critical": 0.1},
                 "latency_p99": {"degraded": 300, "critical": 1500, "weight": 3},
                 "memory": {"enabled": false}}""")));
        assertThat(reread.sources().getFirst().config().settings().getJsonObject("auth").getString("token")).isEqualTo("tok-from-env");

        // a later change of the sources keeps the block as it is now
        store.save(reread.sources());
        assertThat(store.load().healthThresholds()).isEqualTo(reread.healthThresholds());
        assertThat(Files.readString(file)).contains("degraded: ${ERR_DEGRADED}");

        // back to the defaults: the block goes away, the rest stays
        thresholds.save(JsonObject.EMPTY_JSON_OBJECT);
        assertThat(Files.readString(file)).doesNotContain("health", "thresholds").contains("${PROM_TOKEN}", "name: tempo");
        assertThat(store.load().healthThresholds()).isEqualTo(StoredThresholds.absent());
    }

    @Test
    void aValueThatNoLongerMatchesItsVariable_isWrittenAsTheNumber() throws Exception {
        Path file = write(FILE);
        YamlSourceStore store = store(file);
        store.load();

        store.thresholds().save(json("{\"error_rate\": {\"degraded\": 0.03}}"));

        assertThat(Files.readString(file)).contains("degraded: 0.03").doesNotContain("ERR_DEGRADED");
    }

    @Test
    void withoutAFile_changesDoNotPersist_andNoFileIsCreated() throws Exception {
        YamlSourceStore store = store(null);
        store.load();
        HealthThresholdsStore thresholds = store.thresholds();

        assertThat(thresholds.persistent()).isFalse();
        assertThat(thresholds.describe()).contains("no sources file is in use", "CONFIG_PATH");
        assertThatThrownBy(() -> thresholds.save(json("{\"cpu\": {\"critical\": 0.9}}"))).isInstanceOf(SettingsStoreException.class);
        assertThat(dir.resolve("config")).doesNotExist();
    }

    @Test
    void aFileThatCouldNotBeRead_isNeverOverwrittenByAThresholdChange() throws Exception {
        Path file = write("sources:\n  - name: [unclosed\n");
        YamlSourceStore store = store(file);
        store.load();
        HealthThresholdsStore thresholds = store.thresholds();

        assertThat(thresholds.persistent()).isFalse();
        assertThat(thresholds.describe()).contains("could not be read at start", "fix it and restart");
        assertThatThrownBy(() -> thresholds.save(json("{\"cpu\": {\"critical\": 0.9}}"))).isInstanceOf(SettingsStoreException.class);
        assertThat(Files.readString(file)).isEqualTo("sources:\n  - name: [unclosed\n");
    }

    @Test
    void twoGatewaysSharingTheFile_cannotOverwriteEachOthersThresholdsUnseen() throws Exception {
        Path file = write(FILE);
        YamlSourceStore first = store(file);
        YamlSourceStore second = store(file);
        first.load();
        second.load();

        first.thresholds().save(json("{\"cpu\": {\"critical\": 0.99}}"));

        // the second still holds the file as it read it: writing its own change would drop the first one's
        assertThatThrownBy(() -> second.thresholds().save(json("{\"memory\": {\"enabled\": false}}")))
                .isInstanceOf(SettingsStoreException.class).hasMessageContaining("changed by another process")
                .hasMessageContaining("restart the gateway");
        assertThat(second.load().healthThresholds()).isEqualTo(new StoredThresholds.Found(json("{\"cpu\": {\"critical\": 0.99}}")));
    }

    @Test
    void anUnwritableDirectory_failsTheSaveWithTheReason_andKeepsTheFile() throws Exception {
        Path sub = Files.createDirectory(dir.resolve("ro"));
        Path file = sub.resolve("sources.yaml");
        Files.writeString(file, "sources: []\n");
        YamlSourceStore store = new YamlSourceStore(Optional.of(file), dir, ENV, List.of());
        store.load();
        Files.setPosixFilePermissions(sub, PosixFilePermissions.fromString("r-x------"));
        try {
            if (Files.isWritable(sub)) {
                return; // running as root: permissions do not stop writes, nothing to check here
            }
            assertThatThrownBy(() -> store.thresholds().save(json("{\"cpu\": {\"critical\": 0.9}}")))
                    .isInstanceOf(SettingsStoreException.class).hasMessageContaining("cannot be written");
            assertThat(Files.readString(file)).isEqualTo("sources: []\n");
        } finally {
            Files.setPosixFilePermissions(sub, PosixFilePermissions.fromString("rwx------"));
        }
    }
}
