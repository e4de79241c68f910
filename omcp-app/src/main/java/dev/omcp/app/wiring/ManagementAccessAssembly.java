package dev.omcp.app.wiring;

import dev.omcp.adapters.http.access.ManagementGuard;
import dev.omcp.adapters.http.access.PolicyRoutes;
import dev.omcp.adapters.http.api.IdentityText;
import dev.omcp.adapters.http.auth.AuthMode;
import dev.omcp.adapters.http.auth.LoginRoutes;
import dev.omcp.adapters.http.auth.ScryptPasswordHasher;
import dev.omcp.adapters.http.auth.SessionCookies;
import dev.omcp.adapters.http.oidc.OidcClient;
import dev.omcp.adapters.http.oidc.OidcRoutes;
import dev.omcp.adapters.http.oidc.OidcSettings;
import dev.omcp.adapters.http.opa.OpaCircuitBreaker;
import dev.omcp.adapters.http.opa.OpaDecisionClient;
import dev.omcp.adapters.http.security.CspViolationReports;
import dev.omcp.adapters.http.security.CsrfProtection;
import dev.omcp.adapters.http.security.SecurityHeaders;
import dev.omcp.adapters.http.security.TrustedProxies;
import dev.omcp.adapters.http.server.HttpModule;
import dev.omcp.adapters.storage.auth.JsonClientRegistrationFile;
import dev.omcp.adapters.storage.auth.JsonUsersFile;
import dev.omcp.adapters.storage.auth.JsonlRevocationJournal;
import dev.omcp.adapters.storage.auth.UsersFileException;
import dev.omcp.adapters.storage.policy.InvalidPolicyFileException;
import dev.omcp.adapters.storage.policy.YamlPolicyFile;
import dev.omcp.adapters.storage.redis.RedisAccountLocks;
import dev.omcp.adapters.storage.redis.RedisConnection;
import dev.omcp.adapters.storage.redis.RedisRevocationStore;
import dev.omcp.adapters.storage.redis.RedisTls;
import dev.omcp.app.settings.AccessControlSettings;
import dev.omcp.core.auth.InMemoryAccountLocks;
import dev.omcp.core.auth.InMemoryRevocationStore;
import dev.omcp.core.auth.LoginAttemptsPerAddress;
import dev.omcp.core.auth.PasswordLoginService;
import dev.omcp.core.auth.RevocationService;
import dev.omcp.core.auth.SessionService;
import dev.omcp.core.auth.VerificationSlots;
import dev.omcp.core.auth.oidc.ClaimMapping;
import dev.omcp.core.auth.oidc.DynamicClientRegistrar;
import dev.omcp.core.auth.oidc.InMemoryClientRegistrationStore;
import dev.omcp.core.auth.oidc.ProvisionedIdentityMapping;
import dev.omcp.core.policy.BuiltinPolicy;
import dev.omcp.core.policy.InvalidPolicyException;
import dev.omcp.core.policy.OpaAccessPolicy;
import dev.omcp.core.policy.RolePolicy;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.audit.AuditTrail;
import dev.omcp.ports.auth.AccountLocks;
import dev.omcp.ports.auth.BlocklistShares;
import dev.omcp.ports.auth.ClientRegistrar;
import dev.omcp.ports.auth.ClientRegistrationStore;
import dev.omcp.ports.auth.PasswordLogin;
import dev.omcp.ports.auth.ProvisionedLogins;
import dev.omcp.ports.auth.RevocationStore;
import dev.omcp.ports.auth.SharedStateUnavailableException;
import dev.omcp.sdk.text.LogField;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds the management plane's access control from {@link AccessControlSettings}: the mode, the
 * session secret, shared or local state, the policy, the login routes and the guard every
 * {@code /api} route runs through. Part of the composition root; refuses to start (an exception,
 * exit code 1) on anything spec 5.2 says must not start.
 */
