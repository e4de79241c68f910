package dev.omcp.ports.egress;

import java.util.List;

/**
 * Driven port: resolves a backend host name to its addresses, so the egress guard can judge a
 * source when it is added. (Every later connection is judged again when its name is resolved.)
 */
@FunctionalInterface
public interface HostResolver {

    /**
     * Resolves {@code host}.
     *
     * @param host a host name (not a literal address)
     * @return every address, 4 or 16 bytes each; empty when the name does not resolve now
     */
    List<byte[]> resolve(String host);
}
