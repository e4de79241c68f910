package dev.omcp.connectors.builtin.egress;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolverProvider;
import java.util.List;
import java.util.stream.Stream;

/**
 * The JDK resolver provider (JEP 418) that applies the egress guard at resolution time. Registered
 * by the launcher in {@code META-INF/services/java.net.spi.InetAddressResolverProvider}; it wraps
 * the JDK's builtin resolver and filters only backend host names (see {@link BackendHostGuard}).
 */
public final class GuardedResolverProvider extends InetAddressResolverProvider {

    /** Called by the JDK's service loader. */
    public GuardedResolverProvider() {}

    @Override
    public InetAddressResolver get(Configuration configuration) {
        InetAddressResolver builtin = configuration.builtinResolver();
        BackendHostGuard.builtinResolver(builtin);
        return new GuardedResolver(builtin);
    }

    @Override
    public String name() {
        return "omcp-egress-guard";
    }

    /** Resolves through {@code delegate}, then applies the guard to backend host names. */
    static final class GuardedResolver implements InetAddressResolver {
        private final InetAddressResolver delegate;

        GuardedResolver(InetAddressResolver delegate) {
            this.delegate = delegate;
        }

        @Override
        public Stream<InetAddress> lookupByName(String host, LookupPolicy lookupPolicy) throws UnknownHostException {
            List<InetAddress> addresses = delegate.lookupByName(host, lookupPolicy).toList();
            BackendHostGuard.check(host, addresses);
            return addresses.stream();
        }

        @Override
        public String lookupByAddress(byte[] addr) throws UnknownHostException {
            return delegate.lookupByAddress(addr);
        }
    }
}
