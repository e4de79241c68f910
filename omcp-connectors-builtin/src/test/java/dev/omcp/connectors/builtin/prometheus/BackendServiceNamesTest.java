package dev.omcp.connectors.builtin.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The selectors that keep the gateway's own anomaly series out of a receiver's service names, without a backend. */
class BackendServiceNamesTest {
    private static final String OWN_NAMES =
            "\"omcp_anomaly_detected|omcp_anomaly_level_above_largest_bucket|omcp_anomaly_onset_timestamp_seconds|omcp_anomaly_score\"";

    @Test
    void theGatewaysSeries_areTheFourExactNames_soAPrefixNeverTakesSomeoneElsesMetric() {
        assertThat(BackendServiceNames.gatewaySeries()).isEqualTo("{__name__=~" + OWN_NAMES + "}");
    }

    @Test
    void theOtherSeries_carryAServiceLabel_andNoneOfTheGatewaysNames() {
        // service!="" is the matcher Prometheus requires to match something: a selector of negative matchers only is refused
        assertThat(BackendServiceNames.otherSeries()).isEqualTo("{service!=\"\",__name__!~" + OWN_NAMES + "}");
    }

    @Test
    void onlyTheLabelTheGatewayNamesServicesIn_isReplaced() {
        assertThat(BackendServiceNames.replace("service")).isTrue();
        assertThat(BackendServiceNames.replace("job")).isFalse();
        assertThat(BackendServiceNames.replace("service_name")).isFalse();
    }
}
