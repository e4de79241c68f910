package dev.omcp.app.plugins;

import dev.omcp.app.plugins.fixture.GuardConnectorFactory;
import dev.omcp.testkit.packaging.PluginPackager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.stream.Stream;

/** The reference plugins of the testkit build, and a guard plugin with a hook built from this module's test classes. */
final class TestPlugins {
    private TestPlugins() {}

    static Path reference() {
        Path dir = Path.of(System.getProperty("omcp.reference.dir", "../omcp-testkit/target/reference-plugins"));
        if (!Files.isDirectory(dir.resolve("hub"))) {
            throw new IllegalStateException("the reference plugins are built by omcp-testkit; build the reactor (mvn verify), missing " + dir);
        }
        return dir;
    }

    static Path hub() {
        return reference().resolve("hub").toAbsolutePath();
    }

    static KeyPair newKey() {
        try {
            return KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A trust root holding the reference plugins' key and {@code extra}. */
    static Path trustRoot(Path dir, KeyPair extra) throws IOException {
        String pem = Files.readString(reference().resolve("trust-root.pem")) + PluginPackager.publicKeyPem(extra.getPublic());
        return Files.writeString(dir.resolve("trust-root.pem"), pem);
    }

    /** Packs the guard plugin (a tool_pre_invoke hook) signed by {@code key} into {@code work}. */
    static PluginPackager.Packed guard(Path work, KeyPair key) {
        return guard(work, key, 0);
    }

    /** The guard plugin with {@code paddingBytes} of incompressible data in its JAR, for size limits. */
    static PluginPackager.Packed guard(Path work, KeyPair key, int paddingBytes) {
        return guard(work, key, paddingBytes, "1.0.0", GuardConnectorFactory.class.getName());
    }

    /**
     * The guard plugin at {@code version}, whose JAR declares {@code factoryClass} as its connector
     * factory: a class that is not in the JAR makes a bundle that verifies but does not load.
     */
    static PluginPackager.Packed guard(Path work, KeyPair key, String version, String factoryClass) {
        return guard(work, key, 0, version, factoryClass);
    }

    private static PluginPackager.Packed guard(Path work, KeyPair key, int paddingBytes, String version, String factoryClass) {
        try {
            Path fixtures = Path.of(GuardConnectorFactory.class.getResource("GuardConnectorFactory.class").toURI()).getParent();
            String packagePath = GuardConnectorFactory.class.getPackageName().replace('.', '/');
            Path classes = Files.createDirectories(work.resolve("classes").resolve(packagePath));
            try (Stream<Path> files = Files.list(fixtures)) {
                for (Path file : files.toList()) {
                    Files.copy(file, classes.resolve(file.getFileName()));
                }
            }
            Path services = Files.createDirectories(work.resolve("resources/META-INF/services"));
            Files.writeString(services.resolve("dev.omcp.sdk.connector.ConnectorFactory"), factoryClass + "\n");
            if (paddingBytes > 0) {
                byte[] padding = new byte[paddingBytes];
                new java.util.Random(42).nextBytes(padding);
                Files.write(work.resolve("resources/padding.bin"), padding);
            }
            Path manifest = Files.writeString(work.resolve("manifest.json"), """
                    {
                      "schemaVersion": 1,
                      "name": "guard",
                      "displayName": "Guard",
                      "version": "${version}",
                      "description": "Refuses one tool through a hook",
                      "signalTypes": ["traces"],
                      "capabilities": {},
                      "compat": { "serverVersion": ">=0.0.0" },
                      "hooks": [
                        { "kind": "tool_pre_invoke", "module": "dev/omcp/app/plugins/fixture/GuardHook.class", "priority": 10 },
                        { "kind": "tool_post_invoke", "module": "../../outside/Evil.class" }
                      ]
                    }
                    """);
            return PluginPackager.pack(new PluginPackager.Source("guard", version, work.resolve("classes"), work.resolve("resources"), manifest),
                    key.getPrivate(), work.resolve("out/guard"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The entries of a connector list that are not builtin connectors (those are always listed too). */
    static com.fasterxml.jackson.databind.JsonNode withoutBuiltins(com.fasterxml.jackson.databind.JsonNode connectors) {
        com.fasterxml.jackson.databind.node.ArrayNode plugins = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
        connectors.forEach(c -> {
            if (!"builtin".equals(c.path("origin").asText())) {
                plugins.add(c);
            }
        });
        return plugins;
    }
}
