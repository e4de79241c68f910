package dev.omcp.adapters.storage.plugins;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.net.URLStreamHandler;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * A class loader over the verified bytes of one plugin's entry JAR, held in memory: the classes that
 * run are exactly the bytes whose SHA-256 was checked, and no file on disk can be swapped in
 * between. Resources are served from the same bytes under an {@code omcp-plugin:} URL.
 */
final class PluginClassLoader extends ClassLoader {
    static {
        registerAsParallelCapable();
    }

    private final String plugin;
    private final Map<String, byte[]> entries;
    private final ProtectionDomain domain;
    private final URLStreamHandler handler = new URLStreamHandler() {
        @Override
        protected URLConnection openConnection(URL url) {
            return new URLConnection(url) {
                @Override
                public void connect() {}

                @Override
                public InputStream getInputStream() throws IOException {
                    String path;
                    try {
                        path = url.toURI().getPath().substring(1);
                    } catch (URISyntaxException e) {
                        throw new IOException("not a plugin resource URL: " + url, e);
                    }
                    byte[] bytes = entries.get(path);
                    if (bytes == null) {
                        throw new IOException("no entry " + url.getPath() + " in plugin " + plugin);
                    }
                    return new ByteArrayInputStream(bytes);
                }
            };
        }
    };

    private PluginClassLoader(String plugin, Map<String, byte[]> entries, ClassLoader parent) {
        super("omcp-plugin-" + plugin, parent);
        this.plugin = plugin;
        this.entries = entries;
        this.domain = new ProtectionDomain(new CodeSource(url(""), (Certificate[]) null), null, this, null);
    }

    /**
     * Reads the JAR bytes within the limits and returns a loader over them. The JAR is read as the
     * plain zip it is: {@code META-INF/MANIFEST.MF} is an entry like any other, counted against the
     * same bounds and kept as its very bytes (a {@code JarInputStream} reads the manifest whole before
     * any bound applies, so a manifest that inflates to gigabytes took the heap).
     */
    static PluginClassLoader of(String plugin, byte[] jar, ClassLoader parent) throws IOException {
        Map<String, byte[]> entries = new HashMap<>();
        long inflated = 0;
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(jar))) {
            ZipEntry entry;
            while ((entry = in.getNextEntry()) != null) {
                if (entry.isDirectory()) {
                    continue;
                }
                if (entries.size() >= PluginLimits.MAX_JAR_ENTRIES) {
                    throw new IOException("the entry JAR has more than " + PluginLimits.MAX_JAR_ENTRIES + " entries");
                }
                byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, PluginLimits.MAX_JAR_INFLATED_BYTES - inflated + 1));
                inflated += bytes.length;
                if (inflated > PluginLimits.MAX_JAR_INFLATED_BYTES) {
                    throw new IOException("the entry JAR inflates to more than " + (PluginLimits.MAX_JAR_INFLATED_BYTES >> 20)
                            + " MiB, the limit of what a plugin keeps in memory; leave out of the JAR what the gateway provides"
                            + " (the SDK, jakarta.json, SLF4J) and what the plugin does not use");
                }
                // Two entries of one name are read differently by different zip readers (the last local
                // header here, the central directory elsewhere): which class runs must not depend on it.
                if (entries.putIfAbsent(entry.getName(), bytes) != null) {
                    throw new IOException("the entry JAR holds '" + printable(entry.getName()) + "' twice; rebuild the JAR");
                }
            }
        }
        return new PluginClassLoader(plugin, Map.copyOf(entries), parent);
    }

    private static String printable(String name) {
        String clean = name.replaceAll("[^\\x20-\\x7e]", "?");
        return clean.length() <= 200 ? clean : clean.substring(0, 200) + "...";
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        byte[] bytes = entries.get(name.replace('.', '/') + ".class");
        if (bytes == null) {
            throw new ClassNotFoundException(name + " is neither in plugin '" + plugin
                    + "' nor provided by the gateway (only the SDK, jakarta.json and SLF4J are; bundle other libraries into the plugin JAR)");
        }
        int dot = name.lastIndexOf('.');
        if (dot > 0) {
            String pkg = name.substring(0, dot);
            if (getDefinedPackage(pkg) == null) {
                try {
                    definePackage(pkg, null, null, null, null, null, null, null);
                } catch (IllegalArgumentException e) {
                    // defined concurrently by another thread: fine
                }
            }
        }
        return defineClass(name, bytes, 0, bytes.length, domain);
    }

    @Override
    protected URL findResource(String name) {
        return entries.containsKey(name) ? url(name) : null;
    }

    @Override
    protected Enumeration<URL> findResources(String name) {
        URL url = findResource(name);
        return url == null ? Collections.emptyEnumeration() : Collections.enumeration(java.util.List.of(url));
    }

    /** Whether the JAR holds {@code name}. */
    boolean contains(String name) {
        return entries.containsKey(name);
    }

    private URL url(String path) {
        try {
            return URL.of(new URI("omcp-plugin", null, "/" + path, null), handler);
        } catch (URISyntaxException | java.net.MalformedURLException e) {
            throw new IllegalArgumentException("plugin resource name '" + path + "' is not usable in a URL", e);
        }
    }
}
