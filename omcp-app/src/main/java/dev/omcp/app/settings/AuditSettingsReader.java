package dev.omcp.app.settings;

import dev.omcp.adapters.storage.audit.FsyncPolicy;
import dev.omcp.adapters.storage.audit.S3Addressing;
import dev.omcp.adapters.storage.audit.TornTailPolicy;
import dev.omcp.core.egress.EgressRules;
import dev.omcp.ports.egress.EgressVerdict;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/** Reads the audit variables; every problem goes to the shared list so all are reported at once. */
final class AuditSettingsReader {
    private static final Pattern REGION = Pattern.compile("[a-z0-9-]{1,32}");

    private AuditSettingsReader() {}

    /**
     * @param egress the rules of {@code OMCP_ALLOW_PRIVATE_BACKENDS} and {@code OMCP_NAT64_PREFIXES}: the sink URLs follow
     *     the same egress rules as sources (spec 5.9), judged here as written and again at every connection
     */
    static AuditSettings read(Environment env, EgressRules egress) {
        // how the audit file is written: without the file, the entries live in memory and these do nothing
        env.requiresWith(Variables.MGMT_AUDIT_FILE, List.of(Variables.AUDIT_FSYNC, Variables.AUDIT_FSYNC_INTERVAL_MS,
                Variables.AUDIT_TORN_TAIL));
        Optional<Path> file = env.file(Variables.MGMT_AUDIT_FILE);
        FsyncPolicy fsync = FsyncPolicy.parse(env.oneOf(Variables.AUDIT_FSYNC, List.of("always", "batch", "never")));
        Duration interval = Duration.ofMillis(env.milliseconds(Variables.AUDIT_FSYNC_INTERVAL_MS, 10, 60_000));
        TornTailPolicy tornTail = TornTailPolicy.parse(env.oneOf(Variables.AUDIT_TORN_TAIL, List.of("repair", "refuse")));
        return new AuditSettings(file, fsync, interval, tornTail, webhook(env, file, egress), s3(env, file, egress));
    }

    private static Optional<AuditSettings.Webhook> webhook(Environment env, Optional<Path> file, EgressRules egress) {
        Optional<String> url = env.raw(Variables.AUDIT_WEBHOOK_URL);
        Optional<String> token = env.raw(Variables.AUDIT_WEBHOOK_TOKEN);
        // a dead-letter file without the webhook would stay empty while the operator counts on it
        env.requiresWith(Variables.AUDIT_WEBHOOK_URL, List.of(Variables.AUDIT_WEBHOOK_TOKEN, Variables.AUDIT_WEBHOOK_DEADLETTER));
        if (url.isEmpty()) {
            return Optional.empty();
        }
        Optional<URI> uri = httpUri(env, Variables.AUDIT_WEBHOOK_URL, url.get(), egress);
        if (token.isPresent() && !headerSafe(env, Variables.AUDIT_WEBHOOK_TOKEN, token.get())) {
            return Optional.empty();
        }
        Optional<Path> deadLetter = env.file(Variables.AUDIT_WEBHOOK_DEADLETTER)
                .or(() -> file.map(f -> f.resolveSibling(f.getFileName() + ".webhook-deadletter.jsonl")));
        return uri.map(u -> new AuditSettings.Webhook(u, token, deadLetter));
    }

