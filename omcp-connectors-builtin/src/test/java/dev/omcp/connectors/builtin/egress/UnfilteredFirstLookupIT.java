package dev.omcp.connectors.builtin.egress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.omcp.ports.egress.EgressPolicy;
import dev.omcp.ports.egress.EgressVerdict;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The unfiltered lookup that judges a source as it is added, when it is the first name lookup of the JVM (a launcher
 * reading its sources file at start): the JDK has not loaded the guard's resolver yet, and must not load it through
 * this lookup, which would filter it. Run in a JVM of its own, since any earlier lookup loads the resolver for good,
 * without {@code jdk.net.hosts.file} (the JDK then loads no resolver provider at all). The name is one the system's
 * hosts file answers without a DNS server, other than {@code localhost}, which the JDK answers itself when a resolver
 * refuses it.
 */
class UnfilteredFirstLookupIT {

    /** Refuses every address: a filtered lookup of a backend name then finds nothing. */
    static final class RefuseEverything implements EgressPolicy {
        @Override
        public EgressVerdict checkUrl(String url) {
            return EgressVerdict.allow();
        }

        @Override
        public EgressVerdict checkHost(String host) {
            return EgressVerdict.allow();
        }

        @Override
        public Optional<byte[]> literalAddress(String host) {
            return Optional.empty();
        }

        @Override
        public EgressVerdict checkAddress(byte[] address) {
            return EgressVerdict.refuse("this test refuses every address");
        }

        @Override
        public boolean privateBackendsAllowed() {
            return false;
        }
    }

    /** The child JVM: prints what the unfiltered lookup of a refused backend name found, then whether a filtered one is refused. */
    public static void main(String[] args) throws IOException {
        String name = args[0];
        BackendHostGuard.install(new RefuseEverything());
        BackendHostGuard.registerBackendHost(name);
        List<byte[]> found = BackendHostGuard.unfilteredResolver().resolve(name);
        System.out.println("found=" + (found.isEmpty() ? "nothing" : "addresses"));
        try {
            InetAddress.getAllByName(name);
            System.out.println("filtered=allowed");
        } catch (EgressRefusedException e) {
            System.out.println("filtered=refused");
        }
    }

    @Test
    void theFirstLookupOfTheJvm_findsTheAddressesTheRulesThenJudge_andLaterLookupsAreStillFiltered() throws Exception {
        Optional<String> name = hostsFileName();
        assumeTrue(name.isPresent(), "needs a name besides localhost in /etc/hosts");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), UnfilteredFirstLookupIT.class.getName(), name.get())
                .redirectErrorStream(true).start();
        try {
            assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("the child JVM ends").isTrue();
            String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(output).as("loaded through this lookup, the guard's resolver filtered it: the refusal read as 'does not resolve'")
                    .contains("found=addresses");
            assertThat(output).as("the unfiltered lookup neither bypasses nor caches past the guard").contains("filtered=refused");
            assertThat(child.exitValue()).as(output).isZero();
        } finally {
            child.destroyForcibly();
        }
    }

    /** A name the system's hosts file answers, other than localhost (on Linux containers, the host's own name). */
    private static Optional<String> hostsFileName() throws IOException {
        Path hosts = Path.of("/etc/hosts");
        if (!Files.isReadable(hosts)) {
            return Optional.empty();
        }
        return Files.readAllLines(hosts).stream().map(line -> line.replaceFirst("#.*", "").trim()).filter(line -> !line.isEmpty())
                .flatMap(line -> Arrays.stream(line.split("\\s+")).skip(1))
                .filter(n -> !n.equalsIgnoreCase("localhost") && n.matches("[A-Za-z0-9][A-Za-z0-9.-]*")).findFirst();
    }
}
