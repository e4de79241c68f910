package dev.omcp.connectors.builtin;

import dev.omcp.connectors.builtin.egress.BackendHostGuard;
import dev.omcp.connectors.builtin.transport.SourceConnectorContexts;
import dev.omcp.ports.egress.EgressPolicy;
import dev.omcp.ports.egress.EgressVerdict;
import dev.omcp.sdk.memory.AnswerBudget;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * Contexts for connector tests: the real guarded client with a small egress policy that admits
 * loopback (the tests' fakes) and public addresses and refuses everything else. The core's full
 * rules are tested in the core; adapters may not depend on it.
 */
public final class TestContexts {
    private TestContexts() {}

    /** Contexts with a 5 s request timeout. */
    public static SourceConnectorContexts contexts(Clock clock) {
        return contexts(clock, Duration.ofSeconds(5));
    }

    /** Contexts with {@code requestTimeout}. */
    public static SourceConnectorContexts contexts(Clock clock, Duration requestTimeout) {
        EgressPolicy policy = new LoopbackPolicy();
        BackendHostGuard.install(policy);
        return new SourceConnectorContexts(policy, Duration.ofSeconds(2), requestTimeout, clock);
    }

    /** Contexts with {@code requestTimeout} whose connectors share {@code answerBudget}. */
    public static SourceConnectorContexts contexts(Clock clock, Duration requestTimeout, AnswerBudget answerBudget) {
        EgressPolicy policy = new LoopbackPolicy();
        BackendHostGuard.install(policy);
        return new SourceConnectorContexts(policy, Duration.ofSeconds(2), requestTimeout, clock, answerBudget);
    }

    /** Admits loopback and public addresses, refuses private, link-local and metadata ones. */
    public static class LoopbackPolicy implements EgressPolicy {
        @Override
        public EgressVerdict checkUrl(String url) {
            return EgressVerdict.allow();
        }

        @Override
        public EgressVerdict checkHost(String host) {
            return literalAddress(host).map(this::checkAddress).orElse(EgressVerdict.allow());
        }

        @Override
        public Optional<byte[]> literalAddress(String host) {
            String h = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
            if (!h.matches("[0-9.]+") && !h.contains(":")) {
                return Optional.empty();
            }
            try {
                return Optional.of(InetAddress.getByName(h).getAddress()); // a literal: no lookup happens
            } catch (UnknownHostException e) {
                return Optional.empty();
            }
        }

        @Override
        public EgressVerdict checkAddress(byte[] address) {
            try {
                InetAddress a = InetAddress.getByAddress(address);
                if (a.isLoopbackAddress()) {
                    return EgressVerdict.allow();
                }
                if (a.isLinkLocalAddress() || a.isSiteLocalAddress() || a.isAnyLocalAddress() || a.isMulticastAddress()) {
                    return EgressVerdict.refuse("a private or link-local address");
                }
                return EgressVerdict.allow();
            } catch (UnknownHostException e) {
                return EgressVerdict.refuse("not an address");
            }
        }

        @Override
        public boolean privateBackendsAllowed() {
            return true;
        }
    }
}
