package dev.omcp.adapters.storage.plugins;

import java.io.IOException;
import java.net.URL;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * The parent of every plugin class loader: the JDK's platform classes plus exactly the packages a
 * plugin may share with the gateway, the SDK ({@code dev.omcp.sdk}), {@code jakarta.json} and the
 * SLF4J API the SDK declares. Everything else of the gateway (core, adapters, Jackson, Javalin) is
 * invisible, so a plugin neither sees nor links against it, and it exposes no resources: a plugin's
 * {@code META-INF/services} lookup finds only its own JAR.
 */
final class SdkOnlyClassLoader extends ClassLoader {
    static final List<String> EXPOSED_PACKAGES = List.of("dev.omcp.sdk.", "jakarta.json.", "org.slf4j.");

    static {
        registerAsParallelCapable();
    }

    private final ClassLoader gateway;

    SdkOnlyClassLoader(ClassLoader gateway) {
        super("omcp-plugin-parent", ClassLoader.getPlatformClassLoader());
        this.gateway = gateway;
    }

    static boolean exposed(String className) {
        for (String prefix : EXPOSED_PACKAGES) {
            if (className.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (exposed(name)) {
            return gateway.loadClass(name);
        }
        return super.loadClass(name, resolve);
    }

    @Override
    public URL getResource(String name) {
        return getParent().getResource(name);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        return name.startsWith("META-INF/") ? Collections.emptyEnumeration() : getParent().getResources(name);
    }
}
