package dev.omcp.app.settings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.omcp.app.settings.UnknownVariables.Unknown;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class UnknownVariablesTest {

    @Test
    void aMisspeltVariable_isReported_withTheNameItMeans() {
        assertThat(UnknownVariables.in(Map.of("OMCP_REDACTON", "off")))
                .containsExactly(new Unknown("OMCP_REDACTON", Optional.of("OMCP_REDACTION")));
        assertThat(UnknownVariables.in(Map.of("OMCP_LOG_LEVLE", "debug")))
                .as("two letters swapped").containsExactly(new Unknown("OMCP_LOG_LEVLE", Optional.of("OMCP_LOG_LEVEL")));
        assertThat(UnknownVariables.in(Map.of("OMCP_API_KEY", "a:b")))
                .containsExactly(new Unknown("OMCP_API_KEY", Optional.of("OMCP_API_KEYS")));
    }

    @Test
    void aWronglyCasedOrWronglyPrefixedName_pointsAtTheRealOne() {
        assertThat(UnknownVariables.in(Map.of("omcp_redaction", "off")))
                .containsExactly(new Unknown("omcp_redaction", Optional.of("OMCP_REDACTION")));
        assertThat(UnknownVariables.in(Map.of("OMCP_PORT", "8080")))
                .as("PORT has no prefix").containsExactly(new Unknown("OMCP_PORT", Optional.of("PORT")));
        assertThat(UnknownVariables.in(Map.of("OMCP_PLUGINS_DIR", "/p")))
                .containsExactly(new Unknown("OMCP_PLUGINS_DIR", Optional.of("PLUGINS_DIR")));
    }

    @Test
    void aNameFarFromEveryKnownOne_isReported_withoutAGuess() {
        assertThat(UnknownVariables.in(Map.of("OMCP_KEY_TENANTS", "a=t1")))
                .containsExactly(new Unknown("OMCP_KEY_TENANTS", Optional.empty()));
    }

    @Test
    void knownNames_aliases_theScriptsVariables_andOtherPrefixes_areNotReported() {
        Map<String, String> env = new HashMap<>();
        for (Variable variable : Variables.ALL) {
            env.put(variable.name(), "x");
            variable.aliases().forEach(alias -> env.put(alias, "x"));
        }
        env.put("OMCP_AOT", "off");
        env.put("OMCP_JAVA_OPTS", "-Xmx1g");
        env.put("OMCP_TEST_BACKENDS", "true");
        env.put("PATH", "/usr/bin");
        env.put("HOSTNAME", "pod-1");
        env.put("PROMETHEUS_PORT", "9090");
        assertThat(UnknownVariables.in(env)).isEmpty();
    }

    @Test
    void severalUnknownNames_comeSorted() {
        assertThat(UnknownVariables.in(Map.of("OMCP_ZZZ_NOTHING", "1", "OMCP_AUTH_MODE", "basic", "OMCP_REDACTON", "off")))
                .extracting(Unknown::name).containsExactly("OMCP_AUTH_MODE", "OMCP_REDACTON", "OMCP_ZZZ_NOTHING");
    }

    @Test
    void editDistance_countsInsertsDeletesReplacementsAndSwaps() {
        assertThat(UnknownVariables.editDistance("OMCP_AUTH", "OMCP_AUTH")).isZero();
        assertThat(UnknownVariables.editDistance("OMCP_AUHT", "OMCP_AUTH")).isEqualTo(1);
        assertThat(UnknownVariables.editDistance("OMCP_AUT", "OMCP_AUTH")).isEqualTo(1);
        assertThat(UnknownVariables.editDistance("OMCP_AUTHX", "OMCP_AUTH")).isEqualTo(1);
        assertThat(UnknownVariables.editDistance("OMCP_BUTX", "OMCP_AUTH")).isEqualTo(2);
    }
}
