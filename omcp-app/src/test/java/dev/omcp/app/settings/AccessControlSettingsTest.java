package dev.omcp.app.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AccessControlSettingsTest {
    private static AccessControlSettings read(Map<String, String> env) throws InvalidSettingsException {
        return SettingsReader.read(env).access();
    }

    @Test
    void defaultsAreAnonymousWithTheSpecLockout() throws Exception {
        AccessControlSettings access = read(Map.of());
        assertThat(access.authMode()).isEqualTo("anonymous");
        assertThat(access.sessionLifetime()).isEqualTo(Duration.ofHours(12));
        assertThat(access.lockout().orElseThrow().maxFailures()).isEqualTo(5);
        assertThat(access.lockout().orElseThrow().window()).isEqualTo(Duration.ofSeconds(900));
        assertThat(access.lockout().orElseThrow().baseLock()).isEqualTo(Duration.ofSeconds(60));
        assertThat(access.lockout().orElseThrow().maxLock()).isEqualTo(Duration.ofSeconds(3600));
        assertThat(access.csrfBypassBearer()).isTrue();
        assertThat(access.cspStrictReport()).isFalse();
        assertThat(access.trustProxy()).isEqualTo("false");
        assertThat(access.passwordRules().minLength()).isEqualTo(12);
        assertThat(access.passwordRules().minClasses()).isEqualTo(3);
    }

    @Test
    void aTenantsShareOfTheBlocklist_isATenthOfItByDefault_andASetValueOutside1To80000RefusesTheStart() throws Exception {
        assertThat(read(Map.of()).revocationsPerTenant()).isEqualTo(10_000);
        assertThat(read(Map.of("OMCP_AUTH_REVOCATIONS_PER_TENANT", "80000")).revocationsPerTenant()).isEqualTo(80_000);
        for (String bad : List.of("0", "80001", "10%", "lots")) {
            assertThatThrownBy(() -> read(Map.of("OMCP_AUTH_REVOCATIONS_PER_TENANT", bad))).as(bad)
                    .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems())
                            .containsExactly("OMCP_AUTH_REVOCATIONS_PER_TENANT must be an integer from 1 to 80000, got '" + bad + "'"));
        }
    }

    @Test
    void everyInvalidValueIsReportedAtOnce_andSecretsAreNotRepeated() {
        Map<String, String> env = new HashMap<>();
        env.put("OMCP_AUTH", "kerberos");
        env.put("OMCP_AUTH_LOCKOUT_MAX_FAILURES", "0");
        env.put("OMCP_AUTH_LOCKOUT_DISABLED", "maybe");
        env.put("OMCP_TRUST_PROXY", "proxy.local");
        env.put("OMCP_REDIS_URL", "http://user:hunter2@redis:6379");
        env.put("OMCP_PASSWORD_MIN_CLASSES", "5");
        env.put("OMCP_OPA_URL", "opa:8181");
        assertThatThrownBy(() -> read(env)).isInstanceOfSatisfying(InvalidSettingsException.class, e -> {
            assertThat(e.problems()).hasSize(7);
            assertThat(e.getMessage()).contains("OMCP_AUTH must be one of anonymous, basic, oidc")
                    .contains("OMCP_AUTH_LOCKOUT_MAX_FAILURES").contains("OMCP_AUTH_LOCKOUT_DISABLED must be true or false")
                    .contains("OMCP_TRUST_PROXY").contains("OMCP_REDIS_URL").contains("OMCP_PASSWORD_MIN_CLASSES")
                    .contains("OMCP_OPA_URL").doesNotContain("hunter2");
        });
    }

    @Test
    void anOpaUrlIsCheckedAsAUrl_andItsCredentialsAreNeverRepeated() throws Exception {
        for (String invalid : List.of("http://u:opa-pass-123@127.0.0.1:1 x", "ftp://u:opa-pass-123@opa:8181", "http://u:opa-pass-123@/")) {
            assertThatThrownBy(() -> read(Map.of("OMCP_OPA_URL", invalid))).as(invalid)
                    .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.getMessage())
                            .contains("OMCP_OPA_URL must be an http(s) URL").doesNotContain("opa-pass-123"));
        }
        assertThatThrownBy(() -> read(Map.of("OMCP_OPA_URL", "http://opa :8181"))).hasMessageContaining("got 'http://opa :8181'");
        assertThat(read(Map.of("OMCP_OPA_URL", "https://opa.example.com:8181/base")).opa()).isPresent();
    }

    private static String problemOf(Map<String, String> env) {
        try {
            read(env);
        } catch (InvalidSettingsException e) {
            assertThat(e.problems()).as("one problem for %s", env).hasSize(1);
            return e.problems().getFirst();
        }
        throw new AssertionError("the start was not refused for " + env);
    }

    @Test
    void theOpaBreaker_opensAfterFiveFailuresForFiveSeconds_unlessSetOtherwise() throws Exception {
        AccessControlSettings.Opa defaults = read(Map.of("OMCP_OPA_URL", "https://opa:8181")).opa().orElseThrow();
        assertThat(defaults.breakerFailures()).isEqualTo(5);
        assertThat(defaults.breakerCoolDown()).isEqualTo(Duration.ofSeconds(5));

        AccessControlSettings.Opa set = read(Map.of("OMCP_OPA_URL", "https://opa:8181", "OMCP_OPA_BREAKER_FAILURES", "2",
                "OMCP_OPA_BREAKER_COOLDOWN_MS", "30000")).opa().orElseThrow();
        assertThat(set.breakerFailures()).isEqualTo(2);
        assertThat(set.breakerCoolDown()).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void invalidOpaBreakerSettings_areReportedTogether() {
        assertThatThrownBy(() -> read(Map.of("OMCP_OPA_URL", "https://opa:8181", "OMCP_OPA_BREAKER_FAILURES", "0",
                "OMCP_OPA_BREAKER_COOLDOWN_MS", "5s")))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).containsExactly(
                        "OMCP_OPA_BREAKER_FAILURES must be an integer from 1 to 100, got '0'",
                        "OMCP_OPA_BREAKER_COOLDOWN_MS must be an integer from 100 to 300000 (milliseconds, written without a unit),"
                                + " got '5s'"));
        assertThatThrownBy(() -> read(Map.of("OMCP_OPA_BREAKER_FAILURES", "3")))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).singleElement().asString()
                        .contains("OMCP_OPA_BREAKER_FAILURES").contains("OMCP_OPA_URL"));
    }

    @Test
    void anOpaToken_isKept_forTheBearerHeader_andNeverShown() throws Exception {
        AccessControlSettings.Opa opa = read(Map.of("OMCP_OPA_URL", "https://opa:8181", "OMCP_OPA_TOKEN", "opa-token-value-1"))
                .opa().orElseThrow();
        assertThat(opa.token()).contains("opa-token-value-1");
        assertThat(opa.toString()).contains("token=hidden").doesNotContain("opa-token-value-1");
        assertThat(read(Map.of("OMCP_OPA_URL", "https://opa:8181")).opa().orElseThrow().token()).isEmpty();
    }

    @Test
    void anOpaTokenThatCannotBeAHeader_refusesTheStart_withoutShowingIt() {
        assertThat(problemOf(Map.of("OMCP_OPA_URL", "http://opa:8181", "OMCP_OPA_TOKEN", "Bearer opa-token-value-1")))
                .startsWith("OMCP_OPA_TOKEN starts with 'Bearer ', which the gateway adds itself").doesNotContain("opa-token-value-1");
        assertThat(problemOf(Map.of("OMCP_OPA_URL", "http://opa:8181", "OMCP_OPA_TOKEN", "opa-token\nvalue-1")))
                .startsWith("OMCP_OPA_TOKEN must be printable ASCII without spaces").doesNotContain("value-1");
    }

    @Test
    void anOpaUrlWithCredentials_refusesTheStart_pointingAtTheTokenSetting_withoutShowingThem() {
        // the JDK client drops user info silently, so OPA would answer 401 to every question
        assertThat(problemOf(Map.of("OMCP_OPA_URL", "http://svc:opa-pass-123@opa:8181")))
                .startsWith("OMCP_OPA_URL must not carry credentials").contains("OMCP_OPA_TOKEN").doesNotContain("opa-pass-123");
    }

    @Test
    void anOpaUrlWithAQueryOrFragment_refusesTheStart() {
        // the decision path was appended after the query: http://opa:8181?x=1/v1/data/... asks OPA's root
        assertThat(problemOf(Map.of("OMCP_OPA_URL", "http://opa:8181/#frag")))
                .startsWith("OMCP_OPA_URL must not have a query ('?...') or a fragment ('#...')").contains("got 'http://opa:8181/#frag'");
        // a query may hold a token (?access_token=...), so that value is not repeated
        assertThat(problemOf(Map.of("OMCP_OPA_URL", "http://opa:8181?pretty=true")))
                .startsWith("OMCP_OPA_URL must not have a query ('?...') or a fragment ('#...')").contains("(the value is not shown")
                .doesNotContain("pretty=true");
    }

    @Test
    void anOpaUrlThatNamesTheDecision_isTakenAsItIs_unlessOmcpOpaDecisionIsSetToo() throws Exception {
        assertThat(read(Map.of("OMCP_OPA_URL", "http://opa:8181/v1/data/custom/rule/")).opa()).isPresent();
        assertThat(problemOf(Map.of("OMCP_OPA_URL", "http://opa:8181/v1/data/custom/rule", "OMCP_OPA_DECISION", "omcp/authz/allow")))
                .startsWith("OMCP_OPA_URL names a decision (its path holds /v1/data/) and OMCP_OPA_DECISION is set too");
        assertThat(problemOf(Map.of("OMCP_OPA_URL", "http://opa:8181/v1/data/")))
                .startsWith("OMCP_OPA_URL ends in /v1/data, which the gateway appends itself");
        assertThat(problemOf(Map.of("OMCP_OPA_URL", "http://opa:8181/v1/data/omcp//allow")))
                .startsWith("OMCP_OPA_URL has an empty segment");
    }

    @Test
    void anOpaDecisionPath_mayUseDotsOrSlashes_butNoEmptySegmentNorTheApiPrefix() throws Exception {
        for (String usable : List.of("omcp.authz.allow", "/omcp/authz/allow/", "team-a/authz_v2/allow")) {
            assertThat(read(Map.of("OMCP_OPA_URL", "http://opa:8181", "OMCP_OPA_DECISION", usable)).opa()).as(usable).isPresent();
        }
        for (String empty : List.of("omcp//allow", "omcp..allow", "omcp./allow", "/", "...")) {
            assertThat(problemOf(Map.of("OMCP_OPA_URL", "http://opa:8181", "OMCP_OPA_DECISION", empty))).as(empty)
                    .startsWith("OMCP_OPA_DECISION has an empty segment").contains("got '" + empty + "'");
        }
        assertThat(problemOf(Map.of("OMCP_OPA_URL", "http://opa:8181", "OMCP_OPA_DECISION", "/v1/data/omcp/authz/allow")))
                .startsWith("OMCP_OPA_DECISION starts with v1/data, which the gateway adds itself");
        assertThat(problemOf(Map.of("OMCP_OPA_URL", "http://opa:8181", "OMCP_OPA_DECISION", "omcp/authz/allow?x")))
                .startsWith("OMCP_OPA_DECISION must name a decision such as omcp/authz/allow").contains("got 'omcp/authz/allow?x'");
    }

    @Test
    void aLoginConfigured_withoutOmcpAuth_refusesTheStart_ratherThanRunTheManagementApiWithoutLogin() throws Exception {
        assertThatThrownBy(() -> read(Map.of("OMCP_OIDC_ISSUER", "https://idp.example.com", "OMCP_OIDC_CLIENT_SECRET", "s3cr3t-oidc")))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.getMessage())
                        .contains("OMCP_AUTH is not set, so the management API would accept every request without login")
                        .contains("set OMCP_AUTH=oidc to require it, or OMCP_AUTH=anonymous to run without login on purpose")
                        .doesNotContain("s3cr3t-oidc").doesNotContain("idp.example.com"));
        assertThatThrownBy(() -> read(Map.of("OMCP_USERS_FILE", "/etc/omcp/users.json")))
                .hasMessageContaining("OMCP_USERS_FILE configures a login; set OMCP_AUTH=basic");
        // chosen on purpose, anonymous keeps the spec's behaviour; the login variables are only unused
        assertThat(read(Map.of("OMCP_AUTH", "anonymous", "OMCP_OIDC_ISSUER", "https://idp.example.com")).oidc()).isEmpty();
        assertThat(read(Map.of("OMCP_SESSION_LIFETIME", "3600")).oidc()).as("not a login of its own").isEmpty();
    }

    @Test
    void oidcModeNeedsIssuerClientAndRedirect_andValidatesTheRoleMap() {
        Map<String, String> env = new HashMap<>();
        env.put("OMCP_AUTH", "oidc");
        env.put("OMCP_OIDC_ISSUER", "http://idp.example.com");
        env.put("OMCP_OIDC_ROLE_MAP", "{\"sre\": 5}");
        env.put("OMCP_OIDC_PROFILE", "facebook");
        assertThatThrownBy(() -> read(env)).isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.getMessage())
                .contains("OMCP_OIDC_ISSUER must be an https URL").contains("OMCP_OIDC_CLIENT_ID is required")
                .contains("OMCP_OIDC_REDIRECT_URI is required").contains("OMCP_OIDC_ROLE_MAP value of 'sre'")
                .contains("OMCP_OIDC_PROFILE must be one of"));
    }

    @Test
    void anOidcUrlWithUserInfo_isNotRepeated_whileAPlainOneIs() {
        Map<String, String> env = new HashMap<>();
        env.put("OMCP_AUTH", "oidc");
        env.put("OMCP_OIDC_ISSUER", "http://admin:hunter2@idp.example.com");
        env.put("OMCP_OIDC_CLIENT_ID", "omcp");
        env.put("OMCP_OIDC_REDIRECT_URI", "ftp://gateway.example.com/api/auth/oidc/callback");
        assertThatThrownBy(() -> read(env)).isInstanceOfSatisfying(InvalidSettingsException.class, e -> {
            assertThat(e.getMessage()).contains("OMCP_OIDC_ISSUER must be an https URL (http only on localhost) (the value is not shown")
                    .contains("OMCP_OIDC_REDIRECT_URI must be an absolute http(s) URL, got 'ftp://gateway.example.com/api/auth/oidc/callback'")
                    .doesNotContain("hunter2");
        });
    }

    @Test
    void oidcProfilesSetClaimDefaults_explicitSettingsWin() throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("OMCP_AUTH", "oidc");
        env.put("OMCP_OIDC_ISSUER", "https://login.example.com/tenant/v2.0");
        env.put("OMCP_OIDC_CLIENT_ID", "omcp");
        env.put("OMCP_OIDC_REDIRECT_URI", "https://gw.example.com/api/auth/oidc/callback");
        env.put("OMCP_OIDC_PROFILE", "azure-ad");
        AccessControlSettings.Oidc entra = read(env).oidc().orElseThrow();
        assertThat(entra.rolesClaim()).isEqualTo("roles");
        assertThat(entra.tenantClaim()).isEqualTo("tid");
        assertThat(entra.scopes()).containsExactly("openid", "profile", "email");
        env.put("OMCP_OIDC_PROFILE", "okta");
        env.put("OMCP_OIDC_TENANT_CLAIM", "org");
        env.put("OMCP_OIDC_SCOPES", "openid,email");
        AccessControlSettings.Oidc okta = read(env).oidc().orElseThrow();
        assertThat(okta.scopes()).containsExactly("openid", "email", "groups");
        assertThat(okta.tenantClaim()).isEqualTo("org");
        assertThat(okta.toString()).doesNotContain("secret=");
    }

    @Test
    void theStoreUrlAliasIsAccepted() throws Exception {
        assertThat(read(Map.of("OMCP_STORE_URL", "redis://127.0.0.1:6380")).redisUrl()).contains("redis://127.0.0.1:6380");
        assertThat(read(Map.of("OMCP_STORE_URL", "redis://b:2", "OMCP_REDIS_URL", "redis://b:2")).redisUrl())
                .as("the same value under both names").contains("redis://b:2");
    }

    @Test
    void theRedisClientCertificateFiles_areKeptTogetherWithARedissUrl_andRefusedAloneOrWithAPlainOne() throws Exception {
        AccessControlSettings.RedisTlsFiles tls = read(Map.of("OMCP_REDIS_URL", "rediss://redis.internal:6380",
                "OMCP_REDIS_CERT_FILE", "/etc/omcp/redis-client.crt", "OMCP_REDIS_KEY_FILE", "/etc/omcp/redis-client.key")).redisTls();
        assertThat(tls.certFile()).contains("/etc/omcp/redis-client.crt");
        assertThat(tls.keyFile()).contains("/etc/omcp/redis-client.key");
        assertThat(tls.caFile()).isEmpty();
        assertThatThrownBy(() -> read(Map.of("OMCP_REDIS_URL", "rediss://redis.internal:6380",
                "OMCP_REDIS_CERT_FILE", "/etc/omcp/redis-client.crt")))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).containsExactly(
                        "OMCP_REDIS_CERT_FILE is set but OMCP_REDIS_KEY_FILE is not; a client certificate needs its private key: set "
                                + "both or neither"));
        assertThatThrownBy(() -> read(Map.of("OMCP_REDIS_CERT_FILE", "/c.crt", "OMCP_REDIS_KEY_FILE", "/c.key")))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).containsExactly(
                        "OMCP_REDIS_CERT_FILE is set but OMCP_REDIS_URL is not, and it applies only with OMCP_REDIS_URL; set "
                                + "OMCP_REDIS_URL or unset OMCP_REDIS_CERT_FILE",
                        "OMCP_REDIS_KEY_FILE is set but OMCP_REDIS_URL is not, and it applies only with OMCP_REDIS_URL; set "
                                + "OMCP_REDIS_URL or unset OMCP_REDIS_KEY_FILE"));
        assertThatThrownBy(() -> read(Map.of("OMCP_REDIS_URL", "redis://redis.internal:6379",
                "OMCP_REDIS_CERT_FILE", "/c.crt", "OMCP_REDIS_KEY_FILE", "/c.key")))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).hasSize(2)
                        .allSatisfy(p -> assertThat(p).contains("is set but OMCP_REDIS_URL is not a rediss:// URL")));
    }

    @Test
    void theRedisCaFile_isKeptWithARedissUrl_andRefusedWithoutOneOrWithAPlainOne() throws Exception {
        assertThat(read(Map.of("OMCP_REDIS_URL", "rediss://redis.internal:6380", "OMCP_REDIS_CA_FILE", "/etc/omcp/redis-ca.pem"))
                .redisTls().caFile()).contains("/etc/omcp/redis-ca.pem");
        assertThatThrownBy(() -> read(Map.of("OMCP_REDIS_CA_FILE", "/etc/omcp/redis-ca.pem")))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).containsExactly(
                        "OMCP_REDIS_CA_FILE is set but OMCP_REDIS_URL is not, and it applies only with OMCP_REDIS_URL; set "
                                + "OMCP_REDIS_URL or unset OMCP_REDIS_CA_FILE"));
        assertThatThrownBy(() -> read(Map.of("OMCP_REDIS_URL", "redis://:pw-not-shown@redis.internal:6379",
                "OMCP_REDIS_CA_FILE", "/etc/omcp/redis-ca.pem")))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> {
                    assertThat(e.problems()).singleElement().asString().startsWith("OMCP_REDIS_CA_FILE is set but OMCP_REDIS_URL is not "
                            + "a rediss:// URL");
                    assertThat(e.getMessage()).doesNotContain("pw-not-shown");
                });
    }

    @Test
    void theStoreUrlAndItsAlias_setToDifferentValues_refuseTheStart_withoutShowingEither() {
        assertThatThrownBy(() -> read(Map.of("OMCP_STORE_URL", "redis://:alias-pass-1@a:1", "OMCP_REDIS_URL", "redis://:main-pass-2@b:2")))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> {
                    assertThat(e.problems()).containsExactly("OMCP_REDIS_URL and its alias OMCP_STORE_URL are both set, to different"
                            + " values (not shown); they are one setting, so keep one of them (unset OMCP_STORE_URL or make both equal)");
                    assertThat(e.getMessage()).doesNotContain("alias-pass-1").doesNotContain("main-pass-2");
                });
    }

    @Test
    void aRevocationFile_withTheSharedStore_refusesTheStart_sayingWhichToKeep() throws Exception {
        // each replica would replay its own, possibly stale, file into the shared list at start and copy the whole list
        // into its file: the replays raise the store's generation count, which hides a store that lost entries
        for (String url : List.of("OMCP_REDIS_URL", "OMCP_STORE_URL")) {
            assertThatThrownBy(() -> read(Map.of(url, "redis://:pass-3@redis:6379", "OMCP_AUTH_REVOCATION_FILE", "/var/lib/omcp/r.jsonl")))
                    .isInstanceOfSatisfying(InvalidSettingsException.class, e -> {
                        assertThat(e.problems()).containsExactly("OMCP_AUTH_REVOCATION_FILE is set together with the shared store"
                                + " (OMCP_REDIS_URL or its alias OMCP_STORE_URL), which keeps the revocations of every replica"
                                + " itself; the file is for a single gateway. Unset OMCP_AUTH_REVOCATION_FILE, or unset the store's"
                                + " URL to run one gateway with the file");
                        assertThat(e.getMessage()).doesNotContain("pass-3");
                    });
        }
        assertThat(read(Map.of("OMCP_AUTH_REVOCATION_FILE", "/var/lib/omcp/r.jsonl")).revocationFile()).contains("/var/lib/omcp/r.jsonl");
    }

    @Test
    void opaSettingsWithoutAnOpaUrl_refuseTheStart_namingTheUrl() {
        Map<String, String> env = Map.of("OMCP_OPA_DECISION", "omcp/authz/allow", "OMCP_OPA_CACHE_TTL", "10", "OMCP_OPA_TIMEOUT_MS", "500",
                "OMCP_OPA_TOKEN", "opa-token-value-1");
        assertThatThrownBy(() -> read(env)).isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems())
                .containsExactlyInAnyOrder(env.keySet().stream().map(name -> name + " is set but OMCP_OPA_URL is not, and it applies"
                        + " only with OMCP_OPA_URL; set OMCP_OPA_URL or unset " + name).toArray(String[]::new)));
    }

    @Test
    void aShortSecretIsRefused_withItsLengthOnly_alongsideOtherProblems() {
        Map<String, String> env = Map.of("OMCP_SESSION_SECRET", "hunter2-is-my-secret-xyz", "OMCP_SESSION_LIFETIME", "10");
        assertThatThrownBy(() -> read(env)).isInstanceOfSatisfying(InvalidSettingsException.class, e -> {
            assertThat(e.problems()).hasSize(2);
            assertThat(e.problems()).anySatisfy(problem -> assertThat(problem)
                    .startsWith("OMCP_SESSION_SECRET is 24 characters long; it needs at least 32")
                    .contains("openssl rand"));
            assertThat(e.getMessage()).doesNotContain("hunter2");
        });
    }

    @Test
    void aSecretOfExactly32Characters_isUsed_andNeverPrinted() throws Exception {
        String secret = "0123456789abcdef0123456789abcdef";
        AccessControlSettings access = read(Map.of("OMCP_SESSION_SECRET", secret));
        assertThat(access.sessionSecret()).contains(secret);
        assertThat(access.toString()).doesNotContain(secret);
    }

    /** As for the tool timeouts: a rejected value stands in as its default, and a comparison with it would blame a value never set. */
    @Test
    void theLockoutCap_isComparedWithTheFirstLockOnlyWhenBothWereReadAsGiven() {
        assertThatThrownBy(() -> read(Map.of("OMCP_AUTH_LOCKOUT_BASE", "1m", "OMCP_AUTH_LOCKOUT_MAX", "30")))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).containsExactly(
                        "OMCP_AUTH_LOCKOUT_BASE must be an integer from 1 to 86400 (seconds, written without a unit), got '1m'"));
        // spec 8: a first lock longer than the default cap needs the cap raised too, and the problem says so
        assertThatThrownBy(() -> read(Map.of("OMCP_AUTH_LOCKOUT_BASE", "7200")))
                .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).containsExactly(
                        "OMCP_AUTH_LOCKOUT_MAX (3600 s, the default) must not be shorter than OMCP_AUTH_LOCKOUT_BASE (7200 s); raise"
                                + " OMCP_AUTH_LOCKOUT_MAX or lower OMCP_AUTH_LOCKOUT_BASE"));
    }

    /**
     * Spec 5.2 rule 5. The value is kept in one canonical form: /api/settings told "trusted" from "not"
     * by comparing the text with "false", so OMCP_TRUST_PROXY=0 or FALSE, which trust nobody, showed as trusted.
     */
    @Test
    void trustProxy_isKeptInItsCanonicalForm_soEveryFormThatTrustsNobodyReadsAsFalse() throws Exception {
        Map<String, String> canonical = Map.of(
                "FALSE", "false", "0", "false", " false ", "false", "000", "false",
                "TRUE", "true", "LoopBack", "loopback", "2", "2",
                "10.0.0.5, [2001:DB8::1]", "10.0.0.5,2001:db8:0:0:0:0:0:1");
        for (Map.Entry<String, String> form : canonical.entrySet()) {
            assertThat(read(Map.of("OMCP_TRUST_PROXY", form.getKey())).trustProxy()).as(form.getKey()).isEqualTo(form.getValue());
        }
    }

    /** Read as unset, a list a template left empty (OMCP_TRUST_PROXY=${PROXIES},) would quietly make the proxy every client. */
    @Test
    void trustProxy_madeOnlyOfCommas_isRefused_likeEveryOtherList() {
        assertThatThrownBy(() -> read(Map.of("OMCP_TRUST_PROXY", " , ,"))).isInstanceOfSatisfying(InvalidSettingsException.class,
                e -> assertThat(e.problems()).containsExactly("OMCP_TRUST_PROXY is set but holds no entry, only commas and spaces;"
                        + " give at least one comma-separated entry, or unset it"));
    }

    /** Spec 5.2 rule 5 names no CIDR ranges and no negative or huge hop counts: each is refused, naming the variable. */
    @Test
    void trustProxy_formsOutsideTheSpec_areRefused_namingTheVariable() {
        for (String invalid : List.of("10.0.0.0/8", "-1", "99999999999999999999", "yes", "proxy.local,10.0.0.5")) {
            assertThatThrownBy(() -> read(Map.of("OMCP_TRUST_PROXY", invalid))).as(invalid)
                    .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).singleElement()
                            .satisfies(problem -> assertThat(problem).startsWith("OMCP_TRUST_PROXY ")));
        }
    }

    @Test
    void everyAccessControlVariableIsDocumentedInTheConfigurationPage() throws Exception {
        Path page = Path.of("..", "docs", "configuration.md");
        String text = Files.readString(page);
        for (Variable variable : Variables.ACCESS_CONTROL) {
            assertThat(text).as(variable.name()).contains("`" + variable.name() + "`");
        }
        assertThat(Files.readString(Path.of("..", "docs", "access-control.md"))).contains("OMCP_AUTH");
    }
}
