package dev.omcp.adapters.storage.plugins;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Resolves a manifest hook entry's {@code module} (spec 2.4) to a class of the plugin's JAR. The
 * module is a path relative to the plugin root, whose classes live in the verified entry JAR
 * ({@code com/acme/AuditHook.class}), or a class name ({@code com.acme.AuditHook}). A path escaping
 * the root is refused (spec 6.1 rule 5): hook code only ever comes from the verified JAR.
 */
final class HookModules {
    /**
     * Possessive: java.util.regex recurses once per repetition of a greedy group, and a manifest's
     * module of tens of thousands of packages would overflow the stack. A dot is no identifier
     * character, so giving characters or packages back never made a match.
     */
    private static final Pattern CLASS_NAME = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*+(?:\\.[A-Za-z_$][A-Za-z0-9_$]*+)*+");

    private HookModules() {}

    /** A resolved module, or why it cannot be one. */
    sealed interface Resolved {
        record ClassName(String name) implements Resolved {}

        record Refused(String reason) implements Resolved {}
    }

    static Resolved resolve(String module) {
        if (module.startsWith("/") || module.contains("\\") || module.matches("^[A-Za-z]:.*") || module.indexOf('\0') >= 0) {
            return new Resolved.Refused("module '" + module + "' escapes the plugin root: it must be a relative path inside the plugin");
        }
        if (!module.contains("/") && !module.endsWith(".class")) {
            return CLASS_NAME.matcher(module).matches()
                    ? new Resolved.ClassName(module)
                    : new Resolved.Refused("module '" + module + "' is neither a class name nor a .class path");
        }
        List<String> parts = new ArrayList<>();
        for (String segment : module.split("/")) {
            if (segment.isEmpty() || segment.equals(".")) {
                continue;
            }
            if (segment.equals("..")) {
                if (parts.isEmpty()) {
                    return new Resolved.Refused("module '" + module + "' escapes the plugin root");
                }
                parts.removeLast();
                continue;
            }
            parts.add(segment);
        }
        if (parts.isEmpty() || !parts.getLast().endsWith(".class")) {
            return new Resolved.Refused("module '" + module + "' must name a .class file of the plugin JAR, for example com/acme/AuditHook.class");
        }
        String last = parts.removeLast();
        parts.add(last.substring(0, last.length() - ".class".length()));
        String className = String.join(".", parts);
        return CLASS_NAME.matcher(className).matches()
                ? new Resolved.ClassName(className)
                : new Resolved.Refused("module '" + module + "' does not name a Java class");
    }
}
