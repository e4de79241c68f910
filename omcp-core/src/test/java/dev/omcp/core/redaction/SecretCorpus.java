package dev.omcp.core.redaction;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;

/**
 * Seeded generator of realistic log lines: with planted secrets of every category (each line knows
 * what it planted) and with the look-alikes that must survive (UUIDs, trace and span ids, timestamps).
 */
final class SecretCorpus {
    private static final String UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    private static final String LOWER = "abcdefghijklmnopqrstuvwxyz";
    private static final String DIGITS = "0123456789";
    private static final String ALNUM = UPPER + LOWER + DIGITS;
    private static final String B64 = ALNUM + "+/";
    private static final String B64URL = ALNUM + "-_";
    private static final String HEX = "0123456789abcdef";
    /** The characters of the random parts of Kubernetes pod names (no vowels, no look-alike digits). */
    private static final String K8S = "bcdfghjklmnpqrstvwxz2456789";

    /** A log line and the secrets in it, each exactly as it appears in the line. */
    record Line(String text, RedactionCategory category, List<String> planted) {}

    /** A log line and the harmless tokens in it that must survive. */
    record Benign(String text, List<String> tokens) {}

    /** The forms of the {@code secret} category: a secret-like name, header, option or token, {@code %s} the secret. */
    static final String[] SECRET_FORMS = {
        "password=%s", "db_password: %s", "client_secret=%s&grant_type=client_credentials",
        "\"api_key\": \"%s\"", "secret=%s", "token=%s", "X-Api-Key: %s", "PGPASSWORD='%s'",
        // JSON escaped inside a JSON string, a URL-encoded query string, an Authorization scheme other than Bearer
        "msg=\"{\\\"password\\\":\\\"%s\\\",\\\"user\\\":\\\"bob\\\"}\"", "GET /cb?code=x%%26access_token%%3D%s HTTP/1.1",
        "Authorization: Token %s", "{\"passwd\": [\"%s\"]}",
        // the second review: cookies, auth/session/*_pass names, double URL encoding, curl credentials
        "Cookie: theme=dark; session=%s; lang=en", "Set-Cookie: sid=%s; Path=/; HttpOnly; SameSite=Lax", "auth=%s",
        "session: %s", "db_pass=%s", "\"sessionId\": \"%s\"", "sid=%s",
        "GET /x?next=%%2Fcb%%3Fpassword%%253D%s%%2526y%%253D1 HTTP/1.1", "q=%%257B%%2522password%%2522%%253A%%2522%s%%2522%%257D",
        "curl -sS -u alice:%s https://api.example.com/v1", "curl --user 'bob:%s' -X POST", "passphrase=%s",
        // the third review: deeper URL encoding, glued curl -u, argument lists, cookies holding ", ", Gson escapes,
        // an empty URL user, long options with a space
        "GET /x?next=%%2Fcb%%3Ftoken%%25253D%s%%252526y%%25253D1 HTTP/1.1", "r=%%2525253Fpassword%%2525253D%s%%25252526",
        "curl -sSu alice:%s https://x", "curl -ualice:%s https://x", "exec ['curl', '-u', 'alice:%s']",
        "Cookie: theme=dark, session=%s; lang=en", "Set-Cookie: id=x; Expires=Wed, 21 Oct 2026 07:28:00 GMT, sid=%s; Path=/",
        "{\\\"msg\\\":\\\"login password\\u003d%s, user\\u003dbob\\\"}", "redis://:%s@cache:6379/0",
        "mysql -h db --password %s -e select", "run --api-token '%s' --verbose",
        // the fourth review: short password options of the tools whose -p (or -a) is a password, URL encoding
        // deeper than the decoding bound, and developer-service tokens without a secret-like name
        "exec mysql -u root -p%s appdb", "mysqladmin -h db -p'%s' status", "sshpass -p %s ssh deploy@host",
        "exec ['sshpass', '-p', '%s', 'ssh', 'h']", "redis-cli -h cache -a %s ping",
        "GET /x?next=%%252525253Fpassword%%252525253D%s%%2525252526y%%252525253D1 HTTP/1.1",
        "hf login %s ok", "publish with %s done", "twine upload -u __token__ %s dist/*", "mail via %s queued"
    };

    private final Random rnd;
    /** How many secret-category lines were made: the next one takes the next of {@link #SECRET_FORMS}. */
    private int secretLines;