final class ManagementAccessAssembly {
    private static final Logger LOG = LoggerFactory.getLogger(ManagementAccessAssembly.class);
    /** Dynamic client registrations kept at most. */
    private static final int MAX_REGISTERED_CLIENTS = 1000;
    /** What GET and POST /api/auth/revocations need (LoginRoutes). */
    private static final Permission REVOKE_SESSIONS = new Permission("users", "delete");

    private ManagementAccessAssembly() {}

    /** Everything the rest of the assembly needs from access control. */
    record Built(
            ManagementGuard guard,
            List<HttpModule> modules,
            SecurityHeaders headers,
            AccessPolicy policy,
            String authMode,
            boolean secretEphemeral,
            boolean trustProxy,
            TrustedProxies proxies,
            List<AutoCloseable> closeables,
            dev.omcp.ports.auth.SessionRevocations revocations) {}

    static Built build(AccessControlSettings settings, Clock clock, SecureRandom random, AuditTrail audit) {
        return build(settings, clock, random, audit, ProvisionedLogins.none());
    }

    /** @param provisioned what SCIM provisioning says of a login: both login paths refuse and add roles by it */
    static Built build(AccessControlSettings settings, Clock clock, SecureRandom random, AuditTrail audit,
            ProvisionedLogins provisioned) {
        List<AutoCloseable> closeables = new ArrayList<>();
        try {
            return build(settings, clock, random, audit, closeables, provisioned);
        } catch (RuntimeException e) {
            closeAll(closeables);
            throw e;
        }
    }

