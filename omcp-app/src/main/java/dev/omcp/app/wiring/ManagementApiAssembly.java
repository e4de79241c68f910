package dev.omcp.app.wiring;

import dev.omcp.adapters.http.health.HealthRoutes;
import dev.omcp.adapters.http.postmortems.PostmortemRoutes;
import dev.omcp.adapters.http.server.HttpModule;
import dev.omcp.adapters.http.settings.SettingsRoutes;
import dev.omcp.adapters.http.tools.ToolRoutes;
import dev.omcp.adapters.storage.postmortems.JsonlPostmortemStore;
import dev.omcp.app.settings.Settings;
import dev.omcp.core.embeddedipv4.Nat64Prefixes;
import dev.omcp.core.gateway.Gateway;
import dev.omcp.core.management.HistorySparklines;
import dev.omcp.core.management.RuntimeSettings;
import dev.omcp.core.postmortems.PostmortemArchive;
import dev.omcp.core.tools.observability.Toolkit;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.postmortems.PostmortemStoreException;
import dev.omcp.ports.settings.HealthThresholdsStore;
import dev.omcp.ports.settings.StoredThresholds;
import dev.omcp.ports.sources.ManageSources;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.sdk.text.LogField;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The management routes beyond sources, connectors, audit and access: services, topology, health,
 * settings and thresholds (changes written to the sources file's health block when one is in use),
 * the playground and stored post-mortems. Every tool-backed route runs
 * its tool through {@link Gateway#invokeTool()}, the same chain as {@code /mcp}.
 */
final class ManagementApiAssembly {
    private static final Logger LOG = LoggerFactory.getLogger(ManagementApiAssembly.class);

    private ManagementApiAssembly() {}

    /** The route modules, ready to add to the HTTP server. */
    static List<HttpModule> modules(Settings settings, Gateway gateway, Toolkit toolkit, ManageSources sources,
            HealthThresholdsStore thresholds, StoredThresholds thresholdsAtStart, AccessPolicy policy, Clock clock, SecureRandom random,
            boolean auditPersisted) {
        RuntimeSettings runtime = new RuntimeSettings(toolkit, fixedSettings(settings, auditPersisted), thresholds, thresholdsAtStart);
        JsonlPostmortemStore store = new JsonlPostmortemStore(settings.management().postmortemsFile());
        try {
            // read now, so a torn last line left by a crash is logged at start-up rather than at first use
            store.open();
        } catch (PostmortemStoreException e) {
            // not fatal: the post-mortem routes answer 503 with the same reason until the file is fixed
            LOG.error("event=postmortems-file-unusable reason=\"{}\" effect=\"the post-mortem routes answer 503 until it is fixed\"",
                    LogField.of(e.getMessage()));
        }
        PostmortemArchive postmortems = new PostmortemArchive(gateway.invokeTool(), store, clock, random);
        return List.of(
                new ToolRoutes(gateway.invokeTool()),
                new HealthRoutes(sources, policy, gateway.invokeTool(), runtime, new HistorySparklines(toolkit.history())),
                new SettingsRoutes(runtime, policy),
                new PostmortemRoutes(postmortems));
    }

    /**
     * What {@code GET /api/settings} shows as fixed at start: values that explain the gateway's
     * behaviour. Never a secret, a token, a URL or a file path (issue 5: "never secrets or paths").
     */
    static JsonObject fixedSettings(Settings settings, boolean auditPersisted) {
        var access = settings.access();
        var lockout = Jsonp.object().add("enabled", access.lockout().isPresent());
        access.lockout().ifPresent(policy -> lockout
                .add("maxFailures", policy.maxFailures())
                .add("windowSeconds", policy.window().toSeconds())
                .add("firstLockSeconds", policy.baseLock().toSeconds())
                .add("maxLockSeconds", policy.maxLock().toSeconds()));
        return Jsonp.object()
                .add("authMode", access.authMode())
                .add("sessionLifetimeSeconds", access.sessionLifetime().toSeconds())
                .add("lockout", lockout)
                .add("sharedState", access.redisUrl().isPresent())
                .add("policySource", access.opa().isPresent() ? "opa" : access.policyFile().isPresent() ? "file" : "builtin")
                .add("csrfBypassBearer", access.csrfBypassBearer())
                .add("cspStrictReport", access.cspStrictReport())
                // the canonical form the settings keep: every value that trusts nobody reads "false" (spec 5.2 rule 5)
                .add("trustProxy", !access.trustProxy().equals("false"))
                .add("toolSourceTimeoutSeconds", settings.tools().perSourceTimeout().toSeconds())
                .add("toolDeadlineSeconds", settings.tools().deadline().toSeconds())
                .add("allowPrivateBackends", settings.connectors().allowPrivateBackends())
                // as the egress refusals spell them (RFC 5952), so an admin can match one with the other
                .add("nat64Prefixes", nat64Prefixes(settings.connectors().nat64Prefixes()))
                .add("auditPersisted", auditPersisted)
                .add("auditFsync", settings.audit().fsync().name().toLowerCase(java.util.Locale.ROOT))
                // spec 5.8: strict mode implies verification, whatever VERIFY_PLUGINS says
                .add("pluginVerification", settings.plugins().signaturesDemanded())
                .add("pluginStrictMode", settings.plugins().requireSignature())
                .add("uiInstall", settings.plugins().uiInstall())
                .add("hookMode", settings.plugins().hookMode().orElse("per-hook"))
                .add("postmortemsPersisted", true)
                .build();
    }

    private static JsonArrayBuilder nat64Prefixes(Nat64Prefixes prefixes) {
        JsonArrayBuilder out = Jsonp.array();
        prefixes.prefixes().forEach(prefix -> out.add(prefix.toString()));
        return out;
    }
}
