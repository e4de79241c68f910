package dev.omcp.connectors.builtin.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.omcp.sdk.connector.ConnectorException;
import dev.omcp.sdk.connector.ConnectorException.Kind;
import org.junit.jupiter.api.Test;

/** Sample values read exactly as Prometheus and Loki write them (Go's FormatFloat, 'f' or 'e'), and nothing else. */
class SampleValuesTest {

    private static double parse(String text) throws ConnectorException {
        return SampleValues.parse(text, "Prometheus");
    }

    @Test
    void whatGoWritesReadsAsTheNumberItSpells() throws ConnectorException {
        // 'f' below 1e21 and from 1e-6, 'e' beyond, as Prometheus' MarshalValue picks; an upper-case E is a JSON number too
        assertThat(parse("0")).isZero();
        assertThat(parse("-0")).isEqualTo(-0.0);
        assertThat(parse("42")).isEqualTo(42.0);
        assertThat(parse("-3.25")).isEqualTo(-3.25);
        assertThat(parse("0.000001")).isEqualTo(1e-6);
        assertThat(parse("1e-07")).isEqualTo(1e-7);
        assertThat(parse("1.5e+21")).isEqualTo(1.5e21);
        assertThat(parse("-2.5E-3")).isEqualTo(-2.5e-3);
        assertThat(parse("1.7976931348623157e308")).isEqualTo(Double.MAX_VALUE);
        assertThat(parse("123456789012345678901234567890")).isEqualTo(1.2345678901234568e29);
        assertThat(parse("1e-400")).isZero();
        assertThat(parse("NaN")).isNaN();
        assertThat(parse("+Inf")).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(parse("-Inf")).isEqualTo(Double.NEGATIVE_INFINITY);
    }

    @Test
    void aValueInsideALargerBufferIsReadFromItsOwnCharacters() throws ConnectorException {
        char[] buffer = "[1,\"0.25\"],[2,\"+Inf\"]".toCharArray();
        assertThat(SampleValues.parse(buffer, 4, 4, "Prometheus")).isEqualTo(0.25);
        assertThat(SampleValues.parse(buffer, 15, 4, "Prometheus")).isEqualTo(Double.POSITIVE_INFINITY);
    }

    @Test
    void whatOnlyJavaReads_isABadResponse_namingTheSampleValue_andQuotingItOnOneShortLine() {
        for (String spelled : new String[] {"1f", "1d", "0x1p3", " 1", "1\t", "+1", "Inf", "Infinity", "-Infinity", "nan", ".5", "5.",
            "01", "1e", "1_000", "\u0661", "\uff11", ""}) {
            assertThatThrownBy(() -> parse(spelled)).as(spelled).isInstanceOfSatisfying(ConnectorException.class, e -> {
                assertThat(e.kind()).isEqualTo(Kind.BAD_RESPONSE);
                assertThat(e.getMessage()).startsWith("Prometheus answered a sample value that is not a number")
                        .contains("NaN, +Inf or -Inf");
            });
        }
        assertThatThrownBy(() -> parse("\t1\n")).hasMessageContaining("('?1?')");
        assertThatThrownBy(() -> parse("9".repeat(40) + "x")).hasMessageContaining("('" + "9".repeat(32) + "…')");
        assertThatThrownBy(() -> parse("http://user:pw@host/x")).hasMessageContaining("('<url>')").hasMessageNotContaining("pw");
    }

    @Test
    void aNumberBeyondADouble_isOutOfRange_notTheInfinityPrometheusWritesAsPlusInf() {
        for (String far : new String[] {"1e400", "-2.5E+309", "1" + "0".repeat(400)}) {
            assertThatThrownBy(() -> parse(far)).isInstanceOfSatisfying(ConnectorException.class,
                    e -> assertThat(e.getMessage()).contains("sample value out of range"));
        }
    }
}
