package dev.omcp.adapters.http.security;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * DNS-rebinding protection required by the MCP transport specification: every request's
 * {@code Host} must name this server, and a present {@code Origin} must be same-origin or
 * explicitly allowed.
 *
 * <p>Host rule: a gateway bound to a loopback address answers only to {@code localhost},
 * {@code 127.0.0.1} and {@code [::1]} (any port) plus {@code OMCP_ALLOWED_HOSTS}; a gateway bound
 * to another address accepts any host unless {@code OMCP_ALLOWED_HOSTS} lists them (it sits behind
 * a load balancer or ingress whose names it cannot guess).
 */
public final class HostOriginGuard {
    private static final Set<String> LOOPBACK_NAMES = Set.of("localhost", "127.0.0.1", "::1", "[::1]");

    private final Set<String> allowedHosts;
    private final boolean anyHost;
    private final boolean loopbackBind;
    private final Set<String> allowedOrigins;

    /**
     * @param bindHost the address the server listens on
     * @param extraHosts host names from {@code OMCP_ALLOWED_HOSTS}, without ports
     * @param allowedOrigins origins from {@code OMCP_ALLOWED_ORIGINS}, for example {@code https://ui.example.com}
     */
    public HostOriginGuard(String bindHost, List<String> extraHosts, List<String> allowedOrigins) {
        this.loopbackBind = isLoopback(bindHost);
        this.anyHost = answersAnyHost(bindHost, extraHosts);
        this.allowedHosts = extraHosts.stream().map(h -> h.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        if (loopbackBind) {
            this.allowedHosts.addAll(LOOPBACK_NAMES);
        }
        this.allowedOrigins = allowedOrigins.stream().map(HostOriginGuard::normalizeOrigin).collect(Collectors.toSet());
    }

    /**
     * Whether a gateway bound to {@code bindHost} with these {@code OMCP_ALLOWED_HOSTS} accepts every
     * {@code Host}, so a page whose name was rebound to the gateway's address can call it: the start-up
     * warns with this very rule, so it cannot disagree with the guard.
     */
    public static boolean answersAnyHost(String bindHost, List<String> extraHosts) {
        return !isLoopback(bindHost) && extraHosts.isEmpty();
    }

    /** The verdict on one request. */
    public sealed interface Verdict {
        record Allowed() implements Verdict {}

        record Refused(String code, String message) implements Verdict {}
    }

    /** The code of a refusal for the {@code Host} header. */
    public static final String HOST_REJECTED = "OMCP_HOST_REJECTED";
    /** The code of a refusal for the {@code Origin} header. */
    public static final String ORIGIN_REJECTED = "OMCP_ORIGIN_REJECTED";
    private static final Verdict ALLOWED = new Verdict.Allowed();
    private static final Pattern IPV4_LOOPBACK = Pattern.compile("127(\\.\\d{1,3}){3}");
    private static final Pattern IPV6_LITERAL = Pattern.compile("[0-9a-f:][0-9a-f:.]*:[0-9a-f:.]*");

    /** Checks one request that came over plain HTTP: see {@link #check(String, String, boolean)}. */
    public Verdict check(String host, String origin) {
        return check(host, origin, false);
    }

    /**
     * Checks one request.
     *
     * @param host the {@code Host} header (may include a port), or {@code null}
     * @param origin the {@code Origin} header, or {@code null}
     * @param secure whether the client used HTTPS (TLS, or {@code X-Forwarded-Proto: https} from a trusted
     *     proxy): then only an {@code https} page is this gateway's own origin
     */
    public Verdict check(String host, String origin, boolean secure) {
        if (host == null || host.isBlank()) {
            return new Verdict.Refused(HOST_REJECTED, "the request has no Host header");
        }
        String hostName = hostName(host);
        if (!anyHost && !allowedHosts.contains(hostName)) {
            return new Verdict.Refused(HOST_REJECTED, "Host '" + abbreviate(host) + "' is not allowed: " + (loopbackBind
                    ? "a gateway bound to loopback answers only to localhost, 127.0.0.1 and [::1]; list other names in OMCP_ALLOWED_HOSTS"
                    : "this gateway answers only to the names in OMCP_ALLOWED_HOSTS; add the name clients use there"));
        }
        return checkOrigin(host, origin, secure);
    }

    /** The {@code Origin} half of {@link #check(String, String, boolean)}; {@code host} may be absent (no page is then same-origin). */
    private Verdict checkOrigin(String host, String origin, boolean secure) {
        if (origin == null) {
            return ALLOWED;
        }
        String normalized = normalizeOrigin(origin);
        if (allowedOrigins.contains(normalized)) {
            return ALLOWED;
        }
        if (host != null && sameOrigin(normalized, host, secure)) {
            return ALLOWED;
        }
        return new Verdict.Refused(ORIGIN_REJECTED, "Origin '" + abbreviate(origin)
                + "' is not allowed: only same-origin requests are accepted; list the origin in OMCP_ALLOWED_ORIGINS "
                + "to let pages on it call this gateway");
    }

    /**
     * Checks a request to a probe ({@code /healthz}, {@code /readyz}, {@code /metrics}). Off loopback the
     * {@code Host} is not checked: a kubelet probe, a Prometheus scrape by pod address and a container's own
     * health check name an address, never the names in {@code OMCP_ALLOWED_HOSTS}, and a refused liveness
     * probe restarts a healthy gateway. The probes are public and hold no one's data, so a page rebound to the
     * gateway's address learns no more than any client that reaches it. On loopback the names are checked as
     * for every route: local probes use them, and a laptop's gateway keeps its rebinding guard whole.
     */
    public Verdict checkProbe(String host, String origin, boolean secure) {
        return loopbackBind ? check(host, origin, secure) : checkOrigin(host, origin, secure);
    }

    /** Whether browsers on {@code origin} may read responses (CORS), i.e. it is explicitly allowed. */
    public boolean isListedOrigin(String origin) {
        return origin != null && allowedOrigins.contains(normalizeOrigin(origin));
    }

    /**
     * Whether {@code bindHost} (a {@code HOST} value) listens on loopback only: {@code localhost} or a
     * loopback literal in any spelling (127.0.0.0/8, {@code ::1} in full or bracketed, IPv4-mapped
     * {@code ::ffff:127.0.0.1}). A name is never loopback, whatever it starts with: it may resolve
     * anywhere. The start-up warnings use this too, so they judge a bind as the guard does.
     */
    public static boolean isLoopback(String bindHost) {
        String h = bindHost.trim().toLowerCase(Locale.ROOT);
        if (h.equals("localhost") || IPV4_LOOPBACK.matcher(h).matches() || h.equals("::1") || h.equals("[::1]")) {
            return true;
        }
        // the same addresses spelled otherwise: 0:0:0:0:0:0:0:1, bracketed, IPv4-mapped ::ffff:127.0.0.1
        String literal = h.startsWith("[") && h.endsWith("]") ? h.substring(1, h.length() - 1) : h;
        if (!IPV6_LITERAL.matcher(literal).matches()) {
            return false;
        }
        try {
            // only a literal gets here (it starts with a hex digit or a colon and holds one): no DNS lookup
            return InetAddress.getByName(literal).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false; // not an address after all: a name other than localhost is no loopback bind
        }
    }

    private static String hostName(String host) {
        String h = host.trim().toLowerCase(Locale.ROOT);
        if (h.startsWith("[")) {
            int close = h.indexOf(']');
            return close > 0 ? h.substring(0, close + 1) : h;
        }
        int colon = h.indexOf(':');
        if (colon >= 0 && h.indexOf(':', colon + 1) < 0) {
            return h.substring(0, colon);
        }
        return h;
    }

    /**
     * Whether a normalized origin is this gateway's own: an {@code http} or {@code https} page on the
     * authority of the {@code Host} header. The scheme's default port counts as written or left out on
     * either side: browsers leave it out of {@code Origin}, while a proxy may write {@code Host} as
     * {@code name:443}.
     *
     * <p>Over HTTPS only an {@code https} page is: a plain-HTTP page of the same name is another origin,
     * which anyone on the network path can write. Over plain HTTP an {@code https} page is accepted too,
     * since a TLS proxy in front that the gateway does not trust ({@code OMCP_TRUST_PROXY}) hands on
     * the requests of its https pages as plain HTTP.
     */
    private static boolean sameOrigin(String origin, String host, boolean secure) {
        Optional<URI> uri = parse(origin);
        if (uri.isEmpty() || uri.get().getRawAuthority() == null) {
            return false;
        }
        String defaultPort = switch (String.valueOf(uri.get().getScheme())) {
            case "http" -> ":80";
            case "https" -> ":443";
            default -> "";
        };
        if (defaultPort.isEmpty() || (secure && defaultPort.equals(":80"))) {
            return false;
        }
        String originAuthority = withoutPort(uri.get().getRawAuthority().toLowerCase(Locale.ROOT), defaultPort);
        return originAuthority.equals(withoutPort(host.trim().toLowerCase(Locale.ROOT), defaultPort));
    }

    /** {@code authority} without the given {@code :port} suffix, which only a name, IPv4 or bracketed IPv6 host carries. */
    private static String withoutPort(String authority, String portSuffix) {
        if (portSuffix.isEmpty() || !authority.endsWith(portSuffix)) {
            return authority;
        }
        String hostPart = authority.substring(0, authority.length() - portSuffix.length());
        return hostPart.endsWith("]") || hostPart.indexOf(':') < 0 ? hostPart : authority;
    }

    private static Optional<URI> parse(String origin) {
        try {
            return Optional.of(new URI(origin));
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }

    /**
     * An origin as compared: lower case, without a trailing slash, and without the scheme's default
     * port, which browsers leave out of {@code Origin} (so a listed {@code https://ui.example.com:443}
     * is the origin they send).
     */
    private static String normalizeOrigin(String origin) {
        String o = origin.trim().toLowerCase(Locale.ROOT);
        o = o.endsWith("/") ? o.substring(0, o.length() - 1) : o;
        if (o.startsWith("https://") && o.endsWith(":443")) {
            return o.substring(0, o.length() - ":443".length());
        }
        if (o.startsWith("http://") && o.endsWith(":80")) {
            return o.substring(0, o.length() - ":80".length());
        }
        return o;
    }

    private static String abbreviate(String text) {
        String printable = text.replaceAll("[^\\x20-\\x7e]", "?");
        return printable.length() <= 100 ? printable : printable.substring(0, 100) + "...";
    }
}
