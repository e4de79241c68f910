package dev.omcp.core.management;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import dev.omcp.core.analysis.health.HealthSignal;
import dev.omcp.core.analysis.health.HealthThresholds;
import dev.omcp.core.egress.EgressRules;
import dev.omcp.core.sources.SourceRegistry;
import dev.omcp.core.testing.CapturedLog;
import dev.omcp.core.tools.observability.Toolkit;
import dev.omcp.ports.connectors.ConnectorCatalog;
import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.settings.ManageSettings;
import dev.omcp.ports.settings.HealthThresholdsStore;
import dev.omcp.ports.settings.SettingsChange;
import dev.omcp.ports.settings.SettingsStoreException;
import dev.omcp.ports.settings.StoredThresholds;
import dev.omcp.ports.sources.SourceDefinition;
import dev.omcp.ports.sources.SourceStore;
import dev.omcp.ports.sources.SourcesDocument;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Health thresholds change at run time, validated with every violation listed; fixed settings stay fixed. */
class RuntimeSettingsTest {
    private static final Principal OPS = Principal.apiKey("ops", "");
    /** An API key id, a user name or an OIDC subject may hold anything, a quote too. */
    private static final Principal FORGER = Principal.apiKey("evil\" actor=\"admin", "");

    @RegisterExtension
    final CapturedLog log = new CapturedLog(RuntimeSettings.class);
    private final Toolkit toolkit = Toolkit.builder(emptyRegistry(), new ManualClock(Instant.parse("2026-03-01T10:00:00Z"))).build();
    private final RuntimeSettings settings = new RuntimeSettings(toolkit,
            Jsonp.object().add("authMode", "basic").add("toolDeadlineSeconds", 20).build());

    static SourceRegistry emptyRegistry() {
        ConnectorCatalog none = new ConnectorCatalog() {
            @Override
            public Optional<ConnectorType> find(String name) {
                return Optional.empty();
            }

            @Override
            public List<ConnectorType> all() {
                return List.of();
            }
        };
        SourceStore store = new SourceStore() {
            @Override
            public SourcesDocument load() {
                return SourcesDocument.empty();
            }

            @Override
            public void save(List<SourceDefinition> sources) {}

            @Override
            public String describe() {
                return "test";
            }
        };
        SourceRegistry registry = new SourceRegistry(none, source -> {
            throw new IllegalStateException("no connectors in this test");
        }, store, new EgressRules(false), host -> List.of(), Duration.ofSeconds(1), java.time.Clock.systemUTC());
        registry.start();
        return registry;
    }

    private static JsonObject json(String text) {
        return Jsonp.reader(new StringReader(text)).readObject();
    }

    @Test
    void theViewShowsTheThresholdsInForce_theFixedSettings_andThatChangesAreNotPersisted() {
        JsonObject view = settings.view(OPS);

        assertThat(view.getJsonObject("changeable").getJsonObject(ManageSettings.HEALTH_THRESHOLDS))
                .isEqualTo(HealthThresholds.defaults().toJson());
        assertThat(view.getJsonObject("fixed").getString("authMode")).isEqualTo("basic");
        assertThat(view.getBoolean("persisted")).isFalse();
    }

    /** A store that keeps what it was given, and fails on request. */
    static final class RecordingStore implements HealthThresholdsStore {
        final List<JsonObject> saved = new ArrayList<>();
        boolean failing;
        /** False until the sources file exists: the first change through /api/sources creates it. */
        boolean fileInUse = true;

        @Override
        public boolean persistent() {
            return fileInUse;
        }

        @Override
        public String describe() {
            return "the sources file sources.yaml";
        }

        @Override
        public void save(JsonObject overrides) throws SettingsStoreException {
            if (failing) {
                throw new SettingsStoreException("the sources file cannot be written (AccessDeniedException)");
            }
            saved.add(overrides);
        }
    }

