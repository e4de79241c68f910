package dev.omcp.adapters.http.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.security.HostOriginGuard;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The warning the HTTP server logs at start when its Host guard accepts every name (DNS rebinding,
 * docs/mcp.md): the launcher and an embedding service get the same line, from the server itself.
 */
class AnyHostWarningTest {

    private static HttpServerSettings bound(String host, List<String> allowedHosts) {
        return new HttpServerSettings(host, 0, allowedHosts, List.of(), HttpServerSettings.DEFAULT_MAX_BODY_BYTES,
                Duration.ofSeconds(30), Duration.ofSeconds(90), Duration.ofSeconds(10));
    }

    @Test
    void allInterfacesWithoutAllowedHosts_namesTheAddressTheExposureAndBothWaysToSetTheNames() {
        assertThat(AnyHostWarning.of(bound("0.0.0.0", List.of()))).get().asString()
                .startsWith("event=any-host-accepted host=0.0.0.0 ")
                .contains("DNS rebinding")
                // the launcher's operator and the embedding service each read the setting they have
                .contains("OMCP_ALLOWED_HOSTS=gateway.example.com", "HttpServerSettings.allowedHosts")
                .contains("HOST=127.0.0.1");
    }

    @Test
    void aLoopbackBind_orAllowedHosts_haveNoWarning() {
        assertThat(AnyHostWarning.of(HttpServerSettings.loopback(0))).isEmpty();
        assertThat(AnyHostWarning.of(bound("::1", List.of()))).isEmpty();
        assertThat(AnyHostWarning.of(bound("0.0.0.0", List.of("gateway.example.com")))).isEmpty();
        assertThat(AnyHostWarning.of(bound("::", List.of("gateway.example.com", "[2001:db8::1]")))).isEmpty();
    }

    @Test
    void theWarningSaysExactlyWhatTheHostGuardDoes() {
        // both read one rule: a warning that disagreed with the guard would be a false alarm or a missed one
        for (String host : List.of("0.0.0.0", "::", "10.0.0.5", "127.0.0.1", "::ffff:127.0.0.1", "localhost", "[::1]")) {
            for (List<String> allowed : List.of(List.<String>of(), List.of("gateway.example.com"))) {
                boolean guardOpen = new HostOriginGuard(host, allowed, List.of()).check("rebound.example", null)
                        instanceof HostOriginGuard.Verdict.Allowed;
                assertThat(AnyHostWarning.of(bound(host, allowed)).isPresent()).as(host + " " + allowed).isEqualTo(guardOpen);
            }
        }
    }
}
