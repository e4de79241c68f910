package dev.omcp.adapters.http.connectors;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.omcp.adapters.http.api.ApiCaller;
import dev.omcp.adapters.http.api.ApiRoutes;
import dev.omcp.adapters.http.api.BodyDeadlines;
import dev.omcp.adapters.http.api.JsonResponses;
import dev.omcp.adapters.http.api.QueryString;
import dev.omcp.adapters.http.api.RequestBodies;
import dev.omcp.adapters.http.server.HttpModule;
import dev.omcp.ports.access.AccessDecision;
import dev.omcp.ports.access.AccessPolicy;
import dev.omcp.ports.access.Permission;
import dev.omcp.ports.identity.Principal;
import dev.omcp.ports.plugins.ConnectorStatus;
import dev.omcp.ports.plugins.DowngradePolicy;
import dev.omcp.ports.plugins.HubListing;
import dev.omcp.ports.plugins.HubRelease;
import dev.omcp.ports.plugins.HubUnavailableException;
import dev.omcp.ports.plugins.InstallOutcome;
import dev.omcp.ports.plugins.ManageConnectors;
import dev.omcp.ports.plugins.RemoveOutcome;
import dev.omcp.ports.plugins.SourceAudience;
import dev.omcp.ports.plugins.SourceReconnection;
import dev.omcp.ports.sources.ManageSources;
import dev.omcp.ports.sources.SourceView;
import dev.omcp.sdk.manifest.ConnectorManifest;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.stream.Collectors;

/**
 * {@code /api/connectors} and {@code /api/hub/catalog} (spec 4.3, 7.4).
 *
 * <table>
 *   <caption>routes and the permission each needs</caption>
 *   <tr><td>GET /api/connectors</td><td>connectors:read</td></tr>
 *   <tr><td>GET /api/hub/catalog</td><td>connectors:read</td></tr>
 *   <tr><td>POST /api/connectors/install</td><td>connectors:write</td></tr>
 *   <tr><td>POST /api/connectors/upload</td><td>connectors:write</td></tr>
 *   <tr><td>DELETE /api/connectors/{name}</td><td>connectors:delete</td></tr>
 * </table>
 *
 * Install and upload answer 403 when {@code ENABLE_UI_INSTALL} is not true and 412 without a trust
 * root, before reading any body; an install body follows the management API's JSON rules
 * ({@link InstallRequest}); an upload over 50 MiB is 413 and a tampered, unsigned or unsafe bundle
 * 400; an older version than the one installed is 409 unless the request says
 * {@code ?allowDowngrade=true}, which the audit entry's target then records; in every refusal
 * nothing is written. A removal is 403 when {@code ENABLE_UI_INSTALL} is not true too, 404 for a
 * plugin that is not installed, and 409 while sources use its connector unless {@code ?force=true}.
 *
 * <p>A plugin serves every tenant, so a caller bound to a tenant lists the plugins but installs, uploads
 * and removes none: 403 {@code OMCP_CONNECTORS_GATEWAY_WIDE} before anything is read ({@link #GATEWAY_WIDE}).
 * An install's answer names only the sources the caller could list with {@code GET /api/sources}:
 * none without {@code sources:read} ({@link SourceAudience}). The log keeps the whole picture.
 */
public final class ConnectorRoutes implements HttpModule {
    /** The permission of each route, for the RBAC layer: {@code METHOD path} to {@code resource:action}. */
    public static final Map<String, String> PERMISSIONS = Map.of(
            "GET /api/connectors", "connectors:read",
            "GET /api/hub/catalog", "connectors:read",
            "POST /api/connectors/install", "connectors:write",
            "POST /api/connectors/upload", "connectors:write",
            "DELETE /api/connectors/{name}", "connectors:delete");