    SecretCorpus(long seed) {
        this.rnd = new Random(seed);
    }

    List<Line> secretLines(int perCategory) {
        List<Line> lines = new ArrayList<>();
        for (RedactionCategory c : RedactionCategory.values()) {
            for (int i = 0; i < perCategory; i++) {
                lines.add(plant(c));
            }
        }
        return lines;
    }

    List<Benign> benignLines(int n) {
        List<Benign> lines = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<String> tokens = new ArrayList<>();
            String uuid = new UUID(rnd.nextLong(), rnd.nextLong()).toString();
            String traceId = random(HEX, 32);
            String spanId = random(HEX, 16);
            Instant t = Instant.ofEpochMilli(1_600_000_000_000L + (long) (rnd.nextDouble() * 200_000_000_000L));
            String iso = t.toString();
            String epochMs = Long.toString(t.toEpochMilli());
            String epochNs = t.toEpochMilli() + String.format(Locale.ROOT, "%06d", rnd.nextInt(1_000_000));
            String epochS = Long.toString(t.getEpochSecond());
            String clock = String.format(Locale.ROOT, "%02d:%02d:%02d.%03d", rnd.nextInt(24), rnd.nextInt(60), rnd.nextInt(60), rnd.nextInt(1000));
            String offset = iso.replace("Z", "+02:00");
            String syslog = String.format(Locale.ROOT, "Mar %2d %02d:%02d:%02d", 1 + rnd.nextInt(28), rnd.nextInt(24), rnd.nextInt(60), rnd.nextInt(60));
            String upperTrace = traceId.toUpperCase(Locale.ROOT);
            String w3c = "00-" + traceId + "-" + spanId + "-01";
            String text;
            switch (i % 5) {
                case 0 -> {
                    text = iso + " level=info msg=\"request done\" request_id=" + uuid + " trace_id=" + traceId + " span_id=" + spanId
                            + " ts=" + epochMs + " ns=" + epochNs + " at " + clock;
                    tokens.addAll(List.of(iso, uuid, traceId, spanId, epochMs, epochNs, clock));
                }
                case 1 -> {
                    text = syslog + " api[123]: GET /orders/" + uuid + " 200 12ms traceparent=" + w3c + " since=" + epochS
                            + " started=" + offset;
                    tokens.addAll(List.of(syslog, uuid, w3c, epochS, offset));
                }
                case 2 -> {
                    text = "{\"time\":\"" + iso + "\",\"trace\":\"" + upperTrace + "\",\"span\":\"" + spanId + "\",\"id\":\"" + uuid
                            + "\",\"epoch\":" + epochMs + ",\"t\":\"" + clock + "\"}";
                    tokens.addAll(List.of(iso, upperTrace, spanId, uuid, epochMs, clock));
                }
                case 3 -> {
                    // versions, Kubernetes names and language-model usage counts: dotted numbers, dashes, "token" in a name
                    String pod = pick("payments", "api", "checkout-web") + "-" + random(K8S, 10) + "-" + random(K8S, 5);
                    String version = pick("v", "") + rnd.nextInt(30) + "." + rnd.nextInt(30) + "." + rnd.nextInt(30)
                            + pick("", "-alpine", "-rc.1+build." + rnd.nextInt(100), "+13-LTS");
                    String image = "registry.example.com/team/" + pick("api", "worker") + ":" + version;
                    String usage = "prompt_tokens=" + rnd.nextInt(100_000) + " completion_tokens=" + rnd.nextInt(10_000);
                    String goVersion = "go1." + rnd.nextInt(30) + "." + rnd.nextInt(10);
                    // and the look-alikes of the second review's names and forms: session and auth words, -u outside curl
                    String words = pick("session started", "session_count=" + rnd.nextInt(50), "auth ok", "author=" + random(LOWER, 6),
                            "bypass=true", "docker run -u " + rnd.nextInt(2000) + ":" + rnd.nextInt(2000),
                            // the third review's: test summaries, Go test verdicts, versions with a v
                            "Tests: Pass: " + rnd.nextInt(500) + " Fail: " + rnd.nextInt(5), "PASS: " + rnd.nextInt(99) + ", FAIL: 0, SKIP: " + rnd.nextInt(3),
                            "--- PASS: Test" + random(UPPER, 1) + random(LOWER, 6) + " (0.0" + rnd.nextInt(10) + "s)",
                            "agent v" + rnd.nextInt(20) + "." + rnd.nextInt(20) + "." + rnd.nextInt(20) + "." + rnd.nextInt(200),
                            // the fourth review's: -p and -a of other tools, a MySQL client prompting, JSON test counts, prefixes
                            "mkdir -p /var/lib/app-" + rnd.nextInt(100), "docker run -p " + (1024 + rnd.nextInt(60000)) + ":80 img",
                            "ssh -p " + (1 + rnd.nextInt(65535)) + " deploy", "mysql -h db -P 3306 -u app -p appdb", "ls -a /tmp",
                            "{\"pass\":" + rnd.nextInt(1000) + ",\"fail\":" + rnd.nextInt(9) + "}", "pass: " + rnd.nextInt(1000),
                            "hf_hub_download npm_config_cache=/tmp/npm pypi-simple", "progress 100%25 done");
                    text = iso + " pod=" + pod + " image=" + image + " " + usage + " runtime=" + goVersion + " trace_id=" + traceId
                            + " span_id=" + spanId + " " + words;
                    tokens.addAll(List.of(iso, pod, image, usage, goVersion, traceId, spanId, words));
                }
                default -> {
                    text = "[" + offset + "] worker " + traceId + " finished job " + uuid + " at " + epochNs + " (" + syslog + ", "
                            + clock + ", " + epochS + ", " + spanId + ", " + w3c + ", " + iso + ", " + upperTrace + ")";
                    tokens.addAll(List.of(offset, traceId, uuid, epochNs, syslog, clock, epochS, spanId, w3c, iso, upperTrace));
                }
            }
            lines.add(new Benign(text, tokens));
        }
        return lines;
    }

    private Line plant(RedactionCategory c) {
        List<String> secrets = new ArrayList<>();
        String secret;
        String context;
        switch (c) {
            case EMAIL -> {
                secret = random(LOWER, 3 + rnd.nextInt(8)) + (rnd.nextBoolean() ? "." + random(LOWER, 4) : "") + "+"
                        + random(LOWER + DIGITS, 3) + "@" + random(LOWER, 5) + "." + pick("com", "io", "co.uk", "dev", "example");
                context = pick("user %s logged in", "sending receipt to <%s>", "email=%s status=queued", "\"email\":\"%s\"");
            }
            case IPV4 -> {
                secret = rnd.nextInt(256) + "." + rnd.nextInt(256) + "." + rnd.nextInt(256) + "." + rnd.nextInt(256);
                context = pick("client %s connected", "remote_addr=%s:443", "[%s] GET /", "x-forwarded-for: %s, 10.0.0.1");
                if (context.contains("10.0.0.1")) {
                    secrets.add("10.0.0.1");
                }
            }
            case IPV6 -> {
                secret = ipv6();
                context = pick("client %s connected", "remote=[%s]:8443", "peer %s closed", "addr:%s");
            }
            case JWT -> {
                // one in four without its signature part: the claims alone are still personal data
                secret = "eyJ" + random(B64URL, 20 + rnd.nextInt(20)) + ".eyJ" + random(B64URL, 40 + rnd.nextInt(60))
                        + (rnd.nextInt(4) == 0 ? "" : "." + random(B64URL, 43));
                if (rnd.nextInt(4) == 0) {
                    // a JWE: header, encrypted key (empty with direct encryption), IV, ciphertext, tag
                    secret = "eyJ" + random(B64URL, 30 + rnd.nextInt(20)) + "." + (rnd.nextBoolean() ? "" : random(B64URL, 43 + rnd.nextInt(300)))
                            + "." + random(B64URL, rnd.nextBoolean() ? 16 : 22) + "." + random(B64URL, 2 + rnd.nextInt(200)) + "." + random(B64URL, 22);
                }
                context = pick("id_token %s verified", "jwt=%s", "cookie session=%s; path=/");
            }
            case BEARER_TOKEN -> {
                secret = random(ALNUM + "-._~+/", 24 + rnd.nextInt(40));
                context = pick("Authorization: Bearer %s", "authorization=bearer %s", "header \"Authorization\": \"Bearer %s\"",
                        "body={\\\"headers\\\":{\\\"Authorization\\\":\\\"Bearer %s\\\"}}");
            }
            case AWS_KEY -> {
                if (rnd.nextBoolean()) {
                    secret = pick("AKIA", "ASIA") + random(UPPER + DIGITS, 16);
                } else {
                    secret = awsSecret();
                }
                context = pick("using key %s for s3", "aws credentials %s loaded", "AWS_ACCESS=%s");
            }
            case GCP_KEY -> {
                secret = rnd.nextBoolean() ? "AIza" + random(ALNUM + "-_", 35) : "GOCSPX-" + random(ALNUM + "-_", 28);
                context = pick("maps key %s rejected", "gcp client %s", "key=%s");
            }
            case AZURE_KEY -> {
                int kind = rnd.nextInt(3);
                if (kind == 0) {
                    secret = random(B64, 86) + "==";
                    context = "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=%s;EndpointSuffix=core.windows.net";
                } else if (kind == 1) {
                    secret = random(ALNUM, 3) + rnd.nextInt(10) + "Q~" + random(ALNUM + "_~.-", 34);
                    context = pick("client secret %s expired", "AZURE_CLIENT_SECRET=%s");
                } else {
                    secret = random(ALNUM + "%", 43) + "=";
                    context = "GET /container/blob?sv=2022-11-02&se=2025-01-01&sig=%s HTTP/1.1";
                }
            }
            case GITHUB_TOKEN -> {
                secret = rnd.nextBoolean() ? pick("ghp_", "gho_", "ghu_", "ghs_", "ghr_") + random(ALNUM, 36)
                        : "github_pat_" + random(ALNUM, 22) + "_" + random(ALNUM, 59);
                context = pick("cloning with %s", "GITHUB_TOKEN=%s", "token %s has no scope repo");
            }
            case GITLAB_TOKEN -> {
                secret = pick("glpat-", "gldt-", "glrt-") + random(ALNUM + "-_", 20 + rnd.nextInt(10));
                context = pick("gitlab auth %s failed", "CI_JOB=%s", "private-token: %s");
            }
            case PRIVATE_KEY -> {
                String type = pick("RSA ", "EC ", "OPENSSH ", "");
                StringBuilder body = new StringBuilder();
                for (int k = 0; k < 4; k++) {
                    body.append(random(B64, 64)).append(rnd.nextBoolean() ? "\n" : "\\n");
                }
                secret = "-----BEGIN " + type + "PRIVATE KEY-----\n" + body + "-----END " + type + "PRIVATE KEY-----";
                context = pick("loaded key %s from env", "{\"private_key\": \"%s\"}", "pem=%s");
                // a truncated key (log line cut off) must still be redacted
                if (rnd.nextInt(4) == 0) {
                    secret = secret.substring(0, secret.length() - 40);
                }
                // a key logged one line per entry: a body line alone
                if (rnd.nextInt(5) == 0) {
                    secret = random(B64, type.equals("OPENSSH ") ? 70 : 64);
                    context = "%s";
                }
                // a block split over log entries: this one holds its short last line(s) and the END line
                if (rnd.nextInt(6) == 0) {
                    String nl = pick("\n", "\\n");
                    secret = (rnd.nextBoolean() ? random(B64, 64) + nl : "") + random(B64, 4 + rnd.nextInt(40)) + pick("", "=", "==") + nl
                            + "-----END " + type + "PRIVATE KEY-----";
                    context = pick("%s", "key tail %s", "{\"line\": \"%s\"}");
                }
                // a PuTTY key file, whole (cut off before its MAC in one case of four), or its lone private line
                int putty = rnd.nextInt(6);
                if (putty == 0) {
                    String nl = pick("\n", "\\n");
                    secret = "PuTTY-User-Key-File-" + pick("2", "3") + ": ssh-ed25519" + nl + "Encryption: none" + nl + "Comment: key-" + random(DIGITS, 8)
                            + nl + "Public-Lines: 2" + nl + random(B64, 64) + nl + random(B64, 4) + nl + "Private-Lines: 1" + nl + "AAAAI" + random(B64, 43)
                            + (rnd.nextInt(4) == 0 ? "" : nl + "Private-MAC: " + random(HEX, 64));
                    context = pick("loaded %s from disk", "{\"ppk\": \"%s\"}");
                } else if (putty == 1) {
                    secret = "AAAAI" + random(B64, 43);
                    context = "%s";
                }
            }
            case CARD_NUMBER -> {
                String digits = card();
                secret = switch (rnd.nextInt(5)) {
                    case 0 -> digits;
                    case 1 -> group(digits, ' ');
                    case 2 -> group(digits, '.');
                    case 3 -> group(digits, '-');
                    default -> mixedGroups(digits);
                };
                context = pick("charged card %s", "pan=%s amount=12.00", "\"card\": \"%s\"", "card %s declined");
            }
            case SECRET -> {
                secret = random(ALNUM + "!#$%*()_+-", 8 + rnd.nextInt(16));
                // every form in turn, so that each is planted whatever the seed (80 lines per category, fewer forms)
                context = SECRET_FORMS[secretLines++ % SECRET_FORMS.length];
                if (context.startsWith("passphrase")) {
                    // an unquoted value with spaces: a passphrase of a few words
                    secret = random(LOWER, 3 + rnd.nextInt(6)) + " " + random(LOWER, 3 + rnd.nextInt(6)) + " " + random(LOWER + DIGITS, 4 + rnd.nextInt(6));
                } else if (context.startsWith("hf login")) {
                    secret = pick("hf_", "api_org_") + random(ALNUM, 34);
                } else if (context.startsWith("publish with")) {
                    secret = "npm_" + random(ALNUM, 36);
                } else if (context.startsWith("twine")) {
                    secret = pick("pypi-AgEIcHlwaS5vcmc", "pypi-AgENdGVzdC5weXBpLm9yZw") + random(B64URL, 50 + rnd.nextInt(150));
                } else if (context.startsWith("mail via")) {
                    secret = "SG." + random(B64URL, 22) + "." + random(B64URL, 43);
                }
            }
            default -> throw new IllegalStateException();
        }
        secrets.add(secret);
        String prefix = Instant.ofEpochMilli(1_700_000_000_000L + rnd.nextInt(1_000_000_000)) + " " + pick("INFO", "WARN", "ERROR")
                + " trace_id=" + random(HEX, 32) + " ";
        return new Line(prefix + String.format(Locale.ROOT, context, secret) + " request_id=" + UUID.randomUUID(), c, secrets);
    }

    private String ipv6() {
        int form = rnd.nextInt(4);
        List<String> g = new ArrayList<>();
        for (int k = 0; k < 8; k++) {
            g.add(Integer.toHexString(rnd.nextInt(65536)));
        }
        return switch (form) {
            case 0 -> String.join(":", g);
            case 1 -> g.get(0) + ":" + g.get(1) + "::" + g.get(7);
            case 2 -> "fe80::" + g.get(2) + ":" + g.get(3) + "%eth0";
            default -> "::ffff:" + rnd.nextInt(256) + "." + rnd.nextInt(256) + "." + rnd.nextInt(256) + "." + rnd.nextInt(256);
        };
    }

    private String awsSecret() {
        while (true) {
            String s = random(B64, 40);
            long upper = s.chars().filter(Character::isUpperCase).count();
            long lower = s.chars().filter(Character::isLowerCase).count();
            if (upper >= 5 && lower >= 5) {
                return s; // every real key is random over 64 characters; this holds for all but about 1 in 10^5
            }
        }
    }

    private String card() {
        String prefix = pick("4", "51", "55", "2221", "34", "37", "6011", "65", "36", "3530");
        int len = prefix.startsWith("34") || prefix.startsWith("37") ? 15 : prefix.equals("36") ? 14 : 16;
        StringBuilder b = new StringBuilder(prefix);
        while (b.length() < len - 1) {
            b.append(rnd.nextInt(10));
        }
        for (int check = 0; check < 10; check++) {
            String candidate = b.toString() + check;
            char[] d = candidate.toCharArray();
            if (TextRedactor.luhn(d, d.length)) {
                return candidate;
            }
        }
        throw new IllegalStateException();
    }

    /** Grouped by 4 with a separator picked per group: {@code 4111-1111 1111.1111}. */
    private String mixedGroups(String digits) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < digits.length(); k++) {
            if (k > 0 && k % 4 == 0) {
                b.append(pick(" ", "-", "."));
            }
            b.append(digits.charAt(k));
        }
        return b.toString();
    }

    private static String group(String digits, char sep) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < digits.length(); k++) {
            if (k > 0 && k % 4 == 0) {
                b.append(sep);
            }
            b.append(digits.charAt(k));
        }
        return b.toString();
    }

    private String random(String alphabet, int n) {
        StringBuilder b = new StringBuilder(n);
        for (int k = 0; k < n; k++) {
            b.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
        }
        return b.toString();
    }

    private String pick(String... options) {
        return options[rnd.nextInt(options.length)];
    }
}
