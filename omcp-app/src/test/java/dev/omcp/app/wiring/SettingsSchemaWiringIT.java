package dev.omcp.app.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.storage.config.YamlSourceStore;
import dev.omcp.app.settings.Settings;
import dev.omcp.app.settings.SettingsReader;
import dev.omcp.ports.connectors.ConnectorCatalog;
import dev.omcp.ports.connectors.ConnectorType;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.sources.SourceView;
import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.manifest.Capabilities;
import dev.omcp.sdk.manifest.ConnectorManifest;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sources file is read with the configSchema of each source's connector type, so that a {@code ${VAR}} setting the
 * schema declares a number reaches the connector as one instead of failing the gateway's own schema check.
 */
class SettingsSchemaWiringIT {
    private static final JsonObject SCHEMA = Json.createReader(new StringReader("""
            {"type": "object", "properties": {"fetchConcurrency": {"type": "integer", "minimum": 1, "maximum": 32}}}""")).readObject();

    /** A plugin's connector type: records what each source's connector was created with. */
    private static final class Recording implements ConnectorFactory {
        final Map<String, SourceConfig> created = new ConcurrentHashMap<>();

        @Override
        public ConnectorManifest manifest() {
            return new ConnectorManifest(1, "counted", "Counted", "1.0.0", "test type", List.of("traces"),
                    new Capabilities(false, false, false, false, false), SCHEMA, Optional.empty(), Optional.empty(), List.of(),
                    Optional.empty(), Optional.empty());
        }

        @Override
        public CompletionStage<Connector> create(SourceConfig source, ConnectorContext context) {
            created.put(source.name(), source);
            return CompletableFuture.completedFuture(new Connector() {
                @Override
                public SourceConfig source() {
                    return source;
                }

                @Override
                public Health health() {
                    return new Health(true, "ok", Duration.ZERO);
                }

                @Override
                public void close() {}
            });
        }
    }

    @Test
    void aVariableSettingTheSchemaDeclaresAnInteger_connectsAsAnInteger_andABadOneIsSkippedNamingItsVariable(@TempDir Path dir)
            throws Exception {
        Path file = Files.writeString(dir.resolve("sources.yaml"), """
                sources:
                  - {name: fetching, type: counted, url: "http://127.0.0.1:1", fetchConcurrency: "${CONC:-8}"}
                  - {name: misspelt, type: counted, url: "http://127.0.0.1:2", fetchConcurrency: "${CONC_WORDS}"}
                """);
        Settings settings = SettingsReader.read(Map.of("CONFIG_PATH", file.toString(), "OMCP_ALLOW_PRIVATE_BACKENDS", "true",
                "CONC_WORDS", "many"));
        Recording factory = new Recording();
        ConnectorType type = new ConnectorType(factory, factory.manifest(), ConnectorType.Origin.FILESYSTEM);
        ConnectorCatalog catalog = new ConnectorCatalog() {
            @Override
            public Optional<ConnectorType> find(String name) {
                return name.equals("counted") ? Optional.of(type) : Optional.empty();
            }

            @Override
            public List<ConnectorType> all() {
                return List.of(type);
            }
        };
        YamlSourceStore store = SourcesAssembly.store(settings.connectors());

        try (SourcesAssembly sources = SourcesAssembly.start(settings.connectors(), Clock.systemUTC(), catalog, store)) {
            List<SourceView> listed = sources.registry().list(Principal.anonymous());

            assertThat(listed).extracting(SourceView::name, SourceView::status).containsExactly(
                    org.assertj.core.api.Assertions.tuple("fetching", "connected"));
            assertThat(factory.created.get("fetching").settings().getJsonNumber("fetchConcurrency").intValueExact()).isEqualTo(8);
            assertThat(factory.created).doesNotContainKey("misspelt");
            assertThat(store.load().problems()).singleElement().asString().startsWith("sources entry 2: 'fetchConcurrency': "
                    + "${CONC_WORDS} gives 4 characters that are not a whole number").doesNotContain("many");
        }
    }
}
