package dev.omcp.app.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsReaderTest {

    @Test
    void emptyEnvironment_givesTheDocumentedDefaults() throws Exception {
        Settings settings = SettingsReader.read(Map.of());
        assertThat(settings.server().host()).isEqualTo("127.0.0.1");
        assertThat(settings.server().port()).isEqualTo(3000);
        assertThat(settings.server().shutdownGrace()).isEqualTo(Duration.ofSeconds(10));
        assertThat(settings.agent().apiKeys()).isEmpty();
        assertThat(settings.logging().format()).isEqualTo("text");
    }

    @Test
    void thePostmortemStore_defaultsToTheSpecsFile() throws Exception {
        // spec 8: OMCP_POSTMORTEMS_FILE default /tmp/postmortems.jsonl
        assertThat(SettingsReader.read(Map.of()).management().postmortemsFile()).isEqualTo(Path.of("/tmp/postmortems.jsonl"));
    }

    @Test
    void everyInvalidValue_isReportedAtOnce() {
        InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class, () -> SettingsReader.read(Map.of(
                "PORT", "http",
                "OMCP_SHUTDOWN_GRACE", "-1",
                "OMCP_LOG_FORMAT", "xml",
                "OMCP_ALLOWED_ORIGINS", "evil.example",
                "OMCP_API_KEYS", "ci:tiny-tkn,:nameless-token-1234567")));
        assertThat(e.problems()).hasSize(6);
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("PORT must be an integer from 0 to 65535, got 'http'"));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("OMCP_SHUTDOWN_GRACE"));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).startsWith("OMCP_LOG_FORMAT must be one of text, json"));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).contains("https://ui.example.com"));
        assertThat(e.getMessage()).doesNotContain("tiny-tkn").doesNotContain("nameless-token-1234567");
    }

    /**
     * A duration written with a unit ({@code 5s}, {@code 1m}), as for the scrape interval, is refused
     * naming the unit the variable counts in: "must be an integer" alone left 1m to be guessed as 60.
     */
    @Test
    void aDurationWrittenWithAUnit_isRefused_sayingTheUnitItCountsIn() {
        Map<String, String> env = new HashMap<>(Map.of("OMCP_OPA_URL", "https://opa.example.com:8181",
                "OMCP_MGMT_AUDIT_FILE", "/var/lib/omcp/audit.jsonl", "OMCP_AUDIT_FSYNC", "batch",
                "OMCP_AUDIT_S3_ENDPOINT", "https://s3.example.com", "OMCP_AUDIT_S3_BUCKET", "omcp-audit",
                "OMCP_AUDIT_S3_ACCESS_KEY_ID", "AKIAEXAMPLE", "OMCP_AUDIT_S3_SECRET_ACCESS_KEY", "example-secret-access-key"));
        List<String> seconds = List.of("OMCP_SHUTDOWN_GRACE", "OMCP_TOOL_SOURCE_TIMEOUT", "OMCP_TOOL_DEADLINE", "OMCP_SESSION_LIFETIME",
                "OMCP_AUTH_LOCKOUT_WINDOW", "OMCP_AUTH_LOCKOUT_BASE", "OMCP_AUTH_LOCKOUT_MAX", "OMCP_OPA_CACHE_TTL",
                "OMCP_AUDIT_S3_FLUSH_INTERVAL", "OMCP_CONNECTOR_CONNECT_TIMEOUT", "OMCP_CONNECTOR_REQUEST_TIMEOUT",
                "OMCP_CONNECTOR_START_TIMEOUT", "OMCP_SERVICE_LABEL_CACHE_TTL");
        List<String> milliseconds = List.of("OMCP_OPA_TIMEOUT_MS", "OMCP_OPA_BREAKER_COOLDOWN_MS", "OMCP_AUDIT_FSYNC_INTERVAL_MS");
        seconds.forEach(name -> env.put(name, "5s"));
        milliseconds.forEach(name -> env.put(name, "2s"));

        InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class, () -> SettingsReader.read(env));

        assertThat(e).isNotNull();
        for (String name : seconds) {
            assertThat(e.problems()).as(name).anySatisfy(p -> assertThat(p).startsWith(name + " must be an integer from ")
                    .endsWith(" (seconds, written without a unit), got '5s'"));
        }
        for (String name : milliseconds) {
            assertThat(e.problems()).as(name).anySatisfy(p -> assertThat(p).startsWith(name + " must be an integer from ")
                    .endsWith(" (milliseconds, written without a unit), got '2s'"));
        }
        assertThat(e.problems()).as("nothing else refused").hasSize(seconds.size() + milliseconds.size());
    }

    @Test
    void aListMadeOnlyOfCommas_isRefused_notReadAsUnset() throws Exception {
        // OMCP_API_KEYS=, read as unset would open /mcp to anyone; the labels would quietly fall back to their defaults
        Map<String, String> env = Map.of("OMCP_API_KEYS", " , ,", "OMCP_ALLOWED_ORIGINS", ",", "OMCP_ALLOWED_HOSTS", ",,",
                "PROMETHEUS_URL", ",", "LOKI_SERVICE_LABELS", " ,");

        InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class, () -> SettingsReader.read(env));

        assertThat(e).as("refused, every one named").isNotNull();
        assertThat(e.problems()).containsExactlyInAnyOrder(env.keySet().stream()
                .map(name -> name + " is set but holds no entry, only commas and spaces; give at least one comma-separated entry, or unset it")
                .toArray(String[]::new));
        assertThat(SettingsReader.read(Map.of("OMCP_ALLOWED_HOSTS", "gw.example.com,,")).server().allowedHosts())
                .as("empty entries beside real ones are still dropped").containsExactly("gw.example.com");
    }

    @Test
    void aValueWithControlCharacters_isShownEscaped_soItCanNeitherDriveTheTerminalNorForgeAProblemLine() {
        // an escape sequence (here: set the terminal's title) or a line break inside a value went to stderr as written
        InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class, () -> SettingsReader.read(Map.of(
                "OMCP_LOG_LEVEL", "in\u001b]0;owned\u0007fo",
                "PORT", "80\n  - OMCP_AUTH is fine",
                "OMCP_LOG_FORMAT", "js\u202eon")));

        assertThat(e.problems()).containsExactlyInAnyOrder(
                "OMCP_LOG_LEVEL must be one of trace, debug, info, warn, error, got 'in\\u001b]0;owned\\u0007fo'",
                "PORT must be an integer from 0 to 65535, got '80\\n  - OMCP_AUTH is fine'",
                "OMCP_LOG_FORMAT must be one of text, json, got 'js\\u202eon'");
        assertThat(e.getMessage().lines()).hasSize(4);
        assertThat(e.getMessage()).doesNotContain("\u001b", "\u0007", "\u202e");
    }

    /** Each would otherwise start and fail later: at the first dead letter, registration or report, or as "cannot be read". */
    @Test
    void everyFileVariable_namingADirectory_isReportedAtOnce(@TempDir Path dir) throws Exception {
        List<String> fileVariables = List.of("OMCP_MGMT_AUDIT_FILE", "OMCP_AUDIT_WEBHOOK_DEADLETTER", "OMCP_SERVICE_CATALOG_FILE",
                "OMCP_IP_ENRICH_FILE", "OMCP_POSTMORTEM_TEMPLATE", "OMCP_USERS_FILE", "OMCP_AUTH_REVOCATION_FILE", "OMCP_RBAC_POLICY_FILE",
                "CONFIG_PATH", "PLUGIN_TRUST_ROOT", "OMCP_POSTMORTEMS_FILE", "OMCP_TOKEN_BUDGET_FILE");
        Map<String, String> env = new HashMap<>();
        fileVariables.forEach(name -> env.put(name, dir.toString()));
        env.put("OMCP_AUDIT_WEBHOOK_URL", "https://93.184.215.14/audit");
        env.put("OMCP_AUTH", "basic"); // a users file without a mode is a problem of its own

        InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class, () -> SettingsReader.read(env));

        assertThat(e).as("a directory in a file variable refuses the start").isNotNull();
        for (String name : fileVariables) {
            assertThat(e.problems()).as(name).anySatisfy(p -> assertThat(p).startsWith(name + " names a directory"));
        }
        assertThat(e.problems()).hasSize(fileVariables.size());
        Path file = Files.writeString(dir.resolve("sources.yaml"), "sources: []\n");
        assertThat(SettingsReader.read(Map.of("CONFIG_PATH", file.toString())).connectors().configPath()).contains(file.toString());
    }

    @Test
    void anAliasSetBesideItsCanonicalName_toAnotherValue_isAmbiguous_andRefusesTheStart() {
        InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class, () -> SettingsReader.read(Map.of(
                "PROMETHEUS_URL", "http://prom-a:9090", "METRICS_URL", "http://prom-b:9090",
                "LOKI_SERVICE_LABELS", "job", "LOGS_SERVICE_LABELS", "app")));

        assertThat(e).as("neither is silently dropped").isNotNull();
        assertThat(e.problems()).containsExactlyInAnyOrder(
                "PROMETHEUS_URL and its alias METRICS_URL are both set, to different values (not shown); they are one setting,"
                        + " so keep one of them (unset METRICS_URL or make both equal)",
                "LOKI_SERVICE_LABELS and its alias LOGS_SERVICE_LABELS are both set, to different values (not shown); they are one"
                        + " setting, so keep one of them (unset LOGS_SERVICE_LABELS or make both equal)");
        assertThat(e.getMessage()).doesNotContain("prom-a").doesNotContain("prom-b");
    }

    @Test
    void anAliasSetBesideItsCanonicalName_toTheSameValue_orBlank_isFine() throws Exception {
        Settings same = SettingsReader.read(Map.of("PROMETHEUS_URL", "http://prom:9090", "METRICS_URL", " http://prom:9090 "));
        assertThat(same.connectors().environmentSources()).singleElement()
                .satisfies(urls -> assertThat(urls.urls()).containsExactly("http://prom:9090"));
        Settings blankAlias = SettingsReader.read(Map.of("LOKI_URL", "http://loki:3100", "LOGS_URL", ""));
        assertThat(blankAlias.connectors().environmentSources()).singleElement()
                .satisfies(urls -> assertThat(urls.urls()).containsExactly("http://loki:3100"));
    }

    @Test
    void wordsAreReadInAnyCaseAndWithBlanksAround_andABadOneIsShownAsWritten() throws Exception {
        Settings settings = SettingsReader.read(Map.of("OMCP_LOG_LEVEL", " DEBUG ", "OMCP_ALLOW_PRIVATE_BACKENDS", "Yes", "OMCP_LOG_FORMAT", ""));
        assertThat(settings.logging().level()).isEqualTo("debug");
        assertThat(settings.logging().format()).as("empty is unset").isEqualTo("text");
        assertThat(settings.connectors().allowPrivateBackends()).isTrue();

        InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class, () -> SettingsReader.read(Map.of(
                "OMCP_LOG_LEVEL", "Verbose", "OMCP_ALLOW_PRIVATE_BACKENDS", "Ja")));
        assertThat(e.problems()).containsExactlyInAnyOrder(
                "OMCP_LOG_LEVEL must be one of trace, debug, info, warn, error, got 'Verbose'",
                "OMCP_ALLOW_PRIVATE_BACKENDS must be true or false (also 1/0, yes/no, on/off), got 'Ja'");
    }

    /**
     * The Host guard compares names without their port, so an entry with a port, a scheme or a path
     * never matched: the gateway started and refused every request to the name the operator had
     * listed, telling them to list it in OMCP_ALLOWED_HOSTS.
     */
    @Test
    void allowedHosts_thatCouldNeverMatchAHostHeader_areRefused_namingTheForm() throws Exception {
        for (String unusable : List.of("gw.example.com:8443", "https://gw.example.com", "gw.example.com/mcp", "2001:db8::1", "*")) {
            InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class,
                    () -> SettingsReader.read(Map.of("OMCP_ALLOWED_HOSTS", "ok.example.com," + unusable)));
            assertThat(e).as(unusable).isNotNull();
            assertThat(e.problems()).as(unusable).containsExactly("OMCP_ALLOWED_HOSTS entry '" + unusable + "' must be a host name"
                    + " without scheme, port or path, such as gw.example.com, or an IP address (IPv6 in brackets: [2001:db8::1])");
        }
        assertThat(SettingsReader.read(Map.of("OMCP_ALLOWED_HOSTS", "gw.example.com, 10.0.0.5,[2001:db8::1],my_host")).server()
                .allowedHosts()).containsExactly("gw.example.com", "10.0.0.5", "[2001:db8::1]", "my_host");
    }

    /**
     * HOST with a port was refused only by the HTTP server, seconds into the start ("cannot listen on
     * localhost:3000:0"), after the start-up had warned that a gateway on "localhost:3000" was open
     * to the network.
     */
    @Test
    void aHostWithAPortOrAScheme_isRefusedWhenTheSettingsAreRead_sayingWhereThePortGoes() {
        Map<String, String> refused = Map.of(
                "localhost:3000",
                "HOST takes a host or address only; put the port in PORT, got 'localhost:3000' (HOST=localhost PORT=3000)",
                "[::1]:8080", "HOST takes a host or address only; put the port in PORT, got '[::1]:8080' (HOST=::1 PORT=8080)",
                "http://gw.example.com:3000", "HOST takes a host or address only, without scheme or path; put the port in PORT, "
                        + "got 'http://gw.example.com:3000'",
                "gw.example.com/mcp",
                "HOST takes a host or address only, without scheme or path; put the port in PORT, got 'gw.example.com/mcp'",
                "gw example.com", "HOST must be a host name or an IP address (IPv6 with or without brackets: :: or [::1]), "
                        + "got 'gw example.com'");
        refused.forEach((host, problem) -> {
            InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class,
                    () -> SettingsReader.read(Map.of("HOST", host, "PORT", "0", "OMCP_LOG_FORMAT", "xml")));
            assertThat(e).as(host).isNotNull();
            assertThat(e.problems()).as(host).contains(problem).as("reported with the others, at once").hasSize(2);
        });
    }

    @Test
    void aHostNameOrAnyIpLiteral_isAccepted_andABracketedIpv6LosesItsBrackets_soTheAnnouncedUrlHasOnePair() throws Exception {
        Map<String, String> accepted = Map.of("0.0.0.0", "0.0.0.0", "::", "::", "::1", "::1", "[::1]", "::1",
                "[2001:db8::5]", "2001:db8::5", "fe80::1%eth0", "fe80::1%eth0", "gw.example.com", "gw.example.com",
                "my_host", "my_host", "localhost", "localhost");
        for (var host : accepted.entrySet()) {
            assertThat(SettingsReader.read(Map.of("HOST", host.getKey())).server().host()).as(host.getKey()).isEqualTo(host.getValue());
        }
    }

    @Test
    void allowedOrigins_thatNoBrowserSends_areRefused_withoutRepeatingUserInfo() throws Exception {
        // an Origin header is scheme://host[:port]: user info, a query, a fragment or a port out of range never arrives
        for (String unusable : List.of("https://ui.example.com?x=1", "https://ui.example.com#top", "https://ui.example.com:0",
                "https://ui.example.com:65536", "https://ui.example.com:x")) {
            InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class,
                    () -> SettingsReader.read(Map.of("OMCP_ALLOWED_ORIGINS", unusable)));
            assertThat(e).as(unusable).isNotNull();
            assertThat(e.problems()).as(unusable).containsExactly("OMCP_ALLOWED_ORIGINS entry '" + unusable
                    + "' must be an origin like https://ui.example.com or http://localhost:5173");
        }
        InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class,
                () -> SettingsReader.read(Map.of("OMCP_ALLOWED_ORIGINS", "https://admin:s3cret-leak@ui.example.com")));
        assertThat(e).isNotNull();
        assertThat(e.problems()).singleElement().asString().doesNotContain("s3cret-leak")
                .contains("must be an origin like https://ui.example.com");
        assertThat(SettingsReader.read(Map.of("OMCP_ALLOWED_ORIGINS", "https://ui.example.com, http://localhost:5173/,"
                + "http://[::1]:8080")).server().allowedOrigins()).hasSize(3);
    }

    /**
     * A URL setting is repeated in a problem only when it cannot carry a credential: user info
     * ({@code user:password@}) or a query ({@code ?token=}) is never shown, whatever else is wrong with it.
     */
    @Test
    void aUrlThatMayCarryCredentials_isNeverRepeatedInAProblem() {
        Map<String, String> s3 = Map.of("OMCP_AUDIT_S3_BUCKET", "audit", "OMCP_AUDIT_S3_ACCESS_KEY_ID", "AKIAEXAMPLE",
                "OMCP_AUDIT_S3_SECRET_ACCESS_KEY", "not-the-leak-under-test");
        List<Map<String, String>> envs = List.of(
                with(s3, "OMCP_AUDIT_S3_ENDPOINT", "http://minio:Pa55w0rd-leak@minio.example.com:9000"),
                with(s3, "OMCP_AUDIT_S3_ENDPOINT", "minio:Pa55w0rd-leak@minio.example.com:9000"),
                Map.of("OMCP_IP_ENRICH_RDAP", "ftp://rdap:Pa55w0rd-leak@rdap.example.com"),
                Map.of("OMCP_IP_ENRICH_RDAP", "rdap:Pa55w0rd-leak@rdap.example.com"),
                Map.of("OMCP_OPA_URL", "https://opa.example.com/?access_token=Pa55w0rd-leak"));
        for (Map<String, String> env : envs) {
            InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class, () -> SettingsReader.read(env));
            assertThat(e).as(env.toString()).isNotNull();
            assertThat(e.getMessage()).as(env.toString()).doesNotContain("Pa55w0rd-leak").contains("not shown");
        }
    }

    private static Map<String, String> with(Map<String, String> env, String name, String value) {
        Map<String, String> all = new HashMap<>(env);
        all.put(name, value);
        return all;
    }

    @Test
    void toolTimeouts_areComparedOnlyWhenBothWereReadAsGiven() {
        InvalidSettingsException mistyped = catchThrowableOfType(InvalidSettingsException.class, () -> SettingsReader.read(Map.of(
                "OMCP_TOOL_SOURCE_TIMEOUT", "10s", "OMCP_TOOL_DEADLINE", "5")));
        // one problem, the operator's: not a second one about the default that stood in for it
        assertThat(mistyped.problems()).singleElement().satisfies(p -> assertThat(p).startsWith("OMCP_TOOL_SOURCE_TIMEOUT")
                .contains("10s").doesNotContain("must not exceed"));

        InvalidSettingsException larger = catchThrowableOfType(InvalidSettingsException.class, () -> SettingsReader.read(Map.of(
                "OMCP_TOOL_SOURCE_TIMEOUT", "30", "OMCP_TOOL_DEADLINE", "5")));
        assertThat(larger.problems()).singleElement().satisfies(p -> assertThat(p)
                .isEqualTo("OMCP_TOOL_SOURCE_TIMEOUT (30 s) must not exceed OMCP_TOOL_DEADLINE (5 s)"));
    }

    @Test
    void apiKeys_areSplitAtTheFirstColon() throws Exception {
        Settings settings = SettingsReader.read(Map.of("OMCP_API_KEYS", " ci:tok:en-with-colons-123 , bot:0123456789abcdef "));
        assertThat(settings.agent().apiKeys()).extracting(Settings.ApiKeyEntry::name).containsExactly("ci", "bot");
        assertThat(settings.agent().apiKeys().getFirst().token()).isEqualTo("tok:en-with-colons-123");
        assertThat(settings.agent().apiKeys().toString()).doesNotContain("0123456789abcdef");
    }

    @Test
    void duplicateKeyNames_areRefused() {
        InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class,
                () -> SettingsReader.read(Map.of("OMCP_API_KEYS", "a:0123456789abcdef,a:fedcba9876543210")));
        assertThat(e.problems()).containsExactly("OMCP_API_KEYS entry 2 (key 'a') has the same name as entry 1; names must be unique");
    }

    @Test
    void twoKeysWithOneToken_areRefused_withoutShowingIt() {
        // the token would authenticate only the first key (and its tenant): the second would never work
        String token = "0123456789abcdef0123";
        InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class,
                () -> SettingsReader.read(Map.of("OMCP_API_KEYS", "ci:" + token + ",bot:fedcba9876543210,ops:" + token)));
        assertThat(e.problems()).containsExactly("OMCP_API_KEYS entry 3 (key 'ops') has the same token as entry 1; "
                + "give each key a token of its own");
        assertThat(e.getMessage()).doesNotContain(token);
    }

    @Test
    void anEntryWrittenTokenColonName_neverPutsTheTokenInAProblem() {
        String token = "0123456789abcdef0123456789abcdef";
        InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class,
                () -> SettingsReader.read(Map.of("OMCP_API_KEYS", "ok:fedcba9876543210," + token + ":ci")));
        assertThat(e.problems()).containsExactly("OMCP_API_KEYS entry 2 has a token shorter than 16 characters; "
                + "write entries as name:token and generate a token with: openssl rand -hex 32");
        assertThat(e.getMessage()).doesNotContain(token);
    }

    @Test
    void aTokenShapedName_isNotShown_whenInvalidOrRepeated() {
        String invalid = "tok/en+with/base64=chars";
        String repeated = "0123456789abcdef0123";
        InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class, () -> SettingsReader.read(Map.of(
                "OMCP_API_KEYS", invalid + ":some-name," + repeated + ":fedcba9876543210," + repeated + ":fedcba9876543210")));
        assertThat(e.problems()).containsExactly(
                "OMCP_API_KEYS entry 1 has an invalid name (not shown: it may be a token); write entries as name:token, "
                        + "with names of 1-64 of A-Z, a-z, 0-9, '_', '.', '@', '-'",
                "OMCP_API_KEYS entry 3 has the same name as entry 2; names must be unique");
        assertThat(e.getMessage()).doesNotContain(invalid).doesNotContain(repeated);
    }

    @Test
    void theLaunchersToolTimeouts_areTheEmbeddedToolkitsDefaults_soBothWaitAlike() {
        assertThat(Duration.ofSeconds(Long.parseLong(Variables.TOOL_SOURCE_TIMEOUT.defaultValue())))
                .isEqualTo(dev.omcp.core.tools.observability.Toolkit.DEFAULT_PER_SOURCE_TIMEOUT);
        assertThat(Duration.ofSeconds(Long.parseLong(Variables.TOOL_DEADLINE.defaultValue())))
                .isEqualTo(dev.omcp.core.tools.observability.Toolkit.DEFAULT_DEADLINE);
    }

    @Test
    void sessionLimits_defaultTo1000PerCredentialAnd10000InAll_andAreRead_andOneAboveTheTotalIsRefused() throws Exception {
        Settings.Agent defaults = SettingsReader.read(Map.of()).agent();
        assertThat(defaults.maxSessionsPerCredential()).isEqualTo(1_000);
        assertThat(defaults.maxSessions()).isEqualTo(10_000);

        Settings.Agent set = SettingsReader.read(Map.of("OMCP_MCP_MAX_SESSIONS_PER_CREDENTIAL", "50", "OMCP_MCP_MAX_SESSIONS", "200")).agent();
        assertThat(set.maxSessionsPerCredential()).isEqualTo(50);
        assertThat(set.maxSessions()).isEqualTo(200);

        assertThatThrownBy(() -> SettingsReader.read(Map.of("OMCP_MCP_MAX_SESSIONS_PER_CREDENTIAL", "500", "OMCP_MCP_MAX_SESSIONS", "100")))
                .isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("OMCP_MCP_MAX_SESSIONS_PER_CREDENTIAL (500) must not exceed OMCP_MCP_MAX_SESSIONS (100)");
        assertThatThrownBy(() -> SettingsReader.read(Map.of("OMCP_MCP_MAX_SESSIONS", "0", "OMCP_MCP_MAX_SESSIONS_PER_CREDENTIAL", "lots")))
                .isInstanceOf(InvalidSettingsException.class)
                .hasMessageContaining("OMCP_MCP_MAX_SESSIONS must be an integer from 1 to 1000000, got '0'")
                .hasMessageContaining("OMCP_MCP_MAX_SESSIONS_PER_CREDENTIAL must be an integer from 1 to 1000000");
    }
}
