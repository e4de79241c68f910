package dev.omcp.app.cli;

import dev.omcp.app.settings.InvalidSettingsException;
import dev.omcp.app.settings.Settings;
import dev.omcp.app.settings.SettingsReader;
import dev.omcp.app.wiring.GatewayAssembly;
import dev.omcp.sdk.text.LogField;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code omcp serve}: runs the gateway until SIGTERM or SIGINT, then shuts down gracefully. */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Run the gateway (the default command) until SIGTERM or SIGINT, then drain in-flight requests and exit.",
        exitCodeListHeading = OmcpCommand.EXIT_CODES_HEADING,
        exitCodeList = {OmcpCommand.EXIT_OK, OmcpCommand.EXIT_FAILURE, OmcpCommand.EXIT_USAGE, OmcpCommand.EXIT_BUG,
                OmcpCommand.EXIT_FORCED},
        footerHeading = "%nConfiguration:%n",
        footer = OmcpCommand.CONFIGURATION)
public final class ServeCommand implements Callable<Integer> {
    /** Characters of a refusal the log line keeps: every problem of a few dozen settings; stderr has it whole. */
    private static final int MAX_LOGGED_REASON = 4_000;

    @Option(names = "--test-conformance-fixture", hidden = true,
            description = "Mount the MCP conformance suite's test tools, resources and prompts. For tests only.")
    boolean conformanceFixture;

    /** A serve command built without picocli, for the fast start path of {@code Main}. */
    public static ServeCommand withConformanceFixture(boolean mount) {
        ServeCommand command = new ServeCommand();
        command.conformanceFixture = mount;
        return command;
    }

    @Override
    public Integer call() {
        Settings settings;
        try {
            settings = SettingsReader.fromProcessEnvironment();
        } catch (InvalidSettingsException e) {
            // Logging is not configured yet and the operator needs every problem at once.
            System.err.println("omcp: cannot start, " + e.getMessage());
            return 1;
        }
        StopSignals stopSignals = StopSignals.install();
        LoggingSetup.apply(settings.logging());
        Logger log = LoggerFactory.getLogger(ServeCommand.class);
        UnknownVariableWarnings.log(SettingsReader.unknownVariablesOfProcessEnvironment());
        UnknownVariableWarnings.logNotSupported(SettingsReader.notSupportedVariablesOfProcessEnvironment());
        UnusedVariableWarnings.log(SettingsReader.unusedVariablesOfProcessEnvironment());
        OpenAccessWarning.log(settings);
        if (conformanceFixture) {
            log.warn("event=conformance-fixture-mounted note=\"test tools are exposed; never use this in production\"");
        }
        // the operator's configuration: every problem in one message, no stack trace; a bug goes on to exit 70
        Optional<GatewayAssembly> started = GatewayStart.startOrRefuse(GatewayStart.ASSEMBLY, settings,
                new GatewayAssembly.Options(conformanceFixture), "omcp: cannot start, ", System.err,
                reason -> log.error("event=start-refused reason=\"{}\"", LogField.of(reason, MAX_LOGGED_REASON)));
        if (started.isEmpty()) {
            return 1;
        }
        GatewayAssembly assembly = started.get();
        System.out.println("OMCP " + VersionProvider.version() + " listening on " + mcpUrl(settings.server().host(), assembly.port())
                + " (MCP over Streamable HTTP; WebSocket at /mcp/ws)");
        System.out.flush();
        stopSignals.await();
        assembly.close();
        return 0;
    }

    /** The MCP endpoint's URL on {@code host}: an IPv6 address goes in brackets (RFC 3986), or the port would read as part of it. */
    static String mcpUrl(String host, int port) {
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port + "/mcp";
    }
}
