package dev.omcp.app.cli;

import dev.omcp.app.settings.Settings;
import dev.omcp.app.wiring.GatewayAssembly;
import dev.omcp.app.wiring.StartRefusedException;
import dev.omcp.core.plugins.PluginStartRefusedException;
import java.io.PrintStream;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Starts the gateway for {@code serve} and {@code demo}, telling a refused start from a bug. A refusal
 * is the operator's to fix (an invalid sources file, a port in use, an unverifiable plugin in strict
 * mode): said in one message, exit 1, no stack trace. Any other exception is not understood, so it is
 * not caught here: it reaches {@link UnexpectedFailure}, which says it is a bug and exits 70, as it
 * does for every other command. Catching every exception as a refusal made a bug read as the
 * operator's mistake, with exit 1.
 */
final class GatewayStart {
    /** Builds and starts the gateway: {@link GatewayAssembly#start(Settings, GatewayAssembly.Options, String)}, or a test's. */
    @FunctionalInterface
    interface Starter {
        GatewayAssembly start(Settings settings, GatewayAssembly.Options options, String version);
    }

    static final Starter ASSEMBLY = GatewayAssembly::start;

    private GatewayStart() {}

    /**
     * The started gateway, or empty once the refusal was handed to {@code logRefusal} and said on
     * {@code err} after {@code prefix} ({@code "omcp: cannot start, "}): the command then exits 1.
     *
     * @throws RuntimeException any exception that is not a refusal, unchanged: a bug
     */
    static Optional<GatewayAssembly> startOrRefuse(Starter starter, Settings settings, GatewayAssembly.Options options,
            String prefix, PrintStream err, Consumer<String> logRefusal) {
        try {
            return Optional.of(starter.start(settings, options, VersionProvider.version()));
        } catch (StartRefusedException | PluginStartRefusedException e) {
            logRefusal.accept(e.getMessage());
            err.println(prefix + e.getMessage());
            err.flush();
            return Optional.empty();
        }
    }
}
