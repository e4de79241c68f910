package dev.omcp.app.cli;

import picocli.CommandLine.Command;

/** {@code omcp audit}: tools for the audit log. */
@Command(name = "audit", mixinStandardHelpOptions = true, description = "Work with the audit log.",
        subcommands = {AuditVerifyCommand.class})
public final class AuditCommand {
}