    private static Built build(AccessControlSettings settings, Clock clock, SecureRandom random, AuditTrail audit,
            List<AutoCloseable> closeables, ProvisionedLogins provisioned) {
        AuthMode mode = AuthMode.valueOf(settings.authMode().toUpperCase(java.util.Locale.ROOT));
        Optional<JsonUsersFile> users = Optional.empty();
        if (mode == AuthMode.BASIC) {
            users = usersFile(settings, clock);
            if (users.isEmpty()) {
                mode = AuthMode.ANONYMOUS;
            }
        }
        boolean loginMode = mode != AuthMode.ANONYMOUS;

        byte[] secret;
        boolean ephemeral = settings.sessionSecret().isEmpty();
        if (ephemeral) {
            byte[] generated = new byte[32];
            random.nextBytes(generated);
            secret = Base64.getEncoder().encode(generated);
            if (loginMode) {
                LOG.warn("event=session-secret-ephemeral reason=\"OMCP_SESSION_SECRET is not set\" effect=\"sessions end when the "
                        + "process restarts and are not valid on other replicas; set OMCP_SESSION_SECRET to 32 or more random characters\"");
            }
        } else {
            secret = settings.sessionSecret().get().getBytes(StandardCharsets.UTF_8);
        }

        Duration lifetime = settings.sessionLifetime();
        Optional<RedisConnection> redis = settings.redisUrl().map(url -> {
            RedisConnection connection;
            try {
                AccessControlSettings.RedisTlsFiles files = settings.redisTls();
                connection = RedisConnection.connect(url, RedisTls.fromFiles(files.caFile().map(Path::of), files.certFile().map(Path::of),
                        files.keyFile().map(Path::of)));
            } catch (IllegalArgumentException | IllegalStateException e) {
                // the messages name the server without credentials and say what is wrong with it
                throw new StartRefusedException(e.getMessage() + "; the gateway keeps its sessions' blocklist and login locks "
                        + "there, so it does not start without it");
            }
            closeables.add(connection);
            LOG.info("event=shared-store-connected store={}", connection.description());
            return connection;
        });
        AccountLocks locks;
        RevocationStore store;
        try {
            // one list for every tenant: each tenant's admins may fill only its share, so the others can still revoke
            BlocklistShares shares = new BlocklistShares(BlocklistShares.DEFAULT_CAPACITY, settings.revocationsPerTenant());
            store = redis.<RevocationStore>map(r -> new RedisRevocationStore(r, lifetime, shares, clock))
                    .orElseGet(() -> new InMemoryRevocationStore(lifetime, shares, clock));
            locks = redis.<AccountLocks>map(r -> new RedisAccountLocks(r, clock)).orElseGet(InMemoryAccountLocks::new);
        } catch (SharedStateUnavailableException e) {
            // a server that answers PING but refuses the blocklist's first write (a read-only replica, an ACL
            // user without eval, out of memory): a start refusal in one line, as an unreachable server is
            throw new StartRefusedException(e.getMessage() + "; the gateway keeps its sessions' blocklist and login locks there, "
                    + "so it does not start without it");
        }
        if (settings.revocationFile().isPresent()) {
            Path file = Path.of(settings.revocationFile().get());
            try {
                store = JsonlRevocationJournal.open(file, store, clock, lifetime);
            } catch (IOException e) {
                throw new StartRefusedException("OMCP_AUTH_REVOCATION_FILE " + file + " cannot be opened ("
                        + e.getClass().getSimpleName() + ": " + e.getMessage() + ")");
            }
        }

        AccessPolicy policy = policy(settings, clock);
        users.ifPresent(file -> warnOfUndefinedRoles(file, policy));
        if (loginMode && policy instanceof RolePolicy custom && settings.policyFile().isPresent()) {
            warnIfNoRoleRevokesSessions(custom, settings.policyFile().get());
        }
        SessionService sessions = new SessionService(clock, random, lifetime, store);
        RevocationService revocations = new RevocationService(store, clock);
        SessionCookies cookies = new SessionCookies(secret);
        TrustedProxies proxies = TrustedProxies.parse(settings.trustProxy());
        CsrfProtection csrf = new CsrfProtection(settings.csrfBypassBearer(), secret, random);
        ManagementGuard guard = new ManagementGuard(mode, cookies, sessions, policy, csrf, proxies, audit, clock);

        Optional<PasswordLogin> login = Optional.empty();
        if (mode == AuthMode.BASIC) {
            login = Optional.of(new PasswordLoginService(users.orElseThrow(), new ScryptPasswordHasher(random), locks,
                    settings.lockout(), sessions, clock, VerificationSlots.perCore(), new LoginAttemptsPerAddress(), random,
                    provisioned));
            if (settings.lockout().isEmpty()) {
                LOG.warn("event=lockout-disabled note=\"OMCP_AUTH_LOCKOUT_DISABLED is set; only the per-address login limit applies\"");
            }
        }

        List<HttpModule> modules = new ArrayList<>();
        LoginRoutes loginRoutes = new LoginRoutes(mode, login, sessions, cookies, csrf, revocations, clock);
        modules.add(loginRoutes::register);
        PolicyRoutes policyRoutes = new PolicyRoutes(policy);
        modules.add(policyRoutes::register);
        CspViolationReports reports = new CspViolationReports();
        modules.add(reports::register);
        if (mode == AuthMode.OIDC) {
            modules.add(oidcRoutes(settings, policy, sessions, cookies, csrf, secret, random, clock, provisioned)::register);
        }
        LOG.info("event=access-control mode={} policy={} sharedState={} trustProxy={}", mode.wireName(),
                settings.policyFile().isPresent() ? "file" : settings.opa().isPresent() ? "opa" : "builtin",
                redis.isPresent() ? "redis" : "memory", proxies.description());
        return new Built(guard, modules, new SecurityHeaders(settings.cspStrictReport()), policy, mode.wireName(),
                loginMode && ephemeral, proxies.enabled(), proxies, closeables, revocations);
    }

    /** A role a user (or, in an OIDC role map, a claim value) is given that the policy does not define. */
    record UndefinedRole(String user, String role) {}

    /**
     * The roles {@code OMCP_OIDC_ROLE_MAP} hands out that the policy does not define: like a users
     * file's, such a role grants nothing, so a typo ({@code "Operator"}) lets people log in with no
     * permissions and no word why. Policies that list no roles (OPA) take any role and are not checked.
     */
    static List<UndefinedRole> undefinedMappedRoles(Map<String, List<String>> roleMap, AccessPolicy policy) {
        List<String> defined = policy.view().roles();
        List<UndefinedRole> undefined = new ArrayList<>();
        if (defined.isEmpty()) {
            return undefined;
        }
        roleMap.forEach((value, roles) -> roles.stream().filter(role -> !defined.contains(role))
                .forEach(role -> undefined.add(new UndefinedRole(value, role))));
        return undefined;
    }

