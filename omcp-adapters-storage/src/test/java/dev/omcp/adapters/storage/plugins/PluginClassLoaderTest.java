package dev.omcp.adapters.storage.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;

/** The in-memory loader over an entry JAR's bytes: the nested archive of a bundle is bounded too. */
class PluginClassLoaderTest {

    private static byte[] zip(String[] names, byte[][] contents) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(out)) {
            for (int i = 0; i < names.length; i++) {
                zip.putNextEntry(new ZipEntry(names[i]));
                zip.write(contents[i]);
                zip.closeEntry();
            }
        }
        return out.toByteArray();
    }

    private static byte[] replaceAll(byte[] bytes, String from, String to) {
        byte[] f = from.getBytes(StandardCharsets.US_ASCII);
        byte[] t = to.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i + f.length <= bytes.length; i++) {
            if (java.util.Arrays.equals(bytes, i, i + f.length, f, 0, f.length)) {
                System.arraycopy(t, 0, bytes, i, t.length);
            }
        }
        return bytes;
    }

    @Test
    void aJarReadsIntoTheLoader() throws IOException {
        byte[] jar = zip(new String[] {"a.txt"}, new byte[][] {"hello".getBytes(StandardCharsets.UTF_8)});
        assertThat(PluginClassLoader.of("p", jar, getClass().getClassLoader()).contains("a.txt")).isTrue();
    }

    @Test
    void aJarThatInflatesPastTheLimit_isRefused_namingTheLimitAndWhatToDo() throws IOException {
        // a few hundred KiB of JAR that inflates to more than the 64 MiB a plugin may keep in memory
        byte[] bomb = zip(new String[] {"a.bin", "b.bin"}, new byte[][] {new byte[40 << 20], new byte[40 << 20]});
        assertThat(bomb.length).isLessThan(1 << 20);
        assertThatThrownBy(() -> PluginClassLoader.of("p", bomb, getClass().getClassLoader()))
                .isInstanceOf(IOException.class)
                .hasMessage("the entry JAR inflates to more than 64 MiB, the limit of what a plugin keeps in memory; leave out of the JAR"
                        + " what the gateway provides (the SDK, jakarta.json, SLF4J) and what the plugin does not use");
    }

    @Test
    void aJarWhoseManifestInflatesPastTheLimit_isRefused_asAnyOtherEntryIs() throws IOException {
        // the JAR manifest is an entry like any other: a reader that takes it apart read it whole, past every bound
        byte[] bomb = zip(new String[] {"META-INF/MANIFEST.MF"}, new byte[][] {new byte[80 << 20]});
        assertThat(bomb.length).isLessThan(1 << 20);
        assertThatThrownBy(() -> PluginClassLoader.of("p", bomb, getClass().getClassLoader()))
                .isInstanceOf(IOException.class)
                .hasMessageStartingWith("the entry JAR inflates to more than 64 MiB, the limit of what a plugin keeps in memory");
    }

    @Test
    void aJarWithTwoManifests_isRefused_asAnyOtherDuplicateIs() throws IOException {
        byte[] jar = zip(new String[] {"META-INF/MANIFEST.MF", "META-INF/MANIFEST.MX"},
                new byte[][] {"Manifest-Version: 1.0\r\n\r\n".getBytes(StandardCharsets.UTF_8),
                        "Manifest-Version: 1.0\r\nX: two\r\n\r\n".getBytes(StandardCharsets.UTF_8)});
        byte[] duplicated = replaceAll(jar, "META-INF/MANIFEST.MX", "META-INF/MANIFEST.MF");
        assertThatThrownBy(() -> PluginClassLoader.of("p", duplicated, getClass().getClassLoader()))
                .isInstanceOf(IOException.class)
                .hasMessage("the entry JAR holds 'META-INF/MANIFEST.MF' twice; rebuild the JAR");
    }

    @Test
    void theJarManifest_isServedAsTheVeryBytesOfTheJar() throws IOException {
        byte[] manifest = "Manifest-Version: 1.0\r\nCreated-By: test\r\n\r\n".getBytes(StandardCharsets.UTF_8);
        byte[] jar = zip(new String[] {"META-INF/MANIFEST.MF"}, new byte[][] {manifest});
        PluginClassLoader loader = PluginClassLoader.of("p", jar, getClass().getClassLoader());
        // findResource: the plugin's own resources (a lookup through the parent would find the test runner's manifest first)
        try (java.io.InputStream in = loader.findResource("META-INF/MANIFEST.MF").openStream()) {
            assertThat(in).isNotNull();
            assertThat(in.readAllBytes()).isEqualTo(manifest);
        }
    }

    @Test
    void aJarWithTwoEntriesOfOneName_isRefused() throws IOException {
        byte[] jar = zip(new String[] {"dev/x/Aaaa.class", "dev/x/Bbbb.class"},
                new byte[][] {"one".getBytes(StandardCharsets.UTF_8), "two".getBytes(StandardCharsets.UTF_8)});
        // ZipOutputStream refuses to write a duplicate; rename the second entry in its headers instead
        byte[] duplicated = replaceAll(jar, "dev/x/Bbbb.class", "dev/x/Aaaa.class");
        assertThatThrownBy(() -> PluginClassLoader.of("p", duplicated, getClass().getClassLoader()))
                .isInstanceOf(IOException.class)
                .hasMessage("the entry JAR holds 'dev/x/Aaaa.class' twice; rebuild the JAR");
    }
}
