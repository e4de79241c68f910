package dev.omcp.testkit.guide;

import com.acme.jaeger.AuditHook;
import dev.omcp.testkit.packaging.PluginPackager;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A connector author's project directory laid out as docs/writing-a-connector.md says, around the
 * example classes of {@code com.acme.jaeger}: the plugin's compiled classes in {@code target/classes},
 * its service registration in {@code src/main/resources}, the manifest template in
 * {@code src/main/plugin}, the trust root in {@code src/test/resources}. Programs run in it in a JVM
 * of their own, whose working directory is the project, as Maven runs an author's build.
 */
final class AuthorProject {
    static final String EXAMPLE_PACKAGE = "com.acme.jaeger";
    /** The classes that go into the plugin's JAR; the others of the package are the author's build and tests. */
    static final List<String> PLUGIN_CLASSES = Stream.of("AuditHook", "JaegerConnectorFactory", "JaegerConnector")
            .map(name -> EXAMPLE_PACKAGE + "." + name).toList();
    private static final String FACTORY = EXAMPLE_PACKAGE + ".JaegerConnectorFactory";
    /** Generous: the build machine may have two slow cores, and a JVM starts for every run. */
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(3);

    private final Path root;

    private AuthorProject(Path root) {
        this.root = root;
    }

    /** What a program printed and how it ended. */
    record Run(int exitCode, String output) {}

    static AuthorProject layOut(Path root, String manifestTemplate, PublicKey trustRoot) throws IOException {
        Path classes = Files.createDirectories(root.resolve("target/classes").resolve(EXAMPLE_PACKAGE.replace('.', '/')));
        Path compiled = compiledExamples();
        try (Stream<Path> files = Files.list(compiled)) {
            for (Path file : files.filter(AuthorProject::isPluginClassFile).toList()) {
                Files.copy(file, classes.resolve(file.getFileName()));
            }
        }
        Path services = Files.createDirectories(root.resolve("src/main/resources/META-INF/services"));
        Files.writeString(services.resolve("dev.omcp.sdk.connector.ConnectorFactory"), FACTORY + "\n");
        Files.writeString(Files.createDirectories(root.resolve("src/main/plugin")).resolve("manifest.json"), manifestTemplate);
        Files.writeString(Files.createDirectories(root.resolve("src/test/resources")).resolve("trust-root.pem"),
                PluginPackager.publicKeyPem(trustRoot));
        return new AuthorProject(root);
    }

    /** Where the build compiled {@code com.acme.jaeger}: this module's test classes. */
    private static Path compiledExamples() {
        try {
            Path testClasses = Path.of(AuditHook.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return testClasses.resolve(EXAMPLE_PACKAGE.replace('.', '/'));
        } catch (URISyntaxException e) {
            throw new IllegalStateException("the test classes' location is not a path", e);
        }
    }

    private static boolean isPluginClassFile(Path file) {
        String name = file.getFileName().toString();
        if (!name.endsWith(".class")) {
            return false;
        }
        String topLevel = EXAMPLE_PACKAGE + "." + name.substring(0, name.length() - ".class".length()).replaceFirst("\\$.*", "");
        return PLUGIN_CLASSES.contains(topLevel);
    }

    Path path(String relative) {
        return root.resolve(relative);
    }

    /**
     * Runs {@code mainClass} with this module's test class path (where the SDK and the kit are, as
     * in an author's test scope) in the project directory, with {@code environment} added.
     */
    Run run(String mainClass, List<String> args, Map<String, String> environment) throws IOException, InterruptedException {
        String classPath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry -> Path.of(entry).toAbsolutePath().toString())
                .collect(Collectors.joining(File.pathSeparator));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classPath, mainClass));
        command.addAll(args);
        Path log = Files.createTempFile(root.getParent(), mainClass.substring(mainClass.lastIndexOf('.') + 1), ".log");
        ProcessBuilder builder = new ProcessBuilder(command).directory(root.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().putAll(environment);
        Process process = builder.start();
        if (!process.waitFor(RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            return new Run(-1, "did not end within " + RUN_TIMEOUT.toMinutes() + " minutes:\n" + Files.readString(log));
        }
        return new Run(process.exitValue(), Files.readString(log));
    }
}