    @Test
    void withASourcesFile_aChangeIsWrittenAsOverridesOfTheDefaults_beforeItTakesEffect() {
        RecordingStore store = new RecordingStore();
        RuntimeSettings persisted = new RuntimeSettings(toolkit, JsonObject.EMPTY_JSON_OBJECT, store);
        assertThat(persisted.view(OPS).getBoolean("persisted")).isTrue();
        assertThat(persisted.view(OPS).getString("note")).contains("written to the sources file sources.yaml");
        assertThat(persisted.persistent()).isTrue();

        SettingsChange change = persisted.replaceHealthThresholds(json("{\"error_rate\": {\"degraded\": 0.02}}"), OPS);

        assertThat(change).isInstanceOfSatisfying(SettingsChange.Applied.class, applied -> assertThat(applied.persisted()).isTrue());
        assertThat(store.saved).containsExactly(json("{\"error_rate\": {\"degraded\": 0.02}}"));
        assertThat(toolkit.thresholds().of(HealthSignal.ERROR_RATE).orElseThrow().degraded()).isEqualTo(0.02);

        // through the settings route too; an empty object restores the defaults and empties the block
        assertThat(persisted.change(json("{\"healthThresholds\": {}}"), OPS)).isInstanceOf(SettingsChange.Applied.class);
        assertThat(store.saved).last().isEqualTo(JsonObject.EMPTY_JSON_OBJECT);
        assertThat(toolkit.thresholds()).isEqualTo(HealthThresholds.defaults());
    }

    @Test
    void aFieldTheFileWroteThatStillHolds_isWrittenAgain_evenWhenItEqualsTheDefault() {
        RecordingStore store = new RecordingStore();
        // latency's degraded 500 is the shipped default, written in the file as ${P99_MS:-500}
        RuntimeSettings persisted = new RuntimeSettings(toolkit, JsonObject.EMPTY_JSON_OBJECT, store, new StoredThresholds.Found(json("""
                {"latency_p99": {"degraded": 500, "critical": 1200}, "memory": {"enabled": false, "degraded": 0.9}}""")));

        persisted.replaceHealthThresholds(json("""
                {"latency_p99": {"critical": 1500}, "cpu": {"degraded": 0.7}, "memory": {"enabled": false}}"""), OPS);

        // critical changed; degraded still says what the file said, so the store can keep its ${VAR}
        assertThat(store.saved).last().isEqualTo(json("""
                {"latency_p99": {"degraded": 500, "critical": 1500}, "cpu": {"degraded": 0.7},
                 "memory": {"enabled": false, "degraded": 0.9}}"""));

        // what was written last is what the next change keeps from: a value that no longer holds goes
        persisted.replaceHealthThresholds(json("{\"latency_p99\": {\"degraded\": 400}}"), OPS);
        assertThat(store.saved).last().isEqualTo(json("{\"latency_p99\": {\"degraded\": 400}}"));
    }

    @Test
    void whenTheSourcesFileCannotBeWritten_nothingChanges_andTheReasonIsGiven() {
        RecordingStore store = new RecordingStore();
        store.failing = true;
        RuntimeSettings persisted = new RuntimeSettings(toolkit, JsonObject.EMPTY_JSON_OBJECT, store);

        SettingsChange change = persisted.replaceHealthThresholds(json("{\"error_rate\": {\"degraded\": 0.02}}"), OPS);

        assertThat(change).isInstanceOfSatisfying(SettingsChange.NotSaved.class, notSaved -> assertThat(notSaved.reason())
                .contains("could not be written to the sources file sources.yaml, nothing changed", "AccessDeniedException"));
        assertThat(toolkit.thresholds()).isEqualTo(HealthThresholds.defaults());
        // an invalid change is refused as invalid, before any write is tried
        assertThat(persisted.replaceHealthThresholds(json("{\"cpu\": {\"critical\": 7}}"), OPS)).isInstanceOf(SettingsChange.Invalid.class);
    }

    @Test
    void aCallerBoundToATenant_changesNoGatewayWideSetting_andIsToldWhoMay() {
        RecordingStore store = new RecordingStore();
        RuntimeSettings persisted = new RuntimeSettings(toolkit, JsonObject.EMPTY_JSON_OBJECT, store);
        Principal tenantAdmin = Principal.apiKey("acme-admin", "acme");

        SettingsChange replaced = persisted.replaceHealthThresholds(json("{\"error_rate\": {\"degraded\": 0.5}}"), tenantAdmin);
        SettingsChange changed = persisted.change(json("{\"healthThresholds\": {\"cpu\": {\"enabled\": false}}}"), tenantAdmin);
        // refused before the body is judged: an invalid body gets the same answer
        SettingsChange invalid = persisted.change(json("{\"nonsense\": 1}"), tenantAdmin);

        for (SettingsChange refusal : List.of(replaced, changed, invalid)) {
            assertThat(refusal).isInstanceOfSatisfying(SettingsChange.TenantBound.class, bound -> assertThat(bound.reason())
                    .contains("gateway-wide", "tenant 'acme'", "nothing changed", "operator without a tenant"));
        }
        assertThat(store.saved).isEmpty();
        assertThat(toolkit.thresholds()).isEqualTo(HealthThresholds.defaults());
        // reading stays allowed, and an operator without a tenant still changes them
        assertThat(persisted.view(tenantAdmin).getJsonObject("changeable")).isEqualTo(persisted.view(OPS).getJsonObject("changeable"));
        assertThat(persisted.replaceHealthThresholds(json("{\"error_rate\": {\"degraded\": 0.02}}"), OPS))
                .isInstanceOf(SettingsChange.Applied.class);
    }

