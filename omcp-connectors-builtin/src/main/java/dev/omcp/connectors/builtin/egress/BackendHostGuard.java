package dev.omcp.connectors.builtin.egress;

import dev.omcp.ports.egress.EgressPolicy;
import dev.omcp.ports.egress.EgressVerdict;
import dev.omcp.ports.egress.HostResolver;
import dev.omcp.sdk.text.LogField;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolverProvider;
import java.util.ServiceLoader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state the resolver provider reads: the egress rules and the set of backend host names.
 *
 * <p>Static because the JDK instantiates {@link GuardedResolverProvider} itself (through
 * {@code META-INF/services}), once per JVM, before any of our wiring runs; this is the one seam
 * where the composition root can reach it. Thread-safe.
 */
public final class BackendHostGuard {
    private static final Logger LOG = LoggerFactory.getLogger(BackendHostGuard.class);
    /** Room for the core's rules with 16 NAT64 prefixes of the longest spelling, which {@link LogField}'s default would cut. */
    private static final int MAX_RULES_CHARS = 1000;
    private static final AtomicReference<EgressPolicy> POLICY = new AtomicReference<>();
    private static final Set<String> HOSTS = ConcurrentHashMap.newKeySet();
    private static final AtomicReference<InetAddressResolver> BUILTIN = new AtomicReference<>();

    private BackendHostGuard() {}

    /**
     * Installs the rules every backend resolution in the JVM is filtered through, replacing any
     * installed before. Called once by the launcher. Several gateways in one JVM share them: rules
     * that differ from the installed ones ({@link EgressPolicy#describe()}: whether private backends
     * are allowed, the NAT64 prefixes) are logged as a warning, since the other gateway's backend
     * names are then judged by them too.
     */
    public static void install(EgressPolicy policy) {
        Objects.requireNonNull(policy, "policy");
        EgressPolicy previous = POLICY.getAndSet(policy);
        if (previous != null && !previous.describe().equals(policy.describe())) {
            // an embedder's policy describes itself: quoted and escaped, though never a secret
            LOG.warn("event=egress-rules-replaced rules=\"{}\" before=\"{}\" effect=\"every backend name resolved in this JVM is "
                    + "judged by the new rules, those of any other gateway in it too\"", LogField.of(policy.describe(), MAX_RULES_CHARS),
                    LogField.of(previous.describe(), MAX_RULES_CHARS));
        }
    }

    /** Marks {@code host} as a backend host: from now on every resolution of it is filtered. */
    public static void registerBackendHost(String host) {
        HOSTS.add(normalize(host));
    }

    /**
     * Whether every name lookup goes through {@link GuardedResolverProvider}: the JDK loaded it, or it
     * is the first resolver provider registered on the system class path (the JDK loads it on the
     * first lookup). Checked without a lookup, so no name enters the JDK's cache unfiltered.
     */
    public static boolean active() {
        if (BUILTIN.get() != null) {
            return true;
        }
        return ServiceLoader.load(InetAddressResolverProvider.class, ClassLoader.getSystemClassLoader()).stream()
                .findFirst().map(p -> p.type() == GuardedResolverProvider.class).orElse(false);
    }

    static void builtinResolver(InetAddressResolver resolver) {
        BUILTIN.set(resolver);
    }

    static boolean isBackendHost(String host) {
        return HOSTS.contains(normalize(host));
    }

    static Optional<EgressPolicy> policy() {
        return Optional.ofNullable(POLICY.get());
    }

    /**
     * Filters one resolution: when {@code host} is a backend host, every address must pass the
     * rules, or the whole answer is refused (a client would otherwise try the next address).
     * A refusal is not logged here: the caller that meets it reports it once, with what only it
     * knows and paced ({@code event=source-egress-refused} names the source, {@code
     * event=rdap-egress-refused} the registry), as it reports a refused literal address.
     */
    static void check(String host, List<InetAddress> addresses) throws EgressRefusedException {
        if (!isBackendHost(host)) {
            return;
        }
        EgressPolicy policy = POLICY.get();
        if (policy == null) {
            throw new EgressRefusedException("the egress rules are not installed; backend connections are refused");
        }
        for (InetAddress address : addresses) {
            EgressVerdict verdict = policy.checkAddress(address.getAddress());
            if (verdict instanceof EgressVerdict.Refused refused) {
                throw new EgressRefusedException(refused.reason());
            }
        }
    }

    /**
     * Resolves names without the filter, so the core can judge a source's addresses when it is
     * added (the filter would hide which rule applies).
     */
    public static HostResolver unfilteredResolver() {
        return host -> {
            try {
                InetAddressResolver builtin = active() ? loadedBuiltin() : null;
                List<InetAddress> addresses = builtin != null
                        ? builtin.lookupByName(host, InetAddressResolver.LookupPolicy.of(
                                InetAddressResolver.LookupPolicy.IPV4 | InetAddressResolver.LookupPolicy.IPV6)).toList()
                        : Arrays.asList(InetAddress.getAllByName(host));
                List<byte[]> out = new ArrayList<>();
                addresses.forEach(a -> out.add(a.getAddress()));
                return out;
            } catch (UnknownHostException e) {
                return List.of();
            }
        };
    }

    /**
     * The JDK's own resolver, once the JDK has loaded {@link GuardedResolverProvider}. Before the JVM's first name lookup it
     * has not, and a lookup of a backend host to load it would be filtered (a refused name would read as one that does not
     * resolve, and the JDK would cache that): so the first lookup is of {@code localhost}, which the guard never blocks (the
     * JDK answers it with the loopback address whatever a resolver says, and {@code GuardedHttpClient} judges the address).
     */
    private static InetAddressResolver loadedBuiltin() {
        if (BUILTIN.get() == null) {
            try {
                InetAddress.getByName("localhost");
            } catch (UnknownHostException e) {
                LOG.debug("event=resolver-load-lookup-failed reason=\"{}\"", LogField.of(e.getClass().getSimpleName()));
            }
        }
        return BUILTIN.get();
    }

    private static String normalize(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }
}
