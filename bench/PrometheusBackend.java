import dev.omcp.testkit.prometheus.PrometheusFixture;
import java.time.Duration;

/**
 * The real Prometheus for bench/tools.sh: the test kit's {@link PrometheusFixture} (the Debian
 * {@code prometheus} binary on a TSDB that {@code promtool} backfilled with the synthetic
 * services api, checkout, team/search and billing, data ending now), the same backend the
 * Prometheus-tagged tests use.
 *
 * <p>Run in source-file mode with the launcher jar (which contains the test kit) on the class path:
 * {@code java -cp omcp-app/target/omcp.jar bench/PrometheusBackend.java 3h}. Prints
 * {@code PROMETHEUS_URL=<url>} once ready, then runs until its standard input closes or it is
 * terminated; either way Prometheus is stopped and its files deleted.
 */
public final class PrometheusBackend {
    public static void main(String[] args) throws Exception {
        Duration history = Duration.ofHours(args.length > 0 ? Long.parseLong(args[0].replaceAll("h$", "")) : 3);
        try (PrometheusFixture prometheus = PrometheusFixture.start(history)) {
            System.out.println("PROMETHEUS_URL=" + prometheus.url());
            System.out.flush();
            // SIGTERM runs the fixture's shutdown hook; a closed stdin ends here and closes it
            while (System.in.read() >= 0) {
                // ignore input
            }
        }
    }
}
