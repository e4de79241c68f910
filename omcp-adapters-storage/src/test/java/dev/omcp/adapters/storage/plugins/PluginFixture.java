package dev.omcp.adapters.storage.plugins;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.omcp.adapters.storage.plugins.fixture.EchoConnectorFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/** Builds plugin directories and bundles the way an author's build would, for tests. */
final class PluginFixture {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String FACTORY_SERVICE = "META-INF/services/dev.omcp.sdk.connector.ConnectorFactory";

    private final String name;
    private String version = "1.0.0";
    private String directoryName;
    private KeyPair signer;
    private boolean base64Signature;
    private final List<ObjectNode> hooks = new ArrayList<>();
    private final List<Consumer<ObjectNode>> manifestEdits = new ArrayList<>();
    private String services = EchoConnectorFactory.class.getName() + "\n";

    private PluginFixture(String name) {
        this.name = name;
        this.directoryName = name;
    }

    static PluginFixture named(String name) {
        return new PluginFixture(name);
    }

    PluginFixture version(String value) {
        this.version = value;
        return this;
    }

    PluginFixture directory(String value) {
        this.directoryName = value;
        return this;
    }

    PluginFixture signedBy(KeyPair key) {
        this.signer = key;
        return this;
    }

    PluginFixture base64Signature() {
        this.base64Signature = true;
        return this;
    }

    PluginFixture hook(String kind, String module) {
        ObjectNode hook = JSON.createObjectNode().put("kind", kind).put("module", module);
        hooks.add(hook);
        return this;
    }

    PluginFixture editManifest(Consumer<ObjectNode> edit) {
        manifestEdits.add(edit);
        return this;
    }

    PluginFixture services(String content) {
        this.services = content;
        return this;
    }

    /** The files of the plugin: relative path to bytes. */
    Map<String, byte[]> files() {
        byte[] jar = jar();
        ObjectNode manifest = JSON.createObjectNode();
        manifest.put("schemaVersion", 1).put("name", name).put("displayName", "Echo " + name).put("version", version)
                .put("description", "a test connector").put("license", "Apache-2.0");
        manifest.putArray("signalTypes").add("traces");
        manifest.putObject("capabilities").put("queryTraces", true);
        manifest.putObject("compat").put("serverVersion", ">=0.1.0");
        manifest.putObject("configSchema").put("type", "object");
        manifest.put("integrity", PluginFiles.integrity(jar));
        if (!hooks.isEmpty()) {
            ArrayNode array = manifest.putArray("hooks");
            hooks.forEach(array::add);
        }
        manifestEdits.forEach(edit -> edit.accept(manifest));
        byte[] manifestBytes;
        byte[] packageBytes;
        try {
            manifestBytes = JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(manifest);
            ObjectNode pkg = JSON.createObjectNode().put("name", "@test/" + name).put("version", version).put("main", name + "-connector.jar");
            pkg.putObject("observabilityMcp").put("kind", "connector").put("name", name).put("manifest", "manifest.json");
            packageBytes = JSON.writeValueAsBytes(pkg);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put("package.json", packageBytes);
        files.put("manifest.json", manifestBytes);
        files.put(name + "-connector.jar", jar);
        if (signer != null) {
            byte[] signature = Keys.sign(signer, manifestBytes);
            files.put("manifest.json.sig", base64Signature ? Base64.getEncoder().encode(signature) : signature);
        }
        return files;
    }

    /** Writes the plugin as {@code <parent>/<directory>} and returns that directory. */
    Path writeInto(Path parent) {
        Path root = parent.resolve(directoryName);
        try {
            Files.createDirectories(root);
            for (Map.Entry<String, byte[]> file : files().entrySet()) {
                Files.write(root.resolve(file.getKey()), file.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return root;
    }

    /** The plugin as a {@code .tgz} bundle, its files under {@code prefix} (empty for none). */
    byte[] bundle(String prefix) {
        TarWriter tar = new TarWriter();
        if (!prefix.isEmpty()) {
            tar.directory(prefix);
        }
        files().forEach((path, bytes) -> tar.file(prefix.isEmpty() ? path : prefix + "/" + path, bytes));
        return tar.tgz();
    }

    private byte[] jar() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(out)) {
            Path fixtureDir = Path.of(EchoConnectorFactory.class.getResource("EchoConnectorFactory.class").toURI()).getParent();
            String packagePath = EchoConnectorFactory.class.getPackageName().replace('.', '/');
            try (Stream<Path> classes = Files.list(fixtureDir)) {
                for (Path file : classes.sorted().toList()) {
                    jar.putNextEntry(new JarEntry(packagePath + "/" + file.getFileName()));
                    try (InputStream in = Files.newInputStream(file)) {
                        in.transferTo(jar);
                    }
                    jar.closeEntry();
                }
            }
            if (services != null) {
                jar.putNextEntry(new JarEntry(FACTORY_SERVICE));
                jar.write(services.getBytes(StandardCharsets.UTF_8));
                jar.closeEntry();
            }
            jar.putNextEntry(new JarEntry("plugin-name.txt"));
            jar.write(name.getBytes(StandardCharsets.UTF_8));
            jar.closeEntry();
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        return out.toByteArray();
    }
}
