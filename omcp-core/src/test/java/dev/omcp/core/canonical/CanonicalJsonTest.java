package dev.omcp.core.canonical;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.json.Json;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CanonicalJsonTest {

    private static JsonValue parse(String json) {
        try (JsonReader reader = Json.createReader(new StringReader(json))) {
            return reader.readValue();
        }
    }

    @Test
    void rfc8785_section_3_2_2_sampleCanonicalizesToThePublishedBytes() {
        String input = """
                {
                  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
                  "string": "\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\"\\/",
                  "literals": [null, true, false]
                }""";
        // RFC 8785 3.2.4: the UTF-8 bytes of the result, in hex.
        String expectedHex = "7b226c69746572616c73223a5b6e756c6c2c747275652c66616c73655d2c226e756d62"
                + "657273223a5b3333333333333333332e333333333333332c31652b33302c342e352c30"
                + "2e3030322c31652d32375d2c22737472696e67223a22e282ac245c75303030665c6e41"
                + "27425c225c5c5c5c5c222f227d";

        byte[] canonical = CanonicalJson.canonicalBytes(parse(input));

        assertThat(HexFormat.of().formatHex(canonical)).isEqualTo(expectedHex);
        assertThat(new String(canonical, StandardCharsets.UTF_8)).isEqualTo(
                "{\"literals\":[null,true,false],\"numbers\":[333333333.3333333,1e+30,4.5,0.002,1e-27],"
                        + "\"string\":\"€$\\u000f\\nA'B\\\"\\\\\\\\\\\"/\"}");
    }

    @Test
    void rfc8785_section_3_2_3_membersSortByUtf16CodeUnitsNotCodePoints() {
        String input = """
                {
                  "\\u20ac": "Euro Sign",
                  "\\r": "Carriage Return",
                  "\\ufb33": "Hebrew Letter Dalet With Dagesh",
                  "1": "One",
                  "\\ud83d\\ude00": "Emoji: Grinning Face",
                  "\\u0080": "Control",
                  "\\u00f6": "Latin Small Letter O With Diaeresis"
                }""";

        String canonical = CanonicalJson.canonicalize(parse(input));

        // U+1F600 (D83D DE00) sorts before U+FB33 although its code point is larger.
        assertThat(canonical).isEqualTo("{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\","
                + "\"\u00f6\":\"Latin Small Letter O With Diaeresis\",\"\u20ac\":\"Euro Sign\","
                + "\"\ud83d\ude00\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = ' ', value = {
        // RFC 8785 Appendix B
        "0000000000000000 0",
        "8000000000000000 0",
        "0000000000000001 5e-324",
        "8000000000000001 -5e-324",
        "7fefffffffffffff 1.7976931348623157e+308",
        "ffefffffffffffff -1.7976931348623157e+308",
        "4340000000000000 9007199254740992",
        "c340000000000000 -9007199254740992",
        "4430000000000000 295147905179352830000",
        "44b52d02c7e14af5 9.999999999999997e+22",
        "44b52d02c7e14af6 1e+23",
        "44b52d02c7e14af7 1.0000000000000001e+23",
        "444b1ae4d6e2ef4e 999999999999999700000",
        "444b1ae4d6e2ef4f 999999999999999900000",
        "444b1ae4d6e2ef50 1e+21",
        "3eb0c6f7a0b5ed8c 9.999999999999997e-7",
        "3eb0c6f7a0b5ed8d 0.000001",
        "41b3de4355555553 333333333.3333332",
        "41b3de4355555554 333333333.33333325",
        "41b3de4355555555 333333333.3333333",
        "41b3de4355555556 333333333.3333334",
        "41b3de4355555557 333333333.33333343",
        "becbf647612f3696 -0.0000033333333333333333",
        "43143ff3c1cb0959 1424953923781206.2",
    })
    void rfc8785_appendixB_numbers(String bits, String expected) {
        assertThat(CanonicalJson.number(Double.longBitsToDouble(Long.parseUnsignedLong(bits, 16)))).isEqualTo(expected);
    }

    @Test
    void numbersMatchEcmaScriptOnACorpusGeneratedByNode() throws Exception {
        // es-numbers.txt: "<IEEE 754 bits> <String(x) in Node 20>" for random doubles of every
        // exponent, powers of ten and their neighbours, subnormals and large integers.
        List<String> mismatches = new ArrayList<>();
        int checked = 0;
        try (InputStream in = getClass().getResourceAsStream("es-numbers.txt");
                BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))) {
            String line;
            while ((line = reader.readLine()) != null) {
                String[] parts = line.split(" ");
                double value = Double.longBitsToDouble(Long.parseUnsignedLong(parts[0], 16));
                String got = CanonicalJson.number(value);
                if (!got.equals(parts[1])) {
                    mismatches.add(parts[0] + ": got " + got + ", ECMAScript " + parts[1]);
                }
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(6000);
        assertThat(mismatches).isEmpty();
    }

    @Test
    void nanAndInfinitiesAreRefused() {
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            assertThatThrownBy(() -> CanonicalJson.number(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("finite");
        }
    }

    @Test
    void aNumberBeyondTheDoubleRangeIsRefused() {
        assertThatThrownBy(() -> CanonicalJson.canonicalize(parse("[1e400]")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void everyControlCharacterIsEscapedAndOnlyThose() {
        StringBuilder controls = new StringBuilder();
        for (char c = 0; c < 0x20; c++) {
            controls.append(c);
        }
        String canonical = CanonicalJson.canonicalize(Json.createValue(controls + "\u007f/\u2028é\"\\"));

        assertThat(canonical).isEqualTo("\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b"
                + "\\f\\r\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019\\u001a"
                + "\\u001b\\u001c\\u001d\\u001e\\u001f\u007f/\u2028é\\\"\\\\\"");
    }

    @Test
    void loneSurrogatesAreRefusedButPairsPass() {
        assertThatThrownBy(() -> CanonicalJson.canonicalize(Json.createValue("a\ud800b")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lone surrogate");
        assertThatThrownBy(() -> CanonicalJson.canonicalize(Json.createValue("\udc00")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CanonicalJson.canonicalize(parse("{\"\\ud800\": 1}")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(CanonicalJson.canonicalize(Json.createValue("\ud83d\ude00"))).isEqualTo("\"😀\"");
    }

    @Test
    void nestedStructuresAreSortedAtEveryLevelAndArraysKeepTheirOrder() {
        String canonical = CanonicalJson.canonicalize(parse(
                "{ \"b\" : [ 3 , {\"z\":1,\"a\":2}, [] , {} ], \"a\" : { \"y\" : null, \"x\" : -0.0 } }"));

        assertThat(canonical).isEqualTo("{\"a\":{\"x\":0,\"y\":null},\"b\":[3,{\"a\":2,\"z\":1},[],{}]}");
    }

    @Test
    void integersWithinTheSafeRangeAreWrittenExactly() {
        assertThat(CanonicalJson.canonicalize(parse("[1, 1.0, 100, 9007199254740991, -42, 1e2, 12345678901234]")))
                .isEqualTo("[1,1,100,9007199254740991,-42,100,12345678901234]");
    }

    @Test
    void canonicalFormIsAFixedPoint() {
        String once = CanonicalJson.canonicalize(parse("{\"s\":\"\\u00e9\\u001F\",\"n\":[0.1,1e-7,123e18]}"));
        assertThat(CanonicalJson.canonicalize(parse(once))).isEqualTo(once);
        assertThat(once).isEqualTo("{\"n\":[0.1,1e-7,123000000000000000000],\"s\":\"é\\u001f\"}");
    }
}
