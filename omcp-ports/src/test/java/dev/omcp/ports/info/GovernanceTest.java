package dev.omcp.ports.info;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class GovernanceTest {

    @Test
    void missingAuthMode_isRefusedWhenTheBlockIsBuilt_notServedAsNull() {
        // spec 2.10: authMode is a string; an embedder's supplier that leaves it out would otherwise put
        // "authMode": null into the public /api/info answer
        assertThatNullPointerException()
                .isThrownBy(() -> new Governance(null, false, false, false, false, false, null, false, 0))
                .withMessageContaining("authMode");
    }

    @Test
    void negativeTracesCapabilityCount_isRefused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new Governance("anonymous", false, false, false, false, false, null, false, -1))
                .withMessageContaining("tracesCapabilityCount");
    }

    @Test
    void toolRateOfZeroOrLess_isRefused_nullMeansDisabled() {
        // spec 8: a rate is a positive number of requests a minute; a disabled limit is reported as null
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new Governance("basic", false, false, false, false, false, 0, false, 0))
                .withMessageContaining("toolRatePerMin");
        assertThat(new Governance("basic", false, false, false, false, false, null, false, 0).toolRatePerMin()).isNull();
        assertThat(new Governance("oidc", true, true, true, true, true, 60, true, 2).toolRatePerMin()).isEqualTo(60);
    }
}
