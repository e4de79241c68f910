package dev.omcp.adapters.storage.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** AWS's published SigV4 test suite (2015-08-30 vectors) and the S3 documentation's worked examples. */
class SigV4SignerTest {
    private static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

    // aws-sig-v4-test-suite credentials and time
    private static final SigV4Signer SUITE = new SigV4Signer("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
            "us-east-1", "service");
    private static final Instant SUITE_TIME = Instant.parse("2015-08-30T12:36:00Z");

    // S3 documentation (sig-v4-header-based-auth) credentials and time
    private static final SigV4Signer S3_DOCS = new SigV4Signer("AKIAIOSFODNN7EXAMPLE",
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "us-east-1", "s3");
    private static final Instant S3_TIME = Instant.parse("2013-05-24T00:00:00Z");

    private static Map<String, String> suiteHeaders() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Host", "example.amazonaws.com");
        headers.put("X-Amz-Date", "20150830T123600Z");
        return headers;
    }

    @Test
    void suite_getVanilla() {
        SigV4Signer.Signature s = SUITE.sign("GET", "/", "", suiteHeaders(), EMPTY_SHA256, SUITE_TIME);

        assertThat(s.canonicalRequest()).isEqualTo("GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\n"
                + "host;x-amz-date\n" + EMPTY_SHA256);
        assertThat(s.stringToSign()).isEqualTo("AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\n"
                + "bb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63");
        assertThat(s.authorization()).isEqualTo("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request,"
                + " SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
    }

    @Test
    void suite_getVanillaQueryOrderKeyCase() {
        Map<String, String> query = new LinkedHashMap<>();
        query.put("Param2", "value2");
        query.put("Param1", "value1");
        String canonicalQuery = SigV4Signer.canonicalQuery(query);

        SigV4Signer.Signature s = SUITE.sign("GET", "/", canonicalQuery, suiteHeaders(), EMPTY_SHA256, SUITE_TIME);

        assertThat(canonicalQuery).isEqualTo("Param1=value1&Param2=value2");
        assertThat(s.signature()).isEqualTo("b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500");
    }

    @Test
    void suite_postVanilla() {
        assertThat(SUITE.sign("POST", "/", "", suiteHeaders(), EMPTY_SHA256, SUITE_TIME).signature())
                .isEqualTo("5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b");
    }

    @Test
    void suite_getUtf8() {
        String path = SigV4Signer.encodePath("/\u1234");
        assertThat(path).isEqualTo("/%E1%88%B4");
        assertThat(SUITE.sign("GET", path, "", suiteHeaders(), EMPTY_SHA256, SUITE_TIME).signature())
                .isEqualTo("8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85");
    }

    @Test
    void s3Docs_getObjectWithRange() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Host", "examplebucket.s3.amazonaws.com");
        headers.put("Range", "bytes=0-9");
        headers.put("x-amz-content-sha256", EMPTY_SHA256);
        headers.put("x-amz-date", "20130524T000000Z");

        SigV4Signer.Signature s = S3_DOCS.sign("GET", "/test.txt", "", headers, EMPTY_SHA256, S3_TIME);

        assertThat(s.stringToSign()).endsWith("\n7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
        assertThat(s.signedHeaders()).isEqualTo("host;range;x-amz-content-sha256;x-amz-date");
        assertThat(s.signature()).isEqualTo("f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
    }

    @Test
    void s3Docs_putObject() {
        String body = "Welcome to Amazon S3.";
        String payloadHash = SigV4Signer.sha256Hex(body.getBytes(StandardCharsets.UTF_8));
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Date", "Fri, 24 May 2013 00:00:00 GMT");
        headers.put("Host", "examplebucket.s3.amazonaws.com");
        headers.put("x-amz-content-sha256", payloadHash);
        headers.put("x-amz-date", "20130524T000000Z");
        headers.put("x-amz-storage-class", "REDUCED_REDUNDANCY");

        SigV4Signer.Signature s = S3_DOCS.sign("PUT", SigV4Signer.encodePath("/test$file.text"), "", headers, payloadHash, S3_TIME);

        assertThat(payloadHash).isEqualTo("44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
        assertThat(s.canonicalRequest()).startsWith("PUT\n/test%24file.text\n\n");
        assertThat(s.stringToSign()).endsWith("\n9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d");
        assertThat(s.signature()).isEqualTo("98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
    }

    @Test
    void s3Docs_listObjectsWithQuery() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Host", "examplebucket.s3.amazonaws.com");
        headers.put("x-amz-content-sha256", EMPTY_SHA256);
        headers.put("x-amz-date", "20130524T000000Z");
        Map<String, String> query = new LinkedHashMap<>();
        query.put("prefix", "J");
        query.put("max-keys", "2");

        assertThat(S3_DOCS.sign("GET", "/", SigV4Signer.canonicalQuery(query), headers, EMPTY_SHA256, S3_TIME).signature())
                .isEqualTo("34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
    }

    @Test
    void uriEncodingFollowsRfc3986UnreservedCharacters() {
        assertThat(SigV4Signer.uriEncode("a b+c%/ключ~_.-", false)).isEqualTo("a%20b%2Bc%25%2F%D0%BA%D0%BB%D1%8E%D1%87~_.-");
        assertThat(SigV4Signer.encodePath("/bucket/2025/01/31/x y.jsonl")).isEqualTo("/bucket/2025/01/31/x%20y.jsonl");
    }

    @Test
    void hostAndDateMustBeSigned() {
        assertThatThrownBy(() -> SUITE.sign("GET", "/", "", Map.of("host", "h"), EMPTY_SHA256, SUITE_TIME))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theSecretNeverAppearsInTheSignersText() {
        assertThat(SUITE.toString()).doesNotContain("wJalr");
        assertThat(new S3Delivery.Target(java.net.URI.create("http://127.0.0.1:1"), "audit-b", "p/", "r", "id", "s3cr3t").toString())
                .doesNotContain("s3cr3t");
    }
}