    private static final List<String> BUNDLE_TYPES = List.of("application/octet-stream", "application/gzip", "application/x-gzip",
            "application/x-tar+gzip", "application/x-compressed-tar");
    /** The query parameter of install and upload that lets an older version replace the installed one. */
    static final String ALLOW_DOWNGRADE = "allowDowngrade";
    /** The query parameter of a removal that lets it leave sources without their connector. */
    static final String FORCE = "force";
    /**
     * Another change holds the plugins directory: another process (an {@code omcp plugin} command, a
     * second gateway on the same directory), or another install or removal of this gateway that did not
     * finish within a few seconds (the message says which). 503 with {@code Retry-After}, as a busy
     * upload, but its own code: the client's remedy is the same, and the message tells them apart.
     */
    static final String PLUGINS_DIR_BUSY = "OMCP_PLUGINS_DIR_BUSY";
    /**
     * The plugins directory could not be written while a bundle was unpacked (disk full, not writable): 500, the host's
     * problem, where a 400 would blame a bundle that is not at fault.
     */
    static final String PLUGINS_DIR_WRITE_FAILED = "OMCP_PLUGINS_DIR_WRITE_FAILED";
    /**
     * A caller bound to a tenant asked to install, upload or remove a plugin: 403, since a plugin (its connector and its
     * hooks) serves every tenant, and a tenant's admin acts only within its own.
     */
    static final String GATEWAY_WIDE = "OMCP_CONNECTORS_GATEWAY_WIDE";
    private static final String SERVES_EVERY_TENANT = "connector plugins are gateway-wide: a plugin's connector and hooks serve "
            + "every tenant";
    /** About how long reading, verifying and installing one 50 MiB bundle takes. */
    private static final long UPLOAD_RETRY_AFTER_SECONDS = 5;
    /** How much of a bundle refused as too large is read and dropped so its sender sees the 413. */
    private static final long TOO_LARGE_DRAIN_LIMIT = 2L * ManageConnectors.MAX_BUNDLE_BYTES;

    private static final Permission SOURCES_READ = new Permission("sources", "read");

    private final ManageConnectors connectors;
    private final ManageSources sources;
    private final AccessPolicy policy;
    /**
     * One bundle upload read into memory at a time: each holds up to 50 MiB before the install lock
     * is taken, so parallel uploads (one admin script in a loop is enough) could fill a 256 MB heap.
     */
    private final Semaphore uploading = new Semaphore(1);

    /**
     * @param connectors the connector use cases
     * @param sources the sources, to name in an answer only those the caller may list
     * @param policy decides whether the caller holds {@code sources:read}
     */
    public ConnectorRoutes(ManageConnectors connectors, ManageSources sources, AccessPolicy policy) {
        this.connectors = Objects.requireNonNull(connectors, "connectors");
        this.sources = Objects.requireNonNull(sources, "sources");
        this.policy = Objects.requireNonNull(policy, "policy");
    }

    /** The sources the caller may see named, exactly as {@code GET /api/sources} would list them for it. */
    private SourceAudience audience(Context ctx) {
        Optional<Principal> caller = ApiCaller.principal(ctx);
        if (caller.isEmpty() || !(policy.decide(caller.get(), SOURCES_READ) instanceof AccessDecision.Allowed)) {
            return SourceAudience.of(Set.of());
        }
        return SourceAudience.of(sources.list(caller.get()).stream().map(SourceView::name).collect(Collectors.toSet()));
    }

