package dev.omcp.app.cli;

import dev.omcp.app.demo.DemoEnvironment;
import dev.omcp.app.settings.InvalidSettingsException;
import dev.omcp.app.settings.Settings;
import dev.omcp.app.settings.SettingsReader;
import dev.omcp.app.wiring.GatewayAssembly;
import dev.omcp.testkit.demo.DemoBackends;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;

/**
 * {@code omcp demo}: starts simulated Prometheus, Loki, Kubernetes and Zipkin backends on loopback
 * (a small shop with daily traffic and a payments-database incident 25 minutes old) and the gateway
 * in front of them, so every tool gives a meaningful answer without a backend of your own.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run the gateway on a simulated shop with an ongoing incident (no backends needed).")
public final class DemoCommand implements Callable<Integer> {

    /** Where the demo's working directory is made: the JVM's temporary directory, unless a test says otherwise. */
    private final Path temporaryParent;

    public DemoCommand() {
        this(Path.of(System.getProperty("java.io.tmpdir")));
    }

    DemoCommand(Path temporaryParent) {
        this.temporaryParent = temporaryParent;
    }

    @Override
    public Integer call() throws InterruptedException {
        Path work;
        try {
            work = Files.createTempDirectory(temporaryParent, "omcp-demo");
        } catch (IOException | UnsupportedOperationException e) {
            System.err.println("omcp: cannot start the demo, its working directory cannot be created in " + temporaryParent + " ("
                    + reason(e) + "); free space there, or point OMCP_JAVA_OPTS=-Djava.io.tmpdir=<dir> at a writable directory");
            return 1;
        }
        StopSignals stopSignals = StopSignals.install();
        stopSignals.beforeHalt(() -> deleteOnHalt(work));
        try {
            return run(work, stopSignals);
        } catch (IOException e) {
            // the simulated backends could not listen, or their files not be written: said, not a stack trace
            System.err.println("omcp: cannot start the demo, " + reason(e));
            return 1;
        } finally {
            try {
                deleteRecursively(work);
            } catch (IOException e) {
                // the demo ran; a leftover directory is worth a line, not a failed exit
                System.err.println("omcp: could not remove the demo's directory " + work + " (" + reason(e) + "); remove it by hand");
            }
        }
    }

    private static String reason(Exception e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    private int run(Path work, StopSignals stopSignals) throws IOException, InterruptedException {
        try (DemoBackends backends = DemoBackends.startStandard()) {
            Map<String, String> overrides = DemoEnvironment.prepare(backends, work, Optional.empty());
            Settings settings;
            try {
                settings = SettingsReader.fromProcessEnvironment(overrides);
            } catch (InvalidSettingsException e) {
                System.err.println("omcp: cannot start the demo, " + e.getMessage());
                return 1;
            }
            LoggingSetup.apply(settings.logging());
            Logger log = LoggerFactory.getLogger(DemoCommand.class);
            UnknownVariableWarnings.log(SettingsReader.unknownVariablesOfProcessEnvironment());
            UnknownVariableWarnings.logNotSupported(SettingsReader.notSupportedVariablesOfProcessEnvironment());
            UnusedVariableWarnings.log(SettingsReader.unusedVariablesOfProcessEnvironment(overrides));
            OpenAccessWarning.log(settings);
            if (!overrides.containsKey("PLUGIN_TRUST_ROOT")) {
                // DemoEnvironment found no signed reference Zipkin plugin in the jar: say so rather than
                // leave the agent wondering why the demo has no traces
                log.warn("event=demo-without-traces reason=\"the signed reference Zipkin plugin is missing from the jar\" "
                        + "effect=\"query_traces and trace-derived topology have no source\" fix=\"rebuild with mvn package\"");
            }
            // a refusal is one message, exit 1; a bug goes on to UnexpectedFailure, exit 70
            Optional<GatewayAssembly> started = GatewayStart.startOrRefuse(GatewayStart.ASSEMBLY, settings, GatewayAssembly.Options.demo(),
                    "omcp: cannot start the demo, ", System.err, reason -> { });
            if (started.isEmpty()) {
                return 1;
            }
            GatewayAssembly assembly = started.get();
            String url = mcpUrl(settings.server().host(), assembly.port());
            System.out.println("OMCP " + VersionProvider.version() + " demo listening on " + url);
            System.out.println("""
                    The simulated shop: frontend, catalog, catalog-cache, checkout, inventory, payments, payments-db.
                    Incident: payments-db slowed down 25 minutes ago; payments, checkout and frontend fail in turn.
                    Connect an agent:   claude mcp add --transport http omcp-demo %s
                    Then ask it: "Is anything wrong in the shop? Find the root cause and draft a post-mortem."
                    Stop with Ctrl+C.""".formatted(url));
            System.out.flush();
            stopSignals.await();
            assembly.close();
            return 0;
        }
    }

    /** The URL the demo prints for agents: the serve command's, brackets around an IPv6 address included. */
    static String mcpUrl(String host, int port) {
        return ServeCommand.mcpUrl(host, port);
    }

    /** Removes the demo's directory when an impatient second Ctrl+C skips the graceful stop that would. */
    static void deleteOnHalt(Path dir) {
        try {
            deleteRecursively(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("could not remove " + dir + " (" + e.getMessage() + "); remove it by hand", e);
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
