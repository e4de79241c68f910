package dev.omcp.testkit.reference;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the build laid out the reference plugins (system property set by the testkit POM). */
final class ReferencePlugins {
    private ReferencePlugins() {}

    static Path root() {
        String dir = System.getProperty("omcp.reference.dir", "");
        if (dir.isBlank() || !Files.isDirectory(Path.of(dir))) {
            throw new IllegalStateException("the reference plugins are built by the omcp-testkit build (process-test-classes); "
                    + "run the tests through Maven, got omcp.reference.dir='" + dir + "'");
        }
        return Path.of(dir);
    }

    static Path plugin(String name) {
        return root().resolve("plugins").resolve(name);
    }

    static Path trustRoot() {
        return root().resolve("trust-root.pem");
    }
}
