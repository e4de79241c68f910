package dev.omcp.testkit.packaging;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@link PluginPackager#pack} refuses before signing: a plugin whose registered factory never loads. */
class PluginPackagerTest {
    private static final String FACTORY_FILE = "com/acme/jaeger/JaegerConnectorFactory.class";

    @TempDir
    Path tmp;
    private Path classes;
    private Path resources;
    private Path manifest;
    private Path output;
    private PrivateKey key;

    @BeforeEach
    void setUp() throws IOException, NoSuchAlgorithmException {
        classes = Files.createDirectories(tmp.resolve("target/classes"));
        resources = Files.createDirectories(tmp.resolve("src/main/resources/META-INF/services")).getParent().getParent();
        manifest = Files.writeString(tmp.resolve("manifest.json"), """
                {"schemaVersion": 1, "name": "jaeger", "version": "${version}", "description": "traces"}
                """);
        output = tmp.resolve("target/plugin/jaeger");
        key = KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPrivate();
    }

    private void services(String content) throws IOException {
        Files.writeString(resources.resolve(FactoryRegistration.SERVICES), content);
    }

    private PluginPackager.Packed pack() throws IOException {
        return PluginPackager.pack(new PluginPackager.Source("jaeger", "1.0.0", classes, resources, manifest), key, output);
    }

    @Test
    void aFactoryTheServicesFileNamesButTheClassesLack_isRefusedBeforeAnythingIsSigned() throws IOException {
        // target/classes is empty: the plugin was packed before it was compiled
        services("com.acme.jaeger.JaegerConnectorFactory\n");

        assertThatThrownBy(this::pack).isInstanceOf(IllegalArgumentException.class).hasMessage(
                "the plugin JAR would not contain com.acme.jaeger.JaegerConnectorFactory, the connector factory "
                        + "META-INF/services/dev.omcp.sdk.connector.ConnectorFactory names: there is no " + FACTORY_FILE + " under "
                        + classes + ". Compile the plugin before packing it (for example `mvn package`, or run the packing program "
                        + "after the compile phase), or correct the name in the services file; nothing was packed or signed");
        assertThat(output).doesNotExist();
    }

    @Test
    void aJarRegisteringNoFactory_isRefused() throws IOException {
        Files.createDirectories(classes.resolve(FACTORY_FILE).getParent());
        Files.write(classes.resolve(FACTORY_FILE), new byte[] {(byte) 0xCA, (byte) 0xFE});

        assertThatThrownBy(this::pack).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the plugin JAR would register no connector factory: neither the classes nor the resources hold "
                        + "META-INF/services/dev.omcp.sdk.connector.ConnectorFactory");
        services("# the factory goes here\n\n");
        assertThatThrownBy(this::pack).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("META-INF/services/dev.omcp.sdk.connector.ConnectorFactory names no class");
        assertThat(output).doesNotExist();
    }

    @Test
    void aFactoryThatIsInTheClasses_isPacked_commentsAndBlankLinesOfTheServicesFileAllowed() throws IOException {
        Files.createDirectories(classes.resolve(FACTORY_FILE).getParent());
        Files.write(classes.resolve(FACTORY_FILE), new byte[] {(byte) 0xCA, (byte) 0xFE});
        services("# the one factory\n\n  com.acme.jaeger.JaegerConnectorFactory  # ours\n");

        PluginPackager.Packed packed = pack();

        assertThat(packed.directory().resolve("jaeger-connector.jar")).exists();
        assertThat(packed.directory().resolve("manifest.json.sig")).exists();
    }
}
