package dev.omcp.app.wiring;

import dev.omcp.adapters.http.scim.ScimRoutes;
import dev.omcp.adapters.http.server.HttpModule;
import dev.omcp.adapters.storage.plugins.EntitlementKey;
import dev.omcp.adapters.storage.redis.RedisConnection;
import dev.omcp.adapters.storage.redis.RedisScimStore;
import dev.omcp.adapters.storage.redis.RedisTls;
import dev.omcp.adapters.storage.scim.JsonScimFile;
import dev.omcp.app.settings.AccessControlSettings;
import dev.omcp.app.settings.Settings;
import dev.omcp.core.entitlements.TokenEntitlements;
import dev.omcp.core.scim.ScimDirectory;
import dev.omcp.core.scim.ScimLogins;
import dev.omcp.ports.auth.ProvisionedLogins;
import dev.omcp.ports.auth.SessionRevocations;
import dev.omcp.ports.auth.SharedStateUnavailableException;
import dev.omcp.ports.entitlements.Entitlements;
import dev.omcp.ports.scim.ScimSnapshot;
import dev.omcp.ports.scim.ScimStore;
import dev.omcp.sdk.text.LogField;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The entitlements and SCIM provisioning (spec 4.5, 5.6). An entitlement that cannot be used never
 * stops the gateway: it holds nothing, and one line says why. SCIM is mounted only with a token and
 * the {@code scim} entitlement held at start; a SCIM store that does not read stops the start (an
 * empty directory would forget who was deprovisioned), and so does a Redis backend whose server does
 * not answer or holds something that is not a SCIM directory.
 */
final class ScimAssembly {
    private static final Logger LOG = LoggerFactory.getLogger(ScimAssembly.class);
    private static final String REDIS_SETTING = "OMCP_SCIM_REDIS_URL";

    private ScimAssembly() {}

    /** The entitlements the settings give; logs what they grant or why they grant nothing. */
    static Entitlements entitlements(Settings.Scim settings, Clock clock) {
        if (settings.entitlementToken().isEmpty()) {
            return Entitlements.none();
        }
        if (settings.entitlementKey().isEmpty()) {
            return logged(TokenEntitlements.refused("OMCP_ENTITLEMENT_TOKEN is set but OMCP_ENTITLEMENT_PUBKEY is not; set the"
                    + " issuer's Ed25519 public key", clock));
        }
        return switch (EntitlementKey.read(settings.entitlementKey().get())) {
            case EntitlementKey.Read.Unusable unusable -> logged(TokenEntitlements.refused(unusable.reason(), clock));
            case EntitlementKey.Read.Key key -> logged(TokenEntitlements.of(settings.entitlementToken().get(), key.check(), clock));
        };
    }

    private static TokenEntitlements logged(TokenEntitlements entitlements) {
        entitlements.claims().ifPresentOrElse(
                claims -> LOG.info("event=entitlement outcome=verified sub=\"{}\" features=\"{}\" validFrom={} expires={}",
                        LogField.of(claims.sub()), String.join(",", claims.features()), claims.issuedAt(), claims.expiresAt()),
                () -> LOG.warn("event=entitlement outcome=refused reason=\"{}\" effect=\"licensed features stay off; the gateway"
                        + " runs without them\"", LogField.of(entitlements.missing(Entitlements.SCIM).orElse(""))));
        return entitlements;
    }

    /**
     * The SCIM routes, when a token is set and the entitlement held.
     *
     * @param redisTls the TLS files of the shared store ({@code OMCP_REDIS_CA_FILE} ...), which a {@code rediss://}
     *     {@code OMCP_SCIM_REDIS_URL} uses too
     * @param governLogins given the directory's say over logins (refusals, group roles) when SCIM is mounted;
     *     not called otherwise, so a directory that is not mounted changes no login
     * @param opened given what must be closed when the gateway stops (the Redis connection)
     */
    static Optional<HttpModule> module(Settings.Scim settings, AccessControlSettings.RedisTlsFiles redisTls, Entitlements entitlements,
            Clock clock, SessionRevocations revocations, Consumer<ProvisionedLogins> governLogins, Consumer<AutoCloseable> opened) {
        if (settings.token().isEmpty()) {
            return Optional.empty();
        }
        Optional<String> missing = entitlements.missing(Entitlements.SCIM);
        if (missing.isPresent()) {
            LOG.warn("event=scim-not-mounted reason=\"{}\" effect=\"OMCP_SCIM_TOKEN is set, but /scim/v2 is not served without the"
                    + " scim entitlement\"", LogField.of(missing.get()));
            return Optional.empty();
        }
        Stored stored = settings.redisUrl().isPresent() ? redis(settings.redisUrl().get(), redisTls, opened) : file(settings.store());
        ScimStore store = stored.store();
        Map<String, String> groupRoles = settings.groupRoles();
        ScimDirectory directory = new ScimDirectory(store, clock, () -> UUID.randomUUID().toString(), revocations,
                group -> ScimLogins.grantsRoles(groupRoles, group));
        governLogins.accept(new ScimLogins(directory, groupRoles));
        ScimSnapshot now = stored.atStart();
        LOG.info("event=scim-mounted path=/scim/v2 backend={} store={} users={} groups={} deletedRemembered={} mappedGroups={}",
                stored.backend(), stored.where(), now.users().size(), now.groups().size(), now.deleted().size(), groupRoles.size());
        return Optional.of(new ScimRoutes(directory, entitlements, settings.token().get()));
    }

    /** The store opened, what it held at start, and how to name it in the log (never with a password). */
    private record Stored(ScimStore store, ScimSnapshot atStart, String backend, String where) {}

    private static Stored file(Path path) {
        try {
            JsonScimFile store = JsonScimFile.open(path);
            return new Stored(store, store.read().snapshot(), "file", path.toString());
        } catch (IOException e) {
            throw new StartRefusedException(e.getMessage());
        }
    }

    /**
     * The directory in Redis, read once now: a server that does not answer, or a key that holds no SCIM
     * directory, refuses the start as an unreadable file does (docs/scim.md "Several replicas").
     */
    private static Stored redis(String url, AccessControlSettings.RedisTlsFiles tlsFiles, Consumer<AutoCloseable> opened) {
        RedisConnection connection;
        try {
            // the TLS files of OMCP_REDIS_URL need a rediss:// URL: a plain redis:// SCIM server is reached without them
            Optional<RedisTls> tls = url.toLowerCase(Locale.ROOT).startsWith("rediss://")
                    ? RedisTls.fromFiles(tlsFiles.caFile().map(Path::of), tlsFiles.certFile().map(Path::of),
                            tlsFiles.keyFile().map(Path::of))
                    : Optional.empty();
            connection = RedisConnection.connect(url, tls, REDIS_SETTING);
        } catch (IllegalArgumentException | IllegalStateException e) {
            // the messages name the server without credentials and say what is wrong with it
            throw new StartRefusedException(e.getMessage() + "; the gateway keeps its SCIM directory there (OMCP_SCIM_BACKEND=redis),"
                    + " so it does not start without it");
        }
        opened.accept(connection);
        RedisScimStore store = new RedisScimStore(connection);
        try {
            return new Stored(store, store.read().snapshot(), "redis", connection.description());
        } catch (SharedStateUnavailableException e) {
            throw new StartRefusedException(e.getMessage() + "; the gateway keeps its SCIM directory there (OMCP_SCIM_BACKEND=redis),"
                    + " so it does not start without it");
        }
    }
}
