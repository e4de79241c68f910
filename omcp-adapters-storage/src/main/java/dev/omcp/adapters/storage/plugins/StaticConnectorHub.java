package dev.omcp.adapters.storage.plugins;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omcp.ports.plugins.BundleRejectedException;
import dev.omcp.ports.plugins.ConnectorHub;
import dev.omcp.ports.plugins.HubCatalog;
import dev.omcp.ports.plugins.HubEntry;
import dev.omcp.ports.plugins.HubRelease;
import dev.omcp.ports.plugins.HubUnavailableException;
import dev.omcp.sdk.text.LogField;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A connector hub: a static catalog (spec 2.18) read from a URL ({@code HUB_CATALOG_URL}) or from a
 * local directory ({@code omcp plugin ... --from <dir>}, air-gapped).
 *
 * <p>Layout: {@code index.json} lists the connectors, each pointing to its own catalog file
 * ({@code connectors/<name>.json}) whose {@code versions} carry the manifest, {@code tarballUrl},
 * {@code signatureUrl}, {@code integrity} (SHA-256 of the tarball) and {@code changelog}. Relative
 * URLs resolve against the file that holds them; a local hub never reads outside its directory and a
 * remote hub only over http(s). A tarball is checked against its integrity and its detached
 * signature before anyone unpacks it.
 *
 * <p>The catalog is not trusted until a tarball verifies, so it must not make the gateway a probe of
 * other hosts: a remote hub reads only from the origin (scheme, host, port) of its configured URL,
 * follows no redirect, and reads at most {@value PluginLimits#MAX_HUB_INDEX_ENTRIES} index entries and
 * {@value PluginLimits#MAX_HUB_VERSIONS} versions per connector.
 */
public final class StaticConnectorHub implements ConnectorHub {
    private static final Logger LOG = LoggerFactory.getLogger(StaticConnectorHub.class);
    /** Characters of a version's manifest violations a log line keeps: enough for the hub's author to see them all. */
    private static final int MAX_LOGGED_VIOLATIONS = 2000;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    private final URI index;
    private final Optional<Path> localRoot;
    private final String source;
    private final TrustRootKeys trust;
    private final ManifestSchema schema = new ManifestSchema();
    private final HttpClient http;
    private final Map<String, URI[]> resolved = new ConcurrentHashMap<>();

    private StaticConnectorHub(URI index, Optional<Path> localRoot, String source, TrustRootKeys trust) {
        this.index = index;
        this.localRoot = localRoot;
        this.source = source;
        this.trust = trust;
        this.http = localRoot.isPresent() ? null : HttpClient.newBuilder()
                .connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
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
            return new StaticConnectorHub(indexUri, Optional.empty(), display(indexUri), trust);
        }
        Path path = trimmed.startsWith("file:") ? Path.of(URI.create(trimmed)) : Path.of(trimmed);
        path = path.toAbsolutePath().normalize();
        Path indexFile = Files.isDirectory(path) ? path.resolve("index.json") : path;
        return new StaticConnectorHub(indexFile.toUri(), Optional.of(indexFile.getParent()), indexFile.getParent().toString(), trust);
    }

    /** A URL without user info, query or fragment: safe for messages. */
    private static String display(URI uri) {
        return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() > 0 ? ":" + uri.getPort() : "") + (uri.getPath() == null ? "" : uri.getPath());
    }

    @Override
    public HubCatalog catalog() throws HubUnavailableException {
        JsonNode indexNode = json(index, "the hub index");
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
            URI entryUri = resolve(index, ref);
            JsonNode entryNode = json(entryUri, "the catalog file of '" + name + "'");
            entry(name, entryUri, entryNode).ifPresent(entries::add);
        }
        entries.sort(Comparator.comparing(HubEntry::name));
        return new HubCatalog(source, entries);
    }

    private Optional<HubEntry> entry(String name, URI entryUri, JsonNode node) throws HubUnavailableException {
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
            resolved.put(name + "@" + number, new URI[] {resolve(entryUri, tarball), resolve(entryUri, signature)});
            releases.add(new HubRelease(number, ManifestMapping.toManifest(manifestNode), tarball, signature, integrity,
                    version.path("changelog").asText(""), version.path("published").asText("")));
        }
        if (releases.isEmpty()) {
            return Optional.empty();
        }
        String latest = node.path("latest").asText(releases.getFirst().version());
        return Optional.of(new HubEntry(name, node.path("displayName").asText(name), node.path("description").asText(""), latest, releases));
    }

    @Override
    public byte[] fetchBundle(HubRelease release) throws HubUnavailableException, BundleRejectedException {
        if (!trust.state().isLoaded()) {
            throw new BundleRejectedException("the tarball cannot be verified: " + trust.state().unavailableReason());
        }
        String key = release.manifest().name() + "@" + release.version();
        if (!resolved.containsKey(key)) {
            catalog();
        }
        URI[] uris = resolved.get(key);
        if (uris == null) {
            throw new HubUnavailableException("the hub catalog no longer lists " + key);
        }
        byte[] tarball = fetch(uris[0], PluginLimits.MAX_BUNDLE_BYTES, "the tarball of " + key);
        String actual = PluginFiles.integrity(tarball);
        if (!MessageDigest.isEqual(actual.getBytes(StandardCharsets.US_ASCII), release.integrity().getBytes(StandardCharsets.US_ASCII))) {
            throw new BundleRejectedException("the tarball of " + key + " does not match the catalog's integrity (catalog "
                    + release.integrity() + ", downloaded " + actual + ")");
        }
        byte[] signature = fetch(uris[1], PluginLimits.MAX_SIGNATURE_BYTES, "the tarball signature of " + key);
        Optional<String> problem = trust.verify(tarball, signature);
        if (problem.isPresent()) {
            throw new BundleRejectedException("the tarball of " + key + ": " + problem.get());
        }
        return tarball;
    }

    private URI resolve(URI base, String reference) throws HubUnavailableException {
        URI target;
        try {
            target = base.resolve(new URI(reference));
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new HubUnavailableException("the hub catalog has an invalid URL '" + reference + "'");
        }
        if (localRoot.isPresent()) {
            if (!"file".equals(target.getScheme())) {
                throw new HubUnavailableException("the local hub refers to '" + reference + "' outside its directory");
            }
            Path path = Path.of(target).normalize();
            if (!path.startsWith(localRoot.get())) {
                throw new HubUnavailableException("the local hub refers to '" + reference + "' outside its directory");
            }
            return target;
        }
        if (!"https".equals(target.getScheme()) && !"http".equals(target.getScheme())) {
            throw new HubUnavailableException("the hub catalog refers to '" + reference + "', which is not an http(s) URL");
        }
        if (!sameOrigin(target, index)) {
            throw new HubUnavailableException("the hub catalog refers to " + display(target) + ", which is not on the hub's own origin "
                    + origin(index) + "; a hub must serve its catalog files and tarballs itself, with URLs relative to them");
        }
        return target;
    }

    private static boolean sameOrigin(URI a, URI b) {
        return origin(a).equals(origin(b));
    }

    private static String origin(URI uri) {
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        int port = uri.getPort() >= 0 ? uri.getPort() : "https".equals(scheme) ? 443 : 80;
        return scheme + "://" + (uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT)) + ":" + port;
    }

    private JsonNode json(URI uri, String what) throws HubUnavailableException {
        byte[] bytes = fetch(uri, PluginLimits.MAX_CATALOG_BYTES, what);
        ManifestMapping.Parsed parsed = ManifestMapping.parse(bytes, what);
        if (parsed.problem() != null) {
            throw new HubUnavailableException(parsed.problem());
        }
        return parsed.node();
    }

    private byte[] fetch(URI uri, int limit, String what) throws HubUnavailableException {
        if (localRoot.isPresent()) {
            Path path = Path.of(uri);
            try {
                return PluginFiles.read(localRoot.get(), path, limit, what);
            } catch (PluginFiles.Unreadable e) {
                throw new HubUnavailableException(e.getMessage() + " (hub " + source + ")");
            }
        }
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(REQUEST_TIMEOUT).GET().build();
        try {
            HttpResponse<InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = response.body()) {
                if (response.statusCode() / 100 == 3) {
                    throw new HubUnavailableException(what + " could not be fetched from the hub " + source + ": HTTP "
                            + response.statusCode() + ", a redirect, which the gateway does not follow; point HUB_CATALOG_URL at the "
                            + "final location and have the hub serve its files without redirects");
                }
                if (response.statusCode() != 200) {
                    throw new HubUnavailableException(what + " could not be fetched from the hub " + source + ": HTTP " + response.statusCode());
                }
                byte[] bytes = body.readNBytes(limit + 1);
                if (bytes.length > limit) {
                    throw new HubUnavailableException(what + " is larger than " + limit + " bytes");
                }
                return bytes;
            }
        } catch (IOException e) {
            throw new HubUnavailableException(what + " could not be fetched from the hub " + source + ": " + e.getClass().getSimpleName());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HubUnavailableException(what + " could not be fetched: interrupted");
        }
    }
}
