package dev.omcp.core.tools.observability;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FiguresTest {
    @Test
    void valuesKeepFourSignificantDigits() {
        assertThat(Figures.round(0.021994546746676176)).isEqualTo(0.02199);
        assertThat(Figures.round(452.46006451976416)).isEqualTo(452.5);
        assertThat(Figures.round(-1234.56)).isEqualTo(-1235);
        assertThat(Figures.round(1.0)).isEqualTo(1.0);
    }

    @Test
    void largeValuesComeOutExactNotAsFloatingPointNoise() {
        assertThat(Figures.round(732299999.9999999)).isEqualTo(732300000.0);
        assertThat(Double.toString(Figures.round(3.139e9 + 12345))).isEqualTo("3.139E9");
    }

    @Test
    void zeroTinyAndNonFiniteValuesPassThrough() {
        assertThat(Figures.round(0)).isZero();
        assertThat(Figures.round(Double.NaN)).isNaN();
        assertThat(Figures.round(Double.POSITIVE_INFINITY)).isInfinite();
        assertThat(Figures.round(Double.MIN_VALUE)).isEqualTo(Double.MIN_VALUE);
    }

    @Test
    void wholeNumbersAreWrittenWithoutAFraction() {
        assertThat(Figures.number(2729.0).toString()).isEqualTo("2729");
        assertThat(Figures.number(0.5).toString()).isEqualTo("0.5");
    }

    @Test
    void aWholeResultIsRoundedNumberByNumberAndWholeNumbersStayWhole() {
        jakarta.json.JsonValue rounded = Figures.roundAll(dev.omcp.sdk.json.Jsonp.reader(
                "{\"a\":0.09940779077801269,\"b\":[953.2451020743779,{\"c\":5}],\"d\":\"0.123456\",\"e\":true}").readObject());
        assertThat(rounded.toString()).isEqualTo("{\"a\":0.09941,\"b\":[953.2,{\"c\":5}],\"d\":\"0.123456\",\"e\":true}");
    }
}
