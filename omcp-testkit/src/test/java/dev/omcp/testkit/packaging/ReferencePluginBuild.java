package dev.omcp.testkit.packaging;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.util.List;

/**
 * The build step that turns the compiled reference plugins into what tests and the acceptance run
 * use (run by exec-maven-plugin in {@code process-test-classes}; downloads nothing):
 *
 * <ul>
 *   <li>a throwaway Ed25519 key pair, generated on every build; only its public half is written,
 *       as {@code trust-root.pem}, and the private half is dropped when the program ends;
 *   <li>{@code plugins/<name>/}: each reference plugin as a signed plugin directory;
 *   <li>{@code hub/}: a local hub catalog with signed tarballs of both plugins.
 * </ul>
 *
 * <p>Arguments: the reference-plugin sources, the compiled classes (one directory per plugin), the
 * output directory and the version.
 */
public final class ReferencePluginBuild {
    static final List<String> PLUGINS = List.of("tempo", "zipkin");

    private ReferencePluginBuild() {}

    public static void main(String[] args) throws IOException, GeneralSecurityException {
        if (args.length != 4) {
            throw new IllegalArgumentException("usage: ReferencePluginBuild <sources> <classes> <output> <version>");
        }
        Path sources = Path.of(args[0]);
        Path classes = Path.of(args[1]);
        Path output = Path.of(args[2]);
        String version = args[3];
        KeyPair key = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        Files.createDirectories(output);
        Files.writeString(output.resolve("trust-root.pem"), PluginPackager.publicKeyPem(key.getPublic()));
        HubWriter hub = new HubWriter(output.resolve("hub"));
        for (String name : PLUGINS) {
            PluginPackager.Packed packed = PluginPackager.pack(
                    new PluginPackager.Source(name, version, classes.resolve(name), sources.resolve(name).resolve("resources"),
                            sources.resolve(name).resolve("manifest.json")),
                    key.getPrivate(),
                    output.resolve("plugins").resolve(name));
            hub.publish(packed, "Reference plugin built with OMCP " + version + ".", "2026-01-01");
        }
        System.out.println("reference plugins " + PLUGINS + " " + version + " signed and published to " + output.resolve("hub"));
    }
}