    /**
     * A role the policy does not define grants nothing: a user holding only such a role can log in
     * and do nothing, which looks like a bug in the gateway rather than a typo in the users file.
     * Policies that list no roles (OPA decides per request) are not checked.
     */
    static List<UndefinedRole> undefinedRoles(JsonUsersFile users, AccessPolicy policy) {
        List<String> defined = policy.view().roles();
        List<UndefinedRole> undefined = new ArrayList<>();
        if (defined.isEmpty()) {
            return undefined;
        }
        for (var user : users.users()) {
            user.roles().stream().filter(role -> !defined.contains(role)).forEach(role -> undefined.add(new UndefinedRole(user.username(), role)));
        }
        return undefined;
    }

    /** The users file's names may hold {@code "} and {@code \}: they are quoted escaped, the user as the audit log shows it. */
    static void warnOfUndefinedRoles(JsonUsersFile users, AccessPolicy policy) {
        for (UndefinedRole undefined : undefinedRoles(users, policy)) {
            LOG.warn("event=user-role-undefined user=\"{}\" role=\"{}\" effect=\"grants nothing\" hint=\"use one of {} or define it in "
                    + "OMCP_RBAC_POLICY_FILE\"", IdentityText.of(undefined.user()), LogField.of(undefined.role()),
                    String.join(", ", policy.view().roles()));
        }
    }

    /**
     * A custom policy replaces the builtin admin, so it may leave out {@code users:delete}: nobody can then end a
     * session before it expires (a stolen cookie, a user taken out of the users file), and nothing says so until
     * that is needed. Said once at start, when there are sessions to end.
     */
    static void warnIfNoRoleRevokesSessions(RolePolicy policy, String file) {
        if (policy.rolesGranting(REVOKE_SESSIONS).isEmpty()) {
            LOG.warn("event=rbac-no-session-revoker file=\"{}\" missing=users:delete effect=\"no role may list or revoke sessions "
                    + "(GET and POST /api/auth/revocations): a stolen session or one of a user taken out stays valid until it "
                    + "expires\" hint=\"grant users:delete (or users:* or *) to an administrator's role in OMCP_RBAC_POLICY_FILE\"",
                    LogField.of(file));
        }
    }

    private static Optional<JsonUsersFile> usersFile(AccessControlSettings settings, Clock clock) {
        String problem;
        if (settings.usersFile().isEmpty()) {
            problem = "OMCP_AUTH=basic needs OMCP_USERS_FILE";
        } else {
            try {
                return Optional.of(JsonUsersFile.load(Path.of(settings.usersFile().get()), clock));
            } catch (UsersFileException e) {
                problem = e.getMessage();
            }
        }
        if (!settings.allowFallback()) {
            // spec 5.2 rule 1: exit code 1; an operator's mistake, reported without a stack trace
            throw new StartRefusedException(problem.contains("OMCP_AUTH_ALLOW_FALLBACK") ? problem
                    : problem + " (set OMCP_AUTH_ALLOW_FALLBACK=true to run without authentication instead)");
        }
        LOG.warn("event=auth-fallback mode=anonymous reason=\"{}\" note=\"OMCP_AUTH_ALLOW_FALLBACK is set: the management API is OPEN\"",
                LogField.of(problem));
        return Optional.empty();
    }

