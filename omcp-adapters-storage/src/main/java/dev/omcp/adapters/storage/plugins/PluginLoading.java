package dev.omcp.adapters.storage.plugins;

import dev.omcp.ports.plugins.LoadedHook;
import dev.omcp.ports.plugins.LoadedPlugin;
import dev.omcp.ports.plugins.PluginCandidate;
import dev.omcp.ports.plugins.PluginLoadException;
import dev.omcp.sdk.connector.ConnectorFactory;
import dev.omcp.sdk.hook.Hook;
import dev.omcp.sdk.manifest.ConnectorManifest;
import dev.omcp.sdk.manifest.HookEntry;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Turns a checked plugin into code: its own {@link PluginClassLoader} under the
 * {@link SdkOnlyClassLoader}, the one factory of {@code META-INF/services}, and its hooks. No
 * network is used; the plugin's static initializers run with the plugin loader as context loader.
 *
 * <p>Whatever the plugin's code throws while it loads, an {@link Error} included (a failed
 * assertion, runaway recursion, a static initializer's own error, which the JVM passes on unwrapped),
 * is that plugin failing to load, as the hook pipeline treats a hook's: escaping, it stopped the
 * scan, and so the start or the install (an upgrade then stayed in place without the earlier version).
 */
final class PluginLoading {
    private PluginLoading() {}

    static LoadedPlugin load(PluginCandidate candidate, byte[] jar, ClassLoader gateway) throws PluginLoadException {
        ConnectorManifest manifest = candidate.manifest()
                .orElseThrow(() -> new PluginLoadException("plugin '" + candidate.location() + "' has no valid manifest"));
        PluginClassLoader loader;
        try {
            loader = PluginClassLoader.of(manifest.name(), jar, new SdkOnlyClassLoader(gateway));
        } catch (IOException e) {
            throw new PluginLoadException("the entry JAR of '" + candidate.location() + "' is not a readable JAR: " + e.getMessage());
        }
        if (!loader.contains("META-INF/services/" + ConnectorFactory.class.getName())) {
            throw new PluginLoadException("the entry JAR registers no factory: add META-INF/services/" + ConnectorFactory.class.getName()
                    + " naming the class that implements it");
        }
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            ConnectorFactory factory = factory(loader, manifest);
            List<LoadedHook> hooks = new ArrayList<>();
            List<LoadedPlugin.SkippedHook> skipped = new ArrayList<>();
            for (HookEntry entry : manifest.hooks()) {
                try {
                    hooks.add(new LoadedHook(entry, hook(loader, entry)));
                } catch (HookUnusable e) {
                    skipped.add(new LoadedPlugin.SkippedHook(entry, e.getMessage()));
                }
            }
            return LoadedPlugin.of(candidate, factory, hooks, skipped);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private static ConnectorFactory factory(PluginClassLoader loader, ConnectorManifest manifest) throws PluginLoadException {
        List<ConnectorFactory> factories = new ArrayList<>();
        try {
            Iterator<ConnectorFactory> iterator = ServiceLoader.load(ConnectorFactory.class, loader).iterator();
            while (iterator.hasNext()) {
                factories.add(iterator.next());
            }
        } catch (RuntimeException | Error e) {
            throw new PluginLoadException("the factory of '" + manifest.name() + "' cannot be created: " + describe(e));
        }
        if (factories.size() != 1) {
            throw new PluginLoadException("the entry JAR registers " + factories.size() + " factories in META-INF/services; a plugin registers exactly one");
        }
        ConnectorFactory factory = factories.getFirst();
        if (factory.getClass().getClassLoader() != loader) {
            throw new PluginLoadException("the registered factory " + factory.getClass().getName() + " is not a class of the plugin JAR");
        }
        String declared;
        try {
            declared = factory.manifest().name();
        } catch (RuntimeException | Error e) {
            throw new PluginLoadException("the factory of '" + manifest.name() + "' failed to describe itself: " + describe(e));
        }
        if (!manifest.name().equals(declared)) {
            throw new PluginLoadException("the factory declares connector '" + declared + "' but manifest.json names '" + manifest.name() + "'");
        }
        return factory;
    }

    /** A hook entry that cannot be used; never fails the connector load (spec 6.1 rule 5). */
    private static final class HookUnusable extends Exception {
        private static final long serialVersionUID = 1L;

        HookUnusable(String message) {
            super(message);
        }
    }

    private static Hook hook(PluginClassLoader loader, HookEntry entry) throws HookUnusable {
        String className = switch (HookModules.resolve(entry.module())) {
            case HookModules.Resolved.Refused refused -> throw new HookUnusable(refused.reason());
            case HookModules.Resolved.ClassName name -> name.name();
        };
        if (!loader.contains(className.replace('.', '/') + ".class")) {
            throw new HookUnusable("module '" + entry.module() + "' is missing: the plugin JAR has no class " + className);
        }
        Class<?> type;
        try {
            type = Class.forName(className, true, loader);
        } catch (ClassNotFoundException | RuntimeException | Error e) {
            throw new HookUnusable("module '" + entry.module() + "' cannot be loaded: " + describe(e));
        }
        if (!Hook.class.isAssignableFrom(type) || type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
            throw new HookUnusable("module '" + entry.module() + "' is not a hook: " + className + " does not implement " + Hook.class.getName());
        }
        try {
            Constructor<?> constructor = type.getConstructor();
            return (Hook) constructor.newInstance();
        } catch (NoSuchMethodException e) {
            throw new HookUnusable("module '" + entry.module() + "' has no public no-argument constructor");
        } catch (InvocationTargetException e) {
            throw new HookUnusable("module '" + entry.module() + "' failed in its constructor: " + describe(e.getCause()));
        } catch (ReflectiveOperationException | RuntimeException | Error e) {
            throw new HookUnusable("module '" + entry.module() + "' cannot be created: " + describe(e));
        }
    }

    private static String describe(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return root.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
