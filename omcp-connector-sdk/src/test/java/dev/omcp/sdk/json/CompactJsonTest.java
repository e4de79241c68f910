package dev.omcp.sdk.json;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** CompactJson writes exactly what Parsson's {@code toString()} writes, character for character. */
class CompactJsonTest {

    @Test
    void everyCharacterOfTheBasicPlaneIsEscapedAsParssonEscapesIt() {
        for (int c = 0; c <= 0xFFFF; c++) {
            String text = "a" + (char) c + "b";
            JsonValue value = Jsonp.value(text);
            assertThat(CompactJson.of(value)).as("U+%04X", c).isEqualTo(value.toString());
        }
    }

    @Test
    void surrogatePairsControlRunsAndEmptyStringsMatch() {
        for (String text : new String[] {"", "🚀", "\u0000\u0001\u001f\u007f", "\"\\\"\\\\", "line\nbreak\r\n\ttab", "</script>", "é\u2028\u2029"}) {
            JsonValue value = Jsonp.object().add(text, text).build();
            assertThat(CompactJson.of(value)).isEqualTo(value.toString());
        }
    }

    @Test
    void numbersOfEveryKindAreWrittenAsTheirJsonNumberText() {
        JsonArrayBuilder numbers = Jsonp.array().add(0).add(-1).add(Long.MAX_VALUE).add(Long.MIN_VALUE).add(0.1).add(-2.5e-12)
                .add(1e300).add(12.0).add(new BigDecimal("123.4500")).add(new BigDecimal("1E+5")).add(new BigInteger("123456789012345678901234567890"))
                .add(Double.MIN_VALUE);
        JsonValue value = numbers.build();
        assertThat(CompactJson.of(value)).isEqualTo(value.toString());
    }

    @Test
    void randomDocumentsMatch() {
        Random random = new Random(20261125);
        for (int i = 0; i < 500; i++) {
            JsonValue value = randomValue(random, 0);
            assertThat(CompactJson.of(value)).isEqualTo(value.toString());
        }
    }

    private static final String JSON_LINE = "{\"ts\": \"x\\n\"}";

    @Test
    void longStrings_andAWholePlaneInOneString_match() {
        Random random = new Random(20261128);
        int[] lengths = {255, 256, 1000, 4097, 70_000};
        for (int length : lengths) {
            for (int mix = 0; mix < 4; mix++) {
                StringBuilder s = new StringBuilder(length);
                for (int i = 0; i < length; i++) {
                    s.append(switch (mix) {
                        case 0 -> (char) (' ' + random.nextInt(95));               // plain ASCII with quotes and backslashes
                        case 1 -> (char) random.nextInt(0x20);                     // every character a six-character escape
                        case 2 -> i % 3 == 0 ? '"' : (char) random.nextInt(0xD800); // non-Latin-1 text with quotes
                        default -> JSON_LINE.charAt(i % JSON_LINE.length());       // JSON inside JSON
                    });
                }
                JsonValue value = Jsonp.value(s.toString());
                assertThat(CompactJson.of(value)).as("length %d, mix %d", length, mix).isEqualTo(value.toString());
            }
        }
        StringBuilder plane = new StringBuilder();
        for (int c = 0; c <= 0xFFFF; c++) {
            plane.append((char) c);
        }
        JsonValue wholePlane = Jsonp.value(plane.toString());
        assertThat(CompactJson.of(wholePlane)).isEqualTo(wholePlane.toString());
    }

    @Test
    void appendAddsToWhatIsThere() {
        StringBuilder out = new StringBuilder("x=");
        CompactJson.append(out, Jsonp.object().add("k", "v").addNull("n").add("t", true).add("f", false).build());
        assertThat(out).hasToString("x={\"k\":\"v\",\"n\":null,\"t\":true,\"f\":false}");
    }

    private static JsonValue randomValue(Random random, int depth) {
        int kind = depth > 4 ? random.nextInt(5) : random.nextInt(7);
        return switch (kind) {
            case 0 -> Jsonp.value(randomString(random));
            case 1 -> random.nextBoolean() ? Jsonp.value(random.nextLong()) : Jsonp.value(random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20));
            case 2 -> random.nextBoolean() ? JsonValue.TRUE : JsonValue.FALSE;
            case 3 -> JsonValue.NULL;
            case 4 -> Jsonp.value(random.nextInt());
            case 5 -> {
                JsonObjectBuilder o = Jsonp.object();
                for (int i = random.nextInt(6); i > 0; i--) {
                    o.add(randomString(random), randomValue(random, depth + 1));
                }
                yield o.build();
            }
            default -> {
                JsonArrayBuilder a = Jsonp.array();
                for (int i = random.nextInt(6); i > 0; i--) {
                    a.add(randomValue(random, depth + 1));
                }
                yield a.build();
            }
        };
    }

    private static String randomString(Random random) {
        StringBuilder s = new StringBuilder();
        for (int i = random.nextInt(40); i > 0; i--) {
            int pick = random.nextInt(10);
            s.append(pick < 6 ? (char) (' ' + random.nextInt(95)) : pick < 8 ? (char) random.nextInt(0x20) : (char) random.nextInt(0xD800));
        }
        return s.toString();
    }
}
