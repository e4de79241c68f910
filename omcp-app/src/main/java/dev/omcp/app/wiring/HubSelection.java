package dev.omcp.app.wiring;

import dev.omcp.adapters.storage.plugins.BuiltInHub;
import dev.omcp.adapters.storage.plugins.StaticConnectorHub;
import dev.omcp.app.settings.Settings;
import dev.omcp.ports.plugins.ConnectorHub;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The connector hub {@code HUB_CATALOG_URL} selects (spec 1.5, 5.8): the built-in hub the jar carries
 * when it is unset, the operator's hub at a URL or directory, or none when it is off. The gateway and
 * {@code omcp plugin} select alike.
 *
 * <p>Each hub verifies its tarballs against its own anchor: the built-in hub against the key the jar
 * carries beside it, an operator's hub against {@code PLUGIN_TRUST_ROOT} alone, so the jar's key never
 * lets another hub install anything.
 */
public final class HubSelection {
    /** Where the build lays the built-in hub into the jar, beside the demo's Zipkin plugin (omcp-app's pom). */
    static final String BUILT_IN_FOLDER = "dev/omcp/app/demo/hub/";
    /** The public half of the key the build signed the built-in hub's connectors with. */
    static final String BUILT_IN_KEY = "dev/omcp/app/demo/trust-root.pem";

    private HubSelection() {}

    /** The hub selected, or why there is none. */
    public sealed interface Selected {
        /** A hub to read. */
        record Open(ConnectorHub hub) implements Selected {
            public Open {
                Objects.requireNonNull(hub, "hub");
            }
        }

        /** @param reason why there is no hub and what to do, naming the setting */
        record None(String reason) implements Selected {
            public None {
                Objects.requireNonNull(reason, "reason");
            }
        }
    }

    /** The built-in hub of this jar, or why it holds none. */
    public static BuiltInHub.Lookup builtInHub() {
        return BuiltInHub.find(HubSelection.class.getClassLoader(), BUILT_IN_FOLDER, BUILT_IN_KEY);
    }

    /**
     * The hub {@code source} names.
     *
     * @param trustRoot what an operator's hub verifies its tarballs against ({@code PLUGIN_TRUST_ROOT}); not the built-in hub
     * @param revokedKeys {@code OMCP_PLUGIN_REVOKED_KEYS}, which applies to every hub
     * @param builtIn the jar's built-in hub, or why it has none
     * @throws IllegalArgumentException when an operator's location is no hub location (the settings reader checked it)
     */
    public static Selected select(Settings.HubSource source, Optional<Path> trustRoot, Optional<Path> revokedKeys,
            BuiltInHub.Lookup builtIn) {
        return switch (source) {
            case Settings.HubSource.BuiltIn unset -> switch (builtIn) {
                case BuiltInHub.Lookup.Found found -> new Selected.Open(found.hub().connectorHub(revokedKeys));
                case BuiltInHub.Lookup.Missing missing -> new Selected.None(missing(missing));
            };
            case Settings.HubSource.Off off -> new Selected.None("the connector hub is off (HUB_CATALOG_URL=" + off.written()
                    + "); unset HUB_CATALOG_URL to use the built-in hub, or set it to a hub's URL or directory");
            case Settings.HubSource.At at -> new Selected.Open(StaticConnectorHub.at(at.location(), trustRoot, revokedKeys));
        };
    }

    /** Why a jar has no built-in hub and how to get one: a build that skipped its tests skipped the step that signs it. */
    static String missing(BuiltInHub.Lookup.Missing missing) {
        return "the built-in hub is not in this jar (" + missing.reason() + "): the jar was built without its test phase (for example "
                + "with -Dmaven.test.skip=true), which signs the reference connectors; rebuild it with mvn package, or set "
                + "HUB_CATALOG_URL to a hub's URL or directory";
    }
}
