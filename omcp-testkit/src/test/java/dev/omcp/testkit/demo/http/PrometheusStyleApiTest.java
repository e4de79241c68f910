package dev.omcp.testkit.demo.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class PrometheusStyleApiTest {

    @Test
    void aSuccess_wrapsTheDataInTheEnvelopeBothApisShare() {
        assertThat(PrometheusStyleApi.success("[\"a\"]")).isEqualTo("{\"status\":\"success\",\"data\":[\"a\"]}");
    }

    @Test
    void sampleTimes_areWholeSeconds_withAFractionOnlyWhenThereIsOne() {
        assertThat(PrometheusStyleApi.unixSeconds(1_700_000_000_000L)).isEqualTo("1700000000");
        assertThat(new BigDecimal(PrometheusStyleApi.unixSeconds(1_700_000_000_250L))).isEqualByComparingTo("1700000000.25");
    }
}