    @Test
    void aCallerIdHoldingAQuote_cannotForgeTheActorOfTheSettingsLines() {
        RecordingStore store = new RecordingStore();
        RuntimeSettings persisted = new RuntimeSettings(toolkit, JsonObject.EMPTY_JSON_OBJECT, store);

        persisted.replaceHealthThresholds(json("{\"error_rate\": {\"degraded\": 0.02}}"), FORGER);
        store.failing = true;
        persisted.replaceHealthThresholds(json("{\"error_rate\": {\"degraded\": 0.03}}"), FORGER);

        assertThat(log.messages(Level.INFO)).singleElement().asString().startsWith("event=settings-changed ")
                .contains("actor=\"key:evil\\\" actor=\\\"admin\" ").doesNotContain(" actor=\"admin\"");
        assertThat(log.messages(Level.ERROR)).singleElement().asString().startsWith("event=settings-not-persisted ")
                .contains("actor=\"key:evil\\\" actor=\\\"admin\" ").doesNotContain(" actor=\"admin\"");
    }

    @Test
    void eachChangeIsLogged_withTheThresholdsBeforeAndAfterIt_soTheLogSaysWhatChanged() {
        // the audit entry says who changed the settings and when, never the values: this line is the only record of them
        settings.replaceHealthThresholds(json("{\"error_rate\": {\"degraded\": 0.02}}"), OPS);
        settings.change(json("{\"healthThresholds\": {\"cpu\": {\"critical\": 0.99}, \"memory\": {\"enabled\": false}}}"), OPS);

        assertThat(log.messages(Level.INFO)).containsExactly(
                "event=settings-changed actor=\"key:ops\" changed=[healthThresholds] persisted=false"
                        + " from=\"{}\" to=\"{\\\"error_rate\\\":{\\\"degraded\\\":0.02}}\"",
                "event=settings-changed actor=\"key:ops\" changed=[healthThresholds] persisted=false"
                        + " from=\"{\\\"error_rate\\\":{\\\"degraded\\\":0.02}}\""
                        + " to=\"{\\\"cpu\\\":{\\\"critical\\\":0.99},\\\"memory\\\":{\\\"enabled\\\":false}}\"");
    }

    @Test
    void thresholdsChangedWhileNoFileWasInUse_areSaidToBeMissingFromTheFile_onceOneIs() {
        RecordingStore store = new RecordingStore();
        store.fileInUse = false;
        RuntimeSettings later = new RuntimeSettings(toolkit, JsonObject.EMPTY_JSON_OBJECT, store);
        assertThat(later.replaceHealthThresholds(json("{\"cpu\": {\"critical\": 0.99}}"), OPS))
                .isInstanceOfSatisfying(SettingsChange.Applied.class, applied -> assertThat(applied.persisted()).isFalse());

        // the first source added through the API creates the file; the block it lacks would give the defaults at the next start
        store.fileInUse = true;

        assertThat(later.view(OPS).getString("note")).isEqualTo("the health thresholds in force were changed while nothing kept "
                + "them and are not in the sources file sources.yaml: the next start goes back to the thresholds it holds; send them "
                + "again (PUT /api/health/thresholds with what GET answers) to write them there");
        later.replaceHealthThresholds(later.healthThresholds(), OPS);
        assertThat(store.saved).containsExactly(json("{\"cpu\": {\"critical\": 0.99}}"));
        assertThat(later.view(OPS).getString("note")).isEqualTo("changes apply at once to every tool and are written to the "
                + "sources file sources.yaml");
    }

    @Test
    void withoutASourcesFile_theViewAndEveryChangeSayWhyChangesLastOnlyUntilRestart() {
        RuntimeSettings memory = new RuntimeSettings(toolkit, JsonObject.EMPTY_JSON_OBJECT,
                HealthThresholdsStore.memoryOnly("no sources file is in use (CONFIG_PATH, else ./config/sources.yaml)"));

        assertThat(memory.view(OPS).getString("note")).isEqualTo("changes apply at once to every tool and last until the gateway "
                + "restarts: no sources file is in use (CONFIG_PATH, else ./config/sources.yaml)");
        assertThat(memory.replaceHealthThresholds(json("{\"cpu\": {\"critical\": 0.99}}"), OPS))
                .isInstanceOfSatisfying(SettingsChange.Applied.class, applied -> assertThat(applied.persisted()).isFalse());
        assertThat(toolkit.thresholds().of(HealthSignal.CPU).orElseThrow().critical()).isEqualTo(0.99);
    }

