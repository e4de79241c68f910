/**
 * A real Prometheus for integration tests: the Debian {@code prometheus} binary on a free loopback
 * port, over a TSDB backfilled by {@code promtool} from generated OpenMetrics data whose expected
 * answers the tests can compute.
 */
package dev.omcp.testkit.prometheus;
