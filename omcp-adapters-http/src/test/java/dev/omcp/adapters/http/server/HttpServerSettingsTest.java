package dev.omcp.adapters.http.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the HTTP server refuses to start with. */
class HttpServerSettingsTest {

    private static HttpServerSettings withWebSocketTimes(Duration ping, Duration pongTimeout) {
        return new HttpServerSettings("127.0.0.1", 0, List.of(), List.of(), HttpServerSettings.DEFAULT_MAX_BODY_BYTES,
                ping, pongTimeout, Duration.ofSeconds(10));
    }

    @Test
    void theLoopbackDefaults_pingEvery30sAndCloseAfter90s() {
        // issue 2 item 7: ping every 30 s, close 1001 after 90 s without pong
        HttpServerSettings defaults = HttpServerSettings.loopback(0);
        assertThat(defaults.wsPingInterval()).isEqualTo(Duration.ofSeconds(30));
        assertThat(defaults.wsPongTimeout()).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void anotherAddress_startsFromTheLoopbackDefaults_andTakesItsHostsAndOrigins() {
        HttpServerSettings settings = HttpServerSettings.listeningOn("0.0.0.0", 8080)
                .withAllowedHosts(List.of("omcp.internal", "omcp"))
                .withAllowedOrigins(List.of("https://ui.example.com"));
        HttpServerSettings defaults = HttpServerSettings.loopback(0);
        assertThat(settings.host()).isEqualTo("0.0.0.0");
        assertThat(settings.port()).isEqualTo(8080);
        assertThat(settings.allowedHosts()).containsExactly("omcp.internal", "omcp");
        assertThat(settings.allowedOrigins()).containsExactly("https://ui.example.com");
        assertThat(settings.withAllowedHosts(List.of()).withAllowedOrigins(List.of()))
                .usingRecursiveComparison().isEqualTo(new HttpServerSettings("0.0.0.0", 8080, List.of(), List.of(),
                        defaults.maxBodyBytes(), defaults.wsPingInterval(), defaults.wsPongTimeout(), defaults.shutdownGrace(),
                        defaults.bodyReadGrace(), defaults.bodyMinBytesPerSecond()));
        assertThat(HttpServerSettings.loopback(0)).isEqualTo(HttpServerSettings.listeningOn("127.0.0.1", 0));
        assertThatThrownBy(() -> HttpServerSettings.listeningOn("::", 70000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("port must be 0-65535");
    }

    @Test
    void aZeroOrNegativePingInterval_isRefusedNamingTheField() {
        assertThatThrownBy(() -> withWebSocketTimes(Duration.ZERO, Duration.ofSeconds(90)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("wsPingInterval must be positive");
        assertThatThrownBy(() -> withWebSocketTimes(Duration.ofSeconds(-1), Duration.ofSeconds(90)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("wsPingInterval must be positive");
    }

    @Test
    void aPongTimeoutNotLongerThanThePingInterval_isRefused_becauseAPeerWouldBeClosedUnpinged() {
        assertThatThrownBy(() -> withWebSocketTimes(Duration.ofSeconds(30), Duration.ofSeconds(30)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("wsPongTimeout (PT30S) must be longer than wsPingInterval (PT30S)");
    }

    @Test
    void shortTimesForTests_areAccepted() {
        assertThat(withWebSocketTimes(Duration.ofMillis(200), Duration.ofMillis(600)).wsPongTimeout()).isEqualTo(Duration.ofMillis(600));
    }

    @Test
    void aNegativeShutdownGrace_isRefusedNamingTheField_andZeroMeansNoWait() {
        // a negative grace would be taken as none at shutdown, without a word to the embedder who set it
        assertThatThrownBy(() -> new HttpServerSettings("127.0.0.1", 0, List.of(), List.of(), HttpServerSettings.DEFAULT_MAX_BODY_BYTES,
                Duration.ofSeconds(30), Duration.ofSeconds(90), Duration.ofSeconds(-5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("shutdownGrace must not be negative, got PT-5S");
        assertThat(new HttpServerSettings("127.0.0.1", 0, List.of(), List.of(), HttpServerSettings.DEFAULT_MAX_BODY_BYTES,
                Duration.ofSeconds(30), Duration.ofSeconds(90), Duration.ZERO).shutdownGrace()).isZero();
    }

    @Test
    void theDefaultBodyDeadline_isTenSecondsPlusOneSecondPer16KiB() {
        HttpServerSettings defaults = HttpServerSettings.loopback(0);
        assertThat(defaults.bodyReadGrace()).isEqualTo(Duration.ofSeconds(10));
        assertThat(defaults.bodyMinBytesPerSecond()).isEqualTo(16 * 1024);
    }

    @Test
    void aBodyDeadlineWithoutGraceOrRate_isRefusedNamingTheField() {
        HttpServerSettings defaults = HttpServerSettings.loopback(0);
        assertThatThrownBy(() -> defaults.withBodyDeadline(Duration.ZERO, 1024))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bodyReadGrace must be positive");
        assertThatThrownBy(() -> defaults.withBodyDeadline(Duration.ofSeconds(5), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bodyMinBytesPerSecond must be positive");
        assertThat(defaults.withBodyDeadline(Duration.ofMillis(500), 1).bodyReadGrace()).isEqualTo(Duration.ofMillis(500));
    }
}
