package dev.omcp.adapters.storage.plugins;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omcp.ports.plugins.BundleRejectedException;
import dev.omcp.ports.plugins.ConnectorHub;
import dev.omcp.ports.plugins.HubCatalog;
import dev.omcp.ports.plugins.HubEntry;
import dev.omcp.ports.plugins.HubRelease;
import dev.omcp.ports.plugins.HubUnavailableException;
import dev.omcp.sdk.text.BackendText;
import dev.omcp.sdk.text.LogField;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A connector hub: a static catalog (spec 2.18) read from a URL ({@code HUB_CATALOG_URL}), from a
 * local directory ({@code omcp plugin ... --from <dir>}, air-gapped), or from the launcher jar (the
 * {@linkplain BuiltInHub built-in hub}); {@link HubFiles} is where its files are read from.
 *
 * <p>Layout: {@code index.json} lists the connectors, each pointing to its own catalog file
 * ({@code connectors/<name>.json}) whose {@code versions} carry the manifest, {@code tarballUrl},
 * {@code signatureUrl}, {@code integrity} (SHA-256 of the tarball) and {@code changelog}. Relative
 * URLs resolve against the file that holds them; a local hub never reads outside its directory, the
 * built-in hub outside its resources, and a remote hub only over http(s). A tarball is checked against
 * its integrity and its detached signature before anyone unpacks it.
 *
 * <p>The catalog is not trusted until a tarball verifies, so it must not make the gateway a probe of
 * other hosts: a remote hub reads only from the origin (scheme, host, port) of its configured URL,
 * follows no redirect, and reads at most {@value PluginLimits#MAX_HUB_INDEX_ENTRIES} index entries and
 * {@value PluginLimits#MAX_HUB_VERSIONS} versions per connector. Each remote file must arrive whole
 * within its {@link Timeouts deadline}: an install holds the plugins directory while it downloads, so
 * a hub that sends headers and then stalls, or trickles, must not hold it for ever.
 *
 * <p>Anyone with {@code connectors:read} can ask for the catalog, and one read is up to
 * {@value PluginLimits#MAX_HUB_INDEX_ENTRIES} fetches: the catalog read is kept for
 * {@link CatalogReads#maxAge() a short while} and shared, and readers that ask while it is being read
 * wait for that one read instead of starting their own, so the heap holds one catalog however many ask
 * (a failed read is shared with those waiting for it, but not kept). One read stops once its files
 * together pass {@link CatalogReads#maxTotalBytes()}. Thread-safe.
 */
public final class StaticConnectorHub implements ConnectorHub {
    private static final Logger LOG = LoggerFactory.getLogger(StaticConnectorHub.class);
    /** Characters of a version's manifest violations a log line keeps: enough for the hub's author to see them all. */
    private static final int MAX_LOGGED_VIOLATIONS = 2000;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** How much of a name, version or URL from the catalog a log line or message quotes. */
    private static final int MAX_QUOTED = 200;

    /**
     * How long one remote file may take, from the request to its last byte. The request timeout of
     * {@link HttpRequest} ends with the headers, so without a deadline of its own a body that stalls
     * blocked the fetch, and every install and removal queued behind it, until the hub closed.
     *
     * @param file the index, a catalog file or a signature (at most 4 MiB)
     * @param tarball a tarball (at most 50 MiB: about 170 KiB/s at the default)
     */
    record Timeouts(Duration file, Duration tarball) {
        static final Timeouts DEFAULT = new Timeouts(Duration.ofSeconds(60), Duration.ofMinutes(5));
    }

    /**
     * How the whole catalog is read: how long a read is kept for every caller ({@link #DEFAULT}: 30
     * seconds, so a release the hub publishes shows within that) and how many bytes its files may hold
     * together ({@link PluginLimits#MAX_HUB_CATALOG_BYTES}); tests use a clock they move and small bounds.
     */
    record CatalogReads(Duration maxAge, long maxTotalBytes, Clock clock) {
        static final CatalogReads DEFAULT = new CatalogReads(Duration.ofSeconds(30), PluginLimits.MAX_HUB_CATALOG_BYTES, Clock.systemUTC());
    }

    /** One read of the catalog, with the resolved tarball and signature URLs of each {@code name@version}. */
    private record Snapshot(HubCatalog catalog, Map<String, URI[]> uris, Instant readAt) {}

    private final HubFiles files;
    /** {@link HubFiles#source()}, kept for the many messages that name it. */
    private final String source;
    private final TrustRootKeys trust;
    private final Timeouts timeouts;
    private final ManifestSchema schema = new ManifestSchema();
    private final CatalogReads reads;
    private volatile Snapshot current;
    /** The read under way, which every caller that asks meanwhile waits for; null when none is. */
    private final AtomicReference<CompletableFuture<Snapshot>> reading = new AtomicReference<>();

    private StaticConnectorHub(HubFiles files, TrustRootKeys trust, Timeouts timeouts, CatalogReads reads) {
        this.reads = reads;
        this.files = files;
        this.source = files.source();
        this.trust = trust;
        this.timeouts = timeouts;
    }

    /** A hub whose files {@code files} reads and whose tarball signatures verify against {@code trust}: the built-in hub's. */
    static StaticConnectorHub of(HubFiles files, TrustRootKeys trust) {
        return new StaticConnectorHub(files, trust, Timeouts.DEFAULT, CatalogReads.DEFAULT);
    }

    /**
     * A hub at {@code location}: an http(s) URL of the index (or of the directory holding
     * {@code index.json}), a {@code file:} URL, or a local path.
     *
     * @param trustRootPem the PEM public key tarball signatures are verified against
     * @throws IllegalArgumentException when {@code location} is neither
     */
    public static StaticConnectorHub at(String location, Optional<Path> trustRootPem) {
        return at(location, trustRootPem, Optional.empty());
    }

    /**
     * A hub whose tarball signatures are verified against {@code trustRootPem} without the keys
     * {@code revokedKeys} ({@code OMCP_PLUGIN_REVOKED_KEYS}) names.
     */
    public static StaticConnectorHub at(String location, Optional<Path> trustRootPem, Optional<Path> revokedKeys) {
        return at(location, trustRootPem, revokedKeys, Timeouts.DEFAULT);
    }

    /** A hub whose remote files must arrive within {@code timeouts}; tests use short ones. */
    static StaticConnectorHub at(String location, Optional<Path> trustRootPem, Optional<Path> revokedKeys, Timeouts timeouts) {
        return at(location, trustRootPem, revokedKeys, timeouts, CatalogReads.DEFAULT);
    }

    /** A hub whose catalog reads are kept and bounded as {@code reads} says; tests move its clock. */
    static StaticConnectorHub at(String location, Optional<Path> trustRootPem, Optional<Path> revokedKeys, Timeouts timeouts,
            CatalogReads reads) {
        TrustRootKeys trust = TrustRootKeys.load(trustRootPem, revokedKeys);
        String trimmed = location.trim();
        if (trimmed.startsWith("http://") || trimmed.startsWith("https://")) {
            URI uri;
            try {
                uri = new URI(trimmed);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("the hub catalog URL is not a valid URL: " + e.getReason());
            }
            if (uri.getHost() == null) {
                throw new IllegalArgumentException("the hub catalog URL has no host");
            }
            URI indexUri = uri.getPath() != null && uri.getPath().endsWith(".json") ? uri
                    : URI.create(uri.toString().endsWith("/") ? uri.toString() : uri + "/").resolve("index.json");
            return new StaticConnectorHub(new RemoteFiles(indexUri), trust, timeouts, reads);
        }
        Path path = trimmed.startsWith("file:") ? Path.of(URI.create(trimmed)) : Path.of(trimmed);
        path = path.toAbsolutePath().normalize();
        Path indexFile = Files.isDirectory(path) ? path.resolve("index.json") : path;
        return new StaticConnectorHub(new DirectoryHubFiles(indexFile), trust, timeouts, reads);
    }

    @Override
    public HubCatalog catalog() throws HubUnavailableException {
        return snapshot().catalog();
    }

    /** The kept read while it is fresh, else the read under way, else a read of its own that others may join. */
    private Snapshot snapshot() throws HubUnavailableException {
        Snapshot kept = current;
        if (fresh(kept)) {
            return kept;
        }
        CompletableFuture<Snapshot> mine = new CompletableFuture<>();
        CompletableFuture<Snapshot> underWay = reading.compareAndExchange(null, mine);
        if (underWay != null) {
            return await(underWay);
        }
        try {
            kept = current;
            // another read may have finished between the first look and taking the turn
            Snapshot read = fresh(kept) ? kept : read();
            current = read;
            mine.complete(read);
            return read;
        } catch (HubUnavailableException | RuntimeException e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            reading.set(null);
        }
    }

    private boolean fresh(Snapshot snapshot) {
        return snapshot != null && reads.clock().instant().isBefore(snapshot.readAt().plus(reads.maxAge()));
    }

    private static Snapshot await(CompletableFuture<Snapshot> underWay) throws HubUnavailableException {
        try {
            return underWay.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HubUnavailableException("the hub catalog could not be read: interrupted");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof HubUnavailableException unavailable) {
                throw new HubUnavailableException(unavailable.getMessage());
            }
            if (e.getCause() instanceof RuntimeException bug) {
                throw bug;
            }
            throw new IllegalStateException("a catalog read fails only as the hub being unavailable", e.getCause());
        }
    }

    private Snapshot read() throws HubUnavailableException {
        Instant startedAt = reads.clock().instant();
        long[] total = {0};
        Map<String, URI[]> uris = new HashMap<>();
        JsonNode indexNode = json(files.index(), "the hub index", total);
        if (indexNode.path("connectors").size() > PluginLimits.MAX_HUB_INDEX_ENTRIES) {
            throw new HubUnavailableException("the hub index " + source + " lists " + indexNode.path("connectors").size()
                    + " connectors, more than the " + PluginLimits.MAX_HUB_INDEX_ENTRIES + " a hub may list; split the hub or point "
                    + "HUB_CATALOG_URL at a smaller one");
        }
        List<HubEntry> entries = new ArrayList<>();
        for (JsonNode item : indexNode.path("connectors")) {
            String name = item.path("name").asText("");
            String ref = item.path("catalog").asText("");
            if (name.isEmpty() || ref.isEmpty()) {
                LOG.warn("event=hub-entry-ignored source=\"{}\" reason=\"an index entry needs name and catalog\"", LogField.of(source));
                continue;
            }
            if (!PackageMarker.NAME.matcher(name).matches()) {
                // no manifest could match it; and from here on the name is safe in a log line, a message and a terminal
                LOG.warn("event=hub-entry-ignored source=\"{}\" connector=\"{}\" reason=\"not a connector name: lower-case letters, "
                        + "digits, '.', '_' and '-', at most 64\"", LogField.of(source), LogField.of(name, MAX_QUOTED));
                continue;
            }
            URI entryUri = resolve(files.index(), ref);
            JsonNode entryNode = json(entryUri, "the catalog file of '" + name + "'", total);
            entry(name, entryUri, entryNode, uris).ifPresent(entries::add);
        }
        entries.sort(Comparator.comparing(HubEntry::name));
        return new Snapshot(new HubCatalog(source, entries), Map.copyOf(uris), startedAt);
    }

    private Optional<HubEntry> entry(String name, URI entryUri, JsonNode node, Map<String, URI[]> uris) throws HubUnavailableException {
        if (!name.equals(node.path("name").asText())) {
            LOG.warn("event=hub-entry-ignored source=\"{}\" connector=\"{}\" reason=\"its catalog file names another connector\"",
                    LogField.of(source), LogField.of(name));
            return Optional.empty();
        }
        if (node.path("versions").size() > PluginLimits.MAX_HUB_VERSIONS) {
            throw new HubUnavailableException("the catalog file of '" + name + "' on the hub " + source + " lists "
                    + node.path("versions").size() + " versions, more than the " + PluginLimits.MAX_HUB_VERSIONS
                    + " a connector may list; the hub must drop old versions from it");
        }
        List<HubRelease> releases = new ArrayList<>();
        for (JsonNode version : node.path("versions")) {
            JsonNode manifestNode = version.path("manifest");
            List<String> violations = manifestNode.isObject() ? schema.violations(manifestNode) : List.of("no manifest object");
            String number = version.path("version").asText("");
            if (!violations.isEmpty() || !number.equals(manifestNode.path("version").asText()) || !name.equals(manifestNode.path("name").asText())) {
                // the hub is another party: its names, versions and the violations quoting them may hold anything
                String reason = violations.isEmpty() ? "the manifest's name or version differs from the entry"
                        : String.join("; ", violations);
                LOG.warn("event=hub-version-ignored source=\"{}\" connector=\"{}\" version=\"{}\" reason=\"{}\"", LogField.of(source),
                        LogField.of(name), LogField.of(number), LogField.of(reason, MAX_LOGGED_VIOLATIONS));
                continue;
            }
            String tarball = version.path("tarballUrl").asText("");
            String signature = version.path("signatureUrl").asText(tarball.isEmpty() ? "" : tarball + ".sig");
            String integrity = version.path("integrity").asText("");
            if (tarball.isEmpty() || !integrity.matches("sha256-[A-Za-z0-9+/]{43}=")) {
                LOG.warn("event=hub-version-ignored source=\"{}\" connector=\"{}\" version=\"{}\" reason=\"tarballUrl and integrity "
                        + "sha256-<base64> are required\"", LogField.of(source), LogField.of(name), LogField.of(number));
                continue;
            }
            uris.put(name + "@" + number, new URI[] {resolve(entryUri, tarball), resolve(entryUri, signature)});
            releases.add(new HubRelease(number, ManifestMapping.toManifest(manifestNode), tarball, signature, integrity,
                    version.path("changelog").asText(""), version.path("published").asText("")));
        }
        if (releases.isEmpty()) {
            return Optional.empty();
        }
        String latest = latest(name, node.path("latest").asText(""), releases);
        return Optional.of(new HubEntry(name, node.path("displayName").asText(name), node.path("description").asText(""), latest, releases));
    }

    /**
     * The version {@code install} picks: the entry's {@code latest} when it is one of the releases listed,
     * else the highest of them. A {@code latest} naming no release (a typo, a version left out as invalid)
     * would make every listing offer an update that cannot be installed.
     */
    private String latest(String name, String named, List<HubRelease> releases) {
        if (releases.stream().anyMatch(r -> r.version().equals(named))) {
            return named;
        }
        String highest = releases.stream().map(HubRelease::version).max(ReleasePrecedence.INSTANCE).orElseThrow();
        if (!named.isEmpty()) {
            LOG.warn("event=hub-latest-corrected source=\"{}\" connector=\"{}\" latest=\"{}\" used=\"{}\" reason=\"latest names none "
                    + "of the versions listed; the highest of them is offered instead\"", LogField.of(source), LogField.of(name),
                    LogField.of(named, MAX_QUOTED), LogField.of(highest));
        }
        return highest;
    }

    @Override
    public byte[] fetchBundle(HubRelease release) throws HubUnavailableException, BundleRejectedException {
        if (!trust.state().isLoaded()) {
            throw new BundleRejectedException("the tarball cannot be verified: " + trust.state().unavailableReason());
        }
        String key = release.manifest().name() + "@" + release.version();
        URI[] uris = snapshot().uris().get(key);
        if (uris == null) {
            throw new HubUnavailableException("the hub catalog no longer lists " + key);
        }
        byte[] tarball = files.read(uris[0], PluginLimits.MAX_BUNDLE_BYTES, "the tarball of " + key, timeouts.tarball());
        String actual = PluginFiles.integrity(tarball);
        if (!MessageDigest.isEqual(actual.getBytes(StandardCharsets.US_ASCII), release.integrity().getBytes(StandardCharsets.US_ASCII))) {
            throw new BundleRejectedException("the tarball of " + key + " does not match the catalog's integrity (catalog "
                    + release.integrity() + ", downloaded " + actual + ")");
        }
        byte[] signature = files.read(uris[1], PluginLimits.MAX_SIGNATURE_BYTES, "the tarball signature of " + key, timeouts.file());
        Optional<String> problem = trust.verify(tarball, signature);
        if (problem.isPresent()) {
            throw new BundleRejectedException("the tarball of " + key + ": " + problem.get());
        }
        return tarball;
    }

    private URI resolve(URI base, String reference) throws HubUnavailableException {
        // the catalog is not verified: its text is quoted short, with control characters shown as '?'
        String shown = BackendText.quoted(reference, MAX_QUOTED);
        URI target;
        try {
            target = base.resolve(new URI(reference));
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new HubUnavailableException("the hub catalog has an invalid URL '" + shown + "'");
        }
        return files.confine(target, shown);
    }

    /** @param total the bytes the catalog's files read so far hold together, this one's added */
    private JsonNode json(URI uri, String what, long[] total) throws HubUnavailableException {
        byte[] bytes = files.read(uri, PluginLimits.MAX_CATALOG_BYTES, what, timeouts.file());
        total[0] += bytes.length;
        if (total[0] > reads.maxTotalBytes()) {
            throw new HubUnavailableException("the hub catalog " + source + " is larger than " + reads.maxTotalBytes()
                    + " bytes in all (its index and catalog files together; reading stopped at " + what + "); the hub must drop old "
                    + "versions or list fewer connectors, or point HUB_CATALOG_URL at a smaller hub");
        }
        ManifestMapping.Parsed parsed = ManifestMapping.parse(bytes, what);
        if (parsed.problem() != null) {
            throw new HubUnavailableException(parsed.problem());
        }
        return parsed.node();
    }

    /**
     * A remote hub's files: over http(s), only from the origin (scheme, host, port) of its index, with
     * no redirect followed, each file whole within its deadline. Nested here because the hub client is
     * the one part of plugin handling that may use the network (spec 1.5).
     */
    static final class RemoteFiles implements HubFiles {
        private final URI index;
        private final String source;
        private final HttpClient http = HttpClient.newBuilder()
                .connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();

        RemoteFiles(URI index) {
            this.index = index;
            this.source = display(index);
        }

        @Override
        public URI index() {
            return index;
        }

        @Override
        public String source() {
            return source;
        }

        @Override
        public URI confine(URI target, String shown) throws HubUnavailableException {
            if (!"https".equals(target.getScheme()) && !"http".equals(target.getScheme())) {
                throw new HubUnavailableException("the hub catalog refers to '" + shown + "', which is not an http(s) URL");
            }
            if (!sameOrigin(target, index)) {
                throw new HubUnavailableException("the hub catalog refers to " + BackendText.quoted(display(target), MAX_QUOTED)
                        + ", which is not on the hub's own origin "
                        + origin(index) + "; a hub must serve its catalog files and tarballs itself, with URLs relative to them");
            }
            return target;
        }

        /** A URL without user info, query or fragment: safe for messages. */
        private static String display(URI uri) {
            return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "")
                    + (uri.getPath() == null ? "" : uri.getPath());
        }

        private static boolean sameOrigin(URI a, URI b) {
            return origin(a).equals(origin(b));
        }

        private static String origin(URI uri) {
            String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
            int port = uri.getPort() >= 0 ? uri.getPort() : "https".equals(scheme) ? 443 : 80;
            return scheme + "://" + (uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT)) + ":" + port;
        }

        @Override
        public byte[] read(URI uri, int limit, String what, Duration timeout) throws HubUnavailableException {
            HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).GET().build();
            AtomicReference<BoundedBody> body = new AtomicReference<>();
            CompletableFuture<HttpResponse<byte[]>> pending = http.sendAsync(request, info -> {
                if (info.statusCode() != 200) {
                    return HttpResponse.BodySubscribers.replacing(null);
                }
                body.set(new BoundedBody(limit, info.headers().firstValueAsLong("Content-Length").orElse(-1)));
                return body.get();
            });
            HttpResponse<byte[]> response;
            try {
                response = pending.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                abandon(pending, body);
                throw late(what, timeout);
            } catch (InterruptedException e) {
                abandon(pending, body);
                Thread.currentThread().interrupt();
                throw new HubUnavailableException(what + " could not be fetched: interrupted");
            } catch (ExecutionException e) {
                if (e.getCause() instanceof BoundedBody.TooLarge) {
                    throw new HubUnavailableException(what + " is larger than " + limit + " bytes");
                }
                if (e.getCause() instanceof HttpTimeoutException && !(e.getCause() instanceof HttpConnectTimeoutException)) {
                    throw late(what, timeout);
                }
                // every way the network can fail is the hub being unavailable, said as what happened and what to do
                throw new HubUnavailableException(what + " could not be fetched from the hub " + source + ": "
                        + (e.getCause() instanceof HttpConnectTimeoutException ? HubFetchFailure.connectTimedOut()
                        : HubFetchFailure.of(e.getCause() == null ? e : e.getCause())));
            }
            if (response.statusCode() / 100 == 3) {
                throw new HubUnavailableException(what + " could not be fetched from the hub " + source + ": HTTP "
                        + response.statusCode() + ", a redirect, which the gateway does not follow; point HUB_CATALOG_URL at the "
                        + "final location and have the hub serve its files without redirects");
            }
            if (response.statusCode() != 200) {
                throw new HubUnavailableException(what + " could not be fetched from the hub " + source + ": "
                        + HubFetchFailure.ofStatus(response.statusCode()));
            }
            return response.body();
        }

        private HubUnavailableException late(String what, Duration timeout) {
            return new HubUnavailableException(what + " could not be fetched from the hub " + source + ": it did not arrive whole within "
                    + timeout.toSeconds() + " seconds; check that the hub is reachable and serves its files in full");
        }

        /** Stops a fetch the caller gave up on, so its body does not go on arriving into memory. */
        private static void abandon(CompletableFuture<?> pending, AtomicReference<BoundedBody> body) {
            pending.cancel(true);
            BoundedBody started = body.get();
            if (started != null) {
                started.abandon();
            }
        }

        /**
         * Collects a hub response's body into memory, refusing it as soon as it passes {@code limit} bytes
         * (or declares a {@code Content-Length} over it), not once it was all read. Its owner can
         * {@linkplain #abandon() abandon} it, which stops the transfer: a body that trickles past the
         * fetch's deadline must not go on filling memory behind the caller's back.
         */
        private static final class BoundedBody implements HttpResponse.BodySubscriber<byte[]> {

            /** The body passed the limit; nothing more of it is read. */
            static final class TooLarge extends Exception {
                private static final long serialVersionUID = 1L;

                TooLarge() {
                    super(null, null, false, false);
                }
            }

            private final int limit;
            private final long declared;
            private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            private final CompletableFuture<byte[]> result = new CompletableFuture<>();
            private volatile Flow.Subscription subscription;
            private volatile boolean abandoned;

            /** @param declared the response's {@code Content-Length}, or -1 when it declared none */
            BoundedBody(int limit, long declared) {
                this.limit = limit;
                this.declared = declared;
            }

            @Override
            public CompletionStage<byte[]> getBody() {
                return result;
            }

            @Override
            public void onSubscribe(Flow.Subscription subscription) {
                this.subscription = subscription;
                if (abandoned) {
                    subscription.cancel();
                    return;
                }
                if (declared > limit) {
                    subscription.cancel();
                    result.completeExceptionally(new TooLarge());
                    return;
                }
                subscription.request(Long.MAX_VALUE);
            }

            @Override
            public void onNext(List<ByteBuffer> buffers) {
                if (result.isDone()) {
                    return;
                }
                for (ByteBuffer buffer : buffers) {
                    if ((long) bytes.size() + buffer.remaining() > limit) {
                        subscription.cancel();
                        result.completeExceptionally(new TooLarge());
                        return;
                    }
                    byte[] chunk = new byte[buffer.remaining()];
                    buffer.get(chunk);
                    bytes.writeBytes(chunk);
                }
            }

            @Override
            public void onError(Throwable error) {
                result.completeExceptionally(error);
            }

            @Override
            public void onComplete() {
                result.complete(bytes.toByteArray());
            }

            /** Stops reading the body: the caller gave up on it. */
            void abandon() {
                abandoned = true;
                Flow.Subscription current = subscription;
                if (current != null) {
                    current.cancel();
                }
            }
        }
    }
}
