package com.acme.jaeger;

import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.testkit.connector.PluginUnderTest;
import dev.omcp.testkit.connector.SampleQueries;
import jakarta.json.JsonValue;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The plugin test of docs/writing-a-connector.md, with paths relative to the author's project.
 * omcp-testkit's own Failsafe run leaves it out (its directory is not such a project):
 * {@code ConnectorGuideIT} runs it in a project laid out as the page says, after {@link PackPlugin}.
 */
class JaegerPluginIT {
    @RegisterExtension
    static final PluginUnderTest PLUGIN = PluginUnderTest.at(Path.of("target/plugin/jaeger"))
            .trustRoot(Path.of("src/test/resources/trust-root.pem"));

    @Test
    void conformsToTheSdkContract() {
        try (JaegerRecording jaeger = JaegerRecording.start()) {   // your recorded mock on loopback
            PLUGIN.verified()
                    .checkContract(new SourceConfig("jaeger", "jaeger", jaeger.url(), "", JsonValue.EMPTY_JSON_OBJECT),
                            SampleQueries.of("checkout", jaeger.window()))
                    .assertConforms();
        }
    }
}
