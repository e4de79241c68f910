package dev.omcp.core.management;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.core.analysis.health.HealthSignal;
import dev.omcp.core.analysis.health.HealthThresholds;
import dev.omcp.core.egress.EgressRules;
import dev.omcp.core.sources.SourceRegistry;
import dev.omcp.core.tools.observability.Toolkit;
import dev.omcp.ports.connectors.ConnectorCatalog;
import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.settings.ManageSettings;
import dev.omcp.ports.settings.SettingsChange;
import dev.omcp.ports.sources.SourceDefinition;
import dev.omcp.ports.sources.SourceStore;
import dev.omcp.ports.sources.SourcesDocument;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.testkit.time.ManualClock;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Health thresholds change at run time, validated with every violation listed; fixed settings stay fixed. */
class RuntimeSettingsTest {
    private static final Principal OPS = Principal.apiKey("ops", "");
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
        }, store, new EgressRules(false), host -> List.of(), Duration.ofSeconds(1));
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
    void anEmptyChange_orTheWholeView_isRefusedWithWhatToSendInstead() {
        assertThat(settings.change(JsonObject.EMPTY_JSON_OBJECT, OPS)).isInstanceOfSatisfying(SettingsChange.Invalid.class,
                invalid -> assertThat(invalid.errors()).singleElement().asString().contains("nothing to change"));
        assertThat(settings.change(settings.view(OPS), OPS)).isInstanceOfSatisfying(SettingsChange.Invalid.class,
                invalid -> assertThat(invalid.errors()).anySatisfy(e -> assertThat(e).contains("send its members at the top level")));
    }
}
