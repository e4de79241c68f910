package dev.omcp.app.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
        assertThat(UnknownVariables.in(Map.of("OMCP_WIDGET_COLOUR", "blue")))
                .containsExactly(new Unknown("OMCP_WIDGET_COLOUR", Optional.empty()));
    }

    @Test
    void everySettingTheSpecificationNames_isSupportedNow_soNoneIsReportedAsNotSupported() {
        Map<String, String> env = Map.of("OMCP_KEY_PRODUCTS", "ci=payments", "OMCP_KEY_BYPASS_REDACTION", "ci",
                "OMCP_KEY_ROLES", "ci=admin");

        assertThat(UnknownVariables.in(env)).as("no typo to guess at").isEmpty();
        assertThat(UnknownVariables.notSupportedYet(env)).isEmpty();
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
    void aNearMissOfAnUnprefixedName_isReported_withTheNameItMeans() {
        assertThat(UnknownVariables.in(Map.of("PROMETHEUS_ULR", "http://prom:9090")))
                .as("two letters swapped").containsExactly(new Unknown("PROMETHEUS_ULR", Optional.of("PROMETHEUS_URL")));
        assertThat(UnknownVariables.in(Map.of("LOKI_URI", "http://loki:3100")))
                .containsExactly(new Unknown("LOKI_URI", Optional.of("LOKI_URL")));
        assertThat(UnknownVariables.in(Map.of("PLUGIN_DIR", "/p")))
                .as("a letter left out").containsExactly(new Unknown("PLUGIN_DIR", Optional.of("PLUGINS_DIR")));
        assertThat(UnknownVariables.in(Map.of("PROMETEUS_ULR", "http://prom:9090")))
                .as("two edits in a long name").containsExactly(new Unknown("PROMETEUS_ULR", Optional.of("PROMETHEUS_URL")));
        assertThat(UnknownVariables.in(Map.of("VERIFY_PLUGIN", "off")))
                .containsExactly(new Unknown("VERIFY_PLUGIN", Optional.of("VERIFY_PLUGINS")));
        assertThat(UnknownVariables.in(Map.of("prometheus_url", "http://prom:9090")))
                .as("another case: the environment is case-sensitive").containsExactly(new Unknown("prometheus_url", Optional.of("PROMETHEUS_URL")));
        assertThat(UnknownVariables.in(Map.of("METRICS_ULR", "http://prom:9090")))
                .as("aliases are known names too").containsExactly(new Unknown("METRICS_ULR", Optional.of("METRICS_URL")));
    }

    @Test
    void aShortUnprefixedName_isMissedOnlyBySwappedNeighboursOrCase() {
        assertThat(UnknownVariables.in(Map.of("PROT", "8080"))).containsExactly(new Unknown("PROT", Optional.of("PORT")));
        assertThat(UnknownVariables.in(Map.of("HSOT", "0.0.0.0"))).containsExactly(new Unknown("HSOT", Optional.of("HOST")));
        assertThat(UnknownVariables.in(Map.of("port", "8080"))).containsExactly(new Unknown("port", Optional.of("PORT")));
        // one or two edits from HOST or PORT are ordinary variables of other programs
        assertThat(UnknownVariables.in(Map.of("HOME", "/root", "POST", "x", "HOSTS", "x", "PORTS", "x", "SORT", "x", "PWD", "/")))
                .isEmpty();
    }

    @Test
    void aNearMiss_isNotReported_whenTheNameItMissesIsSetToo() {
        // the operator has the real one: the other is most likely another program's
        assertThat(UnknownVariables.in(Map.of("PROMETHEUS_URL", "http://prom:9090", "PROMETHEUS_URLS", "a,b"))).isEmpty();
        assertThat(UnknownVariables.in(Map.of("PORT", "3000", "PROT", "tcp"))).isEmpty();
    }

    @Test
    void theUnrelatedVariablesOfATypicalContainer_areNotReported() {
        Map<String, String> env = new HashMap<>();
        for (String name : new String[] {
                "PATH", "HOME", "HOSTNAME", "HOSTTYPE", "USER", "PWD", "OLDPWD", "SHELL", "TERM", "LANG", "LC_ALL", "TZ", "SHLVL",
                "JAVA_HOME", "JAVA_OPTS", "MAVEN_OPTS", "JDK_JAVA_OPTIONS", "LOGNAME", "MAIL", "EDITOR", "DISPLAY", "HTTP_PROXY",
                "http_proxy", "NO_PROXY", "no_proxy", "HTTPS_PROXY", "SSL_CERT_FILE", "CONFIG_DIR", "XDG_CONFIG_HOME", "LOG_LEVEL",
                "PLUGIN_PATH", "SERVICE_NAME", "POD_NAME", "POD_IP", "NODE_NAME",
                // what Kubernetes injects for services named prometheus, loki, metrics, hub-catalog and kubernetes
                "PROMETHEUS_PORT", "PROMETHEUS_SERVICE_HOST", "PROMETHEUS_SERVICE_PORT", "PROMETHEUS_PORT_9090_TCP",
                "PROMETHEUS_PORT_9090_TCP_ADDR", "PROMETHEUS_PORT_9090_TCP_PORT", "PROMETHEUS_PORT_9090_TCP_PROTO",
                "LOKI_PORT", "LOKI_SERVICE_HOST", "LOKI_SERVICE_PORT", "LOKI_PORT_3100_TCP", "METRICS_PORT", "METRICS_SERVICE_HOST",
                "HUB_CATALOG_PORT", "HUB_CATALOG_SERVICE_HOST", "KUBERNETES_SERVICE_HOST", "KUBERNETES_SERVICE_PORT", "KUBERNETES_PORT"}) {
            env.put(name, "x");
        }
        assertThat(UnknownVariables.in(env)).isEmpty();
    }

    @Test
    void aGatewayNameThatLostItsPrefix_isReported_withThePrefixedName() {
        assertThat(UnknownVariables.in(Map.of("AUDIT_S3_BUCKET", "audit-logs")))
                .containsExactly(new Unknown("AUDIT_S3_BUCKET", Optional.of("OMCP_AUDIT_S3_BUCKET")));
        assertThat(UnknownVariables.in(Map.of("oidc_client_id", "gateway")))
                .as("in any case").containsExactly(new Unknown("oidc_client_id", Optional.of("OMCP_OIDC_CLIENT_ID")));
        assertThat(UnknownVariables.in(Map.of("AUDIT_WEBHOOK_DEADLETTER", "/d.jsonl", "MGMT_AUDIT_FILE", "/a.jsonl")))
                .containsExactly(new Unknown("AUDIT_WEBHOOK_DEADLETTER", Optional.of("OMCP_AUDIT_WEBHOOK_DEADLETTER")),
                        new Unknown("MGMT_AUDIT_FILE", Optional.of("OMCP_MGMT_AUDIT_FILE")));
    }

    @Test
    void aDroppedPrefix_isNotReported_forSingleWords_genericNames_theScriptsNames_orWhenThePrefixedOneIsSet() {
        // single words (AUTH, REDACTION) and names web frameworks and platforms use are other programs' far more often
        Map<String, String> env = new HashMap<>();
        for (String name : new String[] {"AUTH", "REDACTION", "AOT", "JAVA_OPTS", "TEST_BACKENDS", "LOG_LEVEL", "LOG_FORMAT", "REDIS_URL",
                "STORE_URL", "ALLOWED_HOSTS", "ALLOWED_ORIGINS", "API_KEYS", "SESSION_SECRET", "TRUST_PROXY"}) {
            env.put(name, "x");
        }
        assertThat(UnknownVariables.in(env)).isEmpty();
        assertThat(UnknownVariables.in(Map.of("OIDC_ISSUER", "https://idp", "OMCP_OIDC_ISSUER", "https://idp")))
                .as("the operator has the real one").isEmpty();
    }

    @Test
    void anUnprefixedName_isReportedOnlyWithTheNameItMisses() {
        assertThatThrownBy(() -> new Unknown("PROMETHEUS_ULR", Optional.empty())).isInstanceOf(IllegalArgumentException.class);
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
