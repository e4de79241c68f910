package dev.omcp.app.settings;

import dev.omcp.ports.identity.AllowLists;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the environment once into {@link Settings}. The only class that looks at environment
 * variables; {@link #processEnvironment()} is the only call of {@code System.getenv}.
 */
public final class SettingsReader {
    private static final Pattern KEY_NAME = Pattern.compile("[A-Za-z0-9_.@-]{1,64}");
    private static final int MIN_TOKEN_LENGTH = 16;
    /** An Origin header as browsers send it: scheme://host[:port], an optional trailing slash; group 1 is the port. */
    private static final Pattern ORIGIN = Pattern.compile("https?://(?:[A-Za-z0-9._-]+|\\[[0-9A-Fa-f:.]+])(?::([0-9]{1,5}))?/?");
    private static final Pattern ALLOWED_HOST = Pattern.compile("[A-Za-z0-9._-]+|\\[[0-9A-Fa-f:.]+]");

    private SettingsReader() {}

    /** Reads the process environment. */
    public static Settings fromProcessEnvironment() throws InvalidSettingsException {
        return read(processEnvironment());
    }

    /** Reads the process environment with {@code overrides} on top (for example {@code omcp demo}'s sources). */
    public static Settings fromProcessEnvironment(Map<String, String> overrides) throws InvalidSettingsException {
        Map<String, String> env = new HashMap<>(processEnvironment());
        env.putAll(overrides);
        return read(env);
    }

    /** Reads only the password policy of {@code omcp hash-password} from the process environment. */
    public static dev.omcp.core.auth.password.PasswordRules passwordRulesFromProcessEnvironment() throws InvalidSettingsException {
        return passwordRules(processEnvironment());
    }

    /** Reads only the password policy of {@code omcp hash-password}. */
    public static dev.omcp.core.auth.password.PasswordRules passwordRules(Map<String, String> env) throws InvalidSettingsException {
        Environment environment = new Environment(env);
        dev.omcp.core.auth.password.PasswordRules rules = AccessControlSettingsReader.passwordRules(environment);
        if (!environment.problems().isEmpty()) {
            throw new InvalidSettingsException(environment.problems());
        }
        return rules;
    }

    /** The {@code OMCP_*} variables of the process environment that the gateway does not read (typos, other versions). */
    public static List<UnknownVariables.Unknown> unknownVariablesOfProcessEnvironment() {
        return UnknownVariables.in(processEnvironment());
    }

    /** The variables of the process environment that name a setting this version does not support yet. */
    public static List<UnknownVariables.NotSupported> notSupportedVariablesOfProcessEnvironment() {
        return UnknownVariables.notSupportedYet(processEnvironment());
    }

    /** The variables of the process environment that a chosen mode leaves without effect (OIDC settings under basic auth...). */
    public static List<UnusedVariables.Unused> unusedVariablesOfProcessEnvironment() {
        return UnusedVariables.in(processEnvironment());
    }

    /** The same, with {@code overrides} on top, as {@link #fromProcessEnvironment(Map)} reads them. */
    public static List<UnusedVariables.Unused> unusedVariablesOfProcessEnvironment(Map<String, String> overrides) {
        Map<String, String> env = new HashMap<>(processEnvironment());
        env.putAll(overrides);
        return UnusedVariables.in(env);
    }

    private static Map<String, String> processEnvironment() {
        return System.getenv();
    }

    /**
     * Reads {@code env}.
     *
     * @throws InvalidSettingsException listing every invalid value at once
     */
    public static Settings read(Map<String, String> env) throws InvalidSettingsException {
        return read(env, SettingsFiles.fileSystem());
    }

    /**
     * Reads {@code env}, opening the files some settings name (catalog, IP dataset) through {@code files}.
     *
     * @throws InvalidSettingsException listing every invalid value at once
     */
    public static Settings read(Map<String, String> env, SettingsFiles files) throws InvalidSettingsException {
        return read(env, files, Runtime.getRuntime().maxMemory());
    }

    /**
     * Reads {@code env} for a JVM whose heap may grow to {@code maxHeapBytes} ({@code -Xmx}; {@link Long#MAX_VALUE} when
     * it has no limit), against which the settings that size heap use are checked.
     *
     * @throws InvalidSettingsException listing every invalid value at once
     */
    static Settings read(Map<String, String> env, SettingsFiles files, long maxHeapBytes) throws InvalidSettingsException {
        Environment environment = new Environment(env);
        environment.refuseConflictingAliases(Variables.ALL);
        Settings.Server server = new Settings.Server(
                ListenHostReader.read(environment),
                environment.integer(Variables.PORT, 0, 65535),
                allowedHosts(environment),
                origins(environment),
                Duration.ofSeconds(environment.seconds(Variables.SHUTDOWN_GRACE, 0, 300)),
                AddressLimitsReader.read(environment));
        Settings.Agent agent = agent(environment);
        Settings.Logging logging = new Settings.Logging(
                environment.oneOf(Variables.LOG_LEVEL, List.of("trace", "debug", "info", "warn", "error")),
                environment.oneOf(Variables.LOG_FORMAT, List.of("text", "json")));
        Settings.Connectors connectors = ConnectorSettingsReader.read(environment, env, maxHeapBytes);
        AuditSettings audit = AuditSettingsReader.read(environment, connectors.egressRules());
        Settings.Plugins plugins = PluginSettingsReader.read(environment);
        AccessControlSettings access = AccessControlSettingsReader.read(environment);
        Settings.Tools tools = tools(environment);
        AnalysisSettings analysis = AnalysisSettingsReader.read(environment, connectors.egressRules(), files);
        Settings.Management management = management(environment);
        Settings.Scim scim = ScimSettingsReader.read(environment);
        if (!environment.problems().isEmpty()) {
            throw new InvalidSettingsException(environment.problems());
        }
        return new Settings(server, agent, logging, audit, connectors, plugins, access, tools, analysis, management, scim);
    }

    private static Settings.Management management(Environment environment) {
        java.util.Optional<java.nio.file.Path> products = productsFile(environment);
        return new Settings.Management(postmortemsFile(environment), products, inspect(environment));
    }

    /**
     * spec 3.1, 8: {@code OMCP_INSPECT}, {@code OMCP_INSPECT_FILE}, {@code OMCP_INSPECT_WINDOW},
     * {@code OMCP_INSPECT_PROFILE_FILE}. Whether {@code enforce} may start (the entitlement, accepted rules) is the
     * core's decision, made with the profile loaded.
     */
    private static Settings.Inspect inspect(Environment environment) {
        String text = environment.oneOf(Variables.INSPECT, List.of("off", "observe", "dryrun", "enforce"));
        dev.omcp.ports.inspect.InspectMode mode = dev.omcp.ports.inspect.InspectMode.parse(text)
                .orElse(dev.omcp.ports.inspect.InspectMode.OBSERVE);
        String windowText = environment.string(Variables.INSPECT_WINDOW);
        java.util.regex.Matcher matcher = java.util.regex.Pattern.compile("([0-9]{1,6})([smhd])").matcher(windowText);
        Duration window = Duration.ofHours(24);
        Duration parsed = matcher.matches() ? switch (matcher.group(2)) {
            case "s" -> Duration.ofSeconds(Long.parseLong(matcher.group(1)));
            case "m" -> Duration.ofMinutes(Long.parseLong(matcher.group(1)));
            case "h" -> Duration.ofHours(Long.parseLong(matcher.group(1)));
            default -> Duration.ofDays(Long.parseLong(matcher.group(1)));
        } : null;
        if (parsed == null || parsed.compareTo(Duration.ofMinutes(1)) < 0 || parsed.compareTo(Duration.ofDays(90)) > 0) {
            environment.problem(Variables.INSPECT_WINDOW, "must be a number and a unit s, m, h or d from 1m to 90d, like 24h; got '"
                    + dev.omcp.sdk.text.BackendText.quoted(windowText, 40) + "'");
        } else {
            window = parsed;
        }
        Optional<Path> profileFile = environment.file(Variables.INSPECT_PROFILE_FILE);
        profileFile.map(Path::toString).filter(name -> !name.endsWith(".yaml") && !name.endsWith(".yml") && !name.endsWith(".json"))
                .ifPresent(name -> environment.problem(Variables.INSPECT_PROFILE_FILE, "must end in .yaml, .yml or .json (the format is"
                        + " chosen by the extension); got '" + dev.omcp.sdk.text.BackendText.quoted(name, 80) + "'"));
        return new Settings.Inspect(mode, environment.file(Variables.INSPECT_FILE), window, profileFile);
    }

    /** {@code OMCP_PRODUCTS_FILE}: a file whose name says how it is written (the store reads it at start). */
    private static java.util.Optional<java.nio.file.Path> productsFile(Environment environment) {
        java.util.Optional<java.nio.file.Path> file = environment.file(Variables.PRODUCTS_FILE);
        file.ifPresent(path -> {
            String name = path.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
            if (!name.endsWith(".yaml") && !name.endsWith(".yml") && !name.endsWith(".json")) {
                environment.problem(Variables.PRODUCTS_FILE, "must end in .yaml, .yml or .json, which says how the file is written");
            }
        });
        return file;
    }

    private static java.nio.file.Path postmortemsFile(Environment environment) {
        String text = environment.string(Variables.POSTMORTEMS_FILE);
        try {
            java.nio.file.Path file = java.nio.file.Path.of(text);
            if (java.nio.file.Files.isDirectory(file)) {
                environment.problem(Variables.POSTMORTEMS_FILE, "names a directory; give the path of a file, for example "
                        + Variables.POSTMORTEMS_FILE.defaultValue());
            }
            return file;
        } catch (java.nio.file.InvalidPathException e) {
            environment.problem(Variables.POSTMORTEMS_FILE, "is not a valid file path");
            return java.nio.file.Path.of(Variables.POSTMORTEMS_FILE.defaultValue());
        }
    }

    private static Settings.Agent agent(Environment environment) {
        int keyProblemsBefore = environment.problems().size();
        List<Settings.ApiKeyEntry> keys = apiKeys(environment);
        // names are checked against the keys only when those were read whole: else every entry naming a key
        // refused above would be refused a second time
        Optional<Set<String>> keyNames = environment.problems().size() == keyProblemsBefore
                ? Optional.of(keys.stream().map(Settings.ApiKeyEntry::name).collect(Collectors.toSet())) : Optional.empty();
        PerKeyMaps maps = new PerKeyMaps(environment, keyNames);
        Map<String, String> tenants = maps.tenants();
        Map<String, List<String>> tools = maps.tools();
        Map<String, List<String>> sources = maps.sources();
        Map<String, List<String>> products = maps.products();
        Map<String, List<String>> roles = maps.roles();
        Set<String> bypass = maps.bypassRedaction();
        PerKeyMaps.Rates rates = maps.rates();
        keys = keys.stream().map(key -> new Settings.ApiKeyEntry(key.name(), key.token(), tenants.getOrDefault(key.name(), ""),
                allowLists(tools.get(key.name()), sources.get(key.name()), products.get(key.name())),
                Set.copyOf(roles.getOrDefault(key.name(), List.of())), bypass.contains(key.name()))).toList();
        int problemsBefore = environment.problems().size();
        int perCredential = environment.integer(Variables.MCP_MAX_SESSIONS_PER_CREDENTIAL, 1, 1_000_000);
        int total = environment.integer(Variables.MCP_MAX_SESSIONS, 1, 1_000_000);
        // compared only when both were read as given, as for the tool timeouts
        if (environment.problems().size() == problemsBefore && perCredential > total) {
            environment.problem(Variables.MCP_MAX_SESSIONS_PER_CREDENTIAL, "(" + perCredential + ") must not exceed OMCP_MCP_MAX_SESSIONS ("
                    + total + "): one credential could never reach it");
        }
        List<String> warnings = new ArrayList<>(rates.skipped());
        warnings.addAll(keylessLimits(environment, keys));
        return new Settings.Agent(keys, rates.byKey(), warnings, Math.min(perCredential, total), total,
                ToolRateReader.read(environment), tokenBudget(environment));
    }

    /**
     * The per-credential limits set on a gateway without credentials: spec 8 limits and charges only named API keys, so
     * with {@code OMCP_API_KEYS} unset they limit nothing, which whoever set them did not mean. Warned, not refused: the
     * same settings may be shared by replicas that do have keys.
     */
    private static List<String> keylessLimits(Environment environment, List<Settings.ApiKeyEntry> keys) {
        if (!keys.isEmpty()) {
            return List.of();
        }
        List<String> lines = new ArrayList<>();
        for (Variable variable : List.of(Variables.TOOL_RATE_PER_MIN, Variables.TOOL_DAILY_TOKENS)) {
            if (environment.raw(variable).filter(value -> !value.isBlank()).isPresent()) {
                lines.add("event=limit-without-credentials variable=" + variable.name() + " effect=\"the agent transport is anonymous ("
                        + Variables.API_KEYS.name() + " is unset), and only API keys are limited, so this limits nothing\" fix=\"set "
                        + Variables.API_KEYS.name() + " so that each agent has a credential of its own, or unset " + variable.name()
                        + "\"");
            }
        }
        return lines;
    }

    /**
     * {@code OMCP_TOOL_DAILY_TOKENS}: a whole number of tokens, 0 (the default) for no cap. Anything
     * else is a problem, never read as 0: a typo must not run the gateway uncapped. A file without
     * a cap would keep nothing and is refused for the same reason: whoever set it meant a budget.
     */
    private static Settings.TokenBudget tokenBudget(Environment environment) {
        int problemsBefore = environment.problems().size();
        long dailyTokens = environment.integer(Variables.TOOL_DAILY_TOKENS, 0, Integer.MAX_VALUE,
                " (tokens per API key per 24 h, 0 for no cap)");
        java.util.Optional<java.nio.file.Path> file = environment.file(Variables.TOKEN_BUDGET_FILE);
        if (environment.problems().size() == problemsBefore && dailyTokens == 0 && file.isPresent()) {
            environment.problem(Variables.TOKEN_BUDGET_FILE, "is set but OMCP_TOOL_DAILY_TOKENS is " + (environment.raw(
                    Variables.TOOL_DAILY_TOKENS).isPresent() ? "0 (uncapped)" : "not") + ", and it applies only with a budget; set "
                    + "OMCP_TOOL_DAILY_TOKENS to the daily tokens of each API key or unset OMCP_TOKEN_BUDGET_FILE");
        }
        return new Settings.TokenBudget(dailyTokens, file);
    }

    private static AllowLists allowLists(List<String> tools, List<String> sources, List<String> products) {
        AllowLists lists = AllowLists.none();
        if (products != null) {
            lists = lists.withProducts(products);
        }
        if (tools != null) {
            lists = lists.withTools(tools);
        }
        if (sources != null) {
            lists = lists.withSources(sources);
        }
        return lists;
    }

    private static Settings.Tools tools(Environment environment) {
        int problemsBefore = environment.problems().size();
        Duration perSource = Duration.ofSeconds(environment.seconds(Variables.TOOL_SOURCE_TIMEOUT, 1, 600));
        Duration deadline = Duration.ofSeconds(environment.seconds(Variables.TOOL_DEADLINE, 1, 900));
        // compared only when both were read as given: a rejected value stands in as its default, and
        // "(10 s) must not exceed" about a value the operator never set would only confuse
        if (environment.problems().size() == problemsBefore && perSource.compareTo(deadline) > 0) {
            environment.problem(Variables.TOOL_SOURCE_TIMEOUT, "(" + perSource.toSeconds() + " s) must not exceed OMCP_TOOL_DEADLINE ("
                    + deadline.toSeconds() + " s)");
            return new Settings.Tools(deadline, deadline);
        }
        return new Settings.Tools(perSource, deadline);
    }

    /**
     * Host names as the Host guard compares them: without port, scheme or path (it drops the request's
     * port), IPv6 in brackets as in a Host header. Any other entry could never match, and the
     * gateway would refuse every request to the name the operator meant to allow.
     */
    private static List<String> allowedHosts(Environment environment) {
        List<String> hosts = environment.list(Variables.ALLOWED_HOSTS);
        for (String host : hosts) {
            if (!ALLOWED_HOST.matcher(host).matches()) {
                environment.problem(Variables.ALLOWED_HOSTS, "entry '" + host + "' must be a host name without scheme, port or path, "
                        + "such as gw.example.com, or an IP address (IPv6 in brackets: [2001:db8::1])");
            }
        }
        return hosts;
    }

    private static List<String> origins(Environment environment) {
        List<String> origins = environment.list(Variables.ALLOWED_ORIGINS);
        for (String origin : origins) {
            Matcher m = ORIGIN.matcher(origin);
            if (!m.matches() || (m.group(1) != null && !validPort(m.group(1)))) {
                // user info never reaches an Origin header, and it may hold a password: not repeated
                String shown = origin.contains("@") ? "an entry (not shown: it has user info, which may hold a password)"
                        : "entry '" + origin + "'";
                environment.problem(Variables.ALLOWED_ORIGINS, shown + " must be an origin like https://ui.example.com or "
                        + "http://localhost:5173");
            }
        }
        return origins;
    }

    private static boolean validPort(String digits) {
        int port = Integer.parseInt(digits);
        return port >= 1 && port <= 65535;
    }

    private static List<Settings.ApiKeyEntry> apiKeys(Environment environment) {
        List<Settings.ApiKeyEntry> keys = new ArrayList<>();
        Map<String, Integer> firstEntryOfName = new HashMap<>();
        Map<String, Integer> firstEntryOfToken = new HashMap<>();
        List<String> entries = environment.list(Variables.API_KEYS);
        for (int i = 0; i < entries.size(); i++) {
            String entry = entries.get(i);
            int colon = entry.indexOf(':');
            String position = "entry " + (i + 1);
            if (colon <= 0 || colon == entry.length() - 1) {
                environment.problem(Variables.API_KEYS, position + " must be name:token (the entry is not shown)");
                continue;
            }
            String name = entry.substring(0, colon).trim();
            String token = entry.substring(colon + 1).trim();
            if (!KEY_NAME.matcher(name).matches()) {
                environment.problem(Variables.API_KEYS, position + " has an invalid name (not shown: it may be a token); "
                        + "write entries as name:token, with names of 1-64 of A-Z, a-z, 0-9, '_', '.', '@', '-'");
                continue;
            }
            String label = label(position, name);
            if (token.length() < MIN_TOKEN_LENGTH) {
                environment.problem(Variables.API_KEYS, label + " has a token shorter than " + MIN_TOKEN_LENGTH
                        + " characters; write entries as name:token and generate a token with: openssl rand -hex 32");
                continue;
            }
            Integer first = firstEntryOfName.putIfAbsent(name, i + 1);
            if (first != null) {
                environment.problem(Variables.API_KEYS, label + " has the same name as entry " + first + "; names must be unique");
                continue;
            }
            Integer sameToken = firstEntryOfToken.putIfAbsent(token, i + 1);
            if (sameToken != null) {
                // the token would authenticate only the first entry's key, so this key would never work
                environment.problem(Variables.API_KEYS, label + " has the same token as entry " + sameToken
                        + "; give each key a token of its own");
                continue;
            }
            keys.add(new Settings.ApiKeyEntry(name, token));
        }
        return keys;
    }

    /**
     * An entry as problems name it: by position, with its name only when that cannot be a token
     * (an entry written token:name would otherwise put the token in the launcher's output).
     */
    private static String label(String position, String name) {
        return name.length() < MIN_TOKEN_LENGTH ? position + " (key '" + name + "')" : position;
    }
}
