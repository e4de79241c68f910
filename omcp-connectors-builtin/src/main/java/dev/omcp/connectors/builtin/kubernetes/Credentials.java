package dev.omcp.connectors.builtin.kubernetes;

import dev.omcp.connectors.builtin.backend.SourceSettings;
import dev.omcp.connectors.builtin.transport.SettingFile;
import dev.omcp.sdk.connector.ConnectorContext;
import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorException.Kind;
import dev.omcp.sdk.connector.SourceConfig;
import dev.omcp.sdk.connector.TlsMaterial;
import dev.omcp.sdk.text.BackendText;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Where the cluster's credentials come from ({@code mode} setting):
 * <ul>
 *   <li>{@code source}: the source's URL with its {@code auth} (bearer token) and {@code tls};
 *   <li>{@code inCluster}: the pod's service account (token and CA under
 *       {@code /var/run/secrets/kubernetes.io/serviceaccount}, API at the address the kubelet gives every pod in
 *       {@code KUBERNETES_SERVICE_HOST} and {@code KUBERNETES_SERVICE_PORT}, else {@code https://kubernetes.default.svc});
 *   <li>{@code kubeconfig}: a kubeconfig file's current (or named) context, token or client certificate.
 * </ul>
 * {@code auto} (default) picks {@code source} when the source has a URL, else {@code kubeconfig}
 * when one is named, else {@code inCluster}.
 */
final class Credentials {
    static final String SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";
    static final String IN_CLUSTER_URL = "https://kubernetes.default.svc";
    private static final String IMPERSONATION = "the gateway does not impersonate, and would read the cluster as the user itself. "
            + "Use a user whose own identity may get, list and watch the cluster's objects";
    private static final int MAX_KUBECONFIG_BYTES = 1 << 20;
    /** A URL's scheme and {@code //}: what a server without one lacks. */
    private static final Pattern WITH_SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*://");
    /** The most characters of a kubeconfig name a message repeats. */
    private static final int MAX_QUOTED_CHARS = 64;
    /** Fields of a kubeconfig cluster the gateway cannot honour, with what to do instead. */
    private static final Map<String, String> UNSUPPORTED_CLUSTER_FIELDS = Map.of(
            "proxy-url", "the gateway reaches a backend only directly, as a proxy would resolve the address its egress rules judge. "
                    + "Remove proxy-url if the API server can be reached directly, or run the gateway where it can");
    /** Fields of a kubeconfig user the gateway cannot honour, with what to do instead. */
    private static final Map<String, String> UNSUPPORTED_USER_FIELDS = Map.of(
            "as", IMPERSONATION, "as-uid", IMPERSONATION, "as-groups", IMPERSONATION, "as-user-extra", IMPERSONATION);

    private Credentials() {}

    static ClusterAccess resolve(SourceConfig source, ConnectorContext context) throws ConnectorException {
        return resolve(source, context, System::getenv);
    }

    /** @param environment the process environment: a parameter so tests can give a pod's */
    static ClusterAccess resolve(SourceConfig source, ConnectorContext context, UnaryOperator<String> environment)
            throws ConnectorException {
        String mode = SourceSettings.string(source.settings(), "mode").orElse("auto");
        Optional<String> kubeconfig = SourceSettings.string(source.settings(), "kubeconfig");
        if (mode.equals("auto")) {
            mode = !source.url().isBlank() ? "source" : kubeconfig.isPresent() ? "kubeconfig" : "inCluster";
        }
        return switch (mode) {
            case "source" -> {
                if (source.url().isBlank()) {
                    throw bad("mode source needs the source's url");
                }
                yield new ClusterAccess(source.url(), context.httpClient(), Optional.empty(), Optional.empty(), context.clock());
            }
            case "inCluster" -> inCluster(source, context, environment);
            case "kubeconfig" -> fromKubeconfig(source, context,
                    path(kubeconfig.orElse(System.getProperty("user.home") + "/.kube/config"), "the setting kubeconfig"));
            default -> throw bad("mode must be auto, source, inCluster or kubeconfig");
        };
    }

    private static ClusterAccess inCluster(SourceConfig source, ConnectorContext context, UnaryOperator<String> environment)
            throws ConnectorException {
        Path dir = path(SourceSettings.string(source.settings(), "serviceAccountDir").orElse(SERVICE_ACCOUNT_DIR),
                "the setting serviceAccountDir");
        Path ca = dir.resolve("ca.crt");
        Path token = dir.resolve("token");
        if (!Files.isReadable(token)) {
            throw bad("no service account token is mounted (not running in a pod?); set the source's url and auth, or a kubeconfig");
        }
        String caPem = readSmall(ca, "the service account CA");
        String url = source.url().isBlank() ? inClusterUrl(environment) : source.url();
        return new ClusterAccess(url, context.httpClient(new TlsMaterial(Optional.of(caPem), Optional.empty(), Optional.empty(), false)),
                Optional.empty(), Optional.of(token), context.clock());
    }

    /**
     * The API server's address inside a pod. The kubelet puts the {@code kubernetes} service's address in every
     * pod's environment, and client-go connects there: it works where the cluster's DNS does not (host-network
     * pods, {@code dnsPolicy: Default}, a custom cluster domain). Without those variables the service's DNS name
     * is the fallback.
     */
    static String inClusterUrl(UnaryOperator<String> environment) throws ConnectorException {
        String host = Optional.ofNullable(environment.apply("KUBERNETES_SERVICE_HOST")).orElse("").strip();
        String port = Optional.ofNullable(environment.apply("KUBERNETES_SERVICE_PORT")).orElse("").strip();
        if (host.isEmpty() || port.isEmpty()) {
            return IN_CLUSTER_URL;
        }
        if (!port.matches("[0-9]{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
            throw bad("KUBERNETES_SERVICE_PORT is not a port number (1-65535); unset it or set the source's url");
        }
        String url = "https://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        try {
            URI uri = new URI(url);
            if (uri.getHost() == null || uri.getRawPath() == null || !uri.getRawPath().isEmpty()) {
                throw new URISyntaxException(url, "not a bare host");
            }
        } catch (URISyntaxException e) {
            throw bad("KUBERNETES_SERVICE_HOST is not a host name or IP address; unset it or set the source's url");
        }
        return url;
    }

    @SuppressWarnings("unchecked")
    private static ClusterAccess fromKubeconfig(SourceConfig source, ConnectorContext context, Path file) throws ConnectorException {
        Map<String, Object> config;
        try {
            String text = SettingFile.read(file, MAX_KUBECONFIG_BYTES, StandardCharsets.UTF_8);
            LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(false);
            options.setMaxAliasesForCollections(10);
            Object loaded = new Yaml(new SafeConstructor(options)).load(text);
            if (!(loaded instanceof Map<?, ?> map)) {
                throw bad("the kubeconfig is not a YAML mapping");
            }
            config = (Map<String, Object>) map;
        } catch (SettingFile.UnusableException e) {
            throw bad("the kubeconfig " + e.getMessage());
        } catch (org.yaml.snakeyaml.error.YAMLException e) {
            throw bad("the kubeconfig is not valid YAML");
        }
        String contextName = SourceSettings.string(source.settings(), "context").orElse(string(config, "current-context"));
        if (contextName.isEmpty()) {
            throw bad("the kubeconfig has no current-context; set the source's context");
        }
        Map<String, Object> ctx = named(config, "contexts", contextName, "context");
        Map<String, Object> cluster = named(config, "clusters", string(ctx, "cluster"), "cluster");
        Map<String, Object> user = named(config, "users", string(ctx, "user"), "user");
        if (user.containsKey("exec") || user.containsKey("auth-provider")) {
            throw bad("the kubeconfig user runs an exec or auth-provider plugin, which the gateway does not run; "
                    + "use a service account token or a client certificate");
        }
        String clusterName = string(ctx, "cluster");
        String userName = string(ctx, "user");
        refuseUnsupported(cluster, "cluster " + quoted(clusterName), UNSUPPORTED_CLUSTER_FIELDS);
        refuseUnsupported(user, "user " + quoted(userName), UNSUPPORTED_USER_FIELDS);
        Path base = file.toAbsolutePath().getParent();
        Optional<String> ca = pem(cluster, "certificate-authority-data", "certificate-authority", base);
        Optional<String> cert = pem(user, "client-certificate-data", "client-certificate", base);
        Optional<String> key = pem(user, "client-key-data", "client-key", base);
        boolean skip = Boolean.TRUE.equals(cluster.get("insecure-skip-tls-verify"));
        String server = serverUrl(string(cluster, "server"), clusterName, ca.isPresent() || cert.isPresent() || skip);
        checkTlsServerName(cluster, clusterName, server, skip);
        Optional<String> token = Optional.of(credential(user, "token", userName).strip()).filter(t -> !t.isEmpty());
        if (token.isPresent() && token.get().chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
            // refused here, by name: an HTTP header cannot carry it, and every request would fail as a connector bug
            throw bad("the kubeconfig user " + quoted(userName) + " has a token with a space, line break or other character a "
                    + "bearer token cannot hold; copy the token again");
        }
        String tokenFileName = credential(user, "tokenFile", userName);
        Optional<Path> tokenFile = tokenFileName.isEmpty() ? Optional.empty()
                : Optional.of(base.resolve(path(tokenFileName, "the kubeconfig's tokenFile")));
        Optional<String> authorization = token.map(t -> "Bearer " + t);
        Optional<String> basic = basic(user, userName);
        if (basic.isPresent()) {
            if (token.isPresent() || tokenFile.isPresent()) {
                // client-go refuses this too: "username/password or bearer token may be set, but not both"
                throw bad("the kubeconfig user " + quoted(userName) + " has both a username and a token or tokenFile; keep one of "
                        + "them");
            }
            authorization = basic;
        }
        return new ClusterAccess(server, context.httpClient(new TlsMaterial(ca, cert, key, skip)), authorization, tokenFile,
                context.clock());
    }

    /**
     * A user's {@code token} or {@code tokenFile}: a string, or none when absent or empty ({@code token:}).
     * Of any other type (a token YAML reads as a number, {@code token: 123456}) it fails the source
     * naming the field: ignored, every request would go without credentials and get a 401 that says
     * nothing of why. The value is not repeated: it is a secret.
     */
    private static String credential(Map<String, Object> user, String field, String userName) throws ConnectorException {
        Object value = user.get(field);
        if (value == null || value instanceof String) {
            return value == null ? "" : (String) value;
        }
        throw bad("the kubeconfig user " + quoted(userName) + " has a " + field + " that is not a string (YAML read it as "
                + yamlType(value) + "); quote it: " + field + ": \"...\"");
    }

    private static String yamlType(Object value) {
        return switch (value) {
            case Number n -> "a number";
            case Boolean b -> "a boolean";
            case List<?> l -> "a list";
            case Map<?, ?> m -> "a mapping";
            default -> "a " + value.getClass().getSimpleName();
        };
    }

    /**
     * Basic authentication, as client-go sends a kubeconfig user's {@code username} and
     * {@code password}. API servers dropped it in Kubernetes 1.19, but a proxy in front of one may
     * still take it, and sending nothing would only get a bare 401.
     */
    private static Optional<String> basic(Map<String, Object> user, String userName) throws ConnectorException {
        if (!(user.getOrDefault("username", "") instanceof String name)
                || !(user.getOrDefault("password", "") instanceof String password)) {
            throw bad("the kubeconfig user " + quoted(userName) + " has a username or password that is not a string; quote it");
        }
        if (name.isEmpty()) {
            if (!password.isEmpty()) {
                throw bad("the kubeconfig user " + quoted(userName) + " has a password but no username; add its username");
            }
            return Optional.empty();
        }
        return Optional.of("Basic " + Base64.getEncoder().encodeToString((name + ":" + password).getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * Refuses a kubeconfig section that sets a field the gateway cannot honour: ignored, it would
     * leave the connection failing (or going elsewhere, or as someone else) for no visible reason.
     */
    private static void refuseUnsupported(Map<String, Object> section, String what, Map<String, String> fields) throws ConnectorException {
        for (Map.Entry<String, String> field : fields.entrySet()) {
            Object value = section.get(field.getKey());
            if (value != null && !"".equals(value) && !(value instanceof List<?> l && l.isEmpty())
                    && !(value instanceof Map<?, ?> m && m.isEmpty())) {
                throw bad("the kubeconfig " + what + " sets " + field.getKey() + ", which the gateway does not support: "
                        + field.getValue());
            }
        }
    }

    /**
     * client-go checks the server's certificate against {@code tls-server-name} instead of the
     * server's host; the JDK's client always checks the host. A name that is the host changes
     * nothing, and without verification ({@code insecure-skip-tls-verify}) there is nothing to check;
     * any other would fail every request with a host name mismatch, so it fails the source here.
     */
    private static void checkTlsServerName(Map<String, Object> cluster, String clusterName, String server, boolean skip)
            throws ConnectorException {
        String name = string(cluster, "tls-server-name").strip();
        String host = URI.create(server).getHost();
        if (name.isEmpty() || skip || !server.regionMatches(true, 0, "https:", 0, 6) || sameHost(name, host)) {
            return;
        }
        throw bad("the kubeconfig cluster " + quoted(clusterName) + " sets tls-server-name " + quoted(name) + ", which the gateway "
                + "does not support: it checks the API server's certificate against the host of the cluster's server. Set server to "
                + "a URL whose host the certificate names (add the name to DNS or /etc/hosts if it resolves nowhere)");
    }

    private static boolean sameHost(String name, String host) {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        return stripDot(name).equalsIgnoreCase(stripDot(bare));
    }

    private static String stripDot(String name) {
        return name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
    }

    /** A path a setting or the kubeconfig names; one this file system cannot hold (a NUL character) fails naming it. */
    private static Path path(String value, String what) throws ConnectorException {
        try {
            return Path.of(value);
        } catch (InvalidPathException e) {
            throw bad(what + " is not a file path this system accepts (" + e.getReason() + "); set it to the file's path");
        }
    }

    /**
     * The cluster's server as the base URL of every request. kubectl (client-go) also accepts a server
     * without a scheme ({@code 10.0.0.1:6443}): https when the cluster has TLS settings, else http;
     * so does this. Anything else that is no http(s) URL with a host is refused here, naming the
     * cluster, rather than failing the source's start as an unexpected error.
     */
    private static String serverUrl(String server, String clusterName, boolean tls) throws ConnectorException {
        String url = server.strip();
        if (url.isEmpty()) {
            throw bad("the kubeconfig cluster " + quoted(clusterName) + " has no server");
        }
        if (!WITH_SCHEME.matcher(url).lookingAt()) {
            url = (tls ? "https://" : "http://") + url;
        }
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
            if ((scheme.equals("https") || scheme.equals("http")) && uri.getHost() != null && uri.getRawQuery() == null
                    && uri.getRawFragment() == null) {
                return url;
            }
        } catch (URISyntaxException e) {
            // refused below, without the server's text: a URL may carry credentials
        }
        throw bad("the kubeconfig cluster " + quoted(clusterName) + " has a server that is not an http(s) URL with a host name or "
                + "address (https://host:port, optionally with a path); fix its server in the kubeconfig");
    }

    private static String quoted(String name) {
        return "'" + BackendText.quoted(name, MAX_QUOTED_CHARS) + "'";
    }

    private static Optional<String> pem(Map<String, Object> section, String dataKey, String fileKey, Path base) throws ConnectorException {
        String data = string(section, dataKey);
        if (!data.isEmpty()) {
            try {
                return Optional.of(new String(Base64.getMimeDecoder().decode(data), StandardCharsets.US_ASCII));
            } catch (IllegalArgumentException e) {
                throw bad("kubeconfig " + dataKey + " is not base64");
            }
        }
        String file = string(section, fileKey);
        return file.isEmpty() ? Optional.empty()
                : Optional.of(readSmall(base.resolve(path(file, "the kubeconfig's " + fileKey)), "kubeconfig " + fileKey));
    }

    private static String readSmall(Path path, String what) throws ConnectorException {
        try {
            return SettingFile.read(path, MAX_KUBECONFIG_BYTES, StandardCharsets.US_ASCII);
        } catch (SettingFile.UnusableException e) {
            throw bad(what + " " + e.getMessage());
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> named(Map<String, Object> config, String list, String name, String field) throws ConnectorException {
        if (config.get(list) instanceof List<?> entries) {
            for (Object e : entries) {
                if (e instanceof Map<?, ?> entry && name.equals(entry.get("name")) && entry.get(field) instanceof Map<?, ?> value) {
                    return (Map<String, Object>) value;
                }
            }
        }
        throw bad("the kubeconfig has no " + field + " named " + quoted(name));
    }

    private static String string(Map<String, Object> map, String key) {
        return map.get(key) instanceof String s ? s : "";
    }

    private static ConnectorException bad(String message) {
        return new ConnectorException(Kind.BAD_QUERY, message);
    }
}
