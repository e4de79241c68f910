package dev.omcp.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.adapters.http.security.HostOriginGuard;
import dev.omcp.app.settings.InvalidSettingsException;
import dev.omcp.app.settings.Settings;
import dev.omcp.app.settings.SettingsReader;
import dev.omcp.app.support.CapturedLog;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The start-up warning for a gateway whose Host guard accepts every name (DNS rebinding, docs/mcp.md). */
class AnyHostWarningTest {
    @RegisterExtension
    final CapturedLog log = CapturedLog.of(AnyHostWarning.class);

    @Test
    void allInterfacesWithoutAllowedHosts_isWarnedAboutOnce_namingTheAddressAndWhatToSet() throws InvalidSettingsException {
        AnyHostWarning.log(SettingsReader.read(Map.of("HOST", "0.0.0.0")));

        assertThat(log.warnings()).singleElement().asString()
                .startsWith("event=any-host-accepted host=0.0.0.0 ")
                .contains("DNS rebinding")
                .contains("OMCP_ALLOWED_HOSTS=gateway.example.com")
                .contains("HOST=127.0.0.1");
        assertThat(log.messages()).hasSize(1);
    }

    @Test
    void aLoopbackBind_orAllowedHosts_logNothing() throws InvalidSettingsException {
        AnyHostWarning.log(SettingsReader.read(Map.of()));
        AnyHostWarning.log(SettingsReader.read(Map.of("HOST", "::1")));
        AnyHostWarning.log(SettingsReader.read(Map.of("HOST", "0.0.0.0", "OMCP_ALLOWED_HOSTS", "gateway.example.com")));
        AnyHostWarning.log(SettingsReader.read(Map.of("HOST", "::", "OMCP_ALLOWED_HOSTS", "gateway.example.com,[2001:db8::1]")));

        assertThat(log.messages()).isEmpty();
    }

    @Test
    void theWarningSaysExactlyWhatTheHostGuardDoes() throws InvalidSettingsException {
        // both read one rule: a warning that disagreed with the guard would be a false alarm or a missed one
        for (String host : List.of("0.0.0.0", "::", "10.0.0.5", "127.0.0.1", "::ffff:127.0.0.1", "localhost", "[::1]")) {
            for (List<String> allowed : List.of(List.<String>of(), List.of("gateway.example.com"))) {
                Settings settings = host.equals("127.0.0.1") && allowed.isEmpty() ? SettingsReader.read(Map.of())
                        : SettingsReader.read(Map.of("HOST", host, "OMCP_ALLOWED_HOSTS", String.join(",", allowed)));
                boolean guardOpen = new HostOriginGuard(host, allowed, List.of()).check("rebound.example", null)
                        instanceof HostOriginGuard.Verdict.Allowed;
                assertThat(AnyHostWarning.of(settings).isPresent()).as(host + " " + allowed).isEqualTo(guardOpen);
            }
        }
    }
}