    @Override
    public void register(ApiRoutes routes) {
        routes.route(HandlerType.GET, "/api/connectors").permission("connectors", "read").tag("connectors").queryParameters()
                .summary("Connector types: builtin, filesystem and pinned plugins with manifest, state and hooks (needs connectors:read)")
                .response(200, "the connectors")
                .handle(this::list);
        // spec 5.5's "read ... catalog" row: the hub catalog (2.18) is what catalog:read guards
        routes.route(HandlerType.GET, "/api/hub/catalog").permission("catalog", "read").tag("connectors").queryParameters()
                .summary("The hub catalog merged with what is installed (needs catalog:read)")
                .response(200, "the catalog")
                .response(502, "the hub is not configured or cannot be read")
                .handle(this::catalog);
        routes.route(HandlerType.POST, "/api/connectors/install").permission("connectors", "write").tag("connectors")
                .gatewayWide(GATEWAY_WIDE, SERVES_EVERY_TENANT, "install, upgrade or downgrade one")
                .jsonBody(InstallRequest.SCHEMA)
                .queryParameters(ALLOW_DOWNGRADE)
                .summary("Installs {name, version?} from the hub catalog; only the catalog's tarball URL is fetched; ?allowDowngrade=true"
                        + " lets an older version replace the installed one (needs connectors:write)")
                .response(201, "installed and re-scanned")
                .response(400, "the body is not {name, version?} (OMCP_INVALID_BODY), allowDowngrade is not true or false "
                        + "(OMCP_INVALID_PARAMETERS), or the bundle does not verify (tampered, unsigned, unsafe) or strict mode would "
                        + "refuse the re-scan; nothing written")
                .response(403, "ENABLE_UI_INSTALL is not true")
                .response(404, "the catalog has no such connector or version")
                .response(409, "the name belongs to a builtin connector, or its directory holds another plugin such as a pinned "
                        + "version (OMCP_CONNECTOR_NAME_CONFLICT), the version is older than the installed one and allowDowngrade is "
                        + "not true (OMCP_PLUGIN_DOWNGRADE_REFUSED), or it is the installed version with other contents "
                        + "(OMCP_PLUGIN_VERSION_CONFLICT); nothing written")
                .response(412, "no usable PLUGIN_TRUST_ROOT")
                .response(422, "the bundle verified but did not load; taken back, the earlier version is live again")
                .response(500, "the plugins directory could not be written, locked or renamed into (disk full, not writable; "
                        + "OMCP_PLUGINS_DIR_WRITE_FAILED); "
                        + "nothing installed")
                .response(502, "the hub cannot be read")
                .response(503, "another install or removal (in this gateway, an omcp plugin command, another gateway) holds the plugins "
                        + "directory "
                        + "(OMCP_PLUGINS_DIR_BUSY); nothing written; see Retry-After")
                .handle(this::install);
        routes.route(HandlerType.POST, "/api/connectors/upload").permission("connectors", "write").tag("connectors")
                .gatewayWide(GATEWAY_WIDE, SERVES_EVERY_TENANT, "install, upgrade or downgrade one")
                .body(BUNDLE_TYPES.toArray(String[]::new))
                .queryParameters(ALLOW_DOWNGRADE)
                .summary("Installs an uploaded .tgz bundle (application/octet-stream, at most 50 MiB); ?allowDowngrade=true lets an "
                        + "older version replace the installed one (needs connectors:write)")
                .response(201, "installed and re-scanned")
                .response(400, "the bundle does not verify (tampered, unsigned, unsafe), or allowDowngrade is not true or false "
                        + "(OMCP_INVALID_PARAMETERS); nothing written")
                .response(403, "ENABLE_UI_INSTALL is not true")
                .response(409, "the name belongs to a builtin connector, or its directory holds another plugin such as a pinned version "
                        + "(OMCP_CONNECTOR_NAME_CONFLICT), the version is older than the installed one and "
                        + "allowDowngrade is not true (OMCP_PLUGIN_DOWNGRADE_REFUSED), or it is the installed version with other "
                        + "contents (OMCP_PLUGIN_VERSION_CONFLICT); nothing written")
                .response(412, "no usable PLUGIN_TRUST_ROOT")
                .response(413, "the bundle is larger than 50 MiB; nothing written")
                .response(415, "the body is not application/octet-stream")
                .response(422, "the bundle verified but did not load; taken back, the earlier version is live again")
                .response(500, "the plugins directory could not be written, locked or renamed into (disk full, not writable; "
                        + "OMCP_PLUGINS_DIR_WRITE_FAILED); "
                        + "nothing installed")
                .response(503, "another bundle upload is being read or installed (OMCP_UPLOAD_BUSY), or another install or removal "
                        + "(in this gateway, an omcp plugin command, another gateway) holds the plugins directory (OMCP_PLUGINS_DIR_BUSY); "
                        + "see Retry-After")
                .handle(this::upload);
        routes.route(HandlerType.DELETE, "/api/connectors/{name}").permission("connectors", "delete").tag("connectors")
                .gatewayWide(GATEWAY_WIDE, SERVES_EVERY_TENANT, "remove one")
                .queryParameters(FORCE)
                .summary("Removes the plugin installed as {name} (its location in GET /api/connectors): unloads its connector and hooks "
                        + "and deletes its directory; ?force=true removes it even when sources use its connector (needs connectors:delete)")
                .response(200, "removed and re-scanned; sourcesWithoutConnector names the sources a forced removal left without one")
                .response(400, "force is not true or false (OMCP_INVALID_PARAMETERS); nothing removed")
                .response(403, "ENABLE_UI_INSTALL is not true")
                .response(404, "no plugin of that name is installed (OMCP_PLUGIN_NOT_INSTALLED)")
                .response(409, "the name is a builtin connector (OMCP_CONNECTOR_NAME_CONFLICT), or sources use the plugin's connector and "
                        + "force is not true (OMCP_PLUGIN_IN_USE, the body lists them), or it is a versioned directory the sources file "
                        + "pins (OMCP_PLUGIN_PINNED: take the pin out first); nothing removed")
                .response(500, "the plugin could not be moved out of the plugins directory, or the directory could not be locked "
                        + "(OMCP_PLUGIN_REMOVE_FAILED); nothing removed")
                .response(503, "another install or removal (in this gateway, an omcp plugin command, another gateway) holds the plugins "
                        + "directory "
                        + "(OMCP_PLUGINS_DIR_BUSY); nothing removed; see Retry-After")
                .handle(this::remove);
    }

