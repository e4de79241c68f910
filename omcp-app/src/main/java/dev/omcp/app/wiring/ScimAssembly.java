package dev.omcp.app.wiring;

import dev.omcp.adapters.http.scim.ScimRoutes;
import dev.omcp.adapters.http.server.HttpModule;
import dev.omcp.adapters.storage.plugins.EntitlementKey;
import dev.omcp.adapters.storage.scim.JsonScimFile;
import dev.omcp.app.settings.Settings;
import dev.omcp.core.entitlements.TokenEntitlements;
import dev.omcp.core.scim.ScimDirectory;
import dev.omcp.core.scim.ScimLogins;
import dev.omcp.ports.auth.ProvisionedLogins;
import dev.omcp.ports.auth.SessionRevocations;
import dev.omcp.ports.entitlements.Entitlements;
import dev.omcp.sdk.text.LogField;
import java.io.IOException;
import java.time.Clock;
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
 * empty directory would forget who was deprovisioned).
 */
final class ScimAssembly {
    private static final Logger LOG = LoggerFactory.getLogger(ScimAssembly.class);

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
     * @param governLogins given the directory's say over logins (refusals, group roles) when SCIM is mounted;
     *     not called otherwise, so a directory that is not mounted changes no login
     */
    static Optional<HttpModule> module(Settings.Scim settings, Entitlements entitlements, Clock clock, SessionRevocations revocations,
            Consumer<ProvisionedLogins> governLogins) {
        if (settings.token().isEmpty()) {
            return Optional.empty();
        }
        Optional<String> missing = entitlements.missing(Entitlements.SCIM);
        if (missing.isPresent()) {
            LOG.warn("event=scim-not-mounted reason=\"{}\" effect=\"OMCP_SCIM_TOKEN is set, but /scim/v2 is not served without the"
                    + " scim entitlement\"", LogField.of(missing.get()));
            return Optional.empty();
        }
        JsonScimFile store;
        try {
            store = JsonScimFile.open(settings.store());
        } catch (IOException e) {
            throw new StartRefusedException(e.getMessage());
        }
        Map<String, String> groupRoles = settings.groupRoles();
        ScimDirectory directory = new ScimDirectory(store, clock, () -> UUID.randomUUID().toString(), revocations,
                group -> ScimLogins.grantsRoles(groupRoles, group));
        governLogins.accept(new ScimLogins(directory, groupRoles));
        LOG.info("event=scim-mounted path=/scim/v2 store={} users={} groups={} deletedRemembered={} mappedGroups={}", settings.store(),
                store.load().users().size(), store.load().groups().size(), store.load().deleted().size(), groupRoles.size());
        return Optional.of(new ScimRoutes(directory, entitlements, settings.token().get()));
    }
}
