package dev.omcp.app.wiring;

import dev.omcp.adapters.storage.plugins.BuiltInHub;
import dev.omcp.adapters.storage.plugins.FilesystemPluginStore;
import dev.omcp.app.settings.Settings;
import dev.omcp.core.hooks.HookMode;
import dev.omcp.core.hooks.HookRegistry;
import dev.omcp.core.plugins.ConnectorManagement;
import dev.omcp.core.plugins.PluginCatalog;
import dev.omcp.core.plugins.SemanticVersion;
import dev.omcp.core.plugins.VerificationPolicy;
import dev.omcp.ports.connectors.ConnectorCatalog;
import dev.omcp.ports.plugins.ConnectorHub;
import dev.omcp.ports.plugins.ConnectorUsers;
import dev.omcp.ports.plugins.ManageConnectors;
import dev.omcp.ports.plugins.PluginPin;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.text.LogField;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires plugins: the plugins directory and trust root, the pins of the sources file, the load
 * decision of spec 3.5, the live connector catalog, the hook registry and the management use cases.
 *
 * @param catalog the connector types (builtin, filesystem, pinned) sources are served with
 * @param hooks the hooks of loaded plugins, changed in place by installs
 * @param hookMode {@code OMCP_HOOK_MODE}, when set
 * @param store the plugins directory and trust root
 * @param hub the hub catalog {@code HUB_CATALOG_URL} selects: the built-in hub when unset; when there is
 *     none, an {@link UnavailableHub} saying why
 * @param uiInstall {@code ENABLE_UI_INSTALL}
 */
record PluginWiring(PluginCatalog catalog, HookRegistry hooks, Optional<HookMode> hookMode, FilesystemPluginStore store,
        Optional<ConnectorHub> hub, boolean uiInstall) {
    private static final Logger LOG = LoggerFactory.getLogger(PluginWiring.class);
    private static final int MAX_LOGGED_PATH = 512;

    /**
     * Scans and loads the plugins.
     *
     * @throws dev.omcp.core.plugins.PluginStartRefusedException in strict mode when a plugin is
     *     unverifiable or the trust root is unusable: the launcher exits 1
     * @param pins the {@code plugins:} block of the sources file
     */
    static PluginWiring start(Settings.Plugins settings, List<ConnectorFactory> builtins, List<PluginPin> pins, String version) {
        return start(settings, builtins, pins, version, HubSelection.builtInHub());
    }

    /**
     * @param builtInHub the jar's built-in hub, or why it holds none: its key verifies the plugins installed
     *     from it wherever {@code PLUGIN_TRUST_ROOT} is usable, whichever hub {@code HUB_CATALOG_URL} selects
     */
    static PluginWiring start(Settings.Plugins settings, List<ConnectorFactory> builtins, List<PluginPin> pins, String version,
            BuiltInHub.Lookup builtInHub) {
        missingDirectoryNote(settings).ifPresent(LOG::info);
        FilesystemPluginStore store = new FilesystemPluginStore(settings.directory(), settings.trustRoot(), settings.revokedKeys(),
                settings.signaturesDemanded(), builtInHub.found());
        // before the first scan: an upgrade the last run died in must not leave its plugin missing
        store.recoverInterruptedInstalls();
        HookRegistry hooks = new HookRegistry();
        Optional<HookMode> hookMode = settings.hookMode().flatMap(HookMode::fromWireName);
        PluginCatalog catalog = PluginCatalog.start(builtins, store, pins,
                new VerificationPolicy(settings.verify(), settings.requireSignature()), serverVersion(version), hooks, hookMode);
        ConnectorHub hub = switch (HubSelection.select(settings.hub(), settings.trustRoot(), settings.revokedKeys(), builtInHub)) {
            case HubSelection.Selected.Open open -> open.hub();
            case HubSelection.Selected.None none -> new UnavailableHub(none.reason());
        };
        hubNote(settings.hub(), builtInHub);
        return new PluginWiring(catalog, hooks, hookMode, store, Optional.of(hub), settings.uiInstall());
    }

    /** One line on the built-in hub: which key it trusts, or, when it was to be used, that the jar lacks it. */
    private static void hubNote(Settings.HubSource source, BuiltInHub.Lookup builtInHub) {
        if (!(source instanceof Settings.HubSource.BuiltIn)) {
            return;
        }
        switch (builtInHub) {
            case BuiltInHub.Lookup.Found found -> LOG.info("event=hub-catalog source={} key=\"{}\"", BuiltInHub.SOURCE,
                    LogField.of(found.hub().keyDescription()));
            case BuiltInHub.Lookup.Missing missing -> LOG.warn("event=builtin-hub-missing reason=\"{}\" effect=\"GET /api/hub/catalog "
                    + "answers 502 and nothing installs from a hub\" fix=\"rebuild the jar with mvn package (its test phase signs the "
                    + "reference connectors), or set HUB_CATALOG_URL\"", LogField.of(missing.reason()));
        }
    }

    /**
     * The connector management API's use cases, once the sources exist: a plugin removal asks them
     * which sources use the plugin's connector, and reconnects them afterwards.
     */
    ManageConnectors management(ConnectorUsers sources) {
        return new ConnectorManagement(catalog, store, hub, uiInstall, sources);
    }

    /**
     * A line for a {@code PLUGINS_DIR} the operator set that does not exist. Allowed (no filesystem
     * plugins), but a typo in the path otherwise loaded nothing without a word. The default
     * {@code /app/plugins} exists only in the image, so its absence elsewhere says nothing.
     */
    static Optional<String> missingDirectoryNote(Settings.Plugins settings) {
        if (!settings.directoryNamed() || Files.exists(settings.directory())) {
            return Optional.empty();
        }
        return Optional.of("event=plugins-dir-missing dir=\"" + LogField.of(settings.directory().toString(), MAX_LOGGED_PATH)
                + "\" effect=\"no filesystem plugins are loaded\" note=\"PLUGINS_DIR names a directory that does not exist; "
                + "omcp plugin install creates it\"");
    }

    /** The gateway version for {@code compat.serverVersion}; a development build counts as 0.0.0. */
    static SemanticVersion serverVersion(String version) {
        return SemanticVersion.parse(version).orElse(SemanticVersion.of(0, 0, 0));
    }

    /** The seam the source registry consumes. */
    ConnectorCatalog connectorCatalog() {
        return catalog;
    }
}
