package dev.omcp.app.wiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.settings.SettingsReader;
import jakarta.json.JsonString;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What GET /api/settings reports as fixed at start is what the gateway does. */
class FixedSettingsTest {

    /** Spec 5.2 rule 5 and docs/access-control.md: unset, false and 0 trust nobody, in any case. */
    @Test
    void trustProxy_isReportedFalse_forEveryFormThatTrustsNobody() throws Exception {
        for (String nobody : new String[] {"false", "FALSE", "0"}) {
            var settings = SettingsReader.read(Map.of("OMCP_TRUST_PROXY", nobody));
            assertThat(ManagementApiAssembly.fixedSettings(settings, false).getBoolean("trustProxy")).as(nobody).isFalse();
        }
        var loopback = SettingsReader.read(Map.of("OMCP_TRUST_PROXY", "loopback"));
        assertThat(ManagementApiAssembly.fixedSettings(loopback, false).getBoolean("trustProxy")).isTrue();
    }

    /** Spec 5.8: strict mode implies verification, which runs whatever VERIFY_PLUGINS says; the answer said it was off. */
    @Test
    void pluginVerification_isReportedOn_inStrictMode_evenWithVerifyPluginsOff() throws Exception {
        var strict = SettingsReader.read(Map.of("VERIFY_PLUGINS", "off", "PLUGIN_REQUIRE_SIGNATURE", "on"));
        assertThat(ManagementApiAssembly.fixedSettings(strict, false).getBoolean("pluginVerification")).isTrue();
        var optedOut = SettingsReader.read(Map.of("VERIFY_PLUGINS", "no"));
        assertThat(ManagementApiAssembly.fixedSettings(optedOut, false).getBoolean("pluginVerification")).isFalse();
    }

    /**
     * The NAT64 prefixes decide, beside allowPrivateBackends, which IPv6 backends the egress rules refuse: an admin who
     * reads why one was refused sees the prefixes the gateway runs with, as it writes them in its refusals.
     */
    @Test
    void nat64Prefixes_areShownBesideAllowPrivateBackends_asTheGatewayReadThem() throws Exception {
        var listed = SettingsReader.read(Map.of("OMCP_NAT64_PREFIXES", "2001:DB8:64:0::/96, 2001:db8:100::/40"));
        assertThat(ManagementApiAssembly.fixedSettings(listed, false).getJsonArray("nat64Prefixes").getValuesAs(JsonString::getString))
                .containsExactly("2001:db8:64::/96", "2001:db8:100::/40");
        var none = SettingsReader.read(Map.of());
        assertThat(ManagementApiAssembly.fixedSettings(none, false).getJsonArray("nat64Prefixes")).isEmpty();
    }
}
