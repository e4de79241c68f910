package dev.omcp.connectors.builtin.egress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.omcp.connectors.builtin.TestContexts;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.net.spi.InetAddressResolver;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** Spec 5.9: the guard applies at resolution time, so a name that starts resolving elsewhere is refused. */
class GuardedResolverTest {
    private static final InetAddressResolver.LookupPolicy ANY = InetAddressResolver.LookupPolicy.of(
            InetAddressResolver.LookupPolicy.IPV4 | InetAddressResolver.LookupPolicy.IPV6);

    @BeforeAll
    static void rules() {
        BackendHostGuard.install(new TestContexts.LoopbackPolicy());
    }

    /** A DNS server under an attacker's control: each lookup answers the next prepared address. */
    private static final class ChangingResolver implements InetAddressResolver {
        private final Deque<byte[]> answers = new ArrayDeque<>();

        ChangingResolver answer(int a, int b, int c, int d) {
            answers.add(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
            return this;
        }

        @Override
        public Stream<InetAddress> lookupByName(String host, LookupPolicy lookupPolicy) throws UnknownHostException {
            return Stream.of(InetAddress.getByAddress(host, answers.removeFirst()));
        }

        @Override
        public String lookupByAddress(byte[] addr) {
            return "unused";
        }
    }

    @Test
    void aBackendNameThatRebindsToTheMetadataAddressIsRefusedOnTheNextConnection() throws Exception {
        ChangingResolver dns = new ChangingResolver().answer(93, 184, 216, 34).answer(169, 254, 169, 254);
        var resolver = new GuardedResolverProvider.GuardedResolver(dns);
        BackendHostGuard.registerBackendHost("rebind.example.com");

        assertThat(resolver.lookupByName("rebind.example.com", ANY).toList())
                .extracting(InetAddress::getHostAddress).containsExactly("93.184.216.34");
        assertThatThrownBy(() -> resolver.lookupByName("rebind.example.com", ANY))
                .isInstanceOfSatisfying(EgressRefusedException.class, e -> assertThat(e.reason()).contains("link-local"));
    }

    @Test
    void rulesThatDifferOnPrivateBackends_replacingTheInstalledOnes_areLogged() {
        // two gateways in one JVM share the resolver: the second one's rules judge the first one's backend names too
        BackendHostGuard.install(new TestContexts.LoopbackPolicy());
        Logger logger = (Logger) LoggerFactory.getLogger(BackendHostGuard.class);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        logger.addAppender(events);
        var publicOnly = new TestContexts.LoopbackPolicy() {
            @Override
            public boolean privateBackendsAllowed() {
                return false;
            }
        };
        try {
            BackendHostGuard.install(new TestContexts.LoopbackPolicy()); // the same rules again: nothing to say
            assertThat(events.list).isEmpty();

            BackendHostGuard.install(publicOnly);

            assertThat(events.list).singleElement().satisfies(e -> {
                assertThat(e.getLevel()).isEqualTo(Level.WARN);
                assertThat(e.getFormattedMessage()).startsWith("event=egress-rules-replaced rules=\"privateBackendsAllowed=false\" "
                        + "before=\"privateBackendsAllowed=true\"");
            });
        } finally {
            BackendHostGuard.install(new TestContexts.LoopbackPolicy());
            logger.detachAppender(events);
        }
    }

    @Test
    void rulesThatDifferOnlyInWhatTheyDescribe_likeNat64Prefixes_replacingTheInstalledOnes_areLogged() {
        // the same answer on private backends, another OMCP_NAT64_PREFIXES: the first gateway's IPv6 backends are judged anew
        Logger logger = (Logger) LoggerFactory.getLogger(BackendHostGuard.class);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        BackendHostGuard.install(new Described("privateBackendsAllowed=true nat64Prefixes=[2001:db8:64::/96]"));
        logger.addAppender(events);
        try {
            BackendHostGuard.install(new Described("privateBackendsAllowed=true nat64Prefixes=[2001:db8:64::/96]"));
            assertThat(events.list).as("the same rules again").isEmpty();

            BackendHostGuard.install(new Described("privateBackendsAllowed=true nat64Prefixes=[]"));

            assertThat(events.list).singleElement().satisfies(e -> {
                assertThat(e.getLevel()).isEqualTo(Level.WARN);
                assertThat(e.getFormattedMessage()).startsWith("event=egress-rules-replaced rules=\"privateBackendsAllowed=true "
                        + "nat64Prefixes=[]\" before=\"privateBackendsAllowed=true nat64Prefixes=[2001:db8:64::/96]\" effect=");
            });
        } finally {
            BackendHostGuard.install(new TestContexts.LoopbackPolicy());
            logger.detachAppender(events);
        }
    }

    /** Loopback rules that describe themselves as told, as rules with further settings do. */
    private static final class Described extends TestContexts.LoopbackPolicy {
        private final String description;

        Described(String description) {
            this.description = description;
        }

        @Override
        public String describe() {
            return description;
        }
    }

    @Test
    void aRefusedResolution_isLeftToTheCallerToLog_soTheOperatorReadsItOnce() throws Exception {
        // before: the resolver logged event=egress-refused, and the caller that met the refusal logged it again
        // (event=source-egress-refused for a tool call, event=rdap-egress-refused for enrich_ips) with the same reason
        ChangingResolver dns = new ChangingResolver().answer(169, 254, 169, 254);
        BackendHostGuard.registerBackendHost("refused-once.example.com");
        Logger logger = (Logger) LoggerFactory.getLogger(BackendHostGuard.class);
        ListAppender<ILoggingEvent> events = new ListAppender<>();
        events.start();
        logger.addAppender(events);
        try {
            assertThatThrownBy(() -> new GuardedResolverProvider.GuardedResolver(dns).lookupByName("refused-once.example.com", ANY))
                    .isInstanceOfSatisfying(EgressRefusedException.class, e -> assertThat(e.reason()).contains("link-local"));

            assertThat(events.list).isEmpty();
        } finally {
            logger.detachAppender(events);
        }
    }

    @Test
    void oneRefusedAddressRefusesTheWholeAnswer() {
        InetAddressResolver both = new InetAddressResolver() {
            @Override
            public Stream<InetAddress> lookupByName(String host, LookupPolicy lookupPolicy) throws UnknownHostException {
                return Stream.of(InetAddress.getByAddress(host, new byte[] {93, (byte) 184, (byte) 216, 34}),
                        InetAddress.getByAddress(host, new byte[] {10, 0, 0, 7}));
            }

            @Override
            public String lookupByAddress(byte[] addr) {
                return "unused";
            }
        };
        BackendHostGuard.registerBackendHost("Mixed.Example.com.");
        assertThatThrownBy(() -> new GuardedResolverProvider.GuardedResolver(both).lookupByName("mixed.example.com", ANY))
                .isInstanceOf(EgressRefusedException.class);
    }

    @Test
    void namesThatAreNotBackendsResolveUntouched() throws Exception {
        // Redis, the OIDC provider and other infrastructure may live on private addresses
        ChangingResolver dns = new ChangingResolver().answer(10, 0, 0, 5);
        List<InetAddress> answer = new GuardedResolverProvider.GuardedResolver(dns).lookupByName("redis.internal", ANY).toList();
        assertThat(answer).extracting(InetAddress::getHostAddress).containsExactly("10.0.0.5");
    }

    @Test
    void theProviderIsLoadedByTheJdk() {
        // registered in META-INF/services of the test class path, as the launcher does in its jar
        assertThat(BackendHostGuard.active()).isTrue();
    }
}
