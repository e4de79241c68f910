package dev.omcp.app.cli;

import dev.omcp.adapters.storage.plugins.FilesystemPluginStore;
import dev.omcp.app.settings.Settings;
import dev.omcp.app.wiring.GatewayAssembly;
import dev.omcp.app.wiring.HubSelection;
import dev.omcp.core.plugins.PluginRemoval;
import dev.omcp.ports.plugins.PluginPin;
import dev.omcp.ports.plugins.RemoveOutcome;
import dev.omcp.ports.sources.SourcesDocument;
import java.io.PrintWriter;
import java.nio.file.Path;
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
 * {@code omcp plugin remove <name> [--force]}: removes {@code ${PLUGINS_DIR}/<name>/} for the next
 * start, crash-safely, as {@code DELETE /api/connectors/<name>} does on a running gateway. Refused
 * (exit 1) when sources of the sources file use the plugin's connector, unless {@code --force}.
 */
@Command(name = "remove", mixinStandardHelpOptions = true,
        description = "Remove the connector plugin installed in $${PLUGINS_DIR}/<name>/ (PLUGINS_DIR defaults to /app/plugins); "
                + "a running gateway keeps it loaded until it restarts.")
final class PluginRemoveCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "<name>", description = "The plugin's directory name, for example tempo.")
    String name;

    @Option(names = "--force", description = "Remove it even when sources of the sources file (CONFIG_PATH) use its connector; they "
            + "then fail at the next start until it is installed again.")
    boolean force;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        Optional<Settings> settings = PluginCommand.settings(err);
        return settings.isEmpty() ? 1 : run(settings.get(), spec.commandLine().getOut(), err);
    }

    /** Removes with {@code settings}; the exit status. */
    int run(Settings settings, PrintWriter out, PrintWriter err) {
        Path directory = settings.plugins().directory();
        // the gateway's trust: while verification is on, the installed manifest is read (for its version) only once its signature verified
        FilesystemPluginStore store = new FilesystemPluginStore(directory, settings.plugins().trustRoot(), settings.plugins().revokedKeys(),
                settings.plugins().signaturesDemanded(), HubSelection.builtInHub().found());
        PluginRemoval removal = new PluginRemoval(store, GatewayAssembly.builtinConnectorNames());
        RemoveOutcome outcome = removal.remove(name, force, new PluginRemoval.Checks() {
            /** Read at the first question only, then kept: a missing sources file's warning came once per question. */
            private SourcesDocument sourcesFile;

            private SourcesDocument sourcesFile() {
                if (sourcesFile == null) {
                    sourcesFile = GatewayAssembly.sourcesFile(settings.connectors());
                }
                return sourcesFile;
            }

            @Override
            public List<String> sourcesLeftWithout(String location, String type) {
                // no catalog here: whether the plugin would load at the next start is not known, so every source of its type counts
                return GatewayAssembly.sourcesOfType(sourcesFile(), type);
            }

            @Override
            public List<PluginPin> pins() {
                return sourcesFile().plugins();
            }

            @Override
            public PluginRemoval.Unloaded afterRemoval(String type) {
                return new PluginRemoval.Unloaded(GatewayAssembly.sourcesOfType(sourcesFile(), type), "");
            }
        });
        return switch (outcome) {
            case RemoveOutcome.Removed removed -> {
                out.println("removed " + removed.name() + " " + removed.version() + " from " + directory.resolve(removed.name())
                        + "; restart the gateway to unload it");
                if (!removed.sourcesWithoutConnector().isEmpty()) {
                    out.println("sources without a connector at the next start: " + String.join(", ", removed.sourcesWithoutConnector()));
                }
                if (!removed.detail().equals("removed")) {
                    err.println("omcp: " + removed.detail());
                }
                yield 0;
            }
            case RemoveOutcome.Refused refused -> {
                err.println("omcp: remove refused (" + refused.kind().name().toLowerCase(Locale.ROOT).replace('_', ' ') + "): "
                        + refused.reason().replace("force=true", "--force"));
                yield 1;
            }
        };
    }
}