    private void list(Context ctx) {
        List<Map<String, Object>> items = new ArrayList<>();
        for (ConnectorStatus status : connectors.connectors()) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("name", status.name());
            item.put("origin", status.origin().name().toLowerCase(Locale.ROOT));
            item.put("location", status.location());
            item.put("state", status.state().name().toLowerCase(Locale.ROOT));
            if (!status.reason().isEmpty()) {
                item.put("reason", status.reason());
            }
            status.manifest().ifPresent(manifest -> item.put("manifest", manifest(manifest)));
            List<Map<String, Object>> hooks = new ArrayList<>();
            for (ConnectorStatus.HookStatus hook : status.hooks()) {
                Map<String, Object> h = new LinkedHashMap<>();
                h.put("kind", hook.kind());
                h.put("module", hook.module());
                h.put("priority", hook.priority());
                h.put("mode", hook.mode());
                h.put("manifestMode", hook.manifestMode());
                h.put("registered", hook.registered());
                if (!hook.reason().isEmpty()) {
                    h.put("reason", hook.reason());
                }
                hooks.add(h);
            }
            item.put("hooks", hooks);
            items.add(item);
        }
        JsonResponses.json(ctx, 200, Map.of("connectors", items, "installEnabled", connectors.installEnabled()));
    }

    private void catalog(Context ctx) {
        HubListing listing;
        try {
            listing = connectors.hubCatalog();
        } catch (HubUnavailableException e) {
            JsonResponses.error(ctx, 502, "OMCP_HUB_UNAVAILABLE", e.getMessage());
            return;
        }
        List<Map<String, Object>> items = new ArrayList<>();
        for (HubListing.Item entry : listing.entries()) {
            Map<String, Object> item = new LinkedHashMap<>();
            item.put("name", entry.entry().name());
            item.put("displayName", entry.entry().displayName());
            item.put("description", entry.entry().description());
            item.put("latest", entry.entry().latest());
            item.put("installedVersion", entry.installedVersion().orElse(null));
            item.put("loaded", entry.loaded());
            item.put("updateAvailable", entry.updateAvailable());
            List<Map<String, Object>> versions = new ArrayList<>();
            for (HubRelease release : entry.entry().releases()) {
                Map<String, Object> version = new LinkedHashMap<>();
                version.put("version", release.version());
                version.put("published", release.published());
                version.put("changelog", release.changelog());
                version.put("tarballUrl", release.tarballUrl());
                version.put("signatureUrl", release.signatureUrl());
                version.put("integrity", release.integrity());
                version.put("manifest", manifest(release.manifest()));
                versions.add(version);
            }
            item.put("versions", versions);
            items.add(item);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("source", listing.source());
        body.put("connectors", items);
        JsonResponses.json(ctx, 200, body);
    }

    private void install(Context ctx) throws IOException {
        Optional<InstallOutcome.Refused> refusal = connectors.installRefusal();
        if (refusal.isPresent()) {
            answer(ctx, refusal.get());
            return;
        }
        Optional<DowngradePolicy> downgrade = downgradePolicy(ctx);
        if (downgrade.isEmpty()) {
            return;
        }
        Optional<InstallRequest> request = InstallRequest.read(ctx);
        if (request.isPresent()) {
            answer(ctx, connectors.install(request.get().name(), request.get().version(), downgrade.get(), audience(ctx)), downgrade.get());
        }
    }

    private void upload(Context ctx) throws IOException {
        Optional<InstallOutcome.Refused> refusal = connectors.installRefusal();
        if (refusal.isPresent()) {
            // read the unread bundle first: answering while the client still sends it resets the
            // connection under load, and the client sees no refusal at all
            RequestBodies.drainOrClose(ctx);
            answer(ctx, refusal.get());
            return;
        }
        Optional<DowngradePolicy> downgrade = downgradePolicy(ctx);
        if (downgrade.isEmpty()) {
            return;
        }
        String contentType = Optional.ofNullable(ctx.contentType()).map(t -> t.split(";")[0].trim().toLowerCase(Locale.ROOT)).orElse("");
        if (!BUNDLE_TYPES.contains(contentType)) {
            RequestBodies.drainOrClose(ctx);
            JsonResponses.error(ctx, 415, "OMCP_UNSUPPORTED_MEDIA_TYPE",
                    "send the .tgz bundle as the raw body with Content-Type: application/octet-stream");
            return;
        }
        long declared = ctx.req().getContentLengthLong();
        if (declared > ManageConnectors.MAX_BUNDLE_BYTES) {
            tooLarge(ctx, false);
            return;
        }
        if (!uploading.tryAcquire()) {
            RequestBodies.drainOrClose(ctx);
            ctx.header("Retry-After", Long.toString(UPLOAD_RETRY_AFTER_SECONDS));
            JsonResponses.error(ctx, 503, "OMCP_UPLOAD_BUSY", "another bundle upload is being read or installed; nothing was "
                    + "written: send this one again after the Retry-After seconds");
            return;
        }
        try {
            readAndInstall(ctx, downgrade.get());
        } finally {
            uploading.release();
        }
    }

    private void readAndInstall(Context ctx, DowngradePolicy downgrade) throws IOException {
        byte[] bundle;
        // Read the raw stream ourselves: the server-wide JSON body limit does not apply to bundles,
        // and reading stops one byte past 50 MiB whatever Content-Length claimed. The body deadline
        // holds here too: a trickled upload would hold the one upload slot for everyone.
        bundle = BodyDeadlines.of(ctx).readNBytes(ctx, ManageConnectors.MAX_BUNDLE_BYTES + 1);
        if (bundle.length > ManageConnectors.MAX_BUNDLE_BYTES) {
            tooLarge(ctx, true);
            return;
        }
        if (bundle.length == 0) {
            JsonResponses.error(ctx, 400, "OMCP_INVALID_BUNDLE", "the body is empty; send the .tgz bundle as the raw body");
            return;
        }
        answer(ctx, connectors.upload(bundle, downgrade, audience(ctx)), downgrade);
    }

    private void remove(Context ctx) throws IOException {
        List<String> values = QueryString.values(ctx, FORCE);
        boolean force = values.equals(List.of("true"));
        if (!force && !values.isEmpty() && !values.equals(List.of("false"))) {
            // not read as false: an operator who meant to force should learn the value was not understood
            JsonResponses.error(ctx, 400, "OMCP_INVALID_PARAMETERS", FORCE + " must be given once, as true or false; nothing was removed");
            return;
        }
        RemoveOutcome outcome = connectors.remove(ctx.pathParam("name"), force, audience(ctx));
        switch (outcome) {
            case RemoveOutcome.Removed removed -> {
                String target = removed.name() + "@" + removed.version() + " removed";
                if (force) {
                    target += " (" + FORCE + "=true" + (removed.sourcesWithoutConnector().isEmpty() ? ""
                            : "; sources without a connector: " + String.join(", ", removed.sourcesWithoutConnector())) + ")";
                }
                ApiCaller.auditTarget(ctx, target);
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("removed", true);
                body.put("name", removed.name());
                body.put("version", removed.version());
                body.put("sourcesWithoutConnector", removed.sourcesWithoutConnector());
                body.put("detail", removed.detail());
                JsonResponses.json(ctx, 200, body);
            }
            case RemoveOutcome.Refused refused -> {
                if (force) {
                    ApiCaller.auditTarget(ctx, FORCE + "=true");
                }
                int status = switch (refused.kind()) {
                    case DISABLED -> 403;
                    case NOT_INSTALLED -> 404;
                    case BUILTIN, IN_USE, PINNED -> 409;
                    case FAILED -> 500;
                    case BUSY -> 503;
                };
                String code = switch (refused.kind()) {
                    case DISABLED -> "OMCP_UI_INSTALL_DISABLED";
                    case NOT_INSTALLED -> "OMCP_PLUGIN_NOT_INSTALLED";
                    case BUILTIN -> "OMCP_CONNECTOR_NAME_CONFLICT";
                    case IN_USE -> "OMCP_PLUGIN_IN_USE";
                    case PINNED -> "OMCP_PLUGIN_PINNED";
                    case FAILED -> "OMCP_PLUGIN_REMOVE_FAILED";
                    case BUSY -> PLUGINS_DIR_BUSY;
                };
                if (refused.kind() == RemoveOutcome.Kind.BUSY) {
                    ctx.header("Retry-After", Long.toString(UPLOAD_RETRY_AFTER_SECONDS));
                }
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("code", code);
                body.put("error", refused.reason());
                if (!refused.sources().isEmpty()) {
                    body.put("sources", refused.sources());
                }
                JsonResponses.json(ctx, status, body);
            }
        }
    }

    /**
     * {@code ?allowDowngrade=}: absent or {@code false} refuses a downgrade, {@code true} allows it. Anything else is
     * answered 400 (the body is drained) rather than read as false: an operator who meant to allow one should learn
     * that the value was not understood, not that the downgrade was refused.
     */
    private static Optional<DowngradePolicy> downgradePolicy(Context ctx) throws IOException {
        List<String> values = QueryString.values(ctx, ALLOW_DOWNGRADE);
        if (values.isEmpty() || values.equals(List.of("false"))) {
            return Optional.of(DowngradePolicy.REFUSE);
        }
        if (values.equals(List.of("true"))) {
            return Optional.of(DowngradePolicy.ALLOW);
        }
        RequestBodies.drainOrClose(ctx);
        JsonResponses.error(ctx, 400, "OMCP_INVALID_PARAMETERS", ALLOW_DOWNGRADE + " must be given once, as true or false; nothing was written");
        return Optional.empty();
    }

    /**
     * Answers an install or upload, naming what it installed as the audit entry's target, and marking
     * every request that allowed a downgrade: going back to an older version is a decision to find later.
     */
    private static void answer(Context ctx, InstallOutcome outcome, DowngradePolicy downgrade) {
        String allowed = downgrade == DowngradePolicy.ALLOW ? ALLOW_DOWNGRADE + "=true" : "";
        if (outcome instanceof InstallOutcome.Installed installed) {
            String target = installed.name() + "@" + installed.version()
                    + installed.downgradedFrom().map(from -> " downgraded from " + from).orElse("");
            ApiCaller.auditTarget(ctx, allowed.isEmpty() ? target : target + " (" + allowed + ")");
        } else if (!allowed.isEmpty()) {
            ApiCaller.auditTarget(ctx, allowed);
        }
        answer(ctx, outcome);
    }

    /**
     * Answers 413 to a bundle over the limit. A client that sends the body without asking first sees
     * the answer only if the body is read: closing while it still sends resets the connection, and it
     * sees no refusal at all. So up to {@link #TOO_LARGE_DRAIN_LIMIT} is read and dropped (a bundle a
     * little over the limit is the usual mistake); a larger one ends the connection. A client that
     * asked for {@code 100 Continue} before an unread body has sent nothing and is answered at once:
     * reading would invite it to send the whole bundle for nothing.
     */
    private static void tooLarge(Context ctx, boolean bodyStarted) {
        if (bodyStarted || !"100-continue".equalsIgnoreCase(ctx.header("Expect"))) {
            RequestBodies.drainOrClose(ctx, TOO_LARGE_DRAIN_LIMIT);
        }
        JsonResponses.error(ctx, 413, "OMCP_BUNDLE_TOO_LARGE",
                "the bundle is larger than " + (ManageConnectors.MAX_BUNDLE_BYTES >> 20) + " MiB; nothing was written");
        ctx.header("Connection", "close");
    }

    private static void answer(Context ctx, InstallOutcome outcome) {
        switch (outcome) {
            case InstallOutcome.Installed installed -> {
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("installed", true);
                body.put("name", installed.name());
                body.put("version", installed.version());
                body.put("loaded", installed.loaded());
                body.put("detail", installed.detail());
                installed.downgradedFrom().ifPresent(from -> body.put("downgradedFrom", from));
                List<Map<String, Object>> sources = new ArrayList<>();
                for (SourceReconnection source : installed.sources()) {
                    Map<String, Object> each = new LinkedHashMap<>();
                    each.put("name", source.source());
                    each.put("status", source.status());
                    if (!source.problem().isEmpty()) {
                        each.put("problem", source.problem());
                    }
                    sources.add(each);
                }
                body.put("sources", sources);
                JsonResponses.json(ctx, 201, body);
            }
            case InstallOutcome.Refused refused -> {
                int status = switch (refused.kind()) {
                    case DISABLED -> 403;
                    case NO_TRUST_ROOT -> 412;
                    case VERIFICATION_FAILED -> 400;
                    case LOAD_FAILED -> 422;
                    case TOO_LARGE -> 413;
                    case NOT_IN_CATALOG -> 404;
                    case NAME_CONFLICT, DOWNGRADE, VERSION_CONFLICT -> 409;
                    case HUB_UNAVAILABLE -> 502;
                    case BUSY -> 503;
                    case STORAGE_FAILED -> 500;
                };
                String code = switch (refused.kind()) {
                    case DISABLED -> "OMCP_UI_INSTALL_DISABLED";
                    case NO_TRUST_ROOT -> "OMCP_TRUST_ROOT_MISSING";
                    case VERIFICATION_FAILED -> "OMCP_PLUGIN_VERIFICATION_FAILED";
                    case LOAD_FAILED -> "OMCP_PLUGIN_LOAD_FAILED";
                    case TOO_LARGE -> "OMCP_BUNDLE_TOO_LARGE";
                    case NOT_IN_CATALOG -> "OMCP_NOT_IN_CATALOG";
                    case NAME_CONFLICT -> "OMCP_CONNECTOR_NAME_CONFLICT";
                    case DOWNGRADE -> "OMCP_PLUGIN_DOWNGRADE_REFUSED";
                    case VERSION_CONFLICT -> "OMCP_PLUGIN_VERSION_CONFLICT";
                    case HUB_UNAVAILABLE -> "OMCP_HUB_UNAVAILABLE";
                    case BUSY -> PLUGINS_DIR_BUSY;
                    case STORAGE_FAILED -> PLUGINS_DIR_WRITE_FAILED;
                };
                if (refused.kind() == InstallOutcome.Kind.BUSY) {
                    ctx.header("Retry-After", Long.toString(UPLOAD_RETRY_AFTER_SECONDS));
                }
                JsonResponses.error(ctx, status, code, refused.reason());
            }
        }
    }

    private static Map<String, Object> manifest(ConnectorManifest manifest) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("schemaVersion", manifest.schemaVersion());
        out.put("name", manifest.name());
        out.put("displayName", manifest.displayName());
        out.put("version", manifest.version());
        out.put("description", manifest.description());
        out.put("signalTypes", manifest.signalTypes());
        Map<String, Object> capabilities = new LinkedHashMap<>();
        capabilities.put("queryMetrics", manifest.capabilities().queryMetrics());
        capabilities.put("queryLogs", manifest.capabilities().queryLogs());
        capabilities.put("listServices", manifest.capabilities().listServices());
        capabilities.put("queryTraces", manifest.capabilities().queryTraces());
        capabilities.put("topology", manifest.capabilities().topology());
        out.put("capabilities", capabilities);
        manifest.serverVersion().ifPresent(range -> out.put("compat", Map.of("serverVersion", range)));
        manifest.homepage().ifPresent(url -> out.put("homepage", url));
        manifest.license().ifPresent(license -> out.put("license", license));
        manifest.integrity().ifPresent(integrity -> out.put("integrity", integrity));
        try {
            out.put("configSchema", JsonResponses.mapper().readTree(ManifestJson.configSchema(manifest)));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a verified manifest's configSchema is JSON", e);
        }
        return out;
    }
}
