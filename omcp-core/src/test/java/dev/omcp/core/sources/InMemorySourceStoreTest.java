package dev.omcp.core.sources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.core.egress.EgressRules;
import dev.omcp.ports.connectors.ConnectorCatalog;
import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.settings.StoredThresholds;
import dev.omcp.ports.sources.SourceDefinition;
import dev.omcp.ports.sources.SourceOutcome;
import dev.omcp.ports.sources.SourceStoreException;
import dev.omcp.ports.sources.SourcesDocument;
import dev.omcp.sdk.connector.SourceConfig;
import jakarta.json.JsonValue;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InMemorySourceStoreTest {
    private static final String URL = "http://203.0.113.9:9090";

    private static SourceConfig config(String name) {
        return new SourceConfig(name, "prometheus", URL, "", JsonValue.EMPTY_JSON_OBJECT);
    }

    @Test
    void sourcesGivenInCode_areLoadedEnabledInOrder_andMarkedAsTheEmbeddingServices() {
        SourcesDocument document = InMemorySourceStore.of(config("prod"), config("staging")).load();

        assertThat(document.sources()).extracting(SourceDefinition::name).containsExactly("prod", "staging");
        assertThat(document.sources()).allSatisfy(s -> {
            assertThat(s.enabled()).isTrue();
            assertThat(s.origin()).isEqualTo(SourceDefinition.Origin.EMBEDDED);
            assertThat(s.config().url()).isEqualTo(URL);
        });
        assertThat(document.plugins()).isEmpty();
        assertThat(document.problems()).isEmpty();
        assertThat(document.writable()).as("run-time changes may be saved").isTrue();
        assertThat(document.healthThresholds()).isEqualTo(StoredThresholds.absent());
    }

    @Test
    void noSourceAtAll_isAGatewayWithoutSources() {
        assertThat(InMemorySourceStore.of().load().sources()).isEmpty();
        assertThat(new InMemorySourceStore(List.of()).load().sources()).isEmpty();
    }

    @Test
    void definitionsKeepWhatTheyAreGiven_soADisabledSourceStaysDisabled() {
        SourceDefinition disabled = new SourceDefinition(config("spare"), false, SourceDefinition.Origin.EMBEDDED);

        assertThat(new InMemorySourceStore(List.of(disabled)).load().sources()).containsExactly(disabled);
    }

    @Test
    void aSave_replacesTheHeldSources_forEveryLaterLoad() throws SourceStoreException {
        InMemorySourceStore store = InMemorySourceStore.of(config("prod"));
        SourceDefinition added = new SourceDefinition(config("added"), true, SourceDefinition.Origin.API);

        store.save(List.of(added));

        assertThat(store.load().sources()).containsExactly(added);
    }

    @Test
    void twoSourcesOfOneName_areRefusedWithTheName() {
        assertThatThrownBy(() -> InMemorySourceStore.of(config("prod"), config("other"), config("prod")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("two sources are named 'prod'; source names must be unique");
    }

    @Test
    void aSaveWithTwoSourcesOfOneName_failsAndKeepsTheHeldSources() {
        InMemorySourceStore store = InMemorySourceStore.of(config("prod"));
        SourceDefinition twice = new SourceDefinition(config("dup"), true, SourceDefinition.Origin.API);

        assertThatThrownBy(() -> store.save(List.of(twice, twice)))
                .isInstanceOf(SourceStoreException.class)
                .hasMessage("two sources are named 'dup'; source names must be unique");
        assertThat(store.load().sources()).extracting(SourceDefinition::name).containsExactly("prod");
    }

    @Test
    void aMissingSource_isNamedByItsPosition() {
        assertThatThrownBy(() -> InMemorySourceStore.of(config("prod"), null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("source #2 is null");
        assertThatThrownBy(() -> new InMemorySourceStore(Arrays.asList(null, null)))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("source #1 is null");
        assertThatThrownBy(() -> new InMemorySourceStore(null)).isInstanceOf(NullPointerException.class).hasMessage("sources");
        assertThatThrownBy(() -> InMemorySourceStore.of((SourceConfig[]) null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void theMessagesOfARefusal_neverCarryTheUrl() {
        SourceConfig withSecret = new SourceConfig("prod", "prometheus", "http://203.0.113.9:9090/?token=s3cret", "",
                JsonValue.EMPTY_JSON_OBJECT);

        assertThatThrownBy(() -> InMemorySourceStore.of(withSecret, withSecret)).message().doesNotContain("s3cret", "203.0.113.9");
    }

    @Test
    void itDescribesItselfWithoutAPathOrAUrl() {
        assertThat(InMemorySourceStore.of(config("prod")).describe()).isEqualTo("memory");
    }

    @Test
    void aSourceRemovedThroughTheRegistry_isGoneFromTheStore() {
        InMemorySourceStore store = InMemorySourceStore.of(config("prod"), config("staging"));
        SourceRegistry registry = new SourceRegistry(new NoTypes(), source -> {
            throw new AssertionError("a source of an unknown type is never given a context");
        }, store, new EgressRules(false), host -> List.of(), Duration.ofSeconds(1), java.time.Clock.systemUTC());
        registry.start();

        SourceOutcome outcome = registry.remove("staging", Principal.anonymous());

        assertThat(outcome).isInstanceOf(SourceOutcome.Removed.class);
        assertThat(store.load().sources()).extracting(SourceDefinition::name).containsExactly("prod");
        registry.close();
    }

    /** A catalog without types: the sources stay listed (as of an unknown type), enough to change the list. */
    private static final class NoTypes implements ConnectorCatalog {
        @Override
        public Optional<ConnectorType> find(String name) {
            return Optional.empty();
        }

        @Override
        public List<ConnectorType> all() {
            return List.of();
        }
    }
}
