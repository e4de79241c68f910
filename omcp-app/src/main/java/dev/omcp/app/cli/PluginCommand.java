package dev.omcp.app.cli;

import dev.omcp.adapters.storage.plugins.BuiltInHub;
import dev.omcp.adapters.storage.plugins.DirectoryPluginInspector;
import dev.omcp.adapters.storage.plugins.FilesystemPluginStore;
import dev.omcp.app.settings.InvalidSettingsException;
import dev.omcp.app.settings.Settings;
import dev.omcp.app.settings.SettingsReader;
import dev.omcp.app.wiring.GatewayAssembly;
import dev.omcp.app.wiring.HubSelection;
import dev.omcp.core.plugins.Admission;
import dev.omcp.core.plugins.BundleInstaller;
import dev.omcp.core.plugins.InstallChecks;
import dev.omcp.core.plugins.HubInstall;
import dev.omcp.core.plugins.HubListings;
import dev.omcp.core.plugins.LoadDecision;
import dev.omcp.core.plugins.SemanticVersion;
import dev.omcp.core.plugins.VerificationPolicy;
import dev.omcp.ports.plugins.CheckResult;
import dev.omcp.ports.plugins.ConnectorHub;
import dev.omcp.ports.plugins.DowngradePolicy;
import dev.omcp.ports.plugins.HubCatalog;
import dev.omcp.ports.plugins.HubEntry;
import dev.omcp.ports.plugins.HubListing;
import dev.omcp.ports.plugins.HubRelease;
import dev.omcp.ports.plugins.HubUnavailableException;
import dev.omcp.ports.plugins.InstallOutcome;
import dev.omcp.ports.plugins.LoadedPlugin;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginInspector;
import dev.omcp.ports.plugins.PluginLoadException;
import dev.omcp.ports.plugins.TrustRoot;
import dev.omcp.sdk.manifest.Capabilities;
import dev.omcp.sdk.manifest.ConnectorManifest;
import dev.omcp.sdk.text.BackendText;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code omcp plugin list|info|install|remove|verify} (spec 4.6): the hub catalog from
 * {@code --from <dir|url>} (air-gapped), else the one {@code HUB_CATALOG_URL} selects (the built-in hub
 * when unset, as the gateway's), verification before anything is written to
 * {@code ${PLUGINS_DIR}/<name>/}, and the verdict on a plugin directory, each trusting what the gateway
 * trusts. Exit status 0 on success, 1 on any refusal or error.
 */
@Command(name = "plugin", mixinStandardHelpOptions = true, description = "Browse the connector hub, install, remove and verify connector plugins.",
        subcommands = {PluginCommand.ListCommand.class, PluginCommand.InfoCommand.class, PluginCommand.InstallCommand.class,
                PluginRemoveCommand.class, PluginCommand.VerifyCommand.class})
public final class PluginCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /** Without a command: what to type, on standard error, and the usage exit status 2 ({@code omcp audit} does the same). */
    @Override
    public Integer call() {
        spec.commandLine().getErr().println("omcp: plugin needs a command: list, info, install, remove or verify");
        spec.commandLine().usage(spec.commandLine().getErr());
        return 2;
    }

    /**
     * Settings, or a message and exit status 1. Their log level and format apply from here on, before
     * the first logger: without them the store's and installer's events came at info, as text, whatever
     * OMCP_LOG_LEVEL and OMCP_LOG_FORMAT said.
     */
    static Optional<Settings> settings(PrintWriter err) {
        try {
            Settings settings = SettingsReader.fromProcessEnvironment();
            LoggingSetup.apply(settings.logging());
            LoggingSetup.leaveOutcomesToTheCommand(settings.logging());
            return Optional.of(settings);
        } catch (InvalidSettingsException e) {
            err.println("omcp: " + e.getMessage());
            return Optional.empty();
        }
    }

    /** The hub of {@code --from}, else the one {@code HUB_CATALOG_URL} selects. */
    static Optional<ConnectorHub> hub(Optional<String> from, Settings settings, Optional<Path> trustRoot, PrintWriter err) {
        return hub(from, settings, trustRoot, HubSelection.builtInHub(), err);
    }

    /**
     * @param trustRoot what a hub of the operator's verifies tarballs against; the built-in hub verifies against the jar's key
     * @param builtIn the jar's built-in hub, or why it has none
     */
    static Optional<ConnectorHub> hub(Optional<String> from, Settings settings, Optional<Path> trustRoot, BuiltInHub.Lookup builtIn,
            PrintWriter err) {
        Optional<String> fromProblem = from.flatMap(PluginCommand::fromProblem);
        if (fromProblem.isPresent()) {
            err.println("omcp: --from " + fromProblem.get());
            return Optional.empty();
        }
        Settings.HubSource source = from.<Settings.HubSource>map(Settings.HubSource.At::new).orElse(settings.plugins().hub());
        try {
            // with the revocation list, as the gateway's hub: a tarball signed by a revoked key is refused before it is unpacked
            return switch (HubSelection.select(source, trustRoot, settings.plugins().revokedKeys(), builtIn)) {
                case HubSelection.Selected.Open open -> Optional.of(open.hub());
                case HubSelection.Selected.None none -> {
                    err.println("omcp: no hub catalog: " + none.reason() + ", or pass --from <dir|url>");
                    yield Optional.empty();
                }
            };
        } catch (IllegalArgumentException e) {
            err.println("omcp: " + e.getMessage());
            return Optional.empty();
        }
    }

    /** Where the catalog was read from, as {@code list} says it: the built-in hub by that name. */
    static String sourceShown(String source) {
        return BuiltInHub.SOURCE.equals(source) ? "the built-in hub" : source;
    }

    /**
     * Why {@code --from} names no catalog, checked as HUB_CATALOG_URL is at start: an http(s) URL, a
     * {@code file:} URL, or a directory or index file that exists. Without it an {@code ftp://} URL
     * or a missing directory was read as a relative path and reported as "the hub index is missing".
     */
    static Optional<String> fromProblem(String location) {
        String trimmed = location.trim();
        String lower = trimmed.toLowerCase(Locale.ROOT);
        if (lower.startsWith("http://") || lower.startsWith("https://")) {
            return Optional.empty();
        }
        if (lower.matches("[a-z][a-z0-9+.-]*://.*") && !lower.startsWith("file:")) {
            return Optional.of("must be an http(s) URL, a file: URL or a directory; the scheme of "
                    + (trimmed.contains("@") ? "this URL" : "'" + trimmed + "'") + " is not one of them");
        }
        Path path;
        try {
            path = lower.startsWith("file:") ? Path.of(URI.create(trimmed)) : Path.of(trimmed);
        } catch (IllegalArgumentException | FileSystemNotFoundException e) {
            return Optional.of("'" + trimmed + "' is not a usable file: URL (" + e.getMessage() + "); write it as file:///absolute/dir");
        }
        if (!Files.exists(path)) {
            return Optional.of(path.toAbsolutePath().normalize() + " does not exist; give the hub's directory (holding index.json) or its "
                    + "index.json");
        }
        return Optional.empty();
    }

    /** What {@code list} and {@code info} do with the catalog; its exit status. */
    @FunctionalInterface
    interface CatalogAction {
        int run(Settings settings, HubCatalog catalog, PrintWriter out, PrintWriter err) throws HubUnavailableException;
    }

    /**
     * Reads the settings and the catalog of {@code --from} or {@code HUB_CATALOG_URL} and runs
     * {@code action} on them; exit status 1 with a message when either cannot be read.
     */
    static int withCatalog(CommandSpec spec, Optional<String> from, CatalogAction action) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Optional<Settings> settings = settings(err);
        if (settings.isEmpty()) {
            return 1;
        }
        Optional<ConnectorHub> hub = hub(from, settings.get(), settings.get().plugins().trustRoot(), err);
        if (hub.isEmpty()) {
            return 1;
        }
        try {
            return action.run(settings.get(), hub.get().catalog(), out, err);
        } catch (HubUnavailableException e) {
            err.println("omcp: " + e.getMessage());
            return 1;
        }
    }

    /**
     * Text from the hub catalog as the terminal may print it: the catalog is not signed, and a hub
     * that is hostile (or broken) must not drive the operator's terminal with escape sequences or
     * forge lines of the listing.
     */
    static String shown(String catalogText) {
        return BackendText.escaped(catalogText);
    }

    static String capabilities(Capabilities c) {
        List<String> names = new ArrayList<>();
        if (c.queryMetrics()) {
            names.add("queryMetrics");
        }
        if (c.queryLogs()) {
            names.add("queryLogs");
        }
        if (c.listServices()) {
            names.add("listServices");
        }
        if (c.queryTraces()) {
            names.add("queryTraces");
        }
        if (c.topology()) {
            names.add("topology");
        }
        return names.isEmpty() ? "none" : String.join(", ", names);
    }

    /** {@code omcp plugin list}. */
    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the connectors of the hub catalog and what is installed.")
    static final class ListCommand implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--from", paramLabel = "<dir|url>",
                description = "Read the catalog from this directory or URL instead of HUB_CATALOG_URL (unset: the built-in hub).")
        Optional<String> from;

        @Override
        public Integer call() {
            return withCatalog(spec, from, (settings, catalog, out, err) -> {
                // the gateway's trust: while verification is on, an installed manifest is listed only once its signature verified
                FilesystemPluginStore store = new FilesystemPluginStore(settings.plugins().directory(), settings.plugins().trustRoot(),
                        settings.plugins().revokedKeys(), settings.plugins().signaturesDemanded(), HubSelection.builtInHub().found());
                HubListing listing = HubListings.fromScan(catalog, store.scan(List.of()).candidates());
                out.printf("%-20s %-16s %-16s %s%n", "NAME", "LATEST", "INSTALLED", "DESCRIPTION");
                for (HubListing.Item item : listing.entries()) {
                    out.printf("%-20s %-16s %-16s %s%n", item.entry().name(), shown(item.entry().latest()),
                            item.installedVersion().orElse("-"), shown(item.entry().description()));
                }
                out.println(listing.entries().size() + " connectors in " + sourceShown(listing.source()));
                return 0;
            });
        }
    }

    /** {@code omcp plugin info <name>}. */
    @Command(name = "info", mixinStandardHelpOptions = true, description = "Show one connector of the hub catalog: versions, changelog, capabilities.")
    static final class InfoCommand implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<name>", description = "The connector name, for example tempo.")
        String name;

        @Option(names = "--from", paramLabel = "<dir|url>",
                description = "Read the catalog from this directory or URL instead of HUB_CATALOG_URL (unset: the built-in hub).")
        Optional<String> from;

        @Override
        public Integer call() {
            return withCatalog(spec, from, (settings, catalog, out, err) -> {
                Optional<HubEntry> entry = catalog.find(name);
                if (entry.isEmpty()) {
                    err.println("omcp: the hub catalog has no connector '" + name + "'; omcp plugin list shows what it offers");
                    return 1;
                }
                HubEntry e = entry.get();
                out.println(e.name() + " - " + shown(e.displayName()));
                out.println("  " + shown(e.description()));
                out.println("  latest: " + shown(e.latest()));
                for (HubRelease release : e.releases()) {
                    ConnectorManifest manifest = release.manifest();
                    out.println("  version " + release.version()
                            + (release.published().isEmpty() ? "" : " (" + shown(release.published()) + ")"));
                    out.println("    signal types: " + String.join(", ", manifest.signalTypes()));
                    out.println("    capabilities: " + capabilities(manifest.capabilities()));
                    manifest.serverVersion().ifPresent(range -> out.println("    needs gateway: " + shown(range)));
                    out.println("    integrity: " + release.integrity());
                    if (!release.changelog().isBlank()) {
                        // a changelog of several lines keeps them, indented under its label, each shown as text
                        out.println("    changelog: " + String.join(System.lineSeparator() + "      ",
                                release.changelog().strip().lines().map(PluginCommand::shown).toList()));
                    }
                }
                return 0;
            });
        }
    }

    /**
     * {@code omcp plugin install <name>[@<version>]}. Its description names the variable with
     * {@code $$}: picocli interpolates {@code ${NAME}} from the environment, which printed
     * {@code null/<name>/} when {@code PLUGINS_DIR} was unset.
     */
    @Command(name = "install", mixinStandardHelpOptions = true,
            description = "Download (or read, with --from <dir>), verify and install a connector into $${PLUGINS_DIR}/<name>/ "
                    + "(PLUGINS_DIR defaults to /app/plugins).")
    static final class InstallCommand implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<name>[@<version>]", description = "The connector, for example tempo or tempo@1.2.0.")
        String target;

        @Option(names = "--from", paramLabel = "<dir|url>",
                description = "Read the catalog from this directory or URL instead of HUB_CATALOG_URL (unset: the built-in hub).")
        Optional<String> from;

        @Option(names = "--trust-root", paramLabel = "<pem>", description = "The PEM public key to verify with instead of PLUGIN_TRUST_ROOT.")
        Optional<Path> trustRoot;

        @Option(names = "--allow-downgrade", description = "Let an older version replace the installed one (refused by default: an old "
                + "signed bundle may bring back a fixed flaw).")
        boolean allowDowngrade;

        @Override
        public Integer call() {
            PrintWriter err = spec.commandLine().getErr();
            Optional<Settings> settings = settings(err);
            return settings.isEmpty() ? 1 : run(settings.get(), spec.commandLine().getOut(), err);
        }

        /** Installs with {@code settings}; the exit status. */
        int run(Settings settings, PrintWriter out, PrintWriter err) {
            Optional<Path> pem = trustRoot.or(() -> settings.plugins().trustRoot());
            // first: without a usable key no install can succeed, so the hub is not read (no network call), and the refusal is
            // this one line, not the hub's "tarball cannot be verified" labelled as a verification failure
            TrustRoot trust = FilesystemPluginStore.readTrustRoot(pem, settings.plugins().revokedKeys());
            if (!trust.isLoaded()) {
                err.println("omcp: install refused (no trust root): " + withoutTrustRoot(pem, trust)
                        + "; nothing was downloaded or installed");
                return 1;
            }
            Optional<ConnectorHub> hub = hub(from, settings, pem, err);
            if (hub.isEmpty()) {
                return 1;
            }
            int at = target.indexOf('@');
            String name = at < 0 ? target : target.substring(0, at);
            Optional<String> version = at < 0 ? Optional.empty() : Optional.of(target.substring(at + 1));
            Path directory = settings.plugins().directory();
            // the gateway's trust: a plugin of the built-in hub verifies against the jar's key, as it will when the gateway loads it
            FilesystemPluginStore store = new FilesystemPluginStore(directory, pem, settings.plugins().revokedKeys(),
                    settings.plugins().signaturesDemanded(), HubSelection.builtInHub().found());
            BundleInstaller installer = new BundleInstaller(store, GatewayAssembly.builtinConnectorNames(), VersionProvider.serverVersion());
            InstallOutcome outcome = new HubInstall(hub.get(), installer).install(name, version, InstallChecks.none(),
                    allowDowngrade ? DowngradePolicy.ALLOW : DowngradePolicy.REFUSE);
            return switch (outcome) {
                case InstallOutcome.Installed installed -> {
                    out.println("installed " + installed.name() + " " + installed.version()
                            + installed.downgradedFrom().map(from -> " (downgraded from " + from + ")").orElse("") + " into "
                            + directory.resolve(installed.name()) + "; restart the gateway to load it");
                    yield 0;
                }
                case InstallOutcome.Refused refused -> {
                    err.println("omcp: install refused (" + refused.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ') + "): "
                            + refused.reason());
                    yield 1;
                }
            };
        }

        /**
         * Why {@code trust} verifies nothing and what to do, naming where the key came from: the installer's
         * reason names PLUGIN_TRUST_ROOT, which sent the operator to a variable they did not set after --trust-root.
         */
        private String withoutTrustRoot(Optional<Path> pem, TrustRoot trust) {
            if (pem.isEmpty()) {
                return "PLUGIN_TRUST_ROOT is not set and no --trust-root was given, so the plugin's signature cannot be verified; "
                        + "pass --trust-root <pem> or set PLUGIN_TRUST_ROOT to the PEM public key the hub's plugins are signed with";
            }
            String origin = trustRoot.isPresent() ? "--trust-root " + pem.get() : "PLUGIN_TRUST_ROOT " + pem.get();
            return "the trust root " + origin + " is unusable: " + trust.detail() + "; fix that file, or pass --trust-root <pem> "
                    + "with the PEM public key the hub's plugins are signed with";
        }
    }

    /** {@code omcp plugin verify <dir>}. */
    @Command(name = "verify", mixinStandardHelpOptions = true,
            description = "Check a plugin directory exactly as the gateway does and print the verdict; exit 1 when it would be refused.")
    static final class VerifyCommand implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "<dir>", description = "The plugin directory (holding package.json).")
        Path directory;

        @Option(names = "--trust-root", paramLabel = "<pem>", description = "The PEM public key to verify with instead of PLUGIN_TRUST_ROOT.")
        Optional<Path> trustRoot;

        @Override
        public Integer call() {
            PrintWriter err = spec.commandLine().getErr();
            Optional<Settings> settings = settings(err);
            return settings.isEmpty() ? 1 : run(settings.get(), spec.commandLine().getOut(), err);
        }

        /** Verifies with {@code settings}; the exit status. */
        int run(Settings settings, PrintWriter out, PrintWriter err) {
            // a mistyped path is said as such, not as a directory without a plugin whose every check was skipped
            Path absolute = directory.toAbsolutePath().normalize();
            if (!Files.isDirectory(absolute)) {
                err.println("omcp: " + absolute + (Files.exists(absolute) ? " is not a directory" : " does not exist")
                        + "; pass the plugin's directory, the one holding its package.json");
                out.println("verdict: REFUSED (no plugin directory)");
                return 1;
            }
            Optional<Path> pem = trustRoot.or(() -> settings.plugins().trustRoot());
            if (pem.isEmpty()) {
                err.println("omcp: no trust root: set PLUGIN_TRUST_ROOT or pass --trust-root <pem>");
                out.println("verdict: REFUSED (nothing to verify the signature against)");
                return 1;
            }
            DirectoryPluginInspector inspector = new DirectoryPluginInspector();
            // as the gateway checks it: the key of the jar's built-in hub verifies the plugins installed from it
            PluginInspector.Inspection inspection = inspector.inspect(directory, pem.get(), settings.plugins().revokedKeys(),
                    HubSelection.builtInHub().found());
            PluginCandidate candidate = inspection.candidate();
            out.println("plugin: " + candidate.name() + candidate.manifest().map(m -> " " + m.version()).orElse("") + " in " + candidate.location());
            // name where the key came from: the shared reason names PLUGIN_TRUST_ROOT, which is wrong after --trust-root
            String origin = trustRoot.isPresent() ? "--trust-root " + pem.get() : "PLUGIN_TRUST_ROOT " + pem.get();
            boolean usable = inspection.trustRoot().isLoaded();
            out.println("trust root: " + (usable ? inspection.trustRoot().detail() : "UNUSABLE (" + origin + "): " + inspection.trustRoot().detail()));
            print(out, "manifest", candidate.manifestCheck());
            print(out, "integrity", candidate.integrity());
            if (usable) {
                print(out, "signature", candidate.signature());
            } else {
                out.println("signature: NOT CHECKED: no usable trust root (see above)");
            }
            SemanticVersion server = VersionProvider.serverVersion();
            Admission admission = LoadDecision.decide(VerificationPolicy.install(), inspection.trustRoot(), candidate, server);
            if (admission instanceof Admission.Skip skip) {
                out.println("compatibility: " + skip.reason());
            }
            if (!(admission instanceof Admission.Load)) {
                out.println("verdict: REFUSED");
                return 1;
            }
            try {
                LoadedPlugin loaded = inspector.load(inspection);
                out.println("load: ok, factory " + loaded.factory().getClass().getName() + ", " + loaded.hooks().size() + " hook(s)");
                for (LoadedPlugin.SkippedHook hook : loaded.skippedHooks()) {
                    out.println("hook skipped: " + hook.entry().kind().wireName() + " " + hook.entry().module() + ": " + hook.reason());
                }
            } catch (PluginLoadException e) {
                out.println("load: FAILED: " + e.getMessage());
                out.println("verdict: REFUSED");
                return 1;
            }
            out.println("verdict: OK (loads with PLUGIN_REQUIRE_SIGNATURE=true on gateway " + server + ")");
            return 0;
        }

        private static void print(PrintWriter out, String check, CheckResult result) {
            switch (result.status()) {
                case PASSED -> out.println(check + ": ok");
                case FAILED -> result.problems().forEach(p -> out.println(check + ": FAILED: " + p));
                case NOT_CHECKED -> result.problems().forEach(p -> out.println(check + ": NOT CHECKED: " + withoutLabel(check, p)));
            }
        }

        /**
         * The reason without its own "integrity not checked: " or "not checked: ": the gateway log needs
         * it there, but after this line's "integrity: NOT CHECKED: " it stuttered.
         */
        private static String withoutLabel(String check, String reason) {
            for (String label : List.of(check + " not checked: ", "not checked: ")) {
                if (reason.startsWith(label)) {
                    return reason.substring(label.length());
                }
            }
            return reason;
        }
    }
}
