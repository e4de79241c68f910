package dev.omcp.core.redaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The forms a sixth review found shown: Authorization schemes whose credential is a list of parameters (Digest,
 * AWS SigV4), secrets in XML elements and in Ruby / Perl / PHP hashes, a secret name or an Authorization header in
 * URL-encoded text, and the signature of a presigned URL.
 */
class RedactorSchemesAndMarkupTest {
    private final Redactor redactor = new Redactor();

    private String redact(String text) {
        return redactor.redactText(text).text();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        // the response hash of a Digest credential can be guessed offline: all its parameters go, the scheme stays
        "`Authorization: Digest username=\"alice\", realm=\"x\", nonce=\"dcd98b7102dd2f0e8b11d0f6\", uri=\"/\", "
                + "response=\"6629fae49393a05397450978507c4ef1\" took 3 ms` | `Authorization: Digest [REDACTED:secret] took 3 ms`",
        "`Proxy-Authorization: Digest username=alice, qop=auth, nc=00000001, response=\"6629fae4\"` "
                + "| `Proxy-Authorization: Digest [REDACTED:secret]`",
        "`curl -H 'Authorization: Digest username=\"alice\", response=\"6629fae4\"' http://x` "
                + "| `curl -H 'Authorization: Digest [REDACTED:secret]' http://x`",
        "`authorization=Digest username=\"a,b\", response=\"66\\\"29\", next=1` | `authorization=Digest [REDACTED:secret]`",
        "`Authorization: AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host;range;x-amz-date, Signature=fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024` "
                + "| `Authorization: AWS4-HMAC-SHA256 [REDACTED:secret]`",
        // token68 credentials, with their padding, are one word as before
        "Authorization: Basic dXNlcjpwYXNzd29yZA== next | Authorization: Basic [REDACTED:secret] next",
        "Authorization: Negotiate YIIabc= next | Authorization: Negotiate [REDACTED:secret] next",
    })
    void aCredentialOfParameters_isHiddenWhole_theSchemeKept(String input, String expected) {
        assertThat(redact(input)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "Authorization: Digest username=\"alice\", response=\"6629fae49393a05397450978507c4ef1\"",
        "Authorization: Digest username=\"alice@example.com\", uri=\"/x?token=abc\", response=\"6629fae4\"",
        "Authorization: AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host, Signature=fe5f80f77d5fa3beca038a248ff027d0445342fe2855ddc963176630326f1024",
        // quoted, as a JSON member
        "{\"Authorization\": \"AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                + "SignedHeaders=host, Signature=fe5f80f7\"}",
        "{\"authorization\": \"Digest username=\\\"alice@example.com\\\", response=\\\"6629fae4\\\"\"}"})
    void aCredentialOfParameters_isCountedOnce(String input) {
        Redactor.TextRedaction r = redactor.redactText(input);
        assertThat(r.counts().total()).isEqualTo(1);
        assertThat(r.counts().of(RedactionCategory.SECRET)).isEqualTo(1);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "<password>hunter2</password> | <password>[REDACTED:secret]</password>",
        "`<user><name>bob</name><db_password>pa ss</db_password></user>` "
                + "| `<user><name>bob</name><db_password>[REDACTED:secret]</db_password></user>`",
        "<secret>s3cr3t</secret><apiKey>k123456</apiKey> | <secret>[REDACTED:secret]</secret><apiKey>[REDACTED:secret]</apiKey>",
        "`<token type=\"opaque\">t0k3n</token>` | `<token type=\"opaque\">[REDACTED:secret]</token>`",
        "<wsse:Password>hunter2</wsse:Password> | <wsse:Password>[REDACTED:secret]</wsse:Password>",
        "<Password><![CDATA[hun<ter2]]></Password> | <Password><![CDATA[[REDACTED:secret]]]></Password>",
        // cut off before its closing tag: hidden to the end of the text
        "body <password>hunter2 and more | body <password>[REDACTED:secret]",
    })
    void xmlElementsNamingASecret_haveTheirTextHidden(String input, String expected) {
        assertThat(redact(input)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "`{\"password\"=>\"hunter2\", :user=>\"bob\"}` | `{\"password\"=>\"[REDACTED:secret]\", :user=>\"bob\"}`",
        "`{:password => \"hunter2\", 'api_key' => 'abc123'}` | `{:password => \"[REDACTED:secret]\", 'api_key' => '[REDACTED:secret]'}`",
        "`my %h = (password => 'hunter2');` | `my %h = (password => '[REDACTED:secret]');`",
        "`$cfg = ['db_pass' => 's3cr3t', 'host' => 'db'];` | `$cfg = ['db_pass' => '[REDACTED:secret]', 'host' => 'db'];`",
        "`{\"secrets\"=>[\"a1\", \"b2\"]}` | `{\"secrets\"=>[[REDACTED:secret]]}`",
    })
    void rubyPerlAndPhpHashes_haveTheirSecretValuesHidden(String input, String expected) {
        assertThat(redact(input)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        // a whole header URL-encoded into a query parameter: the token after the encoded space
        "q=Authorization%3A%20Bearer%20abcdefghijklmnop1234&x=1 | q=Authorization%3A%20Bearer%20[REDACTED:bearer_token]&x=1",
        "q=Authorization%253A%2520Bearer%2520abcdefghijklmnop1234 | q=Authorization%253A%2520Bearer%2520[REDACTED:bearer_token]",
        "q=x%20Bearer%20abcd%2Befgh%2F1234%3D%3D&x=1 | q=x%20Bearer%20[REDACTED:bearer_token]&x=1",
        "q=Authorization%3A%20Basic%20dXNlcjpwYXNzd29yZA%3D%3D&x=1 | q=Authorization%3A%20Basic%20[REDACTED:secret]&x=1",
        "q=authorization%3Dabcdefgh1234 | q=authorization%3D[REDACTED:secret]",
        // a letter of the name URL-encoded
        "GET /x?pass%77ord=hunter2&x=1 HTTP/1.1 | GET /x?pass%77ord=[REDACTED:secret]&x=1 HTTP/1.1",
        "GET /x?a=1%26%70assword%3Dhunter2 HTTP/1.1 | GET /x?a=1%26%70assword%3D[REDACTED:secret] HTTP/1.1",
        "GET /x?api%5Fkey%253Dabc123 HTTP/1.1 | GET /x?api%5Fkey%253D[REDACTED:secret] HTTP/1.1",
    })
    void urlEncodedNamesAndHeaders_haveTheirSecretsHidden(String input, String expected) {
        assertThat(redact(input)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        "GET /b/o?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"
                + "&X-Amz-Date=20130524T000000Z&X-Amz-SignedHeaders=host"
                + "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404 HTTP/1.1 | "
                + "GET /b/o?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=[REDACTED:aws_key]%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"
                + "&X-Amz-Date=20130524T000000Z&X-Amz-SignedHeaders=host&X-Amz-Signature=[REDACTED:secret] HTTP/1.1",
        "u=https%3A%2F%2Fb.s3.amazonaws.com%2Fo%3FX-Amz-Signature%3Daeeed9bbccd4%26x%3D1 | "
                + "u=https%3A%2F%2Fb.s3.amazonaws.com%2Fo%3FX-Amz-Signature%3D[REDACTED:secret]%26x%3D1",
        "https://storage.googleapis.com/b/o?X-Goog-Date=20260101T000000Z&X-Goog-Signature=0123abcd0123abcd0123abcd | "
                + "https://storage.googleapis.com/b/o?X-Goog-Date=20260101T000000Z&X-Goog-Signature=[REDACTED:secret]",
        "https://d1.cloudfront.net/i.jpg?Expires=1700000000&Signature=nitfHRCrtziwO2HwPfWw~yYDhUF5E-j19DzZrvDh6hQ73lDx~&Key-Pair-Id=K2JC | "
                + "https://d1.cloudfront.net/i.jpg?Expires=1700000000&Signature=[REDACTED:secret]&Key-Pair-Id=K2JC",
        // Azure SAS: its sig= was hidden already, and stays so
        "https://a.blob.core.windows.net/c/b?sv=2022-11-02&se=2026-01-01T00%3A00%3A00Z&sp=r&sig=AbCdEf0123456789AbCdEf%2B%2F%3D | "
                + "https://a.blob.core.windows.net/c/b?sv=2022-11-02&se=2026-01-01T00%3A00%3A00Z&sp=r&sig=[REDACTED:azure_key]",
        "`{\"signature\": \"MEUCIQDx\"}` | `{\"signature\": \"[REDACTED:secret]\"}`",
    })
    void theSignatureOfASignedUrl_isHidden(String input, String expected) {
        assertThat(redact(input)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // a scheme alone, a challenge (no credential), and token68 after a scheme
        "Authorization: Digest",
        "WWW-Authenticate: Digest realm=\"x\", qop=\"auth\", nonce=\"dcd98b71\"",
        // elements whose names are no secret, or only contain a secret name's letters in another order
        "<user><name>bob</name><author>Tolkien</author><bypass>true</bypass><session_count>3</session_count></user>",
        "<password/> <token /> <password></password>",
        // a placeholder in a usage line, and a status
        "usage: tool -u <user> -p <password> [options]",
        "usage: tool -p <password> <database>",
        "<session>expired</session>",
        "if (a<b && password_len>8) return;",
        // a hash rocket after a name that is no secret, and comparisons
        "{:user => \"bob\", \"role\"=>\"admin\"} x >= 3 y <= 4",
        // signature names that are no signature
        "signature_algorithm=RS256 signatureVersion=4 X-Amz-SignedHeaders=host signatures=3",
        "signature: invalid",
        // URL-encoded text without a secret name
        "GET /x?q=pass%20word%3Dfoo&b=by%70ass%3Dtrue HTTP/1.1",
        "q=x%20Bearer%20abc&y=1",
    })
    void lookAlikes_survive(String input) {
        assertThat(redact(input)).isEqualTo(input);
    }

    /**
     * 4 MB of each new anchor: a scan that restarted at every occurrence, or read every parameter list, element or
     * encoded character again from each one, would take hours here; a linear one takes well under a second.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "Authorization: Digest a=\"", "Authorization: Digest a=b, ", "Authorization: Digest a=\"x\", ", "authorization=Digest ",
        "Authorization: Digest a=\"\\\"", "a=b, ", "<password>", "<password ", "<password", "<", "<p", "<password><![CDATA[",
        "</password>", "\"password\"=>", ":password => ", "=>", "password=>[", "pass%77ord=", "%77", "p%61ss", "%61",
        "%3A%20Bearer%20", "%20Bearer%20", "%2520bearer%2520", "Bearer%20a%2B", "Authorization%3A%20", "Authorization%3A%20Basic%20",
        "X-Amz-Signature=", "&Signature=", "sig="})
    void fourMegabytesOfANewAnchor_stayLinear(String unit) {
        String hostile = unit.repeat(4_000_000 / unit.length());
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> redactor.redactText(hostile));
    }
}
