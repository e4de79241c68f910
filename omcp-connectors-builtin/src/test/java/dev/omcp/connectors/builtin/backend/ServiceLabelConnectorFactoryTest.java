package dev.omcp.connectors.builtin.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.sdk.connector.Connector;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.Health;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.manifest.Capabilities;
import dev.omcp.testkit.connector.TestConnectorContext;
import jakarta.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The base of the label-based connector types, with a connector that never calls its backend. */
class ServiceLabelConnectorFactoryTest {
    private final TestConnectorContext context = TestConnectorContext.defaults();
    private final LabelledFactory factory = new LabelledFactory();

    /** Remembers the service labels it was built with. */
    private static final class LabelledConnector extends HttpBackendConnector {
        private final List<String> serviceLabels;

        LabelledConnector(SourceConfig source, ConnectorContext context, List<String> serviceLabels) {
            super(source, context.httpClient(), context.requestTimeout(), context.clock(), context.answerBudget(), "Labelled");
            this.serviceLabels = serviceLabels;
        }

        @Override
        public Health health() {
            return TimedHealthCheck.start(clock()).up("Labelled is up");
        }
    }

    /** Gateway default {@code job, app}; refuses a source whose {@code refuse} setting is true. */
    private static final class LabelledFactory extends ServiceLabelConnectorFactory {
        private int built;

        LabelledFactory() {
            super(BuiltinManifest.of("labelled", "Labelled", "A test backend.", "metrics", new Capabilities(true, false, true, false, false),
                    Jsonp.object().add(SERVICE_LABELS, SERVICE_LABELS_SCHEMA)), List.of("job", "app"), Duration.ofMinutes(1));
        }

        @Override
        protected Connector connector(SourceConfig source, ConnectorContext context, List<String> serviceLabels) throws ConnectorException {
            if (SourceSettings.bool(source.settings(), "refuse", false)) {
                throw new ConnectorException(ConnectorException.Kind.BAD_QUERY, "refused");
            }
            built++;
            return new LabelledConnector(source, context, serviceLabels);
        }
    }

    @AfterEach
    void closeClient() {
        context.httpClient().close();
    }

    private static SourceConfig source(String url, JsonObject settings) {
        return new SourceConfig("s", "labelled", url, "", settings);
    }

    private LabelledConnector built(JsonObject settings) {
        return (LabelledConnector) factory.create(source("http://backend:9090", settings), context).toCompletableFuture().join();
    }

    private static ConnectorException failure(CompletionStage<Connector> stage) {
        try {
            stage.toCompletableFuture().join();
        } catch (CompletionException e) {
            return (ConnectorException) e.getCause();
        }
        throw new AssertionError("the stage completed");
    }

    @Test
    void aSourceWithoutItsOwnServiceLabels_getsTheGatewaysInOrder() {
        assertThat(built(JsonObject.EMPTY_JSON_OBJECT).serviceLabels).containsExactly("job", "app");
        assertThat(built(Jsonp.object().add("serviceLabels", "service, job").build()).serviceLabels).containsExactly("service", "job");
    }

    @Test
    void aSourceWithoutAUrl_failsTheStage_namingTheSourceTheTypeTheFieldAndWhatToWrite() {
        ConnectorException e = failure(factory.create(source(" ", JsonObject.EMPTY_JSON_OBJECT), context));

        assertThat(e.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY);
        assertThat(e.getMessage()).isEqualTo("source 's' needs a url: a labelled source reads its backend at an http:// or https:// "
                + "URL; add one to the source: url: http://<host>:<port> of the labelled server");
        assertThat(factory.built).isZero();
    }

    @Test
    void invalidServiceLabels_orABackendSettingTheTypeRefuses_failTheStage_insteadOfThrowing() {
        ConnectorException labels = failure(factory.create(source("http://backend:9090",
                Jsonp.object().add("serviceLabels", "job, not-a-label").build()), context));
        ConnectorException own = failure(factory.create(source("http://backend:9090", Jsonp.object().add("refuse", true).build()), context));

        assertThat(labels.kind()).isEqualTo(ConnectorException.Kind.BAD_QUERY);
        assertThat(labels.getMessage()).contains("serviceLabels");
        assertThat(own.getMessage()).isEqualTo("refused");
        assertThat(factory.built).isZero();
    }

    @Test
    void theManifest_declaresTheServiceLabelsSetting_inADraft2020SettingsSchema() {
        JsonObject schema = factory.manifest().configSchema();

        assertThat(schema.getString("$schema")).isEqualTo("https://json-schema.org/draft/2020-12/schema");
        assertThat(schema.getJsonObject("properties").getJsonObject("serviceLabels")).isEqualTo(ServiceLabelConnectorFactory.SERVICE_LABELS_SCHEMA);
        assertThat(factory.manifest().license()).contains("Apache-2.0");
    }

    @Test
    void anHttpBackendConnector_isInterruptible_andClosingItClosesTheSourcesClient() {
        LabelledConnector connector = built(JsonObject.EMPTY_JSON_OBJECT);

        assertThat(connector.source().name()).isEqualTo("s");
        assertThat(connector.interruptible()).isTrue();
        connector.close();
        assertThat(context.httpClient().isTerminated()).isTrue();
    }
}
