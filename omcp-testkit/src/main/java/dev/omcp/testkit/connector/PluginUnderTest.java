package dev.omcp.testkit.connector;

import java.nio.file.Path;
import java.util.Objects;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that verifies and loads a plugin directory once per test class, exactly as
 * the gateway would; a plugin the gateway would refuse fails the whole class with every reason.
 *
 * <pre>{@code
 * class MyConnectorTest {
 *     @RegisterExtension
 *     static final PluginUnderTest plugin = PluginUnderTest.at(Path.of("target/plugin/my-connector"))
 *             .trustRoot(Path.of("src/test/resources/trust-root.pem"));
 *
 *     @Test
 *     void conformsToTheSdkContract() {
 *         try (MyBackendRecording mock = MyBackendRecording.start()) {
 *             plugin.verified().checkContract(mock.source("my-connector"), SampleQueries.of("checkout", mock.window()))
 *                     .assertConforms();
 *         }
 *     }
 * }
 * }</pre>
 */
public final class PluginUnderTest implements BeforeAllCallback {
    private final Path directory;
    private Path trustRoot;
    private volatile VerifiedPlugin verified;

    private PluginUnderTest(Path directory) {
        this.directory = Objects.requireNonNull(directory, "directory");
    }

    /** The plugin directory to verify: the one the author's build produced. */
    public static PluginUnderTest at(Path directory) {
        return new PluginUnderTest(directory);
    }

    /** The PEM public key its signature must verify against. */
    public PluginUnderTest trustRoot(Path pem) {
        this.trustRoot = Objects.requireNonNull(pem, "pem");
        return this;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (trustRoot == null) {
            throw new IllegalStateException("PluginUnderTest needs trustRoot(path to the PEM public key) to verify like the gateway");
        }
        verified = ConnectorTestKit.load(directory, trustRoot);
    }

    /** The verified, loaded plugin. */
    public VerifiedPlugin verified() {
        if (verified == null) {
            throw new IllegalStateException("the plugin is loaded before the tests: register PluginUnderTest with @RegisterExtension on a static field");
        }
        return verified;
    }
}
