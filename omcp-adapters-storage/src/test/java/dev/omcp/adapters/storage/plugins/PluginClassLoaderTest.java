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