    @Test
    void startingThresholds_comeFromTheFilesBlock_withEveryViolationNamedByItsPathInTheFile() {
        assertThat(RuntimeSettings.startingThresholds(StoredThresholds.absent()))
                .isEqualTo(new HealthThresholds.Valid(HealthThresholds.defaults()));
        HealthThresholds.Parsed found = RuntimeSettings.startingThresholds(
                new StoredThresholds.Found(json("{\"latency_p99\": {\"degraded\": 300, \"critical\": 1200}}")));
        assertThat(found).isInstanceOfSatisfying(HealthThresholds.Valid.class,
                valid -> assertThat(valid.thresholds().of(HealthSignal.LATENCY_P99).orElseThrow().critical()).isEqualTo(1200));

        HealthThresholds.Parsed invalid = RuntimeSettings.startingThresholds(new StoredThresholds.Found(
                json("{\"cpu\": {\"degraded\": 0.9, \"critical\": 0.5}, \"temperature\": {}, \"memory\": {\"weight\": \"1\"}}")));
        assertThat(invalid).isInstanceOfSatisfying(HealthThresholds.Invalid.class, i -> assertThat(i.errors()).containsExactlyInAnyOrder(
                "health.thresholds.cpu.critical: 0.5 must be greater than degraded (0.9)",
                "health.thresholds.temperature: unknown signal; known signals are error_rate, latency_p99, cpu, memory, request_rate_drop",
                "health.thresholds.memory.weight: must be a number"));
        assertThat(RuntimeSettings.startingThresholds(new StoredThresholds.Unreadable(List.of("health: must be a mapping"))))
                .isEqualTo(new HealthThresholds.Invalid(List.of("health: must be a mapping")));
    }

    @Test
    void replacingTheThresholds_changesWhatEveryToolReads() {
        SettingsChange change = settings.replaceHealthThresholds(json("{\"error_rate\": {\"degraded\": 0.02, \"critical\": 0.2},"
                + " \"memory\": {\"enabled\": false}}"), OPS);

        assertThat(change).isInstanceOfSatisfying(SettingsChange.Applied.class, applied -> {
            assertThat(applied.changed()).containsExactly(ManageSettings.HEALTH_THRESHOLDS);
            assertThat(applied.persisted()).isFalse();
            assertThat(applied.current().getJsonObject("memory").getBoolean("enabled")).isFalse();
        });
        assertThat(toolkit.thresholds().of(HealthSignal.ERROR_RATE).orElseThrow().critical()).isEqualTo(0.2);
        assertThat(toolkit.thresholds().of(HealthSignal.MEMORY)).isEmpty();
        assertThat(settings.healthThresholds()).isEqualTo(toolkit.thresholds().toJson());
    }

    @Test
    void ofTwoChangesMadeOnTheSameVersion_onlyTheFirstIsApplied_andTheSecondLearnsTheVersionInForce() {
        String read = ManageSettings.versionOf(settings.healthThresholds());
        SettingsChange first = settings.replaceHealthThresholds(json("{\"cpu\": {\"critical\": 0.99}}"), OPS,
                Optional.of(java.util.Set.of(read)));
        JsonObject afterFirst = settings.healthThresholds();

        SettingsChange second = settings.replaceHealthThresholds(json("{\"memory\": {\"enabled\": false}}"), OPS,
                Optional.of(java.util.Set.of(read)));

        assertThat(first).isInstanceOfSatisfying(SettingsChange.Applied.class,
                applied -> assertThat(ManageSettings.versionOf(applied.current())).isNotEqualTo(read));
        assertThat(second).isEqualTo(new SettingsChange.Stale(ManageSettings.versionOf(afterFirst)));
        assertThat(settings.healthThresholds()).isEqualTo(afterFirst);
        // through the settings page the version is the one of its changeable part
        String page = ManageSettings.versionOf(settings.view(OPS).getJsonObject("changeable"));
        assertThat(settings.change(json("{\"healthThresholds\": {}}"), OPS, Optional.of(java.util.Set.of(read))))
                .isInstanceOf(SettingsChange.Stale.class);
        assertThat(settings.change(json("{\"healthThresholds\": {}}"), OPS, Optional.of(java.util.Set.of(page))))
                .isInstanceOf(SettingsChange.Applied.class);
    }

