package dev.omcp.core.redaction;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Secrets in the forms an adversarial review found leaking: escaped, encoded, split, or under a
 * name or scheme the first detectors did not know. Each case names the secret that must be gone.
 */
class RedactorLeaksTest {
    private final Redactor redactor = new Redactor();

    private String redact(String text) {
        return redactor.redactText(text).text();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
        // JSON escaped inside a JSON string: the log line is itself a JSON document quoting another
        "msg=\"{\\\"password\\\":\\\"hunter2 hunter2\\\",\\\"user\\\":\\\"bob\\\"}\" | msg=\"{\\\"password\\\":\\\"[REDACTED:secret]\\\",\\\"user\\\":\\\"bob\\\"}\"",
        "{\\\"api_key\\\": \\\"abcd1234efgh\\\"} | {\\\"api_key\\\": \\\"[REDACTED:secret]\\\"}",
        "body {\\\"client_secret\\\":12345678} | body {\\\"client_secret\\\":[REDACTED:secret]}",
        // URL-encoded separators and at signs (a query string logged encoded)
        "GET /cb?token%3Dabcdef123456secret HTTP/1.1 | GET /cb?token%3D[REDACTED:secret] HTTP/1.1",
        "next=%2Fcb%3Fclient_secret%3As3cr3tValue99%26a%3Db | next=%2Fcb%3Fclient_secret%3A[REDACTED:secret]%26a%3Db",
        "q=email%3Dalice%40example.com%26x%3D1 | q=email%3D[REDACTED:email]%26x%3D1",
        // Authorization with any scheme, or none
        "Authorization: Token abcdef0123456789abcdef | Authorization: Token [REDACTED:secret]",
        "authorization=Digest-Auth s3cr3t-v4lue next | authorization=Digest-Auth [REDACTED:secret] next",
        "Authorization: ghp_abcdefghijklmnopqrstuvwxyz0123456789 | Authorization: [REDACTED:github_token]",
        "Authorization: rawApiKey123456 | Authorization: [REDACTED:secret]",
        "`\"Authorization\": \"Basic dXNlcjpwYXNz d29yZA==\"` | `\"Authorization\": \"Basic [REDACTED:secret]\"`",
        "header {\\\"authorization\\\":\\\"Basic dXNlcjpwYXNzd29yZA==\\\"} | header {\\\"authorization\\\":\\\"Basic [REDACTED:secret]\\\"}",
        // a JWT without its signature part still carries its claims
        "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9 end | jwt [REDACTED:jwt] end",
        // more token families
        "slack xapp-1-A0123456789-1234567890123-abcdef0123456789 | slack [REDACTED:secret]",
        "refresh xoxe-1-My0xLTEyMzQ1Njc4OTAxMi0xMjM0NTY3ODkwMTIz | refresh [REDACTED:secret]",
        "post https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX ok | post https://hooks.slack.com/services/[REDACTED:secret] ok",
        "stripe whsec_abcdefghijklmnopqrstuvwxyz012345 | stripe [REDACTED:secret]",
        "google ya29.a0AfH6SMBx3-abcdefghijklmnopqrstuvwxyz_0123456789 x | google [REDACTED:gcp_key] x",
    })
    void redacts(String input, String expected) {
        assertThat(redact(input)).isEqualTo(expected);
    }

    @Test
    void aLogLineHoldingEscapedJson_isRedactedInsideAJsonLogResult() {
        // the query_logs result is JSON whose line is JSON quoting JSON: after the outer parse the inner quotes are \"
        String inner = "{\"msg\":\"request body {\\\"password\\\":\\\"hunter2 hunter2\\\",\\\"access_token\\\":\\\"tok-9f8e7d\\\"}\"}";
        JsonObject result = Json.createObjectBuilder().add("lines", Json.createArrayBuilder()
                .add(Json.createObjectBuilder().add("line", inner))).build();

        Redactor.JsonRedaction r = redactor.redactJson(result);

        String shown = r.value().asJsonObject().getJsonArray("lines").getJsonObject(0).getString("line");
        assertThat(shown).doesNotContain("hunter2", "tok-9f8e7d")
                .isEqualTo("{\"msg\":\"request body {\\\"password\\\":\\\"[REDACTED:secret]\\\",\\\"access_token\\\":\\\"[REDACTED:secret]\\\"}\"}");
        assertThat(r.counts().of(RedactionCategory.SECRET)).isEqualTo(2);
    }

    @Test
    void keysNamingASecret_redactEveryStringAndNumberUnderThem_arraysAndObjectsIncluded() {
        JsonObject in = Json.createReader(new StringReader("""
                {"password": ["hunter2", "old-hunter1"], "credentials": {"user": "bob", "pass": "s3cret!", "pin": 1234, "ok": true},
                 "api_keys": [{"id": "k1", "value": "abc"}], "labels": {"pod": "api-1"}}
                """)).readObject();

        Redactor.JsonRedaction r = redactor.redactJson(in);

        String out = r.value().toString();
        assertThat(out).doesNotContain("hunter2", "old-hunter1", "bob", "s3cret!", "1234", "k1", "\"abc\"");
        JsonObject o = r.value().asJsonObject();
        assertThat(o.getJsonArray("password").getString(1)).isEqualTo("[REDACTED:secret]");
        assertThat(o.getJsonObject("credentials").getString("pass")).isEqualTo("[REDACTED:secret]");
        assertThat(o.getJsonObject("credentials").getBoolean("ok")).isTrue();
        assertThat(o.getJsonObject("labels").getString("pod")).as("outside a secret key nothing changes").isEqualTo("api-1");
        assertThat(r.counts().of(RedactionCategory.SECRET)).isEqualTo(7);
    }

    @Test
    void aPrivateKeyLoggedOneLinePerEntry_hasEachBodyLineRedacted() {
        // a multi-line value logged line by line: the BEGIN line is one entry, each 64 (PEM) or 70 (OpenSSH) base64 line another
        String pem = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj";
        String openSsh = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAABlwAAAAdzc2gtcn";
        assertThat(pem).hasSize(64);
        assertThat(openSsh).hasSize(70);
        JsonObject result = Json.createObjectBuilder().add("lines", Json.createArrayBuilder()
                .add("-----BEGIN PRIVATE KEY-----").add(pem).add("  " + openSsh + "  ").add("-----END PRIVATE KEY-----")).build();

        Redactor.JsonRedaction r = redactor.redactJson(result);

        assertThat(r.value().toString()).doesNotContain(pem.substring(8, 40), openSsh.substring(8, 40));
        assertThat(r.counts().of(RedactionCategory.PRIVATE_KEY)).isEqualTo(3);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "prompt_tokens=1234 completion_tokens: 56 max_tokens=4096 token_count=7",
        "sha256=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        "path=/h/UserName/Projects/SomeProject/src/main/java/com/Example/A1/M2",
        "class AbstractSingletonProxyFactoryBeanWithAnExtraordinarilyLongNameXY",
        "pod payments-7d9f8b6c5d-x2x7q on ip-10-0-12-34.ec2.internal image nginx:1.25.3 version=v2.14.0-rc.1+build.5",
        "100%40 of quota; 50% done",
        // the name of a scheme alone is no credential (a filter for such lines must not be refused as hiding one)
        "Authorization: Basic",
        "\"Authorization\": \"Bearer\"",
    })
    void lookAlikesOfTheNewDetectors_survive(String input) {
        assertThat(redact(input)).isEqualTo(input);
    }

    /**
     * Case-insensitive anchors ({@code bearer}, {@code accountkey=}, {@code authorization}) written
     * in one case only: each occurrence used to rescan the rest of the text for the other case, so
     * 1 MB of them took 5-11 s. A bound, not a measurement: linear is well under a second here.
     */
    @ParameterizedTest
    @ValueSource(strings = {"Bearer ", "bearer ", "Bearer%20", "AccountKey=", "authorization: ", "Authorization: Basic ", "%40", "a%40",
        "%3D", "token%3D", "password\\\":\\\"", "eyJabcdefgh.", "xapp-", "whsec_", "ya29.", "hooks.slack.com/"})
    void oneMegabyteOfAnAnchor_staysLinear(String unit) {
        String hostile = unit.repeat(1_000_000 / unit.length());
        redactor.redactText(hostile); // warm-up
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 2; i++) {
            long t0 = System.nanoTime();
            redactor.redactText(hostile);
            best = Math.min(best, System.nanoTime() - t0);
        }
        assertThat(best / 1_000_000).as("ms for 1 MB of '%s'", unit).isLessThan(3_000);
    }
}
