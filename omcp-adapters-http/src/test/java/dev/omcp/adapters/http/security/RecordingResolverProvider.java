package dev.omcp.adapters.http.security;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.net.spi.InetAddressResolverProvider;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * The JDK's own resolver, recording every name it is asked to resolve, so a test can tell that a
 * text was parsed as an address literal and never sent to DNS. Installed for this module's test JVM
 * (META-INF/services); it changes no answer.
 */
public final class RecordingResolverProvider extends InetAddressResolverProvider {
    /** Every name resolved since the JVM started. */
    static final Set<String> LOOKED_UP = ConcurrentHashMap.newKeySet();

    @Override
    public InetAddressResolver get(Configuration configuration) {
        InetAddressResolver builtin = configuration.builtinResolver();
        return new InetAddressResolver() {
            @Override
            public Stream<InetAddress> lookupByName(String host, LookupPolicy policy) throws UnknownHostException {
                LOOKED_UP.add(host);
                return builtin.lookupByName(host, policy);
            }

            @Override
            public String lookupByAddress(byte[] address) throws UnknownHostException {
                return builtin.lookupByAddress(address);
            }
        };
    }

    @Override
    public String name() {
        return "recording";
    }
}
