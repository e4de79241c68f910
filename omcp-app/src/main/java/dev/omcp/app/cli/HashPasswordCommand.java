package dev.omcp.app.cli;

import dev.omcp.core.policy.BuiltinPolicy;
import dev.omcp.sdk.json.Jsonp;
import dev.omcp.adapters.http.auth.ScryptPasswordHasher;
import dev.omcp.adapters.storage.auth.JsonUsersFile;
import dev.omcp.app.settings.InvalidSettingsException;
import dev.omcp.app.settings.SettingsReader;
import dev.omcp.core.auth.password.CommonPasswords;
import dev.omcp.core.auth.password.PasswordPolicy;
import dev.omcp.core.auth.password.PasswordRules;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.lang.reflect.Method;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code omcp hash-password <username> [--name <n>] [--roles <r>] [--tenant <t>] [--force]}:
 * reads a password (from the terminal without echo, asked twice; else the first line of standard
 * input, bounded by {@link PasswordLine}), checks the password policy of spec 5.3 and prints one users-file entry with its scrypt
 * hash on standard output. Every policy violation is listed on standard error; a weak password is
 * refused (exit 1) unless {@code --force} or {@code OMCP_PASSWORD_POLICY_DISABLED} is set.
 */
@Command(name = "hash-password", mixinStandardHelpOptions = true,
        description = "Print a users-file entry (basic mode) with the scrypt hash of a password read without echo, "
                + "or from standard input when it is not a terminal (never from the command line, where ps would show it).",
        exitCodeListHeading = OmcpCommand.EXIT_CODES_HEADING,
        exitCodeList = {"0:the entry was printed on standard output",
                "1:refused: the password breaks the policy, the two entries differ, no password, an invalid setting",
                OmcpCommand.EXIT_USAGE, OmcpCommand.EXIT_BUG})
public final class HashPasswordCommand implements Callable<Integer> {
    private static final Pattern ROLE = Pattern.compile("[a-z][a-z0-9_-]{0,63}");
    private static final int MAX_PASSWORD = 1024;

    @Parameters(index = "0", paramLabel = "<username>", description = "The login name.")
    String username;

    @Option(names = "--name", paramLabel = "<name>", description = "Display name; default the username.")
    String name;

    @Option(names = "--roles", paramLabel = "<roles>", split = ",", defaultValue = "viewer",
            description = "Comma-separated roles: viewer, operator, admin or roles of OMCP_RBAC_POLICY_FILE; default ${DEFAULT-VALUE}.")
    List<String> roles;

    @Option(names = "--tenant", paramLabel = "<tenant>", description = "Tenant the user is scoped to.")
    String tenant;

    @Option(names = "--force", description = "Accept a password that breaks the policy (the violations are still printed).")
    boolean force;

    @Spec
    CommandSpec spec;

    private final InputStream stdin;
    private final Optional<Console> console;
    private final Optional<PasswordRules> rules;
    private final BooleanSupplier stdinIsTerminal;
    private final PasswordLine.Wait stdinWait;

    public HashPasswordCommand() {
        this(System.in, interactiveConsole(), Optional.empty(), HashPasswordCommand::standardInputIsTerminal);
    }

    /** For tests: where the password comes from and which rules apply; standard input is not a terminal. */
    HashPasswordCommand(InputStream stdin, Optional<Console> console, Optional<PasswordRules> rules) {
        this(stdin, console, rules, () -> false);
    }

    /** For tests: also whether standard input is a terminal (asked only when there is no console). */
    HashPasswordCommand(InputStream stdin, Optional<Console> console, Optional<PasswordRules> rules, BooleanSupplier stdinIsTerminal) {
        this(stdin, console, rules, stdinIsTerminal, PasswordLine.Wait.STANDARD);
    }

    /** For tests: also how long standard input is waited for. */
    HashPasswordCommand(InputStream stdin, Optional<Console> console, Optional<PasswordRules> rules, BooleanSupplier stdinIsTerminal,
            PasswordLine.Wait stdinWait) {
        this.stdin = stdin;
        this.stdinWait = stdinWait;
        this.console = console;
        this.rules = rules;
        this.stdinIsTerminal = stdinIsTerminal;
    }

