package dev.omcp.adapters.http.rdap;

import dev.omcp.adapters.http.outbound.BoundedExchange;
import dev.omcp.ports.egress.EgressRefusal;
import dev.omcp.ports.ipenrich.IpRegistrationLookup;
import dev.omcp.ports.ipenrich.RegistrationAnswer;
import dev.omcp.sdk.text.LogField;
import dev.omcp.sdk.text.LogPace;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Semaphore;
import javax.net.ssl.SSLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks an RDAP service who an IP address is registered to ({@code OMCP_IP_ENRICH_RDAP}):
 * {@code GET <base>/ip/<address>} with {@code Accept: application/rdap+json} (RFC 9082 section
 * 3.1.1), the answer read as an RFC 9083 ip network by {@link RdapIpNetwork}.
 *
 * <p>RDAP services redirect a query to the registry responsible for the address (RFC 7480 section
 * 5.2; {@code rdap.org} does nothing else), so up to {@value #MAX_REDIRECTS} redirects are followed
 * here, one by one through the given client (which itself follows none and applies the egress
 * rules to every hop); a redirect from https to http is refused. The request timeout bounds the
 * whole lookup, every hop and every byte of every body together: the JDK's own timeout ends with
 * the response headers, so a registry that sent its headers and then stalled held the lookup for as
 * long as it liked. Answers: 200 with an ip network is found, 404 is not registered, 408, 429 and
 * 5xx, timeouts and network errors are transient failures, anything else (another status, not
 * JSON, larger than {@value #MAX_BODY_BYTES} bytes, not an ip network, a hop the egress rules
 * refuse, a failed TLS handshake) is a failure retrying would not fix. A registry that answers 429
 * (or 503 with {@code Retry-After}) is not asked again for the time it names ({@link RegistryPauses}). At most {@value #MAX_IN_FLIGHT} lookups are sent at once,
 * across all callers; the others wait their turn (interruptibly). No answer, log line or reason
 * contains the service's URL. Thread-safe.
 */
public final class RdapRegistrationLookup implements IpRegistrationLookup {
    private static final Logger LOG = LoggerFactory.getLogger(RdapRegistrationLookup.class);
    static final int MAX_REDIRECTS = 3;
    static final int MAX_BODY_BYTES = 512 * 1024;
    /**
     * Lookups sent at once by this client, whoever asks: the core bounds one {@code enrich_ips} call,
     * but several calls at once multiplied that bound against the same registries.
     */
    static final int MAX_IN_FLIGHT = 16;
    /** How an egress refusal's reason starts: not transient, an operator changes a setting. */
    static final String EGRESS_REFUSED = "the gateway's egress rules refuse the registry's address";
    /** How a TLS failure's reason starts: not transient either. */
    static final String TLS_FAILED = "the TLS handshake with the registry failed";

    private final HttpClient client;
    private final URI base;
    private final Duration requestTimeout;
    private final RegistryPauses pauses;
    private final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT, true);
    /** One refused registry fails every address of every call alike: its reason is logged at most once a minute. */
    private final LogPace egressRefusals;

    /**
     * @param client a client with a connect timeout that follows no redirects (the egress rules applied by its builder)
     * @param base the RDAP service's base URL, for example {@code https://rdap.org} or {@code https://rdap.arin.net/registry}
     * @param requestTimeout how long one lookup may take, redirects and bodies included
     * @param clock the time a registry's {@code Retry-After} is counted in
     */
    public RdapRegistrationLookup(HttpClient client, URI base, Duration requestTimeout, Clock clock) {
        this.client = Objects.requireNonNull(client, "client");
        this.base = Objects.requireNonNull(base, "base");
        this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
        this.pauses = new RegistryPauses(clock);
        this.egressRefusals = new LogPace(clock, Duration.ofMinutes(1));
        if (requestTimeout.isNegative() || requestTimeout.isZero()) {
            throw new IllegalArgumentException("the RDAP request timeout must be positive");
        }
        if (!isHttp(base) || base.getHost() == null) {
            throw new IllegalArgumentException("the RDAP base must be an http:// or https:// URL with a host");
        }
    }

    /** The query URL for {@code address}: the base path, then {@code ip/<address>}. */
    static URI queryUrl(URI base, String address) {
        String text = base.toString();
        String withoutQuery = text.contains("?") ? text.substring(0, text.indexOf('?')) : text;
        return URI.create((withoutQuery.endsWith("/") ? withoutQuery : withoutQuery + "/") + "ip/" + address);
    }

    @Override
    public RegistrationAnswer lookup(String address) {
        if (RdapIpNetwork.literal(address).isEmpty()) {
            return new RegistrationAnswer.Failed(false, "not an IP address literal");
        }
        try {
            inFlight.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new RegistrationAnswer.Failed(true, "the lookup was cancelled");
        }
        try {
            return ask(address);
        } finally {
            inFlight.release();
        }
    }

    /** One lookup, redirects included, within the request timeout (counted from here, not from the wait for a turn). */
    private RegistrationAnswer ask(String address) {
        URI target = queryUrl(base, address);
        long deadline = System.nanoTime() + requestTimeout.toNanos();
        try {
            for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
                Optional<Duration> paused = pauses.remaining(target);
                if (paused.isPresent()) {
                    return new RegistrationAnswer.Failed(true, "the registry asked for fewer requests; it is not asked again for "
                            + seconds(paused.get()) + " s");
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return tooLate();
                }
                HttpResponse<byte[]> response = new BoundedExchange(client, Duration.ofNanos(left), MAX_BODY_BYTES)
                        .send(HttpRequest.newBuilder(target)
                                .timeout(Duration.ofNanos(left))
                                .header("Accept", "application/rdap+json, application/json;q=0.9")
                                .header("User-Agent", "omcp-enrich-ips")
                                .GET()
                                .build());
                int status = response.statusCode();
                if (isRedirect(status)) {
                    URI current = target;
                    Optional<URI> next = response.headers().firstValue("Location").flatMap(location -> next(current, location));
                    if (next.isEmpty()) {
                        return new RegistrationAnswer.Failed(false, "the registry redirected to an unusable location (HTTP " + status + ")");
                    }
                    target = next.get();
                    continue;
                }
                return answer(target, response, address);
            }
            return new RegistrationAnswer.Failed(false, "the registry redirected more than " + MAX_REDIRECTS + " times");
        } catch (IOException e) {
            if (BoundedExchange.isTimeout(e)) {
                return tooLate();
            }
            if (BoundedExchange.isTooLarge(e)) {
                return new RegistrationAnswer.Failed(false, "the registry's answer is larger than " + MAX_BODY_BYTES / 1024 + " KiB");
            }
            return unreachable(e, target);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new RegistrationAnswer.Failed(true, "the lookup was cancelled");
        }
    }

    /**
     * A failed exchange: an egress refusal or a TLS failure is a setting to change, so retrying will
     * not help; anything else (refused connection, reset, unknown name) may pass.
     *
     * @param target the hop that failed: its host is logged with an egress refusal, never its path or query
     */
    RegistrationAnswer.Failed unreachable(IOException e, URI target) {
        Optional<EgressRefusal> refusal = EgressRefusal.in(e);
        if (refusal.isPresent()) {
            // the rule's reason names the internal address a registry's name (or a redirect) led to, and the address class:
            // network layout for the operator, which an agent cannot change; the operator's log has it, the agent what to do
            long refusals = egressRefusals.occurred();
            if (refusals > 0) {
                LOG.warn("event=rdap-egress-refused host=\"{}\" reason=\"{}\" occurrences={}", LogField.of(String.valueOf(target.getHost())),
                        LogField.of(refusal.get().reason()), refusals);
            }
            return new RegistrationAnswer.Failed(false, EGRESS_REFUSED + "; retrying will not help: the gateway's log says which"
                    + " rule (event=rdap-egress-refused); an operator changes that rule's setting or points OMCP_IP_ENRICH_RDAP at a"
                    + " registry the rules allow");
        }
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SSLException) {
                return new RegistrationAnswer.Failed(false, TLS_FAILED + " (" + t.getClass().getSimpleName() + "): its certificate is"
                        + " not trusted by the gateway's Java trust store, or it does not speak TLS on that port; fix the trust store"
                        + " or OMCP_IP_ENRICH_RDAP");
            }
        }
        // the message may name the host; the class says enough
        return new RegistrationAnswer.Failed(true, "the registry could not be reached (" + e.getClass().getSimpleName() + ")");
    }

    private RegistrationAnswer tooLate() {
        return new RegistrationAnswer.Failed(true, "the registry did not answer within " + requestTimeout.toSeconds() + " s");
    }

    private RegistrationAnswer answer(URI answered, HttpResponse<byte[]> response, String address) {
        int status = response.statusCode();
        if (status == 404) {
            return new RegistrationAnswer.NotFound();
        }
        Optional<String> retryAfter = response.headers().firstValue("Retry-After");
        if (status == 429 || (status == 503 && retryAfter.isPresent())) {
            Duration pause = pauses.pause(answered, retryAfter, status == 429 ? RegistryPauses.DEFAULT_PAUSE : Duration.ZERO);
            return new RegistrationAnswer.Failed(true, "the registry answered HTTP " + status
                    + (status == 429 ? " (too many requests)" : "") + "; it is not asked again for " + seconds(pause) + " s");
        }
        if (status == 408 || status >= 500) {
            return new RegistrationAnswer.Failed(true, "the registry answered HTTP " + status + "; try again later");
        }
        if (status != 200) {
            return new RegistrationAnswer.Failed(false, "the registry answered HTTP " + status);
        }
        String type = response.headers().firstValue("Content-Type").orElse("").toLowerCase(Locale.ROOT);
        if (!type.contains("json")) {
            return new RegistrationAnswer.Failed(false, "the registry answered '" + RdapIpNetwork.clean(type) + "', not RDAP JSON");
        }
        return RdapIpNetwork.read(response.body(), address);
    }

    /** Whole seconds, rounded up, so a pause never reads as 0 s while it lasts. */
    private static long seconds(Duration duration) {
        return (duration.toMillis() + 999) / 1000;
    }

    private static boolean isRedirect(int status) {
        return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
    }

    /**
     * Where a redirect leads, resolved against the current URL; http(s) only, on a port a connection can use, and
     * never from https down to http. A port such as 99999 made the HTTP client throw rather than fail the exchange, out of
     * a lookup that promises never to throw, and port 0 read as a network error worth retrying.
     */
    static Optional<URI> next(URI current, String location) {
        try {
            URI next = current.resolve(new URI(location.strip()));
            if (!isHttp(next) || next.getHost() == null || next.getRawUserInfo() != null || !usablePort(next.getPort())) {
                return Optional.empty();
            }
            if ("https".equalsIgnoreCase(current.getScheme()) && !"https".equalsIgnoreCase(next.getScheme())) {
                return Optional.empty();
            }
            return Optional.of(next);
        } catch (URISyntaxException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** The scheme's default (-1) or a TCP port from 1 to 65535. */
    private static boolean usablePort(int port) {
        return port == -1 || (port >= 1 && port <= 65_535);
    }

    private static boolean isHttp(URI uri) {
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        return scheme.equals("http") || scheme.equals("https");
    }

    /** Never shows the service's URL. */
    @Override
    public String toString() {
        return "RdapRegistrationLookup[" + base.getScheme() + "://" + base.getHost() + "]";
    }
}
