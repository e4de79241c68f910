package dev.omcp.core.redaction;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RedactorTest {
    private final Redactor redactor = new Redactor();

    private String redact(String text) {
        return redactor.redactText(text).text();
    }

    @ParameterizedTest(name = "{0} finds {1} at {2} from {3}")
    @CsvSource(delimiter = '|', value = {
        "x BEARER y | bearer | 2 | 0",
        "b be bea BeArEr | bearer | 9 | 0",
        "Bearer and bearer | bearer | 11 | 1",
        "bearer | bearer | 0 | 0",
        "beare | bearer | -1 | 0",
        "BBBBBBBBBBBB | bearer | -1 | 0",
        "accountKEY=1 | accountkey= | 0 | 0",
        "xx basic | basic | -1 | 9",
        "xx basic | basic | 3 | -4",
    })
    void caseInsensitiveSearch_findsTheFirstMatchInAnyCase_fromTheGivenIndex(String text, String needle, int expected, int from) {
        int found = TextRedactor.indexOf(text, needle, from, true);

        assertThat(found).isEqualTo(expected);
        // the plain case-folding answer it must agree with
        assertThat(found).isEqualTo(text.toLowerCase(Locale.ROOT).indexOf(needle, Math.max(from, 0)));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        "mail alice.smith+ops@example.co.uk now | mail [REDACTED:email] now",
        "from 192.168.10.254:8080 | from [REDACTED:ipv4]:8080",
        "peer 2001:db8:85a3::8a2e:370:7334 gone | peer [REDACTED:ipv6] gone",
        "peer [::1]:443 | peer [[REDACTED:ipv6]]:443",
        "link fe80::1ff:fe23:4567:890a%eth0 up | link [REDACTED:ipv6] up",
        "mapped ::ffff:10.1.2.3 | mapped [REDACTED:ipv6]",
        "addr:2001:db8::1 | addr:[REDACTED:ipv6]",
        "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.sig-_abc end | jwt [REDACTED:jwt] end",
        "Authorization: Bearer abcDEF123456ghiJKL | Authorization: Bearer [REDACTED:bearer_token]",
        "key AKIAIOSFODNN7EXAMPLE used | key [REDACTED:aws_key] used",
        "secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY ok | secret [REDACTED:aws_key] ok",
        "gcp AIzaSyA-1234567890abcdefghijklmnopqrstu ok | gcp [REDACTED:gcp_key] ok",
        "AccountKey=Zm9vYmFyYmF6cXV4cXV1eA+/abcDEF==;x | AccountKey=[REDACTED:azure_key];x",
        "git ghp_abcdefghijklmnopqrstuvwxyz0123456789 done | git [REDACTED:github_token] done",
        "gl glpat-abcdefghij0123456789 x | gl [REDACTED:gitlab_token] x",
        "card 4111 1111 1111 1111 ok | card [REDACTED:card_number] ok",
        "card 5500-0000-0000-0004 ok | card [REDACTED:card_number] ok",
        "amex 378282246310005. | amex [REDACTED:card_number].",
        "password=hunter2 user=bob | password=[REDACTED:secret] user=bob",
        "\"client_secret\": \"s3 cr et\" | \"client_secret\": \"[REDACTED:secret]\"",
        "api_key: abc123, next | api_key: [REDACTED:secret], next",
        "postgres://app:s3cret@db:5432/x | postgres://app:[REDACTED:secret]@db:5432/x",
        "slack xoxb-123456789012-abcdefghij | slack [REDACTED:secret]",
    })
    void redacts(String input, String expected) {
        assertThat(redact(input)).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "2025-03-10T10:00:00.123Z level=info took 12ms",
        "trace_id=4bf92f3577b34da6a3ce929d0e0e4736 span_id=00f067aa0ba902b7",
        "request 123e4567-e89b-12d3-a456-426614174000 done",
        "ts=1741600800123 ns=1741600800123456789",
        "version 1.2.3.4.5 and semver 10.2.3",
        "Mar  3 10:00:00 host sshd[42]: session opened",
        "std::vector<int> and Foo::bar and a :: b",
        "mac 00:1a:2b:3c:4d:5e seen",
        "order 4111111111111112 (bad Luhn) and 1234567890123456 (no network)",
        "git sha 3f786850e387550fdab836ed7e6dc881de23001b",
        "reset password link sent",
        "user@localhost is not an address with a domain",
    })
    void leavesLookAlikesAlone(String input) {
        assertThat(redact(input)).isEqualTo(input);
    }

    @Test
    void privateKeyBlock_isRedactedWholeEvenWhenCutOff() {
        String key = "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nAAAA\n-----END RSA PRIVATE KEY-----";
        assertThat(redact("k=" + key + " tail")).isEqualTo("k=[REDACTED:private_key] tail");
        assertThat(redact("k=-----BEGIN PRIVATE KEY-----\\nMIIE...cut")).isEqualTo("k=[REDACTED:private_key]");
        assertThat(redact("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----")).contains("BEGIN CERTIFICATE");
    }

    @Test
    void counts_arePerCategory() {
        Redactor.TextRedaction r = redactor.redactText("a@b.io c@d.io 10.0.0.1 password=x");
        assertThat(r.counts().of(RedactionCategory.EMAIL)).isEqualTo(2);
        assertThat(r.counts().of(RedactionCategory.IPV4)).isEqualTo(1);
        assertThat(r.counts().of(RedactionCategory.SECRET)).isEqualTo(1);
        assertThat(r.counts().total()).isEqualTo(4);
        assertThat(r.counts().toJson().getJsonObject("byCategory").keySet()).containsExactly("email", "ipv4", "secret");
    }

    @Test
    void specificDetectors_winOverTheGenericOneAndNothingIsCountedTwice() {
        Redactor.TextRedaction r = redactor.redactText("token=ghp_abcdefghijklmnopqrstuvwxyz0123456789");
        assertThat(r.text()).isEqualTo("token=[REDACTED:github_token]");
        assertThat(r.counts().total()).isEqualTo(1);
    }

    @Test
    void json_redactsEveryStringKeysIncludedAndKeepsCollidingKeys() {
        JsonObject in = Json.createReader(new StringReader("""
                {"entries": [{"line": "login from 10.1.1.1 by a@b.io", "labels": {"pod": "api-1"}}],
                 "topk": {"10.0.0.1": 5, "10.0.0.2": 3},
                 "n": 42, "ok": true, "nothing": null}
                """)).readObject();
        Redactor.JsonRedaction r = redactor.redactJson(in);
        JsonObject out = r.value().asJsonObject();
        assertThat(out.getJsonArray("entries").getJsonObject(0).getString("line")).isEqualTo("login from [REDACTED:ipv4] by [REDACTED:email]");
        assertThat(out.getJsonObject("topk").keySet()).containsExactly("[REDACTED:ipv4]", "[REDACTED:ipv4] #2");
        assertThat(out.getJsonObject("topk").getInt("[REDACTED:ipv4] #2")).isEqualTo(3);
        assertThat(out.getInt("n")).isEqualTo(42);
        assertThat(out.get("nothing")).isEqualTo(JsonValue.NULL);
        assertThat(r.counts().of(RedactionCategory.IPV4)).isEqualTo(3);
    }

    @Test
    void json_valuesOfSecretNamedKeysAreReplacedWhole_andCardNumbersStoredAsNumbersToo() {
        JsonObject in = Json.createReader(new StringReader(
                "{\"password\": \"correct horse\", \"apiKey\": 12345, \"Authorization\": \"Basic Zm9vOmJhcg==\", \"pan\": 4111111111111111,"
                        + " \"secretEmpty\": \"\"}")).readObject();
        JsonObject out = redactor.redactJson(in).value().asJsonObject();
        assertThat(out.getString("password")).isEqualTo("[REDACTED:secret]");
        assertThat(out.getString("apiKey")).isEqualTo("[REDACTED:secret]");
        assertThat(out.getString("Authorization")).isEqualTo("[REDACTED:secret]");
        assertThat(out.getString("pan")).isEqualTo("[REDACTED:card_number]");
        assertThat(out.getString("secretEmpty")).isEmpty();
    }

    @Test
    void json_untouchedValues_areReturnedAsTheSameInstance() {
        JsonObject in = Json.createObjectBuilder().add("line", "nothing to see").build();
        assertThat(redactor.redactJson(in).value()).isSameAs(in);
    }

    @Test
    void payload_nestedDeeperThanTheReadersRead_isRedactedAsText_notAFailure() {
        for (int depth : new int[] {300, 2000}) {
            String deep = "{\"user\":\"a@b.io\",\"x\":" + "[".repeat(depth) + "]".repeat(depth) + "}";
            Redactor.PayloadRedaction redacted = redactor.redactPayload(deep);
            assertThat(redacted.wasJson()).isFalse();
            assertThat(redacted.text()).startsWith("{\"user\":\"[REDACTED:email]\",\"x\":[[[").doesNotContain("a@b.io");
        }
    }

    @Test
    void payload_thatIsNotJson_isRedactedAsTextFailClosed() {
        Redactor.PayloadRedaction notJson = redactor.redactPayload("{\"line\": \"truncated a@b.io");
        assertThat(notJson.wasJson()).isFalse();
        assertThat(notJson.text()).isEqualTo("{\"line\": \"truncated [REDACTED:email]");
        Redactor.PayloadRedaction twoValues = redactor.redactPayload("{\"level\":\"info\"}\nuser a@b.io logged in");
        assertThat(twoValues.wasJson()).as("JSON followed by more text is not one JSON value").isFalse();
        assertThat(twoValues.text()).isEqualTo("{\"level\":\"info\"}\nuser [REDACTED:email] logged in");
        assertThat(redactor.redactPayload("").wasJson()).isFalse();
        assertThat(redactor.redactPayload("  42  ").text()).isEqualTo("42");
        Redactor.PayloadRedaction json = redactor.redactPayload("[\"a@b.io\"]");
        assertThat(json.wasJson()).isTrue();
        assertThat(json.text()).isEqualTo("[\"[REDACTED:email]\"]");
    }

    @Test
    void corpus_ofOver1000LinesWithPlantedSecretsOfEveryCategory_leaksNone() {
        List<SecretCorpus.Line> lines = new SecretCorpus(20250310L).secretLines(80);
        assertThat(lines).hasSizeGreaterThanOrEqualTo(1000);
        // the secret category's forms are planted in turn: with no more forms than lines per category, each is there
        assertThat(SecretCorpus.SECRET_FORMS.length).as("forms of the secret category, each planted at least once").isLessThanOrEqualTo(80);
        Map<RedactionCategory, Integer> redactedAs = new EnumMap<>(RedactionCategory.class);
        List<String> leaks = new ArrayList<>();
        for (SecretCorpus.Line line : lines) {
            Redactor.TextRedaction r = redactor.redactText(line.text());
            for (String secret : line.planted()) {
                String leak = leakedPart(secret, r.text());
                if (leak != null) {
                    leaks.add(line.category() + " leaked '" + leak + "' in: " + r.text());
                }
            }
            redactedAs.merge(line.category(), r.counts().of(line.category()) > 0 ? 1 : 0, Integer::sum);
        }
        assertThat(leaks).isEmpty();
        // each planted secret was recognised as its own category, not just caught by a generic rule
        redactedAs.forEach((c, n) -> assertThat(n).as("lines whose %s was counted as %s", c, c).isEqualTo(80));
    }

    @Test
    void corpus_asAJsonLogResult_leaksNone() {
        List<SecretCorpus.Line> lines = new SecretCorpus(7L).secretLines(80);
        var entries = Json.createArrayBuilder();
        for (SecretCorpus.Line l : lines) {
            entries.add(Json.createObjectBuilder().add("timestamp", "2025-03-10T10:00:00Z").add("line", l.text())
                    .add("labels", Json.createObjectBuilder().add("service_name", "api")));
        }
        JsonObject out = redactor.redactJson(Json.createObjectBuilder().add("entries", entries).build()).value().asJsonObject();
        for (int i = 0; i < lines.size(); i++) {
            SecretCorpus.Line l = lines.get(i);
            // each entry, serialised: newlines inside keys appear as \n there, so compare the escaped forms too
            String entry = out.getJsonArray("entries").getJsonObject(i).toString();
            for (String secret : l.planted()) {
                String escaped = Json.createValue(secret).toString();
                assertThat(leakedPart(escaped.substring(1, escaped.length() - 1), entry)).as(l.category() + " " + secret).isNull();
                assertThat(leakedPart(secret, entry)).as(l.category() + " " + secret).isNull();
            }
        }
    }

    @Test
    void lookAlikes_uuidsTraceIdsAndTimestamps_survive_falsePositivesUnderOnePercent() {
        List<SecretCorpus.Benign> lines = new SecretCorpus(99L).benignLines(1200);
        int tokens = 0;
        int damaged = 0;
        List<String> examples = new ArrayList<>();
        for (SecretCorpus.Benign line : lines) {
            String out = redact(line.text());
            for (String t : line.tokens()) {
                tokens++;
                if (!out.contains(t)) {
                    damaged++;
                    if (examples.size() < 5) {
                        examples.add(t + " in " + out);
                    }
                }
            }
        }
        double rate = (double) damaged / tokens;
        System.out.printf(Locale.ROOT, "redaction false positives: %d of %d look-alike tokens (%.3f %%)%n", damaged, tokens, rate * 100);
        assertThat(rate).as("false-positive rate; examples %s", examples).isLessThan(0.01);
    }

    @ParameterizedTest
    @ValueSource(strings = {"a@", "1.", ":", "password=", "eyJ", "Bearer ", "4111 ", "ghp_", "::1 ", "-----BEGIN PRIVATE KEY-----",
        "aB3+", "x=\"", "AKIA"})
    void hostileRepetitions_stayLinear(String unit) {
        String hostile = unit.repeat(100_000 / unit.length());
        redactor.redactText(hostile); // warm-up
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            long t0 = System.nanoTime();
            redactor.redactText(hostile);
            best = Math.min(best, System.nanoTime() - t0);
        }
        // a bound, not a measurement (docs/benchmarks.md has those): a quadratic detector takes seconds here, a linear one
        // a few ms; 200 ms failed once on a 2-core machine busy with two other builds, so the bound leaves room for that
        assertThat(best / 1_000_000).as("ms for 100 KB of '%s'", unit).isLessThan(1_000);
    }

    @Test
    void hundredKilobyteLogResult_isRedactedInMilliseconds() {
        var entries = Json.createArrayBuilder();
        List<SecretCorpus.Benign> lines = new SecretCorpus(5L).benignLines(600);
        for (SecretCorpus.Benign l : lines) {
            entries.add(Json.createObjectBuilder().add("timestamp", "2025-03-10T10:00:00.123Z").add("line", l.text())
                    .add("labels", Json.createObjectBuilder().add("service_name", "api").add("level", "info")));
        }
        JsonObject result = Json.createObjectBuilder().add("entries", entries).build();
        assertThat(result.toString().length()).isGreaterThan(100 * 1024);
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 30; i++) {
            long t0 = System.nanoTime();
            redactor.redactJson(result);
            best = Math.min(best, System.nanoTime() - t0);
        }
        // The target is 2 ms, measured with JMH (docs/benchmarks.md), not here. This only catches a
        // pattern gone quadratic or backtracking, which costs seconds on 100 KB; the bound leaves room
        // for a cold JIT on two cores shared with other builds (the best of 30 reached 65 ms there).
        assertThat(best / 1_000_000).isLessThan(250);
    }

    /** A part of {@code secret} (8 characters, or the whole secret when shorter) still present in {@code out}, or null. */
    static String leakedPart(String secret, String out) {
        int w = Math.min(8, secret.length());
        for (int i = 0; i + w <= secret.length(); i++) {
            String part = secret.substring(i, i + w);
            if (part.contains("\n") || part.contains("\\n") || part.startsWith("-----") || part.contains("PRIVATE") || part.contains("BEGIN")
                    || part.contains(" KEY")) {
                continue; // PEM framing words are not the secret
            }
            if (out.contains(part)) {
                return part;
            }
        }
        return null;
    }
}