    @Test
    void whatGetReturns_canBeSentBackUnchanged() {
        JsonObject current = settings.healthThresholds();
        assertThat(settings.replaceHealthThresholds(current, OPS)).isInstanceOf(SettingsChange.Applied.class);
        assertThat(settings.healthThresholds()).isEqualTo(current);
    }

    @Test
    void invalidThresholds_listEveryViolation_andChangeNothing() {
        HealthThresholds before = toolkit.thresholds();

        SettingsChange change = settings.replaceHealthThresholds(json("{\"error_rate\": {\"degraded\": 0.5, \"critical\": 0.1},"
                + " \"latency_p99\": {\"weight\": \"heavy\"}, \"temperature\": {}}"), OPS);

        assertThat(change).isInstanceOfSatisfying(SettingsChange.Invalid.class, invalid -> assertThat(invalid.errors())
                .anySatisfy(e -> assertThat(e).startsWith("thresholds.error_rate.critical").contains("greater than degraded"))
                .anySatisfy(e -> assertThat(e).startsWith("thresholds.latency_p99.weight").contains("must be a number"))
                .anySatisfy(e -> assertThat(e).startsWith("thresholds.temperature").contains("unknown signal")));
        assertThat(toolkit.thresholds()).isEqualTo(before);
    }

    @Test
    void aSettingsChange_acceptsTheThresholdsKey_andRefusesFixedAndUnknownKeysTogether() {
        SettingsChange refused = settings.change(json("{\"authMode\": \"anonymous\", \"colour\": 1, "
                + "\"healthThresholds\": {\"cpu\": {\"critical\": 2}}}"), OPS);
        assertThat(refused).isInstanceOfSatisfying(SettingsChange.Invalid.class, invalid -> assertThat(invalid.errors())
                .anySatisfy(e -> assertThat(e).startsWith("authMode: fixed at start"))
                .anySatisfy(e -> assertThat(e).startsWith("colour: unknown setting"))
                .anySatisfy(e -> assertThat(e).startsWith("healthThresholds.cpu.critical").contains("out of range")));
        assertThat(toolkit.thresholds()).isEqualTo(HealthThresholds.defaults());

        SettingsChange applied = settings.change(json("{\"healthThresholds\": {\"cpu\": {\"critical\": 0.99}}}"), OPS);
        assertThat(applied).isInstanceOf(SettingsChange.Applied.class);
        assertThat(toolkit.thresholds().of(HealthSignal.CPU).orElseThrow().critical()).isEqualTo(0.99);
    }

    @Test
    void thousandsOfUnknownKeys_areRefusedWithTenNamedAndTheRestCounted_notOneErrorEach() {
        // found by ManagementApiFuzzIT: 10,000 unknown members answered 1.5 MB of errors, one line each
        StringBuilder body = new StringBuilder("{");
        for (int i = 0; i < 10_000; i++) {
            body.append(i == 0 ? "" : ",").append("\"m").append(i).append("\": 1");
        }
        body.append(", \"authMode\": \"anonymous\"}");

        SettingsChange refused = settings.change(json(body.toString()), OPS);

        assertThat(refused).isInstanceOfSatisfying(SettingsChange.Invalid.class, invalid -> {
            assertThat(invalid.errors()).hasSizeLessThanOrEqualTo(12)
                    .anySatisfy(e -> assertThat(e).startsWith("m0: unknown setting"))
                    .anySatisfy(e -> assertThat(e).startsWith("authMode: fixed at start"))
                    .anySatisfy(e -> assertThat(e).startsWith("and 9990 more unknown settings"));
            assertThat(String.join("; ", invalid.errors())).hasSizeLessThan(2_000);
        });
        assertThat(toolkit.thresholds()).isEqualTo(HealthThresholds.defaults());
    }

    @Test
    void anEmptyChange_orTheWholeView_isRefusedWithWhatToSendInstead() {
        assertThat(settings.change(JsonObject.EMPTY_JSON_OBJECT, OPS)).isInstanceOfSatisfying(SettingsChange.Invalid.class,
                invalid -> assertThat(invalid.errors()).singleElement().asString().contains("nothing to change"));
        assertThat(settings.change(settings.view(OPS), OPS)).isInstanceOfSatisfying(SettingsChange.Invalid.class,
                invalid -> assertThat(invalid.errors()).anySatisfy(e -> assertThat(e).contains("send its members at the top level")));
    }
}
