package dev.omcp.app.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code omcp}: the launcher's root command; without a subcommand it serves. */
@Command(
        name = "omcp",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "OMCP: an observability gateway for AI agents over the Model Context Protocol.",
        subcommands = {ServeCommand.class, DemoCommand.class, PluginCommand.class, AuditCommand.class, HashPasswordCommand.class, AotTrainCommand.class})
public final class OmcpCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        return new ServeCommand().call();
    }
}
