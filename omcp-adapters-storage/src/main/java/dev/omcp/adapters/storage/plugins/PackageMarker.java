package dev.omcp.adapters.storage.plugins;

import com.fasterxml.jackson.databind.JsonNode;
import dev.omcp.sdk.text.BackendText;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The {@code observabilityMcp} marker of a plugin's {@code package.json} (spec 2.1) and its
 * {@code main} entry file.
 *
 * @param name the connector name
 * @param manifest the manifest's path relative to the plugin root
 * @param main the entry JAR's path relative to the plugin root
 */
record PackageMarker(String name, String manifest, String main) {
    static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
    /** The longest {@code main} or {@code manifest} path, as for a bundle's entry names: a plugin's files need no longer one. */
    static final int MAX_PATH_LENGTH = 1024;
    /** How much of a value of {@code package.json} a refusal quotes: the file is never signed, so it may hold anything. */
    static final int MAX_QUOTED = 200;
    private static final Pattern UNSHOWABLE = Pattern.compile("[\\p{Cc}\\p{Cf}\\p{Cs}\\p{Zl}\\p{Zp}]");
    /**
     * A versioned directory, {@code <name>-<version>}, as a pin names it: its version may have
     * capitals ({@code tempo-1.0.0-SNAPSHOT}), which a connector name may not, and neither has a
     * {@code /} or starts with a dot, so it stays one directory inside the plugins directory.
     */
    private static final Pattern VERSIONED_DIRECTORY = Pattern.compile(
            "[a-z0-9][a-z0-9._-]{0,63}-[0-9]+\\.[0-9]+\\.[0-9]+(?:[-+][0-9A-Za-z.+-]{1,64})?");

    /** Whether {@code name} may name a plugin's directory: a connector name, or a versioned directory. */
    static boolean isDirectoryName(String name) {
        return NAME.matcher(name).matches() || VERSIONED_DIRECTORY.matcher(name).matches();
    }

    /** The outcome of reading {@code package.json}. */
    sealed interface Read {
        /** No {@code observabilityMcp} marker of kind {@code connector}: not a connector plugin. */
        record NotAConnector(String why) implements Read {}

        /** A connector marker with a problem. */
        record Invalid(String name, String problem) implements Read {}

        record Valid(PackageMarker marker) implements Read {}
    }

    static Read read(JsonNode packageJson) {
        JsonNode marker = packageJson.get("observabilityMcp");
        if (marker == null) {
            return new Read.NotAConnector("package.json has no observabilityMcp marker");
        }
        if (!marker.isObject()) {
            return new Read.Invalid("", "package.json: observabilityMcp must be an object {kind, name, manifest}");
        }
        if (!"connector".equals(marker.path("kind").asText(""))) {
            return new Read.NotAConnector("observabilityMcp.kind is '" + quoted(marker.path("kind").asText("")) + "', not 'connector'");
        }
        JsonNode nameNode = marker.path("name");
        if (!nameNode.isMissingNode() && !nameNode.isTextual()) {
            // asText would make {"name": 5} the connector "5": a name is a string, never read from another type
            return new Read.Invalid("", "package.json: observabilityMcp.name must be a string, not " + nameNode.getNodeType()
                    .name().toLowerCase(Locale.ROOT) + "; name the connector, for example \"name\": \"tempo\"");
        }
        String name = nameNode.asText("");
        if (!NAME.matcher(name).matches()) {
            // not the candidate's name either: the plugin is listed and logged under its directory's name
            return new Read.Invalid("", "package.json: observabilityMcp.name '" + quoted(name)
                    + "' must be 1-64 lower-case letters, digits, '.', '_' or '-', starting with a letter or digit");
        }
        Optional<String> manifest = Optional.ofNullable(marker.get("manifest")).filter(JsonNode::isTextual).map(JsonNode::asText);
        if (manifest.isEmpty() || manifest.get().isBlank()) {
            return new Read.Invalid(name, "package.json: observabilityMcp.manifest must name the manifest file, for example manifest.json");
        }
        Optional<String> main = Optional.ofNullable(packageJson.get("main")).filter(JsonNode::isTextual).map(JsonNode::asText);
        if (main.isEmpty() || !main.get().endsWith(".jar")) {
            return new Read.Invalid(name, "package.json: main must name the entry JAR, for example " + name + "-connector.jar");
        }
        List<String> problems = new ArrayList<>();
        pathProblem("observabilityMcp.manifest", manifest.get()).ifPresent(problems::add);
        pathProblem("main", main.get()).ifPresent(problems::add);
        if (!problems.isEmpty()) {
            return new Read.Invalid(name, String.join("; ", problems));
        }
        return new Read.Valid(new PackageMarker(name, manifest.get(), main.get()));
    }

    /**
     * Why {@code path} cannot name a file of the plugin, or empty. Refused here, once and quoted, so the
     * later checks that name the file (missing, escaping, too large) never repeat kilobytes or a line break.
     */
    private static Optional<String> pathProblem(String field, String path) {
        if (path.length() > MAX_PATH_LENGTH) {
            return Optional.of("package.json: " + field + " '" + quoted(path) + "' is longer than " + MAX_PATH_LENGTH
                    + " characters; name a file inside the plugin directory");
        }
        if (UNSHOWABLE.matcher(path).find()) {
            return Optional.of("package.json: " + field + " '" + quoted(path) + "' holds a control, format or line-separator character"
                    + " (shown as ?); name a file inside the plugin directory by a plain name");
        }
        return Optional.empty();
    }

    /** A value of {@code package.json} as a refusal quotes it: one line, cut. */
    static String quoted(String value) {
        return BackendText.quoted(value, MAX_QUOTED);
    }
}
