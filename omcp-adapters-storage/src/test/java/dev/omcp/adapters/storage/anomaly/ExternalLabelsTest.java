package dev.omcp.adapters.storage.anomaly;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ExternalLabelsTest {
    private static List<String> problems(String text) {
        return ((ExternalLabels.Parsed.Rejected) ExternalLabels.parse(text)).problems();
    }

    @Test
    void nameValuePairs_areReadSortedByName_spacesAroundThemIgnored() {
        ExternalLabels labels = ((ExternalLabels.Parsed.Accepted) ExternalLabels.parse(" replica = b , cluster=eu-west-1 ")).labels();

        assertThat(labels.asList()).containsExactly(Map.entry("cluster", "eu-west-1"), Map.entry("replica", "b"));
        assertThat(labels.toString()).isEqualTo("cluster=eu-west-1,replica=b");
    }

    @Test
    void aValueMayHoldAnEqualsSign_onlyTheFirstSeparatesTheName() {
        ExternalLabels labels = ((ExternalLabels.Parsed.Accepted) ExternalLabels.parse("pod=omcp-0=x")).labels();

        assertThat(labels.asList()).containsExactly(Map.entry("pod", "omcp-0=x"));
    }

    @Test
    void noneAddsNothing() {
        assertThat(ExternalLabels.none().asList()).isEmpty();
        assertThat(ExternalLabels.none().isEmpty()).isTrue();
    }

    @Test
    void everyBadEntry_isReported_sayingWhatIsWrongAndWhatIsAllowed() {
        assertThat(problems("replica")).containsExactly(
                "entry 'replica' is not name=value; write the labels as name=value,name=value, for example replica=omcp-0");
        assertThat(problems("1replica=a,re-gion=b")).containsExactly(
                "label name '1replica' must start with a letter or '_' and hold only letters, digits and '_'",
                "label name 're-gion' must start with a letter or '_' and hold only letters, digits and '_'");
        assertThat(problems("replica=")).containsExactly("label replica has no value; Prometheus drops a label with an empty value, "
                + "so the replicas' series would collide again");
        assertThat(problems("replica=a,replica=b")).containsExactly("label replica is given twice; give each label once");
        assertThat(problems("replica=a,,zone=b")).containsExactly(
                "has an empty entry between commas; write the labels as name=value,name=value");
    }

    @Test
    void theLabelsTheHistorySeriesAlreadyCarry_andReservedNames_areRefused() {
        assertThat(problems("__name__=x,service=a,signal=b,tenant=c,__replica__=d")).containsExactly(
                "label name '__name__' is reserved (names starting with '__' belong to Prometheus); choose another, for example replica",
                "label name 'service' is already written on every anomaly series; choose another, for example replica",
                "label name 'signal' is already written on every anomaly series; choose another, for example replica",
                "label name 'tenant' is already written on every anomaly series; choose another, for example replica",
                "label name '__replica__' is reserved (names starting with '__' belong to Prometheus); choose another, for example "
                        + "replica");
    }

    @Test
    void labelsTheBuiltinConnectorsReadServiceNamesFrom_areRefused_soAReplicasNameIsNeverListedAsAService() {
        assertThat(problems("job=omcp-0,app=omcp,service_name=gw,container=omcp,replica=omcp-0")).containsExactly(
                "label name 'job' is one the builtin connectors read service names from, so on the receiver its value would be "
                        + "listed as a service; choose another, for example replica",
                "label name 'app' is one the builtin connectors read service names from, so on the receiver its value would be "
                        + "listed as a service; choose another, for example replica",
                "label name 'service_name' is one the builtin connectors read service names from, so on the receiver its value "
                        + "would be listed as a service; choose another, for example replica",
                "label name 'container' is one the builtin connectors read service names from, so on the receiver its value "
                        + "would be listed as a service; choose another, for example replica");
    }

    @Test
    void aValueWithAControlCharacter_isRefused() {
        assertThat(problems("replica=a\tb")).containsExactly("label replica has a control character in its value; use printable text");
    }

    @Test
    void theRecordItself_refusesWhatParseRefuses() {
        assertThatThrownBy(() -> ExternalLabels.of(Map.of("service", "x"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("already written on every anomaly series");
    }
}
