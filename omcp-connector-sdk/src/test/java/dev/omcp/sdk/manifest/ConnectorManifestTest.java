package dev.omcp.sdk.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.json.JsonObject;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConnectorManifestTest {
    private static final Capabilities METRICS = new Capabilities(true, false, false, false, false);

    @Test
    void named_isTheManifestAPluginFactoryReturns_inOneLine() {
        ConnectorManifest manifest = ConnectorManifest.named("minimetrics", "MiniMetrics", List.of("metrics"), METRICS);

        assertThat(manifest).isEqualTo(new ConnectorManifest(1, "minimetrics", "MiniMetrics", "0.0.0", "MiniMetrics", List.of("metrics"),
                METRICS, JsonObject.EMPTY_JSON_OBJECT, Optional.empty(), Optional.empty(), List.of(), Optional.empty(), Optional.empty()));
    }

    @Test
    void named_refusesWhatTheConstructorRefuses() {
        assertThatThrownBy(() -> ConnectorManifest.named(null, "MiniMetrics", List.of("metrics"), METRICS))
                .isInstanceOf(NullPointerException.class).hasMessage("name");
        assertThatThrownBy(() -> ConnectorManifest.named("minimetrics", "MiniMetrics", List.of("metrics"), null))
                .isInstanceOf(NullPointerException.class).hasMessage("capabilities");
    }
}