    private static AccessPolicy policy(AccessControlSettings settings, Clock clock) {
        if (settings.policyFile().isPresent()) {
            Path file = Path.of(settings.policyFile().get());
            try {
                return RolePolicy.fromDocument(YamlPolicyFile.read(file), BuiltinPolicy.ALL, file.toString());
            } catch (InvalidPolicyFileException e) {
                throw new StartRefusedException(e.getMessage());
            } catch (InvalidPolicyException e) {
                throw new StartRefusedException("OMCP_RBAC_POLICY_FILE " + file + ": " + e.getMessage());
            }
        }
        if (settings.opa().isPresent()) {
            AccessControlSettings.Opa opa = settings.opa().get();
            HttpClient http = HttpClient.newBuilder().connectTimeout(opa.timeout())
                    .followRedirects(HttpClient.Redirect.NEVER).build();
            OpaDecisionClient client = new OpaDecisionClient(OpaDecisionClient.decisionUrl(opa.url(), opa.decision()), http, opa.timeout(),
                    clock, opa.token());
            // during an outage, requests are refused at once instead of each waiting the whole timeout
            OpaCircuitBreaker breaker = new OpaCircuitBreaker(client, opa.breakerFailures(), opa.breakerCoolDown(), clock);
            return new OpaAccessPolicy(breaker, clock, opa.cacheTtl(), BuiltinPolicy.ALL);
        }
        return RolePolicy.builtin();
    }

    private static OidcRoutes oidcRoutes(AccessControlSettings settings, AccessPolicy policy, SessionService sessions,
            SessionCookies cookies, CsrfProtection csrf, byte[] secret, SecureRandom random, Clock clock, ProvisionedLogins provisioned) {
        AccessControlSettings.Oidc oidc = settings.oidc().orElseThrow();
        Duration timeout = Duration.ofSeconds(5);
        HttpClient http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER).build();
        OidcClient client = new OidcClient(new OidcSettings(oidc.issuer(), oidc.clientId(), oidc.clientSecret(), oidc.redirectUri(),
                oidc.scopes(), timeout), http, clock);
        Set<String> knownRoles = policy instanceof RolePolicy roles ? roles.roleNames() : Set.copyOf(BuiltinPolicy.roleNames());
        ClaimMapping mapping = new ClaimMapping(oidc.rolesClaim(), oidc.roleMap(), oidc.tenantClaim(), knownRoles);
        for (UndefinedRole undefined : undefinedMappedRoles(oidc.roleMap(), policy)) {
            // operator text, but printed as a log field: a claim value may hold a quote
            LOG.warn("event=oidc-role-map-role-undefined value=\"{}\" role=\"{}\" effect=\"grants nothing\" hint=\"use one of {} "
                    + "or define it in OMCP_RBAC_POLICY_FILE\"", LogField.of(undefined.user()), LogField.of(undefined.role()),
                    String.join(", ", policy.view().roles()));
        }
        Optional<ClientRegistrar> registrar = Optional.empty();
        if (oidc.dcrEnabled()) {
            ClientRegistrationStore store;
            if (oidc.dcrStore().isPresent()) {
                try {
                    store = JsonClientRegistrationFile.open(Path.of(oidc.dcrStore().get()));
                } catch (IOException e) {
                    throw new StartRefusedException("OMCP_OIDC_DCR_STORE cannot be opened: " + e.getMessage());
                }
            } else {
                store = new InMemoryClientRegistrationStore();
                LOG.warn("event=dcr-in-memory note=\"OMCP_OIDC_DCR_STORE is not set: client registrations are lost at restart\"");
            }
            registrar = Optional.of(new DynamicClientRegistrar(store, clock, random, MAX_REGISTERED_CLIENTS));
        }
        // a counter of its own: callbacks and password logins are limited apart (spec 5.2 rule 3)
        return new OidcRoutes(client, new ProvisionedIdentityMapping(mapping, provisioned), sessions, cookies, csrf, secret, random,
                clock, registrar, new LoginAttemptsPerAddress());
    }

    static void closeAll(List<AutoCloseable> closeables) {
        for (AutoCloseable closeable : closeables) {
            try {
                closeable.close();
            } catch (Exception e) {
                LOG.warn("event=close-failed resource={} reason=\"{}\"", closeable.getClass().getSimpleName(), LogField.of(e.getMessage()));
            }
        }
    }
}