    private static Optional<AuditSettings.S3> s3(Environment env, Optional<Path> file, EgressRules egress) {
        Optional<String> endpoint = env.raw(Variables.AUDIT_S3_ENDPOINT);
        Optional<String> bucket = env.raw(Variables.AUDIT_S3_BUCKET);
        Optional<String> keyId = env.raw(Variables.AUDIT_S3_ACCESS_KEY_ID);
        Optional<String> secret = env.raw(Variables.AUDIT_S3_SECRET_ACCESS_KEY);
        // Any of them set means the operator wants the sink (docs/configuration.md): a lone
        // OMCP_AUDIT_S3_REGION or a malformed OMCP_AUDIT_S3_BATCH_SIZE is reported, not skipped unread.
        boolean anySet = java.util.stream.Stream.of(Variables.AUDIT_S3_ENDPOINT, Variables.AUDIT_S3_BUCKET,
                        Variables.AUDIT_S3_ACCESS_KEY_ID, Variables.AUDIT_S3_SECRET_ACCESS_KEY, Variables.AUDIT_S3_PREFIX,
                        Variables.AUDIT_S3_REGION, Variables.AUDIT_S3_BATCH_SIZE, Variables.AUDIT_S3_FLUSH_INTERVAL,
                        Variables.AUDIT_S3_DEADLETTER)
                .anyMatch(variable -> env.raw(variable).isPresent());
        if (!anySet) {
            return Optional.empty();
        }
        boolean complete = true;
        for (var required : List.of(
                java.util.Map.entry(Variables.AUDIT_S3_ENDPOINT, endpoint),
                java.util.Map.entry(Variables.AUDIT_S3_BUCKET, bucket),
                java.util.Map.entry(Variables.AUDIT_S3_ACCESS_KEY_ID, keyId),
                java.util.Map.entry(Variables.AUDIT_S3_SECRET_ACCESS_KEY, secret))) {
            if (required.getValue().isEmpty()) {
                env.problem(required.getKey(), "is required when any OMCP_AUDIT_S3_* variable is set (the S3 sink needs"
                        + " the endpoint, bucket, access key id and secret access key)");
                complete = false;
            }
        }
        Optional<URI> uri = endpoint.flatMap(e -> httpUri(env, Variables.AUDIT_S3_ENDPOINT, e, egress));
        if (uri.isPresent() && uri.get().getRawQuery() != null) {
            // the sink builds and signs each request's own URL: a query here would be dropped without a word
            env.problem(Variables.AUDIT_S3_ENDPOINT, "must not have a query ('?...'): the S3 sink signs its own requests; give "
                    + "the endpoint as scheme://host[:port][/path]");
            uri = Optional.empty();
        }
        Optional<String> pathProblem = uri.flatMap(S3Addressing::basePathProblem);
        if (pathProblem.isPresent()) {
            env.problem(Variables.AUDIT_S3_ENDPOINT, pathProblem.get());
            uri = Optional.empty();
        }
        if (keyId.isPresent() && !headerSafe(env, Variables.AUDIT_S3_ACCESS_KEY_ID, keyId.get())) {
            complete = false;
        }
        Optional<String> bucketProblem = bucket.flatMap(S3Addressing::bucketProblem);
        if (bucketProblem.isPresent()) {
            env.problem(Variables.AUDIT_S3_BUCKET, bucketProblem.get());
            complete = false;
        }
        String prefix = env.string(Variables.AUDIT_S3_PREFIX);
        if (prefix.startsWith("/") || prefix.length() > 512 || prefix.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            env.problem(Variables.AUDIT_S3_PREFIX, "must not start with '/' and must be at most 512 printable characters");
            complete = false;
        } else if (List.of(prefix.split("/", -1)).stream().anyMatch(segment -> segment.equals(".") || segment.equals(".."))) {
            // in a path-style URL, /bucket/../x is another bucket's key to any server or proxy that normalises paths
            env.problem(Variables.AUDIT_S3_PREFIX, "must not have '.' or '..' segments, which a server may resolve out of the "
                    + "bucket; write the folder as name/ or a/b/");
            complete = false;
        }
        String region = env.string(Variables.AUDIT_S3_REGION);
        if (!REGION.matcher(region).matches()) {
            env.problem(Variables.AUDIT_S3_REGION, "must be a region name like us-east-1, got '" + region + "'");
            complete = false;
        }
        int batchSize = env.integer(Variables.AUDIT_S3_BATCH_SIZE, 1, 10_000);
        Duration flush = Duration.ofSeconds(env.seconds(Variables.AUDIT_S3_FLUSH_INTERVAL, 1, 3600));
        Optional<Path> deadLetter = env.file(Variables.AUDIT_S3_DEADLETTER)
                .or(() -> file.map(f -> f.resolveSibling(f.getFileName() + ".s3-deadletter.jsonl")));
        if (!complete || uri.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new AuditSettings.S3(uri.get(), bucket.get(), prefix, region, keyId.get(), secret.get(), batchSize,
                flush, deadLetter));
    }

    /**
     * Whether {@code value} can go into an HTTP header as it is: visible ASCII, no spaces. The
     * webhook token and the S3 access key id are sent in {@code Authorization}; a pasted line break
     * or invisible character would otherwise make the HTTP client refuse the header at the first
     * delivery, with the value in its exception (and so in the log), and stop the sink.
     */
    private static boolean headerSafe(Environment env, Variable variable, String value) {
        if (value.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            return true;
        }
        env.problem(variable, "must be printable ASCII without spaces (the value is not shown); look for a line break,"
                + " a space or an invisible character pasted with it");
        return false;
    }

    /**
     * An http(s) URL with a host, without user info or fragment, that the egress rules allow as
     * written: a literal cloud-metadata address never, a private or loopback one only with
     * {@code OMCP_ALLOW_PRIVATE_BACKENDS=true} (names are judged when the gateway starts and again
     * each time they resolve).
     */
    private static Optional<URI> httpUri(Environment env, Variable variable, String text, EgressRules egress) {
        try {
            URI uri = new URI(text);
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null
                    || uri.getRawUserInfo() != null || uri.getRawFragment() != null) {
                env.problem(variable, "must be an http:// or https:// URL with a host and without user info or fragment"
                        + (variable.secret() ? " (the value is not shown)" : HttpUrls.shown(text)));
                return Optional.empty();
            }
            if (egress.checkUrl(text) instanceof EgressVerdict.Refused refused) {
                env.problem(variable, "is refused by the egress rules: " + refused.reason());
                return Optional.empty();
            }
            return Optional.of(uri);
        } catch (URISyntaxException e) {
            env.problem(variable, "is not a valid URL" + (variable.secret() ? " (the value is not shown)" : ": " + e.getReason()));
            return Optional.empty();
        }
    }
}
