package dev.omcp.adapters.http.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class QueryStringTest {

    private static Map<String, List<String>> decoded(String raw) {
        QueryString.Decoded decoded = QueryString.decode(raw);
        assertThat(decoded).as(raw).isInstanceOf(QueryString.Parameters.class);
        return ((QueryString.Parameters) decoded).values();
    }

    private static String problem(String raw) {
        QueryString.Decoded decoded = QueryString.decode(raw);
        assertThat(decoded).as(raw).isInstanceOf(QueryString.Invalid.class);
        return ((QueryString.Invalid) decoded).problem();
    }

    @Test
    void noQueryString_andAnEmptyOne_haveNoParameters() {
        assertThat(decoded(null)).isEmpty();
        assertThat(decoded("")).isEmpty();
        assertThat(decoded("&&&")).isEmpty();
    }

    @Test
    void parametersKeepTheOrderGiven_andARepeatedNameKeepsEveryValueInOrder() {
        Map<String, List<String>> values = decoded("b=2&a=1&b=3&c=4&b=2");
        assertThat(values.keySet()).containsExactly("b", "a", "c");
        assertThat(values.get("b")).containsExactly("2", "3", "2");
        assertThat(values.get("a")).containsExactly("1");
    }

    @Test
    void aNameSpelledWithEscapes_isTheSameParameterAsSpelledPlainly() {
        // a route's check of unknown parameters and its reading of them must see one name, however it is spelled
        assertThat(decoded("actor=a&%61ctor=b&act%6Fr=c")).containsExactly(Map.entry("actor", List.of("a", "b", "c")));
    }

    @Test
    void aParameterWithoutEqualsSign_orWithNothingAfterIt_hasOneEmptyValue() {
        Map<String, List<String>> values = decoded("dryRun&force=&x=1");
        assertThat(values.get("dryRun")).containsExactly("");
        assertThat(values.get("force")).containsExactly("");
        assertThat(values.get("x")).containsExactly("1");
    }

    @Test
    void onlyTheFirstEqualsSignSeparatesNameFromValue() {
        assertThat(decoded("filter=a=b==c")).containsExactly(Map.entry("filter", List.of("a=b==c")));
    }

    @Test
    void emptyPairsBetweenAmpersands_areSkipped() {
        assertThat(decoded("&a=1&&b=2&")).containsExactly(Map.entry("a", List.of("1")), Map.entry("b", List.of("2")));
    }

    @Test
    void plusIsASpace_andAnEscapedPlusIsAPlus_inNamesAndValuesAlike() {
        Map<String, List<String>> values = decoded("q=a+b%2Bc+&x+y=1&%2B=plus");
        assertThat(values.get("q")).containsExactly("a b+c ");
        assertThat(values.get("x y")).containsExactly("1");
        assertThat(values.get("+")).containsExactly("plus");
    }

    @Test
    void percentEscapes_decodeAsUtf8_inEitherCase_andEscapedSeparatorsAreText() {
        Map<String, List<String>> values = decoded("name=Jos%C3%A9&emoji=%f0%9f%98%80&sep=%26%3D%25%23&slash=a%2Fb");
        assertThat(values.get("name")).containsExactly("Jos\u00e9");
        assertThat(values.get("emoji")).containsExactly("\ud83d\ude00");
        assertThat(values.get("sep")).containsExactly("&=%#");
        assertThat(values.get("slash")).containsExactly("a/b");
    }

    @Test
    void charactersSentUnescaped_standForThemselves_evenOutsideAscii() {
        // a client may send a raw UTF-8 query string; the server hands it over as characters
        assertThat(decoded("name=Jos\u00e9&face=\ud83d\ude00&mixed=%C3%A9\u00e9"))
                .containsExactly(Map.entry("name", List.of("Jos\u00e9")), Map.entry("face", List.of("\ud83d\ude00")),
                        Map.entry("mixed", List.of("\u00e9\u00e9")));
    }

    @Test
    void aPercentSignNotFollowedByTwoHexDigits_isRefused_andNamesTheParameter() {
        for (String raw : List.of("actor=a%ZZ", "actor=a%", "actor=a%4", "actor=%G1", "actor=%1G", "actor=a%%41", "actor=%-1",
                "actor=%+1")) {
            assertThat(problem(raw)).as(raw).startsWith("the query parameter 'actor' is not valid percent-encoded UTF-8")
                    .contains("encode it again, or leave it out");
        }
    }

    @Test
    void anInvalidEscapeInAName_isRefused_notDropped() {
        // Javalin's own reading dropped the parameter: ?dryRun%ZZ=true passed the check of unknown parameters
        assertThat(problem("dryRun%ZZ=true")).startsWith("the query parameter 'dryRun%ZZ' is not valid");
        assertThat(problem("ok=1&%=2")).startsWith("the query parameter '%' is not valid");
    }

    @Test
    void hexDigitsAreAsciiOnly_notTheFullwidthOrOtherDigitsJavaAlsoReads() {
        // Character.digit reads U+FF11 as 1 and U+0661 as 1
        assertThat(problem("a=%\uff11\uff11")).startsWith("the query parameter 'a' is not valid");
        assertThat(problem("a=%\u0661\u0661")).startsWith("the query parameter 'a' is not valid");
        assertThat(problem("a=%\uff21\uff21")).startsWith("the query parameter 'a' is not valid");
    }

    @Test
    void bytesThatAreNotUtf8_areRefused_neverReplacedByAReplacementCharacter() {
        for (String raw : List.of(
                "a=%FF",            // never a UTF-8 byte
                "a=%C3",            // a lead byte without its continuation
                "a=%A9",            // a continuation byte alone
                "a=%C0%AF",         // an overlong '/', the classic path-traversal spelling
                "a=%C0%80",         // an overlong NUL
                "a=%E0%80%AF",      // an overlong '/' in three bytes
                "a=%ED%A0%80",      // a UTF-16 surrogate encoded as UTF-8 (CESU-8)
                "a=%F4%90%80%80",   // past U+10FFFF
                "a=%C3%A9%C3",      // valid, then cut short
                "a=%C3\u00e9")) {   // an escaped lead byte followed by a character sent unescaped
            assertThat(problem(raw)).as(raw).startsWith("the query parameter 'a' is not valid percent-encoded UTF-8");
        }
    }

    @Test
    void aReplacementCharacterSentUnescaped_isRefused_forJettyPutsItWhereRawBytesAreNotUtf8() {
        // QueryStringIT: a raw ISO-8859-1 'é' (byte E9) reaches the route as U+FFFD
        for (String raw : List.of("name=Jos\ufffd", "name=\ufffd&x=1", "x=1&na\ufffdme=2")) {
            assertThat(problem(raw)).as(raw).containsPattern("^the query parameter '(name|na\\?me)' holds bytes that are not UTF-8")
                    .contains("percent-encode its UTF-8 bytes (U+FFFD is %EF%BF%BD)");
        }
        assertThat(decoded("name=%EF%BF%BD").get("name")).as("escaped, it is the character").containsExactly("\ufffd");
    }

    @Test
    void anEmptyName_isRefused_sayingSo_withoutQuotingTheValue() {
        for (String raw : List.of("=x", "a=1&=secret", "=", "=%ZZ", "=\ufffd")) {
            assertThat(problem(raw)).as(raw).startsWith("a query parameter has an empty name").doesNotContain("''", "secret");
        }
    }

    @Test
    void aLoneSurrogateSentUnescaped_isRefused() {
        assertThat(problem("a=x\ud83d")).startsWith("the query parameter 'a'");
        assertThat(problem("a=\ude00x")).startsWith("the query parameter 'a'");
        assertThat(problem("a=\ude00\ud83d")).startsWith("the query parameter 'a'");
    }

    @Test
    void escapesOfControlCharacters_decodeToThem_forTheRouteToJudge() {
        // the query string is decoded faithfully; each route validates its own values (and quotes them printably)
        assertThat(decoded("a=%00%0A%0D%1B").get("a")).containsExactly("\0\n\r\u001b");
    }

    @Test
    void theFirstUndecodablePair_isTheOneNamed_andEveryPairBeforeItDecodedFine() {
        assertThat(problem("a=1&b=%ZZ&c=%YY")).startsWith("the query parameter 'b'");
    }

    @Test
    void aRefusalQuotesTheNameOnly_neverTheValue_whichMayBeASecret() {
        // OIDC's callback carries the authorization code; a broken escape in it must not be echoed
        String problem = problem("code=SplxlOBeZQQYbYS6WxSbIA%Z&state=x");
        assertThat(problem).startsWith("the query parameter 'code'").doesNotContain("SplxlOBeZQQYbYS6WxSbIA");
    }

    @Test
    void aRefusalQuotesAHostileNamePrintablyAndShort() {
        String name = "evil\u202e%ZZ\u001b[2J" + "n".repeat(10_000);
        String problem = problem(name + "=1");
        assertThat(problem).doesNotContain("\u202e", "\u001b").contains("'evil?%ZZ?[2Jnnn").hasSizeLessThan(400);
    }

    @Test
    void theParametersCannotBeChangedByTheRoutesThatReadThem() {
        Map<String, List<String>> values = decoded("a=1&a=2");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> values.put("b", List.of("1")))
                .isInstanceOf(UnsupportedOperationException.class);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> values.get("a").add("3"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aQueryStringAsLongAsTheServerAccepts_ofTinyOrRepeatedParameters_decodesInLinearTime() {
        // Jetty accepts a request line of up to 8 KiB; decoding must not grow faster than the text
        String manyNames = "a=1&".repeat(200_000);
        String manyValues = "%41%42%43".repeat(200_000);
        long started = System.nanoTime();
        assertThat(decoded(manyNames).get("a")).hasSize(200_000);
        assertThat(decoded("x=" + manyValues).get("x").getFirst()).hasSize(600_000);
        assertThat(decoded("&".repeat(500_000))).isEmpty();
        // generous: a quadratic decoder takes minutes here, a linear one well under a second
        assertThat(java.time.Duration.ofNanos(System.nanoTime() - started)).isLessThan(java.time.Duration.ofSeconds(20));
    }
}
