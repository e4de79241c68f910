package dev.omcp.testkit.packaging;

import dev.omcp.sdk.connector.ConnectorFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The connector factory a plugin JAR registers in {@code META-INF/services}, checked before anything
 * is signed: the gateway finds it only when loading, and by then a signed hub tarball was published.
 * The usual cause is packing before compiling (an empty {@code target/classes}, while the services file
 * comes from {@code src/main/resources}).
 */
final class FactoryRegistration {
    static final String SERVICES = "META-INF/services/" + ConnectorFactory.class.getName();

    private FactoryRegistration() {}

    /** @throws IllegalArgumentException naming what is missing and what to do */
    static void check(Map<String, byte[]> entries, Path classes) {
        byte[] services = entries.get(SERVICES);
        if (services == null) {
            throw new IllegalArgumentException("the plugin JAR would register no connector factory: neither the classes nor the "
                    + "resources hold " + SERVICES + ". Add that file, naming the class that implements " + ConnectorFactory.class.getName()
                    + "; nothing was packed or signed");
        }
        List<String> named = classNames(services);
        if (named.isEmpty()) {
            throw new IllegalArgumentException(SERVICES + " names no class: write the name of the class that implements "
                    + ConnectorFactory.class.getName() + " into it; nothing was packed or signed");
        }
        for (String className : named) {
            String classFile = className.replace('.', '/') + ".class";
            if (!entries.containsKey(classFile)) {
                throw new IllegalArgumentException("the plugin JAR would not contain " + className + ", the connector factory " + SERVICES
                        + " names: there is no " + classFile + " under " + classes + ". Compile the plugin before packing it (for "
                        + "example `mvn package`, or run the packing program after the compile phase), or correct the name in the "
                        + "services file; nothing was packed or signed");
            }
        }
    }

    /** The names of a services file: one a line, {@code #} starting a comment, blanks ignored (as {@code ServiceLoader} reads it). */
    private static List<String> classNames(byte[] services) {
        return new String(services, StandardCharsets.UTF_8).lines()
                .map(line -> line.indexOf('#') >= 0 ? line.substring(0, line.indexOf('#')) : line)
                .map(String::strip)
                .filter(line -> !line.isEmpty())
                .toList();
    }
}
