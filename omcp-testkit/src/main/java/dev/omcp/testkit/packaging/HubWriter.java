package dev.omcp.testkit.packaging;

import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Writes a static hub catalog (spec 2.18) that {@code omcp plugin ... --from <dir>} and
 * {@code HUB_CATALOG_URL} read: {@code index.json}, one {@code connectors/<name>.json} per
 * connector, and {@code tarballs/<name>-<version>.tgz} with its {@code .sig}.
 */
public final class HubWriter {
    private final Path root;
    private final List<JsonObject> index = new ArrayList<>();

    public HubWriter(Path root) {
        this.root = root;
    }

    /**
     * Publishes one version of a packed plugin as the connector's only and latest version.
     *
     * @param changelog what changed, shown by {@code omcp plugin info}
     * @param published the publication date (ISO-8601)
     */
    public HubWriter publish(PluginPackager.Packed packed, String changelog, String published) throws IOException {
        JsonObject manifest = packed.manifest();
        String name = manifest.getString("name");
        String version = manifest.getString("version");
        String tarball = name + "-" + version + ".tgz";
        Files.createDirectories(root.resolve("tarballs"));
        Files.write(root.resolve("tarballs").resolve(tarball), packed.bundle());
        Files.write(root.resolve("tarballs").resolve(tarball + ".sig"), packed.bundleSignature());
        JsonObject entry = Jsonp.object()
                .add("schemaVersion", 1)
                .add("name", name)
                .add("displayName", manifest.getString("displayName", name))
                .add("description", manifest.getString("description", ""))
                .add("homepage", manifest.getString("homepage", ""))
                .add("license", manifest.getString("license", ""))
                .add("latest", version)
                .add("versions", Jsonp.array().add(Jsonp.object()
                        .add("version", version)
                        .add("published", published)
                        .add("changelog", changelog)
                        .add("tarballUrl", "../tarballs/" + tarball)
                        .add("signatureUrl", "../tarballs/" + tarball + ".sig")
                        .add("integrity", PluginPackager.integrity(packed.bundle()))
                        .add("manifest", manifest)))
                .build();
        PluginPackager.write(root.resolve("connectors").resolve(name + ".json"), PluginPackager.pretty(entry));
        index.removeIf(item -> item.getString("name").equals(name));
        index.add(Jsonp.object()
                .add("name", name)
                .add("displayName", entry.getString("displayName"))
                .add("description", entry.getString("description"))
                .add("latest", version)
                .add("catalog", "connectors/" + name + ".json")
                .build());
        writeIndex();
        return this;
    }

    private void writeIndex() {
        JsonArrayBuilder connectors = Jsonp.array();
        index.stream().sorted(Comparator.comparing(item -> item.getString("name"))).forEach(connectors::add);
        PluginPackager.write(root.resolve("index.json"), PluginPackager.pretty(Jsonp.object()
                .add("schemaVersion", 1)
                .add("connectors", connectors)
                .build()));
    }
}
