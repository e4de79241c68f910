package dev.omcp.app.settings;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Reads the plugin variables (spec 5.8, 6.1) into {@link Settings.Plugins}, collecting every problem. */
final class PluginSettingsReader {
    private PluginSettingsReader() {}

    static Settings.Plugins read(Environment environment) {
        Path directory = pluginsDirectory(environment);
        // spec 5.8: false, 0, no, off opt out, and nothing else ungates plugins. A value that is neither
        // an opt-out nor an opt-in (VERIFY_PLUGINS=flase) refuses the start rather than being read as
        // "on": whoever wrote it meant to change the setting, most likely to turn it off, and a
        // gateway that then refuses their plugins at every start leaves them guessing why.
        boolean verify = environment.flag(Variables.VERIFY_PLUGINS);
        Optional<Path> trustRoot = environment.file(Variables.PLUGIN_TRUST_ROOT);
        Optional<Path> revokedKeys = environment.file(Variables.PLUGIN_REVOKED_KEYS);
        boolean strict = environment.flag(Variables.PLUGIN_REQUIRE_SIGNATURE);
        boolean uiInstall = environment.flag(Variables.ENABLE_UI_INSTALL);
        Settings.HubSource hub = hubSource(environment);
        Optional<String> written = environment.raw(Variables.HOOK_MODE);
        Optional<String> hookMode = written.map(mode -> mode.toLowerCase(Locale.ROOT));
        if (hookMode.isPresent() && !List.of("enforce", "permissive", "disabled").contains(hookMode.get())) {
            // the value as written, not lower-cased, as every other setting shows it: the operator searches their files for it
            environment.problem(Variables.HOOK_MODE, "must be enforce, permissive or disabled, got '" + written.get() + "'");
            hookMode = Optional.empty();
        }
        boolean directoryNamed = environment.raw(Variables.PLUGINS_DIR).isPresent();
        return new Settings.Plugins(directory, directoryNamed, verify, trustRoot, revokedKeys, strict, uiInstall, hub, hookMode);
    }

    /**
     * {@code PLUGINS_DIR}. A missing directory means no filesystem plugins (the default {@code /app/plugins}
     * exists only in the image), but an existing file that is not a directory is a mistake: the start used
     * to load no plugin without a word, and {@code omcp plugin install} failed only once it had downloaded.
     */
    private static Path pluginsDirectory(Environment environment) {
        Variable variable = Variables.PLUGINS_DIR;
        String text = environment.string(variable);
        Path directory = path(environment, variable, text);
        if (Files.exists(directory) && !Files.isDirectory(directory)) {
            environment.problem(variable, "names '" + text + "', which is not a directory; give the directory the connector plugins "
                    + "are installed in (a missing one means no filesystem plugins)");
        }
        return directory;
    }

    private static Path path(Environment environment, Variable variable, String text) {
        try {
            return Path.of(text);
        } catch (InvalidPathException e) {
            environment.problem(variable, "is not a usable path: " + e.getReason());
            return Path.of(variable.defaultValue().isEmpty() ? "." : variable.defaultValue());
        }
    }

    /**
     * {@code HUB_CATALOG_URL}: unset or {@code builtin} is the built-in hub (spec 5.8's default), one of
     * {@link #HUB_OFF_WORDS} turns the hub off, anything else must name a hub.
     */
    private static Settings.HubSource hubSource(Environment environment) {
        Optional<String> written = environment.raw(Variables.HUB_CATALOG_URL);
        if (written.isEmpty() || HUB_BUILT_IN_WORDS.contains(written.get().toLowerCase(Locale.ROOT))) {
            return new Settings.HubSource.BuiltIn();
        }
        if (HUB_OFF_WORDS.contains(written.get().toLowerCase(Locale.ROOT))) {
            return new Settings.HubSource.Off(written.get());
        }
        checkHub(environment, written.get());
        return new Settings.HubSource.At(written.get());
    }

    /** The values of {@code HUB_CATALOG_URL} that turn the hub off, compared in lower case. */
    static final List<String> HUB_OFF_WORDS = List.of("off", "none", "disabled");
    /** The values of {@code HUB_CATALOG_URL} that name the built-in hub, as leaving it unset does. */
    static final List<String> HUB_BUILT_IN_WORDS = List.of("builtin", "built-in");

    private static void checkHub(Environment environment, String location) {
        if (location.startsWith("http://") || location.startsWith("https://") || location.startsWith("file:")) {
            try {
                URI uri = new URI(location);
                if (!"file".equals(uri.getScheme()) && (uri.getHost() == null || uri.getHost().isBlank())) {
                    environment.problem(Variables.HUB_CATALOG_URL, "must name a host, for example https://hub.example.com/catalog/");
                }
            } catch (URISyntaxException e) {
                environment.problem(Variables.HUB_CATALOG_URL, "is not a valid URL: " + e.getReason());
            }
            return;
        }
        if (!location.startsWith("/")) {
            environment.problem(Variables.HUB_CATALOG_URL, "must be an http(s) URL, a file: URL or an absolute directory "
                    + "(or builtin, the default, or off)" + HttpUrls.shown(location));
        }
    }
}
