package dev.omcp.testkit.packaging;

import dev.omcp.sdk.json.Jsonp;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import jakarta.json.JsonWriter;
import jakarta.json.stream.JsonGenerator;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * Builds a signed connector plugin from compiled classes: the layout of ARCHITECTURE.md ("Plugins in
 * Java") that the gateway's loader checks.
 *
 * <pre>{@code
 * PluginPackager.Packed packed = PluginPackager.pack(
 *         new PluginPackager.Source("tempo", "1.2.0", classesDir, resourcesDir, manifestTemplate),
 *         signingKey, outputDir.resolve("tempo"));
 * }</pre>
 *
 * The JAR is reproducible (sorted entries, fixed timestamps), so its {@code integrity} only changes
 * when the code does.
 */
public final class PluginPackager {
    /** Entry timestamps of every JAR and tarball: 1980-02-01, the earliest a ZIP can hold. */
    static final long FIXED_TIME = 315_532_800_000L + 31L * 24 * 3600 * 1000;

    private PluginPackager() {}

    /**
     * What to pack.
     *
     * @param name the connector name (the marker name, the manifest name, the directory name)
     * @param version the semantic version written into the manifest
     * @param classes the compiled classes
     * @param resources resources to add to the JAR (for example {@code META-INF/services}), or
     *     {@code null}
     * @param manifestTemplate a {@code manifest.json} whose {@code version} may be {@code ${version}};
     *     {@code integrity} is added
     */
    public record Source(String name, String version, Path classes, Path resources, Path manifestTemplate) {}

    /**
     * The packed plugin.
     *
     * @param directory the plugin directory ({@code package.json}, {@code manifest.json},
     *     {@code manifest.json.sig}, the entry JAR)
     * @param manifest the manifest as written
     * @param bundle the {@code .tgz} of the directory, files under {@code package/}
     * @param bundleSignature the detached signature of the bundle, for the hub
     */
    public record Packed(Path directory, JsonObject manifest, byte[] bundle, byte[] bundleSignature) {}

    /**
     * Packs {@code source} into {@code directory}, signing with {@code signingKey}.
     *
     * @throws IllegalArgumentException when the JAR would register no connector factory, or name one
     *     it does not contain (its classes not compiled yet): nothing is written then, as such a
     *     plugin is signed and published yet never loads
     */
    public static Packed pack(Source source, PrivateKey signingKey, Path directory) throws IOException {
        Map<String, byte[]> entries = entries(source.classes(), source.resources());
        FactoryRegistration.check(entries, source.classes());
        byte[] jar = jar(entries);
        JsonObject manifest = manifest(Files.readString(source.manifestTemplate()), source.version(), jar);
        byte[] manifestBytes = pretty(manifest).getBytes(StandardCharsets.UTF_8);
        String jarName = source.name() + "-connector.jar";
        JsonObject packageJson = Jsonp.object()
                .add("name", "@omcp-connectors/" + source.name())
                .add("version", source.version())
                .add("description", manifest.getString("description", ""))
                .add("main", jarName)
                .add("observabilityMcp", Jsonp.object().add("kind", "connector").add("name", source.name()).add("manifest", "manifest.json"))
                .build();
        Map<String, byte[]> files = new TreeMap<>();
        files.put("package.json", pretty(packageJson).getBytes(StandardCharsets.UTF_8));
        files.put("manifest.json", manifestBytes);
        files.put("manifest.json.sig", Base64.getEncoder().encode(sign(signingKey, manifestBytes)));
        files.put(jarName, jar);
        Files.createDirectories(directory);
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Files.write(directory.resolve(file.getKey()), file.getValue());
        }
        byte[] bundle = TarGz.write("package", files);
        return new Packed(directory, manifest, bundle, Base64.getEncoder().encode(sign(signingKey, bundle)));
    }

    /** The manifest with {@code version} set and {@code integrity} of {@code jar} added. */
    static JsonObject manifest(String template, String version, byte[] jar) {
        JsonObject parsed;
        try (JsonReader reader = Jsonp.reader((template))) {
            parsed = reader.readObject();
        }
        JsonObjectBuilder builder = Jsonp.object();
        for (Map.Entry<String, JsonValue> member : parsed.entrySet()) {
            if (member.getKey().equals("version")) {
                builder.add("version", version);
            } else if (!member.getKey().equals("integrity")) {
                builder.add(member.getKey(), member.getValue());
            }
        }
        return builder.add("integrity", integrity(jar)).build();
    }

    /** {@code sha256-<base64>} of {@code bytes}: the manifest's {@code integrity} of the entry JAR. */
    public static String integrity(byte[] bytes) {
        try {
            return "sha256-" + Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** Signs {@code data}: Ed25519, SHA256withRSA or SHA256withECDSA by the key's type. */
    public static byte[] sign(PrivateKey key, byte[] data) {
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "EdDSA" -> "Ed25519";
            default -> throw new IllegalArgumentException("a " + key.getAlgorithm() + " key cannot sign plugins; use Ed25519, RSA or EC");
        };
        try {
            Signature signature = Signature.getInstance(algorithm);
            signature.initSign(key);
            signature.update(data);
            return signature.sign();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("signing failed: " + e.getMessage(), e);
        }
    }

    /** The PEM form of a public key, what {@code PLUGIN_TRUST_ROOT} points at. */
    public static String publicKeyPem(PublicKey key) {
        return "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(key.getEncoded())
                + "\n-----END PUBLIC KEY-----\n";
    }

    /** A reproducible JAR of {@code classes} and {@code resources}. */
    public static byte[] jar(Path classes, Path resources) throws IOException {
        return jar(entries(classes, resources));
    }

    /** The JAR's entries, by name: {@code classes}, then {@code resources} over them. */
    private static Map<String, byte[]> entries(Path classes, Path resources) throws IOException {
        Map<String, byte[]> entries = new TreeMap<>();
        collect(classes, entries);
        if (resources != null && Files.isDirectory(resources)) {
            collect(resources, entries);
        }
        return entries;
    }

    private static byte[] jar(Map<String, byte[]> entries) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JarOutputStream jar = new JarOutputStream(out)) {
            JarEntry manifestEntry = new JarEntry("META-INF/MANIFEST.MF");
            manifestEntry.setTime(FIXED_TIME);
            jar.putNextEntry(manifestEntry);
            manifest.write(jar);
            jar.closeEntry();
            List<String> directories = new ArrayList<>();
            for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
                String name = entry.getKey();
                for (int slash = name.indexOf('/'); slash > 0; slash = name.indexOf('/', slash + 1)) {
                    String directory = name.substring(0, slash + 1);
                    if (!directories.contains(directory) && !directory.equals("META-INF/")) {
                        directories.add(directory);
                        JarEntry dirEntry = new JarEntry(directory);
                        dirEntry.setTime(FIXED_TIME);
                        jar.putNextEntry(dirEntry);
                        jar.closeEntry();
                    }
                }
                JarEntry fileEntry = new JarEntry(name);
                fileEntry.setTime(FIXED_TIME);
                jar.putNextEntry(fileEntry);
                jar.write(entry.getValue());
                jar.closeEntry();
            }
        }
        return out.toByteArray();
    }

    private static void collect(Path root, Map<String, byte[]> entries) throws IOException {
        if (!Files.isDirectory(root)) {
            throw new IOException(root + " is not a directory of classes or resources");
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                String name = root.relativize(file).toString().replace(java.io.File.separatorChar, '/');
                if (!name.equals("META-INF/MANIFEST.MF")) {
                    entries.put(name, Files.readAllBytes(file));
                }
            }
        }
    }

    static String pretty(JsonObject object) {
        StringWriter text = new StringWriter();
        try (JsonWriter writer = Jsonp.provider().createWriterFactory(Map.of(JsonGenerator.PRETTY_PRINTING, true)).createWriter(text)) {
            writer.writeObject(object);
        }
        return text.toString().strip() + "\n";
    }

    static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
