package dev.omcp.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.settings.InvalidSettingsException;
import dev.omcp.app.settings.Settings;
import dev.omcp.app.settings.SettingsReader;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The start-up warning for a gateway that anyone who reaches its address may use with every permission. */
class OpenAccessWarningTest {
    private static final String KEYS = "ci:0123456789abcdef0123456789abcdef";

    private static Settings settings(String... pairs) throws InvalidSettingsException {
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            env.put(pairs[i], pairs[i + 1]);
        }
        return SettingsReader.read(env);
    }

    @Test
    void allInterfacesWithoutLoginOrKeys_isWarnedAbout_namingBothAndTheFixes() throws InvalidSettingsException {
        // HOST=0.0.0.0 is what containers set; the demo forces private backends on as well
        assertThat(OpenAccessWarning.of(settings("HOST", "0.0.0.0"))).hasValueSatisfying(line -> assertThat(line)
                .startsWith("event=open-on-network host=0.0.0.0 ")
                .contains("the management API (OMCP_AUTH=anonymous) and /mcp (no OMCP_API_KEYS)")
                .contains("set HOST=127.0.0.1, or set OMCP_AUTH=basic or oidc and OMCP_API_KEYS"));
    }

    @Test
    void keysForTheAgentsAlone_stillLeaveTheManagementApiOpen() throws InvalidSettingsException {
        assertThat(OpenAccessWarning.of(settings("HOST", "::", "OMCP_API_KEYS", KEYS))).hasValueSatisfying(line -> assertThat(line)
                .contains("open=\"the management API (OMCP_AUTH=anonymous)\"").doesNotContain("OMCP_API_KEYS\""));
    }

    @Test
    void loopback_isNeverWarnedAbout_inAnySpelling() throws InvalidSettingsException {
        assertThat(OpenAccessWarning.of(settings())).isEmpty();
        // the spellings the Host guard takes for loopback too, so the two start-up warnings never disagree
        for (String host : new String[] {"127.0.0.1", "127.1.2.3", "::1", "localhost", "LOCALHOST", "[::1]", "0:0:0:0:0:0:0:1",
            "::ffff:127.0.0.1", "[::FFFF:7f00:1]"}) {
            assertThat(OpenAccessWarning.loopback(host)).as(host).isTrue();
        }
        for (String host : new String[] {"0.0.0.0", "::", "10.0.0.5", "127.0.0.1.example.com", "gateway.internal"}) {
            assertThat(OpenAccessWarning.loopback(host)).as(host).isFalse();
        }
    }
}