    /** What the users file would refuse in an option written into the entry (the same rule it applies at start). */
    private static Optional<String> textProblem(String option, String value) {
        if (value == null || value.isBlank()) {
            return Optional.empty(); // not written: a blank name is the username, a blank tenant none
        }
        if (value.length() > JsonUsersFile.MAX_TEXT) {
            return Optional.of(option + " has " + value.length() + " characters; at most " + JsonUsersFile.MAX_TEXT + " are allowed");
        }
        if (!JsonUsersFile.printable(value)) {
            return Optional.of(option + " holds a control, format (such as a direction override) or line-separator character; "
                    + "the gateway refuses such an entry, remove it");
        }
        return Optional.empty();
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        PasswordRules active;
        try {
            active = rules.isPresent() ? rules.get() : SettingsReader.passwordRulesFromProcessEnvironment();
        } catch (InvalidSettingsException e) {
            err.println("omcp hash-password: " + e.getMessage());
            return 1;
        }
        if (username.isBlank() || username.length() > JsonUsersFile.MAX_TEXT || !JsonUsersFile.printable(username)) {
            err.println("omcp hash-password: the username must be 1-" + JsonUsersFile.MAX_TEXT + " characters without control, "
                    + "format (such as a direction override) or line-separator characters; the gateway refuses such an entry");
            return 1;
        }
        if (!username.trim().equals(username)) {
            // the gateway refuses such an entry: a revocation trims the sub it is given, so it could not name this user
            err.println("omcp hash-password: the username must not start or end with a space");
            return 1;
        }
        Optional<String> wrongText = textProblem("--name", name).or(() -> textProblem("--tenant", tenant));
        if (wrongText.isPresent()) {
            err.println("omcp hash-password: " + wrongText.get());
            return 1;
        }
        for (String role : roles) {
            if (!ROLE.matcher(role).matches()) {
                err.println("omcp hash-password: role '" + role + "' must be lower case letters, digits, '_' or '-'");
                return 1;
            }
        }
        for (String role : roles) {
            if (!BuiltinPolicy.roleNames().contains(role)) {
                // not refused: a policy file may define it; but a typo would grant nothing
                err.println("warning: role '" + role + "' is not a builtin role (" + String.join(", ", BuiltinPolicy.roleNames())
                        + "); it grants nothing unless OMCP_RBAC_POLICY_FILE defines it");
            }
        }
        Optional<String> password = readPassword(err);
        if (password.isEmpty()) {
            return 1;
        }
        PasswordPolicy policy = new PasswordPolicy(active, CommonPasswords.builtin());
        List<String> violations = policy.violations(username, password.get());
        if (!violations.isEmpty()) {
            boolean accepted = force || !active.enforced();
            err.println((accepted ? "warning: the password breaks the policy:" : "omcp hash-password: the password is refused:"));
            violations.forEach(v -> err.println("  - " + v));
            if (!accepted) {
                err.println("choose another password, or pass --force (or set OMCP_PASSWORD_POLICY_DISABLED=true) to use it anyway");
                return 1;
            }
        }
        String hash = new ScryptPasswordHasher(new SecureRandom()).hash(password.get()).encode();
        JsonArrayBuilder roleArray = Jsonp.array();
        roles.forEach(roleArray::add);
        JsonObjectBuilder entry = Jsonp.object()
                .add("username", username)
                .add("name", name == null || name.isBlank() ? username : name)
                .add("roles", roleArray)
                .add("passwordHash", hash);
        if (tenant != null && !tenant.isBlank()) {
            entry.add("tenant", tenant);
        }
        out.println(entry.build());
        out.flush();
        return 0;
    }

    private Optional<String> readPassword(PrintWriter err) {
        if (console.isPresent()) {
            char[] first = console.get().readPassword("Password for %s: ", username);
            char[] second = console.get().readPassword("Repeat the password: ");
            if (first == null || second == null) {
                err.println("omcp hash-password: no password was entered");
                return Optional.empty();
            }
            boolean same = Arrays.equals(first, second);
            String password = new String(first);
            Arrays.fill(first, '\0');
            Arrays.fill(second, '\0');
            if (!same) {
                err.println("omcp hash-password: the two passwords differ");
                return Optional.empty();
            }
            return checked(password, err);
        }
        if (stdinIsTerminal.getAsBoolean()) {
            // no console although the keyboard is standard input: standard output is redirected
            // (`> entry.json`, `| jq`), and a line read from standard input would be echoed as it is typed
            err.println("omcp hash-password: standard output is not a terminal (redirected to a file or a pipe), so the password "
                    + "cannot be read without echo; run it without redirecting standard output and copy the entry, or pipe the "
                    + "password in: printf '%s\\n' \"$PW\" | omcp hash-password <username> > entry.json");
            return Optional.empty();
        }
        return switch (PasswordLine.read(stdin, MAX_PASSWORD, stdinWait, err)) {
            case PasswordLine.Result.Read read -> Optional.of(read.password());
            case PasswordLine.Result.Refused refused -> {
                err.println("omcp hash-password: " + refused.message());
                yield Optional.empty();
            }
        };
    }

    private static Optional<String> checked(String password, PrintWriter err) {
        if (password.isEmpty() || password.length() > MAX_PASSWORD) {
            err.println("omcp hash-password: the password must be 1-" + MAX_PASSWORD + " characters");
            return Optional.empty();
        }
        return Optional.of(password);
    }

    /**
     * Whether standard input is a terminal. Java only tells whether standard input and output both are
     * (the console), so the shell is asked ({@code test -t 0} on the inherited standard input, which it
     * does not read); without a POSIX shell (Windows) the answer is no, and standard input is read as before.
     */
    private static boolean standardInputIsTerminal() {
        try {
            Process test = new ProcessBuilder("/bin/sh", "-c", "test -t 0")
                    .redirectInput(ProcessBuilder.Redirect.INHERIT)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (!test.waitFor(5, TimeUnit.SECONDS)) {
                test.destroyForcibly();
                return false;
            }
            return test.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The console when standard input and output are a terminal; from JDK 22 on the console also exists without one. */
    private static Optional<Console> interactiveConsole() {
        Console console = System.console();
        if (console == null) {
            return Optional.empty();
        }
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return Boolean.TRUE.equals(isTerminal.invoke(console)) ? Optional.of(console) : Optional.empty();
        } catch (NoSuchMethodException e) {
            return Optional.of(console); // JDK 21: a console exists only for a terminal
        } catch (ReflectiveOperationException e) {
            return Optional.empty();
        }
    }
}
